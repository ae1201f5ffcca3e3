// A grouped matmul whose K is not a multiple of the 64-wide k-step ends in a
// partial step. TMA fills A's columns past K (and a K-major B's) with zeros.
// An N-major B ([G * K, N]) brings the next group's first rows there instead,
// and a non-finite weight times a zero column is NaN, so the consumers zero
// those rows of every B box on the product's last k-step, fence the writes
// for the async proxy and synchronize before the wgmma reads the stage. A
// weight gradient's db rows (its M) likewise need not be whole tiles.
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=block-n=128 --canonicalize | FileCheck %s

// K = 96, kn: 2 k-steps a tile; on step 1 rows 32..63 of B's two boxes
// (consumer 0 has them both: one consumer for 64-row tiles).
// CHECK-LABEL: func.func @kn_tail
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64, %c96_i64, %c64_i32, %c64_i32
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c384_i64, %c192_i64, %c64_i32, %c64_i32
// CHECK:       gpu.launch
// CHECK:         arith.select %{{.*}}, %c2, %c0 : index
// The consumers' main loop:
// CHECK:         nvvm.setmaxregister  increase 232
// CHECK:         scf.for %[[STEP:.*]] = %c0 to %{{.*}} step %c1 iter_args({{.*}}) -> (!llvm.struct
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK-NEXT:      %[[LAST:.*]] = arith.cmpi eq, %[[STEP]], %c1 : index
// CHECK-NEXT:      scf.if %[[LAST]] {
// CHECK:             arith.cmpi uge, %{{.*}}, %c32 : index
// CHECK:             vector.store %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:             arith.cmpi uge, %{{.*}}, %c32 : index
// CHECK:             vector.store %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:             nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:        nvvm.barrier id = %c2_i32 number_of_threads = %c128_i32
// CHECK-NEXT:      }
// CHECK:           nvvm.wgmma.fence.aligned
func.func @kn_tail(%a: memref<256x96xbf16>, %b: memref<4x96x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x96xbf16>, memref<4x96x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// K = 32, nk: B is K-major ([G * N, K]), so TMA zero-fills its columns
// past K too; one k-step, nothing zeroed.
// CHECK-LABEL: func.func @nk_tail
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64, %c32_i64, %c64_i32, %c64_i32
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c768_i64, %c32_i64, %c128_i32, %c64_i32
// CHECK:       gpu.launch
// CHECK:         arith.select %{{.*}}, %c1, %c0 : index
// CHECK-NOT:     vector<8xbf16>
// CHECK:         nvvm.wgmma.mma_async
// CHECK-NOT:     vector<8xbf16>
// CHECK:         gpu.terminator
func.func @nk_tail(%a: memref<256x32xbf16>, %b: memref<4x192x32xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x32xbf16>, memref<4x192x32xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// A pair (the second accumulating into the first's c) of kn products with
// K = 96 and 32: 2 + 1 k-steps; the first product's rows past 96 are zeroed
// on step 1, the second's past 32 on step 2.
// CHECK-LABEL: func.func @kn_pair_tails
// CHECK:       gpu.launch
// CHECK:         arith.select %{{.*}}, %c3, %c0 : index
// CHECK:         nvvm.setmaxregister  increase 232
// CHECK:         scf.for %[[STEP:.*]] = %c0 to %{{.*}} step %c1 iter_args({{.*}}) -> (!llvm.struct
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK-NEXT:      %[[FIRSTLAST:.*]] = arith.cmpi eq, %[[STEP]], %c1 : index
// CHECK-NEXT:      scf.if %[[FIRSTLAST]] {
// CHECK:             arith.cmpi uge, %{{.*}}, %c32 : index
// CHECK:             nvvm.barrier id = %c2_i32 number_of_threads = %c128_i32
// CHECK:           %[[SECONDLAST:.*]] = arith.cmpi eq, %[[STEP]], %c2 : index
// CHECK-NEXT:      scf.if %[[SECONDLAST]] {
// CHECK:             arith.cmpi uge, %{{.*}}, %c32 : index
// CHECK:             nvvm.barrier id = %c2_i32 number_of_threads = %c128_i32
// CHECK:           nvvm.wgmma.fence.aligned
func.func @kn_pair_tails(%a1: memref<256x96xbf16>, %b1: memref<4x96x192xbf16>, %a2: memref<256x32xbf16>, %b2: memref<4x32x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) : memref<256x96xbf16>, memref<4x96x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  moe.grouped_matmul %a2, %b2, %n outs(%c) {accumulate} : memref<256x32xbf16>, memref<4x32x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// A weight gradient whose db rows (Kd = 96) are not whole 64-row tiles: the
// second m-tile of each group holds rows 64..95 (TMA reads zeros past 96),
// rowEnd = rowBegin + min(64, 96 - mBegin); a tile that is not whole takes
// the row-masked stores (c's [G * 96, N] tensor map would write the next
// group's rows), the whole ones the TMA store.
// CHECK-LABEL: func.func @weight_grad_m_tail
// CHECK:       gpu.launch
// CHECK:         nvvm.setmaxregister  increase 232
// CHECK:         %[[MBEGIN:.*]] = arith.muli %{{.*}}, %c64 : index
// CHECK:         %[[LEFT:.*]] = arith.subi %c96, %[[MBEGIN]] : index
// CHECK-NEXT:    %[[ROWS:.*]] = arith.minui %[[LEFT]], %c64 : index
// CHECK-NEXT:    %[[ROWEND:.*]] = arith.addi %{{.*}}, %[[ROWS]] : index
// CHECK:         scf.for
// CHECK:           %[[WHOLE:.*]] = arith.cmpi uge, %{{.*}}, %{{.*}} : index
// CHECK:           scf.if %[[WHOLE]] {
// CHECK:             nvgpu.tma.async.store
// CHECK:           } else {
// CHECK:             vector.store %{{.*}} : memref<64x132xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK:               vector.store %{{.*}} {alignment = 8 : i64} : memref<384x64xbf16>, vector<4xbf16>
func.func @weight_grad_m_tail(%a: memref<256x96xbf16>, %dc: memref<256x64xbf16>, %n: memref<4xi32>, %db: memref<4x96x64xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<256x96xbf16>, memref<256x64xbf16>, memref<4xi32> -> memref<4x96x64xbf16>
  return
}
