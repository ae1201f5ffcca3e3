// Finite-difference check of moe.grouped_matmul's adjoint: da = dc · b[g]ᵀ
// (the flipped-layout grouped_matmul) and db = moe.grouped_weight_grad, for
// both weight layouts. The group sizes come from a moe.permute of a
// moe.topk of a separate argument `sel` (no gradient, not perturbed).
// gmm_nk_empty and gmm_kn_align4 skew `sel` away from experts 5..7, so those
// groups are empty (their weight gradient must be exactly zero, as the finite
// difference is); gmm_kn_align4 also has padded groups and rows past the last
// group (R = T·K + E·(A − 1) = 56).
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry gmm_kn --seed 1 --per-input | FileCheck %s --check-prefix=KN
// RUN: moe-gradcheck %t --entry gmm_kn --seed 2 --per-input | FileCheck %s --check-prefix=KN
// RUN: moe-gradcheck %t --entry gmm_nk --seed 1 --per-input | FileCheck %s --check-prefix=NK
// RUN: moe-gradcheck %t --entry gmm_nk --seed 2 --per-input | FileCheck %s --check-prefix=NK
// RUN: moe-gradcheck %t --entry gmm_nk_empty --seed 1 --per-input | FileCheck %s --check-prefix=NK
// RUN: moe-gradcheck %t --entry gmm_nk_empty --seed 2 --per-input | FileCheck %s --check-prefix=NK
// RUN: moe-gradcheck %t --entry gmm_kn_align4 --seed 1 --per-input | FileCheck %s --check-prefix=A4
// RUN: moe-gradcheck %t --entry gmm_kn_align4 --seed 2 --per-input | FileCheck %s --check-prefix=A4

// KN:      gradients: d_a [32, 8] f32, d_b [8, 8, 12] f32 (all finite)
// KN-NEXT: check a: {{.*}} ok
// KN-NEXT: check b: {{.*}} ok
// KN-NEXT: PASS

// NK:      gradients: d_a [32, 8] f32, d_b [8, 12, 8] f32 (all finite)
// NK-NEXT: check a: {{.*}} ok
// NK-NEXT: check b: {{.*}} ok
// NK-NEXT: PASS

// A4:      gradients: d_a [56, 8] f32, d_b [8, 8, 12] f32 (all finite)
// A4-NEXT: check a: {{.*}} ok
// A4-NEXT: check b: {{.*}} ok
// A4-NEXT: PASS

func.func @gmm_kn(%a: tensor<32x8xf32> {moe.name = "a"}, %b: tensor<8x8x12xf32> {moe.name = "b"},
                  %sel: tensor<16x8xf32> {moe.name = "sel"}) -> (tensor<32x12xf32> {moe.name = "c"}) {
  %init1 = tensor.empty() : tensor<16x2xf32>
  %init2 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %sel k 2 outs(%init1, %init2) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init3 = tensor.empty() : tensor<32x8xf32>
  %init4 = tensor.empty() : tensor<8xi32>
  %init5 = tensor.empty() : tensor<16x2xi32>
  %xs, %sizes, %rows = moe.permute %sel, %i experts 8 align 1 outs(%init3, %init4, %init5) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<32x8xf32>, tensor<8xi32>, tensor<16x2xi32>
  %init6 = tensor.empty() : tensor<32x12xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init6) : tensor<32x8xf32>, tensor<8x8x12xf32>, tensor<8xi32> -> tensor<32x12xf32>
  return %c : tensor<32x12xf32>
}

func.func @gmm_nk(%a: tensor<32x8xf32> {moe.name = "a"}, %b: tensor<8x12x8xf32> {moe.name = "b"},
                  %sel: tensor<16x8xf32> {moe.name = "sel"}) -> (tensor<32x12xf32> {moe.name = "c"}) {
  %init7 = tensor.empty() : tensor<16x2xf32>
  %init8 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %sel k 2 outs(%init7, %init8) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init9 = tensor.empty() : tensor<32x8xf32>
  %init10 = tensor.empty() : tensor<8xi32>
  %init11 = tensor.empty() : tensor<16x2xi32>
  %xs, %sizes, %rows = moe.permute %sel, %i experts 8 align 1 outs(%init9, %init10, %init11) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<32x8xf32>, tensor<8xi32>, tensor<16x2xi32>
  %init12 = tensor.empty() : tensor<32x12xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init12) {weight_layout = #moe<weight_layout nk>} : tensor<32x8xf32>, tensor<8x12x8xf32>, tensor<8xi32> -> tensor<32x12xf32>
  return %c : tensor<32x12xf32>
}

func.func @gmm_nk_empty(%a: tensor<32x8xf32> {moe.name = "a"}, %b: tensor<8x12x8xf32> {moe.name = "b"},
                        %sel: tensor<16x8xf32> {moe.name = "sel"}) -> (tensor<32x12xf32> {moe.name = "c"}) {
  %skew = arith.constant dense<[[4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %init13 = tensor.empty() : tensor<16x2xf32>
  %init14 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %sel2 k 2 outs(%init13, %init14) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init15 = tensor.empty() : tensor<32x8xf32>
  %init16 = tensor.empty() : tensor<8xi32>
  %init17 = tensor.empty() : tensor<16x2xi32>
  %xs, %sizes, %rows = moe.permute %sel, %i experts 8 align 1 outs(%init15, %init16, %init17) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<32x8xf32>, tensor<8xi32>, tensor<16x2xi32>
  %init18 = tensor.empty() : tensor<32x12xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init18) {weight_layout = #moe<weight_layout nk>} : tensor<32x8xf32>, tensor<8x12x8xf32>, tensor<8xi32> -> tensor<32x12xf32>
  return %c : tensor<32x12xf32>
}

func.func @gmm_kn_align4(%a: tensor<56x8xf32> {moe.name = "a"}, %b: tensor<8x8x12xf32> {moe.name = "b"},
                         %sel: tensor<16x8xf32> {moe.name = "sel"}) -> (tensor<56x12xf32> {moe.name = "c"}) {
  %skew = arith.constant dense<[[4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %init19 = tensor.empty() : tensor<16x2xf32>
  %init20 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %sel2 k 2 outs(%init19, %init20) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init21 = tensor.empty() : tensor<56x8xf32>
  %init22 = tensor.empty() : tensor<8xi32>
  %init23 = tensor.empty() : tensor<16x2xi32>
  %xs, %sizes, %rows = moe.permute %sel, %i experts 8 align 4 outs(%init21, %init22, %init23) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<56x8xf32>, tensor<8xi32>, tensor<16x2xi32>
  %init24 = tensor.empty() : tensor<56x12xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init24) : tensor<56x8xf32>, tensor<8x8x12xf32>, tensor<8xi32> -> tensor<56x12xf32>
  return %c : tensor<56x12xf32>
}
