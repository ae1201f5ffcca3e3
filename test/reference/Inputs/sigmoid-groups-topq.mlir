// Sigmoid scores (no bias), 2 groups keep 1 by the sum of the top 3 (explicit group_score_topq; the default would be 4),
// top-4 unnormalized, identity GLU (bilinear), batch aux loss.
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=16 experts, top-4.
func.func @sigmoid_groups_topq(%x: tensor<256x64xbf16>, %router_weight: tensor<64x16xf32>,
    %w_gate: tensor<16x64x96xbf16>, %w_up: tensor<16x64x96xbf16>, %w_down: tensor<16x96x64xbf16>)
    -> (tensor<256x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64, score_function = #moe<score_function sigmoid>, num_groups = 2 : i64, group_topk = 1 : i64, group_score_topq = 3 : i64, activation = #moe<activation identity>, aux_loss_coeff = 1.0e-02 : f64}
      : (tensor<256x64xbf16>, tensor<64x16xf32>, tensor<16x64x96xbf16>,
         tensor<16x64x96xbf16>, tensor<16x96x64xbf16>)
      -> (tensor<256x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<256x64xbf16>, tensor<f32>
}
