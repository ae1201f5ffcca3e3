#!/usr/bin/env python3
"""write-fp8-group-sizes.py DIR: the i32 group sizes of fp8-grouped-matmul.mlir's
and fp8-weight-grad.mlir's entries as DIR/<entry>/sizes.npy (moe-runner's --inputs layout), without
numpy: empty groups, sizes that are not multiples of a tile, rows past the
last group; bw_many_groups' (0..20 rows a group) and the wg_bw_persistent
cases' (several tiles a CTA) from a seeded generator."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import npy  # noqa: E402

SKEWED = [0, 300, 0, 0, 5, 1, 0, 100]
rng = random.Random(11)
SIZES = {
    "tw_kn": SKEWED,
    "tw_nk_e5m2_f32": [0, 130, 257, 1, 0, 64, 300, 200],
    "bw_kn": SKEWED,
    "bw_nk_large": [700, 324, 0, 0],
    "bw_nk_n200_e5m2": [0, 130, 257, 1, 0, 64, 300, 200],
    "bw_many_groups": [rng.randrange(0, 21) for _ in range(64)],
    # fp8-weight-grad.mlir
    "wg_bw_kn": SKEWED,
    "wg_bw_nk_f32": [0, 130, 257, 1, 0, 64, 300, 200],
    "wg_tw_kn": [0, 130, 257, 1, 0, 64, 300, 200],
    "wg_bw_large": [700, 324, 0, 0],
    "wg_bw_many_groups": [rng.randrange(0, 21) for _ in range(64)],
    "wg_bf16_transposed": SKEWED,
    # several tiles a CTA: groups of whole 128-row blocks (6144 rows), and
    # small unaligned ones (2048 rows)
    "wg_bw_persistent_aligned": [rng.choice([0, 128, 128, 256]) for _ in range(32)],
    "wg_bw_persistent_ragged": [rng.randrange(0, 65) for _ in range(64)],
    "wg_bw_m192_n200": [0, 130, 257, 1, 0, 64, 300, 200],
}
assert sum(SIZES["wg_bw_persistent_aligned"]) <= 6144
assert sum(SIZES["wg_bw_persistent_ragged"]) <= 2048

out = sys.argv[1]
for entry, sizes in SIZES.items():
    npy.write(os.path.join(out, entry, "sizes.npy"), "<i4", [len(sizes)], sizes)
