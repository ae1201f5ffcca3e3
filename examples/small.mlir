// Small test layer: softmax routing, renormalized top-2, aux loss and z-loss.
// T=64 tokens, H=32 hidden, F=48 expert FFN width, E=8 experts, top-2.
// One MoE block as a single op; `moe-opt --moe-expand-layer` shows its graph.
func.func @moe_layer(%x: tensor<64x32xbf16>, %router: tensor<32x8xf32>,
                     %w_gate: tensor<8x32x48xbf16>, %w_up: tensor<8x32x48xbf16>,
                     %w_down: tensor<8x48x32xbf16>)
    -> (tensor<64x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>,
         tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<64x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x32xbf16>, tensor<f32>
}
