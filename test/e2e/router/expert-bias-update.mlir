// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.expert_bias_update: b' = b + rate · sign(mean(c) − c).

// counts (i32) [1, 9, 4, 2]: Σ = 16, mean = 4
//   mean − c = [3, −5, 0, 2] → sign = [1, −1, 0, 1]  (e2 sits exactly at the mean)
//   rate 0.125: b' = [0.5 + 0.125, −0.25 − 0.125, 0 + 0, 1 + 0.125]
//                  = [0.625, −0.375, 0, 1.125]  (exact)
func.func @bias_update_i32() -> tensor<4xf32> {
  %b = arith.constant dense<[0.5, -0.25, 0.0, 1.0]> : tensor<4xf32>
  %c = arith.constant dense<[1, 9, 4, 2]> : tensor<4xi32>
  %init1 = tensor.empty() : tensor<4xf32>
  %nb = moe.expert_bias_update %b, %c rate 0.125 outs(%init1) : tensor<4xf32>, tensor<4xi32> -> tensor<4xf32>
  return %nb : tensor<4xf32>
}
// CHECK-LABEL: entry bias_update_i32 on
// CHECK: result0 = [0.625, -0.375, 0, 1.125]

// Default rate 1e-3, counts i64 [0, 8, 4, 4] (mean 4), bias 0:
//   sign = [1, −1, 0, 0] → b' = [0.001, −0.001, 0, 0]; 0.001 in f32 is
//   0.00100000005 in %.9g. (The custom syntax always spells `rate`; the
//   generic form leaves the attribute out to get its default.)
func.func @bias_update_default_rate_i64() -> tensor<4xf32> {
  %b = arith.constant dense<0.0> : tensor<4xf32>
  %c = arith.constant dense<[0, 8, 4, 4]> : tensor<4xi64>
  %init = tensor.empty() : tensor<4xf32>
  %nb = "moe.expert_bias_update"(%b, %c, %init) : (tensor<4xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4xf32>
  return %nb : tensor<4xf32>
}
// CHECK-LABEL: entry bias_update_default_rate_i64 on
// CHECK: result0 = [0.00100000005, -0.00100000005, 0, 0]
