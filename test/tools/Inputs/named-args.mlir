func.func @scaled(%a: tensor<2x3xbf16> {moe.name = "activations"},
                  %s: tensor<3x4xf32> {moe.name = "proj", moe.role = "weight"})
    -> (tensor<2x4xf32> {moe.name = "logits"}) {
  %init1 = tensor.empty() : tensor<2x4xf32>
  %l = moe.gate %a, %s outs(%init1) : tensor<2x3xbf16>, tensor<3x4xf32> -> tensor<2x4xf32>
  return %l : tensor<2x4xf32>
}
