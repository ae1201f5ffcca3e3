// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.aux_loss from sigmoid: the dense scores are first normalized per token,
// p[t, e] = s[t, e] / (Σ_e s[t, e] + 1e-20), then the batch formula applies.

// Exact: every row is a multiple of the exact batch case's rows in
// aux-loss-batch.mlir, so the normalized p are those rows exactly
// (1e-20 is far below half an ulp of the sums 1.5 and 0.5):
//   t0 [0.75, 0.375, 0.1875, 0.1875]     Σ = 1.5 → [0.5, 0.25, 0.125, 0.125]
//   t1 [0.125, 0.25, 0.0625, 0.0625]     Σ = 0.5 → [0.25, 0.5, 0.125, 0.125]
//   t2 [0.0625, 0.0625, 0.25, 0.125]     Σ = 0.5 → [0.125, 0.125, 0.5, 0.25]
//   t3 [0.03125, 0.03125, 0.0625, 0.375] Σ = 0.5 → [0.0625, 0.0625, 0.125, 0.75]
//   indices as there → loss = 0.50390625 (coeff 0.5). Without the per-token
//   normalization (Σ_t s = [0.96875, 0.71875, 0.5625, 0.75]) it would be
//   0.0625 · (0.96875·3 + 0.71875·2 + 0.5625·1 + 0.75·2) = 0.400390625.
func.func @aux_sigmoid_exact() -> tensor<f32> {
  %s = arith.constant dense<[[0.75, 0.375, 0.1875, 0.1875], [0.125, 0.25, 0.0625, 0.0625],
                             [0.0625, 0.0625, 0.25, 0.125], [0.03125, 0.03125, 0.0625, 0.375]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [1, 0], [2, 3], [3, 0]]> : tensor<4x2xi32>
  %init1 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss batch %s, %i from sigmoid coeff 0.5 outs(%init1) : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: entry aux_sigmoid_exact on
// CHECK: result0 = [0.50390625]

// Chained: logits → moe.route sigmoid → moe.topk sigmoid k 2 → aux_loss, coeff 0.01.
// Derivation (python3 math at writing time):
//   t0 [2, 1, 0, −1]     σ = [0.880797078, 0.7310585786, 0.5, 0.2689414214]   Σ 2.380797078  → [0, 1]
//   t1 [4, 0, −4, −4]    σ = [0.98201379, 0.5, 0.01798620996, 0.01798620996]  Σ 1.51798621   → [0, 1]
//   t2 [−1, 3, 0.5, 1]   σ = [0.2689414214, 0.9525741268, 0.6224593312, 0.7310585786] Σ 2.575033458 → [1, 3]
//   t3 [0, 0.25, −2, 2]  σ = [0.5, 0.5621765009, 0.119202922, 0.880797078]   Σ 2.062176501  → [3, 1]
//   p = σ / Σ:
//   t0 [0.3699589042, 0.307064632, 0.2100136986, 0.1129627652]
//   t1 [0.646918782, 0.3293837564, 0.0118487308, 0.0118487308]
//   t2 [0.1044419134, 0.3699268931, 0.2417286382, 0.2839025553]
//   t3 [0.2424622722, 0.2726131835, 0.05780442264, 0.4271201217]
//   Σ_t p = [1.363781872, 1.278988465, 0.5213954903, 0.835834173];  c = [2, 4, 0, 2]
//   Σ_e = 2·1.363781872 + 4·1.278988465 + 2·0.835834173 = 9.51518595
//   loss = 4 · 0.01 / (2 · 16) · 9.51518595 = 0.01189398244
func.func @aux_sigmoid_chain() -> tensor<f32> {
  %lg = arith.constant dense<[[2.0, 1.0, 0.0, -1.0], [4.0, 0.0, -4.0, -4.0],
                              [-1.0, 3.0, 0.5, 1.0], [0.0, 0.25, -2.0, 2.0]]> : tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route sigmoid %lg outs(%init2) : tensor<4x4xf32> -> tensor<4x4xf32>
  %init3 = tensor.empty() : tensor<4x2xf32>
  %init4 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk sigmoid %s k 2 outs(%init3, %init4) : tensor<4x4xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  %init5 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss batch %s, %i from sigmoid coeff 0.01 outs(%init5) : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: entry aux_sigmoid_chain on
// CHECK: result0 = [0.0118939{{[7-8][0-9]*}}]

// sqrtsoftplus scores are normalized per token the same way: the exact data
// above read as sqrtsoftplus scores gives the same 0.50390625.
func.func @aux_sqrtsoftplus_exact() -> tensor<f32> {
  %s = arith.constant dense<[[0.75, 0.375, 0.1875, 0.1875], [0.125, 0.25, 0.0625, 0.0625],
                             [0.0625, 0.0625, 0.25, 0.125], [0.03125, 0.03125, 0.0625, 0.375]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [1, 0], [2, 3], [3, 0]]> : tensor<4x2xi32>
  %init6 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss batch %s, %i from sqrtsoftplus coeff 0.5 outs(%init6) : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: entry aux_sqrtsoftplus_exact on
// CHECK: result0 = [0.50390625]

// The same data read as softmax scores (no per-token normalization) gives
// the unnormalized value 0.400390625 derived above.
func.func @aux_same_data_as_softmax() -> tensor<f32> {
  %s = arith.constant dense<[[0.75, 0.375, 0.1875, 0.1875], [0.125, 0.25, 0.0625, 0.0625],
                             [0.0625, 0.0625, 0.25, 0.125], [0.03125, 0.03125, 0.0625, 0.375]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [1, 0], [2, 3], [3, 0]]> : tensor<4x2xi32>
  %init7 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss batch %s, %i from softmax coeff 0.5 outs(%init7) : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: entry aux_same_data_as_softmax on
// CHECK: result0 = [0.400390625]
