#!/usr/bin/env python3
"""Helpers for the toy artifact tests (no numpy needed).

  toy-npy.py make DIR     write the .npy inputs of the tests under DIR
  toy-npy.py check DUMP   recompute f_bwd's gradients from a
                          `moe-runner --entry f_bwd --dump DUMP` (x, w from
                          DUMP/f_fwd, d_y from DUMP/f_bwd) in double, compare
                          them with the dumped d_x, d_w, and f_fwd's residual
                          res0 and inputs x, w with f_bwd's; print "toy
                          gradients match"
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import npy  # noqa: E402

write = npy.write


def read(path):
    return list(npy.read(path)[1])


def make(out):
    j = os.path.join
    # hand/: every tanh argument x_ij * w_j is 0 (1 - t^2 = 1) or >= 10 in
    # magnitude (t = +-1 in f32, 1 - t^2 = 0), so every value is exact.
    write(j(out, "hand", "x.npy"), "<f4", [2, 3], [0, 5, 0, 6, -3, 0.5])
    write(j(out, "hand", "w.npy"), "<f4", [3], [2, 0, 20])
    write(j(out, "hand", "d_y.npy"), "<f4", [2], [0.5, -2])
    write(j(out, "hand", "mask.npy"), "|b1", [3], [True, False, True])
    # maskonly/: only masked's mask; x and w stay random.
    write(j(out, "maskonly", "masked", "mask.npy"), "|b1", [3], [True, False, True])
    # nonlinear/: w of order 1 (random rank-1 weights are 0.01-sized, where
    # tanh is nearly linear).
    write(j(out, "nonlinear", "w.npy"), "<f4", [3], [0.7, -1.3, 2.1])
    # badshape/: a cotangent of the wrong shape.
    write(j(out, "badshape", "d_y.npy"), "<f4", [3], [1, 2, 3])
    # perentry/: hand's x and w for f_fwd only, other values under f_bwd/
    # (which f_bwd, chained after f_fwd, must not read: it takes x and w from
    # f_fwd's call), hand's d_y for f_bwd.
    write(j(out, "perentry", "f_fwd", "x.npy"), "<f4", [2, 3], [0, 5, 0, 6, -3, 0.5])
    write(j(out, "perentry", "f_fwd", "w.npy"), "<f4", [3], [2, 0, 20])
    write(j(out, "perentry", "f_bwd", "x.npy"), "<f4", [2, 3], [7, 7, 7, 7, 7, 7])
    write(j(out, "perentry", "f_bwd", "w.npy"), "<f4", [3], [9, 9, 9])
    write(j(out, "perentry", "f_bwd", "d_y.npy"), "<f4", [2], [0.5, -2])


def close(a, b):
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b)) + 1e-6


def check(dump):
    j = os.path.join
    x = read(j(dump, "f_fwd", "x.npy"))
    w = read(j(dump, "f_fwd", "w.npy"))
    dy = read(j(dump, "f_bwd", "d_y.npy"))
    dx = read(j(dump, "f_bwd", "d_x.npy"))
    dw = read(j(dump, "f_bwd", "d_w.npy"))
    T, H = len(dy), len(w)
    want_dx = [0.0] * (T * H)
    want_dw = [0.0] * H
    for i in range(T):
        for k in range(H):
            s = dy[i] * (1 - math.tanh(x[i * H + k] * w[k]) ** 2)
            want_dx[i * H + k] = s * w[k]
            want_dw[k] += s * x[i * H + k]
    bad = [("d_x", n, a, b) for n, (a, b) in enumerate(zip(dx, want_dx)) if not close(a, b)]
    bad += [("d_w", n, a, b) for n, (a, b) in enumerate(zip(dw, want_dw)) if not close(a, b)]
    for r in ("res0", "x", "w"):
        if read(j(dump, "f_fwd", r + ".npy")) != read(j(dump, "f_bwd", r + ".npy")):
            bad.append((r, -1, "f_fwd", "f_bwd"))
    for b in bad:
        print("mismatch: %s[%d]: got %r, want %r" % b)
    if bad:
        sys.exit(1)
    print("toy gradients match (%d + %d values)" % (len(dx), len(dw)))


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]](sys.argv[2])
