// mixtral-8x7b's routing (post-softmax: top-2 of 8 logits, softmax over the
// two chosen; aux loss) at a CPU size: T = 64, H = 128, F = 96 (R = 128).
func.func @moe_layer(%x: tensor<64x128xbf16>, %router: tensor<128x8xf32>,
                     %w_gate: tensor<8x128x96xbf16>, %w_up: tensor<8x128x96xbf16>,
                     %w_down: tensor<8x96x128xbf16>)
    -> (tensor<64x128xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, post_softmax, aux_loss_coeff = 1.0e-02 : f64}
      : (tensor<64x128xbf16>, tensor<128x8xf32>, tensor<8x128x96xbf16>,
         tensor<8x128x96xbf16>, tensor<8x96x128xbf16>)
      -> (tensor<64x128xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x128xbf16>, tensor<f32>
}
