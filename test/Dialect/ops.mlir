// Round trip of every moe op: custom form -> custom form, and custom form ->
// generic form -> custom form, against the same CHECK lines. GENERIC checks
// a few generic forms (properties, default values, operand segments);
// --verify-roundtrip also round-trips every case through bytecode.
//
// RUN: moe-opt %s -split-input-file | FileCheck %s
// RUN: moe-opt %s -split-input-file --mlir-print-op-generic \
// RUN:   | moe-opt -split-input-file | FileCheck %s
// RUN: moe-opt %s -split-input-file --mlir-print-op-generic \
// RUN:   | FileCheck %s --check-prefix=GENERIC
// RUN: moe-opt %s -split-input-file --verify-roundtrip | FileCheck %s

// CHECK-LABEL: func.func @gate(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<32x8xf32>) -> tensor<64x8xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.gate %[[ARG0]], %[[ARG1]] : tensor<64x32xbf16>, tensor<32x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<64x8xf32>
func.func @gate(%x: tensor<64x32xbf16>, %w: tensor<32x8xf32>) -> tensor<64x8xf32> {
  %0 = moe.gate %x, %w : tensor<64x32xbf16>, tensor<32x8xf32>
  return %0 : tensor<64x8xf32>
}

// -----

// CHECK-LABEL: func.func @gate_f16_f32_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x32xf16>, %[[ARG1:[a-z0-9_]+]]: tensor<32x?xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<64x32xf32>) -> (tensor<?x?xf32>, tensor<64x?xf32>)
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.gate %[[ARG0]], %[[ARG1]] : tensor<?x32xf16>, tensor<32x?xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.gate %[[ARG2]], %[[ARG1]] : tensor<64x32xf32>, tensor<32x?xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<?x?xf32>, tensor<64x?xf32>
func.func @gate_f16_f32_dynamic(%x: tensor<?x32xf16>, %w: tensor<32x?xf32>, %x2: tensor<64x32xf32>) -> (tensor<?x?xf32>, tensor<64x?xf32>) {
  %0 = moe.gate %x, %w : tensor<?x32xf16>, tensor<32x?xf32>
  %1 = moe.gate %x2, %w : tensor<64x32xf32>, tensor<32x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<64x?xf32>
}

// -----

// CHECK-LABEL: func.func @route(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>) -> (tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>)
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.route softmax %[[ARG0]] : tensor<64x8xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.route sigmoid %[[ARG0]] : tensor<64x8xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.route sqrtsoftplus %[[ARG0]] : tensor<64x8xf32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = moe.route identity %[[ARG0]] : tensor<64x8xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]] : tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>
func.func @route(%l: tensor<64x8xf32>) -> (tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>) {
  %0 = moe.route softmax %l : tensor<64x8xf32>
  %1 = moe.route sigmoid %l : tensor<64x8xf32>
  %2 = moe.route sqrtsoftplus %l : tensor<64x8xf32>
  %3 = moe.route identity %l : tensor<64x8xf32>
  return %0, %1, %2, %3 : tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>
}

// -----

