// Grouped matmuls that convert-grouped-matmul-to-nvgpu generates kernels for
// on sm_90a, each an entry of its own; group sizes come from
// write-group-sizes.py (moe-runner --inputs), a and b are random.
//   balanced:       4 groups of 128 rows; N = 192 is not a multiple of the
//                   128-column tile (the second column tile is half outside)
//   skewed_empty:   8 groups with empty ones, sizes not multiples of the
//                   64-row tile, 106 rows past the last group (zero)
//   one_group:      every row in group 2, the others empty
//   f32_out:        the skewed sizes with an f32 output
//   large_groups:   2 groups of 700 and 324 rows (R / G >= 256: 128-row tiles)
//   many_groups:    300 groups (more than the kernel's 256 threads: the
//                   size scan takes two entries a thread), sizes 0..12
func.func @balanced(%a: tensor<512x128xbf16>, %b: tensor<4x128x192xbf16>, %sizes: tensor<4xi32> {moe.name = "sizes"}) -> tensor<512x192xbf16> {
  %e = tensor.empty() : tensor<512x192xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<512x128xbf16>, tensor<4x128x192xbf16>, tensor<4xi32> -> tensor<512x192xbf16>
  return %c : tensor<512x192xbf16>
}
func.func @skewed_empty(%a: tensor<512x64xbf16>, %b: tensor<8x64x256xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x256xbf16> {
  %e = tensor.empty() : tensor<512x256xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<512x64xbf16>, tensor<8x64x256xbf16>, tensor<8xi32> -> tensor<512x256xbf16>
  return %c : tensor<512x256xbf16>
}
func.func @one_group(%a: tensor<512x192xbf16>, %b: tensor<4x192x128xbf16>, %sizes: tensor<4xi32> {moe.name = "sizes"}) -> tensor<512x128xbf16> {
  %e = tensor.empty() : tensor<512x128xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<512x192xbf16>, tensor<4x192x128xbf16>, tensor<4xi32> -> tensor<512x128xbf16>
  return %c : tensor<512x128xbf16>
}
func.func @f32_out(%a: tensor<512x64xbf16>, %b: tensor<8x64x256xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x256xf32> {
  %e = tensor.empty() : tensor<512x256xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<512x64xbf16>, tensor<8x64x256xbf16>, tensor<8xi32> -> tensor<512x256xf32>
  return %c : tensor<512x256xf32>
}
func.func @large_groups(%a: tensor<1024x256xbf16>, %b: tensor<2x256x384xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> tensor<1024x384xbf16> {
  %e = tensor.empty() : tensor<1024x384xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<1024x256xbf16>, tensor<2x256x384xbf16>, tensor<2xi32> -> tensor<1024x384xbf16>
  return %c : tensor<1024x384xbf16>
}
func.func @many_groups(%a: tensor<2048x64xbf16>, %b: tensor<300x64x64xbf16>, %sizes: tensor<300xi32> {moe.name = "sizes"}) -> tensor<2048x64xbf16> {
  %e = tensor.empty() : tensor<2048x64xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<2048x64xbf16>, tensor<300x64x64xbf16>, tensor<300xi32> -> tensor<2048x64xbf16>
  return %c : tensor<2048x64xbf16>
}
