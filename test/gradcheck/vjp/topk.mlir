// Finite-difference check of moe.topk's adjoint: the gradient of the weights
// flows through scaling and normalization to the chosen scores. The indices
// are returned too, so a selection that flips inside the step fails loudly
// instead of spoiling the difference. Raw random scores feed normalize none
// and softmax; normalize sum (which needs positive scores) gets sigmoid
// scores from a moe.route of a logits argument. The expert bias only steers
// selection: it must get no gradient (no d_bias). Sum-normalized weights
// sum to a constant, so <v, w> changes little along a random direction and
// f32 rounding dominates the difference at the default step; the grouped
// sum case uses --eps 1e-2 (indices are returned, so a flip would show).
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry topk_none --seed 1 --per-input | FileCheck %s --check-prefix=S
// RUN: moe-gradcheck %t --entry topk_none --seed 2 --per-input | FileCheck %s --check-prefix=S
// RUN: moe-gradcheck %t --entry topk_softmax --seed 1 --per-input | FileCheck %s --check-prefix=S
// RUN: moe-gradcheck %t --entry topk_softmax --seed 2 --per-input | FileCheck %s --check-prefix=S
// RUN: moe-gradcheck %t --entry topk_softmax_scaled --seed 1 --per-input | FileCheck %s --check-prefix=S
// RUN: moe-gradcheck %t --entry topk_softmax_scaled --seed 2 --per-input | FileCheck %s --check-prefix=S
// RUN: moe-gradcheck %t --entry topk_sum --seed 1 --per-input | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_sum --seed 2 --per-input | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_sum_scaled --seed 1 --per-input | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_sum_scaled --seed 2 --per-input | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_sum_k1 --seed 1 --per-input | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_sum_k1 --seed 2 --per-input | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_none_scaled --seed 1 --per-input | FileCheck %s --check-prefix=S
// RUN: moe-gradcheck %t --entry topk_none_scaled --seed 2 --per-input | FileCheck %s --check-prefix=S
// RUN: moe-gradcheck %t --entry topk_bias --seed 1 --per-input | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_bias --seed 2 --per-input | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_bias_sqrtsoftplus --seed 1 --per-input | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_bias_sqrtsoftplus --seed 2 --per-input | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_group_top_sum --seed 1 --per-input --eps 1e-2 | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_group_top_sum --seed 2 --per-input --eps 1e-2 | FileCheck %s --check-prefix=L
// RUN: moe-gradcheck %t --entry topk_group_max --seed 1 --per-input | FileCheck %s --check-prefix=S
// RUN: moe-gradcheck %t --entry topk_group_max --seed 2 --per-input | FileCheck %s --check-prefix=S

// The backward of each function with a bias returns d_logits and nothing else.
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=IR
// IR-LABEL: func.func @topk_bias_bwd(
// IR-SAME:  -> (tensor<16x8xf32> {moe.name = "d_logits", moe.role = "gradient"}) {
// IR-LABEL: func.func @topk_bias_sqrtsoftplus_bwd(
// IR-SAME:  -> (tensor<16x8xf32> {moe.name = "d_logits", moe.role = "gradient"}) {
// IR-LABEL: func.func @topk_group_top_sum_bwd(
// IR-SAME:  -> (tensor<16x8xf32> {moe.name = "d_logits", moe.role = "gradient"}) {

// S:      gradients: d_scores [16, 8] f32 (all finite)
// S-NEXT: check scores: {{.*}} ok
// S-NEXT: PASS

// L:      gradients: d_logits [16, 8] f32 (all finite)
// L-NEXT: check logits: {{.*}} ok
// L-NEXT: PASS

func.func @topk_none(%s: tensor<16x8xf32> {moe.name = "scores"})
    -> (tensor<16x2xf32> {moe.name = "weights"}, tensor<16x2xi32> {moe.name = "indices"}) {
  %init1 = tensor.empty() : tensor<16x2xf32>
  %init2 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %s k 2 outs(%init1, %init2) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  return %w, %i : tensor<16x2xf32>, tensor<16x2xi32>
}

func.func @topk_none_scaled(%s: tensor<16x8xf32> {moe.name = "scores"})
    -> (tensor<16x3xf32> {moe.name = "weights"}, tensor<16x3xi32> {moe.name = "indices"}) {
  %init3 = tensor.empty() : tensor<16x3xf32>
  %init4 = tensor.empty() : tensor<16x3xi32>
  %w, %i = moe.topk softmax %s k 3 outs(%init3, %init4) {scaling_factor = 2.5 : f64} : tensor<16x8xf32> -> tensor<16x3xf32>, tensor<16x3xi32>
  return %w, %i : tensor<16x3xf32>, tensor<16x3xi32>
}

