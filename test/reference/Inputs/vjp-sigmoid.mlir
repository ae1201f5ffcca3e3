// Sigmoid routing: group-limited top-q without bias; expert bias with group-limited top-sum,
// renormalized and scaled; k=1 (normalize=sum a no-op); normalize=softmax over the chosen.
// Each layer in bf16 and f32; T=128 H=32 F=48. The loss coefficients are large so that the
// aux-loss and z-loss paths of the router gradient are well above the bf16 tolerance.
// Compiled backward vs the reference VJP: see ../vjp-*.test.

// sigmoid, 2 groups keep 1 by the sum of the top 3, top-4 unnormalized, identity GLU, batch aux loss; E=16.
func.func @sigmoid_groups_topq_bf16(%x: tensor<128x32xbf16>, %router_weight: tensor<32x16xf32>,
    %w_gate: tensor<16x32x48xbf16>, %w_up: tensor<16x32x48xbf16>, %w_down: tensor<16x48x32xbf16>)
    -> (tensor<128x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64, score_function = #moe<score_function sigmoid>, num_groups = 2 : i64, group_topk = 1 : i64, group_score_topq = 3 : i64, activation = #moe<activation identity>, aux_loss_coeff = 50.0 : f64}
      : (tensor<128x32xbf16>, tensor<32x16xf32>, tensor<16x32x48xbf16>,
         tensor<16x32x48xbf16>, tensor<16x48x32xbf16>)
      -> (tensor<128x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x32xbf16>, tensor<f32>
}

// sigmoid + expert bias, 4 groups keep 2 (top-sum, q = 2), top-4 normalize=sum, scaling 2.5, relu2, aux + z; E=16.
func.func @sigmoid_bias_groups_bf16(%x: tensor<128x32xbf16>, %router_weight: tensor<32x16xf32>, %bias: tensor<16xf32>,
    %w_gate: tensor<16x32x48xbf16>, %w_up: tensor<16x32x48xbf16>, %w_down: tensor<16x48x32xbf16>)
    -> (tensor<128x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64, score_function = #moe<score_function sigmoid>, num_groups = 4 : i64, group_topk = 2 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64, activation = #moe<activation relu2>, aux_loss_coeff = 50.0 : f64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xbf16>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x32x48xbf16>,
         tensor<16x32x48xbf16>, tensor<16x48x32xbf16>)
      -> (tensor<128x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x32xbf16>, tensor<f32>
}

// sigmoid top-1 normalize=sum (a no-op for k = 1: the weight is the raw score), ReLU, batch aux loss; E=8.
func.func @sigmoid_k1_bf16(%x: tensor<128x32xbf16>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x32x48xbf16>, %w_up: tensor<8x32x48xbf16>, %w_down: tensor<8x48x32xbf16>)
    -> (tensor<128x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 1 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize sum>, activation = #moe<activation relu>, aux_loss_coeff = 50.0 : f64}
      : (tensor<128x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>,
         tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<128x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x32xbf16>, tensor<f32>
}

// sigmoid top-2, normalize=softmax over the chosen, SiLU, batch aux loss + z-loss; E=8.
func.func @sigmoid_softmax_norm_bf16(%x: tensor<128x32xbf16>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x32x48xbf16>, %w_up: tensor<8x32x48xbf16>, %w_down: tensor<8x48x32xbf16>)
    -> (tensor<128x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize softmax>, aux_loss_coeff = 50.0 : f64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>,
         tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<128x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<128x32xbf16>, tensor<f32>
}

// sigmoid, 2 groups keep 1 by the sum of the top 3, top-4 unnormalized, identity GLU, batch aux loss; E=16.
func.func @sigmoid_groups_topq_f32(%x: tensor<128x32xf32>, %router_weight: tensor<32x16xf32>,
    %w_gate: tensor<16x32x48xf32>, %w_up: tensor<16x32x48xf32>, %w_down: tensor<16x48x32xf32>)
    -> (tensor<128x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64, score_function = #moe<score_function sigmoid>, num_groups = 2 : i64, group_topk = 1 : i64, group_score_topq = 3 : i64, activation = #moe<activation identity>, aux_loss_coeff = 50.0 : f64}
      : (tensor<128x32xf32>, tensor<32x16xf32>, tensor<16x32x48xf32>,
         tensor<16x32x48xf32>, tensor<16x48x32xf32>)
      -> (tensor<128x32xf32>, tensor<f32>)
  return %out, %aux : tensor<128x32xf32>, tensor<f32>
}

// sigmoid + expert bias, 4 groups keep 2 (top-sum, q = 2), top-4 normalize=sum, scaling 2.5, relu2, aux + z; E=16.
func.func @sigmoid_bias_groups_f32(%x: tensor<128x32xf32>, %router_weight: tensor<32x16xf32>, %bias: tensor<16xf32>,
    %w_gate: tensor<16x32x48xf32>, %w_up: tensor<16x32x48xf32>, %w_down: tensor<16x48x32xf32>)
    -> (tensor<128x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64, score_function = #moe<score_function sigmoid>, num_groups = 4 : i64, group_topk = 2 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64, activation = #moe<activation relu2>, aux_loss_coeff = 50.0 : f64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xf32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x32x48xf32>,
         tensor<16x32x48xf32>, tensor<16x48x32xf32>)
      -> (tensor<128x32xf32>, tensor<f32>)
  return %out, %aux : tensor<128x32xf32>, tensor<f32>
}

// sigmoid top-1 normalize=sum (a no-op for k = 1: the weight is the raw score), ReLU, batch aux loss; E=8.
func.func @sigmoid_k1_f32(%x: tensor<128x32xf32>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x32x48xf32>, %w_up: tensor<8x32x48xf32>, %w_down: tensor<8x48x32xf32>)
    -> (tensor<128x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 1 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize sum>, activation = #moe<activation relu>, aux_loss_coeff = 50.0 : f64}
      : (tensor<128x32xf32>, tensor<32x8xf32>, tensor<8x32x48xf32>,
         tensor<8x32x48xf32>, tensor<8x48x32xf32>)
      -> (tensor<128x32xf32>, tensor<f32>)
  return %out, %aux : tensor<128x32xf32>, tensor<f32>
}

// sigmoid top-2, normalize=softmax over the chosen, SiLU, batch aux loss + z-loss; E=8.
func.func @sigmoid_softmax_norm_f32(%x: tensor<128x32xf32>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x32x48xf32>, %w_up: tensor<8x32x48xf32>, %w_down: tensor<8x48x32xf32>)
    -> (tensor<128x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize softmax>, aux_loss_coeff = 50.0 : f64, z_loss_coeff = 5.0 : f64}
      : (tensor<128x32xf32>, tensor<32x8xf32>, tensor<8x32x48xf32>,
         tensor<8x32x48xf32>, tensor<8x48x32xf32>)
      -> (tensor<128x32xf32>, tensor<f32>)
  return %out, %aux : tensor<128x32xf32>, tensor<f32>
}
