// RUN: moe-runner %s --device cpu --print | FileCheck %s

// group_score_topq: E = 8 in num_groups = 2 groups of 4 (g0 = {0..3},
// g1 = {4..7}), group_topk = 1, k = 2, top_sum group score. The default q is
// k / group_topk = 2 (sum of the two best of each group); group_score_topq = 1
// sums only the best one. Identity scores (exact), normalize none.
//
//   t0 = [0.75, 0.125, 0.125, 0 | 0.5, 0.5, 0, 0]
//     q = 2: g0 = 0.875, g1 = 1.0  → g1 → e4 0.5, e5 0.5
//     q = 1: g0 = 0.75,  g1 = 0.5  → g0 → e0 0.75, e1 0.125 (e1/e2 tie → e1)
//   t1 = [0.5, 0.5, 0.5, 0 | 0.625, 0.25, 0, 0]
//     q = 2: g0 = 1.0,   g1 = 0.875 → g0 → e0 0.5, e1 0.5
//     q = 1: g0 = 0.5,   g1 = 0.625 → g1 → e4 0.625, e5 0.25
func.func @group_topq_default() -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  %s = arith.constant dense<[[0.75, 0.125, 0.125, 0.0, 0.5, 0.5, 0.0, 0.0],
                             [0.5, 0.5, 0.5, 0.0, 0.625, 0.25, 0.0, 0.0]]> : tensor<2x8xf32>
  %init1 = tensor.empty() : tensor<2x2xf32>
  %init2 = tensor.empty() : tensor<2x2xi32>
  %w, %i = moe.topk identity %s k 2 outs(%init1, %init2) {num_groups = 2 : i64, group_topk = 1 : i64} : tensor<2x8xf32> -> tensor<2x2xf32>, tensor<2x2xi32>
  return %w, %i : tensor<2x2xf32>, tensor<2x2xi32>
}
// CHECK-LABEL: entry group_topq_default on
// CHECK: result0 = [0.5, 0.5, 0.5, 0.5]
// CHECK: result1 = [4, 5, 0, 1]

func.func @group_topq_1() -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  %s = arith.constant dense<[[0.75, 0.125, 0.125, 0.0, 0.5, 0.5, 0.0, 0.0],
                             [0.5, 0.5, 0.5, 0.0, 0.625, 0.25, 0.0, 0.0]]> : tensor<2x8xf32>
  %init3 = tensor.empty() : tensor<2x2xf32>
  %init4 = tensor.empty() : tensor<2x2xi32>
  %w, %i = moe.topk identity %s k 2 outs(%init3, %init4) {num_groups = 2 : i64, group_topk = 1 : i64, group_score_topq = 1 : i64} : tensor<2x8xf32> -> tensor<2x2xf32>, tensor<2x2xi32>
  return %w, %i : tensor<2x2xf32>, tensor<2x2xi32>
}
// CHECK-LABEL: entry group_topq_1 on
// CHECK: result0 = [0.75, 0.125, 0.625, 0.25]
// CHECK: result1 = [0, 1, 4, 5]
