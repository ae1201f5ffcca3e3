// RUN: moe-opt %s -split-input-file --convert-moe-to-parallel-loops=single-thread-kernels | FileCheck %s

// convert-moe-to-parallel-loops: moe ops on memrefs with a parallel schedule
// become scf.parallel loops over independent work items
// (gpu-launch-top-level-loops makes kernels of them); with
// single-thread-kernels, the other ops run their reference loops in a
// single-thread gpu.launch.

// permute (T = 128 tokens = 2 chunks of 64, K = 2, E = 4, align 4,
// R = T·K + E·(A − 1) = 268 rows, H = 8) as seven parallel phases:
//  1. counts[chunk, expert] (i64, ceil(T/64) × E);
//  2. per expert: exclusive prefix over chunks, total to groupStart[e];
//  3. one thread: padded sizes (i32 out) and group offsets;
//  4. rows = -1 for pairs whose expert is outside [0, E);
//  5. per (chunk, expert): rows of the routed pairs (< R, else -1);
//  6. the token of each row;  7. each token's row copied to its pairs' rows,
//     then the rows no pair landed on zeroed.
// CHECK-LABEL: func.func @permute(
// CHECK-SAME:    %[[X:[^:]+]]: memref<128x8xbf16>, %[[I:[^:]+]]: memref<128x2xi32>, %[[P:[^:]+]]: memref<268x8xbf16>, %[[S:[^:]+]]: memref<4xi32>, %[[R:[^:]+]]: memref<128x2xi32>)
// CHECK-NOT:   moe.{{[a-z_]+}} %
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:   %[[C128:.*]] = arith.constant 128 : index
// CHECK:       %[[NC:.*]] = arith.ceildivui %[[C128]], %[[C64]] : index
// CHECK:       %[[COUNTS:.*]] = memref.alloc(%[[NC]], %[[C4]]) : memref<?x?xi64>
// CHECK:       %[[START:.*]] = memref.alloc(%[[C4]]) : memref<?xi64>
// 1.
// CHECK:       scf.parallel (%[[C1C:.*]], %[[C1E:.*]]) = ({{.*}}) to (%[[NC]], %[[C4]])
// CHECK:         scf.for {{.*}} -> (i64)
// CHECK:           scf.for {{.*}} -> (i64)
// CHECK:             memref.load %[[I]]
// CHECK:             arith.cmpi eq
// CHECK:         memref.store %{{.*}}, %[[COUNTS]][%[[C1C]], %[[C1E]]] : memref<?x?xi64>
// CHECK:         scf.reduce
// 2. (16 chunks' counts loaded before the first of their stores)
// CHECK:       scf.parallel (%[[C2E:.*]]) = ({{.*}}) to (%[[C4]])
// CHECK:         scf.for %[[C2C:.*]] = %{{.*}} to %[[NC]] step %c16 {{.*}} -> (i64)
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK-NOT:       memref.load
// CHECK:           memref.store %{{.*}}, %[[COUNTS]][%{{.*}}, %[[C2E]]]
// CHECK:         memref.store %{{.*}}, %[[START]][%[[C2E]]] : memref<?xi64>
// 3. (one iteration: the sequential scan over experts, 16 at a time)
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1) step
// CHECK:         scf.for %[[E3:.*]] = %{{.*}} to %[[C4]] step %c16 {{.*}} -> (i64)
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.store
// CHECK:           memref.load %[[START]]
// CHECK-NOT:       memref.load
// CHECK:           %[[SZ:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK:           memref.store %[[SZ]], %[[S]][%{{.*}}] : memref<4xi32>
// CHECK:           memref.store %{{.*}}, %[[START]][%{{.*}}] : memref<?xi64>
// 4.
// CHECK:       scf.parallel (%[[T4:.*]], %[[K4:.*]]) = ({{.*}}) to (%[[C128]], %c2)
// CHECK:         arith.xori
// CHECK:         scf.if
// CHECK:           memref.store %{{.*}}, %[[R]][%[[T4]], %[[K4]]] : memref<128x2xi32>
// 5.
// CHECK:       scf.parallel (%[[C5C:.*]], %[[C5E:.*]]) = ({{.*}}) to (%[[NC]], %[[C4]])
// CHECK:         memref.load %[[START]][%[[C5E]]]
// CHECK:         memref.load %[[COUNTS]][%[[C5C]], %[[C5E]]]
// CHECK:         scf.if
// CHECK:           arith.cmpi slt
// CHECK:           arith.select
// CHECK:           memref.store %{{.*}}, %[[R]]
// 6. The token of each row (-1: padding), from the pairs' rows.
// CHECK:       %[[TOK:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK:       scf.parallel (%[[R6:.*]]) = ({{.*}}) to (%c268)
// CHECK:         memref.store %{{.*}}, %[[TOK]][%[[R6]]] : memref<?xi32>
// CHECK:       scf.parallel (%[[T7:.*]], %[[K7:.*]]) = ({{.*}}) to (%[[C128]], %c2)
// CHECK:         memref.load %[[R]][%[[T7]], %[[K7]]]
// CHECK:         scf.if
// CHECK:           memref.store %{{.*}}, %[[TOK]][%{{.*}}] : memref<?xi32>
// 7. Block per token (gpu.loop_dim_map block_x), a thread per 8 columns
//    (thread_x): the token's row of x, 16 bytes per access, to the rows of
//    its routed pairs; then a warp per 32 rows (4 warps a block of 128
//    threads, lane = thread mod 32): each lane tests one row (no pair
//    landed on it), a 5-step butterfly ORs the lanes' bits into the warp's
//    mask, and the warp zeroes the rows of the mask one after another, the
//    lane's vectors 32 · 8 columns apart.
// CHECK:       scf.parallel (%[[T8:.*]]) = ({{.*}}) to (%[[C128]])
// CHECK:         scf.parallel (%[[H8:.*]]) = ({{.*}}) to (%c8{{.*}}) step (%c8{{.*}})
// CHECK:           scf.for %[[K8:.*]] = %{{.*}} to %c2
// CHECK:             memref.load %[[R]][%[[T8]], %[[K8]]]
// CHECK:             scf.if
// CHECK:               vector.load %[[X]][%[[T8]], %[[H8]]] {alignment = 16 : i64} : memref<128x8xbf16>, vector<8xbf16>
// CHECK:               vector.store %{{.*}}, %[[P]][%{{.*}}, %[[H8]]] {alignment = 16 : i64} : memref<268x8xbf16>, vector<8xbf16>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
// CHECK:       %[[GROUPS:.*]] = arith.ceildivui %c268{{.*}}, %c32
// CHECK:       %[[ROWBLOCKS:.*]] = arith.ceildivui %[[GROUPS]], %c4
// CHECK:       scf.parallel (%[[B9:.*]]) = ({{.*}}) to (%[[ROWBLOCKS]])
// CHECK:         scf.parallel (%[[T9:.*]]) = ({{.*}}) to (%c128{{.*}})
// CHECK:           %[[WARP9:.*]] = arith.divui %[[T9]], %c32
// CHECK:           %[[LANE9:.*]] = arith.remui %[[T9]], %c32
// CHECK:           %[[G9B:.*]] = arith.muli %[[B9]], %c4
// CHECK:           %[[G9:.*]] = arith.addi %[[G9B]], %[[WARP9]]
// CHECK:           %[[FIRST9:.*]] = arith.muli %[[G9]], %c32
// CHECK:           %[[MINE9:.*]] = arith.addi %[[FIRST9]], %[[LANE9]]
// CHECK:           arith.cmpi ult, %[[MINE9]], %c268
// CHECK:           %[[BIT9:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:             %[[LANE9I:.*]] = arith.index_cast %[[LANE9]] : index to i32
// CHECK:             %[[ONE9:.*]] = arith.shli %c1{{.*}}, %[[LANE9I]] : i32
// CHECK:             %[[TOKEN:.*]] = memref.load %[[TOK]][%[[MINE9]]]
// CHECK:             %[[UNROUTED9:.*]] = arith.cmpi slt, %[[TOKEN]]
// CHECK:             arith.select %[[UNROUTED9]], %[[ONE9]], %c0
// CHECK:           gpu.shuffle  xor %[[BIT9]], %c16_i32, %c32_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32
// CHECK:           %[[MASK9:.*]] = arith.ori
// CHECK:           scf.for %[[J9:.*]] = %c0{{.*}} to %c32{{.*}} step %c1
// CHECK:             arith.shrui %[[MASK9]]
// CHECK:             scf.if
// CHECK:               %[[R9:.*]] = arith.addi %[[FIRST9]], %[[J9]]
// CHECK:               %[[H9FIRST:.*]] = arith.muli %[[LANE9]], %c8
// CHECK:               scf.for %[[H9:.*]] = %[[H9FIRST]] to %c8{{.*}} step %c256
// CHECK:                 vector.store %{{.*}}, %[[P]][%[[R9]], %[[H9]]] {alignment = 16 : i64} : memref<268x8xbf16>, vector<8xbf16>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
// CHECK:       memref.dealloc %[[TOK]]
// CHECK:       memref.dealloc %[[COUNTS]]
// CHECK:       memref.dealloc %[[START]]
// CHECK-NOT:   scf.parallel
// CHECK:       return
func.func @permute(%x: memref<128x8xbf16>, %i: memref<128x2xi32>, %p: memref<268x8xbf16>, %s: memref<4xi32>, %r: memref<128x2xi32>) {
  moe.permute %x, %i experts 4 align 4 outs(%p, %s, %r) : memref<128x8xbf16>, memref<128x2xi32> -> memref<268x8xbf16>, memref<4xi32>, memref<128x2xi32>
  return
}

