// convert-grouped-matmul-to-nvgpu's 256-column tiles: a consumer runs one
// m64n256k16 wgmma per 16-wide k-slice (128 f32 accumulator registers a
// thread). block-n=256 takes them wherever 2 stages fit (prefixes FORCED
// and EPI test the kernel's structure); block-n=auto (the default, CHECK) for weight
// gradients and grouped matmuls with N > 4096, where c's N is a multiple of
// the tile's output width (256; 128 with gate|up halves), at least 3 stages
// fit next to the epilogue's shared memory and the op does not accumulate;
// else the tile stays 128 wide. block-n=128 keeps every tile 128 wide
// (kernel.mlir).
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=block-n=256 | FileCheck %s --check-prefix=FORCED
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=block-n=128 | FileCheck %s --check-prefix=NARROW
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=block-n=256 --canonicalize | FileCheck %s --check-prefix=EPI

// kn, 128-row tiles: B as [G * K, N] in 64 x 64 boxes, four per k-step
// (256 columns) after A's 128 x 64 box: 48 KiB a stage, 3 stages (219136
// bytes = 3 x 48 KiB + the 128 x 132 f32 staging + two 384-entry scans + 1
// KiB of alignment slack). Each k-step is four m64n256k16 wgmmas (B
// N-major: 64-column boxes 8 KiB apart, the leading offset 8192 / 16 = 512
// as with 128-wide tiles).
// FORCED-LABEL: func.func @wide_kn
// FORCED:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c1024_i64{{[_0-9]*}}, %c128_i64{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c64_i32
// FORCED:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64{{[_0-9]*}}, %c512_i64{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %c64_i32
// FORCED:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c1024_i64{{[_0-9]*}}, %c512_i64{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %c64_i32
// FORCED-DAG:   arith.constant 219136 : i32
// FORCED-DAG:   arith.constant 384 : index
// FORCED:       gpu.launch
// FORCED:         nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// FORCED:         nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c49152 :
// FORCED-NEXT:    arith.constant 64 : index
// FORCED:         nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16
// FORCED-COUNT-4: nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16
// FORCED-NOT:     nvgpu.tma.async.load
// FORCED:         nvvm.setmaxregister  increase 232
// FORCED:         llvm.mlir.zero : !llvm.struct<(f32,
// The stage's descriptors once, then each k-slice's by one add: A's
// (K-major) 32 bytes = 2 further a slice, B's (N-major) 16 rows of 128
// bytes = 128 further.
// FORCED:         %[[ADESC:.*]] = arith.ori %{{.*}}, %{{.*}} : i64
// FORCED:         arith.constant 4611686293338849280 : i64
// FORCED-NEXT:    %[[BDESC:.*]] = arith.ori
// FORCED-NEXT:    nvvm.wgmma.fence.aligned
// FORCED-NEXT:    nvvm.wgmma.mma_async %[[ADESC]], %[[BDESC]], {{.*}}, <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// FORCED-NEXT:    arith.constant 2 : i64
// FORCED-NEXT:    %[[A1:.*]] = arith.addi %[[ADESC]], %{{.*}} : i64
// FORCED-NEXT:    arith.constant 128 : i64
// FORCED-NEXT:    %[[B1:.*]] = arith.addi %[[BDESC]], %{{.*}} : i64
// FORCED-NEXT:    nvvm.wgmma.mma_async %[[A1]], %[[B1]], {{.*}}, <m = 64, n = 256, k = 16>
// FORCED-COUNT-2: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
// FORCED:         nvvm.wgmma.commit.group.sync.aligned
// Whole rows: four 64 x 64 bf16 boxes of 64 x 256 (64 register pairs a
// thread), TMA-stored without a column test (N is a multiple of 256).
// FORCED:         scf.if
// FORCED-COUNT-64: vector.store %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// FORCED-NOT:       vector.store %{{.*}} : memref<64x64xbf16
// FORCED:           nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>
// FORCED:           scf.if
// FORCED-COUNT-4:     nvgpu.tma.async.store
// FORCED-NOT:         nvgpu.tma.async.store
// FORCED:             nvvm.cp.async.bulk.commit.group
// The others: two slabs of 128 columns, each staged as f32 (16 register
// pairs a row half), synchronized, stored row by row, synchronized again
// before the second slab overwrites the staging.
// FORCED:         } else {
// FORCED-COUNT-32: vector.store %{{.*}} : memref<128x132xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// FORCED-NOT:      vector.store %{{.*}} : memref<128x132xf32
// FORCED:          nvvm.barrier
// FORCED:          scf.for
// FORCED:            vector.store %{{.*}} {alignment = 8 : i64} : memref<1024x512xbf16>, vector<4xbf16>
// FORCED:          nvvm.barrier
// FORCED-COUNT-32: vector.store %{{.*}} : memref<128x132xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// FORCED-NOT:      vector.store %{{.*}} : memref<128x132xf32
// FORCED:          nvvm.barrier
// FORCED:          scf.for
// FORCED:            vector.store %{{.*}} {alignment = 8 : i64} : memref<1024x512xbf16>, vector<4xbf16>
// NARROW-LABEL: func.func @wide_kn
// NARROW:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
func.func @wide_kn(%a: memref<1024x128xbf16>, %b: memref<2x128x512xbf16>, %n: memref<2xi32>, %c: memref<1024x512xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x128xbf16>, memref<2x128x512xbf16>, memref<2xi32> -> memref<1024x512xbf16>
  return
}

