// The tile order of generated grouped GEMMs: a group's tiles run panel after
// panel of `panel-tiles` column tiles, m-tile after m-tile within a panel, so
// that the 132 CTAs running at once share a few of B's column tiles and a
// range of A's rows in L2. Tile i of a group with mT m-tiles (nT = 5 column
// tiles here, panels of 2): panel p = i / (mT * 2), the panel's width
// w = min(2, nT - 2p), m = (i - p * mT * 2) / w, n = 2p + (i - p * mT * 2) % w.
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=panel-tiles=2 --canonicalize | FileCheck %s
// By default a group's B of less than 24 MB (which stays in L2) keeps one
// panel (the row-major decode); a larger one gets panels of the integer
// nearest sqrt(132 * BM / BN) column tiles: 8 for 128 x 256 tiles.
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu --canonicalize | FileCheck %s --check-prefix=AUTO
// moe-lower-to-gpu passes its gemm-panel-tiles on (the panel width 2 in the
// width computation of the first kernel).
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated gemm-panel-tiles=2})' --mlir-print-ir-after=convert-grouped-matmul-to-nvgpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE:     func.func @matmul_panels
// PIPELINE:       arith.minui %c2{{(_[0-9]+)?}}, %{{.*}} : index
// RUN: not moe-opt %s --convert-grouped-matmul-to-nvgpu=panel-tiles=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: convert-grouped-matmul-to-nvgpu: panel-tiles must be 0 (chosen) or positive, got -1

// CHECK-LABEL: func.func @matmul_panels
// CHECK:         scf.for %[[TILE:.*]] = %{{.*}} to %{{.*}} step %c132
// CHECK:           %[[ROWMAJORM:.*]] = arith.divui %[[TILE]], %c5 : index
// CHECK:           %[[INGROUPS:.*]] = arith.cmpi ult, %[[ROWMAJORM]], %{{.*}} : index
// CHECK:           %[[ROWMAJORN:.*]] = arith.remui %[[TILE]], %c5 : index
// CHECK:           %[[GROUPTILES:.*]] = arith.subi %{{.*}}, %[[BEFORE:.*]] : index
// CHECK-NEXT:      %[[SKIP:.*]] = arith.muli %[[BEFORE]], %c5 : index
// CHECK-NEXT:      %[[LOCAL:.*]] = arith.subi %[[TILE]], %[[SKIP]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.select %[[INGROUPS]], %[[LOCAL]], %c0 : index
// CHECK-NEXT:      %[[MT:.*]] = arith.select %[[INGROUPS]], %[[GROUPTILES]], %c1 : index
// CHECK-NEXT:      %[[SPAN:.*]] = arith.muli %[[MT]], %c2 : index
// CHECK-NEXT:      %[[PANEL:.*]] = arith.divui %[[I]], %[[SPAN]] : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.muli %[[PANEL]], %c2 : index
// CHECK:           %[[INPANEL:.*]] = arith.subi %[[I]], %{{.*}} : index
// CHECK-NEXT:      %[[LEFT:.*]] = arith.subi %c5, %[[FIRST]] : index
// CHECK-NEXT:      %[[WIDTH:.*]] = arith.minui %[[LEFT]], %c2 : index
// CHECK-NEXT:      %[[M:.*]] = arith.divui %[[INPANEL]], %[[WIDTH]] : index
// CHECK-NEXT:      %[[NIN:.*]] = arith.remui %[[INPANEL]], %[[WIDTH]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.addi %[[FIRST]], %[[NIN]] : index
// A tile of the zero rows past the groups keeps the row-major column.
// CHECK-NEXT:      %[[NTILE:.*]] = arith.select %[[INGROUPS]], %[[N]], %[[ROWMAJORN]] : index
// CHECK-NEXT:      arith.muli %[[NTILE]], %c128 : index
// CHECK-NEXT:      %[[MROWS:.*]] = arith.muli %[[M]], %c128 : index
// CHECK-NEXT:      arith.addi %{{.*}}, %[[MROWS]] : index
// AUTO-LABEL: func.func @matmul_panels
// AUTO:         scf.for %[[TILE:.*]] = %{{.*}} to %{{.*}} step %c132
// AUTO:           %[[N:.*]] = arith.remui %[[TILE]], %c5 : index
// AUTO-NEXT:      arith.muli %[[N]], %c128 : index
// AUTO-NOT:       arith.minui %{{.*}}, %c11 : index
// The consumers carry the next tile's coordinates: they decode it (the
// group's binary search over the tile scan) once the tile's last wgmmas are
// issued, before waiting for them.
// AUTO:           scf.for %{{.*}} = %block_id_x to %{{.*}} step %c132 iter_args(%{{.*}} = %c0, {{.*}}) -> (index, index, index, index, index)
// AUTO:             nvvm.wgmma.mma_async
// AUTO:             nvvm.wgmma.wait.group.sync.aligned 1
// AUTO:             scf.yield
// AUTO-NEXT:      }
// AUTO-NEXT:      %[[NEXT:.*]] = arith.addi %{{.*}}, %c132 : index
// AUTO-NEXT:      %[[CLAMPED:.*]] = arith.minui %[[NEXT]], %{{.*}} : index
// AUTO-NEXT:      arith.divui %[[CLAMPED]], %c5 : index
// AUTO:           scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args
// AUTO:           nvvm.wgmma.wait.group.sync.aligned 0
func.func @matmul_panels(%a: memref<1024x128xbf16>, %b: memref<2x128x640xbf16>, %n: memref<2xi32>, %c: memref<1024x640xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x128xbf16>, memref<2x128x640xbf16>, memref<2xi32> -> memref<1024x640xbf16>
  return
}

