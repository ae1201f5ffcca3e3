// sqrt-softplus scores with expert bias, top-3 renormalized (sum), tanh GELU, sequence-wise aux loss (4 sequences of 64).
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=16 experts, top-3.
func.func @sqrtsoftplus_bias_sequence(%x: tensor<256x64xbf16>, %router_weight: tensor<64x16xf32>, %bias: tensor<16xf32>,
    %w_gate: tensor<16x64x96xbf16>, %w_up: tensor<16x64x96xbf16>, %w_down: tensor<16x96x64xbf16>)
    -> (tensor<256x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 3 : i64, score_function = #moe<score_function sqrtsoftplus>, normalize = #moe<normalize sum>, activation = #moe<activation gelu_tanh>, aux_loss_coeff = 1.0e-02 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 64 : i64}
      : (tensor<256x64xbf16>, tensor<64x16xf32>, tensor<16xf32>, tensor<16x64x96xbf16>,
         tensor<16x64x96xbf16>, tensor<16x96x64xbf16>)
      -> (tensor<256x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<256x64xbf16>, tensor<f32>
}
