// moe.grouped_matmul's epilogue region (a fusion hook): round trip in custom
// and generic form, through bytecode, and through one-shot-bufferize, which
// keeps the region on the buffer form.
// RUN: moe-opt %s -split-input-file | FileCheck %s
// RUN: moe-opt %s -split-input-file --mlir-print-op-generic \
// RUN:   | moe-opt -split-input-file | FileCheck %s
// RUN: moe-opt %s -split-input-file --verify-roundtrip | FileCheck %s
// RUN: moe-opt %s -split-input-file \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | FileCheck %s --check-prefix=BUF

// Gate and up as one GEMM on [G, Kd, 2F]: the epilogue takes both halves'
// accumulators and yields SiLU(gate) · up.
// CHECK-LABEL: func.func @gated_silu(
// CHECK:       %[[H:.+]] = moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} outs(%{{.*}}) epilogue {
// CHECK-NEXT:  ^bb0(%[[G:.+]]: f32, %[[U:.+]]: f32):
// CHECK-NEXT:    %[[NEG:.+]] = arith.negf %[[G]] : f32
// CHECK-NEXT:    %[[E:.+]] = math.exp %[[NEG]] : f32
// CHECK:         %[[V:.+]] = arith.mulf %{{.*}}, %[[U]] : f32
// CHECK-NEXT:    moe.yield %[[V]] : f32
// CHECK-NEXT:  } : tensor<144x32xbf16>, tensor<8x32x96xbf16>, tensor<8xi32> -> tensor<144x48xbf16>
// BUF-LABEL:   func.func @gated_silu(
// BUF:         moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} outs(%{{.*}}) epilogue {
// BUF-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// BUF:           moe.yield %{{.*}} : f32
// BUF-NEXT:    } : memref<144x32xbf16>, memref<8x32x96xbf16>, memref<8xi32> -> memref<144x48xbf16>
func.func @gated_silu(%xs: tensor<144x32xbf16>, %w13: tensor<8x32x96xbf16>, %sizes: tensor<8xi32>) -> tensor<144x48xbf16> {
  %init = tensor.empty() : tensor<144x48xbf16>
  %h = moe.grouped_matmul %xs, %w13, %sizes outs(%init) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %neg = arith.negf %gate : f32
    %e = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %e : f32
    %silu = arith.divf %gate, %den : f32
    %v = arith.mulf %silu, %up : f32
    moe.yield %v : f32
  } : tensor<144x32xbf16>, tensor<8x32x96xbf16>, tensor<8xi32> -> tensor<144x48xbf16>
  return %h : tensor<144x48xbf16>
}

// -----

