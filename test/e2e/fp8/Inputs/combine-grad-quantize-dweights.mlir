// Inputs/combine-grad-quantize.mlir's chain with the combine_grad's
// dweights returned too: combine-grad-quantize.test compares every output
// of the fused GPU schedules (--fp8-combine-grad-quantize, run on the CPU)
// with the schedules apart, bit for bit (dweights included, which both sum
// per warp lane, in another order than the reference).
// Inputs from Inputs/write-quantize-inputs.py (cg_*): T = 256 tokens, K = 4,
// R = 1024 rows of 256 columns, the rows a permutation but for a dropped
// pair (-1), a pair past R and two pairs naming one row (rows no pair names
// are zero; the shared row is the reference's sum), dout with NaN, infinite
// and subnormal values, weights with zeros and negatives.
func.func @combine_grad_both_ways_dweights(
    %dout: tensor<256x256xbf16> {moe.name = "cg_dout"},
    %y: tensor<1024x256xbf16> {moe.name = "cg_y"},
    %rows: tensor<256x4xi32> {moe.name = "cg_rows"},
    %weights: tensor<256x4xf32> {moe.name = "cg_weights"})
    -> (tensor<1024x256xf8E5M2> {moe.name = "q"}, tensor<1024x2xf32> {moe.name = "scale"},
        tensor<256x1024xf8E5M2> {moe.name = "qt"}, tensor<256x8xf32> {moe.name = "scale_t"},
        tensor<256x4xf32> {moe.name = "dweights"}) {
  %dy0 = tensor.empty() : tensor<1024x256xbf16>
  %dw0 = tensor.empty() : tensor<256x4xf32>
  %dy, %dw = moe.combine_grad %dout, %y, %rows, %weights outs(%dy0, %dw0) : tensor<256x256xbf16>, tensor<1024x256xbf16>, tensor<256x4xi32>, tensor<256x4xf32> -> tensor<1024x256xbf16>, tensor<256x4xf32>
  %q0 = tensor.empty() : tensor<1024x256xf8E5M2>
  %s0 = tensor.empty() : tensor<1024x2xf32>
  %qt0 = tensor.empty() : tensor<256x1024xf8E5M2>
  %st0 = tensor.empty() : tensor<256x8xf32>
  %q, %s, %qt, %st = moe.quantize_with_transpose %dy outs(%q0, %s0, %qt0, %st0) : tensor<1024x256xbf16> -> tensor<1024x256xf8E5M2>, tensor<1024x2xf32>, tensor<256x1024xf8E5M2>, tensor<256x8xf32>
  return %q, %s, %qt, %st, %dw : tensor<1024x256xf8E5M2>, tensor<1024x2xf32>, tensor<256x1024xf8E5M2>, tensor<256x8xf32>, tensor<256x4xf32>
}
