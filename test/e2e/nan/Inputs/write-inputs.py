#!/usr/bin/env python3
"""write-inputs.py DIR: writes the f32 .npy inputs of Inputs/nan-ops.mlir into
DIR (moe-runner's flat --inputs layout, DIR/<name>.npy), without numpy.

gate has a NaN at [0, 1], up one at [1, 2] (gate_up, the fused operand, is
gate | up row by row), logits one at [0, 1]; the cotangents d_h and d_scores
are finite. logits[1, 2] = 25 takes sqrtsoftplus's softplus(x) = x branch."""
import os
import struct
import sys

NAN = float("nan")
GATE = [[1.5, NAN, -0.5, 2.0], [-1.0, 0.25, 3.0, -2.5]]
UP = [[0.5, 2.0, 1.0, -1.0], [1.5, -0.5, NAN, 2.0]]
LOGITS = [[0.5, NAN, -1.0, 2.0], [1.0, -0.5, 25.0, -3.0]]
COTANGENT = [[1.0, -0.5, 2.0, 0.25], [0.75, 1.0, -1.0, 0.5]]


def write_f32(path, rows):
    shape = "(%d, %d)" % (len(rows), len(rows[0]))
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    values = [v for row in rows for v in row]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *values))


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
write_f32(os.path.join(out, "gate.npy"), GATE)
write_f32(os.path.join(out, "up.npy"), UP)
write_f32(os.path.join(out, "gate_up.npy"), [g + u for g, u in zip(GATE, UP)])
write_f32(os.path.join(out, "logits.npy"), LOGITS)
write_f32(os.path.join(out, "d_h.npy"), COTANGENT)
write_f32(os.path.join(out, "d_scores.npy"), COTANGENT)
