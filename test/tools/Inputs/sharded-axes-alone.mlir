// Axes without the annotation they belong to.
shard.grid @ep(shape = 2x2)
func.func @f(%x: tensor<2x3xf32> {moe.split_axes = array<i64: 0>}) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}
