// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.quantize tensorwise to f8E5M2 (the gradient format) with amax = 57344,
// the largest finite e5m2 value, so scale = 1 and q = fp8(x).
//
// f8E5M2: (1 + M/4) · 2^(E-15), subnormals M · 2^-16, max 57344 = 1.75 · 2^15.
// Derivation:
//   57344                                         → 57344
//   1.125         tie 1 (M=0) / 1.25 (M=1), even  → 1
//   1.375         tie 1.25 (M=1) / 1.5 (M=2)      → 1.5
//   -50000        spacing 8192 in [32768, 65536): 49152 (dist 848) / 57344 → -49152
//   2.288818359375e-05 = 3·2^-17 = 1.5·2^-16: tie subnormal codes 1 / 2 → 2^-15 = 3.0517578125e-05
//   7.62939453125e-06  = 2^-17: tie 0 / 2^-16, even                      → 0
//   1.9073486328125e-05 = 1.25·2^-16: nearest code 1                      → 2^-16 = 1.52587890625e-05
//   -0                                            → -0
// Dequantized: the same values (· 1).
func.func @quantize_tensorwise_e5m2() -> (tensor<2x4xf8E5M2>, tensor<f32>, tensor<2x4xf32>) {
  %x = arith.constant dense<[[57344.0, 1.125, 1.375, -50000.0],
                             [2.288818359375e-05, 7.62939453125e-06, 1.9073486328125e-05, -0.0]]> : tensor<2x4xf32>
  %init1 = tensor.empty() : tensor<2x4xf8E5M2>
  %init2 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%init1, %init2) : tensor<2x4xf32> -> tensor<2x4xf8E5M2>, tensor<f32>
  %init3 = tensor.empty() : tensor<2x4xf32>
  %y = moe.dequantize tensorwise %q, %s outs(%init3) : tensor<2x4xf8E5M2>, tensor<f32> -> tensor<2x4xf32>
  return %q, %s, %y : tensor<2x4xf8E5M2>, tensor<f32>, tensor<2x4xf32>
}
// CHECK: result0 = [57344, 1, 1.5, -49152, 3.05175781e-05, 0, 1.52587891e-05, -0]
// CHECK: result1 = [1]
// CHECK: result2 = [57344, 1, 1.5, -49152, 3.05175781e-05, 0, 1.52587891e-05, -0]
