// DeepSeek-V3 MoE block on one GPU: sigmoid scores, expert bias (aux-loss-free balancing), 8 groups keep 4 (group score = sum of top 2), top-8 renormalized and scaled by 2.5, sequence-wise aux loss.
// T=4096 tokens, H=7168 hidden, F=2048 expert FFN width, E=256 experts, top-8.
// One MoE block as a single op; `moe-opt --moe-expand-layer` shows its graph.
func.func @moe_layer(%x: tensor<4096x7168xbf16>, %router: tensor<7168x256xf32>, %bias: tensor<256xf32>,
                     %w_gate: tensor<256x7168x2048xbf16>, %w_up: tensor<256x7168x2048xbf16>,
                     %w_down: tensor<256x2048x7168xbf16>)
    -> (tensor<4096x7168xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 8 : i64, score_function = #moe<score_function sigmoid>, num_groups = 8 : i64, group_topk = 4 : i64, group_score_topq = 2 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64, aux_loss_coeff = 1.0e-04 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 4096 : i64}
      : (tensor<4096x7168xbf16>, tensor<7168x256xf32>, tensor<256xf32>, tensor<256x7168x2048xbf16>,
         tensor<256x7168x2048xbf16>, tensor<256x2048x7168xbf16>)
      -> (tensor<4096x7168xbf16>, tensor<f32>)
  return %out, %aux : tensor<4096x7168xbf16>, tensor<f32>
}