// -----

// A weight gradient's groups each have mTiles x nTiles tiles (2 x 5 here);
// the tile's place in the group order (heaviest-groups-first.mlir) gives
// the group's slot and the tile within the group.
// CHECK-LABEL: func.func @weight_grad_panels
// CHECK:         scf.for %[[TILE:.*]] = %{{.*}} to %c20 step %c132
// CHECK:           %[[PLACE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[TILE]] : index
// CHECK-NEXT:      %[[SLOT:.*]] = arith.divui %[[PLACE]], %c10 : index
// CHECK-NEXT:      memref.load %{{.*}}[%[[SLOT]]]
// CHECK-NEXT:      arith.index_cast
// CHECK-NEXT:      arith.select
// CHECK-NEXT:      %[[I:.*]] = arith.remui %[[PLACE]], %c10 : index
// CHECK-NEXT:      %[[PANEL:.*]] = arith.divui %[[I]], %c4 : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.muli %[[PANEL]], %c2 : index
// CHECK:           %[[WIDTH:.*]] = arith.minui %{{.*}}, %c2 : index
// CHECK-NEXT:      %[[M:.*]] = arith.divui %{{.*}}, %[[WIDTH]] : index
// AUTO-LABEL: func.func @weight_grad_panels
// AUTO-NOT:       arith.minui %{{.*}}, %c11 : index
// AUTO:           nvvm.wgmma.mma_async
func.func @weight_grad_panels(%a: memref<1024x256xbf16>, %dc: memref<1024x640xbf16>, %n: memref<2xi32>, %db: memref<2x256x640xf32>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<1024x256xbf16>, memref<1024x640xbf16>, memref<2xi32> -> memref<2x256x640xf32>
  return
}

// -----

// 128 x 256 tiles (N = 8192: 32 column tiles) of a 64 MB B a group (K =
// 4096): panels of 8.
// AUTO-LABEL: func.func @wide_default_panels
// AUTO:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c132
// AUTO:           arith.subi %c32, %{{.*}} : index
// AUTO-NEXT:      arith.minui %{{.*}}, %c8 : index
func.func @wide_default_panels(%a: memref<1024x4096xbf16>, %b: memref<2x4096x8192xbf16>, %n: memref<2xi32>, %c: memref<1024x8192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x4096xbf16>, memref<2x4096x8192xbf16>, memref<2xi32> -> memref<1024x8192xbf16>
  return
}

// -----

// The same tiles with K = 1024 (16 MB of B a group): one panel.
// AUTO-LABEL: func.func @wide_small_b
// AUTO:         scf.for %[[TILE:.*]] = %{{.*}} to %{{.*}} step %c132
// AUTO:           %[[N:.*]] = arith.remui %[[TILE]], %c32 : index
// AUTO-NEXT:      arith.muli %[[N]], %c256 : index
// AUTO-NOT:       arith.minui %{{.*}}, %c8 : index
// AUTO:           nvvm.wgmma.mma_async
func.func @wide_small_b(%a: memref<1024x1024xbf16>, %b: memref<2x1024x8192xbf16>, %n: memref<2xi32>, %c: memref<1024x8192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x1024xbf16>, memref<2x1024x8192xbf16>, memref<2xi32> -> memref<1024x8192xbf16>
  return
}
