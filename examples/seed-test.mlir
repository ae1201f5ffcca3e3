// seed-test benchmark shape: softmax top-2 (pre-softmax), aux loss and z-loss.
// T=32768 tokens, H=1024 hidden, F=4096 expert FFN width, E=8 experts, top-2.
// One MoE block as a single op; `moe-opt --moe-expand-layer` shows its graph.
func.func @moe_layer(%x: tensor<32768x1024xbf16>, %router: tensor<1024x8xf32>,
                     %w_gate: tensor<8x1024x4096xbf16>, %w_up: tensor<8x1024x4096xbf16>,
                     %w_down: tensor<8x4096x1024xbf16>)
    -> (tensor<32768x1024xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<32768x1024xbf16>, tensor<1024x8xf32>, tensor<8x1024x4096xbf16>,
         tensor<8x1024x4096xbf16>, tensor<8x4096x1024xbf16>)
      -> (tensor<32768x1024xbf16>, tensor<f32>)
  return %out, %aux : tensor<32768x1024xbf16>, tensor<f32>
}
