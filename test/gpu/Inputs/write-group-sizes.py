#!/usr/bin/env python3
"""write-group-sizes.py DIR: the i32 group sizes of generated-grouped-gemm.mlir's
entries as DIR/<entry>/sizes.npy (moe-runner's --inputs layout), without
numpy. The sizes are fixed (see the .mlir's header); many_groups' come from a
seeded generator (0..12 rows a group, 1800 in all at most)."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import npy  # noqa: E402

SKEWED = [0, 300, 0, 0, 5, 1, 0, 100]
rng = random.Random(7)
SIZES = {
    "balanced": [128, 128, 128, 128],
    "skewed_empty": SKEWED,
    "one_group": [0, 0, 512, 0],
    "f32_out": SKEWED,
    "large_groups": [700, 324],
    "many_groups": [rng.randrange(0, 13) for _ in range(300)],
    "nk_skewed": SKEWED,
    "nk_large": [700, 324],
    "k_tail_kn": SKEWED,
    "k_tail_nk": SKEWED,
    "wgrad_m_tail": SKEWED,
    "wgrad_nk_m_tail": SKEWED,
    "panels_kn": [700, 324],
    "panels_wgrad": [700, 324],
    "wgrad_skewed": SKEWED,
    "wgrad_bf16": [700, 324],
    "wgrad_nk": SKEWED,
    "wgrad_one_group": [0, 0, 512, 0],
    "gated_silu": SKEWED,
    "gated_nk_scaled": [700, 324],
    "up_weight_kn": SKEWED,
    "up_weight_nk": [700, 324],
    "up_weight_pingpong": [700, 324],
    "row_scaled": SKEWED,
    "glu_adjoint": SKEWED,
    "glu_adjoint_pingpong": [600, 324],
    "accumulated_sum": SKEWED,
    "accumulated_sum_kn_f32": SKEWED,
    "accumulated_into_input": SKEWED,
    "wide_kn": [700, 324],
    "wide_nk": [700, 324],
    "wide_gated": [700, 324],
    "wide_gated_nk_f32": SKEWED,
}
SIZES["wgrad_many_groups"] = SIZES["many_groups"]
SIZES["wgrad_pingpong"] = SKEWED
SIZES["wgrad_pingpong_many"] = SIZES["many_groups"]


out = sys.argv[1]
for entry, sizes in SIZES.items():
    npy.write(os.path.join(out, entry, "sizes.npy"), "<i4", [len(sizes)], sizes)

# k_tail_kn's weights b [8, 96, 192] (f32, read as bf16): seeded values in
# [-1, 1), and NaN in group 2, which is empty; group 1's last, partial
# k-step brings group 2's first 32 rows into shared memory.
wrng = random.Random(11)
weights = []
for g in range(8):
    for _ in range(96 * 192):
        weights.append(float("nan") if g == 2 else wrng.uniform(-1.0, 1.0))
npy.write(os.path.join(out, "k_tail_kn", "b.npy"), "<f4", [8, 96, 192], weights)
