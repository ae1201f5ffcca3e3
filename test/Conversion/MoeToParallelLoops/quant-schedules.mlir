// RUN: moe-opt %s -split-input-file --convert-moe-to-parallel-loops=single-thread-kernels | FileCheck %s

// convert-moe-to-parallel-loops: moe.quantize / moe.dequantize get their GPU
// schedules (QuantSchedules.h), not the reference loops in a single-thread
// gpu.launch; mx_1x32 keeps those.

// tensorwise, x [64, 256] bf16 = 2048 vectors of 8 (16 bytes):
//  1. ⌈2048 / (256 · 4)⌉ = 2 blocks (block_x) of 256 threads (thread_x),
//     4 vector loads an iteration, a butterfly of shuffles xor 16 ... 1
//     (maxnumf), lane 0 of each warp stores its partial (2 · 8 = 16);
//  2. one block of 32 lanes: the partials' maximum (16 loads a lane at a
//     time), the butterfly, lane 0 stores the scale;
//  3. a thread per (row, vector): x / scale stored as 8 FP8 bytes.
// CHECK-LABEL: func.func @tensorwise(
// CHECK-SAME:    %[[X:[^:]+]]: memref<64x256xbf16>, %[[Q:[^:]+]]: memref<64x256xf8E4M3FN>, %[[S:[^:]+]]: memref<f32>)
// CHECK-NOT:   gpu.launch
// CHECK:       %[[PART:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:       scf.parallel
// CHECK:         scf.parallel (%[[T1:.*]]) = (%{{.*}}) to (%c256{{.*}})
// CHECK:           scf.for {{.*}} -> (f32)
// CHECK-COUNT-4:     vector.load %[[X]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x256xbf16>, vector<8xbf16>
// CHECK:           gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK:           arith.maxnumf
// CHECK:           gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %[[PART]][%{{.*}}] : memref<?xf32>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK:       scf.parallel
// CHECK:         scf.parallel (%[[LANE:.*]]) = (%{{.*}}) to (%c32{{.*}})
// CHECK:           scf.for {{.*}} -> (f32)
// CHECK-COUNT-16:    memref.load %[[PART]]
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK:           scf.if
// CHECK:             arith.divf
// CHECK:             memref.store %{{.*}}, %[[S]][] : memref<f32>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK:       scf.parallel (%[[R:.*]], %[[V:.*]]) = (%{{.*}}, %{{.*}}) to (%c64{{.*}}, %c32{{.*}})
// CHECK:         memref.load %[[S]][] : memref<f32>
// CHECK:         vector.load %[[X]][%[[R]], %{{.*}}] {alignment = 16 : i64} : memref<64x256xbf16>, vector<8xbf16>
// CHECK-COUNT-8: arith.divf
// CHECK:         vector.store %{{.*}}, %[[Q]][%[[R]], %{{.*}}] {alignment = 8 : i64} : memref<64x256xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK:       memref.dealloc %[[PART]]
// CHECK-NOT:   gpu.launch
// CHECK:       return
func.func @tensorwise(%x: memref<64x256xbf16>, %q: memref<64x256xf8E4M3FN>, %s: memref<f32>) {
  moe.quantize tensorwise %x outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E4M3FN>, memref<f32>
  return
}

// -----

// delayed: as tensorwise; lane 0 of the final warp takes the scale from the
// history's maximum, stores it, then rolls the history back to front and
// stores the new amax in slot 0. The cast divides by the scale: a scale
// from past amaxes does not bound the quotients, whose overflow the
// reciprocal's corrections would turn into NaN.
// CHECK-LABEL: func.func @delayed(
// CHECK-SAME:    %[[X:[^:]+]]: memref<8x64xf32>, %[[Q:[^:]+]]: memref<8x64xf8E5M2>, %[[S:[^:]+]]: memref<f32>, %[[H:[^:]+]]: memref<16xf32>)
// CHECK-NOT:   gpu.launch
// CHECK:       scf.parallel (%[[LANE:.*]]) = (%{{.*}}) to (%c32{{.*}})
// CHECK-COUNT-5: gpu.shuffle  xor
// CHECK:         %[[AMAX:.*]] = arith.maxnumf
// CHECK:         scf.if
// CHECK:           scf.for {{.*}} -> (f32)
// CHECK:             memref.load %[[H]][%{{.*}}] : memref<16xf32>
// CHECK:           memref.store %{{.*}}, %[[S]][] : memref<f32>
// CHECK:           scf.for
// CHECK:             memref.load %[[H]]
// CHECK:             memref.store %{{.*}}, %[[H]]
// CHECK:           memref.store %[[AMAX]], %[[H]][%{{.*}}] : memref<16xf32>
// CHECK:       scf.parallel (%[[R:.*]], %[[V:.*]]) = (%{{.*}}, %{{.*}}) to (%c8{{.*}}, %c16{{.*}})
// CHECK:         vector.load %[[X]][%[[R]], %{{.*}}] {alignment = 16 : i64} : memref<8x64xf32>, vector<4xf32>
// CHECK-NOT:     math.fma
// CHECK-COUNT-4: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT:     math.fma
// CHECK:         vector.store %{{.*}}, %[[Q]][%[[R]], %{{.*}}] {alignment = 4 : i64} : memref<8x64xf8E5M2>, vector<4xf8E5M2>
// CHECK-NOT:   gpu.launch
func.func @delayed(%x: memref<8x64xf32>, %q: memref<8x64xf8E5M2>, %s: memref<f32>, %h: memref<16xf32>) {
  moe.quantize delayed %x outs(%q, %s, %h) : memref<8x64xf32> -> memref<8x64xf8E5M2>, memref<f32>, memref<16xf32>
  return
}