// -----

// nk: B as [G * N, K] = [1024, 128] in one K-major box of 256 rows a k-step
// (TMA allows 256 elements a box dimension); its wgmma descriptor's leading
// offset is 256 x 128 / 16 = 2048 (bits 16-29), B read K-major ("col").
// FORCED-LABEL: func.func @wide_nk
// FORCED:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c1024_i64{{[_0-9]*}}, %c128_i64{{[_0-9]*}}, %c256_i32{{[_0-9]*}}, %c64_i32
// FORCED:       gpu.launch
// FORCED:         nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16
// FORCED-NEXT:    arith.constant
// FORCED:         nvgpu.tma.async.load {{.*}} : <tensor = memref<256x64xbf16
// FORCED-NOT:     nvgpu.tma.async.load
// FORCED:         arith.constant 4611686293439512576 : i64
// FORCED-NEXT:    arith.ori
// FORCED-NEXT:    nvvm.wgmma.fence.aligned
// FORCED-NEXT:    nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
func.func @wide_nk(%a: memref<1024x128xbf16>, %b: memref<2x512x128xbf16>, %n: memref<2xi32>, %c: memref<1024x512xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<1024x128xbf16>, memref<2x512x128xbf16>, memref<2xi32> -> memref<1024x512xbf16>
  return
}

// -----

// gate|up halves (kn, F = 256): the product tile is 256 wide, c's 128 (two
// column tiles for F = 256); B's boxes are the tile's 128 gate columns (two
// 64 x 64 boxes) and the same columns of the up half, F further. The
// epilogue pairs accumulator register i (gate) with i + 64 (up: 16 chunks
// of 8 columns further) and TMA-stores two 64 x 64 boxes.
// EPI-LABEL: func.func @wide_gated
// EPI:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64, %c512_i64, %c64_i32{{.*}}, %c64_i32
// EPI:       gpu.launch
// EPI:           %[[NT:.*]] = arith.remui %{{.*}}, %c2 : index
// EPI-NEXT:      %[[COL:.*]] = arith.muli %[[NT]], %c128 : index
// EPI:             nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16
// EPI:             %[[G1:.*]] = arith.addi %[[COL]], %c64 : index
// EPI-NEXT:        %[[U0:.*]] = arith.addi %[[COL]], %c256 : index
// EPI-NEXT:        %[[U1:.*]] = arith.addi %[[COL]], %c320 : index
// EPI:             nvgpu.tma.async.load %[[BMAP:.*]][%[[COL]], %[[BK:.*]]], {{.*}} : <tensor = memref<64x64xbf16
// EPI:             nvgpu.tma.async.load %[[BMAP]][%[[G1]], %[[BK]]]
// EPI:             nvgpu.tma.async.load %[[BMAP]][%[[U0]], %[[BK]]]
// EPI:             nvgpu.tma.async.load %[[BMAP]][%[[U1]], %[[BK]]]
// EPI:         nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
// EPI:         %[[ACC:.*]] = llvm.inline_asm has_side_effects "", "=f,
// EPI:         %[[GATE:.*]] = llvm.extractvalue %[[ACC]][0] : !llvm.struct
// EPI-NEXT:    %[[UP:.*]] = llvm.extractvalue %{{.*}}[64] : !llvm.struct
// EPI-NEXT:    arith.negf %[[GATE]] fastmath<arcp,contract,afn> : f32
// EPI:         llvm.extractvalue %{{.*}}[63] : !llvm.struct
// EPI-NEXT:    llvm.extractvalue %{{.*}}[127] : !llvm.struct
// EPI:         nvgpu.tma.async.store
// EPI-NOT:     nvgpu.tma.async.store
// EPI:         nvgpu.tma.async.store
// EPI-NEXT:    nvvm.cp.async.bulk.commit.group
func.func @wide_gated(%a: memref<1024x128xbf16>, %b: memref<2x128x512xbf16>, %n: memref<2xi32>, %c: memref<1024x256xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %neg = arith.negf %gate : f32
    %v = arith.mulf %neg, %up : f32
    moe.yield %v : f32
  } : memref<1024x128xbf16>, memref<2x128x512xbf16>, memref<2xi32> -> memref<1024x256xbf16>
  return
}

