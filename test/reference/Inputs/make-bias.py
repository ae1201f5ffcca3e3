#!/usr/bin/env python3
"""Writes bias16/bias.npy: a float32 [16] expert bias for the sigmoid and
sqrt-softplus layers, large enough (|b| up to 0.15) that using the biased
instead of the unbiased scores as weights moves `out` well past the bf16
tolerance (the random default bias, stddev 0.01, would not). No numpy needed.

    b[e] = 0.02 * (((7 * e) % 16) - 7.5)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import npy  # noqa: E402

E = 16
values = [0.02 * (((7 * e) % E) - 7.5) for e in range(E)]
npy.write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "bias16", "bias.npy"),
          "<f4", [E], values)