// -----

// z_loss over T = 192 tokens: one partial sum of lse² per 16-token chunk
// (12 chunks, in parallel), then one warp sums them (lane l: chunks l,
// l + 32, ...; a butterfly of shuffles) and its lane 0 stores the sum
// scaled by coeff / T.
// CHECK-LABEL: func.func @z_loss(
// CHECK-SAME:    %[[L:[^:]+]]: memref<192x8xf32>, %[[OUT:[^:]+]]: memref<f32>)
// CHECK:       %[[NC:.*]] = arith.ceildivui %c192, %c16 : index
// CHECK:       %[[PART:.*]] = memref.alloc(%[[NC]]) : memref<?xf32>
// CHECK:       scf.parallel (%[[C:.*]]) = (%{{.*}}) to (%[[NC]])
// CHECK:         scf.for {{.*}} -> (f32)
// CHECK:           arith.maximumf
// CHECK:           math.exp
// CHECK:           math.log
// CHECK:         memref.store %{{.*}}, %[[PART]][%[[C]]] : memref<?xf32>
// CHECK:       scf.parallel
// CHECK:         scf.parallel (%[[LANE:.*]]) = (%{{.*}}) to (%c32)
// CHECK:           %[[L0:.*]] = arith.remui %[[LANE]], %c32
// CHECK:           scf.for %[[J:.*]] = %[[L0]] to %[[NC]] step %c32{{.*}} -> (f32)
// CHECK:             memref.load %[[PART]][%[[J]]]
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK:           scf.if
// CHECK:             arith.constant 1.000000e-03 : f32
// CHECK:             arith.divf
// CHECK:             memref.store %{{.*}}, %[[OUT]][] : memref<f32>
// CHECK:       memref.dealloc %[[PART]]
func.func @z_loss(%l: memref<192x8xf32>, %out: memref<f32>) {
  moe.z_loss %l coeff 1.0e-03 outs(%out) : memref<192x8xf32> -> memref<f32>
  return
}

