// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.quantize delayed on the first step: an all-zero history of length 1
// gives scale 1 (amax 0 → 1), and the new history is just the current amax.
//
// Derivation: scale = 1; q = fp8(x): 0.5 → 0.5; -300 → 288 (dist 12) / 320
// → -288; amax = 300 → new history = [300] (L = 1: nothing moves up).
func.func @quantize_delayed_first_step() -> (tensor<1x2xf8E4M3FN>, tensor<f32>, tensor<1xf32>) {
  %x = arith.constant dense<[[0.5, -300.0]]> : tensor<1x2xf32>
  %h = arith.constant dense<[0.0]> : tensor<1xf32>
  %init1 = tensor.empty() : tensor<1x2xf8E4M3FN>
  %init2 = tensor.empty() : tensor<f32>
  %q, %s, %nh = moe.quantize delayed %x outs(%init1, %init2, %h) : tensor<1x2xf32> -> tensor<1x2xf8E4M3FN>, tensor<f32>, tensor<1xf32>
  return %q, %s, %nh : tensor<1x2xf8E4M3FN>, tensor<f32>, tensor<1xf32>
}
// CHECK: result0 = [0.5, -288]
// CHECK: result1 = [1]
// CHECK: result2 = [300]
