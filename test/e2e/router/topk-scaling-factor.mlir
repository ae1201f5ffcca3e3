// RUN: moe-runner %s --device cpu --print | FileCheck %s

// scaling_factor multiplies the weights after normalization (k = 2).

// Softmax scores, normalize sum, scaling 2.5. For softmax scores the sum
// normalization of the top two is p_a / (p_a + p_b) = σ(x_a − x_b).
// Derivation (python3 math at writing time):
//   t0 [1, 2, 3, 4]:    e3, e2; Δ = 1   → 2.5·[σ(1), σ(−1)]  = [1.827646447, 0.6723535534]
//   t1 [0, 0, 0, 0]:    tie → e0, e1; Δ = 0 → 2.5·[0.5, 0.5] = [1.25, 1.25]
//   t2 [2, 0, 0, −2]:   e0, then e1 (tie with e2 → lower index); Δ = 2
//                       → 2.5·[σ(2), σ(−2)] = [2.201992695, 0.2980073051]
//   t3 [−1, 1, 0.5, 0]: e1, e2; Δ = 0.5 → 2.5·[σ(0.5), σ(−0.5)] = [1.556148328, 0.943851672]
func.func @topk_scaling_softmax_sum() -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %l = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.0],
                             [2.0, 0.0, 0.0, -2.0], [-1.0, 1.0, 0.5, 0.0]]> : tensor<4x4xf32>
  %init1 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route softmax %l outs(%init1) : tensor<4x4xf32> -> tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x2xf32>
  %init3 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk softmax %s k 2 outs(%init2, %init3) {normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64} : tensor<4x4xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return %w, %i : tensor<4x2xf32>, tensor<4x2xi32>
}
// CHECK-LABEL: entry topk_scaling_softmax_sum on
// CHECK: result0 = [1.82764{{[5-6][0-9]*}}, 0.672353{{[3-7][0-9]*}}, 1.25, 1.25, 2.20199{{[2-3][0-9]*}}, 0.298007{{[2-3][0-9]*}}, 1.55614{{[7-8][0-9]*}}, 0.943851{{[4-9][0-9]*}}]
// CHECK: result1 = [3, 2, 0, 1, 0, 1, 1, 2]

// Exact scores, normalize none, scaling 2.5: w = 2.5 · score.
//   t0 [0.5, 0.25, 0.125, 1]  → e3, e0 → [2.5, 1.25]
//   t1 [0, −1, −0.5, −2]      → e0, e2 → [0, −1.25]
//   t2 [0.75, 0.75, 0.25, 0]  → e0, e1 → [1.875, 1.875]
//   t3 [4, 8, 2, 1]           → e1, e0 → [20, 10]
func.func @topk_scaling_identity_none() -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %s = arith.constant dense<[[0.5, 0.25, 0.125, 1.0], [0.0, -1.0, -0.5, -2.0],
                             [0.75, 0.75, 0.25, 0.0], [4.0, 8.0, 2.0, 1.0]]> : tensor<4x4xf32>
  %init4 = tensor.empty() : tensor<4x2xf32>
  %init5 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk identity %s k 2 outs(%init4, %init5) {scaling_factor = 2.5 : f64} : tensor<4x4xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return %w, %i : tensor<4x2xf32>, tensor<4x2xi32>
}
// CHECK-LABEL: entry topk_scaling_identity_none on
// CHECK: result0 = [2.5, 1.25, 0, -1.25, 1.875, 1.875, 20, 10]
// CHECK: result1 = [3, 0, 0, 2, 0, 1, 1, 0]