// -----

// aux_loss (sequence variant, 2 sequences of 64 tokens, sigmoid scores):
// per-token normalizer, then partials per (sequence, chunk of 16 tokens,
// expert) of the probability sums (f32) and routed counts (i64), then per
// (sequence, expert) a warp (4 a block) summing the chunks (lane l: chunks
// l, l + 32, ...) and a butterfly of shuffles (the counts as i32), then one
// thread for the mean.
// CHECK-LABEL: func.func @aux_loss(
// CHECK-SAME:    %[[S:[^:]+]]: memref<128x8xf32>, %[[I:[^:]+]]: memref<128x2xi32>, %[[OUT:[^:]+]]: memref<f32>)
// CHECK:       %[[NS:.*]] = arith.divui %c128{{.*}}, %{{.*}} : index
// CHECK:       %[[CPS:.*]] = arith.ceildivui %c64{{.*}}, %c16{{.*}} : index
// CHECK:       %[[NORM:.*]] = memref.alloc(%c128{{.*}}) : memref<?xf32>
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c128{{.*}})
// CHECK:         arith.constant 9.99999968E-21 : f32
// CHECK:       %[[PP:.*]] = memref.alloc(%[[NS]], %[[CPS]], %c8{{.*}}) : memref<?x?x?xf32>
// CHECK:       %[[CP:.*]] = memref.alloc(%[[NS]], %[[CPS]], %c8{{.*}}) : memref<?x?x?xi64>
// CHECK:       scf.parallel (%[[AS:.*]], %[[AC:.*]], %[[AE:.*]]) = ({{.*}}) to (%[[NS]], %[[CPS]], %c8{{.*}})
// CHECK:         scf.for {{.*}} -> (f32, i64)
// CHECK:           memref.load %[[NORM]]
// CHECK:           memref.load %[[I]]
// CHECK:         memref.store %{{.*}}#0, %[[PP]][%[[AS]], %[[AC]], %[[AE]]]
// CHECK:         memref.store %{{.*}}#1, %[[CP]][%[[AS]], %[[AC]], %[[AE]]]
// CHECK:       %[[TERMS:.*]] = memref.alloc(%[[NS]], %c8{{.*}}) : memref<?x?xf32>
// CHECK:       %[[COUNTS:.*]] = memref.alloc(%[[NS]], %c8{{.*}}) : memref<?x?xi64>
// CHECK:       scf.parallel
// CHECK:         scf.parallel (%[[TH:.*]]) = ({{.*}}) to (%c128{{.*}})
// CHECK:           %[[LANE:.*]] = arith.remui %[[TH]], %c32
// CHECK:           %[[SEQ:.*]] = arith.divui %[[ITEM:.*]], %c8
// CHECK:           %[[EXP:.*]] = arith.remui %[[ITEM]], %c8
// CHECK:           %[[SUMS:.*]]:2 = scf.for %{{.*}} = %[[LANE]] to %[[CPS]] step %c32{{.*}} iter_args({{.*}}) -> (f32, i64)
// CHECK:             memref.load %[[PP]][%[[SEQ]], %{{.*}}, %[[EXP]]]
// CHECK:             memref.load %[[CP]][%[[SEQ]], %{{.*}}, %[[EXP]]]
// CHECK:           gpu.shuffle  xor %[[SUMS]]#0, %c16
// CHECK-COUNT-4:   gpu.shuffle  xor %{{.*}} : f32
// CHECK:           %[[N32:.*]] = arith.trunci %[[SUMS]]#1 : i64 to i32
// CHECK:           gpu.shuffle  xor %[[N32]], %c16
// CHECK-COUNT-4:   gpu.shuffle  xor %{{.*}} : i32
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %[[TERMS]][%[[SEQ]], %[[EXP]]]
// CHECK:             arith.extsi
// CHECK:             memref.store %{{.*}}, %[[COUNTS]][%[[SEQ]], %[[EXP]]]
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{.*}})
// CHECK:         arith.constant 0.00999999977 : f32
// CHECK:         memref.load %[[TERMS]]
// CHECK:         memref.store %{{.*}}, %[[OUT]][] : memref<f32>
// CHECK-DAG:   memref.dealloc %[[PP]]
// CHECK-DAG:   memref.dealloc %[[CP]]
// CHECK-DAG:   memref.dealloc %[[TERMS]]
// CHECK-DAG:   memref.dealloc %[[NORM]]
func.func @aux_loss(%s: memref<128x8xf32>, %i: memref<128x2xi32>, %l: memref<f32>) {
  moe.aux_loss sequence %s, %i from sigmoid coeff 1.0e-02 outs(%l) {seq_length = 64 : i64} : memref<128x8xf32>, memref<128x2xi32> -> memref<f32>
  return
}

