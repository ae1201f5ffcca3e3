// convert-grouped-matmul-to-nvgpu{pingpong} (default on): a grouped matmul
// with 128 x 128 tiles and 4 or more k-steps runs whole tiles on each
// consumer warpgroup, the CTA's tiles alternating between the two (consumer
// w: tiles w, w + 2, ...), so that one stores while the other multiplies.
// Here K = 256 (4 k-steps).
// - A consumer's k-step count before its tile n is 4 for each earlier tile
//   of the CTA inside the groups: min(n, the CTA's group tiles) * 4.
// - The main loops take turns: a consumer waits on the other's named
//   barrier (4 + other) past the CTA's first tile, and arrives on its own
//   (4 + consumer, 256 threads) once its last wgmmas are issued, where the
//   CTA has a next tile.
// - Each k-step issues both 64-row blocks' wgmmas (two accumulators) as one
//   commit group. Every consumer thread releases the previous step's stage,
//   carried in the loop (the spare fifth empty barrier before the first):
//   a branch or a select on the step there makes ptxas serialize every
//   wgmma (C7520). The empty barriers count 128 arrivals.
// - The epilogue reads both accumulators into the consumer's bf16 boxes
//   before any branch, then stores each 64-row block by TMA where it is
//   whole, else row by row from the boxes.
// pingpong=false (moe-lower-to-gpu: gemm-pingpong=false) keeps both
// consumers on every tile, 64 rows each.
// tma-store=false (sanitizer builds: initcheck does not see TMA stores)
// keeps pingpong; threads store every block from the boxes.
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu --canonicalize | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=pingpong=false --canonicalize | FileCheck %s --check-prefix=OFF
// RUN: moe-opt %s -split-input-file --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated gemm-pingpong=false})' --mlir-print-ir-after=convert-grouped-matmul-to-nvgpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=tma-store=false --canonicalize | FileCheck %s --check-prefix=THREADS
// Every launch asks for at most the 232448 bytes of shared memory a CTA may
// have (the pair below once asked for 233472).
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu --canonicalize | %python -c "import re, sys; v = [int(x) for x in re.findall(r'dynamic_shared_memory_size %%c(\d+)_i32', sys.stdin.read())]; print(len(v), 'launches, over 232448:', sum(x > 232448 for x in v))" | FileCheck %s --check-prefix=SMEM
// SMEM: 5 launches, over 232448: 0

