// RUN: moe-runner %s --device cpu --print | FileCheck %s

// FP8 moe.grouped_matmul, e4m3 a × e5m2 b, weight_layout nk, tensor-wise
// scales, bf16 result: the same product as grouped-matmul-fp8-tensorwise.mlir
// with each expert's matrix stored transposed (b[g, n, kd] = B_g[kd, n]).
// Every b value is exact in f8E5M2 (2 mantissa bits).
//
// Derivation: a_scale = 0.5, b_scale = 4; sizes = [1, 0, 1].
//   B0 = [[1, 2], [-0.5, -1]] stored as [[1, -0.5], [2, -1]]
//   B2 = [[-2, 1.5], [3, 0.25]] stored as [[-2, 3], [1.5, 0.25]]
//   c0 = [6, 12], c1 = [-5, 6.25] (see the kn test), c2 = [0, 0];
//   all exact in bf16.
func.func @grouped_matmul_fp8_nk_e5m2() -> tensor<3x2xbf16> {
  %a = arith.constant dense<[[1.5, -3.0], [2.0, 0.5], [1.0, 1.0]]> : tensor<3x2xf8E4M3FN>
  %b = arith.constant dense<[[[1.0, -0.5], [2.0, -1.0]],
                             [[2.0, 2.0], [2.0, 2.0]],
                             [[-2.0, 3.0], [1.5, 0.25]]]> : tensor<3x2x2xf8E5M2>
  %sizes = arith.constant dense<[1, 0, 1]> : tensor<3xi32>
  %sa = arith.constant dense<0.5> : tensor<f32>
  %sb = arith.constant dense<4.0> : tensor<f32>
  %init1 = tensor.empty() : tensor<3x2xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes scales(%sa, %sb) outs(%init1) {weight_layout = #moe<weight_layout nk>} : tensor<3x2xf8E4M3FN>, tensor<3x2x2xf8E5M2>, tensor<3xi32>, tensor<f32>, tensor<f32> -> tensor<3x2xbf16>
  return %c : tensor<3x2xbf16>
}
// CHECK: result0 = [6, 12, -5, 6.25, 0, 0]
