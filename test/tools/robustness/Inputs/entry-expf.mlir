func.func @expf(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %init1 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route softmax %x outs(%init1) : tensor<4x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
