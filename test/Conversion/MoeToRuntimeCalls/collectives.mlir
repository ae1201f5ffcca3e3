// RUN: moe-opt %s -split-input-file --convert-moe-to-runtime-calls --canonicalize | FileCheck %s
// Collectives over several ranks on the GPU target become calls into
// libmoe_runtime_gpu's NCCL collectives (moert_coll_gpu_abi.def): a grid is
// named by its index among the module's grids, the all-to-all gets C = P·C / P
// chunks per rank and its row bytes, the all-reduce its element count and
// moert_dtype code (f32 1, i64 7).

shard.grid @dp(shape = 2)
shard.grid @ep(shape = 4)
// CHECK-LABEL: func.func @all_to_all(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<8x2xbf16>, %[[N:[a-z0-9]+]]: memref<8xi32>, %[[Y:[a-z0-9]+]]: memref<32x2xbf16>, %[[R:[a-z0-9]+]]: memref<8xi32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[GRID:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[CHUNKS:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[SENT:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[RECV:.*]] = arith.constant 32 : i64
// CHECK-DAG: %[[ROWBYTES:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[XP:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK-DAG: %[[NP:.*]] = memref.extract_aligned_pointer_as_index %[[N]]
// CHECK-DAG: %[[YP:.*]] = memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK-DAG: %[[RP:.*]] = memref.extract_aligned_pointer_as_index %[[R]]
// CHECK: call @moert_entry_coll_all_to_all(%[[GRID]], %[[C0]], %{{.*}}, %{{.*}}, %[[CHUNKS]], %[[SENT]], %{{.*}}, %{{.*}}, %[[RECV]], %[[ROWBYTES]])
// CHECK-NOT: moe.all_to_all
func.func @all_to_all(%x: memref<8x2xbf16>, %n: memref<8xi32>, %y: memref<32x2xbf16>, %r: memref<8xi32>) {
  moe.all_to_all %x, %n on @ep axis 0 outs(%y, %r) : memref<8x2xbf16>, memref<8xi32> -> memref<32x2xbf16>, memref<8xi32>
  return
}

// -----

shard.grid @ep(shape = 2)
// CHECK-LABEL: func.func @all_reduce(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<4x3xf32>, %[[Y:[a-z0-9]+]]: memref<4x3xf32>
// CHECK-DAG: %[[COUNT:.*]] = arith.constant 12 : i64
// CHECK-DAG: %[[F32:.*]] = arith.constant 1 : i32
// CHECK: memref.copy %[[X]], %[[Y]]
// CHECK: %[[YP:.*]] = memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: call @moert_entry_coll_all_reduce(%{{.*}}, %{{.*}}, %{{.*}}, %[[COUNT]], %[[F32]])
// CHECK-NOT: moe.all_reduce
func.func @all_reduce(%x: memref<4x3xf32>, %y: memref<4x3xf32>) {
  moe.all_reduce %x on @ep axes [0] outs(%y) : memref<4x3xf32> -> memref<4x3xf32>
  return
}

// -----

// The runtime's communicators are per grid axis: a sum over two axes is a
// call per axis.
shard.grid @g(shape = 2x2)
// CHECK-LABEL: func.func @two_axes(
// CHECK-DAG: %[[A0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[A1:.*]] = arith.constant 1 : i64
// CHECK: call @moert_entry_coll_all_reduce(%[[A0]], %[[A0]],
// CHECK: call @moert_entry_coll_all_reduce(%[[A0]], %[[A1]],
func.func @two_axes(%x: memref<4xf32>, %y: memref<4xf32>) {
  moe.all_reduce %x on @g axes [0, 1] outs(%y) : memref<4xf32> -> memref<4xf32>
  return
}

// -----

// The global aux loss keeps its GPU schedule (parallel loops: kernels; the
// one-iteration loop that writes the loss is inlined by --canonicalize
// here), and the counts [1, E] are all-reduced between the loops, before the
// loss reads them. Its factor E·coeff/(K·T_g²) has T_g = T·P:
// 4·0.01/(2·(8·2)²) = 7.8125e-05.
shard.grid @ep(shape = 2)
// CHECK-LABEL: func.func @global_aux_loss(
// CHECK-DAG: %[[FACTOR:.*]] = arith.constant 7.812500e-05 : f32
// CHECK-DAG: %[[E:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[I64:.*]] = arith.constant 7 : i32
// CHECK: scf.parallel
// CHECK: %[[COUNTS:.*]] = memref.alloc() : memref<1x4xi64>
// CHECK: %[[CAST:.*]] = memref.cast %[[COUNTS]]
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[COUNTS]]
// CHECK: scf.reduce
// CHECK: memref.extract_aligned_pointer_as_index %[[CAST]]
// CHECK: call @moert_entry_coll_all_reduce(%{{.*}}, %{{.*}}, %{{.*}}, %[[E]], %[[I64]])
// CHECK: memref.load %[[COUNTS]]
// CHECK: arith.mulf {{.*}}%[[FACTOR]]
// CHECK: memref.store %{{.*}}, %arg2[]
// CHECK-NOT: moe.aux_loss
func.func @global_aux_loss(%s: memref<8x4xf32>, %i: memref<8x2xi32>, %l: memref<f32>) {
  moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 outs(%l) {grid = @ep, grid_axes = array<i64: 0>} : memref<8x4xf32>, memref<8x2xi32> -> memref<f32>
  return
}

// -----

// One rank: nothing to call (lowered later as the identity / batch loss).
shard.grid @ep(shape = 1)
// CHECK-LABEL: func.func @one_rank(
// CHECK-NOT: call
// CHECK: moe.all_to_all
// CHECK: moe.aux_loss global
// CHECK-NOT: call
func.func @one_rank(%x: memref<8x2xbf16>, %n: memref<1xi32>, %y: memref<8x2xbf16>, %r: memref<1xi32>, %s: memref<8x4xf32>, %i: memref<8x2xi32>, %l: memref<f32>) {
  moe.all_to_all %x, %n on @ep axis 0 outs(%y, %r) : memref<8x2xbf16>, memref<1xi32> -> memref<8x2xbf16>, memref<1xi32>
  moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 outs(%l) {grid = @ep, grid_axes = array<i64: 0>} : memref<8x4xf32>, memref<8x2xi32> -> memref<f32>
  return
}
