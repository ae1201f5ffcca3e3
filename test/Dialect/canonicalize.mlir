// Folds of moe ops under --canonicalize: an all_to_all on a one-rank axis is
// the identity; nothing else folds, and collectives are never dropped.
//
// RUN: moe-opt %s -split-input-file --canonicalize | FileCheck %s
// RUN: moe-opt %s -split-input-file --canonicalize --cse | FileCheck %s --check-prefix=CSE

shard.grid @one(shape = 1)

// CHECK-LABEL: func.func @all_to_all_one_rank(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[SEND:[a-z0-9_]+]]: tensor<1xi32>)
// CHECK-NOT: moe.all_to_all
// CHECK: return %[[X]], %[[SEND]] : tensor<64x32xbf16>, tensor<1xi32>
func.func @all_to_all_one_rank(%x: tensor<64x32xbf16>, %send: tensor<1xi32>) -> (tensor<64x32xbf16>, tensor<1xi32>) {
  %init1 = tensor.empty() : tensor<64x32xbf16>
  %init2 = tensor.empty() : tensor<1xi32>
  %y, %recv = moe.all_to_all %x, %send on @one axis 0 outs(%init1, %init2) : tensor<64x32xbf16>, tensor<1xi32> -> tensor<64x32xbf16>, tensor<1xi32>
  return %y, %recv : tensor<64x32xbf16>, tensor<1xi32>
}

// -----

// A one-rank axis of a larger grid folds too; the users see the operands.
shard.grid @dp_ep(shape = 4x1)

// CHECK-LABEL: func.func @all_to_all_one_rank_axis_of_2d_grid(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<?x32xf32>, %[[SEND:[a-z0-9_]+]]: tensor<1xi32>, %[[ROWS:[a-z0-9_]+]]: tensor<8x2xi32>, %[[W:[a-z0-9_]+]]: tensor<8x2xf32>)
// CHECK-NOT: moe.all_to_all
// CHECK: %[[INIT3:.+]] = tensor.empty() : tensor<8x32xf32>
// CHECK: %[[OUT:.+]] = moe.combine %[[X]], %[[ROWS]], %[[W]] outs(%[[INIT3]]) : tensor<?x32xf32>, tensor<8x2xi32>, tensor<8x2xf32> -> tensor<8x32xf32>
// CHECK: return %[[OUT]], %[[SEND]] : tensor<8x32xf32>, tensor<1xi32>
func.func @all_to_all_one_rank_axis_of_2d_grid(%x: tensor<?x32xf32>, %send: tensor<1xi32>, %rows: tensor<8x2xi32>, %w: tensor<8x2xf32>) -> (tensor<8x32xf32>, tensor<1xi32>) {
  %init4_c0 = arith.constant 0 : index
  %init4_d0 = tensor.dim %x, %init4_c0 : tensor<?x32xf32>
  %init4 = tensor.empty(%init4_d0) : tensor<?x32xf32>
  %init5 = tensor.empty() : tensor<1xi32>
  %y, %recv = moe.all_to_all %x, %send on @dp_ep axis 1 outs(%init4, %init5) : tensor<?x32xf32>, tensor<1xi32> -> tensor<?x32xf32>, tensor<1xi32>
  %init6 = tensor.empty() : tensor<8x32xf32>
  %out = moe.combine %y, %rows, %w outs(%init6) : tensor<?x32xf32>, tensor<8x2xi32>, tensor<8x2xf32> -> tensor<8x32xf32>
  return %out, %recv : tensor<8x32xf32>, tensor<1xi32>
}

// -----

shard.grid @ep(shape = 4)

// CHECK-LABEL: func.func @all_to_all_four_ranks(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[SEND:[a-z0-9_]+]]: tensor<4xi32>)
// CHECK-NEXT: %[[INIT7:.+]] = tensor.empty() : tensor<64x32xbf16>
// CHECK-NEXT: %[[INIT8:.+]] = tensor.empty() : tensor<4xi32>
// CHECK-NEXT: %[[Y:[a-z0-9_]+]], %[[RECV:[a-z0-9_]+]] = moe.all_to_all %[[X]], %[[SEND]] on @ep axis 0 outs(%[[INIT7]], %[[INIT8]]) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<64x32xbf16>, tensor<4xi32>
// CHECK-NEXT: return %[[Y]], %[[RECV]] : tensor<64x32xbf16>, tensor<4xi32>
func.func @all_to_all_four_ranks(%x: tensor<64x32xbf16>, %send: tensor<4xi32>) -> (tensor<64x32xbf16>, tensor<4xi32>) {
  %init9 = tensor.empty() : tensor<64x32xbf16>
  %init10 = tensor.empty() : tensor<4xi32>
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0 outs(%init9, %init10) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<64x32xbf16>, tensor<4xi32>
  return %y, %recv : tensor<64x32xbf16>, tensor<4xi32>
}