// CHECK-LABEL: func.func @route_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.route softmax %[[ARG0]] : tensor<?x?xf32>
// CHECK-NEXT: return %[[V0]] : tensor<?x?xf32>
func.func @route_dynamic(%l: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = moe.route softmax %l : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @topk_plain(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>) -> (tensor<64x2xf32>, tensor<64x2xi32>)
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk softmax %[[ARG0]] k 2 : tensor<64x8xf32>
// CHECK-NEXT: return %[[WEIGHTS]], %[[INDICES]] : tensor<64x2xf32>, tensor<64x2xi32>
// Defaults are materialized in the generic form and elided in the custom form.
// GENERIC-LABEL: sym_name = "topk_plain"
// GENERIC: "moe.topk"(%{{.*}}) <{group_score = #moe<group_score top_sum>, group_topk = 1 : i64, k = 2 : i64, normalize = #moe<normalize none>, num_groups = 1 : i64, scaling_factor = 1.000000e+00 : f64, score_function = #moe<score_function softmax>}> : (tensor<64x8xf32>) -> (tensor<64x2xf32>, tensor<64x2xi32>)
func.func @topk_plain(%s: tensor<64x8xf32>) -> (tensor<64x2xf32>, tensor<64x2xi32>) {
  %w, %i = moe.topk softmax %s k 2 : tensor<64x8xf32>
  return %w, %i : tensor<64x2xf32>, tensor<64x2xi32>
}

// -----

// CHECK-LABEL: func.func @topk_bias(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8xf32>) -> (tensor<64x4xf32>, tensor<64x4xi32>)
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk sigmoid %[[ARG0]] bias %[[ARG1]] k 4 {normalize = #moe<normalize sum>, scaling_factor = 2.500000e+00 : f64} : tensor<64x8xf32>, tensor<8xf32>
// CHECK-NEXT: return %[[WEIGHTS]], %[[INDICES]] : tensor<64x4xf32>, tensor<64x4xi32>
func.func @topk_bias(%s: tensor<64x8xf32>, %b: tensor<8xf32>) -> (tensor<64x4xf32>, tensor<64x4xi32>) {
  %w, %i = moe.topk sigmoid %s bias %b k 4 {normalize = #moe<normalize sum>, scaling_factor = 2.500000e+00 : f64} : tensor<64x8xf32>, tensor<8xf32>
  return %w, %i : tensor<64x4xf32>, tensor<64x4xi32>
}

// -----

// CHECK-LABEL: func.func @topk_sqrtsoftplus_bias_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x16xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<16xf32>) -> (tensor<?x1xf32>, tensor<?x1xi32>)
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk sqrtsoftplus %[[ARG0]] bias %[[ARG1]] k 1 : tensor<?x16xf32>, tensor<16xf32>
// CHECK-NEXT: return %[[WEIGHTS]], %[[INDICES]] : tensor<?x1xf32>, tensor<?x1xi32>
func.func @topk_sqrtsoftplus_bias_dynamic(%s: tensor<?x16xf32>, %b: tensor<16xf32>) -> (tensor<?x1xf32>, tensor<?x1xi32>) {
  %w, %i = moe.topk sqrtsoftplus %s bias %b k 1 : tensor<?x16xf32>, tensor<16xf32>
  return %w, %i : tensor<?x1xf32>, tensor<?x1xi32>
}

// -----

// CHECK-LABEL: func.func @topk_group_limited(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x256xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<256xf32>) -> (tensor<64x8xf32>, tensor<64x8xi32>)
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk sigmoid %[[ARG0]] bias %[[ARG1]] k 8 {group_score_topq = 2 : i64, group_topk = 4 : i64, normalize = #moe<normalize sum>, num_groups = 8 : i64, scaling_factor = 2.500000e+00 : f64} : tensor<64x256xf32>, tensor<256xf32>
// CHECK-NEXT: return %[[WEIGHTS]], %[[INDICES]] : tensor<64x8xf32>, tensor<64x8xi32>
func.func @topk_group_limited(%s: tensor<64x256xf32>, %b: tensor<256xf32>) -> (tensor<64x8xf32>, tensor<64x8xi32>) {
  %w, %i = moe.topk sigmoid %s bias %b k 8 {group_score_topq = 2 : i64, group_topk = 4 : i64, normalize = #moe<normalize sum>, num_groups = 8 : i64, scaling_factor = 2.500000e+00 : f64} : tensor<64x256xf32>, tensor<256xf32>
  return %w, %i : tensor<64x8xf32>, tensor<64x8xi32>
}

// -----

// CHECK-LABEL: func.func @topk_group_max_post_softmax(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x16xf32>) -> (tensor<64x4xf32>, tensor<64x4xi32>)
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.route identity %[[ARG0]] : tensor<64x16xf32>
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk identity %[[V0]] k 4 {group_score = #moe<group_score max>, group_topk = 2 : i64, normalize = #moe<normalize softmax>, num_groups = 4 : i64} : tensor<64x16xf32>
// CHECK-NEXT: return %[[WEIGHTS]], %[[INDICES]] : tensor<64x4xf32>, tensor<64x4xi32>
func.func @topk_group_max_post_softmax(%l: tensor<64x16xf32>) -> (tensor<64x4xf32>, tensor<64x4xi32>) {
  %s = moe.route identity %l : tensor<64x16xf32>
  %w, %i = moe.topk identity %s k 4 {group_score = #moe<group_score max>, group_topk = 2 : i64, normalize = #moe<normalize softmax>, num_groups = 4 : i64} : tensor<64x16xf32>
  return %w, %i : tensor<64x4xf32>, tensor<64x4xi32>
}

// -----

// CHECK-LABEL: func.func @aux_loss_batch(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>) -> tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.aux_loss batch %[[ARG0]], %[[ARG1]] from softmax coeff 1.000000e-02 : tensor<64x8xf32>, tensor<64x2xi32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
func.func @aux_loss_batch(%s: tensor<64x8xf32>, %i: tensor<64x2xi32>) -> tensor<f32> {
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 : tensor<64x8xf32>, tensor<64x2xi32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @aux_loss_sequence(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>) -> tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.aux_loss sequence %[[ARG0]], %[[ARG1]] from sigmoid coeff 1.000000e-03 {seq_length = 16 : i64} : tensor<64x8xf32>, tensor<64x2xi32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
func.func @aux_loss_sequence(%s: tensor<64x8xf32>, %i: tensor<64x2xi32>) -> tensor<f32> {
  %0 = moe.aux_loss sequence %s, %i from sigmoid coeff 1.000000e-03 {seq_length = 16 : i64} : tensor<64x8xf32>, tensor<64x2xi32>
  return %0 : tensor<f32>
}

// -----

// CHECK: shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @aux_loss_global(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>) -> tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.aux_loss global %[[ARG0]], %[[ARG1]] from sqrtsoftplus coeff 1.000000e-02 {grid = @g, grid_axes = array<i64: 0, 1>} : tensor<64x8xf32>, tensor<64x2xi32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
shard.grid @g(shape = 2x4)
func.func @aux_loss_global(%s: tensor<64x8xf32>, %i: tensor<64x2xi32>) -> tensor<f32> {
  %0 = moe.aux_loss global %s, %i from sqrtsoftplus coeff 1.000000e-02 {grid = @g, grid_axes = array<i64: 0, 1>} : tensor<64x8xf32>, tensor<64x2xi32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @aux_loss_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x?xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<?x?xi32>) -> tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.aux_loss sequence %[[ARG0]], %[[ARG1]] from softmax coeff 0.000000e+00 {seq_length = 128 : i64} : tensor<?x?xf32>, tensor<?x?xi32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
func.func @aux_loss_dynamic(%s: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<f32> {
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 0.000000e+00 {seq_length = 128 : i64} : tensor<?x?xf32>, tensor<?x?xi32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @z_loss(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>) -> tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.z_loss %[[ARG0]] coeff 1.000000e-03 : tensor<64x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
func.func @z_loss(%l: tensor<64x8xf32>) -> tensor<f32> {
  %0 = moe.z_loss %l coeff 1.000000e-03 : tensor<64x8xf32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @expert_bias_update(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi64>, %[[ARG3:[a-z0-9_]+]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.expert_bias_update %[[ARG0]], %[[ARG1]] rate 1.000000e-03 : tensor<8xf32>, tensor<8xi32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.expert_bias_update %[[V0]], %[[ARG2]] rate 0.000000e+00 : tensor<8xf32>, tensor<8xi64>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.expert_bias_update %[[V1]], %[[ARG3]] rate 5.000000e-02 : tensor<8xf32>, tensor<8xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
func.func @expert_bias_update(%b: tensor<8xf32>, %c32: tensor<8xi32>, %c64: tensor<8xi64>, %cf: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = moe.expert_bias_update %b, %c32 rate 1.000000e-03 : tensor<8xf32>, tensor<8xi32>
  %1 = moe.expert_bias_update %0, %c64 rate 0.000000e+00 : tensor<8xf32>, tensor<8xi64>
  %2 = moe.expert_bias_update %1, %cf rate 5.000000e-02 : tensor<8xf32>, tensor<8xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @permute_align1(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>) -> (tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>)
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[ARG1]] experts 8 align 1 : tensor<64x32xbf16>, tensor<64x2xi32>
// CHECK-NEXT: return %[[PERMUTED]], %[[GROUP_SIZES]], %[[ROWS]] : tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
func.func @permute_align1(%x: tensor<64x32xbf16>, %i: tensor<64x2xi32>) -> (tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>) {
  %xs, %sizes, %rows = moe.permute %x, %i experts 8 align 1 : tensor<64x32xbf16>, tensor<64x2xi32>
  return %xs, %sizes, %rows : tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
}

// -----

// CHECK-LABEL: func.func @permute_align16(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>) -> (tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>)
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[ARG1]] experts 8 align 16 : tensor<64x32xbf16>, tensor<64x2xi32>
// CHECK-NEXT: return %[[PERMUTED]], %[[GROUP_SIZES]], %[[ROWS]] : tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
func.func @permute_align16(%x: tensor<64x32xbf16>, %i: tensor<64x2xi32>) -> (tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>) {
  %xs, %sizes, %rows = moe.permute %x, %i experts 8 align 16 : tensor<64x32xbf16>, tensor<64x2xi32>
  return %xs, %sizes, %rows : tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
}

// -----

// CHECK-LABEL: func.func @permute_dynamic_tokens(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x32xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<?x4xi32>) -> (tensor<?x32xf32>, tensor<16xi32>, tensor<?x4xi32>)
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[ARG1]] experts 16 align 128 : tensor<?x32xf32>, tensor<?x4xi32>
// CHECK-NEXT: return %[[PERMUTED]], %[[GROUP_SIZES]], %[[ROWS]] : tensor<?x32xf32>, tensor<16xi32>, tensor<?x4xi32>
func.func @permute_dynamic_tokens(%x: tensor<?x32xf32>, %i: tensor<?x4xi32>) -> (tensor<?x32xf32>, tensor<16xi32>, tensor<?x4xi32>) {
  %xs, %sizes, %rows = moe.permute %x, %i experts 16 align 128 : tensor<?x32xf32>, tensor<?x4xi32>
  return %xs, %sizes, %rows : tensor<?x32xf32>, tensor<16xi32>, tensor<?x4xi32>
}

// -----

// CHECK-LABEL: func.func @permute_fp8(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<4x2xi32>) -> tensor<68x256xf8E4M3FN>
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[ARG1]] experts 4 align 16 : tensor<4x256xf8E4M3FN>, tensor<4x2xi32>
// CHECK-NEXT: return %[[PERMUTED]] : tensor<68x256xf8E4M3FN>
func.func @permute_fp8(%x: tensor<4x256xf8E4M3FN>, %i: tensor<4x2xi32>) -> tensor<68x256xf8E4M3FN> {
  %xs, %sizes, %rows = moe.permute %x, %i experts 4 align 16 : tensor<4x256xf8E4M3FN>, tensor<4x2xi32>
  return %xs : tensor<68x256xf8E4M3FN>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_kn(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<8x32x48xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>) -> tensor<144x48xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] : (tensor<144x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32>) -> tensor<144x48xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<144x48xbf16>
// GENERIC-LABEL: sym_name = "grouped_matmul_kn"
// GENERIC: "moe.grouped_matmul"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, weight_layout = #moe<weight_layout kn>}> : (tensor<144x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32>) -> tensor<144x48xbf16>
func.func @grouped_matmul_kn(%a: tensor<144x32xbf16>, %b: tensor<8x32x48xbf16>, %s: tensor<8xi32>) -> tensor<144x48xbf16> {
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<144x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32>) -> tensor<144x48xbf16>
  return %0 : tensor<144x48xbf16>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_nk(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<8x48x32xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>) -> tensor<144x48xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] {weight_layout = #moe<weight_layout nk>} : (tensor<144x32xbf16>, tensor<8x48x32xbf16>, tensor<8xi32>) -> tensor<144x48xf32>
// CHECK-NEXT: return %[[V0]] : tensor<144x48xf32>
func.func @grouped_matmul_nk(%a: tensor<144x32xbf16>, %b: tensor<8x48x32xbf16>, %s: tensor<8xi32>) -> tensor<144x48xf32> {
  %0 = moe.grouped_matmul %a, %b, %s {weight_layout = #moe<weight_layout nk>} : (tensor<144x32xbf16>, tensor<8x48x32xbf16>, tensor<8xi32>) -> tensor<144x48xf32>
  return %0 : tensor<144x48xf32>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x?xf16>, %[[ARG1:[a-z0-9_]+]]: tensor<?x?x?xf16>, %[[ARG2:[a-z0-9_]+]]: tensor<?xi32>) -> tensor<?x?xf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] : (tensor<?x?xf16>, tensor<?x?x?xf16>, tensor<?xi32>) -> tensor<?x?xf16>
// CHECK-NEXT: return %[[V0]] : tensor<?x?xf16>
func.func @grouped_matmul_dynamic(%a: tensor<?x?xf16>, %b: tensor<?x?x?xf16>, %s: tensor<?xi32>) -> tensor<?x?xf16> {
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<?x?xf16>, tensor<?x?x?xf16>, tensor<?xi32>) -> tensor<?x?xf16>
  return %0 : tensor<?x?xf16>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_fp8_tensorwise(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<8x256x512xf8E4M3FN>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<f32>, %[[ARG4:[a-z0-9_]+]]: tensor<f32>) -> tensor<144x512xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) : (tensor<144x256xf8E4M3FN>, tensor<8x256x512xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32>) -> tensor<144x512xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<144x512xbf16>
// GENERIC-LABEL: sym_name = "grouped_matmul_fp8_tensorwise"
// GENERIC: "moe.grouped_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, weight_layout = #moe<weight_layout kn>}>
func.func @grouped_matmul_fp8_tensorwise(%a: tensor<144x256xf8E4M3FN>, %b: tensor<8x256x512xf8E4M3FN>, %s: tensor<8xi32>, %as: tensor<f32>, %bs: tensor<f32>) -> tensor<144x512xbf16> {
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) : (tensor<144x256xf8E4M3FN>, tensor<8x256x512xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32>) -> tensor<144x512xbf16>
  return %0 : tensor<144x512xbf16>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_fp8_e5m2_e4m3(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf8E5M2>, %[[ARG1:[a-z0-9_]+]]: tensor<8x256x512xf8E4M3FN>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<f32>, %[[ARG4:[a-z0-9_]+]]: tensor<f32>) -> tensor<144x512xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) : (tensor<144x256xf8E5M2>, tensor<8x256x512xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32>) -> tensor<144x512xf32>
// CHECK-NEXT: return %[[V0]] : tensor<144x512xf32>
func.func @grouped_matmul_fp8_e5m2_e4m3(%a: tensor<144x256xf8E5M2>, %b: tensor<8x256x512xf8E4M3FN>, %s: tensor<8xi32>, %as: tensor<f32>, %bs: tensor<f32>) -> tensor<144x512xf32> {
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) : (tensor<144x256xf8E5M2>, tensor<8x256x512xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32>) -> tensor<144x512xf32>
  return %0 : tensor<144x512xf32>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_fp8_block_kn(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<8x256x320xf8E4M3FN>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<144x2xf32>, %[[ARG4:[a-z0-9_]+]]: tensor<8x2x3xf32>) -> tensor<144x320xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) : (tensor<144x256xf8E4M3FN>, tensor<8x256x320xf8E4M3FN>, tensor<8xi32>, tensor<144x2xf32>, tensor<8x2x3xf32>) -> tensor<144x320xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<144x320xbf16>
func.func @grouped_matmul_fp8_block_kn(%a: tensor<144x256xf8E4M3FN>, %b: tensor<8x256x320xf8E4M3FN>, %s: tensor<8xi32>, %as: tensor<144x2xf32>, %bs: tensor<8x2x3xf32>) -> tensor<144x320xbf16> {
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) : (tensor<144x256xf8E4M3FN>, tensor<8x256x320xf8E4M3FN>, tensor<8xi32>, tensor<144x2xf32>, tensor<8x2x3xf32>) -> tensor<144x320xbf16>
  return %0 : tensor<144x320xbf16>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_fp8_block_nk(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<8x320x256xf8E4M3FN>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<144x2xf32>, %[[ARG4:[a-z0-9_]+]]: tensor<8x3x2xf32>) -> tensor<144x320xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) {weight_layout = #moe<weight_layout nk>} : (tensor<144x256xf8E4M3FN>, tensor<8x320x256xf8E4M3FN>, tensor<8xi32>, tensor<144x2xf32>, tensor<8x3x2xf32>) -> tensor<144x320xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<144x320xbf16>
func.func @grouped_matmul_fp8_block_nk(%a: tensor<144x256xf8E4M3FN>, %b: tensor<8x320x256xf8E4M3FN>, %s: tensor<8xi32>, %as: tensor<144x2xf32>, %bs: tensor<8x3x2xf32>) -> tensor<144x320xbf16> {
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) {weight_layout = #moe<weight_layout nk>} : (tensor<144x256xf8E4M3FN>, tensor<8x320x256xf8E4M3FN>, tensor<8xi32>, tensor<144x2xf32>, tensor<8x3x2xf32>) -> tensor<144x320xbf16>
  return %0 : tensor<144x320xbf16>
}

// -----

// CHECK-LABEL: func.func @grouped_weight_grad_kn(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<144x48xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>) -> tensor<8x32x48xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_weight_grad %[[ARG0]], %[[ARG1]], %[[ARG2]] : (tensor<144x32xbf16>, tensor<144x48xbf16>, tensor<8xi32>) -> tensor<8x32x48xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x32x48xf32>
func.func @grouped_weight_grad_kn(%a: tensor<144x32xbf16>, %dc: tensor<144x48xbf16>, %s: tensor<8xi32>) -> tensor<8x32x48xf32> {
  %0 = moe.grouped_weight_grad %a, %dc, %s : (tensor<144x32xbf16>, tensor<144x48xbf16>, tensor<8xi32>) -> tensor<8x32x48xf32>
  return %0 : tensor<8x32x48xf32>
}

// -----

// CHECK-LABEL: func.func @grouped_weight_grad_nk(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<144x48xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>) -> tensor<8x48x32xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_weight_grad %[[ARG0]], %[[ARG1]], %[[ARG2]] {weight_layout = #moe<weight_layout nk>} : (tensor<144x32xbf16>, tensor<144x48xbf16>, tensor<8xi32>) -> tensor<8x48x32xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<8x48x32xbf16>
func.func @grouped_weight_grad_nk(%a: tensor<144x32xbf16>, %dc: tensor<144x48xbf16>, %s: tensor<8xi32>) -> tensor<8x48x32xbf16> {
  %0 = moe.grouped_weight_grad %a, %dc, %s {weight_layout = #moe<weight_layout nk>} : (tensor<144x32xbf16>, tensor<144x48xbf16>, tensor<8xi32>) -> tensor<8x48x32xbf16>
  return %0 : tensor<8x48x32xbf16>
}

// -----

// CHECK-LABEL: func.func @glu_two_operands(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x48xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<144x48xbf16>) -> (tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>)
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.glu silu %[[ARG0]], %[[ARG1]] : tensor<144x48xbf16>, tensor<144x48xbf16>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.glu gelu %[[ARG0]], %[[ARG1]] : tensor<144x48xbf16>, tensor<144x48xbf16>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.glu identity %[[ARG0]], %[[ARG1]] : tensor<144x48xbf16>, tensor<144x48xbf16>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>
func.func @glu_two_operands(%g: tensor<144x48xbf16>, %u: tensor<144x48xbf16>) -> (tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>) {
  %0 = moe.glu silu %g, %u : tensor<144x48xbf16>, tensor<144x48xbf16>
  %1 = moe.glu gelu %g, %u : tensor<144x48xbf16>, tensor<144x48xbf16>
  %2 = moe.glu identity %g, %u : tensor<144x48xbf16>, tensor<144x48xbf16>
  return %0, %1, %2 : tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>
}

// -----

// CHECK-LABEL: func.func @glu_fused(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x96xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<?x?xf16>) -> (tensor<144x48xf32>, tensor<144x48xf32>, tensor<144x48xf32>, tensor<?x?xf16>)
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.glu gelu_tanh %[[ARG0]] : tensor<144x96xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.glu relu %[[ARG0]] : tensor<144x96xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.glu relu2 %[[ARG0]] : tensor<144x96xf32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = moe.glu silu %[[ARG1]] : tensor<?x?xf16>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]] : tensor<144x48xf32>, tensor<144x48xf32>, tensor<144x48xf32>, tensor<?x?xf16>
func.func @glu_fused(%gu: tensor<144x96xf32>, %d: tensor<?x?xf16>) -> (tensor<144x48xf32>, tensor<144x48xf32>, tensor<144x48xf32>, tensor<?x?xf16>) {
  %0 = moe.glu gelu_tanh %gu : tensor<144x96xf32>
  %1 = moe.glu relu %gu : tensor<144x96xf32>
  %2 = moe.glu relu2 %gu : tensor<144x96xf32>
  %3 = moe.glu silu %d : tensor<?x?xf16>
  return %0, %1, %2, %3 : tensor<144x48xf32>, tensor<144x48xf32>, tensor<144x48xf32>, tensor<?x?xf16>
}

// -----

// CHECK: shard.grid @ep(shape = 4)
// CHECK-LABEL: func.func @all_to_all(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<512x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<4xi32>) -> (tensor<1024x32xbf16>, tensor<4xi32>)
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[RECV_SIZES:[a-z0-9_]+]] = moe.all_to_all %[[ARG0]], %[[ARG1]] on @ep axis 0 : (tensor<512x32xbf16>, tensor<4xi32>) -> (tensor<1024x32xbf16>, tensor<4xi32>)
// CHECK-NEXT: return %[[OUTPUT]], %[[RECV_SIZES]] : tensor<1024x32xbf16>, tensor<4xi32>
shard.grid @ep(shape = 4)
// GENERIC-LABEL: sym_name = "all_to_all"
// GENERIC: "moe.all_to_all"(%{{.*}}, %{{.*}}) <{grid = @ep, grid_axis = 0 : i64}> : (tensor<512x32xbf16>, tensor<4xi32>) -> (tensor<1024x32xbf16>, tensor<4xi32>)
func.func @all_to_all(%x: tensor<512x32xbf16>, %send: tensor<4xi32>) -> (tensor<1024x32xbf16>, tensor<4xi32>) {
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0 : (tensor<512x32xbf16>, tensor<4xi32>) -> (tensor<1024x32xbf16>, tensor<4xi32>)
  return %y, %recv : tensor<1024x32xbf16>, tensor<4xi32>
}

// -----

// CHECK: shard.grid @dp_ep(shape = 2x8)
// CHECK-LABEL: func.func @all_to_all_fp8_axis1(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<8xi32>) -> (tensor<?x256xf8E4M3FN>, tensor<8xi32>)
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[RECV_SIZES:[a-z0-9_]+]] = moe.all_to_all %[[ARG0]], %[[ARG1]] on @dp_ep axis 1 : (tensor<?x256xf8E4M3FN>, tensor<8xi32>) -> (tensor<?x256xf8E4M3FN>, tensor<8xi32>)
// CHECK-NEXT: return %[[OUTPUT]], %[[RECV_SIZES]] : tensor<?x256xf8E4M3FN>, tensor<8xi32>
shard.grid @dp_ep(shape = 2x8)
func.func @all_to_all_fp8_axis1(%x: tensor<?x256xf8E4M3FN>, %send: tensor<8xi32>) -> (tensor<?x256xf8E4M3FN>, tensor<8xi32>) {
  %y, %recv = moe.all_to_all %x, %send on @dp_ep axis 1 : (tensor<?x256xf8E4M3FN>, tensor<8xi32>) -> (tensor<?x256xf8E4M3FN>, tensor<8xi32>)
  return %y, %recv : tensor<?x256xf8E4M3FN>, tensor<8xi32>
}

// -----

// CHECK-LABEL: func.func @combine(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>, %[[ARG2:[a-z0-9_]+]]: tensor<64x2xf32>) -> tensor<64x32xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.combine %[[ARG0]], %[[ARG1]], %[[ARG2]] : tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32>
// CHECK-NEXT: return %[[V0]] : tensor<64x32xbf16>
func.func @combine(%y: tensor<144x32xbf16>, %rows: tensor<64x2xi32>, %w: tensor<64x2xf32>) -> tensor<64x32xbf16> {
  %0 = moe.combine %y, %rows, %w : tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32>
  return %0 : tensor<64x32xbf16>
}

// -----

// CHECK-LABEL: func.func @quantize_tensorwise(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xbf16>) -> (tensor<144x256xf8E4M3FN>, tensor<f32>)
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]] = moe.quantize tensorwise %[[ARG0]] : (tensor<144x256xbf16>) -> (tensor<144x256xf8E4M3FN>, tensor<f32>)
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]] : tensor<144x256xf8E4M3FN>, tensor<f32>
func.func @quantize_tensorwise(%x: tensor<144x256xbf16>) -> (tensor<144x256xf8E4M3FN>, tensor<f32>) {
  %q, %s = moe.quantize tensorwise %x : (tensor<144x256xbf16>) -> (tensor<144x256xf8E4M3FN>, tensor<f32>)
  return %q, %s : tensor<144x256xf8E4M3FN>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @quantize_delayed(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<16xf32>) -> (tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>)
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]], %[[NEW_AMAX_HISTORY:[a-z0-9_]+]] = moe.quantize delayed %[[ARG0]] history %[[ARG1]] : (tensor<144x256xf32>, tensor<16xf32>) -> (tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>)
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]], %[[NEW_AMAX_HISTORY]] : tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>
// GENERIC-LABEL: sym_name = "quantize_delayed"
// GENERIC: "moe.quantize"(%{{.*}}, %{{.*}}) <{recipe = #moe<recipe delayed>}> : (tensor<144x256xf32>, tensor<16xf32>) -> (tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>)
func.func @quantize_delayed(%x: tensor<144x256xf32>, %h: tensor<16xf32>) -> (tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>) {
  %q, %s, %nh = moe.quantize delayed %x history %h : (tensor<144x256xf32>, tensor<16xf32>) -> (tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>)
  return %q, %s, %nh : tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @quantize_block_1x128(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x300xbf16>) -> (tensor<144x300xf8E4M3FN>, tensor<144x3xf32>)
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]] = moe.quantize block_1x128 %[[ARG0]] : (tensor<144x300xbf16>) -> (tensor<144x300xf8E4M3FN>, tensor<144x3xf32>)
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]] : tensor<144x300xf8E4M3FN>, tensor<144x3xf32>
func.func @quantize_block_1x128(%x: tensor<144x300xbf16>) -> (tensor<144x300xf8E4M3FN>, tensor<144x3xf32>) {
  %q, %s = moe.quantize block_1x128 %x : (tensor<144x300xbf16>) -> (tensor<144x300xf8E4M3FN>, tensor<144x3xf32>)
  return %q, %s : tensor<144x300xf8E4M3FN>, tensor<144x3xf32>
}

