// RUN: moe-runner %s --device cpu --print | FileCheck %s

// Group-limited routing: E = 8 in num_groups = 4 contiguous groups of 2
// (g0 = {0,1}, g1 = {2,3}, g2 = {4,5}, g3 = {6,7}), keep group_topk = 2
// groups, then k = 4 over their experts. Identity scores (exact), normalize
// none, so weights = scores. The same data under the two group_score rules
// keeps DIFFERENT groups.
//
//   t0 = [0.875, 0 | 0.5, 0.5 | 0.625, 0.625 | 0.75, 0.125]
//     top_sum, default q = k / group_topk = 2 (the whole group here):
//       g0 = 0.875, g1 = 1.0, g2 = 1.25, g3 = 0.875 → keep g2, g1
//       → top-4 of {2,3,4,5}: e4 0.625, e5 0.625, e2 0.5, e3 0.5
//     max: g0 = 0.875, g1 = 0.5, g2 = 0.625, g3 = 0.75 → keep g0, g3
//       → top-4 of {0,1,6,7}: e0 0.875, e6 0.75, e7 0.125, e1 0
//     (no groups at all it would be e0, e6, e4, e5: both rules matter.)
//   t1 = [0.25, 0.25 | 0.5, 0 | 0, 0.5 | 0.125, 0.375]
//     top_sum: g0 = g1 = g2 = g3 = 0.5, all tie → lower groups g0, g1
//       → top-4 of {0,1,2,3}: e2 0.5, e0 0.25, e1 0.25, e3 0
//     max: g0 = 0.25, g1 = 0.5, g2 = 0.5, g3 = 0.375 → keep g1, g2
//       → top-4 of {2,3,4,5}: e2 0.5, e5 0.5, e3 0, e4 0
func.func @group_top_sum() -> (tensor<2x4xf32>, tensor<2x4xi32>) {
  %s = arith.constant dense<[[0.875, 0.0, 0.5, 0.5, 0.625, 0.625, 0.75, 0.125],
                             [0.25, 0.25, 0.5, 0.0, 0.0, 0.5, 0.125, 0.375]]> : tensor<2x8xf32>
  %init1 = tensor.empty() : tensor<2x4xf32>
  %init2 = tensor.empty() : tensor<2x4xi32>
  %w, %i = moe.topk identity %s k 4 outs(%init1, %init2) {num_groups = 4 : i64, group_topk = 2 : i64} : tensor<2x8xf32> -> tensor<2x4xf32>, tensor<2x4xi32>
  return %w, %i : tensor<2x4xf32>, tensor<2x4xi32>
}
// CHECK-LABEL: entry group_top_sum on
// CHECK: result0 = [0.625, 0.625, 0.5, 0.5, 0.5, 0.25, 0.25, 0]
// CHECK: result1 = [4, 5, 2, 3, 2, 0, 1, 3]

func.func @group_max() -> (tensor<2x4xf32>, tensor<2x4xi32>) {
  %s = arith.constant dense<[[0.875, 0.0, 0.5, 0.5, 0.625, 0.625, 0.75, 0.125],
                             [0.25, 0.25, 0.5, 0.0, 0.0, 0.5, 0.125, 0.375]]> : tensor<2x8xf32>
  %init3 = tensor.empty() : tensor<2x4xf32>
  %init4 = tensor.empty() : tensor<2x4xi32>
  %w, %i = moe.topk identity %s k 4 outs(%init3, %init4) {num_groups = 4 : i64, group_topk = 2 : i64, group_score = #moe<group_score max>} : tensor<2x8xf32> -> tensor<2x4xf32>, tensor<2x4xi32>
  return %w, %i : tensor<2x4xf32>, tensor<2x4xi32>
}
// CHECK-LABEL: entry group_max on
// CHECK: result0 = [0.875, 0.75, 0.125, 0, 0.5, 0.5, 0, 0]
// CHECK: result1 = [0, 6, 7, 1, 2, 5, 3, 4]

// DeepSeek-V3 style: sigmoid scores + bias, groups scored on the BIASED
// selection score (top_sum, q = 2), normalize sum, scaling_factor 2.5.
//   scores = [0.5, 0.25 | 0.75, 0.125 | 0.25, 0.25 | 0.375, 0.5]
//   bias   = [0,   0    | −0.5, 0    | 0.25, 0.25 | 0,     0  ]
//   s      = [0.5, 0.25 | 0.25, 0.125 | 0.5, 0.5  | 0.375, 0.5]
//   groups: g0 = 0.75, g1 = 0.375, g2 = 1.0, g3 = 0.875 → keep g2, g3
//   (unbiased the groups would be g0 0.75, g1 0.875, g2 0.5, g3 0.875 → g1, g3)
//   top-4 of {4,5,6,7} by s: e4 0.5, e5 0.5, e7 0.5 (ties by index), e6 0.375
//   unbiased weights [0.25, 0.25, 0.5, 0.375], Σ = 1.375
//   → 2.5 · w / 1.375 = [0.4545454545, 0.4545454545, 0.9090909091, 0.6818181818]
func.func @group_sigmoid_bias() -> (tensor<1x4xf32>, tensor<1x4xi32>) {
  %s = arith.constant dense<[[0.5, 0.25, 0.75, 0.125, 0.25, 0.25, 0.375, 0.5]]> : tensor<1x8xf32>
  %b = arith.constant dense<[0.0, 0.0, -0.5, 0.0, 0.25, 0.25, 0.0, 0.0]> : tensor<8xf32>
  %init5 = tensor.empty() : tensor<1x4xf32>
  %init6 = tensor.empty() : tensor<1x4xi32>
  %w, %i = moe.topk sigmoid %s bias %b k 4 outs(%init5, %init6) {num_groups = 4 : i64, group_topk = 2 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64} : tensor<1x8xf32>, tensor<8xf32> -> tensor<1x4xf32>, tensor<1x4xi32>
  return %w, %i : tensor<1x4xf32>, tensor<1x4xi32>
}
// CHECK-LABEL: entry group_sigmoid_bias on
// CHECK: result0 = [0.454545{{[3-5][0-9]*}}, 0.454545{{[3-5][0-9]*}}, 0.90909{{[0-1][0-9]*}}, 0.68181{{[7-8][0-9]*}}]
// CHECK: result1 = [4, 5, 7, 6]
