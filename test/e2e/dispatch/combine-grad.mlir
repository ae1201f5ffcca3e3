// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.combine_grad, the adjoint of moe.combine, derived by hand from its
// definition (MoeOps.td):
//   dy[r, h]       = Σ_{(t,k) : rows[t,k] = r} weights[t,k] · dout[t, h]
//   dweights[t, k] = Σ_h dout[t, h] · y[rows[t,k], h]
// f32 accumulation, dy rounded once to y's element type; rows no pair maps to
// are zero; a pair whose row is outside [0, R) (-1, or R itself) adds nothing
// and gets dweights 0, as moe.combine skips it.

// f32: T = 3, K = 2, H = 2, R = 5. Row 2 is read by two pairs, rows 1 and 3
// by none; (1,1) has row -1 and (2,1) row 5 = R: both skipped.
//   dout = [[1, 2], [3, -1], [0.5, 4]]
//   y    = [[1, 0], [2, 1], [-1, 3], [4, 4], [0.5, -2]]
//   rows = [[2, 0], [4, -1], [2, 5]];  weights = [[0.5, 2], [-1, 3], [0.25, 7]]
// dy (pairs of each row in (t,k) order):
//   row 0 ← (0,1): 2·[1, 2]                          = [2, 4]
//   row 1 ← none                                     = [0, 0]
//   row 2 ← (0,0), (2,0): 0.5·[1, 2] + 0.25·[0.5, 4] = [0.625, 2]
//   row 3 ← none                                     = [0, 0]
//   row 4 ← (1,0): −1·[3, −1]                        = [−3, 1]
// dweights:
//   (0,0) row 2: 1·(−1) + 2·3     = 5      (0,1) row 0: 1·1 + 2·0 = 1
//   (1,0) row 4: 3·0.5 + (−1)(−2) = 3.5    (1,1) row −1: 0
//   (2,0) row 2: 0.5·(−1) + 4·3   = 11.5   (2,1) row 5 (= R): 0
// Adjoint check: out = combine(y) = [[1.5, 1.5], [−0.5, 2], [−0.25, 0.75]],
//   <dout, out> = 3.875 = <dy, y> = Σ weights·dweights.
// CHECK-LABEL: entry combine_grad_f32
// CHECK: result0 = [2, 4, 0, 0, 0.625, 2, 0, 0, -3, 1]
// CHECK: result1 = [5, 1, 3.5, 0, 11.5, 0]
func.func @combine_grad_f32() -> (tensor<5x2xf32>, tensor<3x2xf32>) {
  %dout = arith.constant dense<[[1.0, 2.0], [3.0, -1.0], [0.5, 4.0]]> : tensor<3x2xf32>
  %y = arith.constant dense<[[1.0, 0.0], [2.0, 1.0], [-1.0, 3.0], [4.0, 4.0], [0.5, -2.0]]> : tensor<5x2xf32>
  %rows = arith.constant dense<[[2, 0], [4, -1], [2, 5]]> : tensor<3x2xi32>
  %w = arith.constant dense<[[0.5, 2.0], [-1.0, 3.0], [0.25, 7.0]]> : tensor<3x2xf32>
  %init1 = tensor.empty() : tensor<5x2xf32>
  %init2 = tensor.empty() : tensor<3x2xf32>
  %dy, %dw = moe.combine_grad %dout, %y, %rows, %w outs(%init1, %init2) : tensor<3x2xf32>, tensor<5x2xf32>, tensor<3x2xi32>, tensor<3x2xf32> -> tensor<5x2xf32>, tensor<3x2xf32>
  return %dy, %dw : tensor<5x2xf32>, tensor<3x2xf32>
}

// bf16: T = 2, K = 2, H = 2, R = 3. All three valid pairs land on row 1,
// rows 0 and 2 get none; (1,1) has row −1. Every input is exact in bf16.
//   dout = [[256, 2], [4, −2]];  y = [[7, 7], [0.5, −1], [5, 5]]
//   rows = [[1, 1], [1, −1]];    weights = [[1, 2^−8], [0.25, 8]]
// dy row 1 ← (0,0), (0,1), (1,0), summed in f32 and rounded once:
//   h0: 1·256 + 2^−8·256 + 0.25·4    = 256 + 1 + 1          = 258
//   h1: 1·2   + 2^−8·2   + 0.25·(−2) = 2 + 0.0078125 − 0.5  = 1.5078125
//   both exact in bf16 (258 = 2^8·(1 + 2^−7), 1.5078125 = 1 + 65/128).
//   (Accumulating in bf16 would give 256 and 1.5: 257 and 2.0078125 are
//   ties that round to even.)
// dweights:
//   (0,0), (0,1) row 1: 256·0.5 + 2·(−1)  = 126
//   (1,0)        row 1: 4·0.5 + (−2)(−1)  = 4       (1,1) row −1: 0
// Adjoint check: <dout, combine(y)> = 127.4921875 = <dy, y>
//   = 258·0.5 − 1.5078125 = Σ weights·dweights = 126 + 126/256 + 1.
// CHECK-LABEL: entry combine_grad_bf16
// CHECK: result0 = [0, 0, 258, 1.5078125, 0, 0]
// CHECK: result1 = [126, 126, 4, 0]
func.func @combine_grad_bf16() -> (tensor<3x2xbf16>, tensor<2x2xf32>) {
  %dout = arith.constant dense<[[256.0, 2.0], [4.0, -2.0]]> : tensor<2x2xbf16>
  %y = arith.constant dense<[[7.0, 7.0], [0.5, -1.0], [5.0, 5.0]]> : tensor<3x2xbf16>
  %rows = arith.constant dense<[[1, 1], [1, -1]]> : tensor<2x2xi32>
  %w = arith.constant dense<[[1.0, 0.00390625], [0.25, 8.0]]> : tensor<2x2xf32>
  %init3 = tensor.empty() : tensor<3x2xbf16>
  %init4 = tensor.empty() : tensor<2x2xf32>
  %dy, %dw = moe.combine_grad %dout, %y, %rows, %w outs(%init3, %init4) : tensor<2x2xbf16>, tensor<3x2xbf16>, tensor<2x2xi32>, tensor<2x2xf32> -> tensor<3x2xbf16>, tensor<2x2xf32>
  return %dy, %dw : tensor<3x2xbf16>, tensor<2x2xf32>
}
