// Legal but odd moe programs: zero-sized and fully dynamic shapes, tensors
// with an encoding, 1-element everything, extreme but legal attributes. They
// verify, round-trip (text, generic and bytecode) and survive canonicalize,
// CSE and moe-expand-layer without a crash.
//
// RUN: moe-opt %s -split-input-file --verify-roundtrip | FileCheck %s
// RUN: moe-opt %s -split-input-file --mlir-print-op-generic | moe-opt -split-input-file | FileCheck %s
// RUN: moe-opt %s -split-input-file --canonicalize --cse --moe-expand-layer --canonicalize --cse \
// RUN:   | FileCheck %s --check-prefix=PASSES

// CHECK-LABEL: func.func @zero_tokens(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<0x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<32x8xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<8xf32>) -> (tensor<0x32xbf16>, tensor<8xi32>, tensor<0x8xi32>, tensor<f32>)
// CHECK-NEXT: %[[INIT1:.+]] = tensor.empty() : tensor<0x8xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.gate %[[ARG0]], %[[ARG1]] outs(%[[INIT1]]) : tensor<0x32xbf16>, tensor<32x8xf32> -> tensor<0x8xf32>
// CHECK-NEXT: %[[INIT2:.+]] = tensor.empty() : tensor<0x8xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.route sigmoid %[[V0]] outs(%[[INIT2]]) : tensor<0x8xf32> -> tensor<0x8xf32>
// CHECK-NEXT: %[[INIT3:.+]] = tensor.empty() : tensor<0x8xf32>
// CHECK-NEXT: %[[INIT4:.+]] = tensor.empty() : tensor<0x8xi32>
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk sigmoid %[[V1]] bias %[[ARG2]] k 8 outs(%[[INIT3]], %[[INIT4]]) : tensor<0x8xf32>, tensor<8xf32> -> tensor<0x8xf32>, tensor<0x8xi32>
// CHECK-NEXT: %[[INIT5:.+]] = tensor.empty() : tensor<1016x32xbf16>
// CHECK-NEXT: %[[INIT6:.+]] = tensor.empty() : tensor<8xi32>
// CHECK-NEXT: %[[INIT7:.+]] = tensor.empty() : tensor<0x8xi32>
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[INDICES]] experts 8 align 128 outs(%[[INIT5]], %[[INIT6]], %[[INIT7]]) : tensor<0x32xbf16>, tensor<0x8xi32> -> tensor<1016x32xbf16>, tensor<8xi32>, tensor<0x8xi32>
// CHECK-NEXT: %[[INIT8:.+]] = tensor.empty() : tensor<0x32xbf16>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.combine %[[PERMUTED]], %[[ROWS]], %[[WEIGHTS]] outs(%[[INIT8]]) : tensor<1016x32xbf16>, tensor<0x8xi32>, tensor<0x8xf32> -> tensor<0x32xbf16>
// CHECK-NEXT: %[[INIT9:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = moe.aux_loss batch %[[V1]], %[[INDICES]] from sigmoid coeff 1.000000e+00 outs(%[[INIT9]]) : tensor<0x8xf32>, tensor<0x8xi32> -> tensor<f32>
// CHECK-NEXT: return %[[V2]], %[[GROUP_SIZES]], %[[ROWS]], %[[V3]] : tensor<0x32xbf16>, tensor<8xi32>, tensor<0x8xi32>, tensor<f32>
// PASSES-LABEL: func.func @zero_tokens(
func.func @zero_tokens(%x: tensor<0x32xbf16>, %w: tensor<32x8xf32>, %b: tensor<8xf32>) -> (tensor<0x32xbf16>, tensor<8xi32>, tensor<0x8xi32>, tensor<f32>) {
  %init10 = tensor.empty() : tensor<0x8xf32>
  %l = moe.gate %x, %w outs(%init10) : tensor<0x32xbf16>, tensor<32x8xf32> -> tensor<0x8xf32>
  %init11 = tensor.empty() : tensor<0x8xf32>
  %s = moe.route sigmoid %l outs(%init11) : tensor<0x8xf32> -> tensor<0x8xf32>
  %init12 = tensor.empty() : tensor<0x8xf32>
  %init13 = tensor.empty() : tensor<0x8xi32>
  %wt, %i = moe.topk sigmoid %s bias %b k 8 outs(%init12, %init13) : tensor<0x8xf32>, tensor<8xf32> -> tensor<0x8xf32>, tensor<0x8xi32>
  %init14 = tensor.empty() : tensor<1016x32xbf16>
  %init15 = tensor.empty() : tensor<8xi32>
  %init16 = tensor.empty() : tensor<0x8xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 8 align 128 outs(%init14, %init15, %init16) : tensor<0x32xbf16>, tensor<0x8xi32> -> tensor<1016x32xbf16>, tensor<8xi32>, tensor<0x8xi32>
  %init17 = tensor.empty() : tensor<0x32xbf16>
  %y = moe.combine %xs, %rows, %wt outs(%init17) : tensor<1016x32xbf16>, tensor<0x8xi32>, tensor<0x8xf32> -> tensor<0x32xbf16>
  %init18 = tensor.empty() : tensor<f32>
  %aux = moe.aux_loss batch %s, %i from sigmoid coeff 1.000000e+00 outs(%init18) : tensor<0x8xf32>, tensor<0x8xi32> -> tensor<f32>
  return %y, %sizes, %rows, %aux : tensor<0x32xbf16>, tensor<8xi32>, tensor<0x8xi32>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @zero_width(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<16x0xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<2x0x0xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<2xi32>, %[[ARG3:[a-z0-9_]+]]: tensor<16x0xf32>) -> (tensor<16x0xf32>, tensor<2x0x0xf32>, tensor<16x0xf32>)
// CHECK-NEXT: %[[INIT19:.+]] = tensor.empty() : tensor<16x0xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] outs(%[[INIT19]]) : tensor<16x0xf32>, tensor<2x0x0xf32>, tensor<2xi32> -> tensor<16x0xf32>
// CHECK-NEXT: %[[INIT20:.+]] = tensor.empty() : tensor<2x0x0xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.grouped_weight_grad %[[ARG0]], %[[V0]], %[[ARG2]] outs(%[[INIT20]]) : tensor<16x0xf32>, tensor<16x0xf32>, tensor<2xi32> -> tensor<2x0x0xf32>
// CHECK-NEXT: %[[INIT21:.+]] = tensor.empty() : tensor<16x0xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.glu relu2 %[[ARG3]] outs(%[[INIT21]]) : tensor<16x0xf32> -> tensor<16x0xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]] : tensor<16x0xf32>, tensor<2x0x0xf32>, tensor<16x0xf32>
// PASSES-LABEL: func.func @zero_width(
func.func @zero_width(%a: tensor<16x0xf32>, %b: tensor<2x0x0xf32>, %s: tensor<2xi32>, %g: tensor<16x0xf32>) -> (tensor<16x0xf32>, tensor<2x0x0xf32>, tensor<16x0xf32>) {
  %init22 = tensor.empty() : tensor<16x0xf32>
  %c = moe.grouped_matmul %a, %b, %s outs(%init22) : tensor<16x0xf32>, tensor<2x0x0xf32>, tensor<2xi32> -> tensor<16x0xf32>
  %init23 = tensor.empty() : tensor<2x0x0xf32>
  %db = moe.grouped_weight_grad %a, %c, %s outs(%init23) : tensor<16x0xf32>, tensor<16x0xf32>, tensor<2xi32> -> tensor<2x0x0xf32>
  %init24 = tensor.empty() : tensor<16x0xf32>
  %h = moe.glu relu2 %g outs(%init24) : tensor<16x0xf32> -> tensor<16x0xf32>
  return %c, %db, %h : tensor<16x0xf32>, tensor<2x0x0xf32>, tensor<16x0xf32>
}

// -----

// CHECK-LABEL: func.func @zero_groups(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<16x8xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<0x8x4xbf16>, %[[ARG2:[a-z0-9_]+]]: tensor<0xi32>) -> tensor<16x4xbf16>
// CHECK-NEXT: %[[INIT25:.+]] = tensor.empty() : tensor<16x4xbf16>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.grouped_matmul %[[ARG0]], %[[ARG1]], %[[ARG2]] outs(%[[INIT25]]) : tensor<16x8xbf16>, tensor<0x8x4xbf16>, tensor<0xi32> -> tensor<16x4xbf16>
// CHECK-NEXT: return %[[V0]] : tensor<16x4xbf16>
// PASSES-LABEL: func.func @zero_groups(
func.func @zero_groups(%a: tensor<16x8xbf16>, %b: tensor<0x8x4xbf16>, %s: tensor<0xi32>) -> tensor<16x4xbf16> {
  %init26 = tensor.empty() : tensor<16x4xbf16>
  %c = moe.grouped_matmul %a, %b, %s outs(%init26) : tensor<16x8xbf16>, tensor<0x8x4xbf16>, tensor<0xi32> -> tensor<16x4xbf16>
  return %c : tensor<16x4xbf16>
}

// -----

// CHECK-LABEL: func.func @all_dynamic(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<?x?xf32>, %[[ARG1:[a-z0-9_]+]]: tensor<?x?xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<?xf32>, %[[ARG3:[a-z0-9_]+]]: tensor<?x?x?xf32>, %[[ARG4:[a-z0-9_]+]]: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<f32>, tensor<?x?xf8E4M3FN>, tensor<?x?xf32>, tensor<?xf32>)
// CHECK: %[[INIT27:.+]] = tensor.empty({{.*}}) : tensor<?x?xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.gate %[[ARG0]], %[[ARG1]] outs(%[[INIT27]]) : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
// CHECK: %[[INIT28:.+]] = tensor.empty({{.*}}) : tensor<?x?xf32>
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.route sqrtsoftplus %[[V0]] outs(%[[INIT28]]) : tensor<?x?xf32> -> tensor<?x?xf32>
// CHECK: %[[INIT29:.+]] = tensor.empty({{.*}}) : tensor<?x6xf32>
// CHECK: %[[INIT30:.+]] = tensor.empty({{.*}}) : tensor<?x6xi32>
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk sqrtsoftplus %[[V1]] bias %[[ARG2]] k 6 outs(%[[INIT29]], %[[INIT30]]) {group_topk = 3 : i64, num_groups = 3 : i64} : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x6xf32>, tensor<?x6xi32>
// CHECK: %[[INIT31:.+]] = tensor.empty({{.*}}) : tensor<?x?xf32>
// CHECK-NEXT: %[[INIT32:.+]] = tensor.empty() : tensor<64xi32>
// CHECK: %[[INIT33:.+]] = tensor.empty({{.*}}) : tensor<?x6xi32>
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[INDICES]] experts 64 align 32 outs(%[[INIT31]], %[[INIT32]], %[[INIT33]]) : tensor<?x?xf32>, tensor<?x6xi32> -> tensor<?x?xf32>, tensor<64xi32>, tensor<?x6xi32>
// CHECK: %[[INIT34:.+]] = tensor.empty({{.*}}) : tensor<?x?xf32>
// CHECK-NEXT: %[[V2:[a-z0-9_]+]] = moe.grouped_matmul %[[PERMUTED]], %[[ARG3]], %[[GROUP_SIZES]] outs(%[[INIT34]]) : tensor<?x?xf32>, tensor<?x?x?xf32>, tensor<64xi32> -> tensor<?x?xf32>
// CHECK: %[[INIT35:.+]] = tensor.empty({{.*}}) : tensor<?x?xf32>
// CHECK-NEXT: %[[V3:[a-z0-9_]+]] = moe.combine %[[V2]], %[[ROWS]], %[[WEIGHTS]] outs(%[[INIT35]]) : tensor<?x?xf32>, tensor<?x6xi32>, tensor<?x6xf32> -> tensor<?x?xf32>
// CHECK-NEXT: %[[INIT36:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[V4:[a-z0-9_]+]] = moe.z_loss %[[V0]] coeff 0.000000e+00 outs(%[[INIT36]]) : tensor<?x?xf32> -> tensor<f32>
// CHECK: %[[INIT37:.+]] = tensor.empty({{.*}}) : tensor<?x?xf8E4M3FN>
// CHECK-NEXT: %[[INIT38:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[OUTPUT:[a-z0-9_]+]], %[[SCALE:[a-z0-9_]+]], %[[NEW_AMAX_HISTORY:[a-z0-9_]+]] = moe.quantize delayed %[[PERMUTED]] outs(%[[INIT37]], %[[INIT38]], %[[ARG4]]) : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<f32>, tensor<?xf32>
// CHECK: %[[INIT40:.+]] = tensor.empty({{.*}}) : tensor<?x?xf32>
// CHECK-NEXT: %[[V5:[a-z0-9_]+]] = moe.dequantize delayed %[[OUTPUT]], %[[SCALE]] outs(%[[INIT40]]) : tensor<?x?xf8E4M3FN>, tensor<f32> -> tensor<?x?xf32>
// CHECK-NEXT: return %[[V3]], %[[V2]], %[[V4]], %[[OUTPUT]], %[[V5]], %[[NEW_AMAX_HISTORY]] : tensor<?x?xf32>, tensor<?x?xf32>, tensor<f32>, tensor<?x?xf8E4M3FN>, tensor<?x?xf32>, tensor<?xf32>
// PASSES-LABEL: func.func @all_dynamic(
func.func @all_dynamic(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>, %wg: tensor<?x?x?xf32>, %h: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<f32>, tensor<?x?xf8E4M3FN>, tensor<?x?xf32>, tensor<?xf32>) {
  %init41_c0 = arith.constant 0 : index
  %init41_d0 = tensor.dim %x, %init41_c0 : tensor<?x?xf32>
  %init41_c1 = arith.constant 1 : index
  %init41_d1 = tensor.dim %w, %init41_c1 : tensor<?x?xf32>
  %init41 = tensor.empty(%init41_d0, %init41_d1) : tensor<?x?xf32>
  %l = moe.gate %x, %w outs(%init41) : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %init42_c0 = arith.constant 0 : index
  %init42_d0 = tensor.dim %l, %init42_c0 : tensor<?x?xf32>
  %init42_c1 = arith.constant 1 : index
  %init42_d1 = tensor.dim %l, %init42_c1 : tensor<?x?xf32>
  %init42 = tensor.empty(%init42_d0, %init42_d1) : tensor<?x?xf32>
  %s = moe.route sqrtsoftplus %l outs(%init42) : tensor<?x?xf32> -> tensor<?x?xf32>
  %init43_c0 = arith.constant 0 : index
  %init43_d0 = tensor.dim %s, %init43_c0 : tensor<?x?xf32>
  %init43 = tensor.empty(%init43_d0) : tensor<?x6xf32>
  %init44_c0 = arith.constant 0 : index
  %init44_d0 = tensor.dim %s, %init44_c0 : tensor<?x?xf32>
  %init44 = tensor.empty(%init44_d0) : tensor<?x6xi32>
  %wt, %i = moe.topk sqrtsoftplus %s bias %b k 6 outs(%init43, %init44) {num_groups = 3 : i64, group_topk = 3 : i64} : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x6xf32>, tensor<?x6xi32>
  %init45_c0 = arith.constant 0 : index
  %init45_t = tensor.dim %x, %init45_c0 : tensor<?x?xf32>
  %init45_k = arith.constant 6 : index
  %init45_tk = arith.muli %init45_t, %init45_k : index
  %init45_pad = arith.constant 1984 : index
  %init45_r = arith.addi %init45_tk, %init45_pad : index
  %init45_c1 = arith.constant 1 : index
  %init45_h = tensor.dim %x, %init45_c1 : tensor<?x?xf32>
  %init45 = tensor.empty(%init45_r, %init45_h) : tensor<?x?xf32>
  %init46 = tensor.empty() : tensor<64xi32>
  %init47_c0 = arith.constant 0 : index
  %init47_d0 = tensor.dim %i, %init47_c0 : tensor<?x6xi32>
  %init47 = tensor.empty(%init47_d0) : tensor<?x6xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 64 align 32 outs(%init45, %init46, %init47) : tensor<?x?xf32>, tensor<?x6xi32> -> tensor<?x?xf32>, tensor<64xi32>, tensor<?x6xi32>
  %init48_c0 = arith.constant 0 : index
  %init48_d0 = tensor.dim %xs, %init48_c0 : tensor<?x?xf32>
  %init48_c1 = arith.constant 1 : index
  %init48_d1 = tensor.dim %xs, %init48_c1 : tensor<?x?xf32>
  %init48 = tensor.empty(%init48_d0, %init48_d1) : tensor<?x?xf32>
  %c = moe.grouped_matmul %xs, %wg, %sizes outs(%init48) : tensor<?x?xf32>, tensor<?x?x?xf32>, tensor<64xi32> -> tensor<?x?xf32>
  %init49_c0 = arith.constant 0 : index
  %init49_d0 = tensor.dim %rows, %init49_c0 : tensor<?x6xi32>
  %init49_c1 = arith.constant 1 : index
  %init49_d1 = tensor.dim %c, %init49_c1 : tensor<?x?xf32>
  %init49 = tensor.empty(%init49_d0, %init49_d1) : tensor<?x?xf32>
  %y = moe.combine %c, %rows, %wt outs(%init49) : tensor<?x?xf32>, tensor<?x6xi32>, tensor<?x6xf32> -> tensor<?x?xf32>
  %init50 = tensor.empty() : tensor<f32>
  %z = moe.z_loss %l coeff 0.000000e+00 outs(%init50) : tensor<?x?xf32> -> tensor<f32>
  %init51_c0 = arith.constant 0 : index
  %init51_d0 = tensor.dim %xs, %init51_c0 : tensor<?x?xf32>
  %init51_c1 = arith.constant 1 : index
  %init51_d1 = tensor.dim %xs, %init51_c1 : tensor<?x?xf32>
  %init51 = tensor.empty(%init51_d0, %init51_d1) : tensor<?x?xf8E4M3FN>
  %init52 = tensor.empty() : tensor<f32>
  %q, %qs, %nh = moe.quantize delayed %xs outs(%init51, %init52, %h) : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<f32>, tensor<?xf32>
  %init53_c0 = arith.constant 0 : index
  %init53_d0 = tensor.dim %q, %init53_c0 : tensor<?x?xf8E4M3FN>
  %init53_c1 = arith.constant 1 : index
  %init53_d1 = tensor.dim %q, %init53_c1 : tensor<?x?xf8E4M3FN>
  %init53 = tensor.empty(%init53_d0, %init53_d1) : tensor<?x?xf32>
  %d = moe.dequantize delayed %q, %qs outs(%init53) : tensor<?x?xf8E4M3FN>, tensor<f32> -> tensor<?x?xf32>
  return %y, %c, %z, %q, %d, %nh : tensor<?x?xf32>, tensor<?x?xf32>, tensor<f32>, tensor<?x?xf8E4M3FN>, tensor<?x?xf32>, tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @encoded_tensors(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xf32, "enc">, %[[ARG1:[a-z0-9_]+]]: tensor<8x4xf32, "enc">) -> (tensor<4x4xf32>, tensor<4x8xf32, "enc">)
// CHECK-NEXT: %[[INIT54:.+]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: %[[V0:[a-z0-9_]+]] = moe.gate %[[ARG0]], %[[ARG1]] outs(%[[INIT54]]) : tensor<4x8xf32, "enc">, tensor<8x4xf32, "enc"> -> tensor<4x4xf32>
// CHECK-NEXT: %[[INIT55:.+]] = tensor.empty() : tensor<4x8xf32, "enc">
// CHECK-NEXT: %[[V1:[a-z0-9_]+]] = moe.route softmax %[[ARG0]] outs(%[[INIT55]]) : tensor<4x8xf32, "enc"> -> tensor<4x8xf32, "enc">
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<4x4xf32>, tensor<4x8xf32, "enc">
// PASSES-LABEL: func.func @encoded_tensors(
func.func @encoded_tensors(%x: tensor<4x8xf32, "enc">, %w: tensor<8x4xf32, "enc">) -> (tensor<4x4xf32>, tensor<4x8xf32, "enc">) {
  %init56 = tensor.empty() : tensor<4x4xf32>
  %l = moe.gate %x, %w outs(%init56) : tensor<4x8xf32, "enc">, tensor<8x4xf32, "enc"> -> tensor<4x4xf32>
  %init57 = tensor.empty() : tensor<4x8xf32, "enc">
  %r = moe.route softmax %x outs(%init57) : tensor<4x8xf32, "enc"> -> tensor<4x8xf32, "enc">
  return %l, %r : tensor<4x4xf32>, tensor<4x8xf32, "enc">
}

// -----

// CHECK-LABEL: func.func @huge_but_legal(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<4x8xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<4x2xi32>, %[[ARG2:[a-z0-9_]+]]: tensor<?x?xf32>) -> (tensor<9223372036854775807xi32>, tensor<?x4611686018427387904xi32>)
// CHECK-NEXT: %[[INIT58:.+]] = tensor.empty() : tensor<8x8xbf16>
// CHECK-NEXT: %[[INIT59:.+]] = tensor.empty() : tensor<9223372036854775807xi32>
// CHECK-NEXT: %[[INIT60:.+]] = tensor.empty() : tensor<4x2xi32>
// CHECK-NEXT: %[[PERMUTED:[a-z0-9_]+]], %[[GROUP_SIZES:[a-z0-9_]+]], %[[ROWS:[a-z0-9_]+]] = moe.permute %[[ARG0]], %[[ARG1]] experts 9223372036854775807 align 1 outs(%[[INIT58]], %[[INIT59]], %[[INIT60]]) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<8x8xbf16>, tensor<9223372036854775807xi32>, tensor<4x2xi32>
// CHECK: %[[INIT61:.+]] = tensor.empty({{.*}}) : tensor<?x4611686018427387904xf32>
// CHECK: %[[INIT62:.+]] = tensor.empty({{.*}}) : tensor<?x4611686018427387904xi32>
// CHECK-NEXT: %[[WEIGHTS:[a-z0-9_]+]], %[[INDICES:[a-z0-9_]+]] = moe.topk softmax %[[ARG2]] k 4611686018427387904 outs(%[[INIT61]], %[[INIT62]]) : tensor<?x?xf32> -> tensor<?x4611686018427387904xf32>, tensor<?x4611686018427387904xi32>
// CHECK-NEXT: return %[[GROUP_SIZES]], %[[INDICES]] : tensor<9223372036854775807xi32>, tensor<?x4611686018427387904xi32>
// PASSES-LABEL: func.func @huge_but_legal(
func.func @huge_but_legal(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>, %s: tensor<?x?xf32>) -> (tensor<9223372036854775807xi32>, tensor<?x4611686018427387904xi32>) {
  %init63 = tensor.empty() : tensor<8x8xbf16>
  %init64 = tensor.empty() : tensor<9223372036854775807xi32>
  %init65 = tensor.empty() : tensor<4x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 9223372036854775807 align 1 outs(%init63, %init64, %init65) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<8x8xbf16>, tensor<9223372036854775807xi32>, tensor<4x2xi32>
  %init66_c0 = arith.constant 0 : index
  %init66_d0 = tensor.dim %s, %init66_c0 : tensor<?x?xf32>
  %init66 = tensor.empty(%init66_d0) : tensor<?x4611686018427387904xf32>
  %init67_c0 = arith.constant 0 : index
  %init67_d0 = tensor.dim %s, %init67_c0 : tensor<?x?xf32>
  %init67 = tensor.empty(%init67_d0) : tensor<?x4611686018427387904xi32>
  %w, %j = moe.topk softmax %s k 4611686018427387904 outs(%init66, %init67) : tensor<?x?xf32> -> tensor<?x4611686018427387904xf32>, tensor<?x4611686018427387904xi32>
  return %sizes, %j : tensor<9223372036854775807xi32>, tensor<?x4611686018427387904xi32>
}

// -----

// CHECK: shard.grid @ep(shape = 4)
// CHECK-LABEL: func.func @layers(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: tensor<0x32xbf16>, %[[ARG1:[a-z0-9_]+]]: tensor<32x8xf32>, %[[ARG2:[a-z0-9_]+]]: tensor<8xf32>, %[[ARG3:[a-z0-9_]+]]: tensor<8x32x48xbf16>, %[[ARG4:[a-z0-9_]+]]: tensor<8x48x32xbf16>, %[[ARG5:[a-z0-9_]+]]: tensor<?x?xf32>, %[[ARG6:[a-z0-9_]+]]: tensor<?x8xf32>, %[[ARG7:[a-z0-9_]+]]: tensor<8x?x?xf32>, %[[ARG8:[a-z0-9_]+]]: tensor<1x1xf16>, %[[ARG9:[a-z0-9_]+]]: tensor<1x1xf32>, %[[ARG10:[a-z0-9_]+]]: tensor<1x1x1xf16>) -> (tensor<0x32xbf16>, tensor<f32>, tensor<0x32xbf16>, tensor<f32>, tensor<?x?xf32>, tensor<f32>, tensor<1x1xf16>, tensor<f32>)
// CHECK-NEXT: %[[OUT:[a-z0-9_]+]], %[[AUX_LOSS:[a-z0-9_]+]] = moe.layer %[[ARG0]], %[[ARG1]] bias %[[ARG2]] experts(%[[ARG3]], %[[ARG3]], %[[ARG4]]) {activation = #moe<activation gelu_tanh>, align = 128 : i64, aux_loss_coeff = 1.000000e+00 : f64, aux_loss_variant = #moe<aux_loss_variant global>, grid = @ep, grid_axes = array<i64: 0>, group_score = #moe<group_score max>, group_topk = 4 : i64, k = 8 : i64, normalize = #moe<normalize sum>, num_groups = 4 : i64, score_function = #moe<score_function sqrtsoftplus>, z_loss_coeff = 2.000000e+00 : f64} : (tensor<0x32xbf16>, tensor<32x8xf32>, tensor<8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<0x32xbf16>, tensor<f32>)
// CHECK-NEXT: %[[OUT_0:[a-z0-9_]+]], %[[AUX_LOSS_1:[a-z0-9_]+]] = moe.layer %[[ARG0]], %[[ARG1]] experts(%[[ARG3]], %[[ARG3]], %[[ARG4]]) {aux_loss_coeff = 1.000000e+00 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, k = 1 : i64, post_softmax, score_function = #moe<score_function softmax>, seq_length = 1 : i64} : (tensor<0x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<0x32xbf16>, tensor<f32>)
// CHECK-NEXT: %[[OUT_2:[a-z0-9_]+]], %[[AUX_LOSS_3:[a-z0-9_]+]] = moe.layer %[[ARG5]], %[[ARG6]] experts(%[[ARG7]], %[[ARG7]], %[[ARG7]]) {align = 32 : i64, aux_loss_coeff = 1.000000e+00 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, k = 3 : i64, score_function = #moe<score_function sigmoid>, seq_length = 7 : i64, weight_layout = #moe<weight_layout nk>} : (tensor<?x?xf32>, tensor<?x8xf32>, tensor<8x?x?xf32>, tensor<8x?x?xf32>, tensor<8x?x?xf32>) -> (tensor<?x?xf32>, tensor<f32>)
// CHECK-NEXT: %[[OUT_4:[a-z0-9_]+]], %[[AUX_LOSS_5:[a-z0-9_]+]] = moe.layer %[[ARG8]], %[[ARG9]] experts(%[[ARG10]], %[[ARG10]], %[[ARG10]]) {activation = #moe<activation identity>, k = 1 : i64, score_function = #moe<score_function softmax>} : (tensor<1x1xf16>, tensor<1x1xf32>, tensor<1x1x1xf16>, tensor<1x1x1xf16>, tensor<1x1x1xf16>) -> (tensor<1x1xf16>, tensor<f32>)
// CHECK-NEXT: return %[[OUT]], %[[AUX_LOSS]], %[[OUT_0]], %[[AUX_LOSS_1]], %[[OUT_2]], %[[AUX_LOSS_3]], %[[OUT_4]], %[[AUX_LOSS_5]] : tensor<0x32xbf16>, tensor<f32>, tensor<0x32xbf16>, tensor<f32>, tensor<?x?xf32>, tensor<f32>, tensor<1x1xf16>, tensor<f32>
shard.grid @ep(shape = 4)
// PASSES-LABEL: func.func @layers(
// PASSES-NOT: moe.layer
// PASSES: moe.permute
// PASSES-NOT: moe.layer
// PASSES: return
func.func @layers(%x: tensor<0x32xbf16>, %wr: tensor<32x8xf32>, %b: tensor<8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>, %xn: tensor<?x?xf32>, %wrn: tensor<?x8xf32>, %wgn: tensor<8x?x?xf32>, %x1: tensor<1x1xf16>, %wr1: tensor<1x1xf32>, %w11: tensor<1x1x1xf16>) -> (tensor<0x32xbf16>, tensor<f32>, tensor<0x32xbf16>, tensor<f32>, tensor<?x?xf32>, tensor<f32>, tensor<1x1xf16>, tensor<f32>) {
  %o:2 = moe.layer %x, %wr bias %b experts(%wg, %wg, %wd) {k = 8 : i64, align = 128 : i64, num_groups = 4 : i64, group_topk = 4 : i64, group_score = #moe<group_score max>, score_function = #moe<score_function sqrtsoftplus>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0 : f64, aux_loss_variant = #moe<aux_loss_variant global>, grid = @ep, grid_axes = array<i64: 0>, z_loss_coeff = 2.0 : f64, activation = #moe<activation gelu_tanh>} : (tensor<0x32xbf16>, tensor<32x8xf32>, tensor<8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<0x32xbf16>, tensor<f32>)
  %p:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 1 : i64, post_softmax, score_function = #moe<score_function softmax>, aux_loss_coeff = 1.0 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 1 : i64} : (tensor<0x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<0x32xbf16>, tensor<f32>)
  %q:2 = moe.layer %xn, %wrn experts(%wgn, %wgn, %wgn) {k = 3 : i64, score_function = #moe<score_function sigmoid>, weight_layout = #moe<weight_layout nk>, align = 32 : i64, aux_loss_coeff = 1.0 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 7 : i64} : (tensor<?x?xf32>, tensor<?x8xf32>, tensor<8x?x?xf32>, tensor<8x?x?xf32>, tensor<8x?x?xf32>) -> (tensor<?x?xf32>, tensor<f32>)
  %r:2 = moe.layer %x1, %wr1 experts(%w11, %w11, %w11) {k = 1 : i64, score_function = #moe<score_function softmax>, activation = #moe<activation identity>} : (tensor<1x1xf16>, tensor<1x1xf32>, tensor<1x1x1xf16>, tensor<1x1x1xf16>, tensor<1x1x1xf16>) -> (tensor<1x1xf16>, tensor<f32>)
  return %o#0, %o#1, %p#0, %p#1, %q#0, %q#1, %r#0, %r#1 : tensor<0x32xbf16>, tensor<f32>, tensor<0x32xbf16>, tensor<f32>, tensor<?x?xf32>, tensor<f32>, tensor<1x1xf16>, tensor<f32>
}
