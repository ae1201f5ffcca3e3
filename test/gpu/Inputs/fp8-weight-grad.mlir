// Weight gradients (moe.grouped_weight_grad {transposed_operands}) for the
// generated Hopper kernel's K-major reduction: a [R, Kd] and dc [R, N] come in
// as random bf16, are transposed to [Kd, R] and [N, R] in the entry and, for
// FP8, quantized there (the same quantization on both targets); group sizes
// from write-fp8-group-sizes.py. Group boundaries fall inside 128-row blocks,
// so a group's first and last k-steps are partial.
//   wg_bw_kn: blockwise (1 x 128 blocks along R), a e4m3 x dc e5m2, kn, skewed sizes
//   wg_bw_nk_f32: blockwise, nk (db [G, N, Kd]), f32 output
//   wg_tw_kn: tensorwise scales
//   wg_bw_large: groups of 700 and 324 rows, two m-tiles and two n-tiles per group
//   wg_bw_many_groups: 64 groups of 0..20 rows (many groups inside one block), f32 output
//   wg_bf16_transposed: bf16 operands stored [Kd, R] / [N, R] (K-major bf16)
//   wg_bw_persistent_aligned: 32 groups of multiples of 128 rows (whole
//       k-steps, no zeroing), 4 m- and 3 n-tiles a group: 384 tiles,
//       several a CTA (the persistent loop's later tiles)
//   wg_bw_persistent_ragged: 64 groups of 0..64 rows, 4 x 3 tiles a group
//       (768 tiles): every k-step partial, several groups a 128-row block,
//       as in an align-1 layer with few rows an expert (qwen3-30b-a3b's
//       check layer, where racecheck reported hazards)
//   wg_bw_m192_n200: Kd = 192 (64-row tiles, one consumer warpgroup) and
//       N = 200 (the last n-tile 72 columns wide: its b_scale copy into the
//       stage is clipped at N)
func.func @wg_bw_kn(%a: tensor<1024x256xbf16>, %dc: tensor<1024x384xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x256x384xbf16> {
  %at0 = tensor.empty() : tensor<256x1024xbf16>
  %at = linalg.transpose ins(%a : tensor<1024x256xbf16>) outs(%at0 : tensor<256x1024xbf16>) permutation = [1, 0]
  %dct0 = tensor.empty() : tensor<384x1024xbf16>
  %dct = linalg.transpose ins(%dc : tensor<1024x384xbf16>) outs(%dct0 : tensor<384x1024xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x256x384xbf16>
  %qa0 = tensor.empty() : tensor<256x1024xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<256x8xf32>
  %qa, %sa = moe.quantize block_1x128 %at outs(%qa0, %sa0) : tensor<256x1024xbf16> -> tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>
  %qd0 = tensor.empty() : tensor<384x1024xf8E5M2>
  %sd0 = tensor.empty() : tensor<384x8xf32>
  %qd, %sd = moe.quantize block_1x128 %dct outs(%qd0, %sd0) : tensor<384x1024xbf16> -> tensor<384x1024xf8E5M2>, tensor<384x8xf32>
  %db = moe.grouped_weight_grad %qa, %qd, %sizes scales(%sa, %sd) outs(%e) {transposed_operands} : tensor<256x1024xf8E4M3FN>, tensor<384x1024xf8E5M2>, tensor<8xi32>, tensor<256x8xf32>, tensor<384x8xf32> -> tensor<8x256x384xbf16>
  return %db : tensor<8x256x384xbf16>
}
func.func @wg_bw_nk_f32(%a: tensor<1024x256xbf16>, %dc: tensor<1024x384xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x384x256xf32> {
  %at0 = tensor.empty() : tensor<256x1024xbf16>
  %at = linalg.transpose ins(%a : tensor<1024x256xbf16>) outs(%at0 : tensor<256x1024xbf16>) permutation = [1, 0]
  %dct0 = tensor.empty() : tensor<384x1024xbf16>
  %dct = linalg.transpose ins(%dc : tensor<1024x384xbf16>) outs(%dct0 : tensor<384x1024xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x384x256xf32>
  %qa0 = tensor.empty() : tensor<256x1024xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<256x8xf32>
  %qa, %sa = moe.quantize block_1x128 %at outs(%qa0, %sa0) : tensor<256x1024xbf16> -> tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>
  %qd0 = tensor.empty() : tensor<384x1024xf8E5M2>
  %sd0 = tensor.empty() : tensor<384x8xf32>
  %qd, %sd = moe.quantize block_1x128 %dct outs(%qd0, %sd0) : tensor<384x1024xbf16> -> tensor<384x1024xf8E5M2>, tensor<384x8xf32>
  %db = moe.grouped_weight_grad %qa, %qd, %sizes scales(%sa, %sd) outs(%e) {transposed_operands, weight_layout = #moe<weight_layout nk>} : tensor<256x1024xf8E4M3FN>, tensor<384x1024xf8E5M2>, tensor<8xi32>, tensor<256x8xf32>, tensor<384x8xf32> -> tensor<8x384x256xf32>
  return %db : tensor<8x384x256xf32>
}
func.func @wg_tw_kn(%a: tensor<1024x256xbf16>, %dc: tensor<1024x384xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x256x384xbf16> {
  %at0 = tensor.empty() : tensor<256x1024xbf16>
  %at = linalg.transpose ins(%a : tensor<1024x256xbf16>) outs(%at0 : tensor<256x1024xbf16>) permutation = [1, 0]
  %dct0 = tensor.empty() : tensor<384x1024xbf16>
  %dct = linalg.transpose ins(%dc : tensor<1024x384xbf16>) outs(%dct0 : tensor<384x1024xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x256x384xbf16>
  %qa0 = tensor.empty() : tensor<256x1024xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<f32>
  %qa, %sa = moe.quantize tensorwise %at outs(%qa0, %sa0) : tensor<256x1024xbf16> -> tensor<256x1024xf8E4M3FN>, tensor<f32>
  %qd0 = tensor.empty() : tensor<384x1024xf8E5M2>
  %sd0 = tensor.empty() : tensor<f32>
  %qd, %sd = moe.quantize tensorwise %dct outs(%qd0, %sd0) : tensor<384x1024xbf16> -> tensor<384x1024xf8E5M2>, tensor<f32>
  %db = moe.grouped_weight_grad %qa, %qd, %sizes scales(%sa, %sd) outs(%e) {transposed_operands} : tensor<256x1024xf8E4M3FN>, tensor<384x1024xf8E5M2>, tensor<8xi32>, tensor<f32>, tensor<f32> -> tensor<8x256x384xbf16>
  return %db : tensor<8x256x384xbf16>
}
func.func @wg_bw_large(%a: tensor<1024x512xbf16>, %dc: tensor<1024x256xbf16>, %sizes: tensor<4xi32> {moe.name = "sizes"}) -> tensor<4x512x256xbf16> {
  %at0 = tensor.empty() : tensor<512x1024xbf16>
  %at = linalg.transpose ins(%a : tensor<1024x512xbf16>) outs(%at0 : tensor<512x1024xbf16>) permutation = [1, 0]
  %dct0 = tensor.empty() : tensor<256x1024xbf16>
  %dct = linalg.transpose ins(%dc : tensor<1024x256xbf16>) outs(%dct0 : tensor<256x1024xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x512x256xbf16>
  %qa0 = tensor.empty() : tensor<512x1024xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<512x8xf32>
  %qa, %sa = moe.quantize block_1x128 %at outs(%qa0, %sa0) : tensor<512x1024xbf16> -> tensor<512x1024xf8E4M3FN>, tensor<512x8xf32>
  %qd0 = tensor.empty() : tensor<256x1024xf8E4M3FN>
  %sd0 = tensor.empty() : tensor<256x8xf32>
  %qd, %sd = moe.quantize block_1x128 %dct outs(%qd0, %sd0) : tensor<256x1024xbf16> -> tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>
  %db = moe.grouped_weight_grad %qa, %qd, %sizes scales(%sa, %sd) outs(%e) {transposed_operands} : tensor<512x1024xf8E4M3FN>, tensor<256x1024xf8E4M3FN>, tensor<4xi32>, tensor<512x8xf32>, tensor<256x8xf32> -> tensor<4x512x256xbf16>
  return %db : tensor<4x512x256xbf16>
}
func.func @wg_bw_many_groups(%a: tensor<1024x128xbf16>, %dc: tensor<1024x128xbf16>, %sizes: tensor<64xi32> {moe.name = "sizes"}) -> tensor<64x128x128xf32> {
  %at0 = tensor.empty() : tensor<128x1024xbf16>
  %at = linalg.transpose ins(%a : tensor<1024x128xbf16>) outs(%at0 : tensor<128x1024xbf16>) permutation = [1, 0]
  %dct0 = tensor.empty() : tensor<128x1024xbf16>
  %dct = linalg.transpose ins(%dc : tensor<1024x128xbf16>) outs(%dct0 : tensor<128x1024xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<64x128x128xf32>
  %qa0 = tensor.empty() : tensor<128x1024xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<128x8xf32>
  %qa, %sa = moe.quantize block_1x128 %at outs(%qa0, %sa0) : tensor<128x1024xbf16> -> tensor<128x1024xf8E4M3FN>, tensor<128x8xf32>
  %qd0 = tensor.empty() : tensor<128x1024xf8E5M2>
  %sd0 = tensor.empty() : tensor<128x8xf32>
  %qd, %sd = moe.quantize block_1x128 %dct outs(%qd0, %sd0) : tensor<128x1024xbf16> -> tensor<128x1024xf8E5M2>, tensor<128x8xf32>
  %db = moe.grouped_weight_grad %qa, %qd, %sizes scales(%sa, %sd) outs(%e) {transposed_operands} : tensor<128x1024xf8E4M3FN>, tensor<128x1024xf8E5M2>, tensor<64xi32>, tensor<128x8xf32>, tensor<128x8xf32> -> tensor<64x128x128xf32>
  return %db : tensor<64x128x128xf32>
}
func.func @wg_bf16_transposed(%a: tensor<1024x256xbf16>, %dc: tensor<1024x384xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x256x384xbf16> {
  %at0 = tensor.empty() : tensor<256x1024xbf16>
  %at = linalg.transpose ins(%a : tensor<1024x256xbf16>) outs(%at0 : tensor<256x1024xbf16>) permutation = [1, 0]
  %dct0 = tensor.empty() : tensor<384x1024xbf16>
  %dct = linalg.transpose ins(%dc : tensor<1024x384xbf16>) outs(%dct0 : tensor<384x1024xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x256x384xbf16>
  %db = moe.grouped_weight_grad %at, %dct, %sizes outs(%e) {transposed_operands} : tensor<256x1024xbf16>, tensor<384x1024xbf16>, tensor<8xi32> -> tensor<8x256x384xbf16>
  return %db : tensor<8x256x384xbf16>
}
func.func @wg_bw_persistent_aligned(%a: tensor<6144x512xbf16>, %dc: tensor<6144x384xbf16>, %sizes: tensor<32xi32> {moe.name = "sizes"}) -> tensor<32x512x384xbf16> {
  %at0 = tensor.empty() : tensor<512x6144xbf16>
  %at = linalg.transpose ins(%a : tensor<6144x512xbf16>) outs(%at0 : tensor<512x6144xbf16>) permutation = [1, 0]
  %dct0 = tensor.empty() : tensor<384x6144xbf16>
  %dct = linalg.transpose ins(%dc : tensor<6144x384xbf16>) outs(%dct0 : tensor<384x6144xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<32x512x384xbf16>
  %qa0 = tensor.empty() : tensor<512x6144xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<512x48xf32>
  %qa, %sa = moe.quantize block_1x128 %at outs(%qa0, %sa0) : tensor<512x6144xbf16> -> tensor<512x6144xf8E4M3FN>, tensor<512x48xf32>
  %qd0 = tensor.empty() : tensor<384x6144xf8E5M2>
  %sd0 = tensor.empty() : tensor<384x48xf32>
  %qd, %sd = moe.quantize block_1x128 %dct outs(%qd0, %sd0) : tensor<384x6144xbf16> -> tensor<384x6144xf8E5M2>, tensor<384x48xf32>
  %db = moe.grouped_weight_grad %qa, %qd, %sizes scales(%sa, %sd) outs(%e) {transposed_operands} : tensor<512x6144xf8E4M3FN>, tensor<384x6144xf8E5M2>, tensor<32xi32>, tensor<512x48xf32>, tensor<384x48xf32> -> tensor<32x512x384xbf16>
  return %db : tensor<32x512x384xbf16>
}
func.func @wg_bw_persistent_ragged(%a: tensor<2048x512xbf16>, %dc: tensor<2048x384xbf16>, %sizes: tensor<64xi32> {moe.name = "sizes"}) -> tensor<64x512x384xbf16> {
  %at0 = tensor.empty() : tensor<512x2048xbf16>
  %at = linalg.transpose ins(%a : tensor<2048x512xbf16>) outs(%at0 : tensor<512x2048xbf16>) permutation = [1, 0]
  %dct0 = tensor.empty() : tensor<384x2048xbf16>
  %dct = linalg.transpose ins(%dc : tensor<2048x384xbf16>) outs(%dct0 : tensor<384x2048xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<64x512x384xbf16>
  %qa0 = tensor.empty() : tensor<512x2048xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<512x16xf32>
  %qa, %sa = moe.quantize block_1x128 %at outs(%qa0, %sa0) : tensor<512x2048xbf16> -> tensor<512x2048xf8E4M3FN>, tensor<512x16xf32>
  %qd0 = tensor.empty() : tensor<384x2048xf8E5M2>
  %sd0 = tensor.empty() : tensor<384x16xf32>
  %qd, %sd = moe.quantize block_1x128 %dct outs(%qd0, %sd0) : tensor<384x2048xbf16> -> tensor<384x2048xf8E5M2>, tensor<384x16xf32>
  %db = moe.grouped_weight_grad %qa, %qd, %sizes scales(%sa, %sd) outs(%e) {transposed_operands} : tensor<512x2048xf8E4M3FN>, tensor<384x2048xf8E5M2>, tensor<64xi32>, tensor<512x16xf32>, tensor<384x16xf32> -> tensor<64x512x384xbf16>
  return %db : tensor<64x512x384xbf16>
}
func.func @wg_bw_m192_n200(%a: tensor<1024x192xbf16>, %dc: tensor<1024x200xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x192x200xbf16> {
  %at0 = tensor.empty() : tensor<192x1024xbf16>
  %at = linalg.transpose ins(%a : tensor<1024x192xbf16>) outs(%at0 : tensor<192x1024xbf16>) permutation = [1, 0]
  %dct0 = tensor.empty() : tensor<200x1024xbf16>
  %dct = linalg.transpose ins(%dc : tensor<1024x200xbf16>) outs(%dct0 : tensor<200x1024xbf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x192x200xbf16>
  %qa0 = tensor.empty() : tensor<192x1024xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<192x8xf32>
  %qa, %sa = moe.quantize block_1x128 %at outs(%qa0, %sa0) : tensor<192x1024xbf16> -> tensor<192x1024xf8E4M3FN>, tensor<192x8xf32>
  %qd0 = tensor.empty() : tensor<200x1024xf8E5M2>
  %sd0 = tensor.empty() : tensor<200x8xf32>
  %qd, %sd = moe.quantize block_1x128 %dct outs(%qd0, %sd0) : tensor<200x1024xbf16> -> tensor<200x1024xf8E5M2>, tensor<200x8xf32>
  %db = moe.grouped_weight_grad %qa, %qd, %sizes scales(%sa, %sd) outs(%e) {transposed_operands} : tensor<192x1024xf8E4M3FN>, tensor<200x1024xf8E5M2>, tensor<8xi32>, tensor<192x8xf32>, tensor<200x8xf32> -> tensor<8x192x200xbf16>
  return %db : tensor<8x192x200xbf16>
}
