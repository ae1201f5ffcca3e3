// moe-fuse accumulate-matmuls: the sum of two grouped matmul products over
// the same group sizes (each read by the add alone) becomes the second
// matmul accumulating into the first, moved next to it; products with other readers, other
// group sizes, an epilogue, and the option turned off stay as they are.
// RUN: moe-opt %s -split-input-file --moe-fuse | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-fuse=accumulate-matmuls=false | FileCheck %s --check-prefix=OFF

// The input gradient of a gated FFN: dgate · W_gateᵀ + dup · W_upᵀ (nk).
// CHECK-LABEL: func.func @input_gradient(
// CHECK-SAME:    %[[DG:[^:]+]]: tensor<16x48xbf16>, %[[DU:[^:]+]]: tensor<16x48xbf16>, %[[WG:[^:]+]]: tensor<2x32x48xbf16>, %[[WU:[^:]+]]: tensor<2x32x48xbf16>, %[[S:[^:]+]]: tensor<2xi32>)
// CHECK:         %[[P:.*]] = moe.grouped_matmul %[[DG]], %[[WG]], %[[S]] outs(%{{.*}}) {weight_layout = #moe<weight_layout nk>}
// CHECK:         %[[SUM:.*]] = moe.grouped_matmul %[[DU]], %[[WU]], %[[S]] outs(%[[P]]) {accumulate, weight_layout = #moe<weight_layout nk>}
// CHECK-NOT:     arith.addf
// CHECK:         return %[[SUM]]
// OFF-LABEL:   func.func @input_gradient(
// OFF-COUNT-2:   moe.grouped_matmul
// OFF:           arith.addf
func.func @input_gradient(%dg: tensor<16x48xbf16>, %du: tensor<16x48xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> tensor<16x32xbf16> {
  %e0 = tensor.empty() : tensor<16x32xbf16>
  %p = moe.grouped_matmul %dg, %wg, %s outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<16x48xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x32xbf16>
  %e1 = tensor.empty() : tensor<16x32xbf16>
  %q = moe.grouped_matmul %du, %wu, %s outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<16x48xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x32xbf16>
  %sum = arith.addf %p, %q : tensor<16x32xbf16>
  return %sum : tensor<16x32xbf16>
}

// -----

// Work between the two products (as the weight gradients lie between the
// dgrad GEMMs of a backward): the first product moves down to the second,
// which accumulates into it right after, so the generated GEMM can make
// the pair one kernel.
// CHECK-LABEL: func.func @products_apart(
// CHECK-SAME:    %[[DG:[^:]+]]: tensor<16x48xbf16>, %[[DU:[^:]+]]: tensor<16x48xbf16>, %[[WG:[^:]+]]: tensor<2x32x48xbf16>, %[[WU:[^:]+]]: tensor<2x32x48xbf16>, %[[S:[^:]+]]: tensor<2xi32>)
// CHECK:         %[[WGRAD:.*]] = moe.grouped_weight_grad
// CHECK-NEXT:    %[[P:.*]] = moe.grouped_matmul %[[DU]], %[[WU]], %[[S]] outs(%{{.*}}) {weight_layout = #moe<weight_layout nk>}
// CHECK-NEXT:    %[[SUM:.*]] = moe.grouped_matmul %[[DG]], %[[WG]], %[[S]] outs(%[[P]]) {accumulate, weight_layout = #moe<weight_layout nk>}
// CHECK-NEXT:    return %[[SUM]], %[[WGRAD]]
func.func @products_apart(%dg: tensor<16x48xbf16>, %du: tensor<16x48xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> (tensor<16x32xbf16>, tensor<2x48x48xbf16>) {
  %e0 = tensor.empty() : tensor<16x32xbf16>
  %p = moe.grouped_matmul %du, %wu, %s outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<16x48xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x32xbf16>
  %e2 = tensor.empty() : tensor<2x48x48xbf16>
  %wgrad = moe.grouped_weight_grad %du, %dg, %s outs(%e2) : tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<2xi32> -> tensor<2x48x48xbf16>
  %e1 = tensor.empty() : tensor<16x32xbf16>
  %q = moe.grouped_matmul %dg, %wg, %s outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<16x48xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x32xbf16>
  %sum = arith.addf %p, %q : tensor<16x32xbf16>
  return %sum, %wgrad : tensor<16x32xbf16>, tensor<2x48x48xbf16>
}

// -----

// The first product is also returned: not fused.
// CHECK-LABEL: func.func @product_has_other_reader(
// CHECK-NOT:     accumulate
// CHECK:         arith.addf
func.func @product_has_other_reader(%a: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> (tensor<16x48xbf16>, tensor<16x48xbf16>) {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %p = moe.grouped_matmul %a, %wg, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %q = moe.grouped_matmul %a, %wu, %s outs(%e1) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %sum = arith.addf %p, %q : tensor<16x48xbf16>
  return %sum, %p : tensor<16x48xbf16>, tensor<16x48xbf16>
}

// -----

// Different group sizes: the rows of the two products are grouped
// differently, not fused.
// CHECK-LABEL: func.func @different_group_sizes(
// CHECK-NOT:     accumulate
// CHECK:         arith.addf
func.func @different_group_sizes(%a: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %t: tensor<2xi32>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %p = moe.grouped_matmul %a, %wg, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %q = moe.grouped_matmul %a, %wu, %t outs(%e1) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %sum = arith.addf %p, %q : tensor<16x48xbf16>
  return %sum : tensor<16x48xbf16>
}

// -----

// A product with an epilogue: not fused (accumulate excludes it).
// CHECK-LABEL: func.func @epilogue_product(
// CHECK-NOT:     accumulate
// CHECK:         arith.addf
func.func @epilogue_product(%a: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %p = moe.grouped_matmul %a, %wg, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %q = moe.grouped_matmul %a, %wu, %s outs(%e1) epilogue {
  ^bb0(%acc: f32):
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %sum = arith.addf %p, %q : tensor<16x48xbf16>
  return %sum : tensor<16x48xbf16>
}

// -----

// Block-scaled FP8 products (the blockwise input gradient's two dgrads):
// fused as bf16 ones, the second keeping its own scales.
// CHECK-LABEL: func.func @fp8_block_scaled(
// CHECK-SAME:    %[[DG:[^:]+]]: tensor<128x256xf8E5M2>, %[[SG:[^:]+]]: tensor<128x2xf32>, %[[DU:[^:]+]]: tensor<128x256xf8E5M2>, %[[SU:[^:]+]]: tensor<128x2xf32>, %[[WG:[^:]+]]: tensor<2x128x256xf8E4M3FN>, %[[WGS:[^:]+]]: tensor<2x1x2xf32>, %[[WU:[^:]+]]: tensor<2x128x256xf8E4M3FN>, %[[WUS:[^:]+]]: tensor<2x1x2xf32>
// CHECK:         %[[P:.*]] = moe.grouped_matmul %[[DG]], %[[WG]], %{{.*}} scales(%[[SG]], %[[WGS]])
// CHECK-NEXT:    %[[SUM:.*]] = moe.grouped_matmul %[[DU]], %[[WU]], %{{.*}} scales(%[[SU]], %[[WUS]]) outs(%[[P]]) {accumulate, weight_layout = #moe<weight_layout nk>}
// CHECK-NOT:     arith.addf
// CHECK:         return %[[SUM]]
func.func @fp8_block_scaled(%dg: tensor<128x256xf8E5M2>, %sg: tensor<128x2xf32>, %du: tensor<128x256xf8E5M2>, %su: tensor<128x2xf32>, %wg: tensor<2x128x256xf8E4M3FN>, %wgs: tensor<2x1x2xf32>, %wu: tensor<2x128x256xf8E4M3FN>, %wus: tensor<2x1x2xf32>, %s: tensor<2xi32>) -> tensor<128x128xbf16> {
  %e0 = tensor.empty() : tensor<128x128xbf16>
  %p = moe.grouped_matmul %dg, %wg, %s scales(%sg, %wgs) outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<128x256xf8E5M2>, tensor<2x128x256xf8E4M3FN>, tensor<2xi32>, tensor<128x2xf32>, tensor<2x1x2xf32> -> tensor<128x128xbf16>
  %e1 = tensor.empty() : tensor<128x128xbf16>
  %q = moe.grouped_matmul %du, %wu, %s scales(%su, %wus) outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<128x256xf8E5M2>, tensor<2x128x256xf8E4M3FN>, tensor<2xi32>, tensor<128x2xf32>, tensor<2x1x2xf32> -> tensor<128x128xbf16>
  %sum = arith.addf %p, %q : tensor<128x128xbf16>
  return %sum : tensor<128x128xbf16>
}

// -----

// Tensor-wise FP8 products (one scale each, which one kernel's
// accumulators cannot take apart) and FP8 products of different gradient
// formats: not fused.
// CHECK-LABEL: func.func @fp8_not_paired(
// CHECK-NOT:     accumulate
// CHECK:         arith.addf
// CHECK-NOT:     accumulate
// CHECK:         arith.addf
func.func @fp8_not_paired(%dg: tensor<128x256xf8E5M2>, %du: tensor<128x256xf8E5M2>, %t: tensor<f32>, %wg: tensor<2x128x256xf8E4M3FN>, %wu: tensor<2x128x256xf8E4M3FN>, %s: tensor<2xi32>, %dg4: tensor<128x256xf8E4M3FN>, %sg: tensor<128x2xf32>, %su: tensor<128x2xf32>, %ws: tensor<2x1x2xf32>) -> (tensor<128x128xbf16>, tensor<128x128xbf16>) {
  %e0 = tensor.empty() : tensor<128x128xbf16>
  %p = moe.grouped_matmul %dg, %wg, %s scales(%t, %t) outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<128x256xf8E5M2>, tensor<2x128x256xf8E4M3FN>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<128x128xbf16>
  %e1 = tensor.empty() : tensor<128x128xbf16>
  %q = moe.grouped_matmul %du, %wu, %s scales(%t, %t) outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<128x256xf8E5M2>, tensor<2x128x256xf8E4M3FN>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<128x128xbf16>
  %sum = arith.addf %p, %q : tensor<128x128xbf16>
  %e2 = tensor.empty() : tensor<128x128xbf16>
  %p2 = moe.grouped_matmul %dg4, %wg, %s scales(%sg, %ws) outs(%e2) {weight_layout = #moe<weight_layout nk>} : tensor<128x256xf8E4M3FN>, tensor<2x128x256xf8E4M3FN>, tensor<2xi32>, tensor<128x2xf32>, tensor<2x1x2xf32> -> tensor<128x128xbf16>
  %e3 = tensor.empty() : tensor<128x128xbf16>
  %q2 = moe.grouped_matmul %du, %wu, %s scales(%su, %ws) outs(%e3) {weight_layout = #moe<weight_layout nk>} : tensor<128x256xf8E5M2>, tensor<2x128x256xf8E4M3FN>, tensor<2xi32>, tensor<128x2xf32>, tensor<2x1x2xf32> -> tensor<128x128xbf16>
  %sum2 = arith.addf %p2, %q2 : tensor<128x128xbf16>
  return %sum, %sum2 : tensor<128x128xbf16>, tensor<128x128xbf16>
}

// -----

// Block-scaled FP8 products contracting over more than 4096 (mixtral-8x7b's
// dgrads, K = 14336): not fused (a pair measured slower there).
// CHECK-LABEL: func.func @fp8_long_contraction(
// CHECK-NOT:     accumulate
// CHECK:         arith.addf
func.func @fp8_long_contraction(%dg: tensor<128x8192xf8E5M2>, %sg: tensor<128x64xf32>, %du: tensor<128x8192xf8E5M2>, %su: tensor<128x64xf32>, %wg: tensor<2x128x8192xf8E4M3FN>, %wgs: tensor<2x1x64xf32>, %wu: tensor<2x128x8192xf8E4M3FN>, %wus: tensor<2x1x64xf32>, %s: tensor<2xi32>) -> tensor<128x128xbf16> {
  %e0 = tensor.empty() : tensor<128x128xbf16>
  %p = moe.grouped_matmul %dg, %wg, %s scales(%sg, %wgs) outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<128x8192xf8E5M2>, tensor<2x128x8192xf8E4M3FN>, tensor<2xi32>, tensor<128x64xf32>, tensor<2x1x64xf32> -> tensor<128x128xbf16>
  %e1 = tensor.empty() : tensor<128x128xbf16>
  %q = moe.grouped_matmul %du, %wu, %s scales(%su, %wus) outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<128x8192xf8E5M2>, tensor<2x128x8192xf8E4M3FN>, tensor<2xi32>, tensor<128x64xf32>, tensor<2x1x64xf32> -> tensor<128x128xbf16>
  %sum = arith.addf %p, %q : tensor<128x128xbf16>
  return %sum : tensor<128x128xbf16>
}

// -----

// The add in another block than the first FP8 product (which then could not
// move next to the second, and no kernel would take the second alone): not
// fused.
// CHECK-LABEL: func.func @fp8_across_blocks(
// CHECK-NOT:     accumulate
// CHECK:         arith.addf
func.func @fp8_across_blocks(%qg: tensor<256x256xf8E5M2>, %sg: tensor<256x2xf32>, %qu: tensor<256x256xf8E5M2>, %su: tensor<256x2xf32>, %wg: tensor<4x192x256xf8E4M3FN>, %wgs: tensor<4x2x2xf32>, %wu: tensor<4x192x256xf8E4M3FN>, %wus: tensor<4x2x2xf32>, %s: tensor<4xi32>, %c: i1, %z: tensor<256x192xbf16>) -> tensor<256x192xbf16> {
  %e0 = tensor.empty() : tensor<256x192xbf16>
  %p = moe.grouped_matmul %qg, %wg, %s scales(%sg, %wgs) outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<256x256xf8E5M2>, tensor<4x192x256xf8E4M3FN>, tensor<4xi32>, tensor<256x2xf32>, tensor<4x2x2xf32> -> tensor<256x192xbf16>
  %r = scf.if %c -> tensor<256x192xbf16> {
    %e1 = tensor.empty() : tensor<256x192xbf16>
    %q = moe.grouped_matmul %qu, %wu, %s scales(%su, %wus) outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<256x256xf8E5M2>, tensor<4x192x256xf8E4M3FN>, tensor<4xi32>, tensor<256x2xf32>, tensor<4x2x2xf32> -> tensor<256x192xbf16>
    %sum = arith.addf %p, %q : tensor<256x192xbf16>
    scf.yield %sum : tensor<256x192xbf16>
  } else {
    scf.yield %z : tensor<256x192xbf16>
  }
  return %r : tensor<256x192xbf16>
}
