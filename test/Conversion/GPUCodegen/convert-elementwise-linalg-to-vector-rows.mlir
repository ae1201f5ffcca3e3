// RUN: moe-opt %s -split-input-file --convert-elementwise-linalg-to-vector-rows | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-elementwise-linalg-to-vector-rows=access-bytes=8 | FileCheck %s --check-prefix=B8
// RUN: moe-opt %s -split-input-file --convert-elementwise-linalg-to-vector-rows --gpu-launch-top-level-loops --canonicalize | FileCheck %s --check-prefix=LAUNCH

// convert-elementwise-linalg-to-vector-rows: elementwise linalg ops on
// buffers read and write 16 bytes of their narrowest element type per
// vector.load / vector.store and run their body once per lane; rows of at
// least 64 chunks get a block each (the block_x / thread_x mapping that
// gpu-launch-top-level-loops launches), shorter rows one thread per chunk.

#id = affine_map<(d0, d1) -> (d0, d1)>

// The sum of two bf16 dgrad products: rows of 2048 bf16 = 256 chunks of 8,
// a block per row; the body (a bf16 addf) once per lane.
// CHECK-LABEL: func.func @sum_bf16(
// CHECK-SAME:    %[[A:[^:]+]]: memref<16x2048xbf16>, %[[B:[^:]+]]: memref<16x2048xbf16>, %[[OUT:[^:]+]]: memref<16x2048xbf16>)
// CHECK-NOT:   linalg.generic
// CHECK:       scf.parallel (%[[ROW:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         scf.parallel (%[[COL:.*]]) = (%{{.*}}) to (%{{.*}}) step (%[[C8]]) {
// CHECK-NEXT:      %[[VA:.*]] = vector.load %[[A]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<16x2048xbf16>, vector<8xbf16>
// CHECK-NEXT:      %[[BA:.*]] = vector.bitcast %[[VA]] : vector<8xbf16> to vector<8xi16>
// CHECK-NEXT:      %[[A0I:.*]] = vector.extract %[[BA]][0] : i16 from vector<8xi16>
// CHECK-NEXT:      %[[A0:.*]] = arith.bitcast %[[A0I]] : i16 to bf16
// CHECK:           %[[A7I:.*]] = vector.extract %[[BA]][7] : i16 from vector<8xi16>
// CHECK:           %[[VB:.*]] = vector.load %[[B]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<16x2048xbf16>, vector<8xbf16>
// CHECK:           %[[B0I:.*]] = vector.extract %{{.*}}[0] : i16 from vector<8xi16>
// CHECK-NEXT:      %[[B0:.*]] = arith.bitcast %[[B0I]] : i16 to bf16
// CHECK:           %[[S0:.*]] = arith.addf %[[A0]], %[[B0]] : bf16
// CHECK-COUNT-7:   arith.addf %{{.*}}, %{{.*}} : bf16
// CHECK:           %[[S0I:.*]] = arith.bitcast %[[S0]] : bf16 to i16
// CHECK:           %[[PACK:.*]] = vector.from_elements %[[S0I]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi16>
// CHECK-NEXT:      %[[V:.*]] = vector.bitcast %[[PACK]] : vector<8xi16> to vector<8xbf16>
// CHECK-NEXT:      vector.store %[[V]], %[[OUT]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<16x2048xbf16>, vector<8xbf16>
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT:    scf.reduce
// CHECK-NEXT:  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// 8-byte accesses: chunks of 4 bf16.
// B8-LABEL:    func.func @sum_bf16(
// B8:          vector.load %{{.*}} {alignment = 8 : i64} : memref<16x2048xbf16>, vector<4xbf16>
// B8-COUNT-4:  arith.addf %{{.*}}, %{{.*}} : bf16
// B8-NOT:      arith.addf
// B8:          vector.store %{{.*}} {alignment = 8 : i64} : memref<16x2048xbf16>, vector<4xbf16>
// A block of 256 threads per row, 16 blocks; thread t's chunk starts at 8·t.
// LAUNCH-LABEL: func.func @sum_bf16(
// LAUNCH:       gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// LAUNCH-NEXT:    %[[COL:.*]] = arith.muli %[[TX]], %c8 : index
// LAUNCH-NEXT:    vector.load %{{.*}}[%[[BX]], %[[COL]]] {alignment = 16 : i64} : memref<16x2048xbf16>, vector<8xbf16>
func.func @sum_bf16(%a: memref<16x2048xbf16>, %b: memref<16x2048xbf16>, %out: memref<16x2048xbf16>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<16x2048xbf16>, memref<16x2048xbf16>) outs(%out : memref<16x2048xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %s = arith.addf %x, %y : bf16
    linalg.yield %s : bf16
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

// bf16 widened to f32 (to_f32), times a per-row scale, plus a per-column
// bias and the column index. Chunks of 8 (the bf16 input's 16 bytes; the f32
// buffers move 32 bytes each, aligned to 16); rows of 5 chunks: one
// scf.parallel over (row, chunk), one thread per chunk. The scale is read
// once per chunk; linalg.index 1 is the chunk's column plus the lane.
// CHECK-LABEL: func.func @widen_broadcast(
// CHECK-SAME:    %[[X:[^:]+]]: memref<7x40xbf16>, %[[SCALE:[^:]+]]: memref<7xf32>, %[[BIAS:[^:]+]]: memref<40xf32>, %[[OUT:[^:]+]]: memref<7x40xf32>)
// CHECK:       %[[C8:.*]] = arith.constant 8 : index
// CHECK:       scf.parallel (%[[ROW:.*]], %[[COL:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %[[C8]]) {
// CHECK-NEXT:    vector.load %[[X]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<7x40xbf16>, vector<8xbf16>
// CHECK:         %[[S:.*]] = memref.load %[[SCALE]][%[[ROW]]] : memref<7xf32>
// CHECK-NEXT:    vector.load %[[BIAS]][%[[COL]]] {alignment = 16 : i64} : memref<40xf32>, vector<8xf32>
// CHECK:         %[[J0:.*]] = arith.index_cast %[[COL]] : index to i32
// CHECK:         arith.mulf %{{.*}}, %[[S]] : f32
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[J1:.*]] = arith.addi %[[COL]], %[[C1]] : index
// CHECK-NEXT:    arith.index_cast %[[J1]] : index to i32
// CHECK:         vector.store %{{.*}}, %[[OUT]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<7x40xf32>, vector<8xf32>
// CHECK-NEXT:    scf.reduce
// CHECK-NEXT:  }
// CHECK-NOT:   mapping
// CHECK:       return
func.func @widen_broadcast(%x: memref<7x40xbf16>, %scale: memref<7xf32>, %bias: memref<40xf32>, %out: memref<7x40xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %scale, %bias : memref<7x40xbf16>, memref<7xf32>, memref<40xf32>) outs(%out : memref<7x40xf32>) {
  ^bb0(%v16: bf16, %s: f32, %b: f32, %o: f32):
    %v = arith.extf %v16 : bf16 to f32
    %j = linalg.index 1 : index
    %j32 = arith.index_cast %j : index to i32
    %jf = arith.sitofp %j32 : i32 to f32
    %m = arith.mulf %v, %s : f32
    %a = arith.addf %m, %b : f32
    %t = arith.addf %a, %jf : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// Rank 3, f32 rows of 256 (64 chunks of 4): a block per (i, j) row, the row
// index delinearized (i = row / 3, j = row mod 3); the rank-0 factor read
// once per chunk, %w (indexed (i, k)) read along k.
// CHECK-LABEL: func.func @rank3(
// CHECK-SAME:    %[[A:[^:]+]]: memref<2x3x256xf32>, %[[C:[^:]+]]: memref<f32>, %[[W:[^:]+]]: memref<2x256xf32>, %[[OUT:[^:]+]]: memref<2x3x256xf32>)
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK:       %[[ROWS:.*]] = arith.constant 6 : index
// CHECK:       scf.parallel (%[[ROW:.*]]) = (%{{.*}}) to (%[[ROWS]]) step (%{{.*}}) {
// CHECK:         scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT:      %[[J:.*]] = arith.remui %[[ROW]], %[[C3]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.divui %[[ROW]], %[[C3]] : index
// CHECK-NEXT:      vector.load %[[A]][%[[I]], %[[J]], %[[K]]] {alignment = 16 : i64} : memref<2x3x256xf32>, vector<4xf32>
// CHECK:           memref.load %[[C]][] : memref<f32>
// CHECK-NEXT:      vector.load %[[W]][%[[I]], %[[K]]] {alignment = 16 : i64} : memref<2x256xf32>, vector<4xf32>
// CHECK:           vector.store %{{.*}}, %[[OUT]][%[[I]], %[[J]], %[[K]]] {alignment = 16 : i64} : memref<2x3x256xf32>, vector<4xf32>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
func.func @rank3(%a: memref<2x3x256xf32>, %c: memref<f32>, %w: memref<2x256xf32>, %out: memref<2x3x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>,
                                   affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %c, %w : memref<2x3x256xf32>, memref<f32>, memref<2x256xf32>) outs(%out : memref<2x3x256xf32>) {
  ^bb0(%x: f32, %s: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %s : f32
    %t = arith.addf %m, %y : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// linalg.fill: the value is used as it is; chunks of 4 f32, one thread each.
// CHECK-LABEL: func.func @fill(
// CHECK-SAME:    %[[OUT:[^:]+]]: memref<64x8xf32>)
// CHECK:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       scf.parallel (%[[ROW:.*]], %[[COL:.*]]) =
// CHECK-NEXT:    %[[Z:.*]] = arith.bitcast %[[ZERO]] : f32 to i32
// CHECK:         vector.from_elements %[[Z]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:         vector.store %{{.*}}, %[[OUT]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<64x8xf32>, vector<4xf32>
func.func @fill(%out: memref<64x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<64x8xf32>)
  return
}

// -----

// What keeps one thread per element (convert-linalg-to-parallel-loops'):
// rows no chunk width divides, a transposed read, a reduction, a strided
// layout, i1 elements.
// CHECK-LABEL: func.func @odd_columns(
// CHECK-NOT:   vector.load
// CHECK:       linalg.generic
func.func @odd_columns(%a: memref<3x5xf32>, %out: memref<3x5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<3x5xf32>) outs(%out : memref<3x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.mulf %x, %x : f32
    linalg.yield %t : f32
  }
  return
}

// CHECK-LABEL: func.func @transposed_read(
// CHECK-NOT:   vector.load
// CHECK:       linalg.generic
func.func @transposed_read(%a: memref<64x64xf32>, %out: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// CHECK-LABEL: func.func @row_sum(
// CHECK-NOT:   vector.load
// CHECK:       linalg.generic
func.func @row_sum(%a: memref<64x64xf32>, %out: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x64xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @strided(
// CHECK-NOT:   vector.load
// CHECK:       linalg.generic
func.func @strided(%a: memref<64x64xf32, strided<[128, 1]>>, %out: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x64xf32, strided<[128, 1]>>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// CHECK-LABEL: func.func @mask(
// CHECK-NOT:   vector.load
// CHECK:       linalg.generic
func.func @mask(%a: memref<64x64xf32>, %out: memref<64x64xi1>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x64xf32>) outs(%out : memref<64x64xi1>) {
  ^bb0(%x: f32, %o: i1):
    %p = arith.cmpf ogt, %x, %zero : f32
    linalg.yield %p : i1
  }
  return
}
