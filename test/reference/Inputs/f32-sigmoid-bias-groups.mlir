// All-f32 layer: sigmoid with expert bias, 4 groups keep 2 (top-sum), top-4 renormalized, scaled by 2.5, SiLU,
// sequence-wise aux loss (2 sequences of 128) + z-loss.
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=16 experts, top-4.
func.func @f32_sigmoid_bias_groups(%x: tensor<256x64xf32>, %router_weight: tensor<64x16xf32>, %bias: tensor<16xf32>,
    %w_gate: tensor<16x64x96xf32>, %w_up: tensor<16x64x96xf32>, %w_down: tensor<16x96x64xf32>)
    -> (tensor<256x64xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64, score_function = #moe<score_function sigmoid>, num_groups = 4 : i64, group_topk = 2 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64, aux_loss_coeff = 1.0e-02 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 128 : i64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<256x64xf32>, tensor<64x16xf32>, tensor<16xf32>, tensor<16x64x96xf32>,
         tensor<16x64x96xf32>, tensor<16x96x64xf32>)
      -> (tensor<256x64xf32>, tensor<f32>)
  return %out, %aux : tensor<256x64xf32>, tensor<f32>
}
