// A moe.layer entry with a dynamic token count: its FLOP count is computed
// before the static-shape check rejects it.
func.func @dynamic_tokens(%x: tensor<?x32xf32>, %wr: tensor<32x8xf32>,
                          %wg: tensor<8x32x48xf32>, %wd: tensor<8x48x32xf32>)
    -> (tensor<?x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %wr experts(%wg, %wg, %wd)
      {k = 2 : i64, score_function = #moe<score_function softmax>}
      : (tensor<?x32xf32>, tensor<32x8xf32>, tensor<8x32x48xf32>,
         tensor<8x32x48xf32>, tensor<8x48x32xf32>) -> (tensor<?x32xf32>, tensor<f32>)
  return %out, %aux : tensor<?x32xf32>, tensor<f32>
}
