// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.permute with align 1: experts listed out of order within a token, and
// expert 3 receives nothing.
//
// Derivation (DESIGN.md, "Exact semantics", moe.permute): T = 4, K = 2,
// E = 4, A = 1, so R = T·K + E·(A − 1) = 8.
//   (t, k) → expert: (0,0)→2 (0,1)→0 (1,0)→1 (1,1)→2
//                    (2,0)→0 (2,1)→2 (3,0)→2 (3,1)→1
//   counts: e0 = 2, e1 = 2, e2 = 4, e3 = 0 → group_sizes = [2, 2, 4, 0]
//   offsets (exclusive prefix sum): 0, 2, 4, 8
//   rows sorted by expert, stable in (t, k):
//     e0: (0,1)→row 0 = x0, (2,0)→row 1 = x2
//     e1: (1,0)→row 2 = x1, (3,1)→row 3 = x3
//     e2: (0,0)→row 4 = x0, (1,1)→row 5 = x1, (2,1)→row 6 = x2, (3,0)→row 7 = x3
//   rows[t, k] = [[4, 0], [2, 5], [1, 6], [7, 3]]
func.func @permute_align1() -> (tensor<8x2xf32>, tensor<4xi32>, tensor<4x2xi32>) {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %idx = arith.constant dense<[[2, 0], [1, 2], [0, 2], [2, 1]]> : tensor<4x2xi32>
  %init1 = tensor.empty() : tensor<8x2xf32>
  %init2 = tensor.empty() : tensor<4xi32>
  %init3 = tensor.empty() : tensor<4x2xi32>
  %p, %s, %r = moe.permute %x, %idx experts 4 align 1 outs(%init1, %init2, %init3) : tensor<4x2xf32>, tensor<4x2xi32> -> tensor<8x2xf32>, tensor<4xi32>, tensor<4x2xi32>
  return %p, %s, %r : tensor<8x2xf32>, tensor<4xi32>, tensor<4x2xi32>
}
// CHECK: result0 = [1, 2, 5, 6, 3, 4, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]
// CHECK: result1 = [2, 2, 4, 0]
// CHECK: result2 = [4, 0, 2, 5, 1, 6, 7, 3]
