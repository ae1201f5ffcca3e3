// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.quantize tensorwise to f8E4M3FN with a scale that is not a power of
// two, and the dequantized round trip.
//
// Derivation: amax = 6, scale = 6 / 448 = 3/224 = 0.0133928571... In f32:
// 3/224 = (12/7) · 2^-7 and 12/7 = 1.101101101...b, so the 23 fraction bits
// are 10110110110110110110110|110... and round up to ...0111:
// s = 0x1.b6db6ep-7 = 0.0133928573 (relative error +8.3e-9).
// q = fp8(x / s) with x / s = x · 74.6666... (1 - 8.3e-9):
//   1  → 74.67:  72 (dist 2.67) / 80                      → 72
//   -2 → 149.3:  144 (dist 5.3) / 160 (spacing 16)        → -144
//   3  → 224 · (1 - 8.3e-9) = 224 - 1.9e-6, within half an f32 ulp
//        (2^-17 = 7.6e-6) of 224, so exactly 224          → 224
//   4  → 298.7:  288 (dist 10.7) / 320 (spacing 32)       → 288
//   -5 → 373.3:  352 / 384 (dist 10.7)                    → -384
//   -6 → -448 likewise                                    → -448
// y = q · s:
//   72 · s = 0.964285731, 144 · s = 1.92857146 (6 significant digits)
//   224 · s = 3 · (1 + 8.3e-9) = 3 + 2.5e-8, within half an f32 ulp
//   (2^-23 = 1.2e-7) of 3 → exactly 3; likewise 448 · s → 6
//   288 · s = 3.85714293, 384 · s = 5.14285707 (6 significant digits)
func.func @quantize_tensorwise_e4m3() -> (tensor<2x3xf8E4M3FN>, tensor<f32>, tensor<2x3xf32>) {
  %x = arith.constant dense<[[1.0, -2.0, 3.0], [4.0, -5.0, -6.0]]> : tensor<2x3xf32>
  %init1 = tensor.empty() : tensor<2x3xf8E4M3FN>
  %init2 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%init1, %init2) : tensor<2x3xf32> -> tensor<2x3xf8E4M3FN>, tensor<f32>
  %init3 = tensor.empty() : tensor<2x3xf32>
  %y = moe.dequantize tensorwise %q, %s outs(%init3) : tensor<2x3xf8E4M3FN>, tensor<f32> -> tensor<2x3xf32>
  return %q, %s, %y : tensor<2x3xf8E4M3FN>, tensor<f32>, tensor<2x3xf32>
}
// CHECK: result0 = [72, -144, 224, 288, -384, -448]
// CHECK: result1 = [0.0133928{{[0-9]*}}]
// CHECK: result2 = [0.964285{{[0-9]*}}, -1.92857{{[0-9]*}}, 3, 3.85714{{[0-9]*}}, -5.14285{{[0-9]*}}, -6]
