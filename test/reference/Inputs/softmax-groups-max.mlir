// Softmax scores, 4 groups keep 2 by the max group score, top-4 unnormalized, scaled by 1.5, ReLU, z-loss.
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=16 experts, top-4.
func.func @softmax_groups_max(%x: tensor<256x64xbf16>, %router_weight: tensor<64x16xf32>,
    %w_gate: tensor<16x64x96xbf16>, %w_up: tensor<16x64x96xbf16>, %w_down: tensor<16x96x64xbf16>)
    -> (tensor<256x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64, score_function = #moe<score_function softmax>, num_groups = 4 : i64, group_topk = 2 : i64, group_score = #moe<group_score max>, scaling_factor = 1.5 : f64, activation = #moe<activation relu>, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<256x64xbf16>, tensor<64x16xf32>, tensor<16x64x96xbf16>,
         tensor<16x64x96xbf16>, tensor<16x96x64xbf16>)
      -> (tensor<256x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<256x64xbf16>, tensor<f32>
}
