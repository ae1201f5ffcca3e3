#!/usr/bin/env python3
"""Writes an FP8 moe.grouped_weight_grad case (transposed operands with
block_1x128 and tensor-wise scales) and its expected values.

  write-fp8-weight-grad.py OUT.mlir OUT.check

The expected values are computed here, in float64, straight from the
definition: db[g][i][j] = sum over the rows r of group g of
(a[i][r] * a_scale) * (dc[j][r] * dc_scale), with the scale of r's block of
128 rows (counted from row 0, whatever the groups) or the tensor's one scale.
Every value is exact: the FP8 values are drawn from a set both e4m3 and
e5m2 hold exactly, the scales are powers of two, and every sum is a multiple
of 2^-6 below 2^16, so f32 accumulation in any order gives these numbers.
"""
import random
import sys

# Exact in f8E4M3FN and f8E5M2 (at most 2 significant bits).
VALUES = [0.0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 1.0, -1.0, 1.5, -1.5,
          2.0, -2.0, 3.0, -3.0, 4.0, -4.0]
SCALES = [0.5, 1.0, 2.0, 4.0]
BLOCK = 128


def matrix(rng, rows, cols, choices):
    return [[rng.choice(choices) for _ in range(cols)] for _ in range(rows)]


def dense(m):
    return "[" + ", ".join("[" + ", ".join(repr(v) for v in row) + "]"
                           for row in m) + "]"


