// Round trip of every moe op, on tensors with tensor.empty destinations and
// on memrefs: custom form -> custom form, and custom form ->
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
// CHECK-NEXT: %[[INIT1:.+]] = tensor.empty() : tensor<64x8xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.gate %[[ARG0]], %[[ARG1]] outs(%[[INIT1]]) : tensor<64x32xbf16>, tensor<32x8xf32> -> tensor<64x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<64x8xf32>
func.func @gate(%x: tensor<64x32xbf16>, %w: tensor<32x8xf32>) -> tensor<64x8xf32> {
  %init2 = tensor.empty() : tensor<64x8xf32>
  %0 = moe.gate %x, %w outs(%init2) : tensor<64x32xbf16>, tensor<32x8xf32> -> tensor<64x8xf32>
  return %0 : tensor<64x8xf32>
}

// -----

// CHECK-LABEL: func.func @gate_f16_f32_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x32xf16>, %[[ARG1:[a-z0-9_]+]]: tensor<32x?xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<64x32xf32>) -> (tensor<?x?xf32>, tensor<64x?xf32>)
// CHECK: %[[INIT3:.+]] = tensor.empty({{.*}}) : tensor<?x?xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.gate %[[ARG0]], %[[ARG1]] outs(%[[INIT3]]) : tensor<?x32xf16>, tensor<32x?xf32> -> tensor<?x?xf32>
// CHECK: %[[INIT4:.+]] = tensor.empty({{.*}}) : tensor<64x?xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.gate %[[ARG2]], %[[ARG1]] outs(%[[INIT4]]) : tensor<64x32xf32>, tensor<32x?xf32> -> tensor<64x?xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<?x?xf32>, tensor<64x?xf32>
func.func @gate_f16_f32_dynamic(%x: tensor<?x32xf16>, %w: tensor<32x?xf32>, %x2: tensor<64x32xf32>) -> (tensor<?x?xf32>, tensor<64x?xf32>) {
  %init5_c0 = arith.constant 0 : index
  %init5_d0 = tensor.dim %x, %init5_c0 : tensor<?x32xf16>
  %init5_c1 = arith.constant 1 : index
  %init5_d1 = tensor.dim %w, %init5_c1 : tensor<32x?xf32>
  %init5 = tensor.empty(%init5_d0, %init5_d1) : tensor<?x?xf32>
  %0 = moe.gate %x, %w outs(%init5) : tensor<?x32xf16>, tensor<32x?xf32> -> tensor<?x?xf32>
  %init6_c1 = arith.constant 1 : index
  %init6_d1 = tensor.dim %w, %init6_c1 : tensor<32x?xf32>
  %init6 = tensor.empty(%init6_d1) : tensor<64x?xf32>
  %1 = moe.gate %x2, %w outs(%init6) : tensor<64x32xf32>, tensor<32x?xf32> -> tensor<64x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<64x?xf32>
}

// -----

// CHECK-LABEL: func.func @route(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>) -> (tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>)
// CHECK-NEXT: %[[INIT7:.+]] = tensor.empty() : tensor<64x8xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.route softmax %[[ARG0]] outs(%[[INIT7]]) : tensor<64x8xf32> -> tensor<64x8xf32>
// CHECK-NEXT: %[[INIT8:.+]] = tensor.empty() : tensor<64x8xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.route sigmoid %[[ARG0]] outs(%[[INIT8]]) : tensor<64x8xf32> -> tensor<64x8xf32>
// CHECK-NEXT: %[[INIT9:.+]] = tensor.empty() : tensor<64x8xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.route sqrtsoftplus %[[ARG0]] outs(%[[INIT9]]) : tensor<64x8xf32> -> tensor<64x8xf32>
// CHECK-NEXT: %[[INIT10:.+]] = tensor.empty() : tensor<64x8xf32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = moe.route identity %[[ARG0]] outs(%[[INIT10]]) : tensor<64x8xf32> -> tensor<64x8xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]] : tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>
func.func @route(%l: tensor<64x8xf32>) -> (tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>) {
  %init11 = tensor.empty() : tensor<64x8xf32>
  %0 = moe.route softmax %l outs(%init11) : tensor<64x8xf32> -> tensor<64x8xf32>
  %init12 = tensor.empty() : tensor<64x8xf32>
  %1 = moe.route sigmoid %l outs(%init12) : tensor<64x8xf32> -> tensor<64x8xf32>
  %init13 = tensor.empty() : tensor<64x8xf32>
  %2 = moe.route sqrtsoftplus %l outs(%init13) : tensor<64x8xf32> -> tensor<64x8xf32>
  %init14 = tensor.empty() : tensor<64x8xf32>
  %3 = moe.route identity %l outs(%init14) : tensor<64x8xf32> -> tensor<64x8xf32>
  return %0, %1, %2, %3 : tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>
}

// -----

