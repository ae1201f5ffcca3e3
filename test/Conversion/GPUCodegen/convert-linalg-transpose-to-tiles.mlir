// RUN: moe-opt %s -split-input-file --convert-linalg-transpose-to-tiles --canonicalize --cse | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-linalg-transpose-to-tiles=hoist-tiles --canonicalize --cse | FileCheck %s --check-prefix=HOIST

// [128, 192] bf16 -> [192, 128]: 64 x 64 tiles (2 · 3 = 6 blocks of 256
// threads), every tile whole: no clamps, no masks. Phase 1: two 16-byte
// loads a thread (tile rows t / 8 and t / 8 + 32, chunk t mod 8), stored as
// i16 bits into the workgroup tile at chunk (t mod 8) xor ((row / 8) mod 8).
// Phase 2: tile column j = t / 8 (+ 32) of the 8 rows of chunk group
// c = t mod 8, at chunk (j / 8) xor c, gathered into one 16-byte store of
// output row b0 + j.
// CHECK-LABEL: func.func @bf16_exact(
// CHECK-SAME:    %[[X:.*]]: memref<128x192xbf16>, %[[Y:.*]]: memref<192x128xbf16>)
// CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:   %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:   %[[C256:.*]] = arith.constant 256 : index
// CHECK:       scf.parallel (%[[TILE:.*]]) = (%{{.*}}) to (%[[C6]]) step
// CHECK-NEXT:    %[[TB:.*]] = arith.remui %[[TILE]], %[[C3]] : index
// CHECK-NEXT:    %[[REST:.*]] = arith.divui %[[TILE]], %[[C3]] : index
// CHECK-NEXT:    %[[TA:.*]] = arith.remui %[[REST]], %{{.*}} : index
// CHECK-NEXT:    %[[A0:.*]] = arith.muli %[[TA]], %[[C64]] : index
// CHECK-NEXT:    %[[B0:.*]] = arith.muli %[[TB]], %[[C64]] : index
// CHECK-NEXT:    %[[SMEM:.*]] = memref.alloca() {alignment = 16 : i64} : memref<64x64xi16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[C256]]) step
// CHECK-NOT:       arith.minui
// CHECK-NOT:       scf.if
// CHECK-NEXT:      %[[C:.*]] = arith.remui %[[T]], %[[C8]] : index
// CHECK-NEXT:      %[[R:.*]] = arith.divui %[[T]], %[[C8]] : index
// CHECK-NEXT:      %[[COL0:.*]] = arith.muli %[[C]], %[[C8]] : index
// CHECK-NEXT:      %[[COL:.*]] = arith.addi %[[B0]], %[[COL0]] : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.addi %[[A0]], %[[R]] : index
// CHECK-NEXT:      %[[V:.*]] = vector.load %[[X]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<128x192xbf16>, vector<8xbf16>
// CHECK-NEXT:      %[[BITS:.*]] = vector.bitcast %[[V]] : vector<8xbf16> to vector<8xi16>
// CHECK:           vector.load %[[X]]{{.*}} : memref<128x192xbf16>, vector<8xbf16>
// CHECK:           %[[GROUP0:.*]] = arith.divui %[[R]], %[[C8]] : index
// CHECK-NEXT:      %[[GROUP:.*]] = arith.remui %[[GROUP0]], %[[C8]] : index
// CHECK-NEXT:      %[[PHYS:.*]] = arith.xori %[[C]], %[[GROUP]] : index
// CHECK-NEXT:      %[[PCOL:.*]] = arith.muli %[[PHYS]], %[[C8]] : index
// CHECK-NEXT:      vector.store %[[BITS]], %[[SMEM]][%[[R]], %[[PCOL]]] {alignment = 16 : i64} : memref<64x64xi16, #gpu.address_space<workgroup>>, vector<8xi16>
// CHECK:           vector.store %{{.*}}, %[[SMEM]]
// CHECK-NOT:       vector.store
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT:    scf.parallel (%[[T2:.*]]) = (%{{.*}}) to (%[[C256]]) step
// CHECK-NOT:       scf.if
// CHECK-NEXT:      %[[C2:.*]] = arith.remui %[[T2]], %[[C8]] : index
// CHECK-NEXT:      %[[J:.*]] = arith.divui %[[T2]], %[[C8]] : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.muli %[[C2]], %[[C8]] : index
// CHECK-NEXT:      %[[OCOL:.*]] = arith.addi %[[A0]], %[[FIRST]] : index
// CHECK-NEXT:      %[[JC:.*]] = arith.divui %[[J]], %[[C8]] : index
// CHECK-NEXT:      %[[JX:.*]] = arith.xori %[[JC]], %[[C2]] : index
// CHECK-NEXT:      %[[JB:.*]] = arith.muli %[[JX]], %[[C8]] : index
// CHECK-NEXT:      %[[JE:.*]] = arith.remui %[[J]], %[[C8]] : index
// CHECK-NEXT:      %[[SCOL:.*]] = arith.addi %[[JB]], %[[JE]] : index
// CHECK-NEXT:      %[[OROW:.*]] = arith.addi %[[B0]], %[[J]] : index
// CHECK-NEXT:      %[[E0:.*]] = memref.load %[[SMEM]][%[[FIRST]], %[[SCOL]]] : memref<64x64xi16, #gpu.address_space<workgroup>>
// CHECK-COUNT-7:   memref.load %[[SMEM]]
// CHECK-NEXT:      %[[CHUNK:.*]] = vector.from_elements %[[E0]], {{.*}} : vector<8xi16>
// CHECK-NEXT:      %[[OUT:.*]] = vector.bitcast %[[CHUNK]] : vector<8xi16> to vector<8xbf16>
// CHECK-NEXT:      vector.store %[[OUT]], %[[Y]][%[[OROW]], %[[OCOL]]] {alignment = 16 : i64} : memref<192x128xbf16>, vector<8xbf16>
// CHECK-COUNT-8:   memref.load %[[SMEM]]
// CHECK:           vector.store %{{.*}}, %[[Y]]
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NOT:   linalg.transpose

