// Mixtral-8x7B MoE block: top-2 on logits, softmax over the two chosen (post-softmax), aux loss.
// T=8192 tokens, H=4096 hidden, F=14336 expert FFN width, E=8 experts, top-2.
// One MoE block as a single op; `moe-opt --moe-expand-layer` shows its graph.
func.func @moe_layer(%x: tensor<8192x4096xbf16>, %router: tensor<4096x8xf32>,
                     %w_gate: tensor<8x4096x14336xbf16>, %w_up: tensor<8x4096x14336xbf16>,
                     %w_down: tensor<8x14336x4096xbf16>)
    -> (tensor<8192x4096xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, post_softmax, aux_loss_coeff = 1.0e-02 : f64}
      : (tensor<8192x4096xbf16>, tensor<4096x8xf32>, tensor<8x4096x14336xbf16>,
         tensor<8x4096x14336xbf16>, tensor<8x14336x4096xbf16>)
      -> (tensor<8192x4096xbf16>, tensor<f32>)
  return %out, %aux : tensor<8192x4096xbf16>, tensor<f32>
}
