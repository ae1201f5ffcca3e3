#!/usr/bin/env python3
"""nan-mask.py DIR: for each f32 2-D .npy file of a moe-runner --dump
directory (DIR/<entry>/<name>.npy, entries and names in sorted order) prints
`<entry>/<name>: <mask>`, the mask one word per row: `N` a NaN, `.` a number
(finite or not); e.g. `glu_relu_bwd/d_up: .N.. ....`. Needs no numpy."""
import ast
import math
import os
import struct
import sys

root = sys.argv[1]
for entry in sorted(os.listdir(root)):
    for name in sorted(os.listdir(os.path.join(root, entry))):
        stem, ext = os.path.splitext(name)
        if ext != ".npy":
            continue
        data = open(os.path.join(root, entry, name), "rb").read()
        assert data[:8] == b"\x93NUMPY\x01\x00", "not a .npy 1.0 file: " + name
        (hlen,) = struct.unpack("<H", data[8:10])
        header = ast.literal_eval(data[10:10 + hlen].decode("latin1"))
        if header["descr"] != "<f4" or len(header["shape"]) != 2:
            continue
        rows, cols = header["shape"]
        values = struct.unpack("<%df" % (rows * cols), data[10 + hlen:])
        words = ["".join("N" if math.isnan(values[r * cols + c]) else "."
                         for c in range(cols)) for r in range(rows)]
        print("%s/%s: %s" % (entry, stem, " ".join(words)))
