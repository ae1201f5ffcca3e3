// RUN: moe-opt %s -split-input-file --gpu-launch-top-level-loops --canonicalize | FileCheck %s
// RUN: moe-opt %s -split-input-file --gpu-launch-top-level-loops=block-size=128 --canonicalize | FileCheck %s --check-prefix=B128

// Block-per-row loop nests (an scf.parallel mapped to block_x holding one
// mapped to thread_x, as convert-moe-to-parallel-loops writes them for
// permute, combine and glu): a block per row, a thread per vector of the
// row.

// 16384 rows of 2048 bf16 in vectors of 8: 16384 blocks of 256 threads, a
// thread's vector starts at column 8·tid (every thread has one: no guard).
// CHECK-LABEL: func.func @rows_2048(
// CHECK-SAME:    %[[SRC:[^:]+]]: memref<16384x2048xbf16>, %[[DST:[^:]+]]: memref<16384x2048xbf16>)
// CHECK-DAG:   %[[C16384:.*]] = arith.constant 16384 : index
// CHECK-DAG:   %[[C256:.*]] = arith.constant 256 : index
// CHECK:       gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C16384]], %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NEXT:    %[[COL:.*]] = arith.muli %[[TX]], %c8 : index
// CHECK-NEXT:    %[[V:.*]] = vector.load %[[SRC]][%[[BX]], %[[COL]]] {alignment = 16 : i64} : memref<16384x2048xbf16>, vector<8xbf16>
// CHECK-NEXT:    vector.store %[[V]], %[[DST]][%[[BX]], %[[COL]]] {alignment = 16 : i64} : memref<16384x2048xbf16>, vector<8xbf16>
// CHECK-NEXT:    gpu.terminator
#blocks = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#threads = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @rows_2048(%src: memref<16384x2048xbf16>, %dst: memref<16384x2048xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %rows = arith.constant 16384 : index
  %cols = arith.constant 2048 : index
  scf.parallel (%r) = (%c0) to (%rows) step (%c1) {
    scf.parallel (%c) = (%c0) to (%cols) step (%c8) {
      %v = vector.load %src[%r, %c] {alignment = 16 : i64} : memref<16384x2048xbf16>, vector<8xbf16>
      vector.store %v, %dst[%r, %c] {alignment = 16 : i64} : memref<16384x2048xbf16>, vector<8xbf16>
      scf.reduce
    } {mapping = [#threads]}
    scf.reduce
  } {mapping = [#blocks]}
  return
}

// -----

// 7168 columns: 896 vectors of 8, 896 threads (28 warps); 20 columns in
// vectors of 4: 5 vectors, one warp with threads 5..31 guarded off. Ops of
// the row loop before the thread loop run in every thread.
// CHECK-LABEL: func.func @rows_7168_and_20(
// CHECK:       %[[C896:.*]] = arith.constant 896 : index
// CHECK:       gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %[[C896]], %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NOT:     scf.if
// CHECK:         vector.store
// CHECK:       gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NEXT:    %[[TOKEN:.*]] = memref.load %{{.*}}[%[[BX]]] : memref<4xi32>
// CHECK-NEXT:    %[[COL:.*]] = arith.muli %[[TX]], %c4 : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi slt, %[[COL]], %c20 : index
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK:           vector.store %{{.*}}, %{{.*}}[%[[BX]], %[[COL]]] {alignment = 16 : i64} : memref<4x20xf32>, vector<4xf32>
#blocks = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#threads = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @rows_7168_and_20(%a: memref<4x7168xbf16>, %b: memref<4x20xf32>, %tokens: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c20 = arith.constant 20 : index
  %c7168 = arith.constant 7168 : index
  %zero = arith.constant dense<0.0> : vector<8xbf16>
  %zero4 = arith.constant dense<0.0> : vector<4xf32>
  scf.parallel (%r) = (%c0) to (%c4) step (%c1) {
    scf.parallel (%c) = (%c0) to (%c7168) step (%c8) {
      vector.store %zero, %a[%r, %c] {alignment = 16 : i64} : memref<4x7168xbf16>, vector<8xbf16>
      scf.reduce
    } {mapping = [#threads]}
    scf.reduce
  } {mapping = [#blocks]}
  scf.parallel (%r) = (%c0) to (%c4) step (%c1) {
    %t = memref.load %tokens[%r] : memref<4xi32>
    scf.parallel (%c) = (%c0) to (%c20) step (%c4) {
      %f = arith.sitofp %t : i32 to f32
      %v = vector.broadcast %f : f32 to vector<4xf32>
      vector.store %v, %b[%r, %c] {alignment = 16 : i64} : memref<4x20xf32>, vector<4xf32>
      scf.reduce
    } {mapping = [#threads]}
    scf.reduce
  } {mapping = [#blocks]}
  return
}

// -----

// 16384 columns in vectors of 8 = 2048 vectors, more than a block holds:
// block-size threads stride over them (128 with block-size=128).
// CHECK-LABEL: func.func @rows_long(
// CHECK:       gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NEXT:    %[[FIRST:.*]] = arith.muli %[[TX]], %c8 : index
// CHECK-NEXT:    scf.for %[[COL:.*]] = %[[FIRST]] to %c16384 step %c2048 {
// CHECK-NEXT:      vector.store %{{.*}}, %{{.*}}[%[[BX]], %[[COL]]]
// B128-LABEL: func.func @rows_long(
// B128:       gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128, %{{.*}} = %c1, %{{.*}} = %c1)
// B128:         scf.for %{{.*}} = %{{.*}} to %c16384 step %c1024 {
#blocks = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#threads = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @rows_long(%a: memref<2x16384xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %cols = arith.constant 16384 : index
  %zero = arith.constant dense<0.0> : vector<8xbf16>
  scf.parallel (%r) = (%c0) to (%c2) step (%c1) {
    scf.parallel (%c) = (%c0) to (%cols) step (%c8) {
      vector.store %zero, %a[%r, %c] {alignment = 16 : i64} : memref<2x16384xbf16>, vector<8xbf16>
      scf.reduce
    } {mapping = [#threads]}
    scf.reduce
  } {mapping = [#blocks]}
  return
}

// -----

// Two thread loops in a row body are phases (convert-linalg-transpose-to-
// tiles' tiles): a barrier between them, as the CPU runs them one after the
// other; the row body's workgroup alloca is the block's shared memory (a
// workgroup attribution), not a buffer per thread. 64 and 256 iterations:
// 256 threads, the first phase guarded to threads < 64.
// CHECK-LABEL: func.func @phases(
// CHECK-SAME:    %[[SRC:[^:]+]]: memref<4x256xf32>, %[[DST:[^:]+]]: memref<4x256xf32>)
// CHECK:       gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-SAME:    workgroup(%[[SMEM:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT:     memref.alloca
// CHECK:         %[[FIRST:.*]] = arith.muli %[[TX]], %c4 : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi slt, %[[FIRST]], %c256 : index
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[V:.*]] = vector.load %[[SRC]][%[[BX]], %[[FIRST]]]
// CHECK-NEXT:      vector.store %[[V]], %[[SMEM]][%[[FIRST]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    %[[REV:.*]] = arith.subi %c255, %[[TX]] : index
// CHECK-NEXT:    %[[E:.*]] = memref.load %[[SMEM]][%[[REV]]]
// CHECK-NEXT:    memref.store %[[E]], %[[DST]][%[[BX]], %[[TX]]]
// CHECK-NEXT:    gpu.terminator
#blocks = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#threads = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @phases(%src: memref<4x256xf32>, %dst: memref<4x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c255 = arith.constant 255 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%r) = (%c0) to (%c4) step (%c1) {
    %smem = memref.alloca() : memref<256xf32, #gpu.address_space<workgroup>>
    scf.parallel (%c) = (%c0) to (%c256) step (%c4) {
      %v = vector.load %src[%r, %c] : memref<4x256xf32>, vector<4xf32>
      vector.store %v, %smem[%c] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      scf.reduce
    } {mapping = [#threads]}
    scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
      %rev = arith.subi %c255, %t : index
      %e = memref.load %smem[%rev] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %e, %dst[%r, %t] : memref<4x256xf32>
      scf.reduce
    } {mapping = [#threads]}
    scf.reduce
  } {mapping = [#blocks]}
  return
}
