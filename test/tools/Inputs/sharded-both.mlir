// A result both split and a partial sum.
shard.grid @ep(shape = 2)
func.func @f(%x: tensor<2x3xf32>) -> (tensor<2x3xf32> {moe.name = "y", moe.split_dim = 0 : i64, moe.partial_sum}) {
  return %x : tensor<2x3xf32>
}
