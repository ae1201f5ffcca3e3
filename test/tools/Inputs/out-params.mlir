// Entries whose results are computed in place, copied from an argument, and
// returned twice (moe-compile.test, OUTPARAMS).
func.func @allocated(%a: tensor<2x3xbf16>, %s: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %init1 = tensor.empty() : tensor<2x4xf32>
  %l = moe.gate %a, %s outs(%init1) : tensor<2x3xbf16>, tensor<3x4xf32> -> tensor<2x4xf32>
  return %l : tensor<2x4xf32>
}
func.func @passthrough(%a: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  return %a : tensor<2x3xbf16>
}
func.func @twice(%a: tensor<2x3xbf16>, %s: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %init2 = tensor.empty() : tensor<2x4xf32>
  %l = moe.gate %a, %s outs(%init2) : tensor<2x3xbf16>, tensor<3x4xf32> -> tensor<2x4xf32>
  return %l, %l : tensor<2x4xf32>, tensor<2x4xf32>
}