// -----

// Softmax scores need no normalizer: the first phase is the chunk partials.
// CHECK-LABEL: func.func @aux_loss_softmax(
// CHECK-NOT:   memref.alloc(%c128
// CHECK:       memref.alloc({{.*}}) : memref<?x?x?xf32>
// CHECK:       scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) =
func.func @aux_loss_softmax(%s: memref<128x8xf32>, %i: memref<128x2xi32>, %l: memref<f32>) {
  moe.aux_loss batch %s, %i from softmax coeff 1.0e-02 outs(%l) : memref<128x8xf32>, memref<128x2xi32> -> memref<f32>
  return
}

// -----

// The global aux loss over one rank is the batch loss, with its schedule
// (no single-thread kernel).
// CHECK-LABEL: func.func @aux_loss_global_one_rank(
// CHECK-NOT:   gpu.launch
// CHECK:       scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) =
// CHECK:       return
shard.grid @one(shape = 1)
func.func @aux_loss_global_one_rank(%s: memref<128x8xf32>, %i: memref<128x2xi32>, %l: memref<f32>) {
  moe.aux_loss global %s, %i from softmax coeff 1.0e-02 outs(%l) {grid = @one, grid_axes = array<i64: 0>} : memref<128x8xf32>, memref<128x2xi32> -> memref<f32>
  return
}

// -----