// The tile buffer once, at the start of the function, in the default
// memory space (the CPU runs the blocks one after another).
// HOIST-LABEL: func.func @bf16_exact(
// HOIST-NOT:     scf.parallel
// HOIST:         %[[SMEM:.*]] = memref.alloca() {alignment = 16 : i64} : memref<64x64xi16>
// HOIST:         scf.parallel
// HOIST-NOT:     memref.alloca
// HOIST:         vector.store %{{.*}}, %[[SMEM]]
// HOIST:         memref.load %[[SMEM]]
func.func @bf16_exact(%x: memref<128x192xbf16>, %y: memref<192x128xbf16>) {
  linalg.transpose ins(%x : memref<128x192xbf16>) outs(%y : memref<192x128xbf16>) permutation = [1, 0]
  return
}

// -----

// [300, 200] bf16: partial tiles on both edges (5 · 4 = 20 blocks). Reads
// are clamped into the input (row <= 299, chunk start <= 192: 200 takes
// whole 16-byte chunks); output rows hold 300 elements, which take 8-byte
// pieces (4 x bf16), each stored only inside the output (row < 200,
// column < 300).
// CHECK-LABEL: func.func @bf16_partial(
// CHECK-SAME:    %[[X:.*]]: memref<300x200xbf16>, %[[Y:.*]]: memref<200x300xbf16>)
// CHECK-DAG:   %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG:   %[[C192:.*]] = arith.constant 192 : index
// CHECK-DAG:   %[[C299:.*]] = arith.constant 299 : index
// CHECK-DAG:   %[[C200:.*]] = arith.constant 200 : index
// CHECK-DAG:   %[[C300:.*]] = arith.constant 300 : index
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C20]]) step
// CHECK:         scf.parallel
// CHECK-NOT:       scf.if
// CHECK:           %[[ROW:.*]] = arith.minui %{{.*}}, %[[C299]] : index
// CHECK-NEXT:      %[[COL:.*]] = arith.minui %{{.*}}, %[[C192]] : index
// CHECK-NEXT:      vector.load %[[X]][%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<300x200xbf16>, vector<8xbf16>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:         scf.parallel
// CHECK:           %[[ROWIN:.*]] = arith.cmpi slt, %[[OROW:.*]], %[[C200]] : index
// CHECK-NEXT:      %[[COLIN:.*]] = arith.cmpi slt, %[[OCOL:.*]], %[[C300]] : index
// CHECK-NEXT:      %[[IN:.*]] = arith.andi %[[ROWIN]], %[[COLIN]] : i1
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK-COUNT-4:     memref.load
// CHECK:             %[[P:.*]] = vector.from_elements {{.*}} : vector<4xi16>
// CHECK-NEXT:        %[[PB:.*]] = vector.bitcast %[[P]] : vector<4xi16> to vector<4xbf16>
// CHECK-NEXT:        vector.store %[[PB]], %[[Y]][%[[OROW]], %[[OCOL]]] {alignment = 8 : i64} : memref<200x300xbf16>, vector<4xbf16>
// CHECK-NEXT:      }
// CHECK:           %[[OCOL2:.*]] = arith.addi %[[OCOL]], %{{.*}} : index
// CHECK-NEXT:      %[[COLIN2:.*]] = arith.cmpi slt, %[[OCOL2]], %[[C300]] : index
// CHECK-NEXT:      %[[IN2:.*]] = arith.andi %[[ROWIN]], %[[COLIN2]] : i1
// CHECK-NEXT:      scf.if %[[IN2]] {
// CHECK:             vector.store %{{.*}}, %[[Y]][%[[OROW]], %[[OCOL2]]] {alignment = 8 : i64} : memref<200x300xbf16>, vector<4xbf16>
func.func @bf16_partial(%x: memref<300x200xbf16>, %y: memref<200x300xbf16>) {
  linalg.transpose ins(%x : memref<300x200xbf16>) outs(%y : memref<200x300xbf16>) permutation = [1, 0]
  return
}

