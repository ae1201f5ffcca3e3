// RUN: moe-runner %s --device cpu --print | FileCheck %s

// Saturation in f8E4M3FN ("satfinite"): with delayed scaling the history amax
// (7) is smaller than the current one, so x / scale overflows 448 and must
// clip to ±448, infinities included; NaN stays NaN.
//
// Derivation: history = [7, 3.5, 0, 1] → scale = 7 / 448 = 2^-6 = 0.015625;
// x / scale = x · 64:
//   10 → 640 → 448;  -20 → -1280 → -448;  7 → 448;  0.5 → 32
//   +inf → 448;  -inf → -448;  NaN → NaN
//   7.25 → 464: halfway between 448 and 480 (the NaN code S.1111.111 as a
//        number); even is 448, and it saturates to 448 anyway → 448
//   q = [448, -448, 448, 32, 448, -448, nan, 448]
//   y = q / 64 = [7, -7, 7, 0.5, 7, -7, nan, 7]
// The current amax skips NaN and is +inf, recorded as is:
//   new history = [inf, 7, 3.5, 0]
func.func @saturate_e4m3() -> (tensor<2x4xf8E4M3FN>, tensor<f32>, tensor<4xf32>, tensor<2x4xf32>) {
  %x = arith.constant dense<[[10.0, -20.0, 7.0, 0.5],
                             [0x7F800000, 0xFF800000, 0x7FC00000, 7.25]]> : tensor<2x4xf32>
  %h = arith.constant dense<[7.0, 3.5, 0.0, 1.0]> : tensor<4xf32>
  %init1 = tensor.empty() : tensor<2x4xf8E4M3FN>
  %init2 = tensor.empty() : tensor<f32>
  %q, %s, %nh = moe.quantize delayed %x outs(%init1, %init2, %h) : tensor<2x4xf32> -> tensor<2x4xf8E4M3FN>, tensor<f32>, tensor<4xf32>
  %init3 = tensor.empty() : tensor<2x4xf32>
  %y = moe.dequantize delayed %q, %s outs(%init3) : tensor<2x4xf8E4M3FN>, tensor<f32> -> tensor<2x4xf32>
  return %q, %s, %nh, %y : tensor<2x4xf8E4M3FN>, tensor<f32>, tensor<4xf32>, tensor<2x4xf32>
}
// CHECK: result0 = [448, -448, 448, 32, 448, -448, {{-?nan}}, 448]
// CHECK: result1 = [0.015625]
// CHECK: result2 = [inf, 7, 3.5, 0]
// CHECK: result3 = [7, -7, 7, 0.5, 7, -7, {{-?nan}}, 7]