// A per-row scale (e.g. the router weight of each permuted row) and an f32
// output, weight_layout nk.
// CHECK-LABEL: func.func @row_scale_nk(
// CHECK:       moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} row_scale(%{{.*}} : tensor<144xf32>) outs(%{{.*}}) epilogue {
// CHECK-NEXT:  ^bb0(%[[ACC:.+]]: f32, %[[S:.+]]: f32):
// CHECK-NEXT:    %[[V:.+]] = arith.mulf %[[ACC]], %[[S]] : f32
// CHECK-NEXT:    moe.yield %[[V]] : f32
// CHECK-NEXT:  } {weight_layout = #moe<weight_layout nk>} : tensor<144x32xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<144x48xf32>
// BUF-LABEL:   func.func @row_scale_nk(
// BUF:         moe.grouped_matmul {{.*}} row_scale(%{{.*}} : memref<144xf32>) outs(%{{.*}}) epilogue {
func.func @row_scale_nk(%xs: tensor<144x32xbf16>, %w: tensor<8x48x32xbf16>, %sizes: tensor<8xi32>, %scale: tensor<144xf32>) -> tensor<144x48xf32> {
  %init = tensor.empty() : tensor<144x48xf32>
  %c = moe.grouped_matmul %xs, %w, %sizes row_scale(%scale : tensor<144xf32>) outs(%init) epilogue {
  ^bb0(%acc: f32, %s: f32):
    %v = arith.mulf %acc, %s : f32
    moe.yield %v : f32
  } {weight_layout = #moe<weight_layout nk>} : tensor<144x32xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<144x48xf32>
  return %c : tensor<144x48xf32>
}

// -----

// Epilogue inputs and destinations past c (the activation adjoint): the
// epilogue takes the accumulator and each input's element, and yields one
// value per destination.
// CHECK-LABEL: func.func @inputs_and_destinations(
// CHECK:       %[[C:.+]], %[[C1:.+]], %[[C2:.+]] = moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} epilogue_inputs(%{{.*}}, %{{.*}} : tensor<144x48xbf16>, tensor<144x48xf32>) outs(%{{.*}}, %{{.*}}, %{{.*}}) epilogue {
// CHECK-NEXT:  ^bb0(%[[DH:.+]]: f32, %[[G:.+]]: f32, %[[U:.+]]: f32):
// CHECK-NEXT:    %[[A:.+]] = arith.mulf %[[DH]], %[[U]] : f32
// CHECK-NEXT:    %[[B:.+]] = arith.mulf %[[DH]], %[[G]] : f32
// CHECK-NEXT:    %[[H:.+]] = arith.mulf %[[G]], %[[U]] : f32
// CHECK-NEXT:    moe.yield %[[A]], %[[B]], %[[H]] : f32, f32, f32
// CHECK-NEXT:  } {weight_layout = #moe<weight_layout nk>} : tensor<144x32xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<144x48xbf16>, tensor<144x48xf32>, tensor<144x48xbf16>
// BUF-LABEL:   func.func @inputs_and_destinations(
// BUF:         moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} epilogue_inputs(%{{.*}}, %{{.*}} : memref<144x48xbf16>, memref<144x48xf32>) outs(%{{.*}}, %{{.*}}, %{{.*}}) epilogue {
// BUF:           moe.yield %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, f32
// BUF-NEXT:    } {weight_layout = #moe<weight_layout nk>} : memref<144x32xbf16>, memref<8x48x32xbf16>, memref<8xi32> -> memref<144x48xbf16>, memref<144x48xf32>, memref<144x48xbf16>
func.func @inputs_and_destinations(%dy: tensor<144x32xbf16>, %w: tensor<8x48x32xbf16>, %sizes: tensor<8xi32>, %g: tensor<144x48xbf16>, %u: tensor<144x48xf32>) -> (tensor<144x48xbf16>, tensor<144x48xf32>, tensor<144x48xbf16>) {
  %e0 = tensor.empty() : tensor<144x48xbf16>
  %e1 = tensor.empty() : tensor<144x48xf32>
  %e2 = tensor.empty() : tensor<144x48xbf16>
  %dg, %du, %h = moe.grouped_matmul %dy, %w, %sizes epilogue_inputs(%g, %u : tensor<144x48xbf16>, tensor<144x48xf32>) outs(%e0, %e1, %e2) epilogue {
  ^bb0(%dh: f32, %gate: f32, %up: f32):
    %a = arith.mulf %dh, %up : f32
    %b = arith.mulf %dh, %gate : f32
    %hv = arith.mulf %gate, %up : f32
    moe.yield %a, %b, %hv : f32, f32, f32
  } {weight_layout = #moe<weight_layout nk>} : tensor<144x32xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<144x48xbf16>, tensor<144x48xf32>, tensor<144x48xbf16>
  return %dg, %du, %h : tensor<144x48xbf16>, tensor<144x48xf32>, tensor<144x48xbf16>
}

// -----

// Gate and up as two weights (up_weight): the epilogue takes column j's
// accumulator of each product and writes h and the two products (the
// residuals a backward saves).
// CHECK-LABEL: func.func @up_weight(
// CHECK:       %[[H:.+]], %[[G:.+]], %[[U:.+]] = moe.grouped_matmul %{{.*}}, %[[WG:.+]], %{{.*}} up_weight(%[[WU:.+]] : tensor<8x32x48xbf16>) outs(%{{.*}}, %{{.*}}, %{{.*}}) epilogue {
// CHECK-NEXT:  ^bb0(%[[GA:.+]]: f32, %[[UA:.+]]: f32):
// CHECK-NEXT:    %[[V:.+]] = arith.mulf %[[GA]], %[[UA]] : f32
// CHECK-NEXT:    moe.yield %[[V]], %[[GA]], %[[UA]] : f32, f32, f32
// CHECK-NEXT:  } : tensor<144x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>
// BUF-LABEL:   func.func @up_weight(
// BUF:         moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} up_weight(%{{.*}} : memref<8x32x48xbf16>) outs(%{{.*}}, %{{.*}}, %{{.*}}) epilogue {
// BUF:         } : memref<144x32xbf16>, memref<8x32x48xbf16>, memref<8xi32> -> memref<144x48xbf16>, memref<144x48xbf16>, memref<144x48xbf16>
func.func @up_weight(%xs: tensor<144x32xbf16>, %wg: tensor<8x32x48xbf16>, %wu: tensor<8x32x48xbf16>, %sizes: tensor<8xi32>) -> (tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>) {
  %e0 = tensor.empty() : tensor<144x48xbf16>
  %e1 = tensor.empty() : tensor<144x48xbf16>
  %e2 = tensor.empty() : tensor<144x48xbf16>
  %h, %g, %u = moe.grouped_matmul %xs, %wg, %sizes up_weight(%wu : tensor<8x32x48xbf16>) outs(%e0, %e1, %e2) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %v = arith.mulf %gate, %up : f32
    moe.yield %v, %gate, %up : f32, f32, f32
  } : tensor<144x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>
  return %h, %g, %u : tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>
}