// CHECK-LABEL: func.func @matmul
// CHECK:         nvgpu.mbarrier.init %[[EMPTY:.*]][%c0], %c128, predicate = %{{.*}} : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 5>
// CHECK:         nvgpu.mbarrier.init %[[EMPTY]][%c4], %c128, predicate
// CHECK:         nvvm.setmaxregister  increase 232
// CHECK:         %[[CONSUMER:.*]] = arith.divui %thread_id_x, %c128 : index
// CHECK:         %[[CTATILES:.*]] = arith.ceildivui %{{.*}}, %c132 : index
// CHECK:         %[[GROUPTILES:.*]] = arith.ceildivui %{{.*}}, %c132 : index
// CHECK:         scf.for %[[N:.*]] = %[[CONSUMER]] to %[[CTATILES]] step %c2 {
// CHECK:           %[[BEFORE:.*]] = arith.minui %[[N]], %[[GROUPTILES]] : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.muli %[[BEFORE]], %c4 : index
// CHECK:           nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK:           %[[MAIN:.*]]:4 = scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[COUNT]], %[[RELEASE:.*]] = %c4) -> (!llvm.struct<(f32,
// CHECK:             nvgpu.mbarrier.try_wait.parity
// CHECK:             nvvm.wgmma.fence.aligned
// CHECK-COUNT-4:     nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// CHECK-NOT:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-4:     nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// CHECK-NEXT:        nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:        nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT:        nvgpu.mbarrier.arrive %[[EMPTY]][%[[RELEASE]]]
// CHECK:             scf.yield
// CHECK:           scf.if
// CHECK:             nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c256_i32
// After the last wait each accumulator passes an empty volatile asm that
// ties its registers (the epilogue's reads stay after the wait).
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           llvm.extractvalue %[[MAIN]]#0[0]
// CHECK:           %[[ACC0:.*]] = llvm.inline_asm has_side_effects "", "=f,
// CHECK:           llvm.extractvalue %[[MAIN]]#1[0]
// CHECK:           %[[ACC1:.*]] = llvm.inline_asm has_side_effects "", "=f,
// CHECK-NEXT:      nvgpu.mbarrier.arrive %[[EMPTY]][%[[MAIN]]#3]
// CHECK-NEXT:      nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NOT:       scf.if
// CHECK:           llvm.extractvalue %[[ACC0]][0]
// CHECK-NOT:       scf.if
// CHECK:           llvm.extractvalue %[[ACC1]][0]
// CHECK-NOT:       scf.if
// CHECK:           nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:           nvgpu.tma.async.store
// CHECK:           nvvm.cp.async.bulk.commit.group
// CHECK:           scf.for
// CHECK:             vector.load %{{.*}} : memref<128x64xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK:             vector.store %{{.*}} {alignment = 8 : i64} : memref<1024x384xbf16>, vector<4xbf16>
// THREADS-LABEL: func.func @matmul
// THREADS-COUNT-2: call @moert_entry_tensor_map_2d
// THREADS-NOT:     call @moert_entry_tensor_map_2d
// THREADS:         nvgpu.mbarrier.init %{{.*}}[%c4], %c128, predicate
// THREADS:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2 {
// THREADS-NOT:       nvvm.cp.async.bulk.wait_group
// THREADS:           nvvm.wgmma.wait.group.sync.aligned 0
// THREADS-NOT:       nvvm.fence.proxy
// THREADS-NOT:       nvgpu.tma.async.store
// THREADS:           vector.store %{{.*}} {alignment = 8 : i64} : memref<1024x384xbf16>, vector<4xbf16>
// THREADS:           vector.store %{{.*}} {alignment = 8 : i64} : memref<1024x384xbf16>, vector<4xbf16>
// THREADS-NOT:       nvgpu.tma.async.store
// THREADS-LABEL: func.func @short_k
// OFF-NOT:     num_barriers = 5
// OFF-NOT:     arith.ceildivui %{{.*}}, %c132 : index
// OFF:         nvvm.wgmma.mma_async
// OFF-NOT:     number_of_threads = %c256_i32
func.func @matmul(%a: memref<1024x256xbf16>, %b: memref<4x256x384xbf16>, %n: memref<4xi32>, %c: memref<1024x384xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x256xbf16>, memref<4x256x384xbf16>, memref<4xi32> -> memref<1024x384xbf16>
  return
}

// -----

// Three k-steps (K = 192): LLVM would unroll the main loop behind a test of
// its trip count, so both consumers share the tiles.
// CHECK-LABEL: func.func @short_k
// OFF-LABEL:   func.func @short_k
// CHECK-NOT:     num_barriers = 5
// CHECK:         nvvm.wgmma.mma_async
// CHECK-NOT:     number_of_threads = %c256_i32
func.func @short_k(%a: memref<1024x192xbf16>, %b: memref<4x192x384xbf16>, %n: memref<4xi32>, %c: memref<1024x384xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x192xbf16>, memref<4x192x384xbf16>, memref<4xi32> -> memref<1024x384xbf16>
  return
}

// -----

// An f32 output has no bf16 boxes to stage: both consumers share the tiles.
// CHECK-LABEL: func.func @f32_out
// CHECK-NOT:     num_barriers = 5
// CHECK:         nvvm.wgmma.mma_async
// CHECK-NOT:     number_of_threads = %c256_i32
func.func @f32_out(%a: memref<1024x256xbf16>, %b: memref<4x256x384xbf16>, %n: memref<4xi32>, %c: memref<1024x384xf32>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x256xbf16>, memref<4x256x384xbf16>, memref<4xi32> -> memref<1024x384xf32>
  return
}

// -----

// A product plus an accumulating one (one kernel, kSecond = 264) whose
// second K has a tail of an N-major weight: the pair is cooperative, and
// its pipeline is chosen for that layout (it once kept the stages chosen
// for pingpong's smaller epilogue: 233472 bytes with 4000 groups' scans).
// CHECK-LABEL: func.func @pair_tail
// CHECK-NOT:     num_barriers = 5
// CHECK:         gpu.launch
// CHECK-NOT:     gpu.launch
func.func @pair_tail(%a1: memref<512000x256xbf16>, %b1: memref<4000x256x2048xbf16>, %a2: memref<512000x264xbf16>, %b2: memref<4000x264x2048xbf16>, %n: memref<4000xi32>, %c: memref<512000x2048xbf16>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) : memref<512000x256xbf16>, memref<4000x256x2048xbf16>, memref<4000xi32> -> memref<512000x2048xbf16>
  moe.grouped_matmul %a2, %b2, %n outs(%c) {accumulate} : memref<512000x264xbf16>, memref<4000x264x2048xbf16>, memref<4000xi32> -> memref<512000x2048xbf16>
  return
}

