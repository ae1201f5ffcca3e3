// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.all_reduce over a one-rank axis: the sum over one rank is the input,
// for a 0-d f32, an f64 matrix and an i64 vector (the canonicalizer may fold
// it away; the values are the same either way).
shard.grid @g(shape = 1)
func.func @all_reduce_one_rank() -> (tensor<f32>, tensor<2x2xf64>, tensor<3xi64>) {
  %l = arith.constant dense<1.25> : tensor<f32>
  %m = arith.constant dense<[[1.0, -2.0], [0.5, 1.0e10]]> : tensor<2x2xf64>
  %c = arith.constant dense<[7, 0, -3]> : tensor<3xi64>
  %l0 = tensor.empty() : tensor<f32>
  %m0 = tensor.empty() : tensor<2x2xf64>
  %c0 = tensor.empty() : tensor<3xi64>
  %ls = moe.all_reduce %l on @g axes [0] outs(%l0) : tensor<f32> -> tensor<f32>
  %ms = moe.all_reduce %m on @g axes [0] outs(%m0) : tensor<2x2xf64> -> tensor<2x2xf64>
  %cs = moe.all_reduce %c on @g axes [0] outs(%c0) : tensor<3xi64> -> tensor<3xi64>
  return %ls, %ms, %cs : tensor<f32>, tensor<2x2xf64>, tensor<3xi64>
}
// CHECK: result0 = [1.25]
// CHECK: result1 = [1, -2, 0.5, 1e+10]
// CHECK: result2 = [7, 0, -3]
