// Finite-difference check of moe.permute_rows's adjoint: ds[t] =
// Σ_k dps[rows[t, k]] (a combine with unit weights; padding rows and rows
// past the groups are never gathered). The rows come from a moe.permute of a
// separate argument `x` routed by a moe.topk of `sel` (neither gets a
// gradient here: their outputs are not returned); `s` (the data moved, as
// the 1×128 scales of tokens quantized before their permute) gets it.
// Align 4 pads each group to a multiple of 4 rows: the permuted rows include
// zero padding rows and trailing zero rows.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry permute_rows --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry permute_rows --seed 2 --per-input | FileCheck %s

// CHECK:      gradients: d_s [16, 3] f32 (all finite)
// CHECK-NEXT: check s: {{.*}} ok
// CHECK-NEXT: PASS

func.func @permute_rows(%s: tensor<16x3xf32> {moe.name = "s"}, %x: tensor<16x8xf32> {moe.name = "x"}, %sel: tensor<16x8xf32> {moe.name = "sel"})
    -> (tensor<56x3xf32> {moe.name = "permuted"}) {
  %init1 = tensor.empty() : tensor<16x2xf32>
  %init2 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %sel k 2 outs(%init1, %init2) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init3 = tensor.empty() : tensor<56x8xf32>
  %init4 = tensor.empty() : tensor<8xi32>
  %init5 = tensor.empty() : tensor<16x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 8 align 4 outs(%init3, %init4, %init5) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<56x8xf32>, tensor<8xi32>, tensor<16x2xi32>
  %init6 = tensor.empty() : tensor<56x3xf32>
  %ps = moe.permute_rows %s, %rows outs(%init6) : tensor<16x3xf32>, tensor<16x2xi32> -> tensor<56x3xf32>
  return %ps : tensor<56x3xf32>
}