// -----

// A bf16 weight gradient (RaggedDim::K) with 128 x 128 tiles: a tile's
// k-steps are its group's rows, known only at run time, so the k-step
// count is carried: consumer 1 starts after the CTA's first tile's steps,
// and each tile adds its own and the other consumer's next tile's. A
// k-step that brings rows of the next group has them zeroed by the tile's
// one consumer in the whole stage (both of A's boxes, every B box), fenced
// and synchronized among its own 128 threads (the consumer's named
// barrier, 1 + consumer).
// The CTA's first tile (blockId, at most the last of 4 x 2 x 3 tiles)
// gives consumer 1 its first count; tile n + 1 the other's next steps.
// CHECK-LABEL: func.func @weight_grad
// CHECK:         nvgpu.mbarrier.init %{{.*}}[%c4], %c128, predicate
// CHECK:         %[[CONSUMER:.*]] = arith.divui %thread_id_x, %c128 : index
// CHECK:         %[[SECOND:.*]] = arith.cmpi eq, %[[CONSUMER]], %c1 : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.minui %block_id_x, %c23 : index
// CHECK-NEXT:    arith.minui %[[FIRST]], %c23 : index
// CHECK:         arith.divui %{{.*}}, %c6 : index
// CHECK:         %[[FIRSTSTEPS:.*]] = arith.select %{{.*}}, %c0, %{{.*}} : index
// CHECK-NEXT:    %[[INIT:.*]] = arith.select %[[SECOND]], %[[FIRSTSTEPS]], %c0 : index
// CHECK:         scf.for %[[N:.*]] = %[[CONSUMER]] to %{{.*}} step %c2 iter_args(%[[COUNT:.*]] = %[[INIT]]) -> (index) {
// CHECK:           %[[STEPS:.*]] = arith.select %{{.*}}, %c0, %{{.*}} : index
// CHECK:           nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// CHECK:           %[[NEXTN:.*]] = arith.addi %[[N]], %c1 : index
// CHECK-NEXT:      arith.cmpi ult, %[[NEXTN]], %{{.*}} : index
// CHECK-NEXT:      %[[NEXTOFFSET:.*]] = arith.muli %[[NEXTN]], %c132 : index
// CHECK-NEXT:      %[[NEXTTILE:.*]] = arith.addi %block_id_x, %[[NEXTOFFSET]] : index
// CHECK-NEXT:      arith.minui %[[NEXTTILE]], %c23 : index
// CHECK:           %[[OTHERSTEPS:.*]] = arith.select %{{.*}}, %c0, %{{.*}} : index
// CHECK:           scf.for %{{.*}} = %c0 to %[[STEPS]] step %c1 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[COUNT]], %{{.*}} = %c4)
// CHECK:             nvgpu.mbarrier.try_wait.parity
// CHECK:             scf.if
// CHECK-COUNT-4:       vector.store %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:               nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:          %[[ID0:.*]] = arith.index_cast %[[CONSUMER]] : index to i32
// CHECK-NEXT:          %[[ID:.*]] = arith.addi %[[ID0]], %c1_i32 : i32
// CHECK-NEXT:          nvvm.barrier id = %[[ID]] number_of_threads = %c128_i32
// CHECK:             nvvm.wgmma.fence.aligned
// CHECK-COUNT-8:     nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// CHECK:             nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c256_i32
// CHECK:           %[[BOTH:.*]] = arith.addi %[[STEPS]], %[[OTHERSTEPS]] : index
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[COUNT]], %[[BOTH]] : index
// CHECK-NEXT:      scf.yield %[[NEXT]] : index
// Without pingpong both consumers release each stage (2 arrivals).
// OFF-LABEL:   func.func @weight_grad
// OFF:         nvgpu.mbarrier.init %{{.*}}[%c0{{(_[0-9]+)?}}], %c2{{(_[0-9]+)?}}, predicate
// OFF:         nvvm.wgmma.mma_async
// OFF-NOT:     number_of_threads = %c256_i32
func.func @weight_grad(%a: memref<1024x256xbf16>, %dc: memref<1024x384xbf16>, %n: memref<4xi32>, %db: memref<4x256x384xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<1024x256xbf16>, memref<1024x384xbf16>, memref<4xi32> -> memref<4x256x384xbf16>
  return
}
