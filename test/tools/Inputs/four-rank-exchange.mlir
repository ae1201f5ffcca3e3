shard.grid @ep(shape = 4)
func.func @exchange(%x: tensor<8x4xf32>, %send: tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>) {
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0
      : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return %y, %recv : tensor<8x4xf32>, tensor<4xi32>
}
