// The reduced layer of test/e2e/fp8/placed-layer.test: T = 64, H = 128,
// F = 256, E = 4, top-2 (R = 128 rows): multiples of 128 for blockwise.
func.func @moe_layer(%x: tensor<64x128xbf16>, %router: tensor<128x4xf32>,
                     %w_gate: tensor<4x128x256xbf16>, %w_up: tensor<4x128x256xbf16>,
                     %w_down: tensor<4x256x128xbf16>)
    -> (tensor<64x128xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<64x128xbf16>, tensor<128x4xf32>, tensor<4x128x256xbf16>,
         tensor<4x128x256xbf16>, tensor<4x256x128xbf16>)
      -> (tensor<64x128xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x128xbf16>, tensor<f32>
}
