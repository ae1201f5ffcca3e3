// Softmax routing (pre and post): renormalized top-2 with aux + z losses; post-softmax
// with nk weights; group-limited (max group score) top-4 unnormalized, scaled, aligned to 4 rows.
// Each layer in bf16 and f32; T=128 H=32 F=48. The loss coefficients are large so that the
// aux-loss and z-loss paths of the router gradient are well above the bf16 tolerance.
// Compiled backward vs the reference VJP: see ../vjp-*.test.

// softmax top-2 normalize=sum, SiLU, batch aux loss + z-loss; E=8.
func.func @softmax_sum_aux_z_bf16(%x: tensor<128x32xbf16>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x32x48xbf16>, %w_up: tensor<8x32x48xbf16>, %w_down: tensor<8x48x32xbf16>)
    -> (tensor<128x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 50.0 : f64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>,
         tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<128x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x32xbf16>, tensor<f32>
}

// post-softmax top-2 (softmax over the chosen), exact GELU, nk weights, batch aux loss on the dense softmax + z-loss; E=8.
func.func @softmax_post_nk_bf16(%x: tensor<128x32xbf16>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x48x32xbf16>, %w_up: tensor<8x48x32xbf16>, %w_down: tensor<8x32x48xbf16>)
    -> (tensor<128x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, post_softmax, activation = #moe<activation gelu>, weight_layout = #moe<weight_layout nk>, aux_loss_coeff = 50.0 : f64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xbf16>, tensor<32x8xf32>, tensor<8x48x32xbf16>,
         tensor<8x48x32xbf16>, tensor<8x32x48xbf16>)
      -> (tensor<128x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x32xbf16>, tensor<f32>
}

// softmax, 4 groups keep 2 by the max, top-4 unnormalized, scaling 1.5, ReLU, align 4, z-loss only; E=16.
func.func @softmax_groups_max_bf16(%x: tensor<128x32xbf16>, %router_weight: tensor<32x16xf32>,
    %w_gate: tensor<16x32x48xbf16>, %w_up: tensor<16x32x48xbf16>, %w_down: tensor<16x48x32xbf16>)
    -> (tensor<128x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64, score_function = #moe<score_function softmax>, num_groups = 4 : i64, group_topk = 2 : i64, group_score = #moe<group_score max>, scaling_factor = 1.5 : f64, activation = #moe<activation relu>, align = 4 : i64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xbf16>, tensor<32x16xf32>, tensor<16x32x48xbf16>,
         tensor<16x32x48xbf16>, tensor<16x48x32xbf16>)
      -> (tensor<128x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x32xbf16>, tensor<f32>
}

// softmax top-2 normalize=sum, SiLU, batch aux loss + z-loss; E=8.
func.func @softmax_sum_aux_z_f32(%x: tensor<128x32xf32>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x32x48xf32>, %w_up: tensor<8x32x48xf32>, %w_down: tensor<8x48x32xf32>)
    -> (tensor<128x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 50.0 : f64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xf32>, tensor<32x8xf32>, tensor<8x32x48xf32>,
         tensor<8x32x48xf32>, tensor<8x48x32xf32>)
      -> (tensor<128x32xf32>, tensor<f32>)
  return %out, %aux : tensor<128x32xf32>, tensor<f32>
}

// post-softmax top-2 (softmax over the chosen), exact GELU, nk weights, batch aux loss on the dense softmax + z-loss; E=8.
func.func @softmax_post_nk_f32(%x: tensor<128x32xf32>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x48x32xf32>, %w_up: tensor<8x48x32xf32>, %w_down: tensor<8x32x48xf32>)
    -> (tensor<128x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, post_softmax, activation = #moe<activation gelu>, weight_layout = #moe<weight_layout nk>, aux_loss_coeff = 50.0 : f64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xf32>, tensor<32x8xf32>, tensor<8x48x32xf32>,
         tensor<8x48x32xf32>, tensor<8x32x48xf32>)
      -> (tensor<128x32xf32>, tensor<f32>)
  return %out, %aux : tensor<128x32xf32>, tensor<f32>
}

// softmax, 4 groups keep 2 by the max, top-4 unnormalized, scaling 1.5, ReLU, align 4, z-loss only; E=16.
func.func @softmax_groups_max_f32(%x: tensor<128x32xf32>, %router_weight: tensor<32x16xf32>,
    %w_gate: tensor<16x32x48xf32>, %w_up: tensor<16x32x48xf32>, %w_down: tensor<16x48x32xf32>)
    -> (tensor<128x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64, score_function = #moe<score_function softmax>, num_groups = 4 : i64, group_topk = 2 : i64, group_score = #moe<group_score max>, scaling_factor = 1.5 : f64, activation = #moe<activation relu>, align = 4 : i64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xf32>, tensor<32x16xf32>, tensor<16x32x48xf32>,
         tensor<16x32x48xf32>, tensor<16x48x32xf32>)
      -> (tensor<128x32xf32>, tensor<f32>)
  return %out, %aux : tensor<128x32xf32>, tensor<f32>
}
