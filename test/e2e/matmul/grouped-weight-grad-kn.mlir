// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.grouped_weight_grad, weight_layout kn (db is [G, Kd, N]): the empty
// middle group's gradient is exactly zero, and row 4 (past Σ sizes) is
// never read.
//
// Derivation (DESIGN.md: db[g] = a[rows of g]ᵀ · dc[rows of g]);
// sizes = [2, 0, 2], offsets 0, 2, 2.
//   group 0 (rows 0, 1): a cols kd0 = [1, 3], kd1 = [2, 4];
//     dc rows [1, 0, -1], [2, 1, 0]
//     db0[0] = [1·1 + 3·2, 1·0 + 3·1, 1·(-1) + 3·0] = [7, 3, -1]
//     db0[1] = [2·1 + 4·2, 2·0 + 4·1, 2·(-1) + 4·0] = [10, 4, -2]
//   group 1: empty → db1 = 0 (six exact zeros)
//   group 2 (rows 2, 3): a cols kd0 = [5, 7], kd1 = [6, 8];
//     dc rows [0, 1, 1], [1, -1, 2]
//     db2[0] = [0 + 7, 5 − 7, 5 + 14] = [7, -2, 19]
//     db2[1] = [0 + 8, 6 − 8, 6 + 16] = [8, -2, 22]
func.func @grouped_weight_grad_kn() -> tensor<3x2x3xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0],
                             [100.0, 100.0]]> : tensor<5x2xf32>
  %dc = arith.constant dense<[[1.0, 0.0, -1.0], [2.0, 1.0, 0.0], [0.0, 1.0, 1.0],
                              [1.0, -1.0, 2.0], [100.0, 100.0, 100.0]]> : tensor<5x3xf32>
  %sizes = arith.constant dense<[2, 0, 2]> : tensor<3xi32>
  %init1 = tensor.empty() : tensor<3x2x3xf32>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%init1) : tensor<5x2xf32>, tensor<5x3xf32>, tensor<3xi32> -> tensor<3x2x3xf32>
  return %db : tensor<3x2x3xf32>
}
// CHECK: result0 = [7, 3, -1, 10, 4, -2, 0, 0, 0, 0, 0, 0, 7, -2, 19, 8, -2, 22]