// sort_chunks: one thread for the sizes and the chunk starts (two i64
// buffers of P·C and the total), a thread per (chunk, lane of 64) for the
// output-row → x-row map, then two block-per-row passes (blocks over the
// rows, threads over 16-byte vectors of 8 bf16): the copies, then the zero
// rows. all_reduce has no schedule: a single-thread kernel.
// CHECK-LABEL: func.func @sort_chunks(
// CHECK-SAME:    %[[X:[^:]+]]: memref<64x32xbf16>, %[[C:[^:]+]]: memref<12xi32>, %[[Y:[^:]+]]: memref<64x32xbf16>, %[[S:[^:]+]]: memref<3xi32>
// CHECK:       %[[SRC:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:       %[[DST:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:       %[[TOTAL:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:       %[[MAP:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{.*}})
// CHECK:         memref.store %{{.*}}, %[[S]]
// CHECK:         memref.store %{{.*}}, %[[TOTAL]]
// CHECK:       scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %c64{{.*}})
// CHECK:         memref.store %{{.*}}, %[[MAP]]
// CHECK:       scf.parallel
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%c32{{.*}}) step (%c8{{.*}})
// CHECK:           vector.load %[[X]]{{.*}} : memref<64x32xbf16>, vector<8xbf16>
// CHECK:           vector.store %{{.*}}, %[[Y]]
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK:       scf.parallel
// CHECK:         scf.parallel
// CHECK:           vector.store %{{.*}}, %[[Y]]
// CHECK-COUNT-4: memref.dealloc
// CHECK:       gpu.launch
// CHECK:       return
shard.grid @single(shape = 1)
func.func @sort_chunks(%x: memref<64x32xbf16>, %c: memref<12xi32>, %y: memref<64x32xbf16>, %s: memref<3xi32>, %l: memref<f32>, %lr: memref<f32>) {
  moe.sort_chunks %x, %c outs(%y, %s) : memref<64x32xbf16>, memref<12xi32> -> memref<64x32xbf16>, memref<3xi32>
  moe.all_reduce %l on @single axes [0] outs(%lr) : memref<f32> -> memref<f32>
  return
}

// -----

// The router ops are parallel over independent items: gate over (blocks of
// 4 tokens, e), route and topk over tokens, topk's per-token scratch (stack
// buffers) inside the loop, one per thread.
// CHECK-LABEL: func.func @router(
// CHECK-NOT:   moe.{{[a-z_]+}} %
// CHECK-NOT:   memref.alloca
// CHECK:       %[[GB:.*]] = arith.ceildivui
// CHECK:       scf.parallel (%{{.*}}, %[[GE:.*]]) = ({{.*}}) to (%[[GB]], %c4{{.*}})
// CHECK:         scf.for {{.*}} -> (f32, f32, f32, f32)
// CHECK:         memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[GE]]] : memref<4x4xf32>
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c4{{.*}})
// CHECK:         arith.negf
// CHECK:         math.exp
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c4{{.*}})
// CHECK-NEXT:    memref.alloca() : memref<4xf32>
// CHECK:         memref.store %{{.*}} : memref<4x2xi32>
// CHECK:       return
func.func @router(%x: memref<4x8xbf16>, %w: memref<8x4xf32>, %b: memref<4xf32>, %l: memref<4x4xf32>,
                  %s: memref<4x4xf32>, %wt: memref<4x2xf32>, %idx: memref<4x2xi32>) {
  moe.gate %x, %w outs(%l) : memref<4x8xbf16>, memref<8x4xf32> -> memref<4x4xf32>
  moe.route sigmoid %l outs(%s) : memref<4x4xf32> -> memref<4x4xf32>
  moe.topk sigmoid %s bias %b k 2 outs(%wt, %idx) : memref<4x4xf32>, memref<4xf32> -> memref<4x2xf32>, memref<4x2xi32>
  return
}

// -----