// -----

// gate|up halves, nk, F = 128, 64-row tiles: two K-major boxes of 128 rows
// (gate at g * 2F + colBegin, here colBegin = 0, up F rows further) stacked
// as one 256-row operand; an f32 output is staged and stored in one 128-column slab.
// 64-row tiles of 256 columns: 8 + 32 KiB a stage, 4 stages.
// EPI-LABEL: func.func @wide_gated_nk_f32
// EPI:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c2048_i64, %c128_i64, %c128_i32, %c64_i32
// EPI:       gpu.launch
// EPI:         nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// EPI:             nvgpu.tma.async.load {{.*}} : <tensor = memref<64x64xbf16
// EPI:             %[[GATEROW:.*]] = arith.muli %{{.*}}, %c256 : index
// EPI-NEXT:        %[[UPROW:.*]] = arith.addi %[[GATEROW]], %c128 : index
// EPI:             nvgpu.tma.async.load %[[BMAP:.*]][%{{.*}}, %[[GATEROW]]], {{.*}} : <tensor = memref<128x64xbf16
// EPI:             nvgpu.tma.async.load %[[BMAP]][%{{.*}}, %[[UPROW]]], {{.*}} : <tensor = memref<128x64xbf16
// EPI:         nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>, {{.*}} B[<bf16>, <one>, <col>]
// EPI-COUNT-32: vector.store %{{.*}} : memref<64x132xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// EPI-NOT:      vector.store %{{.*}} : memref<64x132xf32
// EPI:          vector.store %{{.*}} {alignment = 16 : i64} : memref<512x128xf32>, vector<4xf32>
// EPI-NOT:      nvgpu.tma.async.store
func.func @wide_gated_nk_f32(%a: memref<512x128xbf16>, %b: memref<8x256x128xbf16>, %n: memref<8xi32>, %c: memref<512x128xf32>) {
  moe.grouped_matmul %a, %b, %n outs(%c) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %v = arith.mulf %gate, %up : f32
    moe.yield %v : f32
  } {weight_layout = #moe<weight_layout nk>} : memref<512x128xbf16>, memref<8x256x128xbf16>, memref<8xi32> -> memref<512x128xf32>
  return
}

// -----

// A bf16 weight gradient with N = 256: tiles (group, m, n) 128 x 256, db
// TMA-stored as four 64 x 64 boxes a consumer; 3 stages of 48 KiB.
// CHECK-LABEL: func.func @wide_weight_grad
// EPI-LABEL:   func.func @wide_weight_grad
// CHECK:       gpu.launch
// CHECK:         nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK:         nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c49152 :
// CHECK:         nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>, {{.*}} A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
// CHECK-COUNT-4: nvgpu.tma.async.store
// CHECK-NOT:     nvgpu.tma.async.store
func.func @wide_weight_grad(%a: memref<512x256xbf16>, %dc: memref<512x256xbf16>, %n: memref<4xi32>, %db: memref<4x256x256xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<512x256xbf16>, memref<512x256xbf16>, memref<4xi32> -> memref<4x256x256xbf16>
  return
}

