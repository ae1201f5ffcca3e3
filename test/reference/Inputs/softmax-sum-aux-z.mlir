// Softmax scores, top-2 renormalized (sum), SiLU, batch aux loss + z-loss.
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=8 experts, top-2.
func.func @softmax_sum_aux_z(%x: tensor<256x64xbf16>, %router_weight: tensor<64x8xf32>,
    %w_gate: tensor<8x64x96xbf16>, %w_up: tensor<8x64x96xbf16>, %w_down: tensor<8x96x64xbf16>)
    -> (tensor<256x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<256x64xbf16>, tensor<64x8xf32>, tensor<8x64x96xbf16>,
         tensor<8x64x96xbf16>, tensor<8x96x64xbf16>)
      -> (tensor<256x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<256x64xbf16>, tensor<f32>
}
