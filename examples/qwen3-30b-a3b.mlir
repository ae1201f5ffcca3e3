// Qwen3-30B-A3B MoE block: softmax top-8 renormalized (norm_topk_prob), aux loss.
// T=16384 tokens, H=2048 hidden, F=768 expert FFN width, E=128 experts, top-8.
// One MoE block as a single op; `moe-opt --moe-expand-layer` shows its graph.
func.func @moe_layer(%x: tensor<16384x2048xbf16>, %router: tensor<2048x128xf32>,
                     %w_gate: tensor<128x2048x768xbf16>, %w_up: tensor<128x2048x768xbf16>,
                     %w_down: tensor<128x768x2048xbf16>)
    -> (tensor<16384x2048xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 8 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-03 : f64}
      : (tensor<16384x2048xbf16>, tensor<2048x128xf32>, tensor<128x2048x768xbf16>,
         tensor<128x2048x768xbf16>, tensor<128x768x2048xbf16>)
      -> (tensor<16384x2048xbf16>, tensor<f32>)
  return %out, %aux : tensor<16384x2048xbf16>, tensor<f32>
}
