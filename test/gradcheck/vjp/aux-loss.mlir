// Finite-difference check of moe.aux_loss's adjoint (counts carry no
// gradient; the gradient reaches the dense scores). The indices come from a
// moe.topk of a separate argument `sel`, which gets no gradient and is not
// perturbed, so the counts stay fixed. `sel` is skewed towards the low
// experts first: with balanced counts Σ_e p[t,e]·c_e hardly changes (the
// normalized scores sum to 1) and f32 rounding swamps the difference.
// aux_raw feeds random scores straight in (softmax: the loss is linear in
// them); the others make the scores with moe.route from a logits argument,
// as a layer does (sigmoid/sqrtsoftplus scores are normalized per token
// inside the loss).
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry aux_raw --seed 1 --per-input --eps 1e-2 | FileCheck %s --check-prefix=RAW
// RUN: moe-gradcheck %t --entry aux_raw --seed 2 --per-input --eps 1e-2 | FileCheck %s --check-prefix=RAW
// RUN: moe-gradcheck %t --entry aux_batch_softmax --seed 1 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_batch_softmax --seed 2 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_sequence_softmax --seed 1 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_sequence_softmax --seed 2 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_batch_sigmoid --seed 1 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_batch_sigmoid --seed 2 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_sequence_sigmoid --seed 1 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_sequence_sigmoid --seed 2 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_batch_sqrtsoftplus --seed 1 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_batch_sqrtsoftplus --seed 2 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_global_one_rank --seed 1 --per-input --eps 1e-2 | FileCheck %s
// RUN: moe-gradcheck %t --entry aux_global_one_rank --seed 2 --per-input --eps 1e-2 | FileCheck %s

// RAW:      gradients: d_scores [16, 8] f32 (all finite)
// RAW-NEXT: check scores: {{.*}} ok
// RAW-NEXT: PASS

// CHECK:      gradients: d_logits [16, 8] f32 (all finite)
// CHECK-NEXT: check logits: {{.*}} ok
// CHECK-NEXT: PASS

func.func @aux_raw(%s: tensor<16x8xf32> {moe.name = "scores"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %w, %i = moe.topk softmax %sel2 k 2 : tensor<16x8xf32>
  %loss = moe.aux_loss batch %s, %i from softmax coeff 1.0e-02 : tensor<16x8xf32>, tensor<16x2xi32>
  return %loss : tensor<f32>
}

func.func @aux_batch_softmax(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %s = moe.route softmax %l : tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %w, %i = moe.topk softmax %sel2 k 2 : tensor<16x8xf32>
  %loss = moe.aux_loss batch %s, %i from softmax coeff 1.0e-02 : tensor<16x8xf32>, tensor<16x2xi32>
  return %loss : tensor<f32>
}

func.func @aux_sequence_softmax(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %s = moe.route softmax %l : tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %w, %i = moe.topk softmax %sel2 k 3 : tensor<16x8xf32>
  %loss = moe.aux_loss sequence %s, %i from softmax coeff 1.0e-02 {seq_length = 4 : i64} : tensor<16x8xf32>, tensor<16x3xi32>
  return %loss : tensor<f32>
}

func.func @aux_batch_sigmoid(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %s = moe.route sigmoid %l : tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %w, %i = moe.topk sigmoid %sel2 k 2 : tensor<16x8xf32>
  %loss = moe.aux_loss batch %s, %i from sigmoid coeff 1.0e-02 : tensor<16x8xf32>, tensor<16x2xi32>
  return %loss : tensor<f32>
}

func.func @aux_sequence_sigmoid(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %s = moe.route sigmoid %l : tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %w, %i = moe.topk sigmoid %sel2 k 4 : tensor<16x8xf32>
  %loss = moe.aux_loss sequence %s, %i from sigmoid coeff 1.0e-03 {seq_length = 8 : i64} : tensor<16x8xf32>, tensor<16x4xi32>
  return %loss : tensor<f32>
}

func.func @aux_batch_sqrtsoftplus(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %s = moe.route sqrtsoftplus %l : tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %w, %i = moe.topk sqrtsoftplus %sel2 k 2 : tensor<16x8xf32>
  %loss = moe.aux_loss batch %s, %i from sqrtsoftplus coeff 1.0e-02 : tensor<16x8xf32>, tensor<16x2xi32>
  return %loss : tensor<f32>
}

// The global variant sums counts and tokens over the ranks of the grid axes;
// on a one-rank grid it is the batch loss.
shard.grid @dp(shape = 1)

func.func @aux_global_one_rank(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %s = moe.route sigmoid %l : tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %w, %i = moe.topk sigmoid %sel2 k 2 : tensor<16x8xf32>
  %loss = moe.aux_loss global %s, %i from sigmoid coeff 1.0e-02 {grid = @dp, grid_axes = array<i64: 0>} : tensor<16x8xf32>, tensor<16x2xi32>
  return %loss : tensor<f32>
}