def weight_grad(a, dc, sizes, a_scale, dc_scale, kn):
    """db[g] ([Kd, N] for kn, [N, Kd] for nk) from a [Kd, R], dc [N, R]."""
    kd, n = len(a), len(dc)

    def scale(s, i, r):
        return s if not isinstance(s, list) else s[i][r // BLOCK]

    db, off = [], 0
    for size in sizes:
        rows = range(off, off + size)
        off += size
        g = [[sum(a[i][r] * scale(a_scale, i, r) * dc[j][r] *
                  scale(dc_scale, j, r) for r in rows)
              for j in range(n)] for i in range(kd)]
        if not kn:
            g = [list(col) for col in zip(*g)]
        db.append(g)
    return [v for g in db for row in g for v in row]


def main():
    out_mlir, out_check = sys.argv[1:3]
    rng = random.Random(20261125)
    # Block scales: R = 384 (3 blocks), groups [100, 0, 156, 100]: group 0
    # ends inside block 0, group 2 spans blocks 0 and 1 (rows 100..255),
    # group 1 is empty, rows 356..383 belong to no group and are not read.
    kd, n, rows = 3, 2, 384
    sizes = [100, 0, 156, 100]
    blocks = (rows + BLOCK - 1) // BLOCK
    a = matrix(rng, kd, rows, VALUES)
    dc = matrix(rng, n, rows, VALUES)
    a_scale = matrix(rng, kd, blocks, SCALES)
    dc_scale = matrix(rng, n, blocks, SCALES)
    # Tensor-wise scales: R = 200 (no multiple of 128), groups [0, 77, 100],
    # rows 177..199 unread.
    rows_t = 200
    sizes_t = [0, 77, 100]
    at = matrix(rng, kd, rows_t, VALUES)
    dct = matrix(rng, n, rows_t, VALUES)
    at_scale, dct_scale = 0.5, 4.0

    g, gt = len(sizes), len(sizes_t)
    ty = {
        "a": f"tensor<{kd}x{rows}xf8E4M3FN>",
        "dc": f"tensor<{n}x{rows}xf8E5M2>",
        "a5": f"tensor<{kd}x{rows}xf8E5M2>",
        "dc4": f"tensor<{n}x{rows}xf8E4M3FN>",
        "as": f"tensor<{kd}x{blocks}xf32>",
        "ds": f"tensor<{n}x{blocks}xf32>",
        "s": f"tensor<{g}xi32>",
        "kn": f"tensor<{g}x{kd}x{n}xf32>",
        "nk": f"tensor<{g}x{n}x{kd}xf32>",
        "at": f"tensor<{kd}x{rows_t}xf8E4M3FN>",
        "dct": f"tensor<{n}x{rows_t}xf8E5M2>",
        "st": f"tensor<{gt}xi32>",
        "knt": f"tensor<{gt}x{kd}x{n}xf32>",
    }
    mlir = f"""// Written by write-fp8-weight-grad.py.
func.func @fp8_weight_grad() -> ({ty['kn']}, {ty['nk']}, {ty['kn']}, {ty['knt']}) {{
  %a = arith.constant dense<{dense(a)}> : {ty['a']}
  %dc = arith.constant dense<{dense(dc)}> : {ty['dc']}
  %a5 = arith.constant dense<{dense(a)}> : {ty['a5']}
  %dc4 = arith.constant dense<{dense(dc)}> : {ty['dc4']}
  %as = arith.constant dense<{dense(a_scale)}> : {ty['as']}
  %ds = arith.constant dense<{dense(dc_scale)}> : {ty['ds']}
  %s = arith.constant dense<{sizes}> : {ty['s']}
  %i0 = tensor.empty() : {ty['kn']}
  %r0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%i0) {{transposed_operands}} : {ty['a']}, {ty['dc']}, {ty['s']}, {ty['as']}, {ty['ds']} -> {ty['kn']}
  %i1 = tensor.empty() : {ty['nk']}
  %r1 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%i1) {{transposed_operands, weight_layout = #moe<weight_layout nk>}} : {ty['a']}, {ty['dc']}, {ty['s']}, {ty['as']}, {ty['ds']} -> {ty['nk']}
  %i2 = tensor.empty() : {ty['kn']}
  %r2 = moe.grouped_weight_grad %a5, %dc4, %s scales(%as, %ds) outs(%i2) {{transposed_operands}} : {ty['a5']}, {ty['dc4']}, {ty['s']}, {ty['as']}, {ty['ds']} -> {ty['kn']}
  %at = arith.constant dense<{dense(at)}> : {ty['at']}
  %dct = arith.constant dense<{dense(dct)}> : {ty['dct']}
  %ast = arith.constant dense<{at_scale!r}> : tensor<f32>
  %dst = arith.constant dense<{dct_scale!r}> : tensor<f32>
  %st = arith.constant dense<{sizes_t}> : {ty['st']}
  %i3 = tensor.empty() : {ty['knt']}
  %r3 = moe.grouped_weight_grad %at, %dct, %st scales(%ast, %dst) outs(%i3) {{transposed_operands}} : {ty['at']}, {ty['dct']}, {ty['st']}, tensor<f32>, tensor<f32> -> {ty['knt']}
  return %r0, %r1, %r2, %r3 : {ty['kn']}, {ty['nk']}, {ty['kn']}, {ty['knt']}
}}
"""
    results = [
        weight_grad(a, dc, sizes, a_scale, dc_scale, kn=True),
        weight_grad(a, dc, sizes, a_scale, dc_scale, kn=False),
        weight_grad(a, dc, sizes, a_scale, dc_scale, kn=True),
        weight_grad(at, dct, sizes_t, at_scale, dct_scale, kn=True),
    ]
    # The empty groups must come out as exact zeros, and the others must
    # not be all zero (a test that zeros everything would pass otherwise).
    assert all(v == 0 for v in results[0][kd * n:2 * kd * n])
    assert all(v == 0 for v in results[3][:kd * n])
    assert any(v != 0 for v in results[0]) and any(v != 0 for v in results[3])
    with open(out_mlir, "w") as f:
        f.write(mlir)
    with open(out_check, "w") as f:
        for i, values in enumerate(results):
            f.write(f"CHECK: result{i} = [" +
                    ", ".join("%.9g" % v for v in values) + "]\n")


if __name__ == "__main__":
    main()
