// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.all_to_all on a one-rank axis with C = 3 chunks for the one
// destination, an empty chunk, an output larger than the input (the types
// differ, so the op does not fold away) and rows of input past the chunks.
//
// Derivation (moe.all_to_all): P = 1, C = 3; send_sizes = [2, 0, 1]: rank 0
// sends its chunks, Σ = 3 rows, to itself; they are stored in order from row
// 0 of the output: input rows 0, 1, 2; the rest of the output (rows 3, 4)
// is zero, input row 3 is not sent. recv_sizes = send_sizes = [2, 0, 1].
shard.grid @g(shape = 1)
func.func @all_to_all_one_rank_chunks() -> (tensor<5x2xf32>, tensor<3xi32>) {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %send = arith.constant dense<[2, 0, 1]> : tensor<3xi32>
  %init1 = arith.constant dense<9.0> : tensor<5x2xf32>
  %init2 = tensor.empty() : tensor<3xi32>
  %y, %recv = moe.all_to_all %x, %send on @g axis 0 outs(%init1, %init2) : tensor<4x2xf32>, tensor<3xi32> -> tensor<5x2xf32>, tensor<3xi32>
  return %y, %recv : tensor<5x2xf32>, tensor<3xi32>
}
// CHECK: result0 = [1, 2, 3, 4, 5, 6, 0, 0, 0, 0]
// CHECK: result1 = [2, 0, 1]
