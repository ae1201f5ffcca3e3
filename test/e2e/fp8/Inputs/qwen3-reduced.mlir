// qwen3-30b-a3b's routing (softmax, top-8 of many small experts) at a CPU
// size: T = 128, H = 256, F = 128, E = 16 (R = 1024 rows).
func.func @moe_layer(%x: tensor<128x256xbf16>, %router: tensor<256x16xf32>,
                     %w_gate: tensor<16x256x128xbf16>, %w_up: tensor<16x256x128xbf16>,
                     %w_down: tensor<16x128x256xbf16>)
    -> (tensor<128x256xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 8 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-03 : f64}
      : (tensor<128x256xbf16>, tensor<256x16xf32>, tensor<16x256x128xbf16>,
         tensor<16x256x128xbf16>, tensor<16x128x256xbf16>)
      -> (tensor<128x256xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x256xbf16>, tensor<f32>
}
