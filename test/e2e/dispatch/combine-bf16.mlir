// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.combine on bf16 rows: accumulated in f32, stored as bf16 (every value
// below is exact in bf16).
//
// Derivation (DESIGN.md, moe.combine):
//   y = [[1.5, -2], [0.25, 4], [9, 9]] (row 2 is never read)
//   out[0] = 3·y1 + 0.5·y0 = [0.75 + 0.75, 12 − 1] = [1.5, 11]
//   out[1] = 0.125·y0 + 1·y1 = [0.1875 + 0.25, −0.25 + 4] = [0.4375, 3.75]
func.func @combine_bf16() -> tensor<2x2xbf16> {
  %y = arith.constant dense<[[1.5, -2.0], [0.25, 4.0], [9.0, 9.0]]> : tensor<3x2xbf16>
  %rows = arith.constant dense<[[1, 0], [0, 1]]> : tensor<2x2xi32>
  %w = arith.constant dense<[[3.0, 0.5], [0.125, 1.0]]> : tensor<2x2xf32>
  %init1 = tensor.empty() : tensor<2x2xbf16>
  %out = moe.combine %y, %rows, %w outs(%init1) : tensor<3x2xbf16>, tensor<2x2xi32>, tensor<2x2xf32> -> tensor<2x2xbf16>
  return %out : tensor<2x2xbf16>
}
// CHECK: result0 = [1.5, 11, 0.4375, 3.75]
