// RUN: moe-opt %s -split-input-file -verify-diagnostics --convert-moe-to-loops | FileCheck %s

// Moe ops on memrefs become scf/arith/math/memref loops; nothing of moe is
// left. (The numbers are checked by the executed tests in test/e2e.)

// gate: a parallel loop over (blocks of 4 tokens) × E (independent outputs:
// one GPU thread each, every weight load serving 4 tokens) over an H loop
// carrying the 4 sums of x·w in f32 (bf16 widened by bits); tokens past the
// last read the last one and store nothing.
// CHECK-LABEL: func.func @gate
// CHECK-NOT:   moe.
// CHECK:       %[[BLOCKS:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK:       scf.parallel (%[[B:.*]], %[[E:.*]]) = (%{{.*}}, %{{.*}}) to (%[[BLOCKS]], %{{.*}}) step
// CHECK:         %[[T0:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK:         %{{.*}}:4 = scf.for %[[H:.*]] = {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32, f32, f32)
// CHECK:           memref.load %{{.*}}[%[[H]], %[[E]]] : memref<8x2xf32>
// CHECK:           %[[ROW:.*]] = arith.minui
// CHECK:           memref.load %{{.*}}[%[[ROW]], %[[H]]] : memref<4x8xbf16>
// CHECK:           arith.mulf
// CHECK:           arith.addf %[[ACC]]
// CHECK-COUNT-3:   arith.addf
// CHECK:           scf.yield
// CHECK:         arith.cmpi ult
// CHECK:         scf.if
// CHECK:           memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[E]]] : memref<4x2xf32>
func.func @gate(%x: memref<4x8xbf16>, %w: memref<8x2xf32>, %l: memref<4x2xf32>) {
  moe.gate %x, %w outs(%l) : memref<4x8xbf16>, memref<8x2xf32> -> memref<4x2xf32>
  return
}

// -----

// sqrtsoftplus: x above 20 is its own softplus, else log1p(exp(x)); then sqrt.
// CHECK-LABEL: func.func @sqrtsoftplus
// CHECK-DAG: %[[TWENTY:.*]] = arith.constant 2.000000e+01 : f32
// CHECK:     %[[BIG:.*]] = arith.cmpf ogt, %[[V:.*]], %[[TWENTY]]
// CHECK:     %[[EXP:.*]] = math.exp %[[V]]
// CHECK:     %[[LOG:.*]] = math.log1p %[[EXP]]
// CHECK:     %[[SP:.*]] = arith.select %[[BIG]], %[[V]], %[[LOG]]
// CHECK:     math.sqrt %[[SP]]
func.func @sqrtsoftplus(%l: memref<4x8xf32>, %s: memref<4x8xf32>) {
  moe.route sqrtsoftplus %l outs(%s) : memref<4x8xf32> -> memref<4x8xf32>
  return
}

// -----

// topk: tokens are a parallel loop whose per-token scratch (stack buffers of
// static size) is hoisted out of it on the CPU: allocated once, reused.
// CHECK-LABEL: func.func @topk
// CHECK-COUNT-5: memref.alloca() : memref<{{[0-9]+}}x{{(i1|f32)}}>
// CHECK:         scf.parallel
// CHECK-NOT:     memref.alloca
// CHECK-NOT:     moe.
func.func @topk(%s: memref<4x8xf32>, %b: memref<8xf32>, %w: memref<4x2xf32>, %i: memref<4x2xi32>) {
  moe.topk sigmoid %s bias %b k 2 outs(%w, %i) {num_groups = 4 : i64, group_topk = 2 : i64} : memref<4x8xf32>, memref<8xf32> -> memref<4x2xf32>, memref<4x2xi32>
  return
}

// -----