// CHECK-LABEL: func.func @route_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: %[[INIT15:.+]] = tensor.empty({{.*}}) : tensor<?x?xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.route softmax %[[ARG0]] outs(%[[INIT15]]) : tensor<?x?xf32> -> tensor<?x?xf32>
// CHECK-NEXT: return %[[V0]] : tensor<?x?xf32>
func.func @route_dynamic(%l: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %init16_c0 = arith.constant 0 : index
  %init16_d0 = tensor.dim %l, %init16_c0 : tensor<?x?xf32>
  %init16_c1 = arith.constant 1 : index
  %init16_d1 = tensor.dim %l, %init16_c1 : tensor<?x?xf32>
  %init16 = tensor.empty(%init16_d0, %init16_d1) : tensor<?x?xf32>
  %0 = moe.route softmax %l outs(%init16) : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @topk_plain(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>) -> (tensor<64x2xf32>, tensor<64x2xi32>)
// CHECK-NEXT: %[[INIT17:.+]] = tensor.empty() : tensor<64x2xf32>
// CHECK-NEXT: %[[INIT18:.+]] = tensor.empty() : tensor<64x2xi32>
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk softmax %[[ARG0]] k 2 outs(%[[INIT17]], %[[INIT18]]) : tensor<64x8xf32> -> tensor<64x2xf32>, tensor<64x2xi32>
// CHECK-NEXT: return %[[WEIGHTS]], %[[INDICES]] : tensor<64x2xf32>, tensor<64x2xi32>
// Defaults are materialized in the generic form and elided in the custom form.
// GENERIC-LABEL: sym_name = "topk_plain"
// GENERIC: "moe.topk"(%{{.*}}, %{{.*}}, %{{.*}}) <{group_score = #moe<group_score top_sum>, group_topk = 1 : i64, k = 2 : i64, normalize = #moe<normalize none>, num_groups = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 2>, scaling_factor = 1.000000e+00 : f64, score_function = #moe<score_function softmax>}> : (tensor<64x8xf32>, tensor<64x2xf32>, tensor<64x2xi32>) -> (tensor<64x2xf32>, tensor<64x2xi32>)
func.func @topk_plain(%s: tensor<64x8xf32>) -> (tensor<64x2xf32>, tensor<64x2xi32>) {
  %init19 = tensor.empty() : tensor<64x2xf32>
  %init20 = tensor.empty() : tensor<64x2xi32>
  %w, %i = moe.topk softmax %s k 2 outs(%init19, %init20) : tensor<64x8xf32> -> tensor<64x2xf32>, tensor<64x2xi32>
  return %w, %i : tensor<64x2xf32>, tensor<64x2xi32>
}

// -----

// CHECK-LABEL: func.func @topk_bias(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8xf32>) -> (tensor<64x4xf32>, tensor<64x4xi32>)
// CHECK-NEXT: %[[INIT21:.+]] = tensor.empty() : tensor<64x4xf32>
// CHECK-NEXT: %[[INIT22:.+]] = tensor.empty() : tensor<64x4xi32>
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk sigmoid %[[ARG0]] bias %[[ARG1]] k 4 outs(%[[INIT21]], %[[INIT22]]) {normalize = #moe<normalize sum>, scaling_factor = 2.500000e+00 : f64} : tensor<64x8xf32>, tensor<8xf32> -> tensor<64x4xf32>, tensor<64x4xi32>
// CHECK-NEXT: return %[[WEIGHTS]], %[[INDICES]] : tensor<64x4xf32>, tensor<64x4xi32>
func.func @topk_bias(%s: tensor<64x8xf32>, %b: tensor<8xf32>) -> (tensor<64x4xf32>, tensor<64x4xi32>) {
  %init23 = tensor.empty() : tensor<64x4xf32>
  %init24 = tensor.empty() : tensor<64x4xi32>
  %w, %i = moe.topk sigmoid %s bias %b k 4 outs(%init23, %init24) {normalize = #moe<normalize sum>, scaling_factor = 2.500000e+00 : f64} : tensor<64x8xf32>, tensor<8xf32> -> tensor<64x4xf32>, tensor<64x4xi32>
  return %w, %i : tensor<64x4xf32>, tensor<64x4xi32>
}

// -----

// CHECK-LABEL: func.func @topk_sqrtsoftplus_bias_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x16xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<16xf32>) -> (tensor<?x1xf32>, tensor<?x1xi32>)
// CHECK: %[[INIT25:.+]] = tensor.empty({{.*}}) : tensor<?x1xf32>
// CHECK: %[[INIT26:.+]] = tensor.empty({{.*}}) : tensor<?x1xi32>
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk sqrtsoftplus %[[ARG0]] bias %[[ARG1]] k 1 outs(%[[INIT25]], %[[INIT26]]) : tensor<?x16xf32>, tensor<16xf32> -> tensor<?x1xf32>, tensor<?x1xi32>
// CHECK-NEXT: return %[[WEIGHTS]], %[[INDICES]] : tensor<?x1xf32>, tensor<?x1xi32>
func.func @topk_sqrtsoftplus_bias_dynamic(%s: tensor<?x16xf32>, %b: tensor<16xf32>) -> (tensor<?x1xf32>, tensor<?x1xi32>) {
  %init27_c0 = arith.constant 0 : index
  %init27_d0 = tensor.dim %s, %init27_c0 : tensor<?x16xf32>
  %init27 = tensor.empty(%init27_d0) : tensor<?x1xf32>
  %init28_c0 = arith.constant 0 : index
  %init28_d0 = tensor.dim %s, %init28_c0 : tensor<?x16xf32>
  %init28 = tensor.empty(%init28_d0) : tensor<?x1xi32>
  %w, %i = moe.topk sqrtsoftplus %s bias %b k 1 outs(%init27, %init28) : tensor<?x16xf32>, tensor<16xf32> -> tensor<?x1xf32>, tensor<?x1xi32>
  return %w, %i : tensor<?x1xf32>, tensor<?x1xi32>
}

// -----

// CHECK-LABEL: func.func @topk_group_limited(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x256xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<256xf32>) -> (tensor<64x8xf32>, tensor<64x8xi32>)
// CHECK-NEXT: %[[INIT29:.+]] = tensor.empty() : tensor<64x8xf32>
// CHECK-NEXT: %[[INIT30:.+]] = tensor.empty() : tensor<64x8xi32>
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk sigmoid %[[ARG0]] bias %[[ARG1]] k 8 outs(%[[INIT29]], %[[INIT30]]) {group_score_topq = 2 : i64, group_topk = 4 : i64, normalize = #moe<normalize sum>, num_groups = 8 : i64, scaling_factor = 2.500000e+00 : f64} : tensor<64x256xf32>, tensor<256xf32> -> tensor<64x8xf32>, tensor<64x8xi32>
// CHECK-NEXT: return %[[WEIGHTS]], %[[INDICES]] : tensor<64x8xf32>, tensor<64x8xi32>
func.func @topk_group_limited(%s: tensor<64x256xf32>, %b: tensor<256xf32>) -> (tensor<64x8xf32>, tensor<64x8xi32>) {
  %init31 = tensor.empty() : tensor<64x8xf32>
  %init32 = tensor.empty() : tensor<64x8xi32>
  %w, %i = moe.topk sigmoid %s bias %b k 8 outs(%init31, %init32) {group_score_topq = 2 : i64, group_topk = 4 : i64, normalize = #moe<normalize sum>, num_groups = 8 : i64, scaling_factor = 2.500000e+00 : f64} : tensor<64x256xf32>, tensor<256xf32> -> tensor<64x8xf32>, tensor<64x8xi32>
  return %w, %i : tensor<64x8xf32>, tensor<64x8xi32>
}

// -----

// CHECK-LABEL: func.func @topk_group_max_post_softmax(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x16xf32>) -> (tensor<64x4xf32>, tensor<64x4xi32>)
// CHECK-NEXT: %[[INIT33:.+]] = tensor.empty() : tensor<64x16xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.route identity %[[ARG0]] outs(%[[INIT33]]) : tensor<64x16xf32> -> tensor<64x16xf32>
// CHECK-NEXT: %[[INIT34:.+]] = tensor.empty() : tensor<64x4xf32>
// CHECK-NEXT: %[[INIT35:.+]] = tensor.empty() : tensor<64x4xi32>
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk identity %[[V0]] k 4 outs(%[[INIT34]], %[[INIT35]]) {group_score = #moe<group_score max>, group_topk = 2 : i64, normalize = #moe<normalize softmax>, num_groups = 4 : i64} : tensor<64x16xf32> -> tensor<64x4xf32>, tensor<64x4xi32>
// CHECK-NEXT: return %[[WEIGHTS]], %[[INDICES]] : tensor<64x4xf32>, tensor<64x4xi32>
func.func @topk_group_max_post_softmax(%l: tensor<64x16xf32>) -> (tensor<64x4xf32>, tensor<64x4xi32>) {
  %init36 = tensor.empty() : tensor<64x16xf32>
  %s = moe.route identity %l outs(%init36) : tensor<64x16xf32> -> tensor<64x16xf32>
  %init37 = tensor.empty() : tensor<64x4xf32>
  %init38 = tensor.empty() : tensor<64x4xi32>
  %w, %i = moe.topk identity %s k 4 outs(%init37, %init38) {group_score = #moe<group_score max>, group_topk = 2 : i64, normalize = #moe<normalize softmax>, num_groups = 4 : i64} : tensor<64x16xf32> -> tensor<64x4xf32>, tensor<64x4xi32>
  return %w, %i : tensor<64x4xf32>, tensor<64x4xi32>
}

// -----

// CHECK-LABEL: func.func @aux_loss_batch(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>) -> tensor<f32>
// CHECK-NEXT: %[[INIT39:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.aux_loss batch %[[ARG0]], %[[ARG1]] from softmax coeff 1.000000e-02 outs(%[[INIT39]]) : tensor<64x8xf32>, tensor<64x2xi32> -> tensor<f32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
func.func @aux_loss_batch(%s: tensor<64x8xf32>, %i: tensor<64x2xi32>) -> tensor<f32> {
  %init40 = tensor.empty() : tensor<f32>
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 outs(%init40) : tensor<64x8xf32>, tensor<64x2xi32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @aux_loss_sequence(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>) -> tensor<f32>
// CHECK-NEXT: %[[INIT41:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.aux_loss sequence %[[ARG0]], %[[ARG1]] from sigmoid coeff 1.000000e-03 outs(%[[INIT41]]) {seq_length = 16 : i64} : tensor<64x8xf32>, tensor<64x2xi32> -> tensor<f32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
func.func @aux_loss_sequence(%s: tensor<64x8xf32>, %i: tensor<64x2xi32>) -> tensor<f32> {
  %init42 = tensor.empty() : tensor<f32>
  %0 = moe.aux_loss sequence %s, %i from sigmoid coeff 1.000000e-03 outs(%init42) {seq_length = 16 : i64} : tensor<64x8xf32>, tensor<64x2xi32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK: shard.grid @g(shape = 2x4)
// CHECK-LABEL: func.func @aux_loss_global(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>) -> tensor<f32>
// CHECK-NEXT: %[[INIT43:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.aux_loss global %[[ARG0]], %[[ARG1]] from sqrtsoftplus coeff 1.000000e-02 outs(%[[INIT43]]) {grid = @g, grid_axes = array<i64: 0, 1>} : tensor<64x8xf32>, tensor<64x2xi32> -> tensor<f32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
shard.grid @g(shape = 2x4)
func.func @aux_loss_global(%s: tensor<64x8xf32>, %i: tensor<64x2xi32>) -> tensor<f32> {
  %init44 = tensor.empty() : tensor<f32>
  %0 = moe.aux_loss global %s, %i from sqrtsoftplus coeff 1.000000e-02 outs(%init44) {grid = @g, grid_axes = array<i64: 0, 1>} : tensor<64x8xf32>, tensor<64x2xi32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @aux_loss_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x?xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<?x?xi32>) -> tensor<f32>
// CHECK-NEXT: %[[INIT45:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.aux_loss sequence %[[ARG0]], %[[ARG1]] from softmax coeff 0.000000e+00 outs(%[[INIT45]]) {seq_length = 128 : i64} : tensor<?x?xf32>, tensor<?x?xi32> -> tensor<f32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
func.func @aux_loss_dynamic(%s: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<f32> {
  %init46 = tensor.empty() : tensor<f32>
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 0.000000e+00 outs(%init46) {seq_length = 128 : i64} : tensor<?x?xf32>, tensor<?x?xi32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @z_loss(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x8xf32>) -> tensor<f32>
// CHECK-NEXT: %[[INIT47:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.z_loss %[[ARG0]] coeff 1.000000e-03 outs(%[[INIT47]]) : tensor<64x8xf32> -> tensor<f32>
// CHECK-NEXT: return %[[V0]] : tensor<f32>
func.func @z_loss(%l: tensor<64x8xf32>) -> tensor<f32> {
  %init48 = tensor.empty() : tensor<f32>
  %0 = moe.z_loss %l coeff 1.000000e-03 outs(%init48) : tensor<64x8xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @expert_bias_update(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<8xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi64>, %[[ARG3:[a-z0-9_]+]]: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT: %[[INIT49:.+]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.expert_bias_update %[[ARG0]], %[[ARG1]] rate 1.000000e-03 outs(%[[INIT49]]) : tensor<8xf32>, tensor<8xi32> -> tensor<8xf32>
// CHECK-NEXT: %[[INIT50:.+]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.expert_bias_update %[[V0]], %[[ARG2]] rate 0.000000e+00 outs(%[[INIT50]]) : tensor<8xf32>, tensor<8xi64> -> tensor<8xf32>
// CHECK-NEXT: %[[INIT51:.+]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.expert_bias_update %[[V1]], %[[ARG3]] rate 5.000000e-02 outs(%[[INIT51]]) : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
func.func @expert_bias_update(%b: tensor<8xf32>, %c32: tensor<8xi32>, %c64: tensor<8xi64>, %cf: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %init52 = tensor.empty() : tensor<8xf32>
  %0 = moe.expert_bias_update %b, %c32 rate 1.000000e-03 outs(%init52) : tensor<8xf32>, tensor<8xi32> -> tensor<8xf32>
  %init53 = tensor.empty() : tensor<8xf32>
  %1 = moe.expert_bias_update %0, %c64 rate 0.000000e+00 outs(%init53) : tensor<8xf32>, tensor<8xi64> -> tensor<8xf32>
  %init54 = tensor.empty() : tensor<8xf32>
  %2 = moe.expert_bias_update %1, %cf rate 5.000000e-02 outs(%init54) : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @permute_align1(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>) -> (tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>)
// CHECK-NEXT: %[[INIT55:.+]] = tensor.empty() : tensor<128x32xbf16>
// CHECK-NEXT: %[[INIT56:.+]] = tensor.empty() : tensor<8xi32>
// CHECK-NEXT: %[[INIT57:.+]] = tensor.empty() : tensor<64x2xi32>
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[ARG1]] experts 8 align 1 outs(%[[INIT55]], %[[INIT56]], %[[INIT57]]) : tensor<64x32xbf16>, tensor<64x2xi32> -> tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
// CHECK-NEXT: return %[[PERMUTED]], %[[GROUP_SIZES]], %[[ROWS]] : tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
func.func @permute_align1(%x: tensor<64x32xbf16>, %i: tensor<64x2xi32>) -> (tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>) {
  %init58 = tensor.empty() : tensor<128x32xbf16>
  %init59 = tensor.empty() : tensor<8xi32>
  %init60 = tensor.empty() : tensor<64x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 8 align 1 outs(%init58, %init59, %init60) : tensor<64x32xbf16>, tensor<64x2xi32> -> tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
  return %xs, %sizes, %rows : tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
}

// -----

// CHECK-LABEL: func.func @permute_align16(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>) -> (tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>)
// CHECK-NEXT: %[[INIT61:.+]] = tensor.empty() : tensor<248x32xbf16>
// CHECK-NEXT: %[[INIT62:.+]] = tensor.empty() : tensor<8xi32>
// CHECK-NEXT: %[[INIT63:.+]] = tensor.empty() : tensor<64x2xi32>
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[ARG1]] experts 8 align 16 outs(%[[INIT61]], %[[INIT62]], %[[INIT63]]) : tensor<64x32xbf16>, tensor<64x2xi32> -> tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
// CHECK-NEXT: return %[[PERMUTED]], %[[GROUP_SIZES]], %[[ROWS]] : tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
func.func @permute_align16(%x: tensor<64x32xbf16>, %i: tensor<64x2xi32>) -> (tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>) {
  %init64 = tensor.empty() : tensor<248x32xbf16>
  %init65 = tensor.empty() : tensor<8xi32>
  %init66 = tensor.empty() : tensor<64x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 8 align 16 outs(%init64, %init65, %init66) : tensor<64x32xbf16>, tensor<64x2xi32> -> tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
  return %xs, %sizes, %rows : tensor<248x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
}

// -----

// R above the bound 248: rounded up to 256, a multiple of align (moe-expand-layer{align}).
// CHECK-LABEL: func.func @permute_rows_above_bound(
// CHECK: moe.permute %{{.*}}, %{{.*}} experts 8 align 16 outs({{.*}}) : tensor<64x32xbf16>, tensor<64x2xi32> -> tensor<256x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
func.func @permute_rows_above_bound(%x: tensor<64x32xbf16>, %i: tensor<64x2xi32>) -> (tensor<256x32xbf16>, tensor<8xi32>, tensor<64x2xi32>) {
  %init = tensor.empty() : tensor<256x32xbf16>
  %sizes0 = tensor.empty() : tensor<8xi32>
  %rows0 = tensor.empty() : tensor<64x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 8 align 16 outs(%init, %sizes0, %rows0) : tensor<64x32xbf16>, tensor<64x2xi32> -> tensor<256x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
  return %xs, %sizes, %rows : tensor<256x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
}

// -----

// CHECK-LABEL: func.func @permute_dynamic_tokens(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x32xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<?x4xi32>) -> (tensor<?x32xf32>, tensor<16xi32>, tensor<?x4xi32>)
// CHECK: %[[INIT67:.+]] = tensor.empty({{.*}}) : tensor<?x32xf32>
// CHECK-NEXT: %[[INIT68:.+]] = tensor.empty() : tensor<16xi32>
// CHECK: %[[INIT69:.+]] = tensor.empty({{.*}}) : tensor<?x4xi32>
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[ARG1]] experts 16 align 128 outs(%[[INIT67]], %[[INIT68]], %[[INIT69]]) : tensor<?x32xf32>, tensor<?x4xi32> -> tensor<?x32xf32>, tensor<16xi32>, tensor<?x4xi32>
// CHECK-NEXT: return %[[PERMUTED]], %[[GROUP_SIZES]], %[[ROWS]] : tensor<?x32xf32>, tensor<16xi32>, tensor<?x4xi32>
func.func @permute_dynamic_tokens(%x: tensor<?x32xf32>, %i: tensor<?x4xi32>) -> (tensor<?x32xf32>, tensor<16xi32>, tensor<?x4xi32>) {
  %init70_c0 = arith.constant 0 : index
  %init70_t = tensor.dim %x, %init70_c0 : tensor<?x32xf32>
  %init70_k = arith.constant 4 : index
  %init70_tk = arith.muli %init70_t, %init70_k : index
  %init70_pad = arith.constant 2032 : index
  %init70_r = arith.addi %init70_tk, %init70_pad : index
  %init70 = tensor.empty(%init70_r) : tensor<?x32xf32>
  %init71 = tensor.empty() : tensor<16xi32>
  %init72_c0 = arith.constant 0 : index
  %init72_d0 = tensor.dim %i, %init72_c0 : tensor<?x4xi32>
  %init72 = tensor.empty(%init72_d0) : tensor<?x4xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 16 align 128 outs(%init70, %init71, %init72) : tensor<?x32xf32>, tensor<?x4xi32> -> tensor<?x32xf32>, tensor<16xi32>, tensor<?x4xi32>
  return %xs, %sizes, %rows : tensor<?x32xf32>, tensor<16xi32>, tensor<?x4xi32>
}

// -----

// CHECK-LABEL: func.func @permute_fp8(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<4x2xi32>) -> tensor<68x256xf8E4M3FN>
// CHECK-NEXT: %[[INIT73:.+]] = tensor.empty() : tensor<68x256xf8E4M3FN>
// CHECK-NEXT: %[[INIT74:.+]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT: %[[INIT75:.+]] = tensor.empty() : tensor<4x2xi32>
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[ARG1]] experts 4 align 16 outs(%[[INIT73]], %[[INIT74]], %[[INIT75]]) : tensor<4x256xf8E4M3FN>, tensor<4x2xi32> -> tensor<68x256xf8E4M3FN>, tensor<4xi32>, tensor<4x2xi32>
// CHECK-NEXT: return %[[PERMUTED]] : tensor<68x256xf8E4M3FN>
func.func @permute_fp8(%x: tensor<4x256xf8E4M3FN>, %i: tensor<4x2xi32>) -> tensor<68x256xf8E4M3FN> {
  %init76 = tensor.empty() : tensor<68x256xf8E4M3FN>
  %init77 = tensor.empty() : tensor<4xi32>
  %init78 = tensor.empty() : tensor<4x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 4 align 16 outs(%init76, %init77, %init78) : tensor<4x256xf8E4M3FN>, tensor<4x2xi32> -> tensor<68x256xf8E4M3FN>, tensor<4xi32>, tensor<4x2xi32>
  return %xs : tensor<68x256xf8E4M3FN>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_kn(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<8x32x48xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>) -> tensor<144x48xbf16>
// CHECK-NEXT: %[[INIT79:.+]] = tensor.empty() : tensor<144x48xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] outs(%[[INIT79]]) : tensor<144x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<144x48xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<144x48xbf16>
// GENERIC-LABEL: sym_name = "grouped_matmul_kn"
// GENERIC: "moe.grouped_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 0, 0, 0, 0, 1>, weight_layout = #moe<weight_layout kn>}> ({
// GENERIC-NEXT: }) : (tensor<144x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32>, tensor<144x48xbf16>) -> tensor<144x48xbf16>
func.func @grouped_matmul_kn(%a: tensor<144x32xbf16>, %b: tensor<8x32x48xbf16>, %s: tensor<8xi32>) -> tensor<144x48xbf16> {
  %init80 = tensor.empty() : tensor<144x48xbf16>
  %0 = moe.grouped_matmul %a, %b, %s outs(%init80) : tensor<144x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<144x48xbf16>
  return %0 : tensor<144x48xbf16>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_nk(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<8x48x32xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>) -> tensor<144x48xf32>
// CHECK-NEXT: %[[INIT81:.+]] = tensor.empty() : tensor<144x48xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] outs(%[[INIT81]]) {weight_layout = #moe<weight_layout nk>} : tensor<144x32xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<144x48xf32>
// CHECK-NEXT: return %[[V0]] : tensor<144x48xf32>
func.func @grouped_matmul_nk(%a: tensor<144x32xbf16>, %b: tensor<8x48x32xbf16>, %s: tensor<8xi32>) -> tensor<144x48xf32> {
  %init82 = tensor.empty() : tensor<144x48xf32>
  %0 = moe.grouped_matmul %a, %b, %s outs(%init82) {weight_layout = #moe<weight_layout nk>} : tensor<144x32xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<144x48xf32>
  return %0 : tensor<144x48xf32>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x?xf16>, %[[ARG1:[a-z0-9_]+]]: tensor<?x?x?xf16>, %[[ARG2:[a-z0-9_]+]]: tensor<?xi32>) -> tensor<?x?xf16>
// CHECK: %[[INIT83:.+]] = tensor.empty({{.*}}) : tensor<?x?xf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] outs(%[[INIT83]]) : tensor<?x?xf16>, tensor<?x?x?xf16>, tensor<?xi32> -> tensor<?x?xf16>
// CHECK-NEXT: return %[[V0]] : tensor<?x?xf16>
func.func @grouped_matmul_dynamic(%a: tensor<?x?xf16>, %b: tensor<?x?x?xf16>, %s: tensor<?xi32>) -> tensor<?x?xf16> {
  %init84_c0 = arith.constant 0 : index
  %init84_d0 = tensor.dim %a, %init84_c0 : tensor<?x?xf16>
  %init84_c1 = arith.constant 1 : index
  %init84_d1 = tensor.dim %a, %init84_c1 : tensor<?x?xf16>
  %init84 = tensor.empty(%init84_d0, %init84_d1) : tensor<?x?xf16>
  %0 = moe.grouped_matmul %a, %b, %s outs(%init84) : tensor<?x?xf16>, tensor<?x?x?xf16>, tensor<?xi32> -> tensor<?x?xf16>
  return %0 : tensor<?x?xf16>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_fp8_tensorwise(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<8x256x512xf8E4M3FN>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<f32>, %[[ARG4:[a-z0-9_]+]]: tensor<f32>) -> tensor<144x512xbf16>
// CHECK-NEXT: %[[INIT85:.+]] = tensor.empty() : tensor<144x512xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) outs(%[[INIT85]]) : tensor<144x256xf8E4M3FN>, tensor<8x256x512xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32> -> tensor<144x512xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<144x512xbf16>
// GENERIC-LABEL: sym_name = "grouped_matmul_fp8_tensorwise"
// GENERIC: "moe.grouped_matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 1, 1, 0, 0, 1>, weight_layout = #moe<weight_layout kn>}>
func.func @grouped_matmul_fp8_tensorwise(%a: tensor<144x256xf8E4M3FN>, %b: tensor<8x256x512xf8E4M3FN>, %s: tensor<8xi32>, %as: tensor<f32>, %bs: tensor<f32>) -> tensor<144x512xbf16> {
  %init86 = tensor.empty() : tensor<144x512xbf16>
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) outs(%init86) : tensor<144x256xf8E4M3FN>, tensor<8x256x512xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32> -> tensor<144x512xbf16>
  return %0 : tensor<144x512xbf16>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_fp8_e5m2_e4m3(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf8E5M2>, %[[ARG1:[a-z0-9_]+]]: tensor<8x256x512xf8E4M3FN>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<f32>, %[[ARG4:[a-z0-9_]+]]: tensor<f32>) -> tensor<144x512xf32>
// CHECK-NEXT: %[[INIT87:.+]] = tensor.empty() : tensor<144x512xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) outs(%[[INIT87]]) : tensor<144x256xf8E5M2>, tensor<8x256x512xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32> -> tensor<144x512xf32>
// CHECK-NEXT: return %[[V0]] : tensor<144x512xf32>
func.func @grouped_matmul_fp8_e5m2_e4m3(%a: tensor<144x256xf8E5M2>, %b: tensor<8x256x512xf8E4M3FN>, %s: tensor<8xi32>, %as: tensor<f32>, %bs: tensor<f32>) -> tensor<144x512xf32> {
  %init88 = tensor.empty() : tensor<144x512xf32>
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) outs(%init88) : tensor<144x256xf8E5M2>, tensor<8x256x512xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32> -> tensor<144x512xf32>
  return %0 : tensor<144x512xf32>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_fp8_block_kn(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<8x256x320xf8E4M3FN>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<144x2xf32>, %[[ARG4:[a-z0-9_]+]]: tensor<8x2x3xf32>) -> tensor<144x320xbf16>
// CHECK-NEXT: %[[INIT89:.+]] = tensor.empty() : tensor<144x320xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) outs(%[[INIT89]]) : tensor<144x256xf8E4M3FN>, tensor<8x256x320xf8E4M3FN>, tensor<8xi32>, tensor<144x2xf32>, tensor<8x2x3xf32> -> tensor<144x320xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<144x320xbf16>
func.func @grouped_matmul_fp8_block_kn(%a: tensor<144x256xf8E4M3FN>, %b: tensor<8x256x320xf8E4M3FN>, %s: tensor<8xi32>, %as: tensor<144x2xf32>, %bs: tensor<8x2x3xf32>) -> tensor<144x320xbf16> {
  %init90 = tensor.empty() : tensor<144x320xbf16>
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) outs(%init90) : tensor<144x256xf8E4M3FN>, tensor<8x256x320xf8E4M3FN>, tensor<8xi32>, tensor<144x2xf32>, tensor<8x2x3xf32> -> tensor<144x320xbf16>
  return %0 : tensor<144x320xbf16>
}

// -----

// CHECK-LABEL: func.func @grouped_matmul_fp8_block_nk(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<8x320x256xf8E4M3FN>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<144x2xf32>, %[[ARG4:[a-z0-9_]+]]: tensor<8x3x2xf32>) -> tensor<144x320xbf16>
// CHECK-NEXT: %[[INIT91:.+]] = tensor.empty() : tensor<144x320xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) outs(%[[INIT91]]) {weight_layout = #moe<weight_layout nk>} : tensor<144x256xf8E4M3FN>, tensor<8x320x256xf8E4M3FN>, tensor<8xi32>, tensor<144x2xf32>, tensor<8x3x2xf32> -> tensor<144x320xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<144x320xbf16>
func.func @grouped_matmul_fp8_block_nk(%a: tensor<144x256xf8E4M3FN>, %b: tensor<8x320x256xf8E4M3FN>, %s: tensor<8xi32>, %as: tensor<144x2xf32>, %bs: tensor<8x3x2xf32>) -> tensor<144x320xbf16> {
  %init92 = tensor.empty() : tensor<144x320xbf16>
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) outs(%init92) {weight_layout = #moe<weight_layout nk>} : tensor<144x256xf8E4M3FN>, tensor<8x320x256xf8E4M3FN>, tensor<8xi32>, tensor<144x2xf32>, tensor<8x3x2xf32> -> tensor<144x320xbf16>
  return %0 : tensor<144x320xbf16>
}

// -----

// CHECK-LABEL: func.func @grouped_weight_grad_kn(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<144x48xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>) -> tensor<8x32x48xf32>
// CHECK-NEXT: %[[INIT93:.+]] = tensor.empty() : tensor<8x32x48xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_weight_grad %[[ARG0]], %[[ARG1]], %[[ARG2]] outs(%[[INIT93]]) : tensor<144x32xbf16>, tensor<144x48xbf16>, tensor<8xi32> -> tensor<8x32x48xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x32x48xf32>
func.func @grouped_weight_grad_kn(%a: tensor<144x32xbf16>, %dc: tensor<144x48xbf16>, %s: tensor<8xi32>) -> tensor<8x32x48xf32> {
  %init94 = tensor.empty() : tensor<8x32x48xf32>
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init94) : tensor<144x32xbf16>, tensor<144x48xbf16>, tensor<8xi32> -> tensor<8x32x48xf32>
  return %0 : tensor<8x32x48xf32>
}

// -----

// CHECK-LABEL: func.func @grouped_weight_grad_nk(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<144x48xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>) -> tensor<8x48x32xbf16>
// CHECK-NEXT: %[[INIT95:.+]] = tensor.empty() : tensor<8x48x32xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_weight_grad %[[ARG0]], %[[ARG1]], %[[ARG2]] outs(%[[INIT95]]) {weight_layout = #moe<weight_layout nk>} : tensor<144x32xbf16>, tensor<144x48xbf16>, tensor<8xi32> -> tensor<8x48x32xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<8x48x32xbf16>
func.func @grouped_weight_grad_nk(%a: tensor<144x32xbf16>, %dc: tensor<144x48xbf16>, %s: tensor<8xi32>) -> tensor<8x48x32xbf16> {
  %init96 = tensor.empty() : tensor<8x48x32xbf16>
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init96) {weight_layout = #moe<weight_layout nk>} : tensor<144x32xbf16>, tensor<144x48xbf16>, tensor<8xi32> -> tensor<8x48x32xbf16>
  return %0 : tensor<8x48x32xbf16>
}

// -----

// transposed_operands: a [Kd, R], dc [N, R], without scales.
// CHECK-LABEL: func.func @grouped_weight_grad_transposed(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<32x144xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<48x144xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>) -> tensor<8x32x48xf32>
// CHECK-NEXT: %[[INIT:.+]] = tensor.empty() : tensor<8x32x48xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_weight_grad %[[ARG0]], %[[ARG1]], %[[ARG2]] outs(%[[INIT]]) {transposed_operands} : tensor<32x144xbf16>, tensor<48x144xbf16>, tensor<8xi32> -> tensor<8x32x48xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x32x48xf32>
// GENERIC-LABEL: sym_name = "grouped_weight_grad_transposed"
// GENERIC: "moe.grouped_weight_grad"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>, transposed_operands, weight_layout = #moe<weight_layout kn>}> : (tensor<32x144xbf16>, tensor<48x144xbf16>, tensor<8xi32>, tensor<8x32x48xf32>) -> tensor<8x32x48xf32>
func.func @grouped_weight_grad_transposed(%a: tensor<32x144xbf16>, %dc: tensor<48x144xbf16>, %s: tensor<8xi32>) -> tensor<8x32x48xf32> {
  %init = tensor.empty() : tensor<8x32x48xf32>
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init) {transposed_operands} : tensor<32x144xbf16>, tensor<48x144xbf16>, tensor<8xi32> -> tensor<8x32x48xf32>
  return %0 : tensor<8x32x48xf32>
}

// -----

// FP8 with block_1x128 scales of the transposed operands (mixed e4m3/e5m2),
// weight_layout nk.
// CHECK-LABEL: func.func @grouped_weight_grad_fp8_block(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<32x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<48x256xf8E5M2>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<32x2xf32>, %[[ARG4:[a-z0-9_]+]]: tensor<48x2xf32>) -> tensor<8x48x32xbf16>
// CHECK-NEXT: %[[INIT:.+]] = tensor.empty() : tensor<8x48x32xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_weight_grad %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) outs(%[[INIT]]) {transposed_operands, weight_layout = #moe<weight_layout nk>} : tensor<32x256xf8E4M3FN>, tensor<48x256xf8E5M2>, tensor<8xi32>, tensor<32x2xf32>, tensor<48x2xf32> -> tensor<8x48x32xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<8x48x32xbf16>
// GENERIC-LABEL: sym_name = "grouped_weight_grad_fp8_block"
// GENERIC: "moe.grouped_weight_grad"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>, transposed_operands, weight_layout = #moe<weight_layout nk>}>
func.func @grouped_weight_grad_fp8_block(%a: tensor<32x256xf8E4M3FN>, %dc: tensor<48x256xf8E5M2>, %s: tensor<8xi32>, %as: tensor<32x2xf32>, %ds: tensor<48x2xf32>) -> tensor<8x48x32xbf16> {
  %init = tensor.empty() : tensor<8x48x32xbf16>
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) {transposed_operands, weight_layout = #moe<weight_layout nk>} : tensor<32x256xf8E4M3FN>, tensor<48x256xf8E5M2>, tensor<8xi32>, tensor<32x2xf32>, tensor<48x2xf32> -> tensor<8x48x32xbf16>
  return %0 : tensor<8x48x32xbf16>
}

// -----

// FP8 with tensor-wise (0-d) scales; R = 200 is no multiple of 128.
// CHECK-LABEL: func.func @grouped_weight_grad_fp8_tensorwise(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<32x200xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<48x200xf8E4M3FN>, %[[ARG2:[a-z0-9_]+]]: tensor<8xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<f32>, %[[ARG4:[a-z0-9_]+]]: tensor<f32>) -> tensor<8x32x48xf32>
// CHECK-NEXT: %[[INIT:.+]] = tensor.empty() : tensor<8x32x48xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_weight_grad %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) outs(%[[INIT]]) {transposed_operands} : tensor<32x200xf8E4M3FN>, tensor<48x200xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32> -> tensor<8x32x48xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x32x48xf32>
func.func @grouped_weight_grad_fp8_tensorwise(%a: tensor<32x200xf8E4M3FN>, %dc: tensor<48x200xf8E4M3FN>, %s: tensor<8xi32>, %as: tensor<f32>, %ds: tensor<f32>) -> tensor<8x32x48xf32> {
  %init = tensor.empty() : tensor<8x32x48xf32>
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) {transposed_operands} : tensor<32x200xf8E4M3FN>, tensor<48x200xf8E4M3FN>, tensor<8xi32>, tensor<f32>, tensor<f32> -> tensor<8x32x48xf32>
  return %0 : tensor<8x32x48xf32>
}

// -----

// On memrefs: a dynamic R, block scales [Kd, ?] and [N, ?].
// CHECK-LABEL: func.func @grouped_weight_grad_fp8_memref(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: memref<32x?xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: memref<48x?xf8E5M2>, %[[ARG2:[a-z0-9_]+]]: memref<8xi32>, %[[ARG3:[a-z0-9_]+]]: memref<32x?xf32>, %[[ARG4:[a-z0-9_]+]]: memref<48x?xf32>, %[[ARG5:[a-z0-9_]+]]: memref<8x32x48xbf16>)
// CHECK-NEXT: moe.grouped_weight_grad %[[ARG0]], %[[ARG1]], %[[ARG2]] scales(%[[ARG3]], %[[ARG4]]) outs(%[[ARG5]]) {transposed_operands} : memref<32x?xf8E4M3FN>, memref<48x?xf8E5M2>, memref<8xi32>, memref<32x?xf32>, memref<48x?xf32> -> memref<8x32x48xbf16>
func.func @grouped_weight_grad_fp8_memref(%a: memref<32x?xf8E4M3FN>, %dc: memref<48x?xf8E5M2>, %s: memref<8xi32>, %as: memref<32x?xf32>, %ds: memref<48x?xf32>, %db: memref<8x32x48xbf16>) {
  moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%db) {transposed_operands} : memref<32x?xf8E4M3FN>, memref<48x?xf8E5M2>, memref<8xi32>, memref<32x?xf32>, memref<48x?xf32> -> memref<8x32x48xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @glu_two_operands(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x48xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<144x48xbf16>) -> (tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>)
// CHECK-NEXT: %[[INIT97:.+]] = tensor.empty() : tensor<144x48xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.glu silu %[[ARG0]], %[[ARG1]] outs(%[[INIT97]]) : tensor<144x48xbf16>, tensor<144x48xbf16> -> tensor<144x48xbf16>
// CHECK-NEXT: %[[INIT98:.+]] = tensor.empty() : tensor<144x48xbf16>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.glu gelu %[[ARG0]], %[[ARG1]] outs(%[[INIT98]]) : tensor<144x48xbf16>, tensor<144x48xbf16> -> tensor<144x48xbf16>
// CHECK-NEXT: %[[INIT99:.+]] = tensor.empty() : tensor<144x48xbf16>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.glu identity %[[ARG0]], %[[ARG1]] outs(%[[INIT99]]) : tensor<144x48xbf16>, tensor<144x48xbf16> -> tensor<144x48xbf16>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>
func.func @glu_two_operands(%g: tensor<144x48xbf16>, %u: tensor<144x48xbf16>) -> (tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>) {
  %init100 = tensor.empty() : tensor<144x48xbf16>
  %0 = moe.glu silu %g, %u outs(%init100) : tensor<144x48xbf16>, tensor<144x48xbf16> -> tensor<144x48xbf16>
  %init101 = tensor.empty() : tensor<144x48xbf16>
  %1 = moe.glu gelu %g, %u outs(%init101) : tensor<144x48xbf16>, tensor<144x48xbf16> -> tensor<144x48xbf16>
  %init102 = tensor.empty() : tensor<144x48xbf16>
  %2 = moe.glu identity %g, %u outs(%init102) : tensor<144x48xbf16>, tensor<144x48xbf16> -> tensor<144x48xbf16>
  return %0, %1, %2 : tensor<144x48xbf16>, tensor<144x48xbf16>, tensor<144x48xbf16>
}

// -----

// CHECK-LABEL: func.func @glu_fused(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x96xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<?x?xf16>) -> (tensor<144x48xf32>, tensor<144x48xf32>, tensor<144x48xf32>, tensor<?x?xf16>)
// CHECK-NEXT: %[[INIT103:.+]] = tensor.empty() : tensor<144x48xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.glu gelu_tanh %[[ARG0]] outs(%[[INIT103]]) : tensor<144x96xf32> -> tensor<144x48xf32>
// CHECK-NEXT: %[[INIT104:.+]] = tensor.empty() : tensor<144x48xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.glu relu %[[ARG0]] outs(%[[INIT104]]) : tensor<144x96xf32> -> tensor<144x48xf32>
// CHECK-NEXT: %[[INIT105:.+]] = tensor.empty() : tensor<144x48xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.glu relu2 %[[ARG0]] outs(%[[INIT105]]) : tensor<144x96xf32> -> tensor<144x48xf32>
// CHECK: %[[INIT106:.+]] = tensor.empty({{.*}}) : tensor<?x?xf16>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = moe.glu silu %[[ARG1]] outs(%[[INIT106]]) : tensor<?x?xf16> -> tensor<?x?xf16>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]] : tensor<144x48xf32>, tensor<144x48xf32>, tensor<144x48xf32>, tensor<?x?xf16>
func.func @glu_fused(%gu: tensor<144x96xf32>, %d: tensor<?x?xf16>) -> (tensor<144x48xf32>, tensor<144x48xf32>, tensor<144x48xf32>, tensor<?x?xf16>) {
  %init107 = tensor.empty() : tensor<144x48xf32>
  %0 = moe.glu gelu_tanh %gu outs(%init107) : tensor<144x96xf32> -> tensor<144x48xf32>
  %init108 = tensor.empty() : tensor<144x48xf32>
  %1 = moe.glu relu %gu outs(%init108) : tensor<144x96xf32> -> tensor<144x48xf32>
  %init109 = tensor.empty() : tensor<144x48xf32>
  %2 = moe.glu relu2 %gu outs(%init109) : tensor<144x96xf32> -> tensor<144x48xf32>
  %init110_c0 = arith.constant 0 : index
  %init110_d0 = tensor.dim %d, %init110_c0 : tensor<?x?xf16>
  %init110_c1 = arith.constant 1 : index
  %init110_2f = tensor.dim %d, %init110_c1 : tensor<?x?xf16>
  %init110_c2 = arith.constant 2 : index
  %init110_f = arith.divui %init110_2f, %init110_c2 : index
  %init110 = tensor.empty(%init110_d0, %init110_f) : tensor<?x?xf16>
  %3 = moe.glu silu %d outs(%init110) : tensor<?x?xf16> -> tensor<?x?xf16>
  return %0, %1, %2, %3 : tensor<144x48xf32>, tensor<144x48xf32>, tensor<144x48xf32>, tensor<?x?xf16>
}

// -----

// CHECK: shard.grid @ep(shape = 4)
// CHECK-LABEL: func.func @all_to_all(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<512x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<4xi32>) -> (tensor<1024x32xbf16>, tensor<4xi32>)
// CHECK-NEXT: %[[INIT111:.+]] = tensor.empty() : tensor<1024x32xbf16>
// CHECK-NEXT: %[[INIT112:.+]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[RECV_SIZES:[a-z0-9_]+]] = moe.all_to_all %[[ARG0]], %[[ARG1]] on @ep axis 0 outs(%[[INIT111]], %[[INIT112]]) : tensor<512x32xbf16>, tensor<4xi32> -> tensor<1024x32xbf16>, tensor<4xi32>
// CHECK-NEXT: return %[[OUTPUT]], %[[RECV_SIZES]] : tensor<1024x32xbf16>, tensor<4xi32>
shard.grid @ep(shape = 4)
// GENERIC-LABEL: sym_name = "all_to_all"
// GENERIC: "moe.all_to_all"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{grid = @ep, grid_axis = 0 : i64}> : (tensor<512x32xbf16>, tensor<4xi32>, tensor<1024x32xbf16>, tensor<4xi32>) -> (tensor<1024x32xbf16>, tensor<4xi32>)
func.func @all_to_all(%x: tensor<512x32xbf16>, %send: tensor<4xi32>) -> (tensor<1024x32xbf16>, tensor<4xi32>) {
  %init113 = tensor.empty() : tensor<1024x32xbf16>
  %init114 = tensor.empty() : tensor<4xi32>
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0 outs(%init113, %init114) : tensor<512x32xbf16>, tensor<4xi32> -> tensor<1024x32xbf16>, tensor<4xi32>
  return %y, %recv : tensor<1024x32xbf16>, tensor<4xi32>
}

// -----

// CHECK: shard.grid @dp_ep(shape = 2x8)
// CHECK-LABEL: func.func @all_to_all_fp8_axis1(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<8xi32>) -> (tensor<?x256xf8E4M3FN>, tensor<8xi32>)
// CHECK: %[[INIT115:.+]] = tensor.empty({{.*}}) : tensor<?x256xf8E4M3FN>
// CHECK-NEXT: %[[INIT116:.+]] = tensor.empty() : tensor<8xi32>
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[RECV_SIZES:[a-z0-9_]+]] = moe.all_to_all %[[ARG0]], %[[ARG1]] on @dp_ep axis 1 outs(%[[INIT115]], %[[INIT116]]) : tensor<?x256xf8E4M3FN>, tensor<8xi32> -> tensor<?x256xf8E4M3FN>, tensor<8xi32>
// CHECK-NEXT: return %[[OUTPUT]], %[[RECV_SIZES]] : tensor<?x256xf8E4M3FN>, tensor<8xi32>
shard.grid @dp_ep(shape = 2x8)
func.func @all_to_all_fp8_axis1(%x: tensor<?x256xf8E4M3FN>, %send: tensor<8xi32>) -> (tensor<?x256xf8E4M3FN>, tensor<8xi32>) {
  %init117_c0 = arith.constant 0 : index
  %init117_d0 = tensor.dim %x, %init117_c0 : tensor<?x256xf8E4M3FN>
  %init117 = tensor.empty(%init117_d0) : tensor<?x256xf8E4M3FN>
  %init118 = tensor.empty() : tensor<8xi32>
  %y, %recv = moe.all_to_all %x, %send on @dp_ep axis 1 outs(%init117, %init118) : tensor<?x256xf8E4M3FN>, tensor<8xi32> -> tensor<?x256xf8E4M3FN>, tensor<8xi32>
  return %y, %recv : tensor<?x256xf8E4M3FN>, tensor<8xi32>
}

// -----

// CHECK: shard.grid @ep(shape = 4)
// CHECK-LABEL: func.func @all_to_all_chunked(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<512x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<8xi32>) -> (tensor<1024x32xbf16>, tensor<8xi32>)
// CHECK: %[[OUTPUT:[a-z0-9_]+]], %[[RECV_SIZES:[a-z0-9_]+]] = moe.all_to_all %[[ARG0]], %[[ARG1]] on @ep axis 0 outs(%{{.+}}, %{{.+}}) : tensor<512x32xbf16>, tensor<8xi32> -> tensor<1024x32xbf16>, tensor<8xi32>
// CHECK-NEXT: return %[[OUTPUT]], %[[RECV_SIZES]] : tensor<1024x32xbf16>, tensor<8xi32>
shard.grid @ep(shape = 4)
func.func @all_to_all_chunked(%x: tensor<512x32xbf16>, %send: tensor<8xi32>) -> (tensor<1024x32xbf16>, tensor<8xi32>) {
  %y0 = tensor.empty() : tensor<1024x32xbf16>
  %r0 = tensor.empty() : tensor<8xi32>
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0 outs(%y0, %r0) : tensor<512x32xbf16>, tensor<8xi32> -> tensor<1024x32xbf16>, tensor<8xi32>
  return %y, %recv : tensor<1024x32xbf16>, tensor<8xi32>
}

// -----

// CHECK-LABEL: func.func @quantize_with_transpose(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<256x384xbf16>)
// CHECK: %[[Q:[a-z0-9_]+]], %[[S:[a-z0-9_]+]], %[[QT:[a-z0-9_]+]], %[[ST:[a-z0-9_]+]] = moe.quantize_with_transpose %[[X]] outs(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>
// CHECK-NEXT: return %[[Q]], %[[S]], %[[QT]], %[[ST]]
// GENERIC-LABEL: sym_name = "quantize_with_transpose"
// GENERIC: "moe.quantize_with_transpose"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<256x384xbf16>, tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>) -> (tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>)
func.func @quantize_with_transpose(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>) {
  %q0 = tensor.empty() : tensor<256x384xf8E4M3FN>
  %s0 = tensor.empty() : tensor<256x3xf32>
  %qt0 = tensor.empty() : tensor<384x256xf8E5M2>
  %st0 = tensor.empty() : tensor<384x2xf32>
  %q, %s, %qt, %st = moe.quantize_with_transpose %x outs(%q0, %s0, %qt0, %st0) : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>
  return %q, %s, %qt, %st : tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>
}

// -----

// On buffers (partial blocks: 200 rows, 136 columns).
// CHECK-LABEL: func.func @quantize_with_transpose_memref(
// CHECK: moe.quantize_with_transpose %{{.*}} outs(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : memref<200x136xf32> -> memref<200x136xf8E5M2>, memref<200x2xf32>, memref<136x200xf8E5M2>, memref<136x2xf32>
func.func @quantize_with_transpose_memref(%x: memref<200x136xf32>, %q: memref<200x136xf8E5M2>, %s: memref<200x2xf32>, %qt: memref<136x200xf8E5M2>, %st: memref<136x2xf32>) {
  moe.quantize_with_transpose %x outs(%q, %s, %qt, %st) : memref<200x136xf32> -> memref<200x136xf8E5M2>, memref<200x2xf32>, memref<136x200xf8E5M2>, memref<136x2xf32>
  return
}

// -----

// CHECK-LABEL: func.func @permute_rows(
// CHECK-SAME: %[[S:[a-z0-9_]+]]: tensor<64x2xf32>, %[[R:[a-z0-9_]+]]: tensor<64x2xi32>) -> tensor<248x2xf32>
// CHECK-NEXT: %[[P0:.+]] = tensor.empty() : tensor<248x2xf32>
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]] = moe.permute_rows %[[S]], %[[R]] outs(%[[P0]]) : tensor<64x2xf32>, tensor<64x2xi32> -> tensor<248x2xf32>
// CHECK-NEXT: return %[[PERMUTED]]
// GENERIC-LABEL: sym_name = "permute_rows"
// GENERIC: "moe.permute_rows"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<64x2xf32>, tensor<64x2xi32>, tensor<248x2xf32>) -> tensor<248x2xf32>
func.func @permute_rows(%scale: tensor<64x2xf32>, %rows: tensor<64x2xi32>) -> tensor<248x2xf32> {
  %p0 = tensor.empty() : tensor<248x2xf32>
  %p = moe.permute_rows %scale, %rows outs(%p0) : tensor<64x2xf32>, tensor<64x2xi32> -> tensor<248x2xf32>
  return %p : tensor<248x2xf32>
}

// -----

// CHECK-LABEL: func.func @permute_rows_memref(
// CHECK-NEXT: moe.permute_rows %{{.*}}, %{{.*}} outs(%{{.*}}) : memref<?x16xf8E4M3FN>, memref<?x8xi32> -> memref<?x16xf8E4M3FN>
func.func @permute_rows_memref(%x: memref<?x16xf8E4M3FN>, %rows: memref<?x8xi32>, %p: memref<?x16xf8E4M3FN>) {
  moe.permute_rows %x, %rows outs(%p) : memref<?x16xf8E4M3FN>, memref<?x8xi32> -> memref<?x16xf8E4M3FN>
  return
}

// -----

// CHECK-LABEL: func.func @sort_chunks(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<1024x32xbf16>, %[[C:[a-z0-9_]+]]: tensor<8xi32>) -> (tensor<1024x32xbf16>, tensor<2xi32>, tensor<1024x32xbf16>, tensor<4xi32>)
// CHECK-NEXT: %[[Y0:.+]] = tensor.empty() : tensor<1024x32xbf16>
// CHECK-NEXT: %[[S0:.+]] = tensor.empty() : tensor<2xi32>
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SIZES:[a-z0-9_]+]] = moe.sort_chunks %[[X]], %[[C]] outs(%[[Y0]], %[[S0]]) : tensor<1024x32xbf16>, tensor<8xi32> -> tensor<1024x32xbf16>, tensor<2xi32>
// CHECK-NEXT: %[[P0:.+]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT: %[[OUTPUT_0:[a-z0-9_]+]], %[[SIZES_1:[a-z0-9_]+]] = moe.sort_chunks inverse %[[OUTPUT]], %[[C]] outs(%[[Y0]], %[[P0]]) : tensor<1024x32xbf16>, tensor<8xi32> -> tensor<1024x32xbf16>, tensor<4xi32>
// CHECK-NEXT: return %[[OUTPUT]], %[[SIZES]], %[[OUTPUT_0]], %[[SIZES_1]]
// GENERIC-LABEL: sym_name = "sort_chunks"
// GENERIC: "moe.sort_chunks"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1024x32xbf16>, tensor<8xi32>, tensor<1024x32xbf16>, tensor<2xi32>) -> (tensor<1024x32xbf16>, tensor<2xi32>)
// GENERIC: "moe.sort_chunks"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{inverse}> : (tensor<1024x32xbf16>, tensor<8xi32>, tensor<1024x32xbf16>, tensor<4xi32>) -> (tensor<1024x32xbf16>, tensor<4xi32>)
func.func @sort_chunks(%x: tensor<1024x32xbf16>, %counts: tensor<8xi32>) -> (tensor<1024x32xbf16>, tensor<2xi32>, tensor<1024x32xbf16>, tensor<4xi32>) {
  %y0 = tensor.empty() : tensor<1024x32xbf16>
  %s0 = tensor.empty() : tensor<2xi32>
  %y, %sizes = moe.sort_chunks %x, %counts outs(%y0, %s0) : tensor<1024x32xbf16>, tensor<8xi32> -> tensor<1024x32xbf16>, tensor<2xi32>
  %p0 = tensor.empty() : tensor<4xi32>
  %z, %psizes = moe.sort_chunks inverse %y, %counts outs(%y0, %p0) : tensor<1024x32xbf16>, tensor<8xi32> -> tensor<1024x32xbf16>, tensor<4xi32>
  return %y, %sizes, %z, %psizes : tensor<1024x32xbf16>, tensor<2xi32>, tensor<1024x32xbf16>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @sort_chunks_memref(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<?x16xf8E4M3FN>, %[[C:[a-z0-9_]+]]: memref<6xi32>, %[[Y:[a-z0-9_]+]]: memref<?x16xf8E4M3FN>, %[[S:[a-z0-9_]+]]: memref<3xi32>)
// CHECK-NEXT: moe.sort_chunks inverse %[[X]], %[[C]] outs(%[[Y]], %[[S]]) : memref<?x16xf8E4M3FN>, memref<6xi32> -> memref<?x16xf8E4M3FN>, memref<3xi32>
func.func @sort_chunks_memref(%x: memref<?x16xf8E4M3FN>, %c: memref<6xi32>, %y: memref<?x16xf8E4M3FN>, %s: memref<3xi32>) {
  moe.sort_chunks inverse %x, %c outs(%y, %s) : memref<?x16xf8E4M3FN>, memref<6xi32> -> memref<?x16xf8E4M3FN>, memref<3xi32>
  return
}

// -----

// CHECK: shard.grid @dp_ep(shape = 2x4)
// CHECK-LABEL: func.func @all_reduce(
// CHECK-SAME: %[[L:[a-z0-9_]+]]: tensor<f32>, %[[C:[a-z0-9_]+]]: tensor<8xi64>) -> (tensor<f32>, tensor<8xi64>)
// CHECK-NEXT: %[[L0:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.all_reduce %[[L]] on @dp_ep axes [1] outs(%[[L0]]) : tensor<f32> -> tensor<f32>
// CHECK-NEXT: %[[C0:.+]] = tensor.empty() : tensor<8xi64>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.all_reduce %[[C]] on @dp_ep axes [0, 1] outs(%[[C0]]) : tensor<8xi64> -> tensor<8xi64>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<f32>, tensor<8xi64>
// GENERIC-LABEL: sym_name = "all_reduce"
// GENERIC: "moe.all_reduce"(%{{.*}}, %{{.*}}) <{grid = @dp_ep, grid_axes = array<i64: 1>}> : (tensor<f32>, tensor<f32>) -> tensor<f32>
shard.grid @dp_ep(shape = 2x4)
func.func @all_reduce(%loss: tensor<f32>, %counts: tensor<8xi64>) -> (tensor<f32>, tensor<8xi64>) {
  %l0 = tensor.empty() : tensor<f32>
  %l = moe.all_reduce %loss on @dp_ep axes [1] outs(%l0) : tensor<f32> -> tensor<f32>
  %c0 = tensor.empty() : tensor<8xi64>
  %c = moe.all_reduce %counts on @dp_ep axes [0, 1] outs(%c0) : tensor<8xi64> -> tensor<8xi64>
  return %l, %c : tensor<f32>, tensor<8xi64>
}

// -----

// CHECK-LABEL: func.func @all_reduce_memref(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<3x5xf64>, %[[Y:[a-z0-9_]+]]: memref<3x5xf64>)
// CHECK-NEXT: moe.all_reduce %[[X]] on @ep axes [0] outs(%[[Y]]) : memref<3x5xf64> -> memref<3x5xf64>
shard.grid @ep(shape = 4)
func.func @all_reduce_memref(%x: memref<3x5xf64>, %y: memref<3x5xf64>) {
  moe.all_reduce %x on @ep axes [0] outs(%y) : memref<3x5xf64> -> memref<3x5xf64>
  return
}

// -----

// CHECK-LABEL: func.func @combine(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<64x2xi32>, %[[ARG2:[a-z0-9_]+]]: tensor<64x2xf32>) -> tensor<64x32xbf16>
// CHECK-NEXT: %[[INIT119:.+]] = tensor.empty() : tensor<64x32xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.combine %[[ARG0]], %[[ARG1]], %[[ARG2]] outs(%[[INIT119]]) : tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32> -> tensor<64x32xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<64x32xbf16>
func.func @combine(%y: tensor<144x32xbf16>, %rows: tensor<64x2xi32>, %w: tensor<64x2xf32>) -> tensor<64x32xbf16> {
  %init120 = tensor.empty() : tensor<64x32xbf16>
  %0 = moe.combine %y, %rows, %w outs(%init120) : tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32> -> tensor<64x32xbf16>
  return %0 : tensor<64x32xbf16>
}

// -----

// CHECK-LABEL: func.func @quantize_tensorwise(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xbf16>) -> (tensor<144x256xf8E4M3FN>, tensor<f32>)
// CHECK-NEXT: %[[INIT121:.+]] = tensor.empty() : tensor<144x256xf8E4M3FN>
// CHECK-NEXT: %[[INIT122:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]] = moe.quantize tensorwise %[[ARG0]] outs(%[[INIT121]], %[[INIT122]]) : tensor<144x256xbf16> -> tensor<144x256xf8E4M3FN>, tensor<f32>
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]] : tensor<144x256xf8E4M3FN>, tensor<f32>
func.func @quantize_tensorwise(%x: tensor<144x256xbf16>) -> (tensor<144x256xf8E4M3FN>, tensor<f32>) {
  %init123 = tensor.empty() : tensor<144x256xf8E4M3FN>
  %init124 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%init123, %init124) : tensor<144x256xbf16> -> tensor<144x256xf8E4M3FN>, tensor<f32>
  return %q, %s : tensor<144x256xf8E4M3FN>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @quantize_delayed(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<16xf32>) -> (tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>)
// CHECK-NEXT: %[[INIT125:.+]] = tensor.empty() : tensor<144x256xf8E5M2>
// CHECK-NEXT: %[[INIT126:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]], %[[NEW_AMAX_HISTORY:[a-z0-9_]+]] = moe.quantize delayed %[[ARG0]] outs(%[[INIT125]], %[[INIT126]], %[[ARG1]]) : tensor<144x256xf32> -> tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]], %[[NEW_AMAX_HISTORY]] : tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>
// GENERIC-LABEL: sym_name = "quantize_delayed"
// GENERIC: "moe.quantize"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{recipe = #moe<recipe delayed>}> : (tensor<144x256xf32>, tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>) -> (tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>)
func.func @quantize_delayed(%x: tensor<144x256xf32>, %h: tensor<16xf32>) -> (tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>) {
  %init128 = tensor.empty() : tensor<144x256xf8E5M2>
  %init129 = tensor.empty() : tensor<f32>
  %q, %s, %nh = moe.quantize delayed %x outs(%init128, %init129, %h) : tensor<144x256xf32> -> tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>
  return %q, %s, %nh : tensor<144x256xf8E5M2>, tensor<f32>, tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @quantize_block_1x128(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x300xbf16>) -> (tensor<144x300xf8E4M3FN>, tensor<144x3xf32>)
// CHECK-NEXT: %[[INIT130:.+]] = tensor.empty() : tensor<144x300xf8E4M3FN>
// CHECK-NEXT: %[[INIT131:.+]] = tensor.empty() : tensor<144x3xf32>
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]] = moe.quantize block_1x128 %[[ARG0]] outs(%[[INIT130]], %[[INIT131]]) : tensor<144x300xbf16> -> tensor<144x300xf8E4M3FN>, tensor<144x3xf32>
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]] : tensor<144x300xf8E4M3FN>, tensor<144x3xf32>
func.func @quantize_block_1x128(%x: tensor<144x300xbf16>) -> (tensor<144x300xf8E4M3FN>, tensor<144x3xf32>) {
  %init132 = tensor.empty() : tensor<144x300xf8E4M3FN>
  %init133 = tensor.empty() : tensor<144x3xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%init132, %init133) : tensor<144x300xbf16> -> tensor<144x300xf8E4M3FN>, tensor<144x3xf32>
  return %q, %s : tensor<144x300xf8E4M3FN>, tensor<144x3xf32>
}

// -----

// CHECK-LABEL: func.func @quantize_block_128x128(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<8x256x300xbf16>) -> (tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>)
// CHECK-NEXT: %[[INIT134:.+]] = tensor.empty() : tensor<8x256x300xf8E4M3FN>
// CHECK-NEXT: %[[INIT135:.+]] = tensor.empty() : tensor<8x2x3xf32>
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]] = moe.quantize block_128x128 %[[ARG0]] outs(%[[INIT134]], %[[INIT135]]) : tensor<8x256x300xbf16> -> tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]] : tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>
func.func @quantize_block_128x128(%w: tensor<8x256x300xbf16>) -> (tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>) {
  %init136 = tensor.empty() : tensor<8x256x300xf8E4M3FN>
  %init137 = tensor.empty() : tensor<8x2x3xf32>
  %q, %s = moe.quantize block_128x128 %w outs(%init136, %init137) : tensor<8x256x300xbf16> -> tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>
  return %q, %s : tensor<8x256x300xf8E4M3FN>, tensor<8x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @quantize_mx_1x32(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x100xbf16>) -> (tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>)
// CHECK-NEXT: %[[INIT138:.+]] = tensor.empty() : tensor<144x100xf8E4M3FN>
// CHECK-NEXT: %[[INIT139:.+]] = tensor.empty() : tensor<144x4xf8E8M0FNU>
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]] = moe.quantize mx_1x32 %[[ARG0]] outs(%[[INIT138]], %[[INIT139]]) : tensor<144x100xbf16> -> tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]] : tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>
func.func @quantize_mx_1x32(%x: tensor<144x100xbf16>) -> (tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>) {
  %init140 = tensor.empty() : tensor<144x100xf8E4M3FN>
  %init141 = tensor.empty() : tensor<144x4xf8E8M0FNU>
  %q, %s = moe.quantize mx_1x32 %x outs(%init140, %init141) : tensor<144x100xbf16> -> tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>
  return %q, %s : tensor<144x100xf8E4M3FN>, tensor<144x4xf8E8M0FNU>
}

