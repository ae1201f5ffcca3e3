// A moe.layer entry whose FLOP count, 6·T·K·H·F = 6·4·2·2^40·2^40, is past
// 2^63: it compiles (nothing is allocated), with the count saturated.
func.func @huge(%x: tensor<4x1099511627776xf32>, %wr: tensor<1099511627776x8xf32>,
                %wg: tensor<8x1099511627776x1099511627776xf32>,
                %wd: tensor<8x1099511627776x1099511627776xf32>)
    -> (tensor<4x1099511627776xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %wr experts(%wg, %wg, %wd)
      {k = 2 : i64, score_function = #moe<score_function softmax>}
      : (tensor<4x1099511627776xf32>, tensor<1099511627776x8xf32>,
         tensor<8x1099511627776x1099511627776xf32>,
         tensor<8x1099511627776x1099511627776xf32>,
         tensor<8x1099511627776x1099511627776xf32>)
      -> (tensor<4x1099511627776xf32>, tensor<f32>)
  return %out, %aux : tensor<4x1099511627776xf32>, tensor<f32>
}
