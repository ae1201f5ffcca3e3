// moe.z_loss alone for test/reference/z-loss-schedule.test: T = 1000 tokens
// (62 full chunks of 16 and one of 8: the summing warp's lanes take two
// chunks or one), and T = 24 (two chunks: most lanes have none).
func.func @z_loss_1000(%l: tensor<1000x8xf32> {moe.name = "logits"}) -> (tensor<f32> {moe.name = "z"}) {
  %init = tensor.empty() : tensor<f32>
  %z = moe.z_loss %l coeff 1.000000e-03 outs(%init) : tensor<1000x8xf32> -> tensor<f32>
  return %z : tensor<f32>
}

func.func @z_loss_24(%l: tensor<24x128xf32> {moe.name = "logits"}) -> (tensor<f32> {moe.name = "z"}) {
  %init = tensor.empty() : tensor<f32>
  %z = moe.z_loss %l coeff 2.500000e-02 outs(%init) : tensor<24x128xf32> -> tensor<f32>
  return %z : tensor<f32>
}
