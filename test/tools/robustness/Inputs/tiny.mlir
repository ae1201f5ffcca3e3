// Odd but valid entries: no arguments, no results, an argument returned
// twice, unused arguments of every boundary dtype, a rank-0 result.
func.func @no_args() -> tensor<2x2xf32> {
  %c = arith.constant dense<1.5> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
func.func @no_results(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) {
  %init1 = tensor.empty() : tensor<4x4xf32>
  %l = moe.gate %x, %w outs(%init1) : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}
func.func @twice(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  return %x, %x : tensor<3xf32>, tensor<3xf32>
}
func.func @unused(%a: tensor<2xf64>, %b: tensor<2xf16>, %c: tensor<2xbf16>, %d: tensor<2xf8E4M3FN>, %e: tensor<2xf8E5M2>) -> tensor<f32> {
  %z = arith.constant dense<2.5> : tensor<f32>
  return %z : tensor<f32>
}
