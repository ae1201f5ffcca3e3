// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.glu relu, relu2 (relu(x)²) and identity (bilinear): exact in f32.
//
// Derivation (gate g, up u, row-major):
//   g     = [-2,  -0.5, 0,  0.5,  1.5, 3   ]
//   u     = [ 3,   4,   5,  2,   -2,   0.25]
//   relu  = [ 0,   0,   0,  0.5,  1.5, 3   ] · u = [0, 0, 0, 1, -3, 0.75]
//   relu² = [ 0,   0,   0,  0.25, 2.25, 9  ] · u = [0, 0, 0, 0.5, -4.5, 2.25]
//   id    = g · u = [-6, -2, 0, 1, -3, 0.75]
func.func @glu_relu() -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %g = arith.constant dense<[[-2.0, -0.5, 0.0], [0.5, 1.5, 3.0]]> : tensor<2x3xf32>
  %u = arith.constant dense<[[3.0, 4.0, 5.0], [2.0, -2.0, 0.25]]> : tensor<2x3xf32>
  %init1 = tensor.empty() : tensor<2x3xf32>
  %r = moe.glu relu %g, %u outs(%init1) : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %init2 = tensor.empty() : tensor<2x3xf32>
  %r2 = moe.glu relu2 %g, %u outs(%init2) : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %init3 = tensor.empty() : tensor<2x3xf32>
  %id = moe.glu identity %g, %u outs(%init3) : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %r, %r2, %id : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
// CHECK: result0 = [0, 0, 0, 1, -3, 0.75]
// CHECK: result1 = [0, 0, 0, 0.5, -4.5, 2.25]
// CHECK: result2 = [-6, -2, 0, 1, -3, 0.75]
