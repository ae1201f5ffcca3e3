func.func @f(%x: tensor<2xf32> {moe.name = 3 : i64}) -> tensor<2xf32> {
  %y = arith.addf %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
