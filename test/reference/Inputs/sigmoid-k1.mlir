// Sigmoid top-1: normalize = sum is a no-op for k = 1 (the weight stays the raw score), ReLU, batch aux loss.
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=8 experts, top-1.
func.func @sigmoid_k1(%x: tensor<256x64xbf16>, %router_weight: tensor<64x8xf32>,
    %w_gate: tensor<8x64x96xbf16>, %w_up: tensor<8x64x96xbf16>, %w_down: tensor<8x96x64xbf16>)
    -> (tensor<256x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 1 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize sum>, activation = #moe<activation relu>, aux_loss_coeff = 1.0e-02 : f64}
      : (tensor<256x64xbf16>, tensor<64x8xf32>, tensor<8x64x96xbf16>,
         tensor<8x64x96xbf16>, tensor<8x96x64xbf16>)
      -> (tensor<256x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<256x64xbf16>, tensor<f32>
}
