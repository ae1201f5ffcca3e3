// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.grouped_weight_grad, weight_layout nk (db is [G, N, Kd]), bf16 a and dc
// with an f32 gradient: the FIRST group is empty and its gradient is
// exactly zero.
//
// Derivation (DESIGN.md: db[g] = a[rows of g]ᵀ · dc[rows of g], stored
// transposed: db[g, n, kd]); sizes = [0, 2, 2], offsets 0, 0, 2.
//   group 0: empty → six exact zeros
//   group 1 (rows 0, 1): Σ_r a[r, kd]·dc[r, n] with a rows [1, 2], [3, 4],
//     dc rows [1, 0, -1], [2, 1, 0]:
//     n0: [1·1 + 3·2, 2·1 + 4·2] = [7, 10]
//     n1: [1·0 + 3·1, 2·0 + 4·1] = [3, 4]
//     n2: [1·(-1) + 0, 2·(-1) + 0] = [-1, -2]
//   group 2 (rows 2, 3): a rows [5, 6], [7, 8], dc rows [0, 1, 1], [1, -1, 2]:
//     n0: [0 + 7, 0 + 8] = [7, 8]
//     n1: [5 − 7, 6 − 8] = [-2, -2]
//     n2: [5 + 14, 6 + 16] = [19, 22]
func.func @grouped_weight_grad_nk() -> tensor<3x3x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0],
                             [100.0, 100.0]]> : tensor<5x2xbf16>
  %dc = arith.constant dense<[[1.0, 0.0, -1.0], [2.0, 1.0, 0.0], [0.0, 1.0, 1.0],
                              [1.0, -1.0, 2.0], [100.0, 100.0, 100.0]]> : tensor<5x3xbf16>
  %sizes = arith.constant dense<[0, 2, 2]> : tensor<3xi32>
  %init1 = tensor.empty() : tensor<3x3x2xf32>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%init1) {weight_layout = #moe<weight_layout nk>} : tensor<5x2xbf16>, tensor<5x3xbf16>, tensor<3xi32> -> tensor<3x3x2xf32>
  return %db : tensor<3x3x2xf32>
}
// CHECK: result0 = [0, 0, 0, 0, 0, 0, 7, 10, 3, 4, -1, -2, 7, 8, -2, -2, 19, 22]
