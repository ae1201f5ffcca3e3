// Finite-difference check of moe.permute's adjoint: dx[t] = Σ_k dxs[rows[t,k]]
// (a combine with unit weights; padding rows are never gathered). The
// indices come from a moe.topk of a separate argument `sel` (no gradient,
// not perturbed); x gets the gradient. permute_align4 pads each group to a
// multiple of 4 rows and adds empty experts (`sel` skewed away from experts
// 5..7), so the permuted rows include zero padding rows and trailing zero rows.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry permute_align1 --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry permute_align1 --seed 2 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry permute_align4 --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry permute_align4 --seed 2 --per-input | FileCheck %s

// CHECK:      gradients: d_x [16, 8] f32 (all finite)
// CHECK-NEXT: check x: {{.*}} ok
// CHECK-NEXT: PASS

func.func @permute_align1(%x: tensor<16x8xf32> {moe.name = "x"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<32x8xf32> {moe.name = "permuted"}, tensor<16x2xi32> {moe.name = "rows"}) {
  %init1 = tensor.empty() : tensor<16x2xf32>
  %init2 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %sel k 2 outs(%init1, %init2) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init3 = tensor.empty() : tensor<32x8xf32>
  %init4 = tensor.empty() : tensor<8xi32>
  %init5 = tensor.empty() : tensor<16x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 8 align 1 outs(%init3, %init4, %init5) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<32x8xf32>, tensor<8xi32>, tensor<16x2xi32>
  return %xs, %rows : tensor<32x8xf32>, tensor<16x2xi32>
}

func.func @permute_align4(%x: tensor<16x8xf32> {moe.name = "x"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<72x8xf32> {moe.name = "permuted"}, tensor<16x3xi32> {moe.name = "rows"}) {
  %skew = arith.constant dense<[[4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %init6 = tensor.empty() : tensor<16x3xf32>
  %init7 = tensor.empty() : tensor<16x3xi32>
  %w, %i = moe.topk softmax %sel2 k 3 outs(%init6, %init7) : tensor<16x8xf32> -> tensor<16x3xf32>, tensor<16x3xi32>
  %init8 = tensor.empty() : tensor<72x8xf32>
  %init9 = tensor.empty() : tensor<8xi32>
  %init10 = tensor.empty() : tensor<16x3xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 8 align 4 outs(%init8, %init9, %init10) : tensor<16x8xf32>, tensor<16x3xi32> -> tensor<72x8xf32>, tensor<8xi32>, tensor<16x3xi32>
  return %xs, %rows : tensor<72x8xf32>, tensor<16x3xi32>
}
