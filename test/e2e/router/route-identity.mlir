// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.route identity: the logits pass through unchanged (post-softmax
// routing applies the softmax after moe.topk). Values include large and
// tiny magnitudes.
func.func @route_identity() -> tensor<4x4xf32> {
  %l = arith.constant dense<[[0.0, 1.0, -1.0, 2.5], [-1000.0, 1000.0, 0.125, -0.375],
                             [3.0e+30, -7.0, 1.5e-10, 4.0], [0.5, 0.25, -0.5, 8.0]]> : tensor<4x4xf32>
  %init1 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route identity %l outs(%init1) : tensor<4x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
// 3e30 and 1.5e-10 are not f32 values; the constants hold the nearest f32
// (python3 struct 'f' round trip at writing time): 2.99999989e+30 and
// 1.49999999e-10 in %.9g, which pass through unchanged.
// CHECK: result0 = [0, 1, -1, 2.5, -1000, 1000, 0.125, -0.375, 2.99999989e+30, -7, 1.49999999e-10, 4, 0.5, 0.25, -0.5, 8]