// -----

// The 1-rank axis of a 2-D grid folds, its 4-rank axis does not.
shard.grid @dp_ep(shape = 1x4)

// CHECK-LABEL: func.func @all_to_all_four_rank_axis_of_2d_grid(
// CHECK: moe.all_to_all %{{.+}}, %{{.+}} on @dp_ep axis 1 outs(
func.func @all_to_all_four_rank_axis_of_2d_grid(%x: tensor<64x32xbf16>, %send: tensor<4xi32>) -> (tensor<64x32xbf16>, tensor<4xi32>) {
  %init11 = tensor.empty() : tensor<64x32xbf16>
  %init12 = tensor.empty() : tensor<4xi32>
  %y, %recv = moe.all_to_all %x, %send on @dp_ep axis 1 outs(%init11, %init12) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<64x32xbf16>, tensor<4xi32>
  return %y, %recv : tensor<64x32xbf16>, tensor<4xi32>
}

// -----

// A dynamic axis size is not known to be 1: no fold.
shard.grid @dyn(shape = ?)

// CHECK-LABEL: func.func @all_to_all_dynamic_axis(
// CHECK: moe.all_to_all %{{.+}}, %{{.+}} on @dyn axis 0 outs(
func.func @all_to_all_dynamic_axis(%x: tensor<64x32xbf16>, %send: tensor<?xi32>) -> (tensor<64x32xbf16>, tensor<?xi32>) {
  %init13 = tensor.empty() : tensor<64x32xbf16>
  %init14_c0 = arith.constant 0 : index
  %init14_d0 = tensor.dim %send, %init14_c0 : tensor<?xi32>
  %init14 = tensor.empty(%init14_d0) : tensor<?xi32>
  %y, %recv = moe.all_to_all %x, %send on @dyn axis 0 outs(%init13, %init14) : tensor<64x32xbf16>, tensor<?xi32> -> tensor<64x32xbf16>, tensor<?xi32>
  return %y, %recv : tensor<64x32xbf16>, tensor<?xi32>
}

// -----

// A different output capacity would need a resize, not a fold.
shard.grid @one(shape = 1)

// CHECK-LABEL: func.func @all_to_all_one_rank_other_type(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[SEND:[a-z0-9_]+]]: tensor<1xi32>)
// CHECK-NEXT: %[[INIT15:.+]] = tensor.empty() : tensor<128x32xbf16>
// CHECK-NEXT: %[[INIT16:.+]] = tensor.empty() : tensor<1xi32>
// CHECK-NEXT: %[[Y:[a-z0-9_]+]], %[[RECV:[a-z0-9_]+]] = moe.all_to_all %[[X]], %[[SEND]] on @one axis 0 outs(%[[INIT15]], %[[INIT16]]) : tensor<64x32xbf16>, tensor<1xi32> -> tensor<128x32xbf16>, tensor<1xi32>
// CHECK-NEXT: return %[[Y]], %[[RECV]] : tensor<128x32xbf16>, tensor<1xi32>
func.func @all_to_all_one_rank_other_type(%x: tensor<64x32xbf16>, %send: tensor<1xi32>) -> (tensor<128x32xbf16>, tensor<1xi32>) {
  %init17 = tensor.empty() : tensor<128x32xbf16>
  %init18 = tensor.empty() : tensor<1xi32>
  %y, %recv = moe.all_to_all %x, %send on @one axis 0 outs(%init17, %init18) : tensor<64x32xbf16>, tensor<1xi32> -> tensor<128x32xbf16>, tensor<1xi32>
  return %y, %recv : tensor<128x32xbf16>, tensor<1xi32>
}

// -----

// Static versus dynamic rows is a type difference as well (a destination of
// unknown size; one sized like the input would be made static and fold).
shard.grid @one(shape = 1)

