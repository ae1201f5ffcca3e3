#!/usr/bin/env python3
"""Writes ties/router_weight.npy: a float32 [64, 8] router weight whose
columns repeat, c0 c1 c0 c1 c2 c3 c2 c3, so that every token's logits tie
exactly: experts 0 = 2, 1 = 3, 4 = 6, 5 = 7, and groups of two {0,1} = {2,3},
{4,5} = {6,7}. The spec breaks ties towards the lower index, so the outputs
depend on the tie-break. No numpy needed."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import npy  # noqa: E402

H, E = 64, 8
rng = random.Random(1)
cols = [[rng.gauss(0.0, 0.125) for _ in range(H)] for _ in range(4)]
layout = [0, 1, 0, 1, 2, 3, 2, 3]
values = [cols[layout[e]][h] for h in range(H) for e in range(E)]
npy.write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ties", "router_weight.npy"),
          "<f4", [H, E], values)
