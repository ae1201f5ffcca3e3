// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.grouped_weight_grad with transposed_operands (a [Kd, R], dc [N, R]):
// the operands of grouped-weight-grad-kn.mlir transposed, R = 5 rows.
//
// result0: FP8, tensor-wise scales: a e4m3 · 0.5, dc e5m2 · 4 (every value
// here is exact in its format, 96 too), so each product term is the kn
// test's times 0.5 · 4 = 2:
//   db0 = 2·[[7, 3, -1], [10, 4, -2]] = [[14, 6, -2], [20, 8, -4]]
//   db1 = 0 (empty group)
//   db2 = 2·[[7, -2, 19], [8, -2, 22]] = [[14, -4, 38], [16, -4, 44]]
// Row 4 (past Σ sizes, 96 everywhere) is never read.
// result1: the same operands in bf16, no scales, weight_layout nk: db[g]
// is the kn test's db[g] transposed ([N, Kd]):
//   db0 = [[7, 10], [3, 4], [-1, -2]], db1 = 0, db2 = [[7, 8], [-2, -2], [19, 22]]
func.func @grouped_weight_grad_transposed() -> (tensor<3x2x3xf32>, tensor<3x3x2xbf16>) {
  %a8 = arith.constant dense<[[1.0, 3.0, 5.0, 7.0, 96.0],
                              [2.0, 4.0, 6.0, 8.0, 96.0]]> : tensor<2x5xf8E4M3FN>
  %dc8 = arith.constant dense<[[1.0, 2.0, 0.0, 1.0, 96.0],
                               [0.0, 1.0, 1.0, -1.0, 96.0],
                               [-1.0, 0.0, 1.0, 2.0, 96.0]]> : tensor<3x5xf8E5M2>
  %sa = arith.constant dense<0.5> : tensor<f32>
  %sdc = arith.constant dense<4.0> : tensor<f32>
  %sizes = arith.constant dense<[2, 0, 2]> : tensor<3xi32>
  %init0 = tensor.empty() : tensor<3x2x3xf32>
  %db0 = moe.grouped_weight_grad %a8, %dc8, %sizes scales(%sa, %sdc) outs(%init0) {transposed_operands} : tensor<2x5xf8E4M3FN>, tensor<3x5xf8E5M2>, tensor<3xi32>, tensor<f32>, tensor<f32> -> tensor<3x2x3xf32>

  %a = arith.constant dense<[[1.0, 3.0, 5.0, 7.0, 96.0],
                             [2.0, 4.0, 6.0, 8.0, 96.0]]> : tensor<2x5xbf16>
  %dc = arith.constant dense<[[1.0, 2.0, 0.0, 1.0, 96.0],
                              [0.0, 1.0, 1.0, -1.0, 96.0],
                              [-1.0, 0.0, 1.0, 2.0, 96.0]]> : tensor<3x5xbf16>
  %init1 = tensor.empty() : tensor<3x3x2xbf16>
  %db1 = moe.grouped_weight_grad %a, %dc, %sizes outs(%init1) {transposed_operands, weight_layout = #moe<weight_layout nk>} : tensor<2x5xbf16>, tensor<3x5xbf16>, tensor<3xi32> -> tensor<3x3x2xbf16>
  return %db0, %db1 : tensor<3x2x3xf32>, tensor<3x3x2xbf16>
}
// CHECK: result0 = [14, 6, -2, 20, 8, -4, 0, 0, 0, 0, 0, 0, 14, -4, 38, 16, -4, 44]
// CHECK: result1 = [7, 10, 3, 4, -1, -2, 0, 0, 0, 0, 0, 0, 7, 8, -2, -2, 19, 22]
