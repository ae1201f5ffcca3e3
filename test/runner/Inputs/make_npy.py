#!/usr/bin/env python3
"""Writes the .npy test inputs of test/runner (committed as binary files).

Run from anywhere: python3 make_npy.py. Needs no numpy (scripts/npy.py).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
import npy as npy_format  # noqa: E402


def npy(path, descr, shape, values, raw=None, version=1, truncate=0):
    if raw is not None:
        out = npy_format.frame(npy_format.header_text(descr, shape), raw, version)
    else:
        out = npy_format.pack(descr, shape, values, version)
    if truncate:
        out = out[:-truncate]
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(out)


# hand/: per-entry layout (DIR/<entry>/<name>.npy), values checked by hand.
# gpu-run.test: the group sizes of fake_gemm (sum 60 of 64 rows).
npy("gemm/sizes.npy", "<i4", [4], [10, 0, 30, 20])
npy("hand/axpy/x.npy", "<f4", [4], [1, 2, 3, 4])
npy("hand/axpy/y.npy", "<f8", [4], [0.5, -1, 0.25, 10])
npy("hand/axpy_bf16/x.npy", "<f4", [2, 3], [1, 1.5, -2, 0.1, 3, 100])
npy("hand/axpy_bf16/y.npy", "<f2", [2, 3], [0.5, 0.25, 1, -0.5, 0.125, 1], version=2)
npy("hand/gather/table.npy", "<f4", [5], [10, 20, 30, 40, 50])
npy("hand/gather/idx.npy", "<i8", [3], [4, 0, 7])
npy("hand/gather/mask.npy", "|b1", [3], [True, False, True])
npy("hand/linear/x.npy", "<f4", [2, 3], [1, 2, 3, -1, 0.5, 2])
npy("hand/linear/w.npy", "<f4", [3, 4], [1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1])

# flat/: flat layout (DIR/<name>.npy), integer sources converted to f32.
npy("flat/x.npy", "|u1", [4], [0, 1, 2, 255])
npy("flat/y.npy", "<i4", [4], [-3, 0, 7, 1])

# Broken inputs for the error tests.
npy("bad_shape/x.npy", "<f4", [3], [1, 2, 3])
npy("bad_dtype/x.npy", "<c8", [4], None, raw=b"\0" * 32)
npy("truncated/x.npy", "<f4", [4], [1, 2, 3, 4], truncate=3)
npy("lossy/gather/idx.npy", "<f4", [3], [1, 1.5, 2])
npy("lossy/gather/mask.npy", "|b1", [3], [True, True, True])
npy("range/gather/idx.npy", "<i8", [3], [1, 2**40, 2])
npy("range/gather/mask.npy", "|u1", [3], [1, 1, 0])
npy("badmask/gather/idx.npy", "<i4", [3], [1, 2, 3])
npy("badmask/gather/mask.npy", "|u1", [3], [1, 2, 0])
os.makedirs(os.path.join(HERE, "bad_magic"), exist_ok=True)
with open(os.path.join(HERE, "bad_magic", "x.npy"), "wb") as f:
    f.write(b"this is not a numpy file\n")
