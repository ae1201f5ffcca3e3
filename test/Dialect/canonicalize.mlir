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
  %y, %recv = moe.all_to_all %x, %send on @one axis 0 : (tensor<64x32xbf16>, tensor<1xi32>) -> (tensor<64x32xbf16>, tensor<1xi32>)
  return %y, %recv : tensor<64x32xbf16>, tensor<1xi32>
}

// -----

// A one-rank axis of a larger grid folds too; the users see the operands.
shard.grid @dp_ep(shape = 4x1)

// CHECK-LABEL: func.func @all_to_all_one_rank_axis_of_2d_grid(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<?x32xf32>, %[[SEND:[a-z0-9_]+]]: tensor<1xi32>, %[[ROWS:[a-z0-9_]+]]: tensor<8x2xi32>, %[[W:[a-z0-9_]+]]: tensor<8x2xf32>)
// CHECK-NOT: moe.all_to_all
// CHECK: %[[OUT:.+]] = moe.combine %[[X]], %[[ROWS]], %[[W]] : tensor<?x32xf32>, tensor<8x2xi32>, tensor<8x2xf32>
// CHECK: return %[[OUT]], %[[SEND]] : tensor<8x32xf32>, tensor<1xi32>
func.func @all_to_all_one_rank_axis_of_2d_grid(%x: tensor<?x32xf32>, %send: tensor<1xi32>, %rows: tensor<8x2xi32>, %w: tensor<8x2xf32>) -> (tensor<8x32xf32>, tensor<1xi32>) {
  %y, %recv = moe.all_to_all %x, %send on @dp_ep axis 1 : (tensor<?x32xf32>, tensor<1xi32>) -> (tensor<?x32xf32>, tensor<1xi32>)
  %out = moe.combine %y, %rows, %w : tensor<?x32xf32>, tensor<8x2xi32>, tensor<8x2xf32>
  return %out, %recv : tensor<8x32xf32>, tensor<1xi32>
}

// -----

shard.grid @ep(shape = 4)

// CHECK-LABEL: func.func @all_to_all_four_ranks(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[SEND:[a-z0-9_]+]]: tensor<4xi32>)
// CHECK-NEXT: %[[Y:[a-z0-9_]+]], %[[RECV:[a-z0-9_]+]] = moe.all_to_all %[[X]], %[[SEND]] on @ep axis 0 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<64x32xbf16>, tensor<4xi32>)
// CHECK-NEXT: return %[[Y]], %[[RECV]] : tensor<64x32xbf16>, tensor<4xi32>
func.func @all_to_all_four_ranks(%x: tensor<64x32xbf16>, %send: tensor<4xi32>) -> (tensor<64x32xbf16>, tensor<4xi32>) {
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<64x32xbf16>, tensor<4xi32>)
  return %y, %recv : tensor<64x32xbf16>, tensor<4xi32>
}

// -----

// The 1-rank axis of a 2-D grid folds, its 4-rank axis does not.
shard.grid @dp_ep(shape = 1x4)

// CHECK-LABEL: func.func @all_to_all_four_rank_axis_of_2d_grid(
// CHECK: moe.all_to_all %{{.+}}, %{{.+}} on @dp_ep axis 1 :
func.func @all_to_all_four_rank_axis_of_2d_grid(%x: tensor<64x32xbf16>, %send: tensor<4xi32>) -> (tensor<64x32xbf16>, tensor<4xi32>) {
  %y, %recv = moe.all_to_all %x, %send on @dp_ep axis 1 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<64x32xbf16>, tensor<4xi32>)
  return %y, %recv : tensor<64x32xbf16>, tensor<4xi32>
}

// -----

// A dynamic axis size is not known to be 1: no fold.
shard.grid @dyn(shape = ?)