// glu and combine, block per row (block_x) and a thread per vector of the
// row (thread_x): glu's F = 6 bf16 columns as 3 vectors of 2 (4-byte
// accesses: the widest that divides the row), its up half at column F + f;
// combine's H = 4 bf16 columns as one vector of 4, summed over k in f32.
// CHECK-LABEL: func.func @glu_combine(
// CHECK-SAME:    %[[G:[^:]+]]: memref<8x12xbf16>, %[[H:[^:]+]]: memref<8x6xbf16>, %[[Y:[^:]+]]: memref<8x4xbf16>, %[[ROWS:[^:]+]]: memref<4x2xi32>, %{{[^:]+}}: memref<4x2xf32>, %[[OUT:[^:]+]]: memref<4x4xbf16>)
// CHECK-NOT:   moe.{{[a-z_]+}} %
// CHECK:       scf.parallel (%[[R:.*]]) = ({{.*}}) to (%c8{{.*}})
// CHECK:         scf.parallel (%[[F:.*]]) = ({{.*}}) to (%c6{{.*}}) step (%c2{{.*}})
// CHECK:           vector.load %[[G]][%[[R]], %[[F]]] {alignment = 4 : i64} : memref<8x12xbf16>, vector<2xbf16>
// CHECK:           %[[UPCOL:.*]] = arith.addi %[[F]], %c6
// CHECK:           vector.load %[[G]][%[[R]], %[[UPCOL]]] {alignment = 4 : i64} : memref<8x12xbf16>, vector<2xbf16>
// CHECK:           math.exp
// CHECK:           math.exp
// CHECK:           vector.store %{{.*}}, %[[H]][%[[R]], %[[F]]] {alignment = 4 : i64} : memref<8x6xbf16>, vector<2xbf16>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
// CHECK:       scf.parallel (%[[T:.*]]) = ({{.*}}) to (%c4{{.*}})
// CHECK:         scf.parallel (%[[HH:.*]]) = ({{.*}}) to (%c4{{.*}}) step (%c4{{.*}})
// CHECK:           scf.for %[[K:.*]] = {{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32)
// CHECK:             memref.load %[[ROWS]][%[[T]], %[[K]]]
// CHECK:             scf.if %{{.*}} -> (f32, f32, f32, f32)
// CHECK:               vector.load %[[Y]][%{{.*}}, %[[HH]]] {alignment = 8 : i64} : memref<8x4xbf16>, vector<4xbf16>
// CHECK-COUNT-4:       arith.addf
// CHECK:           vector.store %{{.*}}, %[[OUT]][%[[T]], %[[HH]]] {alignment = 8 : i64} : memref<4x4xbf16>, vector<4xbf16>
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
// CHECK-NOT:   gpu.launch
func.func @glu_combine(%g: memref<8x12xbf16>, %h: memref<8x6xbf16>, %y: memref<8x4xbf16>, %rows: memref<4x2xi32>,
                       %w: memref<4x2xf32>, %out: memref<4x4xbf16>) {
  moe.glu silu %g outs(%h) : memref<8x12xbf16> -> memref<8x6xbf16>
  moe.combine %y, %rows, %w outs(%out) : memref<8x4xbf16>, memref<4x2xi32>, memref<4x2xf32> -> memref<4x4xbf16>
  return
}

// -----

// Rows of a dynamic length keep the element-wise loops over (token, h).
// CHECK-LABEL: func.func @combine_dynamic(
// CHECK-NOT:   vector.load
// CHECK:       scf.parallel (%[[T:.*]], %[[HH:.*]]) = ({{.*}}) to (%c4{{.*}}, %{{.*}})
// CHECK:         memref.store %{{.*}}, %{{.*}}[%[[T]], %[[HH]]] : memref<4x?xbf16>
// CHECK-NOT:   mapping
func.func @combine_dynamic(%y: memref<8x?xbf16>, %rows: memref<4x2xi32>, %w: memref<4x2xf32>, %out: memref<4x?xbf16>) {
  moe.combine %y, %rows, %w outs(%out) : memref<8x?xbf16>, memref<4x2xi32>, memref<4x2xf32> -> memref<4x?xbf16>
  return
}

// -----

