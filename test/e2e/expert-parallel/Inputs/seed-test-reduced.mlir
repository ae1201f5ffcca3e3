// seed-test's routing (softmax top-2 of 8 experts, aux and z losses) at a
// CPU size: T = 64, H = 64, F = 128 (R = 128 rows).
func.func @moe_layer(%x: tensor<64x64xbf16>, %router: tensor<64x8xf32>,
                     %w_gate: tensor<8x64x128xbf16>, %w_up: tensor<8x64x128xbf16>,
                     %w_down: tensor<8x128x64xbf16>)
    -> (tensor<64x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<64x64xbf16>, tensor<64x8xf32>, tensor<8x64x128xbf16>,
         tensor<8x64x128xbf16>, tensor<8x128x64xbf16>)
      -> (tensor<64x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x64xbf16>, tensor<f32>
}