// -----

// N = 192 is not a multiple of 256: auto keeps 128-wide tiles (a 256-wide
// one would compute 64 masked columns of every row); block-n=256 takes it,
// the last column tile's boxes past N neither stored nor loaded beyond the
// tensor map (boxes 3 and 4 tested against N).
// CHECK-LABEL: func.func @n_192
// CHECK:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// CHECK-NOT:   n = 256
// FORCED-LABEL: func.func @n_192
// FORCED:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
// FORCED:       arith.cmpi ult, %{{.*}}, %c192{{[_0-9]*}} : index
// FORCED:       nvgpu.tma.async.store
// FORCED:       arith.cmpi ult, %{{.*}}, %c192{{[_0-9]*}} : index
// FORCED:       nvgpu.tma.async.store
func.func @n_192(%a: memref<256x128xbf16>, %b: memref<4x128x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x128xbf16>, memref<4x128x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// accumulate keeps 128-wide tiles under auto: the values of c it prefetches
// double with the tile (32 vectors of 4 a thread next to 128 accumulator
// registers), which ptxas spills (scripts/gemm-registers.sh).
// CHECK-LABEL: func.func @accumulate_wide_n
// CHECK:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// CHECK-NOT:   n = 256
// FORCED-LABEL: func.func @accumulate_wide_n
// FORCED:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
func.func @accumulate_wide_n(%a: memref<256x64xbf16>, %b: memref<4x256x64xbf16>, %n: memref<4xi32>, %c: memref<256x256xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x64xbf16>, memref<4x256x64xbf16>, memref<4xi32> -> memref<256x256xbf16>
  return
}

// -----

// auto: a grouped matmul with N <= 4096 keeps 128-wide tiles (qwen3-30b-a3b's
// N = 768 and 2048 were slower or no faster with 256 on an H100, and
// seed-test's and mixtral-8x7b's N = 4096 faster with 128-wide pingpong
// tiles on an H200); at N = 8192 it takes 256.
// CHECK-LABEL: func.func @auto_n2048
// CHECK:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// CHECK-NOT:   n = 256
// FORCED-LABEL: func.func @auto_n2048
// FORCED:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
func.func @auto_n2048(%a: memref<1024x128xbf16>, %b: memref<2x128x2048xbf16>, %n: memref<2xi32>, %c: memref<1024x2048xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x128xbf16>, memref<2x128x2048xbf16>, memref<2xi32> -> memref<1024x2048xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @auto_n4096
// CHECK:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// CHECK-NOT:   n = 256
func.func @auto_n4096(%a: memref<1024x128xbf16>, %b: memref<2x128x4096xbf16>, %n: memref<2xi32>, %c: memref<1024x4096xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x128xbf16>, memref<2x128x4096xbf16>, memref<2xi32> -> memref<1024x4096xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @auto_n8192
// CHECK:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
func.func @auto_n8192(%a: memref<1024x128xbf16>, %b: memref<2x128x8192xbf16>, %n: memref<2xi32>, %c: memref<1024x8192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x128xbf16>, memref<2x128x8192xbf16>, memref<2xi32> -> memref<1024x8192xbf16>
  return
}

// -----

// The other clauses of auto at N > 4096: N = 4160 is not a multiple of 256
// (a 256-wide tile would compute masked columns in every row), and an
// accumulating matmul keeps its prefetched c next to 64 accumulators: both
// stay 128 wide.
// CHECK-LABEL: func.func @auto_n4160
// CHECK:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// CHECK-NOT:   n = 256
func.func @auto_n4160(%a: memref<1024x128xbf16>, %b: memref<2x128x4160xbf16>, %n: memref<2xi32>, %c: memref<1024x4160xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x128xbf16>, memref<2x128x4160xbf16>, memref<2xi32> -> memref<1024x4160xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @auto_accumulate_n8192
// CHECK:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// CHECK-NOT:   n = 256
func.func @auto_accumulate_n8192(%a: memref<1024x128xbf16>, %b: memref<2x8192x128xbf16>, %n: memref<2xi32>, %c: memref<1024x8192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<1024x128xbf16>, memref<2x8192x128xbf16>, memref<2xi32> -> memref<1024x8192xbf16>
  return
}
