// RUN: moe-runner %s --device cpu --print | FileCheck %s

// An all-zero tensor: amax = 0, so scale = 1 (not 0/448 = 0, which would make
// x / scale NaN), and every q is 0.
func.func @quantize_zero() -> (tensor<2x2xf8E4M3FN>, tensor<f32>, tensor<2x2xf32>) {
  %x = arith.constant dense<0.0> : tensor<2x2xf32>
  %init1 = tensor.empty() : tensor<2x2xf8E4M3FN>
  %init2 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%init1, %init2) : tensor<2x2xf32> -> tensor<2x2xf8E4M3FN>, tensor<f32>
  %init3 = tensor.empty() : tensor<2x2xf32>
  %y = moe.dequantize tensorwise %q, %s outs(%init3) : tensor<2x2xf8E4M3FN>, tensor<f32> -> tensor<2x2xf32>
  return %q, %s, %y : tensor<2x2xf8E4M3FN>, tensor<f32>, tensor<2x2xf32>
}
// CHECK: result0 = [0, 0, 0, 0]
// CHECK: result1 = [1]
// CHECK: result2 = [0, 0, 0, 0]
