// moe-fuse generated-kernels-only (moe-lower-to-gpu with gemm=auto): both
// fusions apply only to grouped matmuls that gemm=auto gives a generated
// kernel (32 or more groups); with fewer groups the matmuls stay with
// cuBLASLt, where an epilogue or accumulate costs an f32 product buffer,
// and are left alone. Without the option every grouped matmul is fused.
// RUN: moe-opt %s -split-input-file --moe-fuse=generated-kernels-only | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-fuse | FileCheck %s --check-prefix=ALL

// 32 groups: the gate|up product gets the activation in its epilogue.
// CHECK-LABEL: func.func @gate_up_32_groups(
// CHECK:         moe.grouped_matmul {{.*}} epilogue {
// CHECK-NOT:     moe.glu
// ALL-LABEL:   func.func @gate_up_32_groups(
// ALL:           epilogue
func.func @gate_up_32_groups(%xs: tensor<64x32xbf16>, %w: tensor<32x32x96xbf16>, %s: tensor<32xi32>) -> tensor<64x48xbf16> {
  %e0 = tensor.empty() : tensor<64x96xbf16>
  %gu = moe.grouped_matmul %xs, %w, %s outs(%e0) : tensor<64x32xbf16>, tensor<32x32x96xbf16>, tensor<32xi32> -> tensor<64x96xbf16>
  %e1 = tensor.empty() : tensor<64x48xbf16>
  %h = moe.glu silu %gu outs(%e1) : tensor<64x96xbf16> -> tensor<64x48xbf16>
  return %h : tensor<64x48xbf16>
}

// -----

// 8 groups: left alone.
// CHECK-LABEL: func.func @gate_up_8_groups(
// CHECK-NOT:     epilogue
// CHECK:         moe.glu silu
// ALL-LABEL:   func.func @gate_up_8_groups(
// ALL:           epilogue
// ALL-NOT:       moe.glu
func.func @gate_up_8_groups(%xs: tensor<64x32xbf16>, %w: tensor<8x32x96xbf16>, %s: tensor<8xi32>) -> tensor<64x48xbf16> {
  %e0 = tensor.empty() : tensor<64x96xbf16>
  %gu = moe.grouped_matmul %xs, %w, %s outs(%e0) : tensor<64x32xbf16>, tensor<8x32x96xbf16>, tensor<8xi32> -> tensor<64x96xbf16>
  %e1 = tensor.empty() : tensor<64x48xbf16>
  %h = moe.glu silu %gu outs(%e1) : tensor<64x96xbf16> -> tensor<64x48xbf16>
  return %h : tensor<64x48xbf16>
}

// -----

// The input gradient of a gated FFN with 64 groups: accumulated.
// CHECK-LABEL: func.func @input_gradient_64_groups(
// CHECK:         %[[P:.*]] = moe.grouped_matmul
// CHECK:         moe.grouped_matmul {{.*}} outs(%[[P]]) {accumulate,
// CHECK-NOT:     arith.addf
func.func @input_gradient_64_groups(%dg: tensor<64x48xbf16>, %du: tensor<64x48xbf16>, %wg: tensor<64x32x48xbf16>, %wu: tensor<64x32x48xbf16>, %s: tensor<64xi32>) -> tensor<64x32xbf16> {
  %e0 = tensor.empty() : tensor<64x32xbf16>
  %p = moe.grouped_matmul %dg, %wg, %s outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<64x48xbf16>, tensor<64x32x48xbf16>, tensor<64xi32> -> tensor<64x32xbf16>
  %e1 = tensor.empty() : tensor<64x32xbf16>
  %q = moe.grouped_matmul %du, %wu, %s outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<64x48xbf16>, tensor<64x32x48xbf16>, tensor<64xi32> -> tensor<64x32xbf16>
  %sum = arith.addf %p, %q : tensor<64x32xbf16>
  return %sum : tensor<64x32xbf16>
}

// -----

// The same with 8 groups: the sum stays.
// CHECK-LABEL: func.func @input_gradient_8_groups(
// CHECK-NOT:     accumulate
// CHECK:         arith.addf
// ALL-LABEL:   func.func @input_gradient_8_groups(
// ALL:           accumulate
// ALL-NOT:       arith.addf
func.func @input_gradient_8_groups(%dg: tensor<64x48xbf16>, %du: tensor<64x48xbf16>, %wg: tensor<8x32x48xbf16>, %wu: tensor<8x32x48xbf16>, %s: tensor<8xi32>) -> tensor<64x32xbf16> {
  %e0 = tensor.empty() : tensor<64x32xbf16>
  %p = moe.grouped_matmul %dg, %wg, %s outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<64x48xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<64x32xbf16>
  %e1 = tensor.empty() : tensor<64x32xbf16>
  %q = moe.grouped_matmul %du, %wu, %s outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<64x48xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<64x32xbf16>
  %sum = arith.addf %p, %q : tensor<64x32xbf16>
  return %sum : tensor<64x32xbf16>
}
