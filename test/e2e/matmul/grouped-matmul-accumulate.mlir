// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.grouped_matmul with `accumulate` (the fusion hook moe-fuse's
// accumulate-matmuls uses): c = c_init + a · b[g] per group of rows, rows
// past the groups keep c_init.
//
// Derivation (DESIGN.md, moe.grouped_matmul), a = [[1, 2], [3, 4], [5, 6], [1, 1]]:
// kn_bf16: b[0] = I, b[1] = 2·I, sizes = [1, 2] (Σ = 3 < 4),
//   init = [[10, 20], [30, 40], [50, 60], [70, 80]]:
//   row 0 (group 0): [1, 2] + [10, 20] = [11, 22]
//   row 1 (group 1): [6, 8] + [30, 40] = [36, 48]
//   row 2 (group 1): [10, 12] + [50, 60] = [60, 72]
//   row 3 (past the groups): [70, 80]
// nk_f32: b[g] stored [N, Kd]: b[0] = [[1, 1], [0, 1]] (c = [a0 + a1, a1]),
//   b[1] = [[1, -1], [2, 0]] (c = [a0 - a1, 2·a0]), sizes = [2, 1], init = 0.5:
//   [3.5, 2.5], [7.5, 4.5], [-0.5, 10.5], [0.5, 0.5]
func.func @kn_bf16() -> tensor<4x2xbf16> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [1.0, 1.0]]> : tensor<4x2xbf16>
  %b = arith.constant dense<[[[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 2.0]]]> : tensor<2x2x2xbf16>
  %sizes = arith.constant dense<[1, 2]> : tensor<2xi32>
  %init = arith.constant dense<[[10.0, 20.0], [30.0, 40.0], [50.0, 60.0], [70.0, 80.0]]> : tensor<4x2xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init) {accumulate}
      : tensor<4x2xbf16>, tensor<2x2x2xbf16>, tensor<2xi32> -> tensor<4x2xbf16>
  return %c : tensor<4x2xbf16>
}
// CHECK-LABEL: entry kn_bf16
// CHECK: result0 = [11, 22, 36, 48, 60, 72, 70, 80]

func.func @nk_f32() -> tensor<4x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [1.0, 1.0]]> : tensor<4x2xbf16>
  %b = arith.constant dense<[[[1.0, 1.0], [0.0, 1.0]], [[1.0, -1.0], [2.0, 0.0]]]> : tensor<2x2x2xbf16>
  %sizes = arith.constant dense<[2, 1]> : tensor<2xi32>
  %init = arith.constant dense<0.5> : tensor<4x2xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init) {accumulate, weight_layout = #moe<weight_layout nk>}
      : tensor<4x2xbf16>, tensor<2x2x2xbf16>, tensor<2xi32> -> tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}
// CHECK-LABEL: entry nk_f32
// CHECK: result0 = [3.5, 2.5, 7.5, 4.5, -0.5, 10.5, 0.5, 0.5]
