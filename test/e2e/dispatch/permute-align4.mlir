// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.permute with align 4: an empty expert between two non-empty ones,
// padding rows and rows past the last group.
//
// Derivation (DESIGN.md, moe.permute): T = 4, K = 2, E = 4, A = 4, so
// R = T·K + E·(A − 1) = 8 + 12 = 20.
//   (t, k) → expert: (0,0)→3 (0,1)→0 (1,0)→0 (1,1)→3
//                    (2,0)→3 (2,1)→2 (3,0)→2 (3,1)→0
//   counts: e0 = 3, e1 = 0, e2 = 2, e3 = 3
//   padded to multiples of 4: group_sizes = [4, 0, 4, 4]
//   offsets: e0 = 0, e1 = 4, e2 = 4, e3 = 8; Σ = 12
//   e0: (0,1)→row 0 = x0, (1,0)→row 1 = x1, (3,1)→row 2 = x3, row 3 padding (0)
//   e1: no rows
//   e2: (2,1)→row 4 = x2, (3,0)→row 5 = x3, rows 6, 7 padding (0)
//   e3: (0,0)→row 8 = x0, (1,1)→row 9 = x1, (2,0)→row 10 = x2, row 11 padding
//   rows 12..19 (past the last group) are zero.
//   rows[t, k] = [[8, 0], [1, 9], [10, 4], [5, 2]]
func.func @permute_align4() -> (tensor<20x2xf32>, tensor<4xi32>, tensor<4x2xi32>) {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %idx = arith.constant dense<[[3, 0], [0, 3], [3, 2], [2, 0]]> : tensor<4x2xi32>
  %init1 = tensor.empty() : tensor<20x2xf32>
  %init2 = tensor.empty() : tensor<4xi32>
  %init3 = tensor.empty() : tensor<4x2xi32>
  %p, %s, %r = moe.permute %x, %idx experts 4 align 4 outs(%init1, %init2, %init3) : tensor<4x2xf32>, tensor<4x2xi32> -> tensor<20x2xf32>, tensor<4xi32>, tensor<4x2xi32>
  return %p, %s, %r : tensor<20x2xf32>, tensor<4xi32>, tensor<4x2xi32>
}
// CHECK: result0 = [1, 2, 3, 4, 7, 8, 0, 0, 5, 6, 7, 8, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// CHECK: result1 = [4, 0, 4, 4]
// CHECK: result2 = [8, 0, 1, 9, 10, 4, 5, 2]
