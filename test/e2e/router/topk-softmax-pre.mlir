// RUN: moe-runner %s --device cpu --print | FileCheck %s

// Pre-softmax routing: moe.route softmax over all E, then moe.topk (k = 2,
// normalize none): weights are the chosen softmax probabilities as they are,
// ordered by descending score.
//
// Derivation (python3 math at writing time):
//   t0 [1, 2, 3, 4]      → p = [0.03205860328, 0.08714431874, 0.2368828181, 0.6439142599]
//                          top-2: e3, e2 → w = [0.6439142599, 0.2368828181]
//   t1 [0, 3, 1, 2]      → the same p permuted: e1 = 0.6439142599, e3 = 0.2368828181
//                          top-2: e1, e3
//   t2 [0.5, −1, 2, 0]   → Σ e^(x−2) = e^-1.5 + e^-3 + 1 + e^-2 = 1.408252512
//                          p = [0.1584447095, 0.03535379341, 0.7100999229, 0.09610157419]
//                          top-2: e2, e0 → w = [0.7100999229, 0.1584447095]
//   t3 [−3, 1, 0, 1.5]   → p = [0.006034973216, 0.3294983731, 0.1212156774, 0.5432509764]
//                          top-2: e3, e1 → w = [0.5432509764, 0.3294983731]
func.func @topk_softmax_pre() -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %l = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.0, 3.0, 1.0, 2.0],
                             [0.5, -1.0, 2.0, 0.0], [-3.0, 1.0, 0.0, 1.5]]> : tensor<4x4xf32>
  %init1 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route softmax %l outs(%init1) : tensor<4x4xf32> -> tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x2xf32>
  %init3 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk softmax %s k 2 outs(%init2, %init3) : tensor<4x4xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return %w, %i : tensor<4x2xf32>, tensor<4x2xi32>
}
// CHECK: result0 = [0.643914{{[0-4][0-9]*}}, 0.236882{{[7-8][0-9]*}}, 0.643914{{[0-4][0-9]*}}, 0.236882{{[7-8][0-9]*}}, {{(0\.710099[6-9][0-9]*|0\.710100[0-1][0-9]*)}}, 0.158444{{[6-7][0-9]*}}, 0.54325{{[0-1][0-9]*}}, 0.329498{{[2-4][0-9]*}}]
// CHECK: result1 = [3, 2, 1, 3, 2, 0, 3, 1]