// -----

// block_1x128, x [40, 256] bf16: 40 · 2 = 80 (row, block) units of 16
// lanes, 16 units a block of 256 threads → 5 blocks; each lane loads 8
// columns once (16 bytes), the butterfly over 16 lanes (xor 8, 4, 2, 1:
// no xor 16), lane 0 of the 16 stores the scale, every lane its 8 bytes.
// CHECK-LABEL: func.func @block_1x128(
// CHECK-SAME:    %[[X:[^:]+]]: memref<40x256xbf16>, %[[Q:[^:]+]]: memref<40x256xf8E4M3FN>, %[[S:[^:]+]]: memref<40x2xf32>)
// CHECK-NOT:   gpu.launch
// CHECK:       scf.parallel
// CHECK:         scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256{{.*}})
// CHECK:           vector.load %[[X]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<40x256xbf16>, vector<8xbf16>
// CHECK-NOT:       vector.load
// CHECK-NOT:       gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK:           arith.divf %{{.*}}, %cst
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %[[S]][%{{.*}}, %{{.*}}] : memref<40x2xf32>
// CHECK:           scf.if
// CHECK-COUNT-8:     arith.divf
// CHECK:             vector.store %{{.*}}, %[[Q]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<40x256xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK-NOT:   gpu.launch
// CHECK:       return
func.func @block_1x128(%x: memref<40x256xbf16>, %q: memref<40x256xf8E4M3FN>, %s: memref<40x2xf32>) {
  moe.quantize block_1x128 %x outs(%q, %s) : memref<40x256xbf16> -> memref<40x256xf8E4M3FN>, memref<40x2xf32>
  return
}

// -----

// block_128x128 on batched weights [4, 256, 384]: viewed as [1024, 384],
// a warp per 128 × 128 tile (4 · 2 · 3 = 24 tiles, 8 a block); the amax
// loop loads 4 rows a half-warp an iteration, the butterfly spans the
// warp (xor 16 ... 1), lane 0 stores the tile's scale, then the tile again,
// 4 rows an iteration, cast and stored.
// CHECK-LABEL: func.func @block_128x128(
// CHECK-SAME:    %[[X:[^:]+]]: memref<4x256x384xbf16>, %[[Q:[^:]+]]: memref<4x256x384xf8E4M3FN>, %[[S:[^:]+]]: memref<4x2x3xf32>)
// CHECK-NOT:   gpu.launch
// CHECK:       %[[XV:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : memref<4x256x384xbf16> into memref<1024x384xbf16>
// CHECK:       %[[QV:.*]] = memref.collapse_shape %[[Q]]
// CHECK:       %[[SV:.*]] = memref.collapse_shape %[[S]] {{\[\[}}0, 1], [2]] : memref<4x2x3xf32> into memref<8x3xf32>
// CHECK:       scf.parallel
// CHECK:         scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256{{.*}})
// CHECK:           scf.for {{.*}} -> (f32)
// CHECK-COUNT-4:     vector.load %[[XV]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<1024x384xbf16>, vector<8xbf16>
// CHECK:           gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %[[SV]][%{{.*}}, %{{.*}}] : memref<8x3xf32>
// CHECK:           scf.for
// CHECK-COUNT-4:     vector.load %[[XV]]
// CHECK-COUNT-4:     vector.store %{{.*}}, %[[QV]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<1024x384xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK-NOT:   gpu.launch
// CHECK:       return
func.func @block_128x128(%x: memref<4x256x384xbf16>, %q: memref<4x256x384xf8E4M3FN>, %s: memref<4x2x3xf32>) {
  moe.quantize block_128x128 %x outs(%q, %s) : memref<4x256x384xbf16> -> memref<4x256x384xf8E4M3FN>, memref<4x2x3xf32>
  return
}

// -----