// CHECK-LABEL: func.func @all_to_all_dynamic_axis(
// CHECK: moe.all_to_all %{{.+}}, %{{.+}} on @dyn axis 0 :
func.func @all_to_all_dynamic_axis(%x: tensor<64x32xbf16>, %send: tensor<?xi32>) -> (tensor<64x32xbf16>, tensor<?xi32>) {
  %y, %recv = moe.all_to_all %x, %send on @dyn axis 0 : (tensor<64x32xbf16>, tensor<?xi32>) -> (tensor<64x32xbf16>, tensor<?xi32>)
  return %y, %recv : tensor<64x32xbf16>, tensor<?xi32>
}

// -----

// A different output capacity would need a resize, not a fold.
shard.grid @one(shape = 1)

// CHECK-LABEL: func.func @all_to_all_one_rank_other_type(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<64x32xbf16>, %[[SEND:[a-z0-9_]+]]: tensor<1xi32>)
// CHECK-NEXT: %[[Y:[a-z0-9_]+]], %[[RECV:[a-z0-9_]+]] = moe.all_to_all %[[X]], %[[SEND]] on @one axis 0 : (tensor<64x32xbf16>, tensor<1xi32>) -> (tensor<128x32xbf16>, tensor<1xi32>)
// CHECK-NEXT: return %[[Y]], %[[RECV]] : tensor<128x32xbf16>, tensor<1xi32>
func.func @all_to_all_one_rank_other_type(%x: tensor<64x32xbf16>, %send: tensor<1xi32>) -> (tensor<128x32xbf16>, tensor<1xi32>) {
  %y, %recv = moe.all_to_all %x, %send on @one axis 0 : (tensor<64x32xbf16>, tensor<1xi32>) -> (tensor<128x32xbf16>, tensor<1xi32>)
  return %y, %recv : tensor<128x32xbf16>, tensor<1xi32>
}

// -----

// Static versus dynamic rows is a type difference as well.
shard.grid @one(shape = 1)

// CHECK-LABEL: func.func @all_to_all_one_rank_dynamic_output(
// CHECK: moe.all_to_all %{{.+}}, %{{.+}} on @one axis 0 : (tensor<64x32xbf16>, tensor<1xi32>) -> (tensor<?x32xbf16>, tensor<1xi32>)
func.func @all_to_all_one_rank_dynamic_output(%x: tensor<64x32xbf16>, %send: tensor<1xi32>) -> (tensor<?x32xbf16>, tensor<1xi32>) {
  %y, %recv = moe.all_to_all %x, %send on @one axis 0 : (tensor<64x32xbf16>, tensor<1xi32>) -> (tensor<?x32xbf16>, tensor<1xi32>)
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
// CHECK: %{{.+}}, %{{.+}} = moe.all_to_all %{{.+}}, %{{.+}} on @ep axis 0 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<256x32xbf16>, tensor<4xi32>)
// CHECK-NEXT: return
func.func @unused_ops(%x: tensor<64x32xbf16>, %w: tensor<32x4xf32>, %send: tensor<4xi32>, %i: tensor<64x2xi32>) {
  %l = moe.gate %x, %w : tensor<64x32xbf16>, tensor<32x4xf32>
  %s = moe.route softmax %l : tensor<64x4xf32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 4 align 1 : tensor<64x32xbf16>, tensor<64x2xi32>
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<256x32xbf16>, tensor<4xi32>)
  return
}

// -----

// Two collectives keep their order: canonicalize neither merges nor swaps
// them.
shard.grid @ep(shape = 4)

// CHECK-LABEL: func.func @collectives_keep_order(
// CHECK: moe.all_to_all %{{.+}}, %{{.+}} on @ep axis 0 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<256x32xbf16>, tensor<4xi32>)
// CHECK-NEXT: moe.all_to_all %{{.+}}, %{{.+}} on @ep axis 0 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<128x32xbf16>, tensor<4xi32>)
func.func @collectives_keep_order(%x: tensor<64x32xbf16>, %send: tensor<4xi32>) -> (tensor<256x32xbf16>, tensor<128x32xbf16>) {
  %y, %recv = moe.all_to_all %x, %send on @ep axis 0 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<256x32xbf16>, tensor<4xi32>)
  %y2, %recv2 = moe.all_to_all %x, %send on @ep axis 0 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<128x32xbf16>, tensor<4xi32>)
  return %y, %y2 : tensor<256x32xbf16>, tensor<128x32xbf16>
}

