// moe-fuse gate-up-weights: a glu on the products of two grouped matmuls of
// the same rows (gate and up weights apart) becomes one grouped matmul on
// both weights (up_weight) with act(gate) · up in its epilogue. With
// gate-up-weights-residuals, a product something else reads (a residual of
// the backward) becomes an extra destination of that epilogue; without it
// such products stay. Products of different rows, a product read before
// the glu, FP8 products and the option turned off leave the graph as it is.
// RUN: moe-opt %s -split-input-file --moe-fuse=gate-up-weights-residuals=true | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-fuse | FileCheck %s --check-prefix=DEFAULT
// RUN: moe-opt %s -split-input-file --moe-fuse=gate-up-weights=false | FileCheck %s --check-prefix=OFF

// Inference: nothing else reads gate or up, so the epilogue writes h alone
// and neither product is stored.
// CHECK-LABEL: func.func @inference(
// CHECK-SAME:    %[[XS:[^:]+]]: tensor<16x32xbf16>, %[[WG:[^:]+]]: tensor<2x32x48xbf16>, %[[WU:[^:]+]]: tensor<2x32x48xbf16>, %[[S:[^:]+]]: tensor<2xi32>)
// CHECK:         %[[H0:.*]] = tensor.empty() : tensor<16x48xbf16>
// CHECK:         %[[H:.*]] = moe.grouped_matmul %[[XS]], %[[WG]], %[[S]] up_weight(%[[WU]] : tensor<2x32x48xbf16>) outs(%[[H0]]) epilogue {
// CHECK-NEXT:    ^bb0(%[[G:.*]]: f32, %[[U:.*]]: f32):
// CHECK:           math.exp
// CHECK:           %[[V:.*]] = arith.mulf %{{.*}}, %[[U]] : f32
// CHECK-NEXT:      moe.yield %[[V]] : f32
// CHECK-NEXT:    } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
// CHECK-NOT:     moe.grouped_matmul
// CHECK-NOT:     moe.glu
// CHECK:         return %[[H]]
// DEFAULT-LABEL: func.func @inference(
// DEFAULT:         up_weight(
// OFF-LABEL:   func.func @inference(
// OFF-COUNT-2:   moe.grouped_matmul {{.*}} -> tensor<16x48xbf16>
// OFF:           moe.glu silu
func.func @inference(%xs: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %g = moe.grouped_matmul %xs, %wg, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %u = moe.grouped_matmul %xs, %wu, %s outs(%e1) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e2 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu silu %g, %u outs(%e2) : tensor<16x48xbf16>, tensor<16x48xbf16> -> tensor<16x48xbf16>
  return %h : tensor<16x48xbf16>
}

// -----

// Training (moe-generate-vjp's residuals): both products are returned, so
// the epilogue writes them too, in the order gate, up, each into its own
// product's destination; weight layout nk is kept. Not by default.
// DEFAULT-LABEL: func.func @residuals_nk(
// DEFAULT-COUNT-2: moe.grouped_matmul
// DEFAULT-NOT:     up_weight
// DEFAULT:         moe.glu relu2
// CHECK-LABEL: func.func @residuals_nk(
// CHECK-SAME:    %[[XS:[^:]+]]: tensor<16x32xbf16>, %[[WG:[^:]+]]: tensor<2x48x32xbf16>, %[[WU:[^:]+]]: tensor<2x48x32xbf16>, %[[S:[^:]+]]: tensor<2xi32>)
// CHECK:         %[[G0:.*]] = tensor.empty() : tensor<16x48xbf16>
// CHECK:         %[[U0:.*]] = tensor.empty() : tensor<16x48xbf16>
// CHECK:         %[[H0:.*]] = tensor.empty() : tensor<16x48xbf16>
// CHECK:         %[[F0:.*]], %[[F1:.*]], %[[F2:.*]] = moe.grouped_matmul %[[XS]], %[[WG]], %[[S]] up_weight(%[[WU]] : tensor<2x48x32xbf16>) outs(%[[H0]], %[[G0]], %[[U0]]) epilogue {
// CHECK-NEXT:    ^bb0(%[[G:.*]]: f32, %[[U:.*]]: f32):
// CHECK:           arith.maximumf
// CHECK:           %[[V:.*]] = arith.mulf %{{.*}}, %[[U]] : f32
// CHECK-NEXT:      moe.yield %[[V]], %[[G]], %[[U]] : f32, f32, f32
// CHECK-NEXT:    } {weight_layout = #moe<weight_layout nk>} : tensor<16x32xbf16>, tensor<2x48x32xbf16>, tensor<2xi32> -> tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<16x48xbf16>
// CHECK-NOT:     moe.glu
// CHECK:         return %[[F0]], %[[F1]], %[[F2]]
func.func @residuals_nk(%xs: tensor<16x32xbf16>, %wg: tensor<2x48x32xbf16>, %wu: tensor<2x48x32xbf16>, %s: tensor<2xi32>) -> (tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<16x48xbf16>) {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %g = moe.grouped_matmul %xs, %wg, %s outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<16x32xbf16>, tensor<2x48x32xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %u = moe.grouped_matmul %xs, %wu, %s outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<16x32xbf16>, tensor<2x48x32xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e2 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu relu2 %g, %u outs(%e2) : tensor<16x48xbf16>, tensor<16x48xbf16> -> tensor<16x48xbf16>
  return %h, %g, %u : tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<16x48xbf16>
}

