#!/usr/bin/env python3
"""write-fp8-wgrad-sizes.py DIR: the i32 group sizes of fp8-wgrad.mlir's
entries as DIR/<entry>/sizes.npy (moe-runner's --inputs layout), without
numpy: empty groups (leading, consecutive, trailing) and rows past the last
group in every entry."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import npy  # noqa: E402

# 16 groups over R = 1024 rows: 845 rows in groups, 179 past the last one.
CHAIN = [0, 100, 37, 0, 0, 128, 5, 64, 0, 200, 1, 0, 90, 70, 150, 0]
# 8 groups over R = 512 rows: 406 rows in groups, 106 past the last one.
SKEWED = [0, 300, 0, 0, 5, 1, 0, 100]
SIZES = {
    "wgrad_chain_blockwise": CHAIN,
    "wgrad_chain_tensorwise": CHAIN,
    "wgrad_f32_nk": SKEWED,
    "gmm_f32_nk": SKEWED,
}

out = sys.argv[1]
for entry, sizes in SIZES.items():
    npy.write(os.path.join(out, entry, "sizes.npy"), "<i4", [len(sizes)], sizes)
