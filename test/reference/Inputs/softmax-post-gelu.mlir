// Post-softmax routing (select on logits, softmax over the 2 chosen), exact GELU, batch aux loss.
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=8 experts, top-2.
func.func @softmax_post_gelu(%x: tensor<256x64xbf16>, %router_weight: tensor<64x8xf32>,
    %w_gate: tensor<8x64x96xbf16>, %w_up: tensor<8x64x96xbf16>, %w_down: tensor<8x96x64xbf16>)
    -> (tensor<256x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, post_softmax, activation = #moe<activation gelu>, aux_loss_coeff = 1.0e-02 : f64}
      : (tensor<256x64xbf16>, tensor<64x8xf32>, tensor<8x64x96xbf16>,
         tensor<8x64x96xbf16>, tensor<8x96x64xbf16>)
      -> (tensor<256x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<256x64xbf16>, tensor<f32>
}
