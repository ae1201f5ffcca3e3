// RUN: moe-runner %s --device cpu --print | FileCheck %s

// FP8 moe.grouped_matmul (kn) with block scales: a_scale [R, ⌈Kd/128⌉] =
// one scale per row here, b_scale [G, ⌈Kd/128⌉, ⌈N/128⌉] = one per group.
//
// Derivation (MoeOps.td, moe.grouped_matmul: a value = a·a_scale[r, kd/128],
// b value = b·b_scale[g, kd/128, n/128]); sizes = [1, 0, 1]:
//   row 0, group 0: a0·0.5 = [0.75, -1.5]; B0·4 = [[4, 8], [-2, -4]]
//     c0 = [3 + 3, 6 + 6] = [6, 12]
//   row 1, group 2: a1·2 = [4, 1]; B2·0.25 = [[-0.5, 0.375], [0.75, 0.0625]]
//     c1 = [4·(-0.5) + 1·0.75, 4·0.375 + 1·0.0625] = [-1.25, 1.5625]
//   row 2: past Σ sizes → [0, 0]
func.func @grouped_matmul_fp8_block() -> tensor<3x2xf32> {
  %a = arith.constant dense<[[1.5, -3.0], [2.0, 0.5], [1.0, 1.0]]> : tensor<3x2xf8E4M3FN>
  %b = arith.constant dense<[[[1.0, 2.0], [-0.5, -1.0]],
                             [[448.0, 448.0], [448.0, 448.0]],
                             [[-2.0, 1.5], [3.0, 0.25]]]> : tensor<3x2x2xf8E4M3FN>
  %sizes = arith.constant dense<[1, 0, 1]> : tensor<3xi32>
  %sa = arith.constant dense<[[0.5], [2.0], [1.0]]> : tensor<3x1xf32>
  %sb = arith.constant dense<[[[4.0]], [[1.0]], [[0.25]]]> : tensor<3x1x1xf32>
  %init1 = tensor.empty() : tensor<3x2xf32>
  %c = moe.grouped_matmul %a, %b, %sizes scales(%sa, %sb) outs(%init1) : tensor<3x2xf8E4M3FN>, tensor<3x2x2xf8E4M3FN>, tensor<3xi32>, tensor<3x1xf32>, tensor<3x1x1xf32> -> tensor<3x2xf32>
  return %c : tensor<3x2xf32>
}
// CHECK: result0 = [6, 12, -1.25, 1.5625, 0, 0]
