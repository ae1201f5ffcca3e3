#!/usr/bin/env python3
"""write-quantize-inputs.py DIR: writes the inputs of Inputs/quantize-large.mlir
into DIR (moe-runner's flat --inputs layout, DIR/<name>.npy, float32; bf16
arguments get values that bf16 holds exactly), without numpy. Seeded: the
same files every run.

x, x3   random values over ±2^-10 ... ±2^9 by row, with NaN, -0 and bf16
        subnormals (no infinity: it would make the tensor-wise scale inf)
history delayed scaling's amax history
xs      x's kind of values, plus in chosen 128-column blocks: +inf, -inf,
        3e38, an all-NaN block, an all-zero block, a block of subnormals only
        (its scale underflows to 0 and becomes 1), values that saturate
xp, xn  partial blocks (N = 200, 100) with NaN, inf and zero blocks
w, wp   weights [G, M, N] with an inf tile, a zero tile, NaN and subnormals
xt, xtf [R, C] (bf16, f32) whose transposes are quantized in 1x128 blocks
        along R: inf, saturating, all-NaN, all-zero, subnormal-only and
        huge-value blocks down columns
xw, xwf [M, N] (bf16, f32; multiples of 128) quantized both ways at once
        (moe.quantize_with_transpose): such blocks along rows and down
        columns
cg_*    Inputs/combine-grad-quantize.mlir's moe.combine_grad operands: dout
        [256, 256] (NaN, inf, subnormals), y [1024, 256], rows [256, 4] (a
        permutation of the 1024 rows but for a dropped pair, a pair past
        the last row and two pairs naming one row), weights (zeros,
        negatives)
rb      [256, 1024] raw f32 bit patterns rounded to bf16: ties to even both
        ways, the largest finite values (some round to inf), f32
        subnormals, ±0, ±inf, NaNs of both signs with quiet, signalling and
        full payloads, then random bits (written as bits: a Python float
        would not keep a NaN's payload)"""
import math
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "scripts"))
import npy  # noqa: E402

NAN = float("nan")
INF = float("inf")


def bf16(v):
    """v truncated to a value bf16 holds exactly (the high half of its f32)."""
    bits = struct.unpack("<I", struct.pack("<f", v))[0] & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def subnormal(rng):
    """A random bf16 subnormal (f32 exponent field 0), either sign."""
    bits = (rng.randrange(1, 0x80) << 16) | (0x80000000 if rng.random() < 0.5 else 0)
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def random_matrix(rng, rows, cols, exact_bf16):
    out = []
    for r in range(rows):
        scale = math.ldexp(1.0, r % 20 - 10)
        row = []
        for _ in range(cols):
            u = rng.random()
            if u < 0.001:
                v = NAN
            elif u < 0.002:
                v = -0.0
            elif u < 0.004:
                v = subnormal(rng)
            else:
                v = rng.gauss(0.0, 1.0) * scale
            row.append(bf16(v) if exact_bf16 else v)
        out.append(row)
    return out


def fill_block(m, r, c0, c1, value):
    for c in range(c0, min(c1, len(m[r]))):
        m[r][c] = value(c) if callable(value) else value


