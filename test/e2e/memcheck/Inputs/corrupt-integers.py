#!/usr/bin/env python3
"""corrupt-integers.py DIR: rewrites every i32 .npy file of DIR (moe-runner
--inputs layout) in place with out-of-range values, cycling through -1, a
large positive, -2^31, 2^31 - 1 and 7 + the element's index, and prints one
line per file: `<name>: <count> values corrupted`."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "scripts"))
import npy  # noqa: E402

CYCLE = [-1, 1 << 20, -(1 << 31), (1 << 31) - 1]
root = sys.argv[1]
for name in sorted(os.listdir(root)):
    path = os.path.join(root, name)
    if not name.endswith(".npy"):
        continue
    header, values = npy.read(path)
    if header["descr"] != "<i4":
        continue
    bad = [CYCLE[i % len(CYCLE)] if i % 5 else 7 + i for i in range(len(values))]
    npy.write(path, "<i4", list(header["shape"]), bad)
    print("%s: %d values corrupted" % (name[:-4], len(bad)))
