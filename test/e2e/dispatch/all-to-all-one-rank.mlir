// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.all_to_all on a one-rank axis, with an output larger than the input
// (the types differ, so the op does not fold away) and fewer rows sent than
// the input holds.
//
// Derivation (DESIGN.md, moe.all_to_all): P = 1; rank 0 sends its first
// send_sizes[0] = 2 rows to itself; they are stored from row 0 of the output;
// the rest of the output (rows 2, 3) is zero. recv_sizes = [2].
shard.grid @g(shape = 1)
func.func @all_to_all_one_rank() -> (tensor<4x2xf32>, tensor<1xi32>) {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %send = arith.constant dense<[2]> : tensor<1xi32>
  %init1 = tensor.empty() : tensor<4x2xf32>
  %init2 = tensor.empty() : tensor<1xi32>
  %y, %recv = moe.all_to_all %x, %send on @g axis 0 outs(%init1, %init2) : tensor<3x2xf32>, tensor<1xi32> -> tensor<4x2xf32>, tensor<1xi32>
  return %y, %recv : tensor<4x2xf32>, tensor<1xi32>
}
// CHECK: result0 = [1, 2, 3, 4, 0, 0, 0, 0]
// CHECK: result1 = [2]