def write(path, shape, rows):
    npy.write(path, "<f4", shape, [v for row in rows for v in row])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(20240514)

    x = random_matrix(rng, 1000, 2048, True)
    write(os.path.join(out, "x.npy"), [1000, 2048], x)
    x3 = random_matrix(rng, 400, 72, False)
    write(os.path.join(out, "x3.npy"), [4, 100, 72], x3)
    write(os.path.join(out, "history.npy"), [16],
          [[0.5, 100.0, 3.0, 0.0, 7.25, 1e-3, 250.0, 42.0,
            1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0]])

    xs = random_matrix(rng, 1000, 2048, True)
    fill_block(xs, 3, 0, 1, INF)
    fill_block(xs, 4, 128, 129, -INF)
    fill_block(xs, 5, 300, 301, 3e38)
    fill_block(xs, 6, 256, 384, NAN)
    fill_block(xs, 7, 384, 512, 0.0)
    fill_block(xs, 8, 512, 640, lambda c: subnormal(rng))
    # One huge value next to small ones: the small ones become FP8
    # subnormals or 0.
    fill_block(xs, 9, 640, 641, bf16(1e30))
    write(os.path.join(out, "xs.npy"), [1000, 2048], xs)

    xp = random_matrix(rng, 300, 200, True)
    fill_block(xp, 0, 128, 200, NAN)
    fill_block(xp, 1, 128, 200, 0.0)
    fill_block(xp, 2, 199, 200, INF)
    write(os.path.join(out, "xp.npy"), [300, 200], xp)
    xn = random_matrix(rng, 130, 100, False)
    fill_block(xn, 0, 0, 100, 0.0)
    fill_block(xn, 1, 99, 100, -INF)
    write(os.path.join(out, "xn.npy"), [130, 100], xn)

    w = random_matrix(rng, 4 * 256, 384, True)
    w[0][0] = INF                       # tile (0, 0, 0): scale inf
    for r in range(256, 384):           # tile (1, 0, 1): all zero
        fill_block(w, r, 128, 256, 0.0)
    write(os.path.join(out, "w.npy"), [4, 256, 384], w)
    wp = random_matrix(rng, 3 * 200, 136, True)
    wp[199][135] = -INF                 # tile (0, 1, 1), its last element
    write(os.path.join(out, "wp.npy"), [3, 200, 136], wp)

    # Transposed (columnwise) 1x128 blocks: a block is 128 rows of one
    # column. Specials down columns.
    xt = random_matrix(rng, 1024, 288, True)
    xt[5][3] = INF                       # block (col 3, rows 0..127)
    xt[130][4] = -INF                    # block (col 4, rows 128..255)
    xt[300][6] = 3e38                    # saturates
    for r in range(256, 384):
        xt[r][7] = NAN                   # an all-NaN block
        xt[r][8] = 0.0                   # an all-zero block
        xt[r][9] = subnormal(rng)        # subnormals only: scale 1
    xt[700][10] = bf16(1e30)             # one huge value among small ones
    write(os.path.join(out, "xt.npy"), [1024, 288], xt)
    xtf = random_matrix(rng, 256, 48, False)
    xtf[10][2] = NAN
    xtf[200][3] = -INF
    write(os.path.join(out, "xtf.npy"), [256, 48], xtf)

    # moe.quantize_with_transpose: 1x128 blocks along rows and down
    # columns, specials in both.
    xw = random_matrix(rng, 1024, 384, True)
    xw[3][0] = INF                       # row block (3, 0); column 0's first
    fill_block(xw, 4, 128, 256, NAN)     # an all-NaN row block
    fill_block(xw, 5, 256, 384, 0.0)     # an all-zero row block
    fill_block(xw, 6, 0, 128, lambda c: subnormal(rng))
    xw[10][300] = 3e38                   # saturates
    xw[9][200] = bf16(1e30)              # one huge value among small ones
    for r in range(128, 256):
        xw[r][20] = NAN                  # an all-NaN column block
    for r in range(256, 384):
        xw[r][21] = 0.0                  # an all-zero column block
    for r in range(384, 512):
        xw[r][22] = subnormal(rng)       # subnormals only: scale 1
    xw[600][23] = -INF
    write(os.path.join(out, "xw.npy"), [1024, 384], xw)
    xwf = random_matrix(rng, 256, 128, False)
    xwf[7][5] = NAN
    xwf[200][100] = -INF
    write(os.path.join(out, "xwf.npy"), [256, 128], xwf)

    tokens, top_k, rows_r, hidden = 256, 4, 1024, 256
    dout = random_matrix(rng, tokens, hidden, True)
    dout[10][3] = INF
    dout[11][200] = -INF
    write(os.path.join(out, "cg_dout.npy"), [tokens, hidden], dout)
    write(os.path.join(out, "cg_y.npy"), [rows_r, hidden],
          random_matrix(rng, rows_r, hidden, True))
    perm = list(range(rows_r))
    rng.shuffle(perm)
    cg_rows = [perm[t * top_k:(t + 1) * top_k] for t in range(tokens)]
    cg_rows[3][1] = -1                   # dropped: its row is named by none
    cg_rows[7][3] = rows_r + 5           # past R: ignored, its row unnamed
    cg_rows[5][2] = cg_rows[9][0]        # one row named twice: the sum
    npy.write(os.path.join(out, "cg_rows.npy"), "<i4", [tokens, top_k],
              [v for row in cg_rows for v in row])
    weights = [[rng.uniform(-1.0, 1.0) for _ in range(top_k)]
               for _ in range(tokens)]
    weights[20][0] = 0.0
    weights[21][1] = -0.0
    write(os.path.join(out, "cg_weights.npy"), [tokens, top_k], weights)

    write_f32_bits(os.path.join(out, "rb.npy"), [256, 1024],
                   rounding_bits(rng, 256 * 1024))



def rounding_bits(rng, count):
    """The f32 bit patterns of "rb" (rounding to bf16)."""
    special = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000,
               0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FBFFFFF,
               0x7FFFFFFF, 0xFFFFFFFF, 0x7FC00001, 0x7F80FFFF, 0x7F810000,
               0x7F7FFFFF, 0xFF7FFFFF, 0x7F7F8000, 0x7F7F7FFF, 0x7F7F8001,
               0x00000001, 0x80000001, 0x007FFFFF, 0x00008000, 0x00018000,
               0x00007FFF, 0x0000FFFF, 0x807F8000, 0x00800000]
    bits = list(special)
    # Exact ties (low half 0x8000) and their neighbours, even and odd.
    for _ in range(4096):
        high = rng.randrange(0, 1 << 16) << 16
        for low in (0x8000, 0x7FFF, 0x8001):
            bits.append(high | low)
    while len(bits) < count:
        bits.append(rng.getrandbits(32))
    return bits[:count]


def write_f32_bits(path, shape, bits):
    """A float32 .npy holding exactly `bits` (NaN payloads included)."""
    payload = struct.pack("<%dI" % len(bits), *bits)
    with open(path, "wb") as f:
        f.write(npy.frame(npy.header_text("<f4", shape), payload))

if __name__ == "__main__":
    main()
