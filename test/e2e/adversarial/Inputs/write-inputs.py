#!/usr/bin/env python3
"""write-inputs.py DIR: the file inputs of Inputs/layers.mlir in moe-runner's
per-entry --inputs layout (DIR/<entry>/<name>.npy, written for entry X and
for moe-generate-vjp's X_fwd, whose inputs X_bwd takes), without numpy:

  same_k/bias       +8 on experts 2 and 5, 0 elsewhere (E = 8)
  one_expert/bias   +8 on expert 6, 0 elsewhere (E = 8)
  groups_e256/bias  +8 on every expert of groups 1 and 6 (experts 32..63 and
                    192..223), 0 elsewhere (E = 256)
  nonfinite_x/x     [37, 32], N(0, 1) from a fixed seed, with x[3, 5] = NaN,
                    x[10, 0] = +inf, x[20, 31] = -inf
  logits_softmax/logits, logits_sigmoid/logits
                    [37, 8], N(0, 1) from a fixed seed, with logits[3, 1] =
                    NaN, logits[10, 4] = +inf, logits[20, 2] = -inf, row 25
                    -inf except logits[25, 5] = 0.5, row 30 all -inf,
                    logits[33, 0] = NaN
  gemm_overflow/x   [37, 32], N(0, 1), with column 0 zero except x[5, 0] = 2^70
  gemm_overflow/w_gate
                    [8, 32, 48], N(0, 1/32), with w_gate[e][0, :] = 2^70 for
                    experts 6 and 7
  gemm_overflow/logits
                    [37, 8], N(0, 1) with experts 6 and 7 at -8 for every
                    token but token 5, whose logits are 0 except 4 on 6 and 7

Sigmoid scores lie in (0, 1), so a +8 bias decides the selection whatever
the logits; the weights come from the unbiased scores."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "scripts"))
import npy  # noqa: E402


def write_f32(path, shape, values):
    """Writes `path` (DIR/X/NAME.npy) and its X_fwd twin DIR/X_fwd/NAME.npy."""
    entry_dir, name = os.path.split(path)
    for target in (path, os.path.join(entry_dir + "_fwd", name)):
        npy.write(target, "<f4", shape, values)


out = sys.argv[1]
write_f32(os.path.join(out, "same_k", "bias.npy"), [8],
          [8.0 if e in (2, 5) else 0.0 for e in range(8)])
write_f32(os.path.join(out, "one_expert", "bias.npy"), [8],
          [8.0 if e == 6 else 0.0 for e in range(8)])
write_f32(os.path.join(out, "groups_e256", "bias.npy"), [256],
          [8.0 if e // 32 in (1, 6) else 0.0 for e in range(256)])

rng = random.Random(17)
x = [rng.gauss(0.0, 1.0) for _ in range(37 * 32)]
x[3 * 32 + 5] = float("nan")
x[10 * 32 + 0] = float("inf")
x[20 * 32 + 31] = float("-inf")
write_f32(os.path.join(out, "nonfinite_x", "x.npy"), [37, 32], x)

rng = random.Random(29)
nan, inf = float("nan"), float("inf")
logits = [rng.gauss(0.0, 1.0) for _ in range(37 * 8)]
logits[3 * 8 + 1] = nan
logits[10 * 8 + 4] = inf
logits[20 * 8 + 2] = -inf
logits[25 * 8:26 * 8] = [-inf] * 5 + [0.5] + [-inf] * 2
logits[30 * 8:31 * 8] = [-inf] * 8
logits[33 * 8 + 0] = nan
for entry in ("logits_softmax", "logits_sigmoid"):
    write_f32(os.path.join(out, entry, "logits.npy"), [37, 8], logits)

rng = random.Random(31)
big = 2.0 ** 70
x = [rng.gauss(0.0, 1.0) for _ in range(37 * 32)]
for t in range(37):
    x[t * 32] = big if t == 5 else 0.0
write_f32(os.path.join(out, "gemm_overflow", "x.npy"), [37, 32], x)
w_gate = [rng.gauss(0.0, 32 ** -0.5) for _ in range(8 * 32 * 48)]
for e in (6, 7):
    w_gate[e * 32 * 48:e * 32 * 48 + 48] = [big] * 48
write_f32(os.path.join(out, "gemm_overflow", "w_gate.npy"), [8, 32, 48], w_gate)
logits = [rng.gauss(0.0, 1.0) for _ in range(37 * 8)]
for t in range(37):
    logits[t * 8 + 6] = logits[t * 8 + 7] = 4.0 if t == 5 else -8.0
    if t == 5:
        logits[t * 8:t * 8 + 6] = [0.0] * 6
write_f32(os.path.join(out, "gemm_overflow", "logits.npy"), [37, 8], logits)
