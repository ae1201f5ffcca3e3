// sqrt-softplus routing: expert bias with a sequence-wise aux loss and nk weights; no bias,
// unnormalized, with aux + z losses.
// Each layer in bf16 and f32; T=128 H=32 F=48. The loss coefficients are large so that the
// aux-loss and z-loss paths of the router gradient are well above the bf16 tolerance.
// Compiled backward vs the reference VJP: see ../vjp-*.test.

// sqrt-softplus + expert bias, top-3 normalize=sum, tanh GELU, nk weights, sequence aux loss (4 x 32); E=16.
func.func @sqrtsoftplus_bias_sequence_bf16(%x: tensor<128x32xbf16>, %router_weight: tensor<32x16xf32>, %bias: tensor<16xf32>,
    %w_gate: tensor<16x48x32xbf16>, %w_up: tensor<16x48x32xbf16>, %w_down: tensor<16x32x48xbf16>)
    -> (tensor<128x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 3 : i64, score_function = #moe<score_function sqrtsoftplus>, normalize = #moe<normalize sum>, activation = #moe<activation gelu_tanh>, weight_layout = #moe<weight_layout nk>, aux_loss_coeff = 50.0 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 32 : i64}
      : (tensor<128x32xbf16>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x48x32xbf16>,
         tensor<16x48x32xbf16>, tensor<16x32x48xbf16>)
      -> (tensor<128x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x32xbf16>, tensor<f32>
}

// sqrt-softplus top-2 unnormalized, SiLU, batch aux loss + z-loss; E=8.
func.func @sqrtsoftplus_none_bf16(%x: tensor<128x32xbf16>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x32x48xbf16>, %w_up: tensor<8x32x48xbf16>, %w_down: tensor<8x48x32xbf16>)
    -> (tensor<128x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function sqrtsoftplus>, aux_loss_coeff = 50.0 : f64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>,
         tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<128x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x32xbf16>, tensor<f32>
}

// sqrt-softplus + expert bias, top-3 normalize=sum, tanh GELU, nk weights, sequence aux loss (4 x 32); E=16.
func.func @sqrtsoftplus_bias_sequence_f32(%x: tensor<128x32xf32>, %router_weight: tensor<32x16xf32>, %bias: tensor<16xf32>,
    %w_gate: tensor<16x48x32xf32>, %w_up: tensor<16x48x32xf32>, %w_down: tensor<16x32x48xf32>)
    -> (tensor<128x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 3 : i64, score_function = #moe<score_function sqrtsoftplus>, normalize = #moe<normalize sum>, activation = #moe<activation gelu_tanh>, weight_layout = #moe<weight_layout nk>, aux_loss_coeff = 50.0 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 32 : i64}
      : (tensor<128x32xf32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x48x32xf32>,
         tensor<16x48x32xf32>, tensor<16x32x48xf32>)
      -> (tensor<128x32xf32>, tensor<f32>)
  return %out, %aux : tensor<128x32xf32>, tensor<f32>
}

// sqrt-softplus top-2 unnormalized, SiLU, batch aux loss + z-loss; E=8.
func.func @sqrtsoftplus_none_f32(%x: tensor<128x32xf32>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x32x48xf32>, %w_up: tensor<8x32x48xf32>, %w_down: tensor<8x48x32xf32>)
    -> (tensor<128x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function sqrtsoftplus>, aux_loss_coeff = 50.0 : f64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xf32>, tensor<32x8xf32>, tensor<8x32x48xf32>,
         tensor<8x32x48xf32>, tensor<8x48x32xf32>)
      -> (tensor<128x32xf32>, tensor<f32>)
  return %out, %aux : tensor<128x32xf32>, tensor<f32>
}
