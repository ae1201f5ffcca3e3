// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.aux_loss sequence, seq_length 2: the batch formula per sequence of
// S = 2 tokens, E · coeff / (K · S²) · Σ_e (Σ_{t∈seq} p[t, e]) · c_e^seq,
// then averaged over the T / S = 2 sequences. Same data as the exact batch
// case in aux-loss-batch.mlir (T = 4, E = 4, K = 2, coeff = 0.5), whose
// batch loss is 0.50390625; the per-sequence counts differ.
//   seq 0 = t0, t1: Σ p = [0.75, 0.75, 0.25, 0.25], c = [2, 2, 0, 0]
//     Σ_e = 1.5 + 1.5 = 3 → 4 · 0.5 / (2 · 4) · 3 = 0.25 · 3 = 0.75
//   seq 1 = t2, t3: Σ p = [0.1875, 0.1875, 0.625, 1.0], c = [1, 0, 1, 2]
//     Σ_e = 0.1875 + 0.625 + 2 = 2.8125 → 0.25 · 2.8125 = 0.703125
//   loss = (0.75 + 0.703125) / 2 = 0.7265625 (exact)
func.func @aux_sequence() -> tensor<f32> {
  %s = arith.constant dense<[[0.5, 0.25, 0.125, 0.125], [0.25, 0.5, 0.125, 0.125],
                             [0.125, 0.125, 0.5, 0.25], [0.0625, 0.0625, 0.125, 0.75]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [1, 0], [2, 3], [3, 0]]> : tensor<4x2xi32>
  %init1 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss sequence %s, %i from softmax coeff 0.5 outs(%init1) {seq_length = 2 : i64} : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: entry aux_sequence on
// CHECK: result0 = [0.7265625]

// seq_length = T is one sequence: the batch value.
func.func @aux_sequence_whole() -> tensor<f32> {
  %s = arith.constant dense<[[0.5, 0.25, 0.125, 0.125], [0.25, 0.5, 0.125, 0.125],
                             [0.125, 0.125, 0.5, 0.25], [0.0625, 0.0625, 0.125, 0.75]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [1, 0], [2, 3], [3, 0]]> : tensor<4x2xi32>
  %init2 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss sequence %s, %i from softmax coeff 0.5 outs(%init2) {seq_length = 4 : i64} : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: entry aux_sequence_whole on
// CHECK: result0 = [0.50390625]
