func.func @scaled(%a: tensor<2x3xbf16> {moe.name = "activations"},
                  %s: tensor<3x4xf32> {moe.name = "proj", moe.role = "weight"})
    -> (tensor<2x4xf32> {moe.name = "logits"}) {
  %l = moe.gate %a, %s : tensor<2x3xbf16>, tensor<3x4xf32>
  return %l : tensor<2x4xf32>
}
