// dsv3-1gpu's routing (sigmoid, expert bias, 8 groups / top-4 groups,
// top-8, sequence aux loss) at a CPU size: T = 128, H = 256, F = 128,
// E = 32 (R = 1024 rows; multiples of 128 for blockwise).
func.func @moe_layer(%x: tensor<128x256xbf16>, %router: tensor<256x32xf32>, %bias: tensor<32xf32>,
                     %w_gate: tensor<32x256x128xbf16>, %w_up: tensor<32x256x128xbf16>,
                     %w_down: tensor<32x128x256xbf16>)
    -> (tensor<128x256xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 8 : i64, score_function = #moe<score_function sigmoid>, num_groups = 8 : i64, group_topk = 4 : i64, group_score_topq = 2 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64, aux_loss_coeff = 1.0e-04 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 128 : i64}
      : (tensor<128x256xbf16>, tensor<256x32xf32>, tensor<32xf32>, tensor<32x256x128xbf16>,
         tensor<32x256x128xbf16>, tensor<32x128x256xbf16>)
      -> (tensor<128x256xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x256xbf16>, tensor<f32>
}