// -----

// CHECK-LABEL: func.func @quantize_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>)
// CHECK: %[[INIT142:.+]] = tensor.empty({{.*}}) : tensor<?x?xf8E4M3FN>
// CHECK: %[[INIT143:.+]] = tensor.empty({{.*}}) : tensor<?x?xf32>
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]] = moe.quantize block_1x128 %[[ARG0]] outs(%[[INIT142]], %[[INIT143]]) : tensor<?x?xf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
// CHECK-NEXT: return %[[OUTPUT]], %[[SCALE]] : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
func.func @quantize_dynamic(%x: tensor<?x?xf16>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf32>) {
  %init144_c0 = arith.constant 0 : index
  %init144_d0 = tensor.dim %x, %init144_c0 : tensor<?x?xf16>
  %init144_c1 = arith.constant 1 : index
  %init144_d1 = tensor.dim %x, %init144_c1 : tensor<?x?xf16>
  %init144 = tensor.empty(%init144_d0, %init144_d1) : tensor<?x?xf8E4M3FN>
  %init145_c0 = arith.constant 0 : index
  %init145_d0 = tensor.dim %x, %init145_c0 : tensor<?x?xf16>
  %init145_c1 = arith.constant 1 : index
  %init145_d1 = tensor.dim %x, %init145_c1 : tensor<?x?xf16>
  %init145 = tensor.empty(%init145_d0, %init145_d1) : tensor<?x?xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%init144, %init145) : tensor<?x?xf16> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @dequantize(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<144x256xf8E4M3FN>, %[[ARG1:[a-z0-9_]+]]: tensor<f32>, %[[ARG2:[a-z0-9_]+]]: tensor<144x2xf32>, %[[ARG3:[a-z0-9_]+]]: tensor<2x2xf32>, %[[ARG4:[a-z0-9_]+]]: tensor<144x8xf8E8M0FNU>, %[[ARG5:[a-z0-9_]+]]: tensor<144x256xf8E5M2>) -> (tensor<144x256xbf16>, tensor<144x256xf32>, tensor<144x256xf16>, tensor<144x256xbf16>, tensor<144x256xbf16>)
