// moe.split_dim past the tensor's rank.
shard.grid @ep(shape = 2)
func.func @f(%x: tensor<2x3xf32> {moe.name = "x", moe.split_dim = 2 : i64}) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}
