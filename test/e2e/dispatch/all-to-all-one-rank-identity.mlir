// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.all_to_all on a one-rank axis with equal input and output types and
// every row sent: the identity (the canonicalizer may fold it away; the
// values are the same either way).
//
// Derivation (DESIGN.md, moe.all_to_all): send_sizes[0] = 3 = every row;
// output = input; recv_sizes = send_sizes = [3].
shard.grid @g(shape = 1)
func.func @all_to_all_identity() -> (tensor<3x2xbf16>, tensor<1xi32>) {
  %x = arith.constant dense<[[1.5, -2.0], [3.0, 4.0], [0.5, 6.0]]> : tensor<3x2xbf16>
  %send = arith.constant dense<[3]> : tensor<1xi32>
  %init1 = tensor.empty() : tensor<3x2xbf16>
  %init2 = tensor.empty() : tensor<1xi32>
  %y, %recv = moe.all_to_all %x, %send on @g axis 0 outs(%init1, %init2) : tensor<3x2xbf16>, tensor<1xi32> -> tensor<3x2xbf16>, tensor<1xi32>
  return %y, %recv : tensor<3x2xbf16>, tensor<1xi32>
}
// CHECK: result0 = [1.5, -2, 3, 4, 0.5, 6]
// CHECK: result1 = [3]
