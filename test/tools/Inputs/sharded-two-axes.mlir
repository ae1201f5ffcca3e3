// Split over axis 1 and a partial sum over axis 0: an expert weight's
// gradient under data x expert parallelism.
shard.grid @ep(shape = 2x2)
func.func @f(%x: tensor<2x3xf32>) -> (tensor<2x3xf32> {moe.name = "y", moe.split_dim = 0 : i64, moe.split_axes = array<i64: 1>, moe.partial_sum, moe.partial_axes = array<i64: 0>}) {
  return %x : tensor<2x3xf32>
}
