// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.aux_loss batch: with c_e the number of (t, k) routed to e,
//   loss = E · coeff / (K · T²) · Σ_e (Σ_t p[t, e]) · c_e
// where p are the dense softmax scores of every expert (not the top-k weights).

// Exact softmax-like scores (rows sum to 1) and indices; T = 4, E = 4, K = 2,
// coeff = 0.5, counts deliberately unbalanced.
//   scores                        indices
//   t0 [0.5,    0.25,   0.125, 0.125]  [0, 1]
//   t1 [0.25,   0.5,    0.125, 0.125]  [1, 0]
//   t2 [0.125,  0.125,  0.5,   0.25 ]  [2, 3]
//   t3 [0.0625, 0.0625, 0.125, 0.75 ]  [3, 0]
//   Σ_t p = [0.9375, 0.9375, 0.875, 1.25];  c = [3, 2, 1, 2]
//   Σ_e = 0.9375·3 + 0.9375·2 + 0.875·1 + 1.25·2 = 8.0625
//   loss = 4 · 0.5 / (2 · 16) · 8.0625 = 0.0625 · 8.0625 = 0.50390625 (exact)
func.func @aux_batch_exact() -> tensor<f32> {
  %s = arith.constant dense<[[0.5, 0.25, 0.125, 0.125], [0.25, 0.5, 0.125, 0.125],
                             [0.125, 0.125, 0.5, 0.25], [0.0625, 0.0625, 0.125, 0.75]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [1, 0], [2, 3], [3, 0]]> : tensor<4x2xi32>
  %init1 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss batch %s, %i from softmax coeff 0.5 outs(%init1) : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: entry aux_batch_exact on
// CHECK: result0 = [0.50390625]

// Chained: logits → moe.route softmax → moe.topk k 2 → moe.aux_loss, coeff 0.01.
// Derivation (python3 math at writing time), scores as in topk-softmax-pre.mlir:
//   t0 [1, 2, 3, 4]    p = [0.03205860328, 0.08714431874, 0.2368828181, 0.6439142599] → [3, 2]
//   t1 [0, 3, 1, 2]    p = [0.03205860328, 0.6439142599, 0.08714431874, 0.2368828181] → [1, 3]
//   t2 [0.5, −1, 2, 0] p = [0.1584447095, 0.03535379341, 0.7100999229, 0.09610157419] → [2, 0]
//   t3 [−3, 1, 0, 1.5] p = [0.006034973216, 0.3294983731, 0.1212156774, 0.5432509764] → [3, 1]
//   Σ_t p = [0.2285968893, 1.095910745, 1.155342737, 1.520149629];  c = [1, 2, 2, 3]
//   Σ_e = 0.2285968893 + 2·1.095910745 + 2·1.155342737 + 3·1.520149629 = 9.291552739
//   loss = 4 · 0.01 / (2 · 16) · 9.291552739 = 0.01161444092
func.func @aux_batch_softmax_chain() -> tensor<f32> {
  %lg = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.0, 3.0, 1.0, 2.0],
                              [0.5, -1.0, 2.0, 0.0], [-3.0, 1.0, 0.0, 1.5]]> : tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route softmax %lg outs(%init2) : tensor<4x4xf32> -> tensor<4x4xf32>
  %init3 = tensor.empty() : tensor<4x2xf32>
  %init4 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk softmax %s k 2 outs(%init3, %init4) : tensor<4x4xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  %init5 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss batch %s, %i from softmax coeff 0.01 outs(%init5) : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: entry aux_batch_softmax_chain on
// CHECK: result0 = [0.0116144{{[3-4][0-9]*}}]
