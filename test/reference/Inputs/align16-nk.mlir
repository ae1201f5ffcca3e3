// Softmax top-3 renormalized (sum), groups aligned to 16 rows, transposed (nk) expert weights, exact GELU.
// T=256 tokens, H=64 hidden, F=96 expert FFN width, E=8 experts, top-3.
func.func @align16_nk(%x: tensor<256x64xbf16>, %router_weight: tensor<64x8xf32>,
    %w_gate: tensor<8x96x64xbf16>, %w_up: tensor<8x96x64xbf16>, %w_down: tensor<8x64x96xbf16>)
    -> (tensor<256x64xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 3 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, activation = #moe<activation gelu>, align = 16 : i64, weight_layout = #moe<weight_layout nk>}
      : (tensor<256x64xbf16>, tensor<64x8xf32>, tensor<8x96x64xbf16>,
         tensor<8x96x64xbf16>, tensor<8x64x96xbf16>)
      -> (tensor<256x64xbf16>, tensor<f32>)
  return %out, %aux : tensor<256x64xbf16>, tensor<f32>
}
