// RUN: moe-runner %s --device cpu --print | FileCheck %s
// RUN: moe-compile --quiet --target=cpu --gpu-schedules %s -o %t
// RUN: moe-runner %t --device cpu --print | FileCheck %s

// moe.aux_loss global: this rank's share, with counts and T summed over the
// ranks of grid_axes. On a one-rank grid that sum is this rank alone, so it
// equals batch, on the reference loops and on the GPU schedule. Same data
// as the exact batch case in aux-loss-batch.mlir:
//   Σ_t p = [0.9375, 0.9375, 0.875, 1.25], c = [3, 2, 1, 2], Σ_e = 8.0625
//   loss = 4 · 0.5 / (2 · 4²) · 8.0625 = 0.50390625
shard.grid @g(shape = 1)
shard.grid @g2(shape = 1x1)

func.func @aux_global_one_rank() -> tensor<f32> {
  %s = arith.constant dense<[[0.5, 0.25, 0.125, 0.125], [0.25, 0.5, 0.125, 0.125],
                             [0.125, 0.125, 0.5, 0.25], [0.0625, 0.0625, 0.125, 0.75]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [1, 0], [2, 3], [3, 0]]> : tensor<4x2xi32>
  %init1 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss global %s, %i from softmax coeff 0.5 outs(%init1) {grid = @g, grid_axes = array<i64: 0>} : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: entry aux_global_one_rank on
// CHECK: result0 = [0.50390625]

// Both axes of a 1×1 grid: still one rank, still the batch value.
func.func @aux_global_one_rank_2d() -> tensor<f32> {
  %s = arith.constant dense<[[0.5, 0.25, 0.125, 0.125], [0.25, 0.5, 0.125, 0.125],
                             [0.125, 0.125, 0.5, 0.25], [0.0625, 0.0625, 0.125, 0.75]]> : tensor<4x4xf32>
  %i = arith.constant dense<[[0, 1], [1, 0], [2, 3], [3, 0]]> : tensor<4x2xi32>
  %init2 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss global %s, %i from softmax coeff 0.5 outs(%init2) {grid = @g2, grid_axes = array<i64: 0, 1>} : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK-LABEL: entry aux_global_one_rank_2d on
// CHECK: result0 = [0.50390625]
