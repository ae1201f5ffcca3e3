// A public function whose body is two blocks (a cf.br to the return).
func.func @blocks(%x: tensor<64x32xbf16> {moe.name = "x", moe.role = "input"}) -> tensor<64x32xbf16> {
  %y = arith.addf %x, %x : tensor<64x32xbf16>
  cf.br ^exit
^exit:
  return %y : tensor<64x32xbf16>
}
