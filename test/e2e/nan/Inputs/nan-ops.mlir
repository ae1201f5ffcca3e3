// Elementwise moe ops whose forward and backward must propagate NaN alike
// (nan-propagation.test, test/gpu/nan-propagation.test). Every function has
// its operands named for moe-runner's --inputs files (Inputs/write-inputs.py
// writes them, NaN included) and its result named for the cotangent d_<name>.

func.func @glu_silu(%g: tensor<2x4xf32> {moe.name = "gate"},
                    %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %init10 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu silu %g, %u outs(%init10) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_gelu(%g: tensor<2x4xf32> {moe.name = "gate"},
                    %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %init11 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu gelu %g, %u outs(%init11) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_gelu_tanh(%g: tensor<2x4xf32> {moe.name = "gate"},
                         %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %init12 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu gelu_tanh %g, %u outs(%init12) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_relu(%g: tensor<2x4xf32> {moe.name = "gate"},
                    %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %init13 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu relu %g, %u outs(%init13) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_relu2(%g: tensor<2x4xf32> {moe.name = "gate"},
                     %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %init14 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu relu2 %g, %u outs(%init14) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_identity(%g: tensor<2x4xf32> {moe.name = "gate"},
                        %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %init15 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu identity %g, %u outs(%init15) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_fused_silu(%gu: tensor<2x8xf32> {moe.name = "gate_up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %init16 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu silu %gu outs(%init16) : tensor<2x8xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_fused_relu(%gu: tensor<2x8xf32> {moe.name = "gate_up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %init17 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu relu %gu outs(%init17) : tensor<2x8xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @route_softmax(%l: tensor<2x4xf32> {moe.name = "logits"})
    -> (tensor<2x4xf32> {moe.name = "scores"}) {
  %init18 = tensor.empty() : tensor<2x4xf32>
  %s = moe.route softmax %l outs(%init18) : tensor<2x4xf32> -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

func.func @route_sigmoid(%l: tensor<2x4xf32> {moe.name = "logits"})
    -> (tensor<2x4xf32> {moe.name = "scores"}) {
  %init19 = tensor.empty() : tensor<2x4xf32>
  %s = moe.route sigmoid %l outs(%init19) : tensor<2x4xf32> -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

func.func @route_sqrtsoftplus(%l: tensor<2x4xf32> {moe.name = "logits"})
    -> (tensor<2x4xf32> {moe.name = "scores"}) {
  %init20 = tensor.empty() : tensor<2x4xf32>
  %s = moe.route sqrtsoftplus %l outs(%init20) : tensor<2x4xf32> -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}
