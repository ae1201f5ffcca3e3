// RUN: moe-runner %s --device cpu --print | FileCheck %s

// Saturation in f8E5M2 (gradients): e5m2 has infinities, but quantization
// is "satfinite": finite overflow and values that would round to infinity
// clip to ±57344.
//
// Derivation: history = [3584, 100, 0, 50] → scale = 3584 / 57344 = 2^-4 =
// 0.0625; x / scale = x · 16 (spacing 8192 in [32768, 65536)):
//   4000 → 64000: nearer 65536 (= inf code) than 57344 → saturates → 57344
//   3840 → 61440: halfway 57344 (M=3, odd) / 65536 (even) → would round to
//          inf → saturates → 57344
//   -1000000 → -16000000 → -57344
//   3500 → 56000: 49152 (dist 6848) / 57344 (dist 1344) → 57344
//   1 → 16;  0.001 (f32 0.0010000000475) → 0.0160000008: spacing 2^-8 in
//   [2^-6, 2^-5): 0.015625 / 0.01953125 → 0.015625;  -0 → -0;  2 → 32
//   q = [57344, 57344, -57344, 57344, 16, 0.015625, -0, 32]
//   y = q / 16 = [3584, 3584, -3584, 3584, 1, 0.0009765625, -0, 2]
// Current amax = 1000000 → new history = [1000000, 3584, 100, 0]
func.func @saturate_e5m2() -> (tensor<2x4xf8E5M2>, tensor<f32>, tensor<4xf32>, tensor<2x4xf32>) {
  %x = arith.constant dense<[[4000.0, 3840.0, -1000000.0, 3500.0],
                             [1.0, 0.001, -0.0, 2.0]]> : tensor<2x4xf32>
  %h = arith.constant dense<[3584.0, 100.0, 0.0, 50.0]> : tensor<4xf32>
  %init1 = tensor.empty() : tensor<2x4xf8E5M2>
  %init2 = tensor.empty() : tensor<f32>
  %q, %s, %nh = moe.quantize delayed %x outs(%init1, %init2, %h) : tensor<2x4xf32> -> tensor<2x4xf8E5M2>, tensor<f32>, tensor<4xf32>
  %init3 = tensor.empty() : tensor<2x4xf32>
  %y = moe.dequantize delayed %q, %s outs(%init3) : tensor<2x4xf8E5M2>, tensor<f32> -> tensor<2x4xf32>
  return %q, %s, %nh, %y : tensor<2x4xf8E5M2>, tensor<f32>, tensor<4xf32>, tensor<2x4xf32>
}
// CHECK: result0 = [57344, 57344, -57344, 57344, 16, 0.015625, -0, 32]
// CHECK: result1 = [0.0625]
// CHECK: result2 = [1000000, 3584, 100, 0]
// CHECK: result3 = [3584, 3584, -3584, 3584, 1, 0.0009765625, -0, 2]
