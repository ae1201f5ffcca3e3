// Expert-parallel layout annotations (EP.md section 2): x and the logits are
// split over the ranks of @ep along dim 0, the weight is replicated and the
// second result is a partial sum. No collective: the JSON is the point.
shard.grid @ep(shape = 2)
shard.grid @dp(shape = 1x3)

func.func @scaled(%x: tensor<2x3xf32> {moe.name = "x", moe.split_dim = 0 : i64},
                  %w: tensor<3x4xf32> {moe.name = "w", moe.role = "weight"})
    -> (tensor<2x4xf32> {moe.name = "logits", moe.split_dim = 0 : i64},
        tensor<2x4xf32> {moe.name = "term", moe.partial_sum}) {
  %init = tensor.empty() : tensor<2x4xf32>
  %l = moe.gate %x, %w outs(%init) : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  return %l, %l : tensor<2x4xf32>, tensor<2x4xf32>
}
