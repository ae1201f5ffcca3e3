shard.grid @ep(shape = 4)
func.func @exchange(%x: tensor<8x4xf32>, %send: tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>) {
  %init1 = tensor.empty() : tensor<8x4xf32>
  %init2 = tensor.empty() : tensor<4xi32>
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0 outs(%init1, %init2) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xf32>, tensor<4xi32>
  return %y, %recv : tensor<8x4xf32>, tensor<4xi32>
}
