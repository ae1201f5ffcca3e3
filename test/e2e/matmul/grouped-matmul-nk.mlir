// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.grouped_matmul, weight_layout nk (b is [G, N, Kd], each expert's
// matrix transposed), bf16 operands and result: the same product as
// grouped-matmul-kn.mlir with b[g, n, kd] = B_g[kd, n].
//
// Derivation (DESIGN.md, moe.grouped_matmul): sizes = [2, 0, 2], Σ = 4 < 5.
//   B0 = [[1, 0], [0, 1], [1, 1]] stored as [[1, 0, 1], [0, 1, 1]]
//   B2 = [[1, -1], [2, 0], [0, 3]] stored as [[1, 2, 0], [-1, 0, 3]]
//   c0 = [4, 5], c1 = [10, 11] (group 0), c2 = [23, 20], c3 = [1, -4]
//   (group 2), c4 = [0, 0]; all exact in bf16.
func.func @grouped_matmul_nk() -> tensor<5x2xbf16> {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0],
                             [1.0, 0.0, -1.0], [2.0, 2.0, 2.0]]> : tensor<5x3xbf16>
  %b = arith.constant dense<[[[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]],
                             [[9.0, 9.0, 9.0], [9.0, 9.0, 9.0]],
                             [[1.0, 2.0, 0.0], [-1.0, 0.0, 3.0]]]> : tensor<3x2x3xbf16>
  %sizes = arith.constant dense<[2, 0, 2]> : tensor<3xi32>
  %init1 = tensor.empty() : tensor<5x2xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init1) {weight_layout = #moe<weight_layout nk>} : tensor<5x3xbf16>, tensor<3x2x3xbf16>, tensor<3xi32> -> tensor<5x2xbf16>
  return %c : tensor<5x2xbf16>
}
// CHECK: result0 = [4, 5, 10, 11, 23, 20, 1, -4, 0, 0]