// combine_grad: dweights as a warp per (t, k) (8 pairs a block of 256
// threads): each lane sums its vectors of both rows (here H = 4: one
// vector, lane 0's; a dropped pair's loop runs no iteration), a butterfly
// of 5 xor shuffles adds the lanes, lane 0 stores; per row the count of the pairs naming
// it (no pair index: the token kernel knows its pairs). dy by rows of
// vectors (H = 4 bf16 as one vector of 4): a block per token reads its dout
// vector once and stores weights · dout to each row only its pair names; a
// block per row writes every other row: zero (a scan of no pairs) or the
// reference's sum over all pairs naming it, in (t, k) order.
// CHECK-LABEL: func.func @combine_grad(
// CHECK-SAME:    %[[DOUT:[^:]+]]: memref<4x4xbf16>, %{{[^:]+}}: memref<8x4xbf16>, %[[ROWS:[^:]+]]: memref<4x2xi32>, %[[W:[^:]+]]: memref<4x2xf32>, %[[DY:[^:]+]]: memref<8x4xbf16>, %[[DW:[^:]+]]: memref<4x2xf32>)
// CHECK:       scf.parallel (%[[PB:.*]]) = ({{.*}}) to (%{{.*}})
// CHECK:         scf.parallel (%[[PT:.*]]) = ({{.*}}) to (%c256{{.*}})
// CHECK:           %[[LANE:.*]] = arith.remui %[[PT]], %c32
// CHECK:           %[[T:.*]] = arith.divui %[[PAIR:.*]], %c2
// CHECK:           %[[K:.*]] = arith.remui %[[PAIR]], %c2
// CHECK:           %[[VALID:.*]] = arith.andi
// CHECK:           %[[END:.*]] = arith.select %[[VALID]], %c1{{.*}}, %c0
// CHECK:           %[[PARTIAL:.*]] = scf.for %{{.*}} = %[[LANE]] to %[[END]] step %c32{{.*}} iter_args
// CHECK-COUNT-2:     vector.load
// CHECK:           }
// CHECK:           %[[S1:.*]], %{{.*}} = gpu.shuffle  xor %[[PARTIAL]], %c16
// CHECK:           %[[A1:.*]] = arith.addf %[[PARTIAL]], %[[S1]]
// CHECK-COUNT-4:   gpu.shuffle  xor
// CHECK:           %[[SUM:.*]] = arith.addf
// CHECK:           %[[DWV:.*]] = arith.select %[[VALID]], %[[SUM]], %cst
// CHECK:           scf.if
// CHECK:             memref.store %[[DWV]], %[[DW]][%[[T]], %[[K]]] : memref<4x2xf32>
// CHECK:       %[[COUNT:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK-NOT:   memref.alloc
// CHECK:       scf.parallel (%[[R0:.*]]) = ({{.*}}) to (%c8{{.*}})
// CHECK:         memref.store %{{.*}}, %[[COUNT]][%[[R0]]]
// CHECK:         scf.reduce
// CHECK:       scf.parallel (%{{.*}}, %{{.*}}) = ({{.*}}) to (%c4{{.*}}, %c2{{.*}})
// CHECK:         scf.if
// CHECK:           arith.index_cast
// CHECK:           memref.atomic_rmw addi %{{.*}}, %[[COUNT]][%{{.*}}]
// CHECK:         }
// CHECK:       scf.parallel (%[[TT:.*]]) = ({{.*}}) to (%c4{{.*}})
// CHECK:         scf.parallel (%[[HT:.*]]) = ({{.*}}) to (%c4{{.*}}) step (%c4{{.*}})
// CHECK:           vector.load %[[DOUT]][%[[TT]], %[[HT]]] {alignment = 8 : i64} : memref<4x4xbf16>, vector<4xbf16>
// CHECK:           scf.for %[[KK:[^ ]*]] = {{.*}} {
// CHECK:             %[[ROW:.*]] = memref.load %[[ROWS]][%[[TT]], %[[KK]]]
// CHECK:             scf.if
// CHECK:               %[[RIDX:.*]] = arith.index_cast
// CHECK:               %[[N:.*]] = memref.load %[[COUNT]][%[[RIDX]]]
// CHECK:               %[[ONE:.*]] = arith.cmpi eq, %[[N]], %c1
// CHECK:               scf.if %[[ONE]] {
// CHECK:                 memref.load %[[W]][%[[TT]], %[[KK]]]
// CHECK-COUNT-4:         arith.mulf
// CHECK-NOT:             vector.load
// CHECK:                 vector.store %{{.*}}, %[[DY]][%[[RIDX]], %[[HT]]] {alignment = 8 : i64} : memref<8x4xbf16>, vector<4xbf16>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
// CHECK:       scf.parallel (%[[RB:.*]]) = ({{.*}}) to (%{{.*}})
// CHECK:         scf.parallel (%[[RT:.*]]) = ({{.*}}) to (%c128{{.*}})
// CHECK:           %[[RLANE:.*]] = arith.remui %[[RT]], %c32
// CHECK:           %[[RFIRST:.*]] = arith.muli %{{.*}}, %c32
// CHECK:           %[[RMINE:.*]] = arith.addi %[[RFIRST]], %[[RLANE]]
// CHECK:           scf.if %{{.*}} -> (i32) {
// CHECK:             %[[M1:.*]] = memref.load %[[COUNT]][%[[RMINE]]]
// CHECK:             arith.cmpi ne, %[[M1]], %c1
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK:           scf.for %[[RJ:.*]] = %c0{{.*}} to %c32
// CHECK:             scf.if
// CHECK:               %[[R:.*]] = arith.addi %[[RFIRST]], %[[RJ]]
// CHECK:               %[[HRFIRST:.*]] = arith.muli %[[RLANE]], %c4
// CHECK:               scf.for %[[HR:.*]] = %[[HRFIRST]] to %c4{{.*}} step %c128
// CHECK:                 %[[M:.*]] = memref.load %[[COUNT]][%[[R]]]
// CHECK:                 %[[NONE:.*]] = arith.cmpi eq, %[[M]], %c0
// CHECK:               %[[END:.*]] = arith.select %[[NONE]], %{{.*}}, %c4
// CHECK:               scf.for %[[ST:[^ ]*]] = %{{.*}} to %[[END]] {{.*}} -> (f32, f32, f32, f32)
// CHECK:                 scf.for %[[SK:[^ ]*]] = {{.*}} -> (f32, f32, f32, f32)
// CHECK:                   memref.load %[[ROWS]][%[[ST]], %[[SK]]]
// CHECK:                   scf.if %{{.*}} -> (f32, f32, f32, f32)
// CHECK:                     vector.load %[[DOUT]][%[[ST]], %[[HR]]] {alignment = 8 : i64} : memref<4x4xbf16>, vector<4xbf16>
// CHECK:               vector.store %{{.*}}, %[[DY]][%[[R]], %[[HR]]] {alignment = 8 : i64} : memref<8x4xbf16>, vector<4xbf16>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
// CHECK:       memref.dealloc %[[COUNT]]
func.func @combine_grad(%dout: memref<4x4xbf16>, %y: memref<8x4xbf16>, %rows: memref<4x2xi32>, %w: memref<4x2xf32>,
                        %dy: memref<8x4xbf16>, %dw: memref<4x2xf32>) {
  moe.combine_grad %dout, %y, %rows, %w outs(%dy, %dw) : memref<4x4xbf16>, memref<8x4xbf16>, memref<4x2xi32>, memref<4x2xf32> -> memref<8x4xbf16>, memref<4x2xf32>
  return
}

