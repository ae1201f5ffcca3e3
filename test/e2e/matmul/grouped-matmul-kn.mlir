// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.grouped_matmul, weight_layout kn (b is [G, Kd, N]): an empty middle
// group and a row past Σ group_sizes. Kd = 3 ≠ N = 2 so that a swapped
// index would show.
//
// Derivation (DESIGN.md, moe.grouped_matmul): sizes = [2, 0, 2], offsets
// 0, 2, 2; Σ = 4 < R = 5, so row 4 of c is zero.
//   group 0 (rows 0, 1), B0 = [[1, 0], [0, 1], [1, 1]]:
//     a0 = [1, 2, 3]: c0 = [1 + 0 + 3, 0 + 2 + 3] = [4, 5]
//     a1 = [4, 5, 6]: c1 = [4 + 0 + 6, 0 + 5 + 6] = [10, 11]
//   group 1: empty (b[1] is never read)
//   group 2 (rows 2, 3), B2 = [[1, -1], [2, 0], [0, 3]]:
//     a2 = [7, 8, 9]:  c2 = [7 + 16 + 0, −7 + 0 + 27] = [23, 20]
//     a3 = [1, 0, -1]: c3 = [1 + 0 + 0, −1 + 0 − 3]   = [1, -4]
//   c4 = [0, 0]
func.func @grouped_matmul_kn() -> tensor<5x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0],
                             [1.0, 0.0, -1.0], [2.0, 2.0, 2.0]]> : tensor<5x3xf32>
  %b = arith.constant dense<[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
                             [[9.0, 9.0], [9.0, 9.0], [9.0, 9.0]],
                             [[1.0, -1.0], [2.0, 0.0], [0.0, 3.0]]]> : tensor<3x3x2xf32>
  %sizes = arith.constant dense<[2, 0, 2]> : tensor<3xi32>
  %init1 = tensor.empty() : tensor<5x2xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init1) : tensor<5x3xf32>, tensor<3x3x2xf32>, tensor<3xi32> -> tensor<5x2xf32>
  return %c : tensor<5x2xf32>
}
// CHECK: result0 = [4, 5, 10, 11, 23, 20, 1, -4, 0, 0]
