#!/usr/bin/env python3
"""write-inputs.py DIR: writes the f32 .npy inputs of Inputs/nan-ops.mlir into
DIR (moe-runner's flat --inputs layout, DIR/<name>.npy), without numpy.

gate has a NaN at [0, 1], up one at [1, 2] (gate_up, the fused operand, is
gate | up row by row), logits one at [0, 1]; the cotangents d_h and d_scores
are finite. logits[1, 2] = 25 takes sqrtsoftplus's softplus(x) = x branch."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "scripts"))
import npy  # noqa: E402

NAN = float("nan")
GATE = [[1.5, NAN, -0.5, 2.0], [-1.0, 0.25, 3.0, -2.5]]
UP = [[0.5, 2.0, 1.0, -1.0], [1.5, -0.5, NAN, 2.0]]
LOGITS = [[0.5, NAN, -1.0, 2.0], [1.0, -0.5, 25.0, -3.0]]
COTANGENT = [[1.0, -0.5, 2.0, 0.25], [0.75, 1.0, -1.0, 0.5]]


def write_f32(path, rows):
    npy.write(path, "<f4", [len(rows), len(rows[0])], [v for row in rows for v in row])


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
write_f32(os.path.join(out, "gate.npy"), GATE)
write_f32(os.path.join(out, "up.npy"), UP)
write_f32(os.path.join(out, "gate_up.npy"), [g + u for g, u in zip(GATE, UP)])
write_f32(os.path.join(out, "logits.npy"), LOGITS)
write_f32(os.path.join(out, "d_h.npy"), COTANGENT)
write_f32(os.path.join(out, "d_scores.npy"), COTANGENT)
