// RUN: moe-opt %s -split-input-file --moe-generate-vjp | FileCheck %s --check-prefixes=CHECK,BWD
// RUN: moe-opt %s -split-input-file --one-shot-bufferize=bufferize-function-boundaries --convert-moe-to-loops | FileCheck %s --check-prefixes=CHECK,FWD

// moe.glu's adjoint recomputes act(gate) for dup = dh · act(gate) with the
// very ops the forward lowering computes h = act(gate) · up with (OpMath.h's
// buildActivation): the CHECK lines below match both the adjoint's
// linalg.generic (BWD) and the forward's loop body (FWD). The adjoint's
// act'(gate) propagates NaN as act does.

// silu: x / (1 + e^-x), not x · σ(x).
// BWD-LABEL: func.func @glu_silu_bwd
// FWD-LABEL: func.func @glu_silu(
// CHECK:      %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.+]] = arith.negf %[[X:[a-z0-9_]+]] : f32
// CHECK-NEXT: %[[EXP:.+]] = math.exp %[[NEG]] : f32
// CHECK-NEXT: %[[DEN:.+]] = arith.addf %[[ONE]], %[[EXP]] : f32
// CHECK-NEXT: %[[ACT:.+]] = arith.divf %[[X]], %[[DEN]] : f32
// FWD-NEXT:   arith.mulf %[[ACT]], %{{.+}} : f32
// BWD:        %[[DUP:.+]] = arith.mulf %{{.+}}, %[[ACT]] : f32
// BWD-NEXT:   linalg.yield %{{.+}}, %[[DUP]] : f32, f32
func.func @glu_silu(%g: tensor<2x4xf32>, %u: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %init5 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu silu %g, %u outs(%init5) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

// -----

// gelu: 0.5 · x · erfc(-x/√2), not 0.5 · x · (1 + erf(x/√2)).
// BWD-LABEL: func.func @glu_gelu_bwd
// FWD-LABEL: func.func @glu_gelu(
// CHECK:      %[[C:.+]] = arith.constant -0.707106769 : f32
// CHECK-NEXT: %[[S:.+]] = arith.mulf %[[X:[a-z0-9_]+]], %[[C]] : f32
// CHECK-NEXT: %[[CDF2:.+]] = math.erfc %[[S]] : f32
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[HX:.+]] = arith.mulf %[[HALF]], %[[X]] : f32
// CHECK-NEXT: %[[ACT:.+]] = arith.mulf %[[HX]], %[[CDF2]] : f32
// FWD-NEXT:   arith.mulf %[[ACT]], %{{.+}} : f32
// BWD-NOT:    math.erf %
// BWD:        %[[DUP:.+]] = arith.mulf %{{.+}}, %[[ACT]] : f32
// BWD-NEXT:   linalg.yield %{{.+}}, %[[DUP]] : f32, f32
func.func @glu_gelu(%g: tensor<2x4xf32>, %u: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %init6 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu gelu %g, %u outs(%init6) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

// -----

// gelu_tanh: x / (1 + e^(-2u)), u = √(2/π)(x + 0.044715 x³), not
// 0.5 · x · (1 + tanh u).
// BWD-LABEL: func.func @glu_gelu_tanh_bwd
// FWD-LABEL: func.func @glu_gelu_tanh(
// CHECK:      %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[X2:.+]] = arith.mulf %[[X:[a-z0-9_]+]], %[[X]] : f32
// CHECK-NEXT: %[[X3:.+]] = arith.mulf %[[X2]], %[[X]] : f32
// CHECK-NEXT: %[[A:.+]] = arith.constant 4.471500e-02 : f32
// CHECK-NEXT: %[[AX3:.+]] = arith.mulf %[[A]], %[[X3]] : f32
// CHECK-NEXT: %[[INNER:.+]] = arith.addf %[[X]], %[[AX3]] : f32
// CHECK-NEXT: %[[K:.+]] = arith.constant -1.59576917 : f32
// CHECK-NEXT: %[[ARG:.+]] = arith.mulf %[[K]], %[[INNER]] : f32
// CHECK-NEXT: %[[EXP:.+]] = math.exp %[[ARG]] : f32
// CHECK-NEXT: %[[DEN:.+]] = arith.addf %[[ONE]], %[[EXP]] : f32
// CHECK-NEXT: %[[ACT:.+]] = arith.divf %[[X]], %[[DEN]] : f32
// FWD-NEXT:   arith.mulf %[[ACT]], %{{.+}} : f32
// BWD-NOT:    math.tanh
// BWD:        %[[DUP:.+]] = arith.mulf %{{.+}}, %[[ACT]] : f32
// BWD-NEXT:   linalg.yield %{{.+}}, %[[DUP]] : f32, f32
func.func @glu_gelu_tanh(%g: tensor<2x4xf32>, %u: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %init7 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu gelu_tanh %g, %u outs(%init7) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

// -----

// relu: maximumf (NaN stays NaN), not cmpf + select (NaN → 0); act'(x) is 1
// above 0, 0 else, and x itself where x is NaN.
// BWD-LABEL: func.func @glu_relu_bwd
// FWD-LABEL: func.func @glu_relu(
// CHECK:      %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[ACT:.+]] = arith.maximumf %[[X:[a-z0-9_]+]], %[[ZERO]] : f32
// FWD-NEXT:   arith.mulf %[[ACT]], %{{.+}} : f32
// BWD:        %[[POS:.+]] = arith.cmpf ogt, %[[X]], %{{.+}} : f32
// BWD-NEXT:   %{{.+}} = arith.constant 1.000000e+00 : f32
// BWD-NEXT:   %[[STEP:.+]] = arith.select %[[POS]], %{{.+}}, %{{.+}} : f32
// BWD-NEXT:   %[[NAN:.+]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// BWD-NEXT:   %[[DACT:.+]] = arith.select %[[NAN]], %[[X]], %[[STEP]] : f32
// BWD-NEXT:   %[[UD:.+]] = arith.mulf %{{.+}}, %[[DACT]] : f32
// BWD-NEXT:   %[[DGATE:.+]] = arith.mulf %{{.+}}, %[[UD]] : f32
// BWD-NEXT:   %[[DUP:.+]] = arith.mulf %{{.+}}, %[[ACT]] : f32
// BWD-NEXT:   linalg.yield %[[DGATE]], %[[DUP]] : f32, f32
func.func @glu_relu(%g: tensor<2x4xf32>, %u: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %init8 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu relu %g, %u outs(%init8) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}

// -----

// relu2: maximumf(x, 0)²; act'(x) = 2 · maximumf(x, 0).
// BWD-LABEL: func.func @glu_relu2_bwd
// FWD-LABEL: func.func @glu_relu2(
// CHECK:      %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.maximumf %[[X:[a-z0-9_]+]], %[[ZERO]] : f32
// CHECK-NEXT: %[[ACT:.+]] = arith.mulf %[[R]], %[[R]] : f32
// FWD-NEXT:   arith.mulf %[[ACT]], %{{.+}} : f32
// BWD-NEXT:   %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
// BWD-NEXT:   %[[ZERO2:.+]] = arith.constant 0.000000e+00 : f32
// BWD-NEXT:   %[[R2:.+]] = arith.maximumf %[[X]], %[[ZERO2]] : f32
// BWD-NEXT:   %[[DACT:.+]] = arith.mulf %[[TWO]], %[[R2]] : f32
// BWD:        %[[DUP:.+]] = arith.mulf %{{.+}}, %[[ACT]] : f32
// BWD-NEXT:   linalg.yield %{{.+}}, %[[DUP]] : f32, f32
func.func @glu_relu2(%g: tensor<2x4xf32>, %u: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %init9 = tensor.empty() : tensor<2x4xf32>
  %h = moe.glu relu2 %g, %u outs(%init9) : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %h : tensor<2x4xf32>
}
