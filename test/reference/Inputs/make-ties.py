#!/usr/bin/env python3
"""Writes ties/router_weight.npy: a float32 [64, 8] router weight whose
columns repeat, c0 c1 c0 c1 c2 c3 c2 c3, so that every token's logits tie
exactly: experts 0 = 2, 1 = 3, 4 = 6, 5 = 7, and groups of two {0,1} = {2,3},
{4,5} = {6,7}. The spec breaks ties towards the lower index, so the outputs
depend on the tie-break. No numpy needed."""
import os
import random
import struct

H, E = 64, 8
rng = random.Random(1)
cols = [[rng.gauss(0.0, 0.125) for _ in range(H)] for _ in range(4)]
layout = [0, 1, 0, 1, 2, 3, 2, 3]
values = [cols[layout[e]][h] for h in range(H) for e in range(E)]
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (H, E)
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ties",
                   "router_weight.npy")
with open(out, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%df" % len(values), *values))
