// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.z_loss: loss = coeff · mean_t(logsumexp_e(logits[t, e])²).
// lse(x) = m + log Σ_e e^(x_e − m), m = max_e x_e.

// Derivation (python3 math at writing time), coeff = 0.1:
//   t0 [0, 0, 0, 0]     lse = log 4                 = 1.386294361  ² = 1.921812056
//   t1 [1, 2, 3, 4]     lse = 4 + log(1.553001793)  = 4.440189699  ² = 19.71528456
//   t2 [2, 0, 0, −2]    lse = 2 + log(1.288986205)  = 2.253856022  ² = 5.079866968
//   t3 [−1, 1, 0.5, 0]  lse = 1.746567269                          ² = 3.050497226
//   Σ = 29.76746081, mean = 7.441865202, loss = 0.7441865202
func.func @z_loss() -> tensor<f32> {
  %l = arith.constant dense<[[0.0, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0],
                             [2.0, 0.0, 0.0, -2.0], [-1.0, 1.0, 0.5, 0.0]]> : tensor<4x4xf32>
  %init1 = tensor.empty() : tensor<f32>
  %z = moe.z_loss %l coeff 0.1 outs(%init1) : tensor<4x4xf32> -> tensor<f32>
  return %z : tensor<f32>
}
// CHECK-LABEL: entry z_loss on
// CHECK: result0 = [0.744186{{[2-7][0-9]*}}]

// Large logits: e^100 overflows f32 and e^-100 is subnormal, so these rows
// check the max subtraction. coeff = 0.001:
//   t0 [0, 0, 0, 0]             lse = 1.386294361   ² = 1.921812056
//   t1 [1, 2, 3, 4]             lse = 4.440189699   ² = 19.71528456
//   t2 [100, 100, 0, 0]         lse = 100 + log(2 + 2e^-100) = 100.6931472  ² = 10139.10989
//   t3 [−100, −100, −100, −100] lse = −100 + log 4 = −98.61370564  ² = 9724.66294
//   Σ = 19885.40993, mean = 4971.352481, loss = 4.971352481
// (checked to ~6 digits: the squares of ~100 carry a few f32 ulps.)
func.func @z_loss_large() -> tensor<f32> {
  %l = arith.constant dense<[[0.0, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0],
                             [100.0, 100.0, 0.0, 0.0], [-100.0, -100.0, -100.0, -100.0]]> : tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<f32>
  %z = moe.z_loss %l coeff 0.001 outs(%init2) : tensor<4x4xf32> -> tensor<f32>
  return %z : tensor<f32>
}
// CHECK-LABEL: entry z_loss_large on
// CHECK: result0 = [4.9713{{[4-5][0-9]*}}]
