// moe.glu → moe.quantize block_1x128 chains, the FP8 forward's fc2 input:
// with --fp8-glu-quantize the GPU schedules compute the glu inside the
// quantize's row-block schedule (convert-moe-to-parallel-loops
// {fuse-glu-quantize}); the FP8 codes and scales must be the reference's
// bit for bit. Random inputs (moe-runner's seed): silu on two bf16 operands
// with whole 128-column blocks (F = 768, qwen3-30b-a3b's), gelu on gate|up
// side by side, and relu2 on f32 with a partial last block (200 columns).
func.func @glu_silu_quantize(%g: tensor<256x768xbf16>, %u: tensor<256x768xbf16>) -> (tensor<256x768xf8E4M3FN>, tensor<256x6xf32>) {
  %e0 = tensor.empty() : tensor<256x768xbf16>
  %h = moe.glu silu %g, %u outs(%e0) : tensor<256x768xbf16>, tensor<256x768xbf16> -> tensor<256x768xbf16>
  %e1 = tensor.empty() : tensor<256x768xf8E4M3FN>
  %e2 = tensor.empty() : tensor<256x6xf32>
  %q, %s = moe.quantize block_1x128 %h outs(%e1, %e2) : tensor<256x768xbf16> -> tensor<256x768xf8E4M3FN>, tensor<256x6xf32>
  return %q, %s : tensor<256x768xf8E4M3FN>, tensor<256x6xf32>
}

func.func @glu_gelu_concatenated_quantize(%gu: tensor<64x768xbf16>) -> (tensor<64x384xf8E4M3FN>, tensor<64x3xf32>) {
  %e0 = tensor.empty() : tensor<64x384xbf16>
  %h = moe.glu gelu %gu outs(%e0) : tensor<64x768xbf16> -> tensor<64x384xbf16>
  %e1 = tensor.empty() : tensor<64x384xf8E4M3FN>
  %e2 = tensor.empty() : tensor<64x3xf32>
  %q, %s = moe.quantize block_1x128 %h outs(%e1, %e2) : tensor<64x384xbf16> -> tensor<64x384xf8E4M3FN>, tensor<64x3xf32>
  return %q, %s : tensor<64x384xf8E4M3FN>, tensor<64x3xf32>
}

func.func @glu_relu2_partial_block_e5m2(%g: tensor<32x200xf32>, %u: tensor<32x200xf32>) -> (tensor<32x200xf8E5M2>, tensor<32x2xf32>) {
  %e0 = tensor.empty() : tensor<32x200xf32>
  %h = moe.glu relu2 %g, %u outs(%e0) : tensor<32x200xf32>, tensor<32x200xf32> -> tensor<32x200xf32>
  %e1 = tensor.empty() : tensor<32x200xf8E5M2>
  %e2 = tensor.empty() : tensor<32x2xf32>
  %q, %s = moe.quantize block_1x128 %h outs(%e1, %e2) : tensor<32x200xf32> -> tensor<32x200xf8E5M2>, tensor<32x2xf32>
  return %q, %s : tensor<32x200xf8E5M2>, tensor<32x2xf32>
}
