// Elementwise moe ops whose forward and backward must propagate NaN alike
// (nan-propagation.test, test/gpu/nan-propagation.test). Every function has
// its operands named for moe-runner's --inputs files (Inputs/write-inputs.py
// writes them, NaN included) and its result named for the cotangent d_<name>.

func.func @glu_silu(%g: tensor<2x4xf32> {moe.name = "gate"},
                    %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %h = moe.glu silu %g, %u : tensor<2x4xf32>, tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_gelu(%g: tensor<2x4xf32> {moe.name = "gate"},
                    %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %h = moe.glu gelu %g, %u : tensor<2x4xf32>, tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_gelu_tanh(%g: tensor<2x4xf32> {moe.name = "gate"},
                         %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %h = moe.glu gelu_tanh %g, %u : tensor<2x4xf32>, tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_relu(%g: tensor<2x4xf32> {moe.name = "gate"},
                    %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %h = moe.glu relu %g, %u : tensor<2x4xf32>, tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_relu2(%g: tensor<2x4xf32> {moe.name = "gate"},
                     %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %h = moe.glu relu2 %g, %u : tensor<2x4xf32>, tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_identity(%g: tensor<2x4xf32> {moe.name = "gate"},
                        %u: tensor<2x4xf32> {moe.name = "up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %h = moe.glu identity %g, %u : tensor<2x4xf32>, tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_fused_silu(%gu: tensor<2x8xf32> {moe.name = "gate_up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %h = moe.glu silu %gu : tensor<2x8xf32>
  return %h : tensor<2x4xf32>
}

func.func @glu_fused_relu(%gu: tensor<2x8xf32> {moe.name = "gate_up"})
    -> (tensor<2x4xf32> {moe.name = "h"}) {
  %h = moe.glu relu %gu : tensor<2x8xf32>
  return %h : tensor<2x4xf32>
}

func.func @route_softmax(%l: tensor<2x4xf32> {moe.name = "logits"})
    -> (tensor<2x4xf32> {moe.name = "scores"}) {
  %s = moe.route softmax %l : tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

func.func @route_sigmoid(%l: tensor<2x4xf32> {moe.name = "logits"})
    -> (tensor<2x4xf32> {moe.name = "scores"}) {
  %s = moe.route sigmoid %l : tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

func.func @route_sqrtsoftplus(%l: tensor<2x4xf32> {moe.name = "logits"})
    -> (tensor<2x4xf32> {moe.name = "scores"}) {
  %s = moe.route sqrtsoftplus %l : tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}