// -----

// Rows of a dynamic length: per row the count and one pair naming it, then
// every element of dy once: 0, the one pair's weighted cotangent, or the
// reference's sum over all pairs.
// CHECK-LABEL: func.func @combine_grad_dynamic(
// CHECK-SAME:    %{{[^:]+}}: memref<4x?xbf16>, %{{[^:]+}}: memref<8x?xbf16>, %{{[^:]+}}: memref<4x2xi32>, %{{[^:]+}}: memref<4x2xf32>, %[[DY:[^:]+]]: memref<8x?xbf16>, %[[DW:[^:]+]]: memref<4x2xf32>)
// CHECK-NOT:   vector.load
// CHECK:       scf.parallel (%[[T:.*]], %[[K:.*]]) = ({{.*}}) to (%c4{{.*}}, %c2{{.*}})
// CHECK:         memref.store %{{.*}}, %[[DW]][%[[T]], %[[K]]] : memref<4x2xf32>
// CHECK:       %[[COUNT:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK:       %[[PAIR:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK:       scf.parallel (%[[R0:.*]]) = ({{.*}}) to (%c8{{.*}})
// CHECK:         memref.store %{{.*}}, %[[COUNT]][%[[R0]]]
// CHECK:         memref.store %{{.*}}, %[[PAIR]][%[[R0]]]
// CHECK:       scf.parallel (%{{.*}}, %{{.*}}) = ({{.*}}) to (%c4{{.*}}, %c2{{.*}})
// CHECK:         scf.if
// CHECK:           memref.atomic_rmw addi %{{.*}}, %[[COUNT]][%{{.*}}]
// CHECK:           memref.store %{{.*}}, %[[PAIR]][%{{.*}}]
// CHECK:       scf.parallel (%[[R:.*]], %[[H:.*]]) = ({{.*}}) to (%c8{{.*}}, %{{.*}})
// CHECK:         memref.load %[[COUNT]][%[[R]]]
// CHECK:         scf.if %{{.*}} -> (f32) {
// CHECK:         } else {
// CHECK:           scf.if %{{.*}} -> (f32) {
// CHECK:             memref.load %[[PAIR]][%[[R]]]
// CHECK:             arith.mulf
// CHECK:           } else {
// CHECK:             scf.for
// CHECK:         memref.store %{{.*}}, %[[DY]][%[[R]], %[[H]]] : memref<8x?xbf16>
// CHECK-NOT:   mapping
// CHECK:       memref.dealloc %[[PAIR]]
// CHECK:       memref.dealloc %[[COUNT]]
func.func @combine_grad_dynamic(%dout: memref<4x?xbf16>, %y: memref<8x?xbf16>, %rows: memref<4x2xi32>, %w: memref<4x2xf32>,
                                %dy: memref<8x?xbf16>, %dw: memref<4x2xf32>) {
  moe.combine_grad %dout, %y, %rows, %w outs(%dy, %dw) : memref<4x?xbf16>, memref<8x?xbf16>, memref<4x2xi32>, memref<4x2xf32> -> memref<8x?xbf16>, memref<4x2xf32>
  return
}

// -----

// An op without a parallel schedule runs its reference loops in a 1×1 kernel
// (the pass loads the gpu dialect itself).
// CHECK-LABEL: func.func @bias_update(
// CHECK:       %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:  gpu.launch blocks({{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads({{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK:         scf.for
// CHECK:         gpu.terminator
// CHECK-NOT:   moe.{{[a-z_]+}} %
func.func @bias_update(%b: memref<8xf32>, %c: memref<8xi32>, %u: memref<8xf32>) {
  moe.expert_bias_update %b, %c rate 1.000000e-03 outs(%u) : memref<8xf32>, memref<8xi32> -> memref<8xf32>
  return
}