// dequantize: a thread per (row, vector of 8), the block's scale (128x128:
// row r of the [G · M, N] view is batch r / M, row block (r mod M) / 128).
// CHECK-LABEL: func.func @dequantize(
// CHECK-SAME:    %[[Q:[^:]+]]: memref<4x256x384xf8E4M3FN>, %[[S:[^:]+]]: memref<4x2x3xf32>, %[[Y:[^:]+]]: memref<4x256x384xbf16>,
// CHECK-SAME:    %[[Q1:[^:]+]]: memref<40x256xf8E5M2>, %[[S1:[^:]+]]: memref<40x2xf32>, %[[Y1:[^:]+]]: memref<40x256xf32>)
// CHECK-NOT:   gpu.launch
// CHECK:       %[[QV:.*]] = memref.collapse_shape %[[Q]]
// CHECK:       %[[YV:.*]] = memref.collapse_shape %[[Y]]
// CHECK:       %[[SV:.*]] = memref.collapse_shape %[[S]]
// CHECK:       scf.parallel (%[[R:.*]], %[[V:.*]]) = (%{{.*}}, %{{.*}}) to (%c1024{{.*}}, %c48{{.*}})
// CHECK:         arith.divui %[[R]], %c256
// CHECK:         arith.remui %[[R]], %c256
// CHECK:         memref.load %[[SV]][%{{.*}}, %{{.*}}] : memref<8x3xf32>
// CHECK:         vector.load %[[QV]][%[[R]], %{{.*}}] {alignment = 8 : i64} : memref<1024x384xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK-COUNT-8: arith.mulf
// CHECK:         vector.store %{{.*}}, %[[YV]][%[[R]], %{{.*}}] {alignment = 16 : i64} : memref<1024x384xbf16>, vector<8xbf16>
// CHECK:       scf.parallel (%[[R1:.*]], %[[V1:.*]]) = (%{{.*}}, %{{.*}}) to (%c40{{.*}}, %c64{{.*}})
// CHECK:         memref.load %[[S1]][%[[R1]], %{{.*}}] : memref<40x2xf32>
// CHECK:         vector.load %[[Q1]][%[[R1]], %{{.*}}] {alignment = 4 : i64} : memref<40x256xf8E5M2>, vector<4xf8E5M2>
// CHECK-COUNT-4: arith.mulf
// CHECK:         vector.store %{{.*}}, %[[Y1]][%[[R1]], %{{.*}}] {alignment = 16 : i64} : memref<40x256xf32>, vector<4xf32>
// CHECK-NOT:   gpu.launch
// CHECK:       return
func.func @dequantize(%q: memref<4x256x384xf8E4M3FN>, %s: memref<4x2x3xf32>, %y: memref<4x256x384xbf16>,
                      %q1: memref<40x256xf8E5M2>, %s1: memref<40x2xf32>, %y1: memref<40x256xf32>) {
  moe.dequantize block_128x128 %q, %s outs(%y) : memref<4x256x384xf8E4M3FN>, memref<4x2x3xf32> -> memref<4x256x384xbf16>
  moe.dequantize block_1x128 %q1, %s1 outs(%y1) : memref<40x256xf8E5M2>, memref<40x2xf32> -> memref<40x256xf32>
  return
}

// -----

// mx_1x32 has no GPU schedule: its reference loops in a single-thread
// kernel (moe-lower-to-gpu rejects it before sm_100 anyway).
// CHECK-LABEL: func.func @mx(
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK-NOT:     gpu.shuffle
// CHECK:         scf.for
// CHECK-NOT:   scf.parallel
func.func @mx(%x: memref<4x64xbf16>, %q: memref<4x64xf8E4M3FN>, %s: memref<4x2xf8E8M0FNU>) {
  moe.quantize mx_1x32 %x outs(%q, %s) : memref<4x64xbf16> -> memref<4x64xf8E4M3FN>, memref<4x2xf8E8M0FNU>
  return
}

// -----

