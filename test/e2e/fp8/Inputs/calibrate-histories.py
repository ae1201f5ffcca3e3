#!/usr/bin/env python3
"""Amax histories for a delayed-scaling layer from a previous run's dump.

  calibrate-histories.py DUMP_DIR OUT_DIR

For every DUMP_DIR/<entry>/new_amax_<tag>.npy (the rolled history a run
returned, slot 0 = that run's amax of the tensor), writes
OUT_DIR/<entry>/amax_<tag>.npy with every slot set to that amax: the
steady state of delayed scaling on a stationary input, and valid moe-runner
--inputs. float32 .npy, no numpy.
"""
import ast
import os
import struct
import sys


def read_f32(path):
    data = open(path, "rb").read()
    hlen = struct.unpack("<H", data[8:10])[0]
    header = ast.literal_eval(data[10:10 + hlen].decode("latin1"))
    assert header["descr"] == "<f4", path
    (n,) = header["shape"]
    return list(struct.unpack("<%df" % n, data[10 + hlen:10 + hlen + 4 * n]))


def write_f32(path, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *values))


def main():
    dump, out = sys.argv[1], sys.argv[2]
    written = 0
    for entry in sorted(os.listdir(dump)):
        for fname in sorted(os.listdir(os.path.join(dump, entry))):
            if not fname.startswith("new_amax_") or not fname.endswith(".npy"):
                continue
            history = read_f32(os.path.join(dump, entry, fname))
            os.makedirs(os.path.join(out, entry), exist_ok=True)
            write_f32(os.path.join(out, entry, fname[len("new_"):]),
                      [history[0]] * len(history))
            written += 1
    print("wrote %d histories" % written)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
