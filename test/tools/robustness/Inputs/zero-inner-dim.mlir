// A public function whose memref has a zero in an inner dimension: no bare
// pointer for it (moe-compile passes such arguments as memref<0xf32>).
func.func @z(%x: tensor<4x0xf32>) -> tensor<4x0xf32> {
  %y = arith.addf %x, %x : tensor<4x0xf32>
  return %y : tensor<4x0xf32>
}