// A one-rank exchange is lowered; the grid it named is dropped with it.
// CHECK-NOT: shard.grid
// CHECK-LABEL: func.func @one_rank
// CHECK-NOT: moe.
shard.grid @single(shape = 1)
func.func @one_rank(%x: memref<4x2xf32>, %n: memref<1xi32>, %y: memref<4x2xf32>, %r: memref<1xi32>) {
  moe.all_to_all %x, %n on @single axis 0 outs(%y, %r) : memref<4x2xf32>, memref<1xi32> -> memref<4x2xf32>, memref<1xi32>
  return
}

// -----

// Over several ranks: a call into libmoe_runtime (moert_coll_abi.def) naming
// the grid by its index among the module's grids (@ep is the second),
// the axis, C = 8/4 chunks per rank and rows of 2·2 bytes (bf16).
// CHECK-LABEL: func.func @many_ranks
// CHECK-NOT:   moe.
// CHECK:       %[[CHUNKS:.*]] = arith.divsi %{{.*}}, %{{.*}} : i64
// CHECK-DAG:   %[[GRID:.*]] = arith.constant 1 : i64
// CHECK-DAG:   %[[AXIS:.*]] = arith.constant 1 : i64
// CHECK:       call @moert_coll_all_to_all(%[[GRID]], %[[AXIS]], %{{.*}}, %{{.*}}, %[[CHUNKS]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, !llvm.ptr, !llvm.ptr, i64, i64, !llvm.ptr, !llvm.ptr, i64, i64) -> ()
shard.grid @dp(shape = 2)
shard.grid @ep(shape = 2x4)
func.func @many_ranks(%x: memref<4x2xbf16>, %n: memref<8xi32>, %y: memref<16x2xbf16>, %r: memref<8xi32>) {
  moe.all_to_all %x, %n on @ep axis 1 outs(%y, %r) : memref<4x2xbf16>, memref<8xi32> -> memref<16x2xbf16>, memref<8xi32>
  return
}

// -----

// A strided buffer cannot be passed by its base pointer.
shard.grid @ep(shape = 4)
func.func @strided(%x: memref<4x2xf32, strided<[4, 1]>>, %n: memref<4xi32>, %y: memref<4x2xf32>, %r: memref<4xi32>) {
  // expected-error @+2 {{'moe.all_to_all' op over several ranks needs buffers of the identity layout}}
  // expected-error @+1 {{failed to legalize operation 'moe.all_to_all'}}
  moe.all_to_all %x, %n on @ep axis 0 outs(%y, %r) : memref<4x2xf32, strided<[4, 1]>>, memref<4xi32> -> memref<4x2xf32>, memref<4xi32>
  return
}

// -----

// A one-rank all_reduce is a copy; the chunked one-rank exchange and
// sort_chunks are loops too.
// CHECK-NOT: shard.grid
// CHECK-LABEL: func.func @one_rank_collectives
// CHECK-NOT: moe.
// CHECK: return
shard.grid @single(shape = 1)
func.func @one_rank_collectives(%l: memref<f64>, %lr: memref<f64>, %x: memref<6x2xbf16>, %n: memref<3xi32>, %y: memref<6x2xbf16>, %r: memref<3xi32>, %z: memref<6x2xbf16>, %s: memref<1xi32>) {
  moe.all_reduce %l on @single axes [0] outs(%lr) : memref<f64> -> memref<f64>
  moe.all_to_all %x, %n on @single axis 0 outs(%y, %r) : memref<6x2xbf16>, memref<3xi32> -> memref<6x2xbf16>, memref<3xi32>
  moe.sort_chunks %y, %r outs(%z, %s) : memref<6x2xbf16>, memref<3xi32> -> memref<6x2xbf16>, memref<1xi32>
  return
}

// -----

