// Sigmoid scores with expert bias, 4 groups keep 2 by the default top-sum group score (q = k/group_topk = 2),
// top-4 renormalized (sum) and scaled by 2.5, relu², batch aux loss + z-loss.
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=16 experts, top-4.
func.func @sigmoid_bias_groups_topsum(%x: tensor<256x64xbf16>, %router_weight: tensor<64x16xf32>, %bias: tensor<16xf32>,
    %w_gate: tensor<16x64x96xbf16>, %w_up: tensor<16x64x96xbf16>, %w_down: tensor<16x96x64xbf16>)
    -> (tensor<256x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64, score_function = #moe<score_function sigmoid>, num_groups = 4 : i64, group_topk = 2 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64, activation = #moe<activation relu2>, aux_loss_coeff = 1.0e-03 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<256x64xbf16>, tensor<64x16xf32>, tensor<16xf32>, tensor<16x64x96xbf16>,
         tensor<16x64x96xbf16>, tensor<16x96x64xbf16>)
      -> (tensor<256x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<256x64xbf16>, tensor<f32>
}
