// Weight gradients on f32 operands, as moe-fp8-placement writes them (the GPU
// target runs them through moert_entry_grouped_weight_grad_f32 and
// moert_entry_grouped_gemm_f32: TF32 tensor cores for a bf16 output, true
// fp32 for an f32 one), each an entry of its own; group sizes come from
// write-fp8-wgrad-sizes.py (moe-runner --inputs), the other arguments are
// random.
//   wgrad_chain_blockwise: the blockwise recipe's wgrad, copied from
//       `moe-opt --moe-generate-vjp --moe-fp8-placement=recipe=blockwise` of
//       test/e2e/fp8/Inputs/qwen3-reduced.mlir (fc2: h [R, F], dy [R, H]):
//       each operand transposed to [Kd, R], quantized in 1x128 blocks (e4m3
//       for the activation, e5m2 for the gradient), dequantized to f32,
//       transposed back, then the f32 wgrad into bf16 db; 16 groups with
//       empty ones and 179 rows past the last group
//   wgrad_chain_tensorwise: the tensorwise (and delayed) recipe's wgrad of
//       fc1 (x [R, H], d(gate|up) [R, F]): one scale a tensor, no transposes
//   wgrad_f32_nk: f32 operands, weight_layout nk, an f32 db (true fp32),
//       the skewed sizes (empty groups, rows past the last group)
//   gmm_f32_nk: a grouped matmul on f32 operands (nk), bf16 c (TF32), the
//       skewed sizes: rows past the last group are zero
func.func @wgrad_chain_blockwise(%h: tensor<1024x128xbf16>, %dy: tensor<1024x256xbf16>, %sizes: tensor<16xi32> {moe.name = "sizes"}) -> tensor<16x128x256xbf16> {
  %ht_init = tensor.empty() : tensor<128x1024xbf16>
  %ht = linalg.transpose ins(%h : tensor<1024x128xbf16>) outs(%ht_init : tensor<128x1024xbf16>) permutation = [1, 0]
  %hq_init = tensor.empty() : tensor<128x1024xf8E4M3FN>
  %hs_init = tensor.empty() : tensor<128x8xf32>
  %hq, %hs = moe.quantize block_1x128 %ht outs(%hq_init, %hs_init) : tensor<128x1024xbf16> -> tensor<128x1024xf8E4M3FN>, tensor<128x8xf32>
  %hd_init = tensor.empty() : tensor<128x1024xf32>
  %hd = moe.dequantize block_1x128 %hq, %hs outs(%hd_init) : tensor<128x1024xf8E4M3FN>, tensor<128x8xf32> -> tensor<128x1024xf32>
  %a_init = tensor.empty() : tensor<1024x128xf32>
  %a = linalg.transpose ins(%hd : tensor<128x1024xf32>) outs(%a_init : tensor<1024x128xf32>) permutation = [1, 0]
  %dyt_init = tensor.empty() : tensor<256x1024xbf16>
  %dyt = linalg.transpose ins(%dy : tensor<1024x256xbf16>) outs(%dyt_init : tensor<256x1024xbf16>) permutation = [1, 0]
  %dyq_init = tensor.empty() : tensor<256x1024xf8E5M2>
  %dys_init = tensor.empty() : tensor<256x8xf32>
  %dyq, %dys = moe.quantize block_1x128 %dyt outs(%dyq_init, %dys_init) : tensor<256x1024xbf16> -> tensor<256x1024xf8E5M2>, tensor<256x8xf32>
  %dyd_init = tensor.empty() : tensor<256x1024xf32>
  %dyd = moe.dequantize block_1x128 %dyq, %dys outs(%dyd_init) : tensor<256x1024xf8E5M2>, tensor<256x8xf32> -> tensor<256x1024xf32>
  %dc_init = tensor.empty() : tensor<1024x256xf32>
  %dc = linalg.transpose ins(%dyd : tensor<256x1024xf32>) outs(%dc_init : tensor<1024x256xf32>) permutation = [1, 0]
  %db_init = tensor.empty() : tensor<16x128x256xbf16>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%db_init) : tensor<1024x128xf32>, tensor<1024x256xf32>, tensor<16xi32> -> tensor<16x128x256xbf16>
  return %db : tensor<16x128x256xbf16>
}

func.func @wgrad_chain_tensorwise(%x: tensor<1024x256xbf16>, %dgu: tensor<1024x128xbf16>, %sizes: tensor<16xi32> {moe.name = "sizes"}) -> tensor<16x256x128xbf16> {
  %xq_init = tensor.empty() : tensor<1024x256xf8E4M3FN>
  %xs_init = tensor.empty() : tensor<f32>
  %xq, %xs = moe.quantize tensorwise %x outs(%xq_init, %xs_init) : tensor<1024x256xbf16> -> tensor<1024x256xf8E4M3FN>, tensor<f32>
  %a_init = tensor.empty() : tensor<1024x256xf32>
  %a = moe.dequantize tensorwise %xq, %xs outs(%a_init) : tensor<1024x256xf8E4M3FN>, tensor<f32> -> tensor<1024x256xf32>
  %gq_init = tensor.empty() : tensor<1024x128xf8E5M2>
  %gs_init = tensor.empty() : tensor<f32>
  %gq, %gs = moe.quantize tensorwise %dgu outs(%gq_init, %gs_init) : tensor<1024x128xbf16> -> tensor<1024x128xf8E5M2>, tensor<f32>
  %dc_init = tensor.empty() : tensor<1024x128xf32>
  %dc = moe.dequantize tensorwise %gq, %gs outs(%dc_init) : tensor<1024x128xf8E5M2>, tensor<f32> -> tensor<1024x128xf32>
  %db_init = tensor.empty() : tensor<16x256x128xbf16>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%db_init) : tensor<1024x256xf32>, tensor<1024x128xf32>, tensor<16xi32> -> tensor<16x256x128xbf16>
  return %db : tensor<16x256x128xbf16>
}

func.func @wgrad_f32_nk(%a: tensor<512x128xf32>, %dc: tensor<512x192xf32>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x192x128xf32> {
  %db_init = tensor.empty() : tensor<8x192x128xf32>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%db_init) {weight_layout = #moe<weight_layout nk>} : tensor<512x128xf32>, tensor<512x192xf32>, tensor<8xi32> -> tensor<8x192x128xf32>
  return %db : tensor<8x192x128xf32>
}

func.func @gmm_f32_nk(%a: tensor<512x128xf32>, %b: tensor<8x192x128xf32>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x192xbf16> {
  %c_init = tensor.empty() : tensor<512x192xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%c_init) {weight_layout = #moe<weight_layout nk>} : tensor<512x128xf32>, tensor<8x192x128xf32>, tensor<8xi32> -> tensor<512x192xbf16>
  return %c : tensor<512x192xbf16>
}