// -----

// CHECK-LABEL: func.func @quantize_block_128x128(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<8x256x300xbf16>) -> (tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>)
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]] = moe.quantize block_128x128 %[[ARG0]] : (tensor<8x256x300xbf16>) -> (tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>)
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]] : tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>
func.func @quantize_block_128x128(%w: tensor<8x256x300xbf16>) -> (tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>) {
  %q, %s = moe.quantize block_128x128 %w : (tensor<8x256x300xbf16>) -> (tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>)
  return %q, %s : tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @quantize_mx_1x32(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x100xbf16>) -> (tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>)
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]] = moe.quantize mx_1x32 %[[ARG0]] : (tensor<144x100xbf16>) -> (tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>)
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]] : tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>
func.func @quantize_mx_1x32(%x: tensor<144x100xbf16>) -> (tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>) {
  %q, %s = moe.quantize mx_1x32 %x : (tensor<144x100xbf16>) -> (tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>)
  return %q, %s : tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>
}

// -----

// CHECK-LABEL: func.func @quantize_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>)
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]] = moe.quantize block_1x128 %[[ARG0]] : (tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>)
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]] : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
func.func @quantize_dynamic(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %q, %s = moe.quantize block_1x128 %x : (tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>)
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @dequantize(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<f32>, %[[ARG2:[a-z0-9_]+]]: tensor<144x2xf32>, %[[ARG3:[a-z0-9_]+]]: tensor<2x2xf32>, %[[ARG4:[a-z0-9_]+]]: tensor<144x8xf8E8M0FNU>, %[[ARG5:[a-z0-9_]+]]: tensor<144x256xf8E5M2>) -> (tensor<144x256xbf16>, tensor<144x256xf32>, tensor<144x256xf16>, tensor<144x256xbf16>, tensor<144x256xbf16>)
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.dequantize tensorwise %[[ARG0]], %[[ARG1]] : (tensor<144x256xf8E4M3FN>, tensor<f32>) -> tensor<144x256xbf16>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.dequantize block_1x128 %[[ARG0]], %[[ARG2]] : (tensor<144x256xf8E4M3FN>, tensor<144x2xf32>) -> tensor<144x256xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.dequantize block_128x128 %[[ARG0]], %[[ARG3]] : (tensor<144x256xf8E4M3FN>, tensor<2x2xf32>) -> tensor<144x256xf16>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = moe.dequantize mx_1x32 %[[ARG0]], %[[ARG4]] : (tensor<144x256xf8E4M3FN>, tensor<144x8xf8E8M0FNU>) -> tensor<144x256xbf16>
// CHECK-NEXT: %[[V4:[a-z0-9_]+]] = moe.dequantize delayed %[[ARG5]], %[[ARG1]] : (tensor<144x256xf8E5M2>, tensor<f32>) -> tensor<144x256xbf16>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]] : tensor<144x256xbf16>, tensor<144x256xf32>, tensor<144x256xf16>, tensor<144x256xbf16>, tensor<144x256xbf16>
func.func @dequantize(%q: tensor<144x256xf8E4M3FN>, %s0: tensor<f32>, %s1: tensor<144x2xf32>, %s2: tensor<2x2xf32>, %s3: tensor<144x8xf8E8M0FNU>, %q5: tensor<144x256xf8E5M2>) -> (tensor<144x256xbf16>, tensor<144x256xf32>, tensor<144x256xf16>, tensor<144x256xbf16>, tensor<144x256xbf16>) {
  %0 = moe.dequantize tensorwise %q, %s0 : (tensor<144x256xf8E4M3FN>, tensor<f32>) -> tensor<144x256xbf16>
  %1 = moe.dequantize block_1x128 %q, %s1 : (tensor<144x256xf8E4M3FN>, tensor<144x2xf32>) -> tensor<144x256xf32>
  %2 = moe.dequantize block_128x128 %q, %s2 : (tensor<144x256xf8E4M3FN>, tensor<2x2xf32>) -> tensor<144x256xf16>
  %3 = moe.dequantize mx_1x32 %q, %s3 : (tensor<144x256xf8E4M3FN>, tensor<144x8xf8E8M0FNU>) -> tensor<144x256xbf16>
  %4 = moe.dequantize delayed %q5, %s0 : (tensor<144x256xf8E5M2>, tensor<f32>) -> tensor<144x256xbf16>
  return %0, %1, %2, %3, %4 : tensor<144x256xbf16>, tensor<144x256xf32>, tensor<144x256xf16>, tensor<144x256xbf16>, tensor<144x256xbf16>
}

// -----

// CHECK-LABEL: func.func @layer(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<32x8xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<8x32x48xbf16>, %[[ARG3:[a-z0-9_]+]]: tensor<8x32x48xbf16>, %[[ARG4:[a-z0-9_]+]]: tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
// CHECK-NEXT: %[[OUT:[a-z0-9_]+]], %[[AUX_LOSS:[a-z0-9_]+]] = moe.layer %[[ARG0]], %[[ARG1]] experts(%[[ARG2]], %[[ARG3]], %[[ARG4]]) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
// CHECK-NEXT: return %[[OUT]], %[[AUX_LOSS]] : tensor<64x32xbf16>, tensor<f32>
// GENERIC-LABEL: sym_name = "layer"
// GENERIC: "moe.layer"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{activation = #moe<activation silu>, align = 1 : i64, aux_loss_coeff = 0.000000e+00 : f64, aux_loss_variant = #moe<aux_loss_variant batch>, group_score = #moe<group_score top_sum>, group_topk = 1 : i64, k = 2 : i64, normalize = #moe<normalize none>, num_groups = 1 : i64, scaling_factor = 1.000000e+00 : f64, score_function = #moe<score_function softmax>, weight_layout = #moe<weight_layout kn>, z_loss_coeff = 0.000000e+00 : f64}>
func.func @layer(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wu: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x32xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @layer_bias(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<32x16xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<16xf32>, %[[ARG3:[a-z0-9_]+]]: tensor<16x48x32xbf16>, %[[ARG4:[a-z0-9_]+]]: tensor<16x48x32xbf16>, %[[ARG5:[a-z0-9_]+]]: tensor<16x32x48xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
// CHECK-NEXT: %[[OUT:[a-z0-9_]+]], %[[AUX_LOSS:[a-z0-9_]+]] = moe.layer %[[ARG0]], %[[ARG1]] bias %[[ARG2]] experts(%[[ARG3]], %[[ARG4]], %[[ARG5]]) {activation = #moe<activation relu2>, align = 16 : i64, aux_loss_coeff = 1.000000e-02 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, group_score_topq = 2 : i64, group_topk = 2 : i64, k = 4 : i64, normalize = #moe<normalize sum>, num_groups = 4 : i64, scaling_factor = 2.500000e+00 : f64, score_function = #moe<score_function sigmoid>, seq_length = 32 : i64, weight_layout = #moe<weight_layout nk>, z_loss_coeff = 1.000000e-03 : f64} : (tensor<64x32xbf16>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x48x32xbf16>, tensor<16x48x32xbf16>, tensor<16x32x48xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
// CHECK-NEXT: return %[[OUT]], %[[AUX_LOSS]] : tensor<64x32xbf16>, tensor<f32>
func.func @layer_bias(%x: tensor<64x32xbf16>, %wr: tensor<32x16xf32>, %b: tensor<16xf32>, %wg: tensor<16x48x32xbf16>, %wu: tensor<16x48x32xbf16>, %wd: tensor<16x32x48xbf16>) -> (tensor<64x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %wr bias %b experts(%wg, %wu, %wd) {activation = #moe<activation relu2>, align = 16 : i64, aux_loss_coeff = 1.000000e-02 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, group_score_topq = 2 : i64, group_topk = 2 : i64, k = 4 : i64, normalize = #moe<normalize sum>, num_groups = 4 : i64, scaling_factor = 2.500000e+00 : f64, score_function = #moe<score_function sigmoid>, seq_length = 32 : i64, weight_layout = #moe<weight_layout nk>, z_loss_coeff = 1.000000e-03 : f64} : (tensor<64x32xbf16>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x48x32xbf16>, tensor<16x48x32xbf16>, tensor<16x32x48xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x32xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @layer_post_softmax(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x32xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<32x8xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<8x32x48xf32>, %[[ARG3:[a-z0-9_]+]]: tensor<8x48x32xf32>) -> (tensor<?x32xf32>, tensor<f32>)
// CHECK-NEXT: %[[OUT:[a-z0-9_]+]], %[[AUX_LOSS:[a-z0-9_]+]] = moe.layer %[[ARG0]], %[[ARG1]] experts(%[[ARG2]], %[[ARG2]], %[[ARG3]]) {k = 2 : i64, post_softmax, score_function = #moe<score_function softmax>} : (tensor<?x32xf32>, tensor<32x8xf32>, tensor<8x32x48xf32>, tensor<8x32x48xf32>, tensor<8x48x32xf32>) -> (tensor<?x32xf32>, tensor<f32>)
// CHECK-NEXT: return %[[OUT]], %[[AUX_LOSS]] : tensor<?x32xf32>, tensor<f32>
func.func @layer_post_softmax(%x: tensor<?x32xf32>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xf32>, %wd: tensor<8x48x32xf32>) -> (tensor<?x32xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, post_softmax, score_function = #moe<score_function softmax>} : (tensor<?x32xf32>, tensor<32x8xf32>, tensor<8x32x48xf32>, tensor<8x32x48xf32>, tensor<8x48x32xf32>) -> (tensor<?x32xf32>, tensor<f32>)
  return %out, %aux : tensor<?x32xf32>, tensor<f32>
}

// -----

// CHECK: shard.grid @ep(shape = 4)
// CHECK-LABEL: func.func @layer_global_aux(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<32x8xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<8x32x48xbf16>, %[[ARG3:[a-z0-9_]+]]: tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
// CHECK-NEXT: %[[OUT:[a-z0-9_]+]], %[[AUX_LOSS:[a-z0-9_]+]] = moe.layer %[[ARG0]], %[[ARG1]] experts(%[[ARG2]], %[[ARG2]], %[[ARG3]]) {aux_loss_coeff = 1.000000e-02 : f64, aux_loss_variant = #moe<aux_loss_variant global>, grid = @ep, grid_axes = array<i64: 0>, k = 2 : i64, score_function = #moe<score_function sqrtsoftplus>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
// CHECK-NEXT: return %[[OUT]], %[[AUX_LOSS]] : tensor<64x32xbf16>, tensor<f32>
shard.grid @ep(shape = 4)
func.func @layer_global_aux(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %wr experts(%wg, %wg, %wd) {aux_loss_coeff = 1.000000e-02 : f64, aux_loss_variant = #moe<aux_loss_variant global>, grid = @ep, grid_axes = array<i64: 0>, k = 2 : i64, score_function = #moe<score_function sqrtsoftplus>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x32xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @combine_grad(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<64x2xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<64x2xf32>) -> (tensor<144x32xbf16>, tensor<64x2xf32>)
// CHECK-NEXT: %[[DY:[a-z0-9_]+]], %[[DWEIGHTS:[a-z0-9_]+]] = moe.combine_grad %[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]] : tensor<64x32xbf16>, tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32>
// CHECK-NEXT: return %[[DY]], %[[DWEIGHTS]] : tensor<144x32xbf16>, tensor<64x2xf32>
// GENERIC-LABEL: sym_name = "combine_grad"
// GENERIC: "moe.combine_grad"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<64x32xbf16>, tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32>) -> (tensor<144x32xbf16>, tensor<64x2xf32>)
func.func @combine_grad(%dout: tensor<64x32xbf16>, %y: tensor<144x32xbf16>, %rows: tensor<64x2xi32>, %w: tensor<64x2xf32>) -> (tensor<144x32xbf16>, tensor<64x2xf32>) {
  %dy, %dw = moe.combine_grad %dout, %y, %rows, %w : tensor<64x32xbf16>, tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32>
  return %dy, %dw : tensor<144x32xbf16>, tensor<64x2xf32>
}

// -----

// Written in the generic form; each result dim is inferred from whichever
// operand has it static (H from 'dout', T from 'weights', K from 'rows').
// CHECK-LABEL: func.func @combine_grad_generic_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x32xf16>, %[[ARG1:[a-z0-9_]+]]: tensor<?x?xf16>, %[[ARG2:[a-z0-9_]+]]: tensor<?x4xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<16x?xf32>) -> (tensor<?x32xf16>, tensor<16x4xf32>)
// CHECK-NEXT: %[[DY:[a-z0-9_]+]], %[[DWEIGHTS:[a-z0-9_]+]] = moe.combine_grad %[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]] : tensor<?x32xf16>, tensor<?x?xf16>, tensor<?x4xi32>, tensor<16x?xf32>
// CHECK-NEXT: return %[[DY]], %[[DWEIGHTS]] : tensor<?x32xf16>, tensor<16x4xf32>
// GENERIC-LABEL: sym_name = "combine_grad_generic_dynamic"
// GENERIC: "moe.combine_grad"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<?x32xf16>, tensor<?x?xf16>, tensor<?x4xi32>, tensor<16x?xf32>) -> (tensor<?x32xf16>, tensor<16x4xf32>)
func.func @combine_grad_generic_dynamic(%dout: tensor<?x32xf16>, %y: tensor<?x?xf16>, %rows: tensor<?x4xi32>, %w: tensor<16x?xf32>) -> (tensor<?x32xf16>, tensor<16x4xf32>) {
  %dy, %dw = "moe.combine_grad"(%dout, %y, %rows, %w) : (tensor<?x32xf16>, tensor<?x?xf16>, tensor<?x4xi32>, tensor<16x?xf32>) -> (tensor<?x32xf16>, tensor<16x4xf32>)
  return %dy, %dw : tensor<?x32xf16>, tensor<16x4xf32>
}
