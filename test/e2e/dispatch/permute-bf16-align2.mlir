// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.permute of a bf16 x with align 2: the first expert is empty, padding
// rows of a bf16 buffer are zero.
//
// Derivation (DESIGN.md, moe.permute): T = 3, K = 1, E = 3, A = 2,
// R = T·K + E·(A − 1) = 3 + 3 = 6.
//   experts: t0 → 2, t1 → 1, t2 → 2; counts e0 = 0, e1 = 1, e2 = 2
//   padded: group_sizes = [0, 2, 2]; offsets 0, 0, 2; Σ = 4
//   e1: t1 → row 0 = x1, row 1 padding; e2: t0 → row 2 = x0, t2 → row 3 = x2
//   rows 4, 5 zero. rows = [[2], [0], [3]]
func.func @permute_bf16_align2() -> (tensor<6x2xbf16>, tensor<3xi32>, tensor<3x1xi32>) {
  %x = arith.constant dense<[[1.5, -2.25], [3.0, 0.375], [256.0, -0.0078125]]> : tensor<3x2xbf16>
  %idx = arith.constant dense<[[2], [1], [2]]> : tensor<3x1xi32>
  %init1 = tensor.empty() : tensor<6x2xbf16>
  %init2 = tensor.empty() : tensor<3xi32>
  %init3 = tensor.empty() : tensor<3x1xi32>
  %p, %s, %r = moe.permute %x, %idx experts 3 align 2 outs(%init1, %init2, %init3) : tensor<3x2xbf16>, tensor<3x1xi32> -> tensor<6x2xbf16>, tensor<3xi32>, tensor<3x1xi32>
  return %p, %s, %r : tensor<6x2xbf16>, tensor<3xi32>, tensor<3x1xi32>
}
// CHECK: result0 = [3, 0.375, 0, 0, 1.5, -2.25, 256, -0.0078125, 0, 0, 0, 0]
// CHECK: result1 = [0, 2, 2]
// CHECK: result2 = [2, 0, 3]
