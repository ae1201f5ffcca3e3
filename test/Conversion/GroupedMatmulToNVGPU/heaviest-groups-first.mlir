// A weight gradient's tile costs its group's rows. With skewed routing a few
// groups hold ten times the mean, and dealt in group order (CTA i: tiles i,
// i + numCtas, ...) their tiles pile up on the same CTAs. So where the
// largest group has more than twice the mean rows (decided per launch on
// the device), its tiles run in the order of their groups' sizes, largest
// first, and round r of the persistent loop deals its tiles to the CTAs in
// reverse where r is odd.
// - After the scans, each thread ranks the groups it owns: the rank of g is
//   the number of groups h with more rows, or as many and h < g (sizes are
//   differences of the inclusive row scan, carried through the loop), and
//   groupOrder[rank] = g; a barrier follows.
// - The loop's tile (clamped to the last) is in round tile / 132; its place
//   in the order is roundBegin + inRound, or roundBegin + width - 1 -
//   inRound where the round is odd (width: the round's tiles, at most 132).
//   The group is groupOrder[place / tilesPerGroup].
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu --canonicalize | FileCheck %s
// heaviest-groups-first=false (moe-lower-to-gpu: gemm-heaviest-groups-first,
// moe-compile --gemm-heaviest-groups-first) keeps group order, and the
// shared memory without the order array.
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=heaviest-groups-first=false --canonicalize | FileCheck %s --check-prefix=OFF
// RUN: moe-opt %s -split-input-file --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated gemm-heaviest-groups-first=false})' --mlir-print-ir-after=convert-grouped-matmul-to-nvgpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// 6 groups of 1 x 2 tiles of 128 x 256 (db [6, 128, 512]).
// CHECK-LABEL: func.func @weight_grad_order
// CHECK:         gpu.launch
// The scans' arrays, then the order's:
// CHECK:           memref.view %{{.*}} to memref<384xi32, #gpu.address_space<workgroup>>
// CHECK:           memref.view %{{.*}} to memref<384xi32, #gpu.address_space<workgroup>>
// CHECK:           %[[ORDER:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<384xi32, #gpu.address_space<workgroup>>
// After the scan and c's tensor map (published with a release fence):
// CHECK:           nvvm.fence.proxy.release <gpu>
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %[[OWNED:.*]] = arith.cmpi ult, %thread_id_x, %c6 : index
// CHECK-NEXT:      scf.if %[[OWNED]] {
// CHECK-NEXT:        %[[THROUGH:.*]] = memref.load %[[ROWS:.*]][%thread_id_x]
// CHECK-NEXT:        %[[THROUGHI:.*]] = arith.index_cast %[[THROUGH]] : i32 to index
// CHECK:             %[[SIZEI:.*]] = arith.subi %[[THROUGHI]], %{{.*}} : index
// CHECK-NEXT:        %[[SIZE:.*]] = arith.index_cast %[[SIZEI]] : index to i32
// CHECK-NEXT:        %[[RANK:.*]]:2 = scf.for %[[H:.*]] = %c0 to %c6 step %c1 iter_args(%[[R:.*]] = %c0_i32, %[[PREV:.*]] = %c0_i32) -> (i32, i32) {
// CHECK-NEXT:          %[[HTHROUGH:.*]] = memref.load %[[ROWS]][%[[H]]]
// CHECK-NEXT:          %[[HSIZE:.*]] = arith.subi %[[HTHROUGH]], %[[PREV]] : i32
// CHECK-NEXT:          %[[MORE:.*]] = arith.cmpi sgt, %[[HSIZE]], %[[SIZE]] : i32
// CHECK-NEXT:          %[[SAME:.*]] = arith.cmpi eq, %[[HSIZE]], %[[SIZE]] : i32
// CHECK-NEXT:          %[[LOWER:.*]] = arith.cmpi ult, %[[H]], %thread_id_x : index
// CHECK-NEXT:          %[[TIE:.*]] = arith.andi %[[SAME]], %[[LOWER]] : i1
// CHECK-NEXT:          %[[HEAVIER:.*]] = arith.ori %[[MORE]], %[[TIE]] : i1
// CHECK-NEXT:          %[[ONE:.*]] = arith.extui %[[HEAVIER]] : i1 to i32
// CHECK-NEXT:          %[[NEXT:.*]] = arith.addi %[[R]], %[[ONE]] : i32
// CHECK-NEXT:          scf.yield %[[NEXT]], %[[HTHROUGH]] : i32, i32
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[G:.*]] = arith.index_cast %thread_id_x : index to i32
// CHECK-NEXT:        %[[AT:.*]] = arith.index_cast %[[RANK]]#0 : i32 to index
// CHECK-NEXT:        memref.store %[[G]], %[[ORDER]][%[[AT]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// The largest group, groupOrder[0], decides: heaviest first only where its
// rows times G exceed twice all rows.
// CHECK-NEXT:      %[[LARGEST32:.*]] = memref.load %[[ORDER]][%c0]
// CHECK-NEXT:      %[[LARGEST:.*]] = arith.index_cast %[[LARGEST32]] : i32 to index
// CHECK-NEXT:      %[[THROUGHL:.*]] = memref.load %[[ROWS]][%[[LARGEST]]]
// CHECK-NEXT:      %[[THROUGHLI:.*]] = arith.index_cast %[[THROUGHL]] : i32 to index
// CHECK:           %[[LROWS:.*]] = arith.subi %[[THROUGHLI]], %{{.*}} : index
// CHECK-NEXT:      %[[ALL32:.*]] = memref.load %[[ROWS]][%c5]
// CHECK-NEXT:      %[[ALL:.*]] = arith.index_cast %[[ALL32]] : i32 to index
// CHECK-NEXT:      %[[TIMESG:.*]] = arith.muli %[[LROWS]], %c6 : index
// CHECK-NEXT:      %[[TWICE:.*]] = arith.muli %[[ALL]], %c2 : index
// CHECK-NEXT:      %[[SKEWED:.*]] = arith.cmpi ugt, %[[TIMESG]], %[[TWICE]] : index
// The producer's loop over the 12 tiles, and its decode: the place in the
// alternating rounds where skewed, else the tile itself.
// CHECK:           scf.for %[[TILE:.*]] = %block_id_x to %c12 step %c132
// CHECK-NEXT:        %[[CLAMPED:.*]] = arith.minui %[[TILE]], %c11 : index
// CHECK-NEXT:        %[[ROUND:.*]] = arith.divui %[[CLAMPED]], %c132 : index
// CHECK-NEXT:        %[[BEGIN:.*]] = arith.muli %[[ROUND]], %c132 : index
// CHECK-NEXT:        %[[IN:.*]] = arith.subi %[[CLAMPED]], %[[BEGIN]] : index
// CHECK-NEXT:        %[[LEFT:.*]] = arith.subi %c12, %[[BEGIN]] : index
// CHECK-NEXT:        %[[WIDTH:.*]] = arith.minui %[[LEFT]], %c132 : index
// CHECK-NEXT:        %[[PARITY:.*]] = arith.remui %[[ROUND]], %c2 : index
// CHECK-NEXT:        %[[ODD:.*]] = arith.cmpi ne, %[[PARITY]], %c0 : index
// CHECK-NEXT:        %[[LAST:.*]] = arith.subi %[[WIDTH]], %c1 : index
// CHECK-NEXT:        %[[REVERSED:.*]] = arith.subi %[[LAST]], %[[IN]] : index
// CHECK-NEXT:        %[[OFFSET:.*]] = arith.select %[[ODD]], %[[REVERSED]], %[[IN]] : index
// CHECK-NEXT:        %[[ALTERNATING:.*]] = arith.addi %[[BEGIN]], %[[OFFSET]] : index
// CHECK-NEXT:        %[[PLACE:.*]] = arith.select %[[SKEWED]], %[[ALTERNATING]], %[[TILE]] : index
// CHECK-NEXT:        %[[SLOT:.*]] = arith.divui %[[PLACE]], %c2 : index
// CHECK-NEXT:        %[[GROUP32:.*]] = memref.load %[[ORDER]][%[[SLOT]]]
// CHECK-NEXT:        %[[HEAVIEST:.*]] = arith.index_cast %[[GROUP32]] : i32 to index
// CHECK-NEXT:        arith.select %[[SKEWED]], %[[HEAVIEST]], %[[SLOT]] : index
// CHECK-NEXT:        arith.remui %[[PLACE]], %c2 : index
// OFF-LABEL: func.func @weight_grad_order
// OFF-NOT:       memref<384xi32, #gpu.address_space<workgroup>>
// OFF-COUNT-2:   memref.view %{{.*}} to memref<384xi32, #gpu.address_space<workgroup>>
// OFF-NOT:       memref.view %{{.*}} to memref<384xi32, #gpu.address_space<workgroup>>
// OFF-NOT:       arith.extui %{{.*}} : i1 to i32
// OFF:           nvvm.wgmma.mma_async
func.func @weight_grad_order(%a: memref<4096x128xbf16>, %dc: memref<4096x512xbf16>, %n: memref<6xi32>, %db: memref<6x128x512xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<4096x128xbf16>, memref<4096x512xbf16>, memref<6xi32> -> memref<6x128x512xbf16>
  return
}

// -----

// Grouped matmuls (RaggedDim::M) keep group order: their tiles all cost K.
// CHECK-LABEL: func.func @matmul_keeps_order
// CHECK-COUNT-2: memref.view %{{.*}} to memref<384xi32, #gpu.address_space<workgroup>>
// CHECK-NOT:     memref.view %{{.*}} to memref<384xi32, #gpu.address_space<workgroup>>
// CHECK-NOT:     arith.extui %{{.*}} : i1 to i32
// CHECK:         nvvm.wgmma.mma_async
func.func @matmul_keeps_order(%a: memref<1024x128xbf16>, %b: memref<2x128x256xbf16>, %n: memref<2xi32>, %c: memref<1024x256xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x128xbf16>, memref<2x128x256xbf16>, memref<2xi32> -> memref<1024x256xbf16>
  return
}
