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
  %init1 = tensor.empty() : tensor<16x2xf32>
  %init2 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %sel2 k 2 outs(%init1, %init2) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init3 = tensor.empty() : tensor<f32>
  %loss = moe.aux_loss batch %s, %i from softmax coeff 1.0e-02 outs(%init3) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<f32>
  return %loss : tensor<f32>
}

func.func @aux_batch_softmax(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %init4 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route softmax %l outs(%init4) : tensor<16x8xf32> -> tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %init5 = tensor.empty() : tensor<16x2xf32>
  %init6 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %sel2 k 2 outs(%init5, %init6) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init7 = tensor.empty() : tensor<f32>
  %loss = moe.aux_loss batch %s, %i from softmax coeff 1.0e-02 outs(%init7) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<f32>
  return %loss : tensor<f32>
}

func.func @aux_sequence_softmax(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %init8 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route softmax %l outs(%init8) : tensor<16x8xf32> -> tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %init9 = tensor.empty() : tensor<16x3xf32>
  %init10 = tensor.empty() : tensor<16x3xi32>
  %w, %i = moe.topk softmax %sel2 k 3 outs(%init9, %init10) : tensor<16x8xf32> -> tensor<16x3xf32>, tensor<16x3xi32>
  %init11 = tensor.empty() : tensor<f32>
  %loss = moe.aux_loss sequence %s, %i from softmax coeff 1.0e-02 outs(%init11) {seq_length = 4 : i64} : tensor<16x8xf32>, tensor<16x3xi32> -> tensor<f32>
  return %loss : tensor<f32>
}

func.func @aux_batch_sigmoid(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %init12 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sigmoid %l outs(%init12) : tensor<16x8xf32> -> tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %init13 = tensor.empty() : tensor<16x2xf32>
  %init14 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk sigmoid %sel2 k 2 outs(%init13, %init14) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init15 = tensor.empty() : tensor<f32>
  %loss = moe.aux_loss batch %s, %i from sigmoid coeff 1.0e-02 outs(%init15) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<f32>
  return %loss : tensor<f32>
}

func.func @aux_sequence_sigmoid(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %init16 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sigmoid %l outs(%init16) : tensor<16x8xf32> -> tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %init17 = tensor.empty() : tensor<16x4xf32>
  %init18 = tensor.empty() : tensor<16x4xi32>
  %w, %i = moe.topk sigmoid %sel2 k 4 outs(%init17, %init18) : tensor<16x8xf32> -> tensor<16x4xf32>, tensor<16x4xi32>
  %init19 = tensor.empty() : tensor<f32>
  %loss = moe.aux_loss sequence %s, %i from sigmoid coeff 1.0e-03 outs(%init19) {seq_length = 8 : i64} : tensor<16x8xf32>, tensor<16x4xi32> -> tensor<f32>
  return %loss : tensor<f32>
}

func.func @aux_batch_sqrtsoftplus(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %init20 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sqrtsoftplus %l outs(%init20) : tensor<16x8xf32> -> tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %init21 = tensor.empty() : tensor<16x2xf32>
  %init22 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk sqrtsoftplus %sel2 k 2 outs(%init21, %init22) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init23 = tensor.empty() : tensor<f32>
  %loss = moe.aux_loss batch %s, %i from sqrtsoftplus coeff 1.0e-02 outs(%init23) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<f32>
  return %loss : tensor<f32>
}

// The global variant sums counts and tokens over the ranks of the grid axes;
// on a one-rank grid it is the batch loss.
shard.grid @dp(shape = 1)

func.func @aux_global_one_rank(%l: tensor<16x8xf32> {moe.name = "logits"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<f32> {moe.name = "loss"}) {
  %init24 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sigmoid %l outs(%init24) : tensor<16x8xf32> -> tensor<16x8xf32>
  %skew = arith.constant dense<[[3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0], [3.0, 2.0, 1.5, 1.0, 0.5, 0.0, -1.0, -2.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %init25 = tensor.empty() : tensor<16x2xf32>
  %init26 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk sigmoid %sel2 k 2 outs(%init25, %init26) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init27 = tensor.empty() : tensor<f32>
  %loss = moe.aux_loss global %s, %i from sigmoid coeff 1.0e-02 outs(%init27) {grid = @dp, grid_axes = array<i64: 0>} : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<f32>
  return %loss : tensor<f32>
}
