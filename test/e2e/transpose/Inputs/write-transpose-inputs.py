#!/usr/bin/env python3
"""write-transpose-inputs.py DIR: writes the integer input of
Inputs/transposes.mlir (moe-runner makes random inputs of float types only)
as DIR/i32_33x70/x.npy: distinct values over the whole i32 range, seeded,
without numpy. The float inputs stay moe-runner's random ones."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "scripts"))
import npy  # noqa: E402


def main():
    out = sys.argv[1]
    rng = random.Random(20251126)
    shape = (33, 70)
    values = rng.sample(range(-2**31, 2**31), shape[0] * shape[1])
    os.makedirs(os.path.join(out, "i32_33x70"), exist_ok=True)
    npy.write(os.path.join(out, "i32_33x70", "x.npy"), "<i4", shape, values)
    return 0


if __name__ == "__main__":
    sys.exit(main())