// CHECK-LABEL: func.func @all_to_all_one_rank_dynamic_output(
// CHECK: moe.all_to_all %{{.+}}, %{{.+}} on @one axis 0 outs(%{{.+}}, %{{.+}}) : tensor<64x32xbf16>, tensor<1xi32> -> tensor<?x32xbf16>, tensor<1xi32>
func.func @all_to_all_one_rank_dynamic_output(%x: tensor<64x32xbf16>, %send: tensor<1xi32>, %rows: index) -> (tensor<?x32xbf16>, tensor<1xi32>) {
  %init19 = tensor.empty(%rows) : tensor<?x32xbf16>
  %init20 = tensor.empty() : tensor<1xi32>
  %y, %recv = moe.all_to_all %x, %send on @one axis 0 outs(%init19, %init20) : tensor<64x32xbf16>, tensor<1xi32> -> tensor<?x32xbf16>, tensor<1xi32>
  return %y, %recv : tensor<?x32xbf16>, tensor<1xi32>
}

// -----

// An unused all_to_all on a multi-rank axis stays: it communicates (every
// rank must take part). An unused pure op is removed.
shard.grid @ep(shape = 4)

// CHECK-LABEL: func.func @unused_ops(
// CHECK-NOT: moe.gate
// CHECK-NOT: moe.route
// CHECK-NOT: moe.permute
// CHECK: %[[INIT21:.+]] = tensor.empty() : tensor<256x32xbf16>
// CHECK: %[[INIT22:.+]] = tensor.empty() : tensor<4xi32>
// CHECK: %{{.+}}, %{{.+}} = moe.all_to_all %{{.+}}, %{{.+}} on @ep axis 0 outs(%[[INIT21]], %[[INIT22]]) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<256x32xbf16>, tensor<4xi32>
// CHECK-NEXT: return
func.func @unused_ops(%x: tensor<64x32xbf16>, %w: tensor<32x4xf32>, %send: tensor<4xi32>, %i: tensor<64x2xi32>) {
  %init23 = tensor.empty() : tensor<64x4xf32>
  %l = moe.gate %x, %w outs(%init23) : tensor<64x32xbf16>, tensor<32x4xf32> -> tensor<64x4xf32>
  %init24 = tensor.empty() : tensor<64x4xf32>
  %s = moe.route softmax %l outs(%init24) : tensor<64x4xf32> -> tensor<64x4xf32>
  %init25 = tensor.empty() : tensor<128x32xbf16>
  %init26 = tensor.empty() : tensor<4xi32>
  %init27 = tensor.empty() : tensor<64x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 4 align 1 outs(%init25, %init26, %init27) : tensor<64x32xbf16>, tensor<64x2xi32> -> tensor<128x32xbf16>, tensor<4xi32>, tensor<64x2xi32>
  %init28 = tensor.empty() : tensor<256x32xbf16>
  %init29 = tensor.empty() : tensor<4xi32>
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0 outs(%init28, %init29) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<256x32xbf16>, tensor<4xi32>
  return
}

// -----

// Two collectives keep their order: canonicalize neither merges nor swaps
// them.
shard.grid @ep(shape = 4)

// CHECK-LABEL: func.func @collectives_keep_order(
// CHECK: moe.all_to_all %{{.+}}, %{{.+}} on @ep axis 0 outs(%{{.+}}, %{{.+}}) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<256x32xbf16>, tensor<4xi32>
// CHECK: moe.all_to_all %{{.+}}, %{{.+}} on @ep axis 0 outs(%{{.+}}, %{{.+}}) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<128x32xbf16>, tensor<4xi32>
func.func @collectives_keep_order(%x: tensor<64x32xbf16>, %send: tensor<4xi32>) -> (tensor<256x32xbf16>, tensor<128x32xbf16>) {
  %init30 = tensor.empty() : tensor<256x32xbf16>
  %init31 = tensor.empty() : tensor<4xi32>
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0 outs(%init30, %init31) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<256x32xbf16>, tensor<4xi32>
  %init32 = tensor.empty() : tensor<128x32xbf16>
  %init33 = tensor.empty() : tensor<4xi32>
  %y2, %recv2 = moe.all_to_all %x, %send on @ep axis 0 outs(%init32, %init33) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<128x32xbf16>, tensor<4xi32>
  return %y, %y2 : tensor<256x32xbf16>, tensor<128x32xbf16>
}

// -----

// quantize -> dequantize changes values (FP8 rounding): never folded.

