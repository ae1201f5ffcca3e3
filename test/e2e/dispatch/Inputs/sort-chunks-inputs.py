#!/usr/bin/env python3
"""Writes the integer inputs of sort-chunks-large.mlir into DIR (argv[2]),
with the repository's scripts/ (argv[1]) for the .npy format.

counts [32] (P = 4 ranks × C = 8 local experts, p-major): empty chunks, rank
2 sends nothing, Σ = 1000 of the 1024 rows. send [8]: C = 8 chunks for the
one rank, Σ = 1000. small_counts [6] (P = 3, C = 2, or P = 2, C = 3 for the
inverse): Σ = 70, fewer than the 77 f32 rows and the 96 FP8 rows.
"""
import os
import sys

sys.path.insert(0, sys.argv[1])
import npy  # noqa: E402

out = sys.argv[2]
counts = [40, 0, 35, 30, 61, 0, 44, 40,
          33, 29, 0, 41, 28, 37, 30, 52,
          0, 0, 0, 0, 0, 0, 0, 0,
          105, 71, 27, 0, 79, 88, 60, 70]
assert sum(counts) == 1000
npy.write(os.path.join(out, "counts.npy"), "<i4", [32], counts)
send = [200, 0, 150, 100, 250, 0, 200, 100]
assert sum(send) == 1000
npy.write(os.path.join(out, "send.npy"), "<i4", [8], send)
small = [12, 0, 20, 9, 0, 29]
assert sum(small) == 70
npy.write(os.path.join(out, "small_counts.npy"), "<i4", [6], small)
