#!/usr/bin/env python3
"""Relative L2 difference of every float output of two moe-runner --dump dirs.

  compare-dumps.py REF_DIR RUN_DIR [--tol NAME=TOL ...] [--default-tol TOL]
                   [--skip NAME ...]

For each entry directory and .npy file present in both (moe-runner --dump
writes bf16/f16/fp8 as exact float32), prints `<entry>/<name> rel_l2=<e>`
with e = ||run - ref||_2 / ||ref||_2 over all elements, and `FAIL` after it
when e exceeds the tolerance of NAME (the --tol given for that name, or
the prefix-matching one, else --default-tol). Only arrays whose names are
in both dumps and whose shapes agree are compared: an FP8 layer has extra
outputs (new amax histories) and inputs that a bf16 layer lacks. Inputs
(identical by construction) are compared too and must be 0. An array NAME
of RUN_DIR with a NAME_scale beside it (an FP8 residual of
moe-fp8-placement) is dequantized first: times a 0-d scale, or, for
[M, N] data with [M, S] scales, each element times the scale of its 1×B
block (B = 32 or 128, whichever gives S blocks). Exit status 1
when anything fails. No numpy: reads float32/float64/int32 .npy (v1-v3).
"""
import argparse
import ast
import math
import os
import struct
import sys


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(path + ": not a .npy file")
    major = data[6]
    if major == 1:
        hlen = struct.unpack("<H", data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", data[8:12])[0]
        start = 12
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    body = data[start + hlen:]
    code = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|b1": "?",
            "|u1": "B", "|i1": "b"}.get(header["descr"])
    if code is None or header.get("fortran_order"):
        return None, None
    count = math.prod(header["shape"])
    return tuple(header["shape"]), struct.unpack("<%d%s" % (count, code),
                                                 body[:count * struct.calcsize(code)])


def dequantize(values, shape, scale, scale_shape):
    if scale_shape == ():
        return [v * scale[0] for v in values]
    rows, cols = shape
    blocks = scale_shape[1]
    width = next(b for b in (32, 128) if -(-cols // b) == blocks)
    return [values[i] * scale[(i // cols) * blocks + (i % cols) // width]
            for i in range(len(values))]


def tolerance(name, tols, default):
    if name in tols:
        return tols[name]
    best = None
    for key, tol in tols.items():
        if key.endswith("*") and name.startswith(key[:-1]):
            if best is None or len(key) > len(best[0]):
                best = (key, tol)
    return best[1] if best else default


def main():
    p = argparse.ArgumentParser()
    p.add_argument("ref")
    p.add_argument("run")
    p.add_argument("--tol", action="append", default=[],
                   help="NAME=TOL or PREFIX*=TOL")
    p.add_argument("--default-tol", type=float, default=0.0)
    p.add_argument("--skip", action="append", default=[])
    args = p.parse_args()
    tols = {}
    for t in args.tol:
        name, value = t.split("=")
        tols[name] = float(value)
    failed = False
    compared = 0
    for entry in sorted(os.listdir(args.ref)):
        ref_dir = os.path.join(args.ref, entry)
        run_dir = os.path.join(args.run, entry)
        if not os.path.isdir(ref_dir) or not os.path.isdir(run_dir):
            continue
        for fname in sorted(os.listdir(ref_dir)):
            name = fname[:-4]
            if not fname.endswith(".npy") or name in args.skip:
                continue
            run_path = os.path.join(run_dir, fname)
            if not os.path.exists(run_path):
                continue
            rshape, ref = read_npy(os.path.join(ref_dir, fname))
            xshape, run = read_npy(run_path)
            if ref is None or run is None or rshape != xshape:
                continue
            scale_path = os.path.join(run_dir, name + "_scale.npy")
            if os.path.exists(scale_path) and not os.path.exists(
                    os.path.join(ref_dir, name + "_scale.npy")):
                sshape, scale = read_npy(scale_path)
                run = dequantize(run, xshape, scale, sshape)
            if any(isinstance(v, (bool, int)) and not isinstance(v, float)
                   for v in ref[:1]):
                diff = sum(1 for a, b in zip(ref, run) if a != b)
                status = "FAIL" if diff else ""
                print("%s/%s differing=%d %s" % (entry, name, diff, status))
                failed |= diff != 0
                compared += 1
                continue
            num = sum((a - b) ** 2 for a, b in zip(run, ref))
            den = sum(b * b for b in ref)
            err = math.sqrt(num / den) if den > 0 else math.sqrt(num)
            tol = tolerance(name, tols, args.default_tol)
            bad = not (err <= tol)
            failed |= bad
            compared += 1
            print("%s/%s rel_l2=%.3e tol=%.0e%s" %
                  (entry, name, err, tol, " FAIL" if bad else ""))
    if compared == 0:
        print("nothing compared")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