// -----

// quantize -> dequantize changes values (FP8 rounding): never folded.

// CHECK-LABEL: func.func @quantize_dequantize_not_folded(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<144x256xbf16>)
// CHECK-NEXT: %[[Q:[a-z0-9_]+]], %[[S:[a-z0-9_]+]] = moe.quantize tensorwise %[[X]] : (tensor<144x256xbf16>) -> (tensor<144x256xf8E4M3FN>, tensor<f32>)
// CHECK-NEXT: %[[D:[a-z0-9_]+]] = moe.dequantize tensorwise %[[Q]], %[[S]] : (tensor<144x256xf8E4M3FN>, tensor<f32>) -> tensor<144x256xbf16>
// CHECK-NEXT: return %[[D]] : tensor<144x256xbf16>
func.func @quantize_dequantize_not_folded(%x: tensor<144x256xbf16>) -> tensor<144x256xbf16> {
  %q, %s = moe.quantize tensorwise %x : (tensor<144x256xbf16>) -> (tensor<144x256xf8E4M3FN>, tensor<f32>)
  %d = moe.dequantize tensorwise %q, %s : (tensor<144x256xf8E4M3FN>, tensor<f32>) -> tensor<144x256xbf16>
  return %d : tensor<144x256xbf16>
}

// -----

// CHECK-LABEL: func.func @quantize_dequantize_block_not_folded(
// CHECK: moe.quantize block_1x128
// CHECK-NEXT: moe.dequantize block_1x128
func.func @quantize_dequantize_block_not_folded(%x: tensor<144x256xf32>) -> tensor<144x256xf32> {
  %q, %s = moe.quantize block_1x128 %x : (tensor<144x256xf32>) -> (tensor<144x256xf8E4M3FN>, tensor<144x2xf32>)
  %d = moe.dequantize block_1x128 %q, %s : (tensor<144x256xf8E4M3FN>, tensor<144x2xf32>) -> tensor<144x256xf32>
  return %d : tensor<144x256xf32>
}

// -----

// Pure ops with the same operands are merged by CSE, not by canonicalize;
// canonicalize leaves a used pure op alone.

// CHECK-LABEL: func.func @used_pure_ops_stay(
// CHECK-NEXT: moe.gate
// CHECK-NEXT: moe.route sigmoid
// CHECK-NEXT: moe.topk sigmoid
// CHECK-NEXT: return
func.func @used_pure_ops_stay(%x: tensor<64x32xbf16>, %w: tensor<32x8xf32>) -> (tensor<64x2xf32>, tensor<64x2xi32>) {
  %l = moe.gate %x, %w : tensor<64x32xbf16>, tensor<32x8xf32>
  %s = moe.route sigmoid %l : tensor<64x8xf32>
  %wt, %i = moe.topk sigmoid %s k 2 : tensor<64x8xf32>
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
  %l1 = moe.gate %x, %w : tensor<64x32xbf16>, tensor<32x4xf32>
  %l2 = moe.gate %x, %w : tensor<64x32xbf16>, tensor<32x4xf32>
  %y1, %r1 = moe.all_to_all %x, %send on @ep axis 0 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<64x32xbf16>, tensor<4xi32>)
  %y2, %r2 = moe.all_to_all %x, %send on @ep axis 0 : (tensor<64x32xbf16>, tensor<4xi32>) -> (tensor<64x32xbf16>, tensor<4xi32>)
  return %l1, %l2, %y1, %y2 : tensor<64x4xf32>, tensor<64x4xf32>, tensor<64x32xbf16>, tensor<64x32xbf16>
}
