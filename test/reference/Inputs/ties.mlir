// Exact ties in the router, with Inputs/ties/router_weight.npy (repeated
// columns: experts 0 = 2, 1 = 3, 4 = 6, 5 = 7). Ties go to the lower index.
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=8 experts.

// Sigmoid top-3: the top two are a tied pair, the third is the lower expert
// of the next tied pair.
func.func @tie_experts(%x: tensor<256x64xbf16>, %router_weight: tensor<64x8xf32>,
    %w_gate: tensor<8x64x96xbf16>, %w_up: tensor<8x64x96xbf16>, %w_down: tensor<8x96x64xbf16>)
    -> (tensor<256x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 3 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64}
      : (tensor<256x64xbf16>, tensor<64x8xf32>, tensor<8x64x96xbf16>,
         tensor<8x64x96xbf16>, tensor<8x96x64xbf16>)
      -> (tensor<256x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<256x64xbf16>, tensor<f32>
}

// Softmax top-2 from 4 groups of 2 keeping 1: groups 0 and 1 (and 2 and 3)
// score the same, so the best group is always the lower of a tied pair.
func.func @tie_groups(%x: tensor<256x64xbf16>, %router_weight: tensor<64x8xf32>,
    %w_gate: tensor<8x64x96xbf16>, %w_up: tensor<8x64x96xbf16>, %w_down: tensor<8x96x64xbf16>)
    -> (tensor<256x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, num_groups = 4 : i64, group_topk = 1 : i64, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64}
      : (tensor<256x64xbf16>, tensor<64x8xf32>, tensor<8x64x96xbf16>,
         tensor<8x64x96xbf16>, tensor<8x96x64xbf16>)
      -> (tensor<256x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<256x64xbf16>, tensor<f32>
}