// CHECK-LABEL: func.func @quantize_dequantize_not_folded(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<144x256xbf16>)
// CHECK-NEXT: %[[INIT34:.+]] = tensor.empty() : tensor<144x256xf8E4M3FN>
// CHECK-NEXT: %[[INIT35:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[Q:[a-z0-9_]+]], %[[S:[a-z0-9_]+]] = moe.quantize tensorwise %[[X]] outs(%[[INIT34]], %[[INIT35]]) : tensor<144x256xbf16> -> tensor<144x256xf8E4M3FN>, tensor<f32>
// CHECK-NEXT: %[[INIT36:.+]] = tensor.empty() : tensor<144x256xbf16>
// CHECK-NEXT: %[[D:[a-z0-9_]+]] = moe.dequantize tensorwise %[[Q]], %[[S]] outs(%[[INIT36]]) : tensor<144x256xf8E4M3FN>, tensor<f32> -> tensor<144x256xbf16>
// CHECK-NEXT: return %[[D]] : tensor<144x256xbf16>
func.func @quantize_dequantize_not_folded(%x: tensor<144x256xbf16>) -> tensor<144x256xbf16> {
  %init37 = tensor.empty() : tensor<144x256xf8E4M3FN>
  %init38 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%init37, %init38) : tensor<144x256xbf16> -> tensor<144x256xf8E4M3FN>, tensor<f32>
  %init39 = tensor.empty() : tensor<144x256xbf16>
  %d = moe.dequantize tensorwise %q, %s outs(%init39) : tensor<144x256xf8E4M3FN>, tensor<f32> -> tensor<144x256xbf16>
  return %d : tensor<144x256xbf16>
}

// -----

// CHECK-LABEL: func.func @quantize_dequantize_block_not_folded(
// CHECK: moe.quantize block_1x128
// CHECK: moe.dequantize block_1x128
func.func @quantize_dequantize_block_not_folded(%x: tensor<144x256xf32>) -> tensor<144x256xf32> {
  %init40 = tensor.empty() : tensor<144x256xf8E4M3FN>
  %init41 = tensor.empty() : tensor<144x2xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%init40, %init41) : tensor<144x256xf32> -> tensor<144x256xf8E4M3FN>, tensor<144x2xf32>
  %init42 = tensor.empty() : tensor<144x256xf32>
  %d = moe.dequantize block_1x128 %q, %s outs(%init42) : tensor<144x256xf8E4M3FN>, tensor<144x2xf32> -> tensor<144x256xf32>
  return %d : tensor<144x256xf32>
}

// -----

// Pure ops with the same operands are merged by CSE, not by canonicalize;
// canonicalize leaves a used pure op alone.

// CHECK-LABEL: func.func @used_pure_ops_stay(
// CHECK: moe.gate
// CHECK: moe.route sigmoid
// CHECK: moe.topk sigmoid
// CHECK-NEXT: return
func.func @used_pure_ops_stay(%x: tensor<64x32xbf16>, %w: tensor<32x8xf32>) -> (tensor<64x2xf32>, tensor<64x2xi32>) {
  %init43 = tensor.empty() : tensor<64x8xf32>
  %l = moe.gate %x, %w outs(%init43) : tensor<64x32xbf16>, tensor<32x8xf32> -> tensor<64x8xf32>
  %init44 = tensor.empty() : tensor<64x8xf32>
  %s = moe.route sigmoid %l outs(%init44) : tensor<64x8xf32> -> tensor<64x8xf32>
  %init45 = tensor.empty() : tensor<64x2xf32>
  %init46 = tensor.empty() : tensor<64x2xi32>
  %wt, %i = moe.topk sigmoid %s k 2 outs(%init45, %init46) : tensor<64x8xf32> -> tensor<64x2xf32>, tensor<64x2xi32>
  return %wt, %i : tensor<64x2xf32>, tensor<64x2xi32>
}

// -----

// CSE merges identical pure ops but never two identical collectives: each is
// its own exchange.
shard.grid @ep(shape = 4)

