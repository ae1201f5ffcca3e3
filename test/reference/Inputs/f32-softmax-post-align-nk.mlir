// All-f32 layer: post-softmax top-2, align 16, nk weights, tanh GELU, batch aux loss + z-loss.
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=8 experts, top-2.
func.func @f32_softmax_post_align_nk(%x: tensor<256x64xf32>, %router_weight: tensor<64x8xf32>,
    %w_gate: tensor<8x96x64xf32>, %w_up: tensor<8x96x64xf32>, %w_down: tensor<8x64x96xf32>)
    -> (tensor<256x64xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, post_softmax, activation = #moe<activation gelu_tanh>, align = 16 : i64, weight_layout = #moe<weight_layout nk>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<256x64xf32>, tensor<64x8xf32>, tensor<8x96x64xf32>,
         tensor<8x96x64xf32>, tensor<8x64x96xf32>)
      -> (tensor<256x64xf32>, tensor<f32>)
  return %out, %aux : tensor<256x64xf32>, tensor<f32>
}