// CHECK-NEXT: %[[INIT146:.+]] = tensor.empty() : tensor<144x256xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.dequantize tensorwise %[[ARG0]], %[[ARG1]] outs(%[[INIT146]]) : tensor<144x256xf8E4M3FN>, tensor<f32> -> tensor<144x256xbf16>
// CHECK-NEXT: %[[INIT147:.+]] = tensor.empty() : tensor<144x256xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.dequantize block_1x128 %[[ARG0]], %[[ARG2]] outs(%[[INIT147]]) : tensor<144x256xf8E4M3FN>, tensor<144x2xf32> -> tensor<144x256xf32>
// CHECK-NEXT: %[[INIT148:.+]] = tensor.empty() : tensor<144x256xf16>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.dequantize block_128x128 %[[ARG0]], %[[ARG3]] outs(%[[INIT148]]) : tensor<144x256xf8E4M3FN>, tensor<2x2xf32> -> tensor<144x256xf16>
// CHECK-NEXT: %[[INIT149:.+]] = tensor.empty() : tensor<144x256xbf16>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = moe.dequantize mx_1x32 %[[ARG0]], %[[ARG4]] outs(%[[INIT149]]) : tensor<144x256xf8E4M3FN>, tensor<144x8xf8E8M0FNU> -> tensor<144x256xbf16>
// CHECK-NEXT: %[[INIT150:.+]] = tensor.empty() : tensor<144x256xbf16>
// CHECK-NEXT: %[[V4:[a-z0-9_]+]] = moe.dequantize delayed %[[ARG5]], %[[ARG1]] outs(%[[INIT150]]) : tensor<144x256xf8E5M2>, tensor<f32> -> tensor<144x256xbf16>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]] : tensor<144x256xbf16>, tensor<144x256xf32>, tensor<144x256xf16>, tensor<144x256xbf16>, tensor<144x256xbf16>
func.func @dequantize(%q: tensor<144x256xf8E4M3FN>, %s0: tensor<f32>, %s1: tensor<144x2xf32>, %s2: tensor<2x2xf32>, %s3: tensor<144x8xf8E8M0FNU>, %q5: tensor<144x256xf8E5M2>) -> (tensor<144x256xbf16>, tensor<144x256xf32>, tensor<144x256xf16>, tensor<144x256xbf16>, tensor<144x256xbf16>) {
  %init151 = tensor.empty() : tensor<144x256xbf16>
  %0 = moe.dequantize tensorwise %q, %s0 outs(%init151) : tensor<144x256xf8E4M3FN>, tensor<f32> -> tensor<144x256xbf16>
  %init152 = tensor.empty() : tensor<144x256xf32>
  %1 = moe.dequantize block_1x128 %q, %s1 outs(%init152) : tensor<144x256xf8E4M3FN>, tensor<144x2xf32> -> tensor<144x256xf32>
  %init153 = tensor.empty() : tensor<144x256xf16>
  %2 = moe.dequantize block_128x128 %q, %s2 outs(%init153) : tensor<144x256xf8E4M3FN>, tensor<2x2xf32> -> tensor<144x256xf16>
  %init154 = tensor.empty() : tensor<144x256xbf16>
  %3 = moe.dequantize mx_1x32 %q, %s3 outs(%init154) : tensor<144x256xf8E4M3FN>, tensor<144x8xf8E8M0FNU> -> tensor<144x256xbf16>
  %init155 = tensor.empty() : tensor<144x256xbf16>
  %4 = moe.dequantize delayed %q5, %s0 outs(%init155) : tensor<144x256xf8E5M2>, tensor<f32> -> tensor<144x256xbf16>
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
// CHECK-NEXT: %[[INIT156:.+]] = tensor.empty() : tensor<144x32xbf16>
// CHECK-NEXT: %[[INIT157:.+]] = tensor.empty() : tensor<64x2xf32>
// CHECK-NEXT: %[[DY:[a-z0-9_]+]], %[[DWEIGHTS:[a-z0-9_]+]] = moe.combine_grad %[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]] outs(%[[INIT156]], %[[INIT157]]) : tensor<64x32xbf16>, tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32> -> tensor<144x32xbf16>, tensor<64x2xf32>
// CHECK-NEXT: return %[[DY]], %[[DWEIGHTS]] : tensor<144x32xbf16>, tensor<64x2xf32>
// GENERIC-LABEL: sym_name = "combine_grad"
// GENERIC: "moe.combine_grad"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<64x32xbf16>, tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32>, tensor<144x32xbf16>, tensor<64x2xf32>) -> (tensor<144x32xbf16>, tensor<64x2xf32>)
func.func @combine_grad(%dout: tensor<64x32xbf16>, %y: tensor<144x32xbf16>, %rows: tensor<64x2xi32>, %w: tensor<64x2xf32>) -> (tensor<144x32xbf16>, tensor<64x2xf32>) {
  %init158 = tensor.empty() : tensor<144x32xbf16>
  %init159 = tensor.empty() : tensor<64x2xf32>
  %dy, %dw = moe.combine_grad %dout, %y, %rows, %w outs(%init158, %init159) : tensor<64x32xbf16>, tensor<144x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32> -> tensor<144x32xbf16>, tensor<64x2xf32>
  return %dy, %dw : tensor<144x32xbf16>, tensor<64x2xf32>
}

// -----

// Written in the generic form; each destination dim is checked against
// whichever operand has it static (H from 'dout', T from 'weights', K from
// 'rows').
// CHECK-LABEL: func.func @combine_grad_generic_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x32xf16>, %[[ARG1:[a-z0-9_]+]]: tensor<?x?xf16>, %[[ARG2:[a-z0-9_]+]]: tensor<?x4xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<16x?xf32>) -> (tensor<?x32xf16>, tensor<16x4xf32>)
// CHECK: %[[INIT160:.+]] = tensor.empty({{.*}}) : tensor<?x32xf16>
// CHECK-NEXT: %[[INIT161:.+]] = tensor.empty() : tensor<16x4xf32>
// CHECK-NEXT: %[[DY:[a-z0-9_]+]], %[[DWEIGHTS:[a-z0-9_]+]] = moe.combine_grad %[[ARG0]], %[[ARG1]], %[[ARG2]], %[[ARG3]] outs(%[[INIT160]], %[[INIT161]]) : tensor<?x32xf16>, tensor<?x?xf16>, tensor<?x4xi32>, tensor<16x?xf32> -> tensor<?x32xf16>, tensor<16x4xf32>
// CHECK-NEXT: return %[[DY]], %[[DWEIGHTS]] : tensor<?x32xf16>, tensor<16x4xf32>
// GENERIC-LABEL: sym_name = "combine_grad_generic_dynamic"
// GENERIC: "moe.combine_grad"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<?x32xf16>, tensor<?x?xf16>, tensor<?x4xi32>, tensor<16x?xf32>, tensor<?x32xf16>, tensor<16x4xf32>) -> (tensor<?x32xf16>, tensor<16x4xf32>)
func.func @combine_grad_generic_dynamic(%dout: tensor<?x32xf16>, %y: tensor<?x?xf16>, %rows: tensor<?x4xi32>, %w: tensor<16x?xf32>) -> (tensor<?x32xf16>, tensor<16x4xf32>) {
  %c0 = arith.constant 0 : index
  %r = tensor.dim %y, %c0 : tensor<?x?xf16>
  %dy0 = tensor.empty(%r) : tensor<?x32xf16>
  %dw0 = tensor.empty() : tensor<16x4xf32>
  %dy, %dw = "moe.combine_grad"(%dout, %y, %rows, %w, %dy0, %dw0) : (tensor<?x32xf16>, tensor<?x?xf16>, tensor<?x4xi32>, tensor<16x?xf32>, tensor<?x32xf16>, tensor<16x4xf32>) -> (tensor<?x32xf16>, tensor<16x4xf32>)
  return %dy, %dw : tensor<?x32xf16>, tensor<16x4xf32>
}

// -----

// On memrefs: the same ops write their destination buffers and have no
// results.
// CHECK-LABEL: func.func @on_memrefs(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<4x8xbf16>, %[[W:[a-z0-9_]+]]: memref<8x4xf32>, %[[B:[a-z0-9_]+]]: memref<4xf32>, %[[L:[a-z0-9_]+]]: memref<4x4xf32>, %[[WT:[a-z0-9_]+]]: memref<4x2xf32>, %[[IDX:[a-z0-9_]+]]: memref<4x2xi32>, %[[Q:[a-z0-9_]+]]: memref<4x8xf8E4M3FN>, %[[S:[a-z0-9_]+]]: memref<f32>, %[[H:[a-z0-9_]+]]: memref<16xf32>)
// CHECK-NEXT: moe.gate %[[X]], %[[W]] outs(%[[L]]) : memref<4x8xbf16>, memref<8x4xf32> -> memref<4x4xf32>
// CHECK-NEXT: moe.topk sigmoid %[[L]] bias %[[B]] k 2 outs(%[[WT]], %[[IDX]]) {normalize = #moe<normalize sum>} : memref<4x4xf32>, memref<4xf32> -> memref<4x2xf32>, memref<4x2xi32>
// CHECK-NEXT: moe.quantize delayed %[[X]] outs(%[[Q]], %[[S]], %[[H]]) : memref<4x8xbf16> -> memref<4x8xf8E4M3FN>, memref<f32>, memref<16xf32>
// CHECK-NEXT: return
// GENERIC-LABEL: sym_name = "on_memrefs"
// GENERIC: "moe.gate"(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<4x8xbf16>, memref<8x4xf32>, memref<4x4xf32>) -> ()
func.func @on_memrefs(%x: memref<4x8xbf16>, %w: memref<8x4xf32>, %b: memref<4xf32>, %l: memref<4x4xf32>, %wt: memref<4x2xf32>, %idx: memref<4x2xi32>, %q: memref<4x8xf8E4M3FN>, %s: memref<f32>, %h: memref<16xf32>) {
  moe.gate %x, %w outs(%l) : memref<4x8xbf16>, memref<8x4xf32> -> memref<4x4xf32>
  moe.topk sigmoid %l bias %b k 2 outs(%wt, %idx) {normalize = #moe<normalize sum>} : memref<4x4xf32>, memref<4xf32> -> memref<4x2xf32>, memref<4x2xi32>
  moe.quantize delayed %x outs(%q, %s, %h) : memref<4x8xbf16> -> memref<4x8xf8E4M3FN>, memref<f32>, memref<16xf32>
  return
}