// block_1x128 of a transposed copy that only the quantize reads
// (moe-fp8-placement's columnwise wgrad operands): the transpose goes and
// the schedule reads its source, x [256, 64] bf16, directly: a warp per
// (128-row block, 4 groups of 8 columns), 2 · 2 warps in one block of 256
// threads; a lane loads 16 rows of its 8 columns (16-byte vectors), each
// column's amax over its rows, then over the 8 lanes of the block (xor 16,
// 8, 4); the lanes of the first rows store the scales, every lane stores
// its 16 FP8 bytes of each of its 8 output rows, its 16 values of a
// column divided by the scale's reciprocal and two FMA corrections each
// (the division where the scale lies outside [2^-60, 2^120]).
// CHECK-LABEL: func.func @transposed_block_1x128(
// CHECK-SAME:    %[[X:[^:]+]]: memref<256x64xbf16>, %[[Q:[^:]+]]: memref<64x256xf8E4M3FN>, %[[S:[^:]+]]: memref<64x2xf32>)
// CHECK-NOT:   linalg.transpose
// CHECK:       arith.ceildivui %c4{{.*}}, %c8
// CHECK:       scf.parallel
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256{{.*}})
// CHECK-COUNT-16: vector.load %[[X]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<256x64xbf16>, vector<8xbf16>
// CHECK:           gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK:           %[[SC:.*]] = arith.select
// CHECK:           scf.if
// CHECK:             memref.store %[[SC]], %[[S]][%{{.*}}, %{{.*}}] : memref<64x2xf32>
// CHECK:           scf.if
// CHECK:             %[[LO:.*]] = arith.cmpf oge, %[[SC]], %{{.*}} : f32
// CHECK:             %[[HI:.*]] = arith.cmpf ole, %[[SC]], %{{.*}} : f32
// CHECK:             %[[IN:.*]] = arith.andi %[[LO]], %[[HI]] : i1
// CHECK:             scf.if %[[IN]] {
// CHECK:               arith.divf %{{.*}}, %[[SC]] : f32
// CHECK-COUNT-64:      math.fma
// CHECK:               vector.store %{{.*}}, %[[Q]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x256xf8E4M3FN>, vector<16xf8E4M3FN>
// CHECK:             } else {
// CHECK-COUNT-16:      arith.divf %{{.*}}, %[[SC]] : f32
// CHECK:               vector.store %{{.*}}, %[[Q]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x256xf8E4M3FN>, vector<16xf8E4M3FN>
// CHECK-COUNT-7:   vector.store %{{.*}}, %[[Q]]
// CHECK-NOT:   linalg.transpose
// CHECK:       return
func.func @transposed_block_1x128(%x: memref<256x64xbf16>, %q: memref<64x256xf8E4M3FN>, %s: memref<64x2xf32>) {
  %t = memref.alloc() : memref<64x256xbf16>
  linalg.transpose ins(%x : memref<256x64xbf16>) outs(%t : memref<64x256xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E4M3FN>, memref<64x2xf32>
  memref.dealloc %t : memref<64x256xbf16>
  return
}

// -----

// The transposed copy has another reader: it stays, and the quantize reads
// it with the plain block_1x128 schedule.
// CHECK-LABEL: func.func @transposed_copy_read_again(
// CHECK:       linalg.transpose
// CHECK:       gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK:       gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK:       memref.copy
func.func @transposed_copy_read_again(%x: memref<256x64xbf16>, %q: memref<64x256xf8E4M3FN>, %s: memref<64x2xf32>, %t2: memref<64x256xbf16>) {
  %t = memref.alloc() : memref<64x256xbf16>
  linalg.transpose ins(%x : memref<256x64xbf16>) outs(%t : memref<64x256xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E4M3FN>, memref<64x2xf32>
  memref.copy %t, %t2 : memref<64x256xbf16> to memref<64x256xbf16>
  memref.dealloc %t : memref<64x256xbf16>
  return
}

// -----

// R = 200 is not a multiple of 128: not fused.
// CHECK-LABEL: func.func @transposed_partial_block(
// CHECK:       linalg.transpose
func.func @transposed_partial_block(%x: memref<200x64xbf16>, %q: memref<64x200xf8E4M3FN>, %s: memref<64x2xf32>) {
  %t = memref.alloc() : memref<64x200xbf16>
  linalg.transpose ins(%x : memref<200x64xbf16>) outs(%t : memref<64x200xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<64x200xbf16> -> memref<64x200xf8E4M3FN>, memref<64x2xf32>
  memref.dealloc %t : memref<64x200xbf16>
  return
}

// -----

// moe.quantize_with_transpose of x [256, 128] bf16: the staged schedule, a
// block of 256 threads per 128 x 128 tile (2 blocks) and the tile in
// workgroup memory. Step 1 (a thread loop): 8 loads of 16 bytes (8 rows 16
// apart), stored into the tile with the chunk index xor-swizzled by the
// row; then per row, read back from the tile, its amax over 16 lanes (xor
// 8, 4, 2, 1), the scale and 8 FP8 bytes of q. Step 2 (a second thread loop, after a barrier on
// the GPU): one column after the other, 32 reads from the tile, the
// column's amax over its 4 lanes (xor 2, 1), its scale and 2 x 16 FP8
// bytes of qt, which are
// there twice: by the scale's reciprocal and two FMA corrections (scales
// in [2^-60, 2^120]), else by the division; the rows' (q) divide.
// CHECK-LABEL: func.func @with_transpose(
// CHECK-SAME:    %[[X:[^:]+]]: memref<256x128xbf16>, %[[Q:[^:]+]]: memref<256x128xf8E4M3FN>, %[[S:[^:]+]]: memref<256x1xf32>, %[[QT:[^:]+]]: memref<128x256xf8E5M2>, %[[ST:[^:]+]]: memref<128x2xf32>)
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c2{{.*}})
// CHECK:         %[[TILE:.*]] = memref.alloca() {alignment = 16 : i64} : memref<128x128xi16, #gpu.address_space<workgroup>>
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256{{.*}})
// CHECK-COUNT-8:   vector.load %[[X]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<256x128xbf16>, vector<8xbf16>
// CHECK:           arith.xori
// CHECK:           vector.store %{{.*}}, %[[TILE]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x128xi16, #gpu.address_space<workgroup>>, vector<8xi16>
// CHECK-COUNT-7:   vector.store %{{.*}}, %[[TILE]]
// CHECK-NOT:       vector.load %[[X]]
// CHECK:           vector.load %[[TILE]]
// CHECK:           gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK:           memref.store %{{.*}}, %[[S]][%{{.*}}, %{{.*}}] : memref<256x1xf32>
// CHECK:           vector.store %{{.*}}, %[[Q]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<256x128xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK-COUNT-7:   vector.store %{{.*}}, %[[Q]]
// CHECK-NOT:       vector.store %{{.*}}, %[[QT]]
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256{{.*}})
// CHECK-COUNT-32:  memref.load %[[TILE]][%{{.*}}, %{{.*}}] : memref<128x128xi16, #gpu.address_space<workgroup>>
// CHECK-NOT:       vector.load
// CHECK:           gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK:           memref.store %{{.*}}, %[[ST]][%{{.*}}, %{{.*}}] : memref<128x2xf32>
// CHECK:           vector.store %{{.*}}, %[[QT]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x256xf8E5M2>, vector<16xf8E5M2>
// CHECK-COUNT-3:   vector.store %{{.*}}, %[[QT]]
// CHECK-COUNT-32:  memref.load %[[TILE]]
// CHECK:           gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK:           memref.store %{{.*}}, %[[ST]]
// CHECK-COUNT-4:   vector.store %{{.*}}, %[[QT]]
// CHECK-NOT:       vector.store
// CHECK:       return
func.func @with_transpose(%x: memref<256x128xbf16>, %q: memref<256x128xf8E4M3FN>, %s: memref<256x1xf32>, %qt: memref<128x256xf8E5M2>, %st: memref<128x2xf32>) {
  moe.quantize_with_transpose %x outs(%q, %s, %qt, %st) : memref<256x128xbf16> -> memref<256x128xf8E4M3FN>, memref<256x1xf32>, memref<128x256xf8E5M2>, memref<128x2xf32>
  return
}

