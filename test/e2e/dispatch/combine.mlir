// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.combine with weights that do not sum to 1, a negative weight and a
// token whose two picks read the same row.
//
// Derivation (DESIGN.md, moe.combine: out[t] = Σ_k weights[t,k]·y[rows[t,k]]):
//   y = [[1, 2], [3, 4], [5, 6], [7, 8]]
//   out[0] = 0.5·y2 + 0.25·y0 = [2.5 + 0.25, 3 + 0.5] = [2.75, 3.5]
//   out[1] = 2·y3 − 1·y1     = [14 − 3, 16 − 4]     = [11, 12]
//   out[2] = 0.75·y1 + 0.75·y1 = 1.5·[3, 4]         = [4.5, 6]
func.func @combine() -> tensor<3x2xf32> {
  %y = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %rows = arith.constant dense<[[2, 0], [3, 1], [1, 1]]> : tensor<3x2xi32>
  %w = arith.constant dense<[[0.5, 0.25], [2.0, -1.0], [0.75, 0.75]]> : tensor<3x2xf32>
  %init1 = tensor.empty() : tensor<3x2xf32>
  %out = moe.combine %y, %rows, %w outs(%init1) : tensor<4x2xf32>, tensor<3x2xi32>, tensor<3x2xf32> -> tensor<3x2xf32>
  return %out : tensor<3x2xf32>
}
// CHECK: result0 = [2.75, 3.5, 11, 12, 4.5, 6]
