// FP8 grouped matmuls (moe.grouped_matmul with scales) for the generated
// Hopper kernel (FP8 wgmma on K-major operands), each an entry of its own: a
// and b come in as random bf16 and are quantized in the entry (the same
// quantization on both targets), group sizes from write-fp8-group-sizes.py.
//   tw_kn: tensorwise e4m3, kn weight (transposed to [G, N, K] first), skewed sizes
//   tw_nk_e5m2_f32: tensorwise, a e5m2 (a gradient) x b e4m3, nk, f32 output
//   bw_kn: blockwise (a 1x128, b 128x128 blocks), kn, skewed sizes
//   bw_nk_large: blockwise, nk, groups of 700 and 324 rows (128-row tiles, two consumers)
//   bw_nk_n200_e5m2: blockwise, a e5m2, nk, N = 200: a partial last scale block and a
//                   column tile half past N
//   bw_many_groups: blockwise, 64 groups of 0..20 rows, f32 output
func.func @tw_kn(%a: tensor<1024x256xbf16>, %b: tensor<8x256x384xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<1024x384xbf16> {
  %qa0 = tensor.empty() : tensor<1024x256xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<f32>
  %qa, %sa = moe.quantize tensorwise %a outs(%qa0, %sa0) : tensor<1024x256xbf16> -> tensor<1024x256xf8E4M3FN>, tensor<f32>
  %qb0 = tensor.empty() : tensor<8x256x384xf8E4M3FN>
  %sb0 = tensor.empty() : tensor<f32>
  %qb, %sb = moe.quantize tensorwise %b outs(%qb0, %sb0) : tensor<8x256x384xbf16> -> tensor<8x256x384xf8E4M3FN>, tensor<f32>
  %e = tensor.empty() : tensor<1024x384xbf16>
  %c = moe.grouped_matmul %qa, %qb, %sizes scales(%sa, %sb) outs(%e) : tensor<1024x256xf8E4M3FN>, tensor<8x256x384xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32> -> tensor<1024x384xbf16>
  return %c : tensor<1024x384xbf16>
}
func.func @tw_nk_e5m2_f32(%a: tensor<1024x256xbf16>, %b: tensor<8x384x256xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<1024x384xf32> {
  %qa0 = tensor.empty() : tensor<1024x256xf8E5M2>
  %sa0 = tensor.empty() : tensor<f32>
  %qa, %sa = moe.quantize tensorwise %a outs(%qa0, %sa0) : tensor<1024x256xbf16> -> tensor<1024x256xf8E5M2>, tensor<f32>
  %qb0 = tensor.empty() : tensor<8x384x256xf8E4M3FN>
  %sb0 = tensor.empty() : tensor<f32>
  %qb, %sb = moe.quantize tensorwise %b outs(%qb0, %sb0) : tensor<8x384x256xbf16> -> tensor<8x384x256xf8E4M3FN>, tensor<f32>
  %e = tensor.empty() : tensor<1024x384xf32>
  %c = moe.grouped_matmul %qa, %qb, %sizes scales(%sa, %sb) outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<1024x256xf8E5M2>, tensor<8x384x256xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32> -> tensor<1024x384xf32>
  return %c : tensor<1024x384xf32>
}
func.func @bw_kn(%a: tensor<1024x256xbf16>, %b: tensor<8x256x384xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<1024x384xbf16> {
  %qa0 = tensor.empty() : tensor<1024x256xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<1024x2xf32>
  %qa, %sa = moe.quantize block_1x128 %a outs(%qa0, %sa0) : tensor<1024x256xbf16> -> tensor<1024x256xf8E4M3FN>, tensor<1024x2xf32>
  %qb0 = tensor.empty() : tensor<8x256x384xf8E4M3FN>
  %sb0 = tensor.empty() : tensor<8x2x3xf32>
  %qb, %sb = moe.quantize block_128x128 %b outs(%qb0, %sb0) : tensor<8x256x384xbf16> -> tensor<8x256x384xf8E4M3FN>, tensor<8x2x3xf32>
  %e = tensor.empty() : tensor<1024x384xbf16>
  %c = moe.grouped_matmul %qa, %qb, %sizes scales(%sa, %sb) outs(%e) : tensor<1024x256xf8E4M3FN>, tensor<8x256x384xf8E4M3FN>, tensor<8xi32>, tensor<1024x2xf32>, tensor<8x2x3xf32> -> tensor<1024x384xbf16>
  return %c : tensor<1024x384xbf16>
}
func.func @bw_nk_large(%a: tensor<1024x512xbf16>, %b: tensor<4x256x512xbf16>, %sizes: tensor<4xi32> {moe.name = "sizes"}) -> tensor<1024x256xbf16> {
  %qa0 = tensor.empty() : tensor<1024x512xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<1024x4xf32>
  %qa, %sa = moe.quantize block_1x128 %a outs(%qa0, %sa0) : tensor<1024x512xbf16> -> tensor<1024x512xf8E4M3FN>, tensor<1024x4xf32>
  %qb0 = tensor.empty() : tensor<4x256x512xf8E4M3FN>
  %sb0 = tensor.empty() : tensor<4x2x4xf32>
  %qb, %sb = moe.quantize block_128x128 %b outs(%qb0, %sb0) : tensor<4x256x512xbf16> -> tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>
  %e = tensor.empty() : tensor<1024x256xbf16>
  %c = moe.grouped_matmul %qa, %qb, %sizes scales(%sa, %sb) outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<1024x512xf8E4M3FN>, tensor<4x256x512xf8E4M3FN>, tensor<4xi32>, tensor<1024x4xf32>, tensor<4x2x4xf32> -> tensor<1024x256xbf16>
  return %c : tensor<1024x256xbf16>
}
func.func @bw_nk_n200_e5m2(%a: tensor<1024x256xbf16>, %b: tensor<8x200x256xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<1024x200xbf16> {
  %qa0 = tensor.empty() : tensor<1024x256xf8E5M2>
  %sa0 = tensor.empty() : tensor<1024x2xf32>
  %qa, %sa = moe.quantize block_1x128 %a outs(%qa0, %sa0) : tensor<1024x256xbf16> -> tensor<1024x256xf8E5M2>, tensor<1024x2xf32>
  %qb0 = tensor.empty() : tensor<8x200x256xf8E4M3FN>
  %sb0 = tensor.empty() : tensor<8x2x2xf32>
  %qb, %sb = moe.quantize block_128x128 %b outs(%qb0, %sb0) : tensor<8x200x256xbf16> -> tensor<8x200x256xf8E4M3FN>, tensor<8x2x2xf32>
  %e = tensor.empty() : tensor<1024x200xbf16>
  %c = moe.grouped_matmul %qa, %qb, %sizes scales(%sa, %sb) outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<1024x256xf8E5M2>, tensor<8x200x256xf8E4M3FN>, tensor<8xi32>, tensor<1024x2xf32>, tensor<8x2x2xf32> -> tensor<1024x200xbf16>
  return %c : tensor<1024x200xbf16>
}
func.func @bw_many_groups(%a: tensor<1024x128xbf16>, %b: tensor<64x128x256xbf16>, %sizes: tensor<64xi32> {moe.name = "sizes"}) -> tensor<1024x256xf32> {
  %qa0 = tensor.empty() : tensor<1024x128xf8E4M3FN>
  %sa0 = tensor.empty() : tensor<1024x1xf32>
  %qa, %sa = moe.quantize block_1x128 %a outs(%qa0, %sa0) : tensor<1024x128xbf16> -> tensor<1024x128xf8E4M3FN>, tensor<1024x1xf32>
  %qb0 = tensor.empty() : tensor<64x128x256xf8E4M3FN>
  %sb0 = tensor.empty() : tensor<64x1x2xf32>
  %qb, %sb = moe.quantize block_128x128 %b outs(%qb0, %sb0) : tensor<64x128x256xbf16> -> tensor<64x128x256xf8E4M3FN>, tensor<64x1x2xf32>
  %e = tensor.empty() : tensor<1024x256xf32>
  %c = moe.grouped_matmul %qa, %qb, %sizes scales(%sa, %sb) outs(%e) : tensor<1024x128xf8E4M3FN>, tensor<64x128x256xf8E4M3FN>, tensor<64xi32>, tensor<1024x1xf32>, tensor<64x1x2xf32> -> tensor<1024x256xf32>
  return %c : tensor<1024x256xf32>
}