// CSE-LABEL: func.func @identical_collectives(
// CSE: moe.gate
// CSE-NOT: moe.gate
// CSE: moe.all_to_all
// CSE-NEXT: moe.all_to_all
// CSE-NEXT: return
func.func @identical_collectives(%x: tensor<64x32xbf16>, %w: tensor<32x4xf32>, %send: tensor<4xi32>) -> (tensor<64x4xf32>, tensor<64x4xf32>, tensor<64x32xbf16>, tensor<64x32xbf16>) {
  %init47 = tensor.empty() : tensor<64x4xf32>
  %l1 = moe.gate %x, %w outs(%init47) : tensor<64x32xbf16>, tensor<32x4xf32> -> tensor<64x4xf32>
  %init48 = tensor.empty() : tensor<64x4xf32>
  %l2 = moe.gate %x, %w outs(%init48) : tensor<64x32xbf16>, tensor<32x4xf32> -> tensor<64x4xf32>
  %init49 = tensor.empty() : tensor<64x32xbf16>
  %init50 = tensor.empty() : tensor<4xi32>
  %y1, %r1 = moe.all_to_all %x, %send on @ep axis 0 outs(%init49, %init50) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<64x32xbf16>, tensor<4xi32>
  %init51 = tensor.empty() : tensor<64x32xbf16>
  %init52 = tensor.empty() : tensor<4xi32>
  %y2, %r2 = moe.all_to_all %x, %send on @ep axis 0 outs(%init51, %init52) : tensor<64x32xbf16>, tensor<4xi32> -> tensor<64x32xbf16>, tensor<4xi32>
  return %l1, %l2, %y1, %y2 : tensor<64x4xf32>, tensor<64x4xf32>, tensor<64x32xbf16>, tensor<64x32xbf16>
}

// -----

// A chunked exchange (C = 3 chunks for the one rank) on a one-rank axis is
// the identity as well.
shard.grid @one(shape = 1)

// CHECK-LABEL: func.func @all_to_all_one_rank_chunks(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[SEND:[a-z0-9_]+]]: tensor<3xi32>)
// CHECK-NOT: moe.all_to_all
// CHECK: return %[[X]], %[[SEND]] : tensor<64x32xbf16>, tensor<3xi32>
func.func @all_to_all_one_rank_chunks(%x: tensor<64x32xbf16>, %send: tensor<3xi32>) -> (tensor<64x32xbf16>, tensor<3xi32>) {
  %init1 = tensor.empty() : tensor<64x32xbf16>
  %init2 = tensor.empty() : tensor<3xi32>
  %y, %recv = moe.all_to_all %x, %send on @one axis 0 outs(%init1, %init2) : tensor<64x32xbf16>, tensor<3xi32> -> tensor<64x32xbf16>, tensor<3xi32>
  return %y, %recv : tensor<64x32xbf16>, tensor<3xi32>
}

// -----

// all_reduce over one rank is its input: over the one-rank axis of a 2-D
// grid it folds, over its 4-rank axis or both axes it stays (and an unused
// one stays: it communicates).
shard.grid @dp_ep(shape = 1x4)

// CHECK-LABEL: func.func @all_reduce_one_rank(
// CHECK-SAME: %[[L:[a-z0-9_]+]]: tensor<f32>, %[[C:[a-z0-9_]+]]: tensor<8xi64>)
// CHECK-NEXT: %[[I1:.+]] = tensor.empty() : tensor<8xi64>
// CHECK-NEXT: %[[S1:.+]] = moe.all_reduce %[[C]] on @dp_ep axes [1] outs(%[[I1]])
// CHECK-NEXT: %[[I2:.+]] = tensor.empty() : tensor<8xi64>
// CHECK-NEXT: %[[S2:.+]] = moe.all_reduce %[[C]] on @dp_ep axes [0, 1] outs(%[[I2]])
// CHECK-NEXT: %[[I3:.+]] = tensor.empty() : tensor<8xi64>
// CHECK-NEXT: moe.all_reduce %[[C]] on @dp_ep axes [1] outs(%[[I3]])
// CHECK-NEXT: return %[[L]], %[[S1]], %[[S2]] : tensor<f32>, tensor<8xi64>, tensor<8xi64>
func.func @all_reduce_one_rank(%l: tensor<f32>, %c: tensor<8xi64>) -> (tensor<f32>, tensor<8xi64>, tensor<8xi64>) {
  %i0 = tensor.empty() : tensor<f32>
  %s0 = moe.all_reduce %l on @dp_ep axes [0] outs(%i0) : tensor<f32> -> tensor<f32>
  %i1 = tensor.empty() : tensor<8xi64>
  %s1 = moe.all_reduce %c on @dp_ep axes [1] outs(%i1) : tensor<8xi64> -> tensor<8xi64>
  %i2 = tensor.empty() : tensor<8xi64>
  %s2 = moe.all_reduce %c on @dp_ep axes [0, 1] outs(%i2) : tensor<8xi64> -> tensor<8xi64>
  %i3 = tensor.empty() : tensor<8xi64>
  %unused = moe.all_reduce %c on @dp_ep axes [1] outs(%i3) : tensor<8xi64> -> tensor<8xi64>
  return %s0, %s1, %s2 : tensor<f32>, tensor<8xi64>, tensor<8xi64>
}
