// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.quantize tensorwise to f8E4M3FN with amax = 448, so scale = 448 / 448
// = 1 and q = fp8(x): every rounding case of the encoder, then the
// dequantized round trip (q · 1).
//
// f8E4M3FN: (1 + M/8) · 2^(E-7), subnormals M · 2^-9, max 448 (S.1111.110).
// Spacing: 2^-9 below 2^-6, 0.125 in [1, 2), 1 in [8, 16), 2 in [16, 32),
// 32 in [256, 448].
//
// Derivation, element by element:
//   448           = 1.75 · 2^8, the largest finite value        → 448
//   1.0625        tie 1 (M=0) / 1.125 (M=1), even               → 1
//   1.1875        tie 1.125 (M=1) / 1.25 (M=2), even            → 1.25
//   -17           tie 16 (M=0) / 18 (M=1), even                 → -16
//   0.0029296875  = 1.5 · 2^-9: tie subnormal codes 1 / 2, even → 2·2^-9 = 0.00390625
//   0.0009765625  = 2^-10: tie 0 / 2^-9, even                   → 0
//   -0            keeps its sign                                → -0
//   300           288 (dist 12) / 320 (dist 20)                 → 288
//   0.0146484375  = 7.5 · 2^-9: tie largest subnormal 7·2^-9 (odd) /
//                 smallest normal 2^-6 (even): carries into the exponent → 0.015625
//   -15.5         tie 15 (M=7, odd) / 16 (next exponent, M=0)   → -16
//   0.3           (f32 0.30000001) 0.28125 (dist 0.01875) / 0.3125 (dist 0.0125) → 0.3125
//   0.001953125   = 2^-9, the smallest subnormal                → 0.001953125
func.func @quantize_tensorwise_rounding() -> (tensor<3x4xf8E4M3FN>, tensor<f32>, tensor<3x4xf32>) {
  %x = arith.constant dense<[[448.0, 1.0625, 1.1875, -17.0],
                             [0.0029296875, 0.0009765625, -0.0, 300.0],
                             [0.0146484375, -15.5, 0.3, 0.001953125]]> : tensor<3x4xf32>
  %init1 = tensor.empty() : tensor<3x4xf8E4M3FN>
  %init2 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%init1, %init2) : tensor<3x4xf32> -> tensor<3x4xf8E4M3FN>, tensor<f32>
  %init3 = tensor.empty() : tensor<3x4xf32>
  %y = moe.dequantize tensorwise %q, %s outs(%init3) : tensor<3x4xf8E4M3FN>, tensor<f32> -> tensor<3x4xf32>
  return %q, %s, %y : tensor<3x4xf8E4M3FN>, tensor<f32>, tensor<3x4xf32>
}
// CHECK: result0 = [448, 1, 1.25, -16, 0.00390625, 0, -0, 288, 0.015625, -16, 0.3125, 0.001953125]
// CHECK: result1 = [1]
// CHECK: result2 = [448, 1, 1.25, -16, 0.00390625, 0, -0, 288, 0.015625, -16, 0.3125, 0.001953125]
