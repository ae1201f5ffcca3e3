// moe-fuse gate-up-epilogue: a glu on the one [R, 2F] product of a gate|up
// grouped matmul becomes that matmul with act(gate) · up in its epilogue;
// a product with another reader, an accumulating product, a two-operand
// glu, an FP8 matmul and the option turned off leave the graph as it is.
// RUN: moe-opt %s -split-input-file --moe-fuse=gate-up-weights=false | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-fuse=gate-up-epilogue=false | FileCheck %s --check-prefix=OFF

// SiLU: silu(g) · u with silu as opmath writes it (g · σ(g)); weight layout
// nk is kept; h's destination becomes the fused op's.
// CHECK-LABEL: func.func @silu_nk(
// CHECK-SAME:    %[[XS:[^:]+]]: tensor<16x32xbf16>, %[[W:[^:]+]]: tensor<2x96x32xbf16>, %[[S:[^:]+]]: tensor<2xi32>)
// CHECK:         %[[H0:.*]] = tensor.empty() : tensor<16x48xbf16>
// CHECK:         %[[H:.*]] = moe.grouped_matmul %[[XS]], %[[W]], %[[S]] outs(%[[H0]]) epilogue {
// CHECK-NEXT:    ^bb0(%[[G:.*]]: f32, %[[U:.*]]: f32):
// CHECK:           math.exp
// CHECK:           %[[V:.*]] = arith.mulf %{{.*}}, %[[U]] : f32
// CHECK-NEXT:      moe.yield %[[V]] : f32
// CHECK-NEXT:    } {weight_layout = #moe<weight_layout nk>} : tensor<16x32xbf16>, tensor<2x96x32xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
// CHECK-NOT:     moe.glu
// CHECK:         return %[[H]]
// OFF-LABEL:   func.func @silu_nk(
// OFF:           moe.grouped_matmul {{.*}} -> tensor<16x96xbf16>
// OFF:           moe.glu silu
func.func @silu_nk(%xs: tensor<16x32xbf16>, %w: tensor<2x96x32xbf16>, %s: tensor<2xi32>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x96xbf16>
  %gu = moe.grouped_matmul %xs, %w, %s outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<16x32xbf16>, tensor<2x96x32xbf16>, tensor<2xi32> -> tensor<16x96xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu silu %gu outs(%e1) : tensor<16x96xbf16> -> tensor<16x48xbf16>
  return %h : tensor<16x48xbf16>
}

// -----

// relu²: the activation is relu(g)², then · u.
// CHECK-LABEL: func.func @relu2_kn(
// CHECK:         moe.grouped_matmul {{.*}} epilogue {
// CHECK-NEXT:    ^bb0(%[[G:.*]]: f32, %[[U:.*]]: f32):
// CHECK:           arith.maximumf
// CHECK:           arith.mulf
// CHECK:           %[[V:.*]] = arith.mulf %{{.*}}, %[[U]] : f32
// CHECK-NEXT:      moe.yield %[[V]] : f32
// CHECK-NEXT:    } : tensor<16x32xbf16>, tensor<2x32x96xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
func.func @relu2_kn(%xs: tensor<16x32xbf16>, %w: tensor<2x32x96xbf16>, %s: tensor<2xi32>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x96xbf16>
  %gu = moe.grouped_matmul %xs, %w, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x96xbf16>, tensor<2xi32> -> tensor<16x96xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu relu2 %gu outs(%e1) : tensor<16x96xbf16> -> tensor<16x48xbf16>
  return %h : tensor<16x48xbf16>
}

// -----

// The product is also returned (a residual of the backward): not fused.
// CHECK-LABEL: func.func @product_has_other_reader(
// CHECK:         %[[GU:.*]] = moe.grouped_matmul {{.*}} -> tensor<16x96xbf16>
// CHECK-NOT:     epilogue
// CHECK:         %[[H:.*]] = moe.glu silu %[[GU]]
// CHECK:         return %[[H]], %[[GU]]
func.func @product_has_other_reader(%xs: tensor<16x32xbf16>, %w: tensor<2x32x96xbf16>, %s: tensor<2xi32>) -> (tensor<16x48xbf16>, tensor<16x96xbf16>) {
  %e0 = tensor.empty() : tensor<16x96xbf16>
  %gu = moe.grouped_matmul %xs, %w, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x96xbf16>, tensor<2xi32> -> tensor<16x96xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu silu %gu outs(%e1) : tensor<16x96xbf16> -> tensor<16x48xbf16>
  return %h, %gu : tensor<16x48xbf16>, tensor<16x96xbf16>
}

// -----

// The product accumulates into a destination (c = c0 + xs · w): an
// epilogue excludes `accumulate`, so folding the glu would drop c0; not
// fused.
// CHECK-LABEL: func.func @accumulating_product(
// CHECK:         %[[GU:.*]] = moe.grouped_matmul {{.*}} {accumulate} : {{.*}} -> tensor<16x96xbf16>
// CHECK-NOT:     epilogue
// CHECK:         moe.glu silu %[[GU]]
func.func @accumulating_product(%xs: tensor<16x32xbf16>, %w: tensor<2x32x96xbf16>, %s: tensor<2xi32>, %c0: tensor<16x96xbf16>) -> tensor<16x48xbf16> {
  %gu = moe.grouped_matmul %xs, %w, %s outs(%c0) {accumulate} : tensor<16x32xbf16>, tensor<2x32x96xbf16>, tensor<2xi32> -> tensor<16x96xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu silu %gu outs(%e1) : tensor<16x96xbf16> -> tensor<16x48xbf16>
  return %h : tensor<16x48xbf16>
}

// -----

// Gate and up from two matmuls (two weights): not this fusion, but
// gate-up-weights' (fuse-gate-up-weights.mlir), turned off here.
// CHECK-LABEL: func.func @separate_gate_and_up(
// CHECK-COUNT-2: moe.grouped_matmul
// CHECK-NOT:     epilogue
// CHECK:         moe.glu silu
func.func @separate_gate_and_up(%xs: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %g = moe.grouped_matmul %xs, %wg, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %u = moe.grouped_matmul %xs, %wu, %s outs(%e1) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e2 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu silu %g, %u outs(%e2) : tensor<16x48xbf16>, tensor<16x48xbf16> -> tensor<16x48xbf16>
  return %h : tensor<16x48xbf16>
}