// Over several ranks: the input copied to the output, then summed in place
// by libmoe_runtime (dtype code 8: i32; 4·3 elements).
// CHECK-LABEL: func.func @all_reduce_many_ranks
// CHECK-NOT:   moe.
// CHECK:       memref.copy %{{.*}}, %{{.*}} : memref<4x3xi32> to memref<4x3xi32>
// CHECK-DAG:   %[[GRID:.*]] = arith.constant 0 : i64
// CHECK-DAG:   %[[CODE:.*]] = arith.constant 8 : i32
// CHECK:       call @moert_coll_all_reduce(%[[GRID]], %{{.*}}, %{{.*}}, %{{.*}}, %[[CODE]]) : (i64, i64, !llvm.ptr, i64, i32) -> ()
shard.grid @ep(shape = 8)
func.func @all_reduce_many_ranks(%x: memref<4x3xi32>, %y: memref<4x3xi32>) {
  moe.all_reduce %x on @ep axes [0] outs(%y) : memref<4x3xi32> -> memref<4x3xi32>
  return
}

// -----

// A sum over several axes is one sum per axis (each over the ranks that
// share the other coordinates), in place; an axis of one rank needs none.
// CHECK-LABEL: func.func @all_reduce_two_axes
// CHECK-NOT:   moe.
// CHECK:       memref.copy
// CHECK-DAG:   %[[GRID:.*]] = arith.constant 1 : i64
// CHECK-DAG:   %[[AXIS0:.*]] = arith.constant 0 : i64
// CHECK:       call @moert_coll_all_reduce(%[[GRID]], %[[AXIS0]],
// CHECK-DAG:   %[[AXIS2:.*]] = arith.constant 2 : i64
// CHECK:       call @moert_coll_all_reduce(%{{.*}}, %[[AXIS2]],
// CHECK-NOT:   call @moert_coll_all_reduce
// CHECK:       return
shard.grid @dp(shape = 2)
shard.grid @ep(shape = 2x1x4)
func.func @all_reduce_two_axes(%x: memref<4xi32>, %y: memref<4xi32>) {
  moe.all_reduce %x on @ep axes [0, 1, 2] outs(%y) : memref<4xi32> -> memref<4xi32>
  return
}

// -----

// The global aux loss over 8 ranks: this rank's counts [E] (i64) summed in
// place by libmoe_runtime (dtype code 7: i64; 4 = E elements) before they
// weight the probability sums, and T_g = 8 · T in the factor.
// CHECK-LABEL: func.func @global_aux_many_ranks
// CHECK-NOT:   moe.
// CHECK:       %[[COUNTS:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:       memref.extract_aligned_pointer_as_index %[[COUNTS]]
// CHECK:       %[[CODE:.*]] = arith.constant 7 : i32
// CHECK-NEXT:  call @moert_coll_all_reduce(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[CODE]]) : (i64, i64, !llvm.ptr, i64, i32) -> ()
// CHECK:       arith.constant 8.000000e+00 : f32
shard.grid @dp(shape = 8)
func.func @global_aux_many_ranks(%s: memref<4x4xf32>, %i: memref<4x2xi32>, %l: memref<f32>) {
  moe.aux_loss global %s, %i from softmax coeff 1.0e-02 outs(%l) {grid = @dp, grid_axes = array<i64: 0>} : memref<4x4xf32>, memref<4x2xi32> -> memref<f32>
  return
}

// -----

// Over two axes: the counts summed over each, and T_g = 2 · 3 · T.
// CHECK-LABEL: func.func @global_aux_two_axes
// CHECK:       call @moert_coll_all_reduce(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, !llvm.ptr, i64, i32) -> ()
// CHECK:       call @moert_coll_all_reduce(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, !llvm.ptr, i64, i32) -> ()
// CHECK:       arith.constant 6.000000e+00 : f32
shard.grid @dp(shape = 2x3)
func.func @global_aux_two_axes(%s: memref<4x4xf32>, %i: memref<4x2xi32>, %l: memref<f32>) {
  moe.aux_loss global %s, %i from softmax coeff 1.0e-02 outs(%l) {grid = @dp, grid_axes = array<i64: 0, 1>} : memref<4x4xf32>, memref<4x2xi32> -> memref<f32>
  return
}

// -----

// Ops on tensors must be bufferized first.
func.func @not_bufferized(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %init1 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{failed to legalize operation 'moe.gate'}}
  %l = moe.gate %x, %w outs(%init1) : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  return %l : tensor<4x2xf32>
}