// Post-softmax routing: softmax over the k chosen raw logits.
func.func @topk_softmax(%s: tensor<16x8xf32> {moe.name = "scores"})
    -> (tensor<16x4xf32> {moe.name = "weights"}, tensor<16x4xi32> {moe.name = "indices"}) {
  %init5 = tensor.empty() : tensor<16x4xf32>
  %init6 = tensor.empty() : tensor<16x4xi32>
  %w, %i = moe.topk identity %s k 4 outs(%init5, %init6) {normalize = #moe<normalize softmax>} : tensor<16x8xf32> -> tensor<16x4xf32>, tensor<16x4xi32>
  return %w, %i : tensor<16x4xf32>, tensor<16x4xi32>
}

func.func @topk_softmax_scaled(%s: tensor<16x8xf32> {moe.name = "scores"})
    -> (tensor<16x2xf32> {moe.name = "weights"}, tensor<16x2xi32> {moe.name = "indices"}) {
  %init7 = tensor.empty() : tensor<16x2xf32>
  %init8 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk identity %s k 2 outs(%init7, %init8) {normalize = #moe<normalize softmax>, scaling_factor = 2.5 : f64} : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  return %w, %i : tensor<16x2xf32>, tensor<16x2xi32>
}

func.func @topk_sum(%l: tensor<16x8xf32> {moe.name = "logits"})
    -> (tensor<16x2xf32> {moe.name = "weights"}, tensor<16x2xi32> {moe.name = "indices"}) {
  %init9 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sigmoid %l outs(%init9) : tensor<16x8xf32> -> tensor<16x8xf32>
  %init10 = tensor.empty() : tensor<16x2xf32>
  %init11 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk sigmoid %s k 2 outs(%init10, %init11) {normalize = #moe<normalize sum>} : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  return %w, %i : tensor<16x2xf32>, tensor<16x2xi32>
}

func.func @topk_sum_scaled(%l: tensor<16x8xf32> {moe.name = "logits"})
    -> (tensor<16x4xf32> {moe.name = "weights"}, tensor<16x4xi32> {moe.name = "indices"}) {
  %init12 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sigmoid %l outs(%init12) : tensor<16x8xf32> -> tensor<16x8xf32>
  %init13 = tensor.empty() : tensor<16x4xf32>
  %init14 = tensor.empty() : tensor<16x4xi32>
  %w, %i = moe.topk sigmoid %s k 4 outs(%init13, %init14) {normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64} : tensor<16x8xf32> -> tensor<16x4xf32>, tensor<16x4xi32>
  return %w, %i : tensor<16x4xf32>, tensor<16x4xi32>
}

// normalize sum is a no-op for k = 1 (the scaling factor still applies).
func.func @topk_sum_k1(%l: tensor<16x8xf32> {moe.name = "logits"})
    -> (tensor<16x1xf32> {moe.name = "weights"}, tensor<16x1xi32> {moe.name = "indices"}) {
  %init15 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sigmoid %l outs(%init15) : tensor<16x8xf32> -> tensor<16x8xf32>
  %init16 = tensor.empty() : tensor<16x1xf32>
  %init17 = tensor.empty() : tensor<16x1xi32>
  %w, %i = moe.topk sigmoid %s k 1 outs(%init16, %init17) {normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64} : tensor<16x8xf32> -> tensor<16x1xf32>, tensor<16x1xi32>
  return %w, %i : tensor<16x1xf32>, tensor<16x1xi32>
}

func.func @topk_bias(%l: tensor<16x8xf32> {moe.name = "logits"}, %b: tensor<8xf32> {moe.name = "bias"})
    -> (tensor<16x2xf32> {moe.name = "weights"}, tensor<16x2xi32> {moe.name = "indices"}) {
  %init18 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sigmoid %l outs(%init18) : tensor<16x8xf32> -> tensor<16x8xf32>
  %init19 = tensor.empty() : tensor<16x2xf32>
  %init20 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk sigmoid %s bias %b k 2 outs(%init19, %init20) {normalize = #moe<normalize sum>} : tensor<16x8xf32>, tensor<8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  return %w, %i : tensor<16x2xf32>, tensor<16x2xi32>
}

func.func @topk_bias_sqrtsoftplus(%l: tensor<16x8xf32> {moe.name = "logits"}, %b: tensor<8xf32> {moe.name = "bias"})
    -> (tensor<16x3xf32> {moe.name = "weights"}, tensor<16x3xi32> {moe.name = "indices"}) {
  %init21 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sqrtsoftplus %l outs(%init21) : tensor<16x8xf32> -> tensor<16x8xf32>
  %init22 = tensor.empty() : tensor<16x3xf32>
  %init23 = tensor.empty() : tensor<16x3xi32>
  %w, %i = moe.topk sqrtsoftplus %s bias %b k 3 outs(%init22, %init23) {normalize = #moe<normalize sum>, scaling_factor = 1.5 : f64} : tensor<16x8xf32>, tensor<8xf32> -> tensor<16x3xf32>, tensor<16x3xi32>
  return %w, %i : tensor<16x3xf32>, tensor<16x3xi32>
}

// DeepSeek-V3 style: 4 groups of 2, the 2 best groups by the sum of their top
// q = k / group_topk = 2 scores, with an expert bias.
func.func @topk_group_top_sum(%l: tensor<16x8xf32> {moe.name = "logits"}, %b: tensor<8xf32> {moe.name = "bias"})
    -> (tensor<16x4xf32> {moe.name = "weights"}, tensor<16x4xi32> {moe.name = "indices"}) {
  %init24 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sigmoid %l outs(%init24) : tensor<16x8xf32> -> tensor<16x8xf32>
  %init25 = tensor.empty() : tensor<16x4xf32>
  %init26 = tensor.empty() : tensor<16x4xi32>
  %w, %i = moe.topk sigmoid %s bias %b k 4 outs(%init25, %init26) {num_groups = 4 : i64, group_topk = 2 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64} : tensor<16x8xf32>, tensor<8xf32> -> tensor<16x4xf32>, tensor<16x4xi32>
  return %w, %i : tensor<16x4xf32>, tensor<16x4xi32>
}

func.func @topk_group_max(%s: tensor<16x8xf32> {moe.name = "scores"})
    -> (tensor<16x2xf32> {moe.name = "weights"}, tensor<16x2xi32> {moe.name = "indices"}) {
  %init27 = tensor.empty() : tensor<16x2xf32>
  %init28 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %s k 2 outs(%init27, %init28) {num_groups = 4 : i64, group_topk = 2 : i64, group_score = #moe<group_score max>, scaling_factor = 2.5 : f64} : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  return %w, %i : tensor<16x2xf32>, tensor<16x2xi32>
}