// -----

// Only up has another reader: the epilogue writes h and up.
// CHECK-LABEL: func.func @up_saved(
// CHECK:         %[[F0:.*]], %[[F1:.*]] = moe.grouped_matmul {{.*}} up_weight({{.*}}) outs({{.*}}) epilogue {
// CHECK-NEXT:    ^bb0(%[[G:.*]]: f32, %[[U:.*]]: f32):
// CHECK:           moe.yield %{{.*}}, %[[U]] : f32, f32
// CHECK:         return %[[F0]], %[[F1]]
func.func @up_saved(%xs: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> (tensor<16x48xbf16>, tensor<16x48xbf16>) {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %g = moe.grouped_matmul %xs, %wg, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %u = moe.grouped_matmul %xs, %wu, %s outs(%e1) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e2 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu gelu %g, %u outs(%e2) : tensor<16x48xbf16>, tensor<16x48xbf16> -> tensor<16x48xbf16>
  return %h, %u : tensor<16x48xbf16>, tensor<16x48xbf16>
}

// -----

// Gate and up of different rows: not one product.
// CHECK-LABEL: func.func @different_rows(
// CHECK-COUNT-2: moe.grouped_matmul
// CHECK-NOT:     up_weight
// CHECK:         moe.glu silu
func.func @different_rows(%xs: tensor<16x32xbf16>, %ys: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %g = moe.grouped_matmul %xs, %wg, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %u = moe.grouped_matmul %ys, %wu, %s outs(%e1) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e2 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu silu %g, %u outs(%e2) : tensor<16x48xbf16>, tensor<16x48xbf16> -> tensor<16x48xbf16>
  return %h : tensor<16x48xbf16>
}

// -----

// The gate product is read before the glu: the fused op would run too late.
// CHECK-LABEL: func.func @read_before_glu(
// CHECK-COUNT-2: moe.grouped_matmul
// CHECK-NOT:     up_weight
// CHECK:         moe.glu silu
func.func @read_before_glu(%xs: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> (tensor<16x48xbf16>, tensor<16x24xbf16>) {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %g = moe.grouped_matmul %xs, %wg, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e3 = tensor.empty() : tensor<16x24xbf16>
  %g2 = moe.glu relu2 %g outs(%e3) : tensor<16x48xbf16> -> tensor<16x24xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %u = moe.grouped_matmul %xs, %wu, %s outs(%e1) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e2 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu silu %g, %u outs(%e2) : tensor<16x48xbf16>, tensor<16x48xbf16> -> tensor<16x48xbf16>
  return %h, %g2 : tensor<16x48xbf16>, tensor<16x24xbf16>
}

// -----

// FP8 products (tensor-wise scales): left to the FP8 path.
// CHECK-LABEL: func.func @fp8(
// CHECK-COUNT-2: moe.grouped_matmul {{.*}} scales
// CHECK-NOT:     up_weight
// CHECK:         moe.glu silu
func.func @fp8(%xs: tensor<16x32xf8E4M3FN>, %wg: tensor<2x48x32xf8E4M3FN>, %wu: tensor<2x48x32xf8E4M3FN>, %s: tensor<2xi32>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %g = moe.grouped_matmul %xs, %wg, %s scales(%sa, %sb) outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<16x32xf8E4M3FN>, tensor<2x48x32xf8E4M3FN>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %u = moe.grouped_matmul %xs, %wu, %s scales(%sa, %sb) outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<16x32xf8E4M3FN>, tensor<2x48x32xf8E4M3FN>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<16x48xbf16>
  %e2 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu silu %g, %u outs(%e2) : tensor<16x48xbf16>, tensor<16x48xbf16> -> tensor<16x48xbf16>
  return %h : tensor<16x48xbf16>
}
