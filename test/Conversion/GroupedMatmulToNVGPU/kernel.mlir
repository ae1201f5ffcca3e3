// convert-grouped-matmul-to-nvgpu: bf16 grouped matmuls (both weight layouts)
// and grouped weight gradients become a persistent warp-specialized TMA +
// mbarrier + wgmma kernel; the rest stays for convert-moe-to-runtime-calls,
// or, with require-all, is a located error. The tiles here are 128 columns
// wide (block-n=128); kernel-wide.mlir has the 256-column tiles of block-n=auto.
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=block-n=128 | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu="num-ctas=8 block-n=128" | FileCheck %s --check-prefix=CTAS
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=block-n=128 --canonicalize | FileCheck %s --check-prefix=EPI

// Host side: the TMA descriptors of A, B and (a bf16 output) c encoded on
// the host (no device work), the per-CTA descriptor scratch (16 words
// each), one launch of 132 CTAs x 256 threads (one consumer warpgroup for
// 64-row tiles, one producer), then the scratch freed; the op is gone.
// CHECK-LABEL: func.func @small_groups
// CHECK:       %[[AMAP:.*]] = llvm.alloca %{{.*}} x !llvm.array<16 x i64> {alignment = 64 : i64}
// CHECK-DAG:   %[[R:.*]] = arith.constant 256 : i64
// CHECK-DAG:   %[[K:.*]] = arith.constant 128 : i64
// CHECK-DAG:   %[[BOX:.*]] = arith.constant 64 : i32
// CHECK:       call @moert_entry_tensor_map_2d(%[[AMAP]], %{{.*}}, %[[R]], %[[K]], %[[BOX]], %{{.*}})
// B viewed as [G * K, N] = [512, 192] in 64 x 64 boxes.
// CHECK-DAG:   %[[GK:.*]] = arith.constant 512 : i64
// CHECK-DAG:   %[[N:.*]] = arith.constant 192 : i64
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %[[GK]], %[[N]], %{{.*}}, %{{.*}})
// c as [R, N] = [256, 192] in 64 x 64 boxes, for the TMA stores.
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64{{[_0-9]*}}, %c192_i64{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %c2_i32{{[_0-9]*}})
// CHECK:       %[[SCRATCH:.*]] = memref.alloc() : memref<132x48xi64>
// 64-row tiles (R / G = 64 < 128): as many stages of (8 + 16) KiB as fit
// (7) next to a 64 x 132 f32 epilogue tile (rows padded by 4 floats), two
// 256-entry scans and 1 KiB of alignment slack.
// CHECK-DAG:   %[[SMEM:.*]] = arith.constant 208896 : i32
// CHECK-DAG:   %[[NUMCTAS:.*]] = arith.constant 132 : index
// CHECK-DAG:   %[[THREADS:.*]] = arith.constant 256 : index
// CHECK:       gpu.launch blocks({{.*}}) in ({{.*}} = %[[NUMCTAS]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[THREADS]], {{.*}}) dynamic_shared_memory_size %[[SMEM]]
// The group sizes are read and scanned on the device.
// CHECK:         memref.load %{{.*}} : memref<4xi32>
// CHECK:         arith.ceildivui
// CHECK:         gpu.barrier
// Thread 0 copies c's descriptor to words 32-47 of its CTA's slot and
// releases it to the tensor-map proxy before the set-up's last barrier.
// CHECK:         memref.store %{{.*}}, %[[SCRATCH]][%{{.*}}, %c47{{[_0-9]*}}] : memref<132x48xi64>
// CHECK-NEXT:    nvvm.fence.proxy.release <gpu>
// CHECK:         gpu.barrier
// Producer warpgroup: fewer registers, descriptors published and fenced,
// then per k-step: wait for a free stage, expect its bytes, TMA A and B's
// two 64-column boxes.
// CHECK:         nvvm.setmaxregister  decrease 40
// CHECK:         nvvm.fence.proxy.release <gpu>
// CHECK:         nvvm.fence.proxy.acquire <gpu>
// CHECK:         nvvm.fence.proxy.acquire <gpu>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             nvgpu.mbarrier.try_wait.parity
// CHECK:             nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %{{.*}} : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 7>
// CHECK:             nvgpu.tma.async.load {{.*}} to %{{.*}} : <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:             nvgpu.tma.async.load
// CHECK:             nvgpu.tma.async.load
// Consumer warpgroup: more registers; per k-step wait for a full stage, then
// four m64n128k16 wgmmas in one commit group, A K-major ("row") and B
// N-major ("row": transposed), then release the previous stage.
// CHECK:         nvvm.setmaxregister  increase 232
// CHECK:         nvvm.fence.proxy.acquire <gpu> %{{.*}}, %c128_i32
// CHECK:         scf.for
// CHECK:           llvm.mlir.zero : !llvm.struct<(f32,
// CHECK:           scf.for
// CHECK:             nvgpu.mbarrier.try_wait.parity
// The shared-memory matrix descriptors of the stage: address / 16 in bits
// 0-13 (masked with 16383), the leading-dimension byte offset 8192 / 16 =
// 512 in bits 16-29, the 8-row stride 1024 / 16 = 64 in bits 32-45, the
// 128-byte swizzle in bit 62; per 16-wide k-slice A (K-major) advances 32
// bytes and B (N-major) 2048: 2 and 128 added to the address field.
// CHECK:             arith.andi %{{.*}}, %c16383_i64{{[_0-9]*}} : i64
// CHECK-NEXT:        arith.constant 4611686293338849280 : i64
// CHECK:             arith.andi %{{.*}}, %c16383_i64{{[_0-9]*}} : i64
// CHECK-NEXT:        arith.constant 4611686293338849280 : i64
// CHECK:             nvvm.wgmma.fence.aligned
// CHECK:             nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK:             arith.constant 2 : i64
// CHECK:             arith.constant 128 : i64
// CHECK-COUNT-3:     nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK:             nvvm.wgmma.commit.group.sync.aligned
// CHECK:             nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:             nvgpu.mbarrier.arrive
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           nvgpu.mbarrier.arrive
// Epilogue: once the previous tile's TMA stores have read their boxes and
// the warpgroup's named barrier, a consumer whose 64 rows are all the
// tile's (or end at c's last row) writes them as two 64 x 64 bf16 boxes,
// each thread's pair of columns at its 16-byte chunk xor (row mod 8) (the
// 128-byte swizzle), fences them for the async proxy, synchronizes, and
// one thread TMA-stores them (the second box only where it starts inside
// N = 192) and commits the bulk group.
// CHECK:           scf.if
// CHECK-NEXT:        nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK:           nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:           %[[WHOLE:.*]] = arith.ori %{{.*}}, %{{.*}} : i1
// CHECK:           scf.if %[[WHOLE]] {
// CHECK:             %[[SWIZZLED:.*]] = arith.xori %c0{{[_0-9]*}}, %[[ROW8:.*]] : index
// CHECK:             arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK:             %[[CHUNK:.*]] = arith.muli %[[SWIZZLED]], %c8{{[_0-9]*}} : index
// CHECK:             %[[COL:.*]] = arith.addi %[[CHUNK]], %{{.*}} : index
// CHECK:             vector.store %{{.*}}, %[[BOX0:.*]][%{{.*}}, %[[COL]]] : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// CHECK:             arith.xori %c1{{[_0-9]*}}, %[[ROW8]] : index
// CHECK-COUNT-31:    vector.store %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// CHECK-NOT:         vector.store
// CHECK:             nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:        arith.index_cast
// CHECK:             nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:             scf.if
// CHECK:               nvgpu.tma.async.store %[[BOX0]] to %[[CMAP:.*]][%{{.*}}, %{{.*}}] : memref<64x64xbf16, #gpu.address_space<workgroup>> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:               arith.cmpi ult, %{{.*}}, %c192 : index
// CHECK:               scf.if
// CHECK-NEXT:            nvgpu.tma.async.store %{{.*}} to %[[CMAP]]
// CHECK:               nvvm.cp.async.bulk.commit.group
// Else the accumulator's register pairs into shared memory (f32; the
// named barrier after), then rows of the tile's group and columns inside N
// only, cast to bf16 and stored 8 bytes a thread (aligned to that: c's
// rows are 16-byte multiples, the column a multiple of 4).
// CHECK:           } else {
// CHECK:             llvm.extractvalue
// CHECK:           vector.store %{{.*}}, %{{.*}} : memref<64x132xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK:           nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK:           scf.for
// CHECK:             scf.if
// CHECK:               vector.load %{{.*}} : memref<64x132xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK:               arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
// CHECK:               vector.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : memref<256x192xbf16>, vector<4xbf16>
// The last bulk stores complete before the CTA ends.
// CHECK:         scf.if
// CHECK-NEXT:      nvvm.cp.async.bulk.wait_group 0{{$}}
// CHECK:       memref.dealloc %[[SCRATCH]] : memref<132x48xi64>
// CHECK-NOT:   moe.grouped_matmul
// CTAS-LABEL:  func.func @small_groups
// CTAS:        memref.alloc() : memref<8x48xi64>
// CTAS:        gpu.launch blocks({{.*}}) in ({{.*}} = %c8, {{.*}})
func.func @small_groups(%a: memref<256x128xbf16>, %b: memref<4x128x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x128xbf16>, memref<4x128x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// 128-row tiles where groups average 128 rows or more: two consumer
// warpgroups of 64 rows each and a producer (384 threads), 4 stages of
// 32 KiB next to the 128 x 132 f32 epilogue tile, both consumers release
// each stage; an f32 output is stored without a cast, row by row (no c
// tensor map: 2 descriptors a CTA).
// CHECK-LABEL: func.func @large_groups_f32
// CHECK:       memref.alloc() : memref<132x32xi64>
// CHECK-DAG:   arith.constant 202752 : i32
// CHECK-DAG:   arith.constant 384 : index
// CHECK:       nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %c2
// CHECK:       nvgpu.tma.async.load %{{.*}} to %{{.*}} : <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK:       nvvm.wgmma.mma_async
// CHECK-NOT:   arith.truncf
// CHECK-NOT:   nvgpu.tma.async.store
// CHECK:       vector.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : memref<1024x256xf32>, vector<4xf32>
// CHECK-NOT:   nvgpu.tma.async.store
// CHECK:       memref.dealloc
func.func @large_groups_f32(%a: memref<1024x64xbf16>, %b: memref<2x64x256xbf16>, %n: memref<2xi32>, %c: memref<1024x256xf32>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x64xbf16>, memref<2x64x256xbf16>, memref<2xi32> -> memref<1024x256xf32>
  return
}

// -----

// weight_layout nk: b viewed as [G * N, K] = [768, 128] in 128 x 64 boxes
// (one per stage, 128 rows of N), read K-major by wgmma (B "col").
// CHECK-LABEL: func.func @nk_layout
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64{{[_0-9]*}}, %c128_i64{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %{{.*}})
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c768_i64{{[_0-9]*}}, %c128_i64{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %{{.*}})
// CHECK:       gpu.launch
// CHECK:         nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     nvgpu.tma.async.load
// A's descriptor (64-row box) and B's (128-row box: leading offset
// 16384 / 16 = 1024), both K-major: each k-slice advances 32 bytes, 2 in
// the descriptor's address field.
// CHECK:         arith.constant 4611686293338849280 : i64
// CHECK:         arith.constant 4611686293372403712 : i64
// CHECK:         nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NEXT:    arith.constant 2 : i64
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    arith.constant 2 : i64
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    nvvm.wgmma.mma_async
// CHECK-NOT:   moe.grouped_matmul
func.func @nk_layout(%a: memref<256x128xbf16>, %b: memref<4x192x128xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// A weight gradient: db[g] = a[rows of g]ᵀ · dc[rows of g]. Both operands
// are [R, ·] tensor maps in 64 x 64 boxes (two per 128-wide tile), read
// M/N-major (A "col", B "row"); db is stored as [G * Kd, N]. Tiles are
// (group, m, n), 4 x 2 x 2 of them; k-steps over the group's rows, whose
// last one zeroes the rows of the next group (fenced for the async proxy,
// both consumers synchronized on barrier 3 over 256 threads).
// CHECK-LABEL: func.func @weight_grad
// CHECK:       %[[DB:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : memref<4x256x192xf32> into memref<1024x192xf32>
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c512_i64{{[_0-9]*}}, %c256_i64{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %{{.*}})
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c512_i64{{[_0-9]*}}, %c192_i64{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %{{.*}})
// CHECK:       gpu.launch
// CHECK:         nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK:         arith.ceildivui
// CHECK:         scf.for
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK:           scf.if
// CHECK:             vector.store %{{.*}}, %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:             nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:             nvvm.barrier id = %c3_i32{{[_0-9]*}} number_of_threads = %c256_i32{{[_0-9]*}}
// CHECK:           nvvm.wgmma.mma_async {{.*}} A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
// Both operands M/N-major: each k-slice advances 16 rows (2048 bytes, 128
// in the descriptor's address field).
// CHECK-NEXT:      arith.constant 128 : i64
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      arith.constant 128 : i64
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:      nvvm.wgmma.mma_async
// CHECK:         vector.store %{{.*}}, %[[DB]]
// CHECK-NOT:   moe.grouped_weight_grad
func.func @weight_grad(%a: memref<512x256xbf16>, %dc: memref<512x192xbf16>, %n: memref<4xi32>, %db: memref<4x256x192xf32>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<512x256xbf16>, memref<512x192xbf16>, memref<4xi32> -> memref<4x256x192xf32>
  return
}

// -----

// weight_layout nk: db[g] = dc[..]ᵀ · a[..], so dc is A (M = N = 128) and a
// is B; Kd = 192 columns.
// CHECK-LABEL: func.func @weight_grad_nk
// CHECK:       memref.collapse_shape %{{.*}} : memref<2x128x192xf32> into memref<256x192xf32>
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c300_i64{{[_0-9]*}}, %c128_i64{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %{{.*}})
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c300_i64{{[_0-9]*}}, %c192_i64{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %{{.*}})
// CHECK:       gpu.launch
// CHECK-NOT:   moe.grouped_weight_grad
func.func @weight_grad_nk(%a: memref<300x192xbf16>, %dc: memref<300x128xbf16>, %n: memref<2xi32>, %db: memref<2x128x192xf32>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) {weight_layout = #moe<weight_layout nk>} : memref<300x192xbf16>, memref<300x128xbf16>, memref<2xi32> -> memref<2x128x192xf32>
  return
}

// -----

// A bf16 weight gradient: every tile is whole, so every epilogue is a TMA
// store of db viewed as [G * Kd, N] = [1024, 192] (box 64 x 64) and there is
// no f32 staging. Its 128 x 128 tiles run pingpong (each consumer a whole
// tile, pingpong.mlir): two consumers' 32 KiB of boxes leave room for 4
// stages of 32 KiB, whose empty barriers take 128 arrivals, and a fifth
// empty barrier takes the first release. After the epilogue's boxes come
// three i32 arrays of 384 (the scans and the group order).
// CHECK-LABEL: func.func @weight_grad_bf16
// CHECK:       %[[DB:.*]] = memref.collapse_shape %{{.*}} : memref<4x256x192xbf16> into memref<1024x192xbf16>
// CHECK:       call @moert_entry_tensor_map_2d
// CHECK:       call @moert_entry_tensor_map_2d
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c1024_i64{{[_0-9]*}}, %c192_i64{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %c64_i32
// CHECK:       memref.alloc() : memref<132x48xi64>
// CHECK-DAG:   arith.constant 202240 : i32
// CHECK-DAG:   arith.constant 384 : index
// CHECK:       gpu.launch
// CHECK:         nvgpu.mbarrier.init %{{.*}}, %c1{{(_[0-9]+)?}}, {{.*}} num_barriers = 4>
// CHECK:         nvgpu.mbarrier.init %{{.*}}, %c128{{(_[0-9]+)?}}, {{.*}} num_barriers = 5>
// CHECK:         nvvm.setmaxregister  increase 232
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK:           nvvm.barrier
// CHECK-NOT:       scf.if
// CHECK:           vector.store %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// CHECK:           nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:           nvvm.barrier
// CHECK:           scf.if
// CHECK:             nvgpu.tma.async.store
// CHECK:             nvgpu.tma.async.store
// CHECK:             nvvm.cp.async.bulk.commit.group
// CHECK-NOT:     memref<128x132xf32
// CHECK-NOT:     vector.store %{{.*}}, %[[DB]]
// CHECK:         nvvm.cp.async.bulk.wait_group 0{{$}}
func.func @weight_grad_bf16(%a: memref<512x256xbf16>, %dc: memref<512x192xbf16>, %n: memref<4xi32>, %db: memref<4x256x192xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<512x256xbf16>, memref<512x192xbf16>, memref<4xi32> -> memref<4x256x192xbf16>
  return
}

// -----

// An epilogue with gate|up halves (b [G, K, 2F], F = 160): B's tensor map
// spans all 2F = 320 columns; c's tiles are 64 columns wide (3 of them for
// F = 160), and each k-step loads A's box and two 64 x 64 boxes of B: the
// tile's gate columns at colBegin and its up columns at colBegin + F. The
// epilogue pairs accumulator register i (gate) with i + 32 (up: 8 chunks
// of 8 columns further) in the thread that holds both, before staging: as
// one 64 x 64 bf16 box that TMA stores where the consumer's rows are whole,
// else as f32 rows whose store moves 64 columns a row (16 threads x 4).
// EPI-LABEL: func.func @gated_halves
// EPI:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c1024_i64, %c320_i64, %c64_i32{{.*}}, %c64_i32
// EPI:       gpu.launch
// EPI:         scf.for %[[TILE:.*]] = %{{.*}} to %{{.*}} step %c132
// EPI:           %[[NT:.*]] = arith.remui %[[TILE]], %c3 : index
// EPI-NEXT:      %[[COL:.*]] = arith.muli %[[NT]], %c64 : index
// EPI:             nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}], {{.*}} : <tensor = memref<64x64xbf16
// EPI:             %[[UPCOL:.*]] = arith.addi %[[COL]], %c160 : index
// EPI:             nvgpu.tma.async.load %[[BMAP:.*]][%[[COL]], %[[BK:.*]]], {{.*}} : <tensor = memref<64x64xbf16
// EPI:             nvgpu.tma.async.load %[[BMAP]][%[[UPCOL]], %[[BK]]], {{.*}} : <tensor = memref<64x64xbf16
// EPI:         %[[ACC:.*]] = llvm.inline_asm has_side_effects "", "=f,
// EPI:         %[[GATE:.*]] = llvm.extractvalue %[[ACC]][0] : !llvm.struct
// EPI-NEXT:    %[[UP:.*]] = llvm.extractvalue %{{.*}}[32] : !llvm.struct
// EPI-NEXT:    %[[NEG:.*]] = arith.negf %[[GATE]] fastmath<arcp,contract,afn> : f32
// EPI-NEXT:    %[[EXP:.*]] = math.exp %[[NEG]] fastmath<arcp,contract,afn> : f32
// EPI-NEXT:    arith.mulf %[[EXP]], %[[UP]] fastmath<arcp,contract,afn> : f32
// EPI-COUNT-31: math.exp
// EPI:         nvgpu.tma.async.store
// EPI:         } else {
// EPI-COUNT-32: math.exp
// EPI-NOT:     math.exp
// EPI:         remui %{{.*}}, %c16 : index
func.func @gated_halves(%a: memref<512x128xbf16>, %b: memref<8x128x320xbf16>, %n: memref<8xi32>, %c: memref<512x160xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %neg = arith.negf %gate : f32
    %exp = math.exp %neg : f32
    %v = arith.mulf %exp, %up : f32
    moe.yield %v : f32
  } : memref<512x128xbf16>, memref<8x128x320xbf16>, memref<8xi32> -> memref<512x160xbf16>
  return
}

// -----

// weight_layout nk with gate|up halves (b [G, 2F, K], F = 192, 128-row
// tiles): B arrives as two K-major boxes of 64 rows, at row g * 2F +
// colBegin (gate) and g * 2F + F + colBegin (up), stacked in shared memory
// as one 128-row operand; the row scale is read per row, clamped to R - 1.
// EPI-LABEL: func.func @gated_halves_nk_row_scale
// EPI:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c768_i64, %c256_i64, %c64_i32
// EPI:       gpu.launch
// EPI:             %[[GBASE:.*]] = arith.muli %{{.*}}, %c384 : index
// EPI:             %[[GATEROW:.*]] = arith.addi %[[GBASE]], %{{.*}} : index
// EPI:             %[[UPROW:.*]] = arith.addi %[[GATEROW]], %c192 : index
// EPI:             nvgpu.tma.async.load %[[BMAP:.*]][%{{.*}}, %[[GATEROW]]], {{.*}} : <tensor = memref<64x64xbf16
// EPI:             nvgpu.tma.async.load %[[BMAP]][%{{.*}}, %[[UPROW]]], {{.*}} : <tensor = memref<64x64xbf16
// EPI:         %[[ROW:.*]] = arith.minui %{{.*}}, %c1023 : index
// EPI-NEXT:    memref.load %{{.*}}[%[[ROW]]] : memref<1024xf32>
func.func @gated_halves_nk_row_scale(%a: memref<1024x256xbf16>, %b: memref<2x384x256xbf16>, %n: memref<2xi32>, %s: memref<1024xf32>, %c: memref<1024x192xf32>) {
  moe.grouped_matmul %a, %b, %n row_scale(%s : memref<1024xf32>) outs(%c) epilogue {
  ^bb0(%gate: f32, %up: f32, %scale: f32):
    %h = arith.mulf %gate, %up : f32
    %v = arith.mulf %h, %scale : f32
    moe.yield %v : f32
  } {weight_layout = #moe<weight_layout nk>} : memref<1024x256xbf16>, memref<2x384x256xbf16>, memref<2xi32> -> memref<1024x192xf32>
  return
}

// -----

// accumulate: before the tile's main loop each consumer thread loads the
// values of c it will store (16 rows of 4 columns; zeros outside the
// group), so their latency hides behind the wgmmas; the epilogue adds the
// staged f32 product to them and rounds once, where it loaded. c is read, so
// it is stored row by row (no c tensor map).
// EPI-LABEL: func.func @accumulate_nk
// EPI:       memref.alloc() : memref<132x32xi64>
// EPI:       gpu.launch
// EPI:         nvvm.setmaxregister  increase 232
// EPI-NOT:     nvvm.fence.proxy.acquire
// EPI:         scf.for
// EPI:           %[[OLD:.*]] = scf.if %{{.*}} -> (vector<4xbf16>) {
// EPI-NEXT:        %[[LOADED:.*]] = vector.load %[[C:.*]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<256x128xbf16>, vector<4xbf16>
// EPI-NEXT:        scf.yield %[[LOADED]] : vector<4xbf16>
// EPI-NEXT:      } else {
// EPI-NEXT:        scf.yield %cst{{.*}} : vector<4xbf16>
// EPI-COUNT-15:  vector.load %[[C]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<256x128xbf16>, vector<4xbf16>
// EPI-NOT:       vector.load %[[C]]
// EPI:           nvgpu.mbarrier.try_wait.parity
// EPI:           nvvm.wgmma.mma_async
// EPI-NOT:       vector.load %[[C]]
// EPI-NOT:       nvgpu.tma.async.store
// EPI:           vector.load %{{.*}} : memref<64x132xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// EPI-NEXT:      %[[WIDE:.*]] = arith.extf %[[OLD]] : vector<4xbf16> to vector<4xf32>
// EPI-NEXT:      %[[SUM:.*]] = arith.addf %[[WIDE]], %{{.*}} : vector<4xf32>
// EPI-NEXT:      %[[T:.*]] = arith.truncf %[[SUM]] : vector<4xf32> to vector<4xbf16>
// EPI-NEXT:      vector.store %[[T]], %[[C]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<256x128xbf16>, vector<4xbf16>
// EPI-COUNT-15:  arith.extf %{{.*}} : vector<4xbf16> to vector<4xf32>
// EPI-NOT:       vector.load %[[C]]
// EPI-NOT:       nvgpu.tma.async.store
func.func @accumulate_nk(%a: memref<256x64xbf16>, %b: memref<4x128x64xbf16>, %n: memref<4xi32>, %c: memref<256x128xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x64xbf16>, memref<4x128x64xbf16>, memref<4xi32> -> memref<256x128xbf16>
  return
}

// -----

// What the kernel does not cover stays a moe op (the runtime call of
// convert-moe-to-runtime-calls); invalid.mlir has the errors require-all
// makes of them.
// CHECK-LABEL: func.func @weight_grad_kd_not_multiple_of_8
// CHECK:       moe.grouped_weight_grad
// CHECK-NOT:   gpu.launch
func.func @weight_grad_kd_not_multiple_of_8(%a: memref<256x100xbf16>, %dc: memref<256x64xbf16>, %n: memref<4xi32>, %db: memref<4x100x64xf32>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<256x100xbf16>, memref<256x64xbf16>, memref<4xi32> -> memref<4x100x64xf32>
  return
}

// -----

// CHECK-LABEL: func.func @k_not_multiple_of_8
// CHECK:       moe.grouped_matmul
func.func @k_not_multiple_of_8(%a: memref<256x100xbf16>, %b: memref<4x100x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x100xbf16>, memref<4x100x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @n_not_multiple_of_8
// CHECK:       moe.grouped_matmul
func.func @n_not_multiple_of_8(%a: memref<256x64xbf16>, %b: memref<4x64x36xbf16>, %n: memref<4xi32>, %c: memref<256x36xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x64xbf16>, memref<4x64x36xbf16>, memref<4xi32> -> memref<256x36xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @f32_operands
// CHECK:       moe.grouped_matmul
func.func @f32_operands(%a: memref<256x64xf32>, %b: memref<4x64x64xf32>, %n: memref<4xi32>, %c: memref<256x64xf32>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x64xf32>, memref<4x64x64xf32>, memref<4xi32> -> memref<256x64xf32>
  return
}

// -----

// Ops on tensors are left alone (the pass runs after bufferization).
// CHECK-LABEL: func.func @on_tensors
// CHECK:       moe.grouped_matmul
func.func @on_tensors(%a: tensor<256x64xbf16>, %b: tensor<4x64x64xbf16>, %n: tensor<4xi32>, %c: tensor<256x64xbf16>) -> tensor<256x64xbf16> {
  %r = moe.grouped_matmul %a, %b, %n outs(%c) : tensor<256x64xbf16>, tensor<4x64x64xbf16>, tensor<4xi32> -> tensor<256x64xbf16>
  return %r : tensor<256x64xbf16>
}
