// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.quantize delayed (e4m3): the scale comes from the amax HISTORY, not
// from the current tensor; the new history is the old one moved up one slot
// with the current amax in slot 0 (the oldest entry drops out).
//
// Derivation:
//   history = [1, 3.5, 2] → max 3.5 → scale = 3.5 / 448 = 2^-7 = 0.0078125
//   x / scale = x · 128:
//     1 → 128; -3 → -384 (1.5·2^8); 0.1 (f32 0.100000001) → 12.8000002
//     → 13 (spacing 1 in [8, 16)); 2.5 → 320 (1.25·2^8); 0 → 0;
//     -4 → -512 → beyond 448 → saturates to -448
//   q = [128, -384, 13, 320, 0, -448]
//   y = q / 128 = [1, -3, 0.1015625, 2.5, 0, -3.5]
//   current amax = |-4| = 4 → new history = [4, 1, 3.5]
func.func @quantize_delayed() -> (tensor<2x3xf8E4M3FN>, tensor<f32>, tensor<3xf32>, tensor<2x3xf32>) {
  %x = arith.constant dense<[[1.0, -3.0, 0.1], [2.5, 0.0, -4.0]]> : tensor<2x3xf32>
  %h = arith.constant dense<[1.0, 3.5, 2.0]> : tensor<3xf32>
  %init1 = tensor.empty() : tensor<2x3xf8E4M3FN>
  %init2 = tensor.empty() : tensor<f32>
  %q, %s, %nh = moe.quantize delayed %x outs(%init1, %init2, %h) : tensor<2x3xf32> -> tensor<2x3xf8E4M3FN>, tensor<f32>, tensor<3xf32>
  %init3 = tensor.empty() : tensor<2x3xf32>
  %y = moe.dequantize delayed %q, %s outs(%init3) : tensor<2x3xf8E4M3FN>, tensor<f32> -> tensor<2x3xf32>
  return %q, %s, %nh, %y : tensor<2x3xf8E4M3FN>, tensor<f32>, tensor<3xf32>, tensor<2x3xf32>
}
// CHECK: result0 = [128, -384, 13, 320, 0, -448]
// CHECK: result1 = [0.0078125]
// CHECK: result2 = [4, 1, 3.5]
// CHECK: result3 = [1, -3, 0.1015625, 2.5, 0, -3.5]