// -----

// Batched FP8 [3, 200, 136] -> [3, 136, 200]: 128 x 128 tiles of i8, a
// block per (batch, tile): 3 · 2 · 2 = 12 blocks; the batch index leads
// every access. 136 takes 8-byte pieces (two per 16-byte chunk, assembled
// with insert_strided_slice), 200 too (two stores per chunk); four passes
// of 32 rows.
// CHECK-LABEL: func.func @fp8_batched(
// CHECK-SAME:    %[[X:.*]]: memref<3x200x136xf8E4M3FN>, %[[Y:.*]]: memref<3x136x200xf8E4M3FN>)
// CHECK-DAG:   %[[C12:.*]] = arith.constant 12 : index
// CHECK:       scf.parallel (%[[TILE:.*]]) = (%{{.*}}) to (%[[C12]]) step
// CHECK-NEXT:    arith.remui %[[TILE]], %[[C2:.*]] : index
// CHECK-NEXT:    %[[REST:.*]] = arith.divui %[[TILE]], %[[C2]] : index
// CHECK-NEXT:    arith.remui %[[REST]], %[[C2]] : index
// CHECK-NEXT:    %[[G:.*]] = arith.divui %[[REST]], %[[C2]] : index
// CHECK:         %[[SMEM:.*]] = memref.alloca() {alignment = 16 : i64} : memref<128x128xi8, #gpu.address_space<workgroup>>
// CHECK:         scf.parallel
// CHECK:           %[[V:.*]] = vector.load %[[X]][%[[G]], %{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<3x200x136xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK-NEXT:      %[[B:.*]] = vector.bitcast %[[V]] : vector<8xf8E4M3FN> to vector<8xi8>
// CHECK-NEXT:      %[[LO:.*]] = vector.insert_strided_slice %[[B]], %{{.*}} {offsets = [0], strides = [1]} : vector<8xi8> into vector<16xi8>
// CHECK:           vector.load %[[X]][%[[G]], {{.*}} : memref<3x200x136xf8E4M3FN>, vector<8xf8E4M3FN>
// CHECK:           vector.insert_strided_slice %{{.*}}, %[[LO]] {offsets = [8], strides = [1]} : vector<8xi8> into vector<16xi8>
// CHECK-COUNT-4:   vector.store %{{.*}}, %[[SMEM]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x128xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// CHECK:         scf.parallel
// CHECK:           scf.if
// CHECK-COUNT-8:     memref.load %[[SMEM]]
// CHECK:             vector.bitcast %{{.*}} : vector<8xi8> to vector<8xf8E4M3FN>
// CHECK-NEXT:        vector.store %{{.*}}, %[[Y]][%[[G]], %{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<3x136x200xf8E4M3FN>, vector<8xf8E4M3FN>
func.func @fp8_batched(%x: memref<3x200x136xf8E4M3FN>, %y: memref<3x136x200xf8E4M3FN>) {
  linalg.transpose ins(%x : memref<3x200x136xf8E4M3FN>) outs(%y : memref<3x136x200xf8E4M3FN>) permutation = [0, 2, 1]
  return
}

// -----

