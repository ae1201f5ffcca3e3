#!/usr/bin/env python3
"""nan-mask.py DIR: for each f32 2-D .npy file of a moe-runner --dump
directory (DIR/<entry>/<name>.npy, entries and names in sorted order) prints
`<entry>/<name>: <mask>`, the mask one word per row: `N` a NaN, `.` a number
(finite or not); e.g. `glu_relu_bwd/d_up: .N.. ....`. Needs no numpy."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "scripts"))
import npy  # noqa: E402

root = sys.argv[1]
for entry in sorted(os.listdir(root)):
    for name in sorted(os.listdir(os.path.join(root, entry))):
        stem, ext = os.path.splitext(name)
        if ext != ".npy":
            continue
        with open(os.path.join(root, entry, name), "rb") as f:
            header, payload = npy.parse(f.read())
        if header["descr"] != "<f4" or len(header["shape"]) != 2:
            continue
        rows, cols = header["shape"]
        values = npy.unpack("<f4", payload, rows * cols)
        words = ["".join("N" if math.isnan(values[r * cols + c]) else "."
                         for c in range(cols)) for r in range(rows)]
        print("%s/%s: %s" % (entry, stem, " ".join(words)))
