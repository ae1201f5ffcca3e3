// moe.combine_grad at the edges of its GPU schedules: 15 pairs (not a
// multiple of the 8 pairs a block of warps takes: the last block's warps
// past them read the last pair and store nothing), rows of 264 bf16 (33
// vectors of 8: lane 0 sums two of them), and rows outside [0, 13) (-1, 13,
// INT_MAX, INT_MIN: dropped, dweights 0), row 4 named by three pairs
// (summed in (t, k) order), rows 1, 2, 3, 5, 7 and 8 named by none (zero).
func.func @combine_grad_edges(%dout: tensor<5x264xbf16>, %y: tensor<13x264xbf16>, %w: tensor<5x3xf32>) -> (tensor<13x264xbf16>, tensor<5x3xf32>) {
  %rows = arith.constant dense<[[-1, 13, 2147483647], [-2147483648, 4, -1], [6, 4, 4], [9, -1, 10], [11, 12, 0]]> : tensor<5x3xi32>
  %dy0 = tensor.empty() : tensor<13x264xbf16>
  %dw0 = tensor.empty() : tensor<5x3xf32>
  %dy, %dw = moe.combine_grad %dout, %y, %rows, %w outs(%dy0, %dw0)
      : tensor<5x264xbf16>, tensor<13x264xbf16>, tensor<5x3xi32>, tensor<5x3xf32> -> tensor<13x264xbf16>, tensor<5x3xf32>
  return %dy, %dw : tensor<13x264xbf16>, tensor<5x3xf32>
}
