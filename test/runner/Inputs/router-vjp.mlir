// A router (gate, then softmax scores) for vjp-chain.test: its backward needs
// x and the router weight (arguments of @router, which @router_bwd takes
// directly) and the scores (the one residual).
func.func @router(%x: tensor<4x8xf32> {moe.name = "x", moe.role = "input"},
                  %w: tensor<8x4xf32> {moe.name = "router_weight", moe.role = "weight"})
    -> (tensor<4x4xf32> {moe.name = "scores"}) {
  %init1 = tensor.empty() : tensor<4x4xf32>
  %l = moe.gate %x, %w outs(%init1) : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route softmax %l outs(%init2) : tensor<4x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
