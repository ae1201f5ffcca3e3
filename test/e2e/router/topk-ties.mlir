// RUN: moe-runner %s --device cpu --print | FileCheck %s

// Ties: equal selection scores go to the lower index, and the results are
// ordered by descending selection score (identity scores, normalize none, so
// the weights are the scores themselves, exact).
//
//   t0 [0.5, 0.5, 0.5, 0.5]     → all tie: e0, e1, e2, e3
//   t1 [0.25, 0.75, 0.25, 0.75] → 0.75s first (e1 before e3), then e0, e2
//   t2 [1, 2, 2, 3]             → e3 (3), then the tie e1 before e2, then e0
//   t3 [0, 0, 1, 0]             → e2 (1), then e0, e1, e3
// k = 2 takes the first two of each order; k = 4 the full order.
func.func @topk_ties_k2() -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %s = arith.constant dense<[[0.5, 0.5, 0.5, 0.5], [0.25, 0.75, 0.25, 0.75],
                             [1.0, 2.0, 2.0, 3.0], [0.0, 0.0, 1.0, 0.0]]> : tensor<4x4xf32>
  %init1 = tensor.empty() : tensor<4x2xf32>
  %init2 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk identity %s k 2 outs(%init1, %init2) : tensor<4x4xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return %w, %i : tensor<4x2xf32>, tensor<4x2xi32>
}
// CHECK-LABEL: entry topk_ties_k2 on
// CHECK: result0 = [0.5, 0.5, 0.75, 0.75, 3, 2, 1, 0]
// CHECK: result1 = [0, 1, 1, 3, 3, 1, 2, 0]

func.func @topk_ties_k4() -> (tensor<4x4xf32>, tensor<4x4xi32>) {
  %s = arith.constant dense<[[0.5, 0.5, 0.5, 0.5], [0.25, 0.75, 0.25, 0.75],
                             [1.0, 2.0, 2.0, 3.0], [0.0, 0.0, 1.0, 0.0]]> : tensor<4x4xf32>
  %init3 = tensor.empty() : tensor<4x4xf32>
  %init4 = tensor.empty() : tensor<4x4xi32>
  %w, %i = moe.topk identity %s k 4 outs(%init3, %init4) : tensor<4x4xf32> -> tensor<4x4xf32>, tensor<4x4xi32>
  return %w, %i : tensor<4x4xf32>, tensor<4x4xi32>
}
// CHECK-LABEL: entry topk_ties_k4 on
// CHECK: result0 = [0.5, 0.5, 0.5, 0.5, 0.75, 0.75, 0.25, 0.25, 3, 2, 2, 1, 1, 0, 0, 0]
// CHECK: result1 = [0, 1, 2, 3, 1, 3, 0, 2, 3, 1, 2, 0, 2, 0, 1, 3]

// Ties in the BIASED selection score with different unbiased scores: the
// lower index wins and the weight is its own unbiased score.
//   scores [0.25, 0.5, 0.75, 0.125], bias [0.5, 0.25, 0, 0]
//   → s = [0.75, 0.75, 0.75, 0.125]: e0, e1 (e2 loses the three-way tie)
//   weights (none) = [0.25, 0.5]
func.func @topk_ties_biased() -> (tensor<1x2xf32>, tensor<1x2xi32>) {
  %s = arith.constant dense<[[0.25, 0.5, 0.75, 0.125]]> : tensor<1x4xf32>
  %b = arith.constant dense<[0.5, 0.25, 0.0, 0.0]> : tensor<4xf32>
  %init5 = tensor.empty() : tensor<1x2xf32>
  %init6 = tensor.empty() : tensor<1x2xi32>
  %w, %i = moe.topk sigmoid %s bias %b k 2 outs(%init5, %init6) : tensor<1x4xf32>, tensor<4xf32> -> tensor<1x2xf32>, tensor<1x2xi32>
  return %w, %i : tensor<1x2xf32>, tensor<1x2xi32>
}
// CHECK-LABEL: entry topk_ties_biased on
// CHECK: result0 = [0.25, 0.5]
// CHECK: result1 = [0, 1]
