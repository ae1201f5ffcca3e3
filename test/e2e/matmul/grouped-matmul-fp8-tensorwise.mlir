// RUN: moe-runner %s --device cpu --print | FileCheck %s

// FP8 moe.grouped_matmul (e4m3 × e4m3, kn) with tensor-wise scales: every
// FP8 value below is exactly representable in f8E4M3FN.
//
// Derivation (DESIGN.md / MoeOps.td, moe.grouped_matmul, FP8: the product is
// computed on the dequantized values a·a_scale and b·b_scale):
//   a_scale = 0.5, b_scale = 4; sizes = [1, 0, 1], Σ = 2 < R = 3.
//   row 0, group 0: a0·0.5 = [0.75, -1.5]; B0·4 = [[4, 8], [-2, -4]]
//     c0 = [0.75·4 + (-1.5)·(-2), 0.75·8 + (-1.5)·(-4)] = [3 + 3, 6 + 6] = [6, 12]
//   group 1: empty (b[1] = 448, the e4m3 maximum, is never read)
//   row 1, group 2: a1·0.5 = [1, 0.25]; B2·4 = [[-8, 6], [12, 1]]
//     c1 = [-8 + 3, 6 + 0.25] = [-5, 6.25]
//   row 2: past Σ sizes → [0, 0]
func.func @grouped_matmul_fp8_tensorwise() -> tensor<3x2xf32> {
  %a = arith.constant dense<[[1.5, -3.0], [2.0, 0.5], [1.0, 1.0]]> : tensor<3x2xf8E4M3FN>
  %b = arith.constant dense<[[[1.0, 2.0], [-0.5, -1.0]],
                             [[448.0, 448.0], [448.0, 448.0]],
                             [[-2.0, 1.5], [3.0, 0.25]]]> : tensor<3x2x2xf8E4M3FN>
  %sizes = arith.constant dense<[1, 0, 1]> : tensor<3xi32>
  %sa = arith.constant dense<0.5> : tensor<f32>
  %sb = arith.constant dense<4.0> : tensor<f32>
  %init1 = tensor.empty() : tensor<3x2xf32>
  %c = moe.grouped_matmul %a, %b, %sizes scales(%sa, %sb) outs(%init1) : tensor<3x2xf8E4M3FN>, tensor<3x2x2xf8E4M3FN>, tensor<3xi32>, tensor<f32>, tensor<f32> -> tensor<3x2xf32>
  return %c : tensor<3x2xf32>
}
// CHECK: result0 = [6, 12, -5, 6.25, 0, 0]
