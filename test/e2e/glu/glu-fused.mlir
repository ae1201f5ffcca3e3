// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.glu with one operand [R, 2F]: gate = columns [0, F), up = [F, 2F).
//
// Derivation: gu = [[1, -1 | 2, 3], [2, 0 | 0.5, 7]], F = 2, so
//   gate = [[1, -1], [2, 0]], up = [[2, 3], [0.5, 7]].
//   identity: [1·2, -1·3, 2·0.5, 0·7]                 = [2, -3, 1, 0]
//   relu2:    [1·2, 0·3, 4·0.5, 0·7]                  = [2, 0, 2, 0]
//   silu:     [silu(1)·2, silu(-1)·3, silu(2)·0.5, 0]
//           = [0.73105857863·2, -0.26894142137·3, 1.76159415596·0.5, 0]
//           = [1.46211715726, -0.80682426410, 0.88079707798, 0]
//     (silu(x) = x / (1 + e^-x); 6 significant digits, ±1e-6 relative)
func.func @glu_fused() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %gu = arith.constant dense<[[1.0, -1.0, 2.0, 3.0], [2.0, 0.0, 0.5, 7.0]]> : tensor<2x4xf32>
  %init1 = tensor.empty() : tensor<2x2xf32>
  %id = moe.glu identity %gu outs(%init1) : tensor<2x4xf32> -> tensor<2x2xf32>
  %init2 = tensor.empty() : tensor<2x2xf32>
  %r2 = moe.glu relu2 %gu outs(%init2) : tensor<2x4xf32> -> tensor<2x2xf32>
  %init3 = tensor.empty() : tensor<2x2xf32>
  %s = moe.glu silu %gu outs(%init3) : tensor<2x4xf32> -> tensor<2x2xf32>
  return %id, %r2, %s : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}
// CHECK: result0 = [2, -3, 1, 0]
// CHECK: result1 = [2, 0, 2, 0]
// CHECK: result2 = [1.46211{{[0-9]*}}, -0.80682{{[3-5][0-9]*}}, 0.88079{{[6-7][0-9]*}}, 0]