// [3, 5] f32: one 32 x 32 tile; rows of 5 and 3 elements take single
// elements (scalar loads and stores, as i32 bits in the tile), reads
// clamped to row 2 and column 4, each store masked.
// CHECK-LABEL: func.func @f32_tiny(
// CHECK-SAME:    %[[X:.*]]: memref<3x5xf32>, %[[Y:.*]]: memref<5x3xf32>)
// CHECK:       memref.alloca() {alignment = 16 : i64} : memref<32x32xi32, #gpu.address_space<workgroup>>
// CHECK:       %[[ROW:.*]] = arith.minui %{{.*}}, %c2 : index
// CHECK-NEXT:  %[[COL:.*]] = arith.minui %{{.*}}, %c4 : index
// CHECK-NEXT:  %[[E:.*]] = memref.load %[[X]][%[[ROW]], %[[COL]]] : memref<3x5xf32>
// CHECK-NEXT:  %[[EB:.*]] = arith.bitcast %[[E]] : f32 to i32
// CHECK-NEXT:  %[[BV:.*]] = vector.broadcast %[[EB]] : i32 to vector<1xi32>
// CHECK-NEXT:  vector.insert_strided_slice %[[BV]], %{{.*}} {offsets = [0], strides = [1]} : vector<1xi32> into vector<4xi32>
// CHECK:       vector.store %{{.*}} : memref<32x32xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// CHECK:       scf.if
// CHECK-NEXT:    %[[S:.*]] = memref.load %{{.*}} : memref<32x32xi32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[SF:.*]] = arith.bitcast %[[S]] : i32 to f32
// CHECK-NEXT:    memref.store %[[SF]], %[[Y]][%{{.*}}, %{{.*}}] : memref<5x3xf32>
func.func @f32_tiny(%x: memref<3x5xf32>, %y: memref<5x3xf32>) {
  linalg.transpose ins(%x : memref<3x5xf32>) outs(%y : memref<5x3xf32>) permutation = [1, 0]
  return
}

// -----

// i32 [64, 96]: 32 x 32 tiles (2 · 3 = 6 blocks), one chunk a thread a
// phase; the bits are the elements (no bitcasts).
// CHECK-LABEL: func.func @i32_exact(
// CHECK:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%c6) step
// CHECK:         memref.alloca() {alignment = 16 : i64} : memref<32x32xi32, #gpu.address_space<workgroup>>
// CHECK-NOT:     vector.bitcast
// CHECK:         vector.load %{{.*}} {alignment = 16 : i64} : memref<64x96xi32>, vector<4xi32>
// CHECK-NOT:     vector.load
// CHECK:         vector.store %{{.*}} : memref<32x32xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// CHECK-NOT:     vector.bitcast
// CHECK:         vector.store %{{.*}} {alignment = 16 : i64} : memref<96x64xi32>, vector<4xi32>
// CHECK-NOT:     vector.store
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
func.func @i32_exact(%x: memref<64x96xi32>, %y: memref<96x64xi32>) {
  linalg.transpose ins(%x : memref<64x96xi32>) outs(%y : memref<96x64xi32>) permutation = [1, 0]
  return
}

// -----

// Left for the generic path: another permutation, a dimension of 1 (the
// same bytes in both layouts), 8-byte elements, a strided layout, tensors.
// CHECK-LABEL: func.func @generic(
// CHECK-NOT:   scf.parallel
// CHECK:       linalg.transpose {{.*}} permutation = [1, 0, 2]
// CHECK-NEXT:  linalg.transpose {{.*}} permutation = [1, 0]
// CHECK-NEXT:  linalg.transpose {{.*}} permutation = [1, 0]
// CHECK-NEXT:  linalg.transpose {{.*}} permutation = [1, 0]
// CHECK-NEXT:  linalg.transpose {{.*}} permutation = [1, 0]
func.func @generic(%a: memref<4x6x10xbf16>, %a2: memref<6x4x10xbf16>,
                   %b: memref<1x300xbf16>, %b2: memref<300x1xbf16>,
                   %c: memref<64x64xf64>, %c2: memref<64x64xf64>,
                   %d: memref<64x64xf32, strided<[128, 1]>>, %d2: memref<64x64xf32>,
                   %e: tensor<64x64xf32>, %e2: tensor<64x64xf32>) -> tensor<64x64xf32> {
  linalg.transpose ins(%a : memref<4x6x10xbf16>) outs(%a2 : memref<6x4x10xbf16>) permutation = [1, 0, 2]
  linalg.transpose ins(%b : memref<1x300xbf16>) outs(%b2 : memref<300x1xbf16>) permutation = [1, 0]
  linalg.transpose ins(%c : memref<64x64xf64>) outs(%c2 : memref<64x64xf64>) permutation = [1, 0]
  linalg.transpose ins(%d : memref<64x64xf32, strided<[128, 1]>>) outs(%d2 : memref<64x64xf32>) permutation = [1, 0]
  %t = linalg.transpose ins(%e : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) permutation = [1, 0]
  return %t : tensor<64x64xf32>
}