// -----

// An f32 source (a 64 KB tile would not fit in static shared memory) keeps
// the warp-per-tile schedule: an scf.for over the tile's chunks of columns
// finishes their column blocks and carries each row's amax; a second one
// reloads the chunks for q.
// CHECK-LABEL: func.func @with_transpose_f32(
// CHECK-NOT:   memref.alloca
// CHECK:       scf.for %{{.*}} = %{{.*}} to %c128{{.*}} step %c8{{.*}} iter_args(
// CHECK:         gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK:       scf.for %{{.*}} = %{{.*}} to %c128{{.*}} step %c8
// CHECK:       return
func.func @with_transpose_f32(%x: memref<256x128xf32>, %q: memref<256x128xf8E4M3FN>, %s: memref<256x1xf32>, %qt: memref<128x256xf8E5M2>, %st: memref<128x2xf32>) {
  moe.quantize_with_transpose %x outs(%q, %s, %qt, %st) : memref<256x128xf32> -> memref<256x128xf8E4M3FN>, memref<256x1xf32>, memref<128x256xf8E5M2>, memref<128x2xf32>
  return
}

// -----

// block_1x128 of a transposed copy of whole 16-bit tiles (x [256, 128]
// f16): the staged schedule without a rowwise output: step 1 only stages
// the rows (no shuffle), step 2 quantizes the columns.
// CHECK-LABEL: func.func @transposed_staged(
// CHECK-SAME:    %[[X:[^:]+]]: memref<256x128xf16>, %[[Q:[^:]+]]: memref<128x256xf8E4M3FN>, %[[S:[^:]+]]: memref<128x2xf32>)
// CHECK-NOT:   linalg.transpose
// CHECK:       %[[TILE:.*]] = memref.alloca() {{.*}} : memref<128x128xi16, #gpu.address_space<workgroup>>
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256{{.*}})
// CHECK-COUNT-8: vector.load %[[X]]{{.*}} : memref<256x128xf16>, vector<8xf16>
// CHECK-COUNT-8: vector.store %{{.*}}, %[[TILE]]
// CHECK-NOT:     gpu.shuffle
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256{{.*}})
// CHECK:         gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK:         vector.store %{{.*}}, %[[Q]]{{.*}} : memref<128x256xf8E4M3FN>, vector<16xf8E4M3FN>
// CHECK-NOT:   linalg.transpose
// CHECK:       return
func.func @transposed_staged(%x: memref<256x128xf16>, %q: memref<128x256xf8E4M3FN>, %s: memref<128x2xf32>) {
  %t = memref.alloc() : memref<128x256xf16>
  linalg.transpose ins(%x : memref<256x128xf16>) outs(%t : memref<128x256xf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<128x256xf16> -> memref<128x256xf8E4M3FN>, memref<128x2xf32>
  memref.dealloc %t : memref<128x256xf16>
  return
}

// -----

// The dequantized-transposed chain on whole tiles: step 1 reads 8 FP8 bytes
// and the row's scale, dequantizes, rounds to the bf16 copy's type and
// stages those bits; step 2 as above.
// CHECK-LABEL: func.func @dequantized_transposed_staged(
// CHECK-SAME:    %[[R:[^:]+]]: memref<256x128xf8E4M3FN>, %[[RS:[^:]+]]: memref<256x1xf32>, %[[Q:[^:]+]]: memref<128x256xf8E5M2>, %[[S:[^:]+]]: memref<128x2xf32>)
// CHECK-NOT:   memref.alloc(
// CHECK-NOT:   moe.dequantize
// CHECK:       %[[TILE:.*]] = memref.alloca() {{.*}} : memref<128x128xi16, #gpu.address_space<workgroup>>
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256{{.*}})
// CHECK:         memref.load %[[RS]][%{{.*}}, %{{.*}}] : memref<256x1xf32>
// CHECK-NEXT:    vector.load %[[R]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<256x128xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK:         arith.mulf
// CHECK:         vector.from_elements {{.*}} : vector<8xi16>
// CHECK:         vector.store %{{.*}}, %[[TILE]]
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256{{.*}})
// CHECK:         vector.store %{{.*}}, %[[Q]]{{.*}} : memref<128x256xf8E5M2>, vector<16xf8E5M2>
// CHECK-NOT:   linalg.transpose
// CHECK:       return
func.func @dequantized_transposed_staged(%r: memref<256x128xf8E4M3FN>, %rs: memref<256x1xf32>, %q: memref<128x256xf8E5M2>, %s: memref<128x2xf32>) {
  %d = memref.alloc() : memref<256x128xbf16>
  moe.dequantize block_1x128 %r, %rs outs(%d) : memref<256x128xf8E4M3FN>, memref<256x1xf32> -> memref<256x128xbf16>
  %t = memref.alloc() : memref<128x256xbf16>
  linalg.transpose ins(%d : memref<256x128xbf16>) outs(%t : memref<128x256xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<128x256xbf16> -> memref<128x256xf8E5M2>, memref<128x2xf32>
  memref.dealloc %t : memref<128x256xbf16>
  memref.dealloc %d : memref<256x128xbf16>
  return
}

// -----

// 200 rows: no whole tiles, so the reference loops in one thread.
// CHECK-LABEL: func.func @with_transpose_partial(
// CHECK:       gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%{{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK-NOT:   gpu.shuffle
// CHECK:       return
func.func @with_transpose_partial(%x: memref<200x128xbf16>, %q: memref<200x128xf8E4M3FN>, %s: memref<200x1xf32>, %qt: memref<128x200xf8E5M2>, %st: memref<128x2xf32>) {
  moe.quantize_with_transpose %x outs(%q, %s, %qt, %st) : memref<200x128xbf16> -> memref<200x128xf8E4M3FN>, memref<200x1xf32>, memref<128x200xf8E5M2>, memref<128x2xf32>
  return
}

// -----

// The columnwise wgrad operand from an FP8 residual (moe-fp8-placement's
// blockwise backward): moe.dequantize block_1x128 → linalg.transpose →
// moe.quantize block_1x128, the two copies used by nothing else. The
// transposed schedule reads the FP8 rows (8 bytes: the 8 bf16 columns of a
// lane) and each row's scale, dequantizes and rounds to bf16 as the copy
// would have held it; the dequantize, the transpose and both copies go.
// CHECK-LABEL: func.func @dequantized_transposed(
// CHECK-SAME:    %[[R:[^:]+]]: memref<256x64xf8E4M3FN>, %[[RS:[^:]+]]: memref<256x1xf32>, %[[Q:[^:]+]]: memref<64x256xf8E5M2>, %[[S:[^:]+]]: memref<64x2xf32>)
// CHECK-NOT:   memref.alloc
// CHECK-NOT:   moe.dequantize
// CHECK:       scf.parallel
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256{{.*}})
// CHECK:           memref.load %[[RS]][%{{.*}}, %{{.*}}] : memref<256x1xf32>
// CHECK-NEXT:      vector.load %[[R]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<256x64xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK:           arith.mulf
// CHECK:           arith.bitcast %{{.*}} : i16 to bf16
// CHECK-COUNT-15:  vector.load %[[R]]
// CHECK:           gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK:           gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK:           memref.store %{{.*}}, %[[S]][%{{.*}}, %{{.*}}] : memref<64x2xf32>
// CHECK:           vector.store %{{.*}}, %[[Q]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x256xf8E5M2>, vector<16xf8E5M2>
// CHECK-NOT:   linalg.transpose
// CHECK-NOT:   memref.dealloc
// CHECK:       return
func.func @dequantized_transposed(%r: memref<256x64xf8E4M3FN>, %rs: memref<256x1xf32>, %q: memref<64x256xf8E5M2>, %s: memref<64x2xf32>) {
  %d = memref.alloc() : memref<256x64xbf16>
  moe.dequantize block_1x128 %r, %rs outs(%d) : memref<256x64xf8E4M3FN>, memref<256x1xf32> -> memref<256x64xbf16>
  %t = memref.alloc() : memref<64x256xbf16>
  linalg.transpose ins(%d : memref<256x64xbf16>) outs(%t : memref<64x256xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E5M2>, memref<64x2xf32>
  memref.dealloc %t : memref<64x256xbf16>
  memref.dealloc %d : memref<256x64xbf16>
  return
}

// -----

// The dequantized copy has another reader: the dequantize keeps its own
// kernel, and the transposed schedule reads the bf16 copy.
// CHECK-LABEL: func.func @dequantized_copy_read_again(
// CHECK:       memref.alloc() : memref<256x64xbf16>
// CHECK:       vector.load %{{.*}} : memref<256x64xbf16>, vector<8xbf16>
// CHECK-NOT:   linalg.transpose
// CHECK:       memref.copy
func.func @dequantized_copy_read_again(%r: memref<256x64xf8E4M3FN>, %rs: memref<256x1xf32>, %q: memref<64x256xf8E5M2>, %s: memref<64x2xf32>, %d2: memref<256x64xbf16>) {
  %d = memref.alloc() : memref<256x64xbf16>
  moe.dequantize block_1x128 %r, %rs outs(%d) : memref<256x64xf8E4M3FN>, memref<256x1xf32> -> memref<256x64xbf16>
  %t = memref.alloc() : memref<64x256xbf16>
  linalg.transpose ins(%d : memref<256x64xbf16>) outs(%t : memref<64x256xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E5M2>, memref<64x2xf32>
  memref.copy %d, %d2 : memref<256x64xbf16> to memref<256x64xbf16>
  memref.dealloc %t : memref<64x256xbf16>
  memref.dealloc %d : memref<256x64xbf16>
  return
}

// -----

// The FP8 rows are written again between the dequantize and the quantize:
// reading them at the quantize would see the new values, so the chain is
// not fused (the dequantize keeps its kernel, in front of the write).
// CHECK-LABEL: func.func @fp8_rows_rewritten(
// CHECK:       memref.alloc() : memref<256x64xbf16>
// CHECK:       memref.copy
// CHECK:       vector.load %{{.*}} : memref<256x64xbf16>, vector<8xbf16>
func.func @fp8_rows_rewritten(%r: memref<256x64xf8E4M3FN>, %rs: memref<256x1xf32>, %q: memref<64x256xf8E5M2>, %s: memref<64x2xf32>, %r2: memref<256x64xf8E4M3FN>) {
  %d = memref.alloc() : memref<256x64xbf16>
  moe.dequantize block_1x128 %r, %rs outs(%d) : memref<256x64xf8E4M3FN>, memref<256x1xf32> -> memref<256x64xbf16>
  memref.copy %r2, %r : memref<256x64xf8E4M3FN> to memref<256x64xf8E4M3FN>
  %t = memref.alloc() : memref<64x256xbf16>
  linalg.transpose ins(%d : memref<256x64xbf16>) outs(%t : memref<64x256xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E5M2>, memref<64x2xf32>
  memref.dealloc %t : memref<64x256xbf16>
  memref.dealloc %d : memref<256x64xbf16>
  return
}

// -----

// The dequantized copy is a buffer from outside (here an argument: what an
// entry's result becomes with out-params), read after the function returns:
// the dequantize must write it, so the chain is not fused.
// CHECK-LABEL: func.func @dequantized_copy_from_outside(
// CHECK-SAME:    %{{[^:]+}}: memref<256x64xf8E4M3FN>, %{{[^:]+}}: memref<256x1xf32>, %{{[^:]+}}: memref<64x256xf8E5M2>, %{{[^:]+}}: memref<64x2xf32>, %[[D:[^:]+]]: memref<256x64xbf16>)
// CHECK:       vector.store %{{.*}}, %[[D]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<256x64xbf16>, vector<8xbf16>
// CHECK:       vector.load %[[D]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<256x64xbf16>, vector<8xbf16>
func.func @dequantized_copy_from_outside(%r: memref<256x64xf8E4M3FN>, %rs: memref<256x1xf32>, %q: memref<64x256xf8E5M2>, %s: memref<64x2xf32>, %d: memref<256x64xbf16>) {
  moe.dequantize block_1x128 %r, %rs outs(%d) : memref<256x64xf8E4M3FN>, memref<256x1xf32> -> memref<256x64xbf16>
  %t = memref.alloc() : memref<64x256xbf16>
  linalg.transpose ins(%d : memref<256x64xbf16>) outs(%t : memref<64x256xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E5M2>, memref<64x2xf32>
  memref.dealloc %t : memref<64x256xbf16>
  return
}

// -----

// A view of the FP8 rows, made before the dequantize, is written between
// the dequantize and the quantize: the chain is not fused (the dequantize
// keeps its kernel and reads the rows before the write).
// CHECK-LABEL: func.func @fp8_rows_written_through_a_view(
// CHECK:       memref.alloc() : memref<256x64xbf16>
// CHECK:       memref.copy
// CHECK:       vector.load %{{.*}} : memref<256x64xbf16>, vector<8xbf16>
func.func @fp8_rows_written_through_a_view(%r: memref<256x64xf8E4M3FN>, %rs: memref<256x1xf32>, %q: memref<64x256xf8E5M2>, %s: memref<64x2xf32>, %r2: memref<256x64xf8E4M3FN>) {
  %v = memref.cast %r : memref<256x64xf8E4M3FN> to memref<?x64xf8E4M3FN>
  %d = memref.alloc() : memref<256x64xbf16>
  moe.dequantize block_1x128 %r, %rs outs(%d) : memref<256x64xf8E4M3FN>, memref<256x1xf32> -> memref<256x64xbf16>
  %c = memref.cast %r2 : memref<256x64xf8E4M3FN> to memref<?x64xf8E4M3FN>
  memref.copy %c, %v : memref<?x64xf8E4M3FN> to memref<?x64xf8E4M3FN>
  %t = memref.alloc() : memref<64x256xbf16>
  linalg.transpose ins(%d : memref<256x64xbf16>) outs(%t : memref<64x256xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E5M2>, memref<64x2xf32>
  memref.dealloc %t : memref<64x256xbf16>
  memref.dealloc %d : memref<256x64xbf16>
  return
}

// -----

// A pointer of the FP8 rows is taken before the dequantize (it could be
// written through later): not fused.
// CHECK-LABEL: func.func @fp8_rows_pointer_taken(
// CHECK:       memref.alloc() : memref<256x64xbf16>
// CHECK:       vector.load %{{.*}} : memref<256x64xbf16>, vector<8xbf16>
func.func @fp8_rows_pointer_taken(%r: memref<256x64xf8E4M3FN>, %rs: memref<256x1xf32>, %q: memref<64x256xf8E5M2>, %s: memref<64x2xf32>) -> index {
  %p = memref.extract_aligned_pointer_as_index %r : memref<256x64xf8E4M3FN> -> index
  %d = memref.alloc() : memref<256x64xbf16>
  moe.dequantize block_1x128 %r, %rs outs(%d) : memref<256x64xf8E4M3FN>, memref<256x1xf32> -> memref<256x64xbf16>
  %t = memref.alloc() : memref<64x256xbf16>
  linalg.transpose ins(%d : memref<256x64xbf16>) outs(%t : memref<64x256xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E5M2>, memref<64x2xf32>
  memref.dealloc %t : memref<64x256xbf16>
  memref.dealloc %d : memref<256x64xbf16>
  return %p : index
}

// -----

// The FP8 rows written before the dequantize (by a quantize into them): the
// write happens first either way, so the chain is fused.
// CHECK-LABEL: func.func @fp8_rows_written_before(
// CHECK-NOT:   moe.dequantize
// CHECK:       vector.load %{{.*}} {alignment = 8 : i64} : memref<256x64xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK-NOT:   memref<256x64xbf16>, vector<8xbf16>
// CHECK:       return
func.func @fp8_rows_written_before(%x: memref<256x64xbf16>, %q: memref<64x256xf8E5M2>, %s: memref<64x2xf32>) {
  %r = memref.alloc() : memref<256x64xf8E4M3FN>
  %rs = memref.alloc() : memref<256x1xf32>
  moe.quantize block_1x128 %x outs(%r, %rs) : memref<256x64xbf16> -> memref<256x64xf8E4M3FN>, memref<256x1xf32>
  %d = memref.alloc() : memref<256x64xbf16>
  moe.dequantize block_1x128 %r, %rs outs(%d) : memref<256x64xf8E4M3FN>, memref<256x1xf32> -> memref<256x64xbf16>
  %t = memref.alloc() : memref<64x256xbf16>
  linalg.transpose ins(%d : memref<256x64xbf16>) outs(%t : memref<64x256xbf16>) permutation = [1, 0]
  moe.quantize block_1x128 %t outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E5M2>, memref<64x2xf32>
  memref.dealloc %t : memref<64x256xbf16>
  memref.dealloc %d : memref<256x64xbf16>
  memref.dealloc %r : memref<256x64xf8E4M3FN>
  memref.dealloc %rs : memref<256x1xf32>
  return
}
