// Routers for near-ties.test: gate, score function and top-2 of 8 experts
// over 16 tokens, returning the scores the selection used, the indices and
// the weights (both indexed by token) and the aux loss (not indexed by
// token). @biased selects on sigmoid scores + an expert bias (an input).
func.func @router(%x: tensor<16x8xf32> {moe.name = "x", moe.role = "input"},
                  %w: tensor<8x8xf32> {moe.name = "router_weight", moe.role = "weight"})
    -> (tensor<16x8xf32> {moe.name = "scores"}, tensor<16x2xi32> {moe.name = "indices"},
        tensor<16x2xf32> {moe.name = "weights"}, tensor<f32> {moe.name = "aux_loss"}) {
  %l0 = tensor.empty() : tensor<16x8xf32>
  %l = moe.gate %x, %w outs(%l0) : tensor<16x8xf32>, tensor<8x8xf32> -> tensor<16x8xf32>
  %s0 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route softmax %l outs(%s0) : tensor<16x8xf32> -> tensor<16x8xf32>
  %w0 = tensor.empty() : tensor<16x2xf32>
  %i0 = tensor.empty() : tensor<16x2xi32>
  %tw, %ti = moe.topk softmax %s k 2 outs(%w0, %i0) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %a0 = tensor.empty() : tensor<f32>
  %aux = moe.aux_loss batch %s, %ti from softmax coeff 1.0e-02 outs(%a0) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<f32>
  return %s, %ti, %tw, %aux : tensor<16x8xf32>, tensor<16x2xi32>, tensor<16x2xf32>, tensor<f32>
}

func.func @biased(%x: tensor<16x8xf32> {moe.name = "x", moe.role = "input"},
                  %w: tensor<8x8xf32> {moe.name = "router_weight", moe.role = "weight"},
                  %b: tensor<8xf32> {moe.name = "bias", moe.role = "weight"})
    -> (tensor<16x8xf32> {moe.name = "scores"}, tensor<16x2xi32> {moe.name = "indices"},
        tensor<16x2xf32> {moe.name = "weights"}) {
  %l0 = tensor.empty() : tensor<16x8xf32>
  %l = moe.gate %x, %w outs(%l0) : tensor<16x8xf32>, tensor<8x8xf32> -> tensor<16x8xf32>
  %s0 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sigmoid %l outs(%s0) : tensor<16x8xf32> -> tensor<16x8xf32>
  %w0 = tensor.empty() : tensor<16x2xf32>
  %i0 = tensor.empty() : tensor<16x2xi32>
  %tw, %ti = moe.topk sigmoid %s bias %b k 2 outs(%w0, %i0) : tensor<16x8xf32>, tensor<8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  return %s, %ti, %tw : tensor<16x8xf32>, tensor<16x2xi32>, tensor<16x2xf32>
}
