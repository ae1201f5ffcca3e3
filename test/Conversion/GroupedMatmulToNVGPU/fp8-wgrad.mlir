// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=fp8-only | FileCheck %s --check-prefix=ONLY
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=racecheck-layout=true | FileCheck %s --check-prefix=RACE
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=paired-promotion=false | FileCheck %s --check-prefix=SINGLE

// Weight gradients on transposed operands (a [Kd, R], dc [N, R]: the
// reduction contiguous, both K-major): the tensor maps view them as [M, R]
// and [N, R] with boxes of 128 bytes of R. A group's k-steps cover whole
// 128-row blocks of R from row 0 (the blocks of the scales); in a step that
// starts before the group or runs past it, the bytes outside the group are
// zeroed in shared memory (16-byte chunks at their swizzled place, selected
// by position). With block scales that is the producer warpgroup's other
// three warps' work (96 threads): such a step's loads complete on its stage's
// "loaded" barrier (full barriers 5 to 9 of 5 stages), the zeroing threads
// wait there, zero all of A's and B's rows of the stage, fence them for the
// async proxy, synchronize (named barrier 6) and one of them completes the
// stage's full barrier, on which the consumers wait as for any step; they
// zero nothing themselves. The zeroing threads visit only a tile's first and
// last k-step, and count each stage's loaded phases in a bit of an i32.
// A thread always visits the same logical chunk of a row: it computes what
// it keeps of it once (a 4-word byte mask), skips its chunks when that is
// all, stores zeros when nothing, else reads, masks and stores each.
// Block scales, copied to [R/128, Kd] and [R/128, N] first: per k-step the
// producer copies the step's scales of the tile's rows and columns into the
// stage (two bulk copies, whose bytes the step's barrier expects with the
// two TMA boxes'); each consumer thread reads the a scales of its two rows
// and the dc scales of its 32 columns there (16 pairs, 8 bytes a load),
// then 64 promotions. Every consumer thread (256) releases the stage after
// its reads, not one a warpgroup.

// CHECK-LABEL: func.func @blockwise_kn
// CHECK:       %[[SA:.*]] = memref.alloc() : memref<4x128xf32>
// CHECK:       linalg.transpose ins(%arg3 : memref<128x4xf32>) outs(%[[SA]] : memref<4x128xf32>) permutation = [1, 0]
// CHECK:       %[[SD:.*]] = memref.alloc() : memref<4x256xf32>
// CHECK:       linalg.transpose ins(%arg4 : memref<256x4xf32>) outs(%[[SD]] : memref<4x256xf32>) permutation = [1, 0]
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c128_i64, %c512_i64, %c128_i32, %c128_i32{{[_0-9]*}}, %c1_i32)
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64, %c512_i64{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c1_i32{{[_0-9]*}})
// CHECK:       gpu.launch {{.*}} dynamic_shared_memory_size %c207360_i32
// CHECK:         %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
// CHECK:         %[[MOD:.*]] = arith.remui %[[BASE]], %c1024
// CHECK:         %[[GAP:.*]] = arith.subi %c1024{{.*}}, %[[MOD]]
// CHECK:         %[[PAD:.*]] = arith.remui %[[GAP]], %c1024
// CHECK-NOT:     arith.addi %[[PAD]], %c1024
// CHECK:         %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 10>
// CHECK:         nvgpu.mbarrier.init %[[FULL]][%c9], %c1
// CHECK:         nvgpu.mbarrier.init %[[EMPTY:.*]][%{{.*}}], %c256
// CHECK:         nvvm.setmaxregister  decrease 40
// CHECK:         scf.for
// CHECK:           nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// CHECK:           %[[AN:.*]] = arith.minui %c128{{.*}}, %{{.*}} : index
// CHECK:           %[[AB:.*]] = arith.muli %[[AN]], %c4{{.*}} : index
// CHECK:           %[[BN:.*]] = arith.minui %c128{{.*}}, %{{.*}} : index
// CHECK:           %[[BB:.*]] = arith.muli %[[BN]], %c4{{.*}} : index
// CHECK:           %[[SB:.*]] = arith.addi %[[AB]], %[[BB]] : index
// CHECK:           %[[TX:.*]] = arith.addi %c32768, %[[SB]] : index
// CHECK:           %[[PARTIAL:.*]] = arith.ori %{{.*}}, %{{.*}} : i1
// CHECK:           %[[LOADED:.*]] = arith.addi %[[STAGE:.*]], %c5{{.*}} : index
// CHECK:           %[[BARRIER:.*]] = arith.select %[[PARTIAL]], %[[LOADED]], %[[STAGE]] : index
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[BARRIER]]], %[[TX]]
// CHECK:           %[[BAR:.*]] = nvgpu.mbarrier.get %[[FULL]][%[[BARRIER]]]
// CHECK:           memref.extract_aligned_pointer_as_index %[[SA]] : memref<4x128xf32> -> index
// CHECK:           %[[MBAR:.*]] = llvm.inttoptr %[[BAR]] : i32 to !llvm.ptr<3>
// CHECK:           nvvm.cp.async.bulk.shared.cluster.global %{{.*}}, %{{.*}}, %[[MBAR]], %{{.*}} : !llvm.ptr<7>, <1>
// CHECK:           memref.extract_aligned_pointer_as_index %[[SD]] : memref<4x256xf32> -> index
// CHECK:           nvvm.cp.async.bulk.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr<7>, <1>
// CHECK-COUNT-2:   nvgpu.tma.async.load %{{.*}}, %[[FULL]][%[[BARRIER]]]
// The zeroing threads: per tile, a loop over its first and its last k-step,
// one loop over A's 128 rows and B's 128 rows (2048 chunks, 96 threads).
// CHECK:         scf.for {{.*}} -> (index, i32) {
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args(%{{.*}}) -> (i32) {
// CHECK:             scf.if
// CHECK:               nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK-COUNT-8:       arith.shli %{{.*}}, %{{.*}} : i32
// CHECK:               %[[MASK:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:               scf.if
// CHECK:                 scf.for %{{.*}} = %{{.*}} to %c2048{{.*}} step %c96
// CHECK:                   arith.xori
// CHECK:                   scf.if
// CHECK:                     vector.store %{{.*}} : memref<40960xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// CHECK:                   } else {
// CHECK:                     %[[WORDS:.*]] = vector.load %{{.*}} : memref<40960xi32, #gpu.address_space<workgroup>>, vector<4xi32>
// CHECK:                     %[[KEPT:.*]] = arith.andi %[[WORDS]], %[[MASK]] : vector<4xi32>
// CHECK:                     vector.store %[[KEPT]]
// CHECK:               nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:               nvvm.barrier id = %c6_i32 number_of_threads = %c96_i32
// CHECK:               nvgpu.mbarrier.arrive %[[FULL]]
// CHECK:             scf.yield %{{.*}} : i32
// CHECK:           scf.yield %{{.*}}, %{{.*}} : index, i32
// The consumers, two k-steps a pass (paired promotion): both steps' wgmmas
// are issued, each into its own product (an undef accumulator whose first
// wgmma overwrites it, scale-d zero), before the first is waited for (wait
// group 1); the first is promoted while the second runs: the rows' two
// scales, then each column pair's (an 8-byte load) as its four products
// need it. An odd last step is paired with itself: the second wait is on
// the same stage (its full barrier already complete), the first step's
// stage is released only where a second step exists, and the second
// promotion's sums are selected on that.
// CHECK:         nvvm.setmaxregister  increase 232
// CHECK:         scf.for
// CHECK:           %[[PAIRS:.*]] = arith.ceildivui %{{.*}}, %c2{{.*}} : index
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %[[PAIRS]] step %c1{{.*}} iter_args(
// CHECK-NOT:         memref.load %[[SA]]
// CHECK:             %[[SECOND:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK:             arith.select %[[SECOND]], %{{.*}}, %{{.*}} : index
// CHECK:             %[[SECOND_STEP:.*]] = arith.select %[[SECOND]], %{{.*}}, %{{.*}} : index
// CHECK:             nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK-NOT:         vector.store
// CHECK-NOT:         nvvm.barrier
// CHECK:             nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK-COUNT-3:     nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK:             nvvm.wgmma.commit.group.sync.aligned
// CHECK:             arith.remui %[[SECOND_STEP]], %c5
// CHECK:             nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK:             nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK-COUNT-3:     nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// CHECK:             nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:        nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:             llvm.inline_asm has_side_effects "", "=f,
// CHECK-COUNT-2:     memref.load %{{.*}}[%{{.*}}] : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK:             vector.load %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<256xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-COUNT-4:     llvm.intr.fma
// CHECK:             vector.load %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<256xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK-NOT:         nvvm.wgmma.wait.group
// CHECK:             scf.if %[[SECOND]] {
// CHECK:               arith.remui
// CHECK-NEXT:          nvgpu.mbarrier.arrive %[[EMPTY]]
// CHECK-NEXT:        }
// CHECK:             nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:             llvm.inline_asm has_side_effects "", "=f,
// CHECK-COUNT-2:     memref.load %{{.*}}[%{{.*}}] : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK:             %[[FMA:.*]] = llvm.intr.fma
// CHECK-NEXT:        arith.select %[[SECOND]], %[[FMA]], %{{.*}} : f32
// CHECK-NOT:         scf.if
// CHECK:             nvgpu.mbarrier.arrive %[[EMPTY]]
// CHECK:             scf.yield
// CHECK:       memref.dealloc %[[SA]]
// CHECK:       memref.dealloc %[[SD]]
func.func @blockwise_kn(%a: memref<128x512xf8E4M3FN>, %dc: memref<256x512xf8E5M2>, %n: memref<4xi32>, %sa: memref<128x4xf32>, %sd: memref<256x4xf32>, %db: memref<4x128x256xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n scales(%sa, %sd) outs(%db) {transposed_operands} : memref<128x512xf8E4M3FN>, memref<256x512xf8E5M2>, memref<4xi32>, memref<128x4xf32>, memref<256x4xf32> -> memref<4x128x256xbf16>
  return
}
// paired-promotion=false: one k-step at a time, each product waited for
// (wait group 0) and promoted before the next step is issued.
// SINGLE-LABEL: func.func @blockwise_kn
// SINGLE:       %[[SA:.*]] = memref.alloc() : memref<4x128xf32>
// SINGLE:       %[[SD:.*]] = memref.alloc() : memref<4x256xf32>
// SINGLE:       %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 10>
// SINGLE:       nvgpu.mbarrier.init %[[EMPTY:.*]][%{{.*}}], %c256
// SINGLE:         nvvm.setmaxregister  increase 232
// SINGLE:         scf.for
// SINGLE-NOT:       memref.load %[[SA]]
// SINGLE-NOT:       vector.load %[[SD]]
// SINGLE:           nvgpu.mbarrier.try_wait.parity %[[FULL]]
// SINGLE-NOT:       vector.store
// SINGLE-NOT:       nvvm.barrier
// SINGLE-COUNT-2:   memref.load %{{.*}}[%{{.*}}] : memref<256xf32, #gpu.address_space<workgroup>>
// SINGLE-COUNT-16:  vector.load %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<256xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// Each step's product starts from nothing: its first wgmma overwrites the
// registers (scale-d zero, D[<f32>, <zero>]) of an undef accumulator, the
// other three add; the product is fenced (an empty volatile asm tying every
// register) after the wait, before the promotion reads it.
// SINGLE:           nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// SINGLE-COUNT-3:   nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>]
// SINGLE:           nvvm.wgmma.wait.group.sync.aligned 0
// SINGLE:           llvm.inline_asm has_side_effects "", "=f,
// SINGLE-NOT:       scf.if
// SINGLE:           nvgpu.mbarrier.arrive %[[EMPTY]]
// SINGLE-COUNT-64:  llvm.intr.fma
// SINGLE:       memref.dealloc %[[SA]]
// SINGLE:       memref.dealloc %[[SD]]
// racecheck-layout: the stages start 1 KB further up (the pad to the
// 1024-byte boundary plus 1024), and the kernel asks for 1 KB more.
// RACE-LABEL: func.func @blockwise_kn
// RACE:       gpu.launch {{.*}} dynamic_shared_memory_size %c208384_i32
// RACE:         %[[MOD:.*]] = arith.remui %{{.*}}, %c1024
// RACE:         %[[GAP:.*]] = arith.subi %c1024{{.*}}, %[[MOD]]
// RACE:         %[[PAD:.*]] = arith.remui %[[GAP]], %c1024
// RACE:         arith.addi %[[PAD]], %c1024{{.*}} : index
// ONLY-LABEL: func.func @blockwise_kn
// ONLY:       gpu.launch
// ONLY-NOT:   moe.grouped_weight_grad

// -----

// Kd = 192: 64-row tiles, one consumer warpgroup, whose 128 threads release
// each stage; N = 200: the copy of b_scale's slice is clipped at N (the
// last n-tile has 72 columns).

// CHECK-LABEL: func.func @blockwise_m192_n200
// CHECK:       gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c256
// CHECK:         nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %c128
// CHECK:         scf.for
// CHECK:           nvgpu.mbarrier.try_wait.parity
// CHECK:           arith.minui %c64{{.*}}, %{{.*}} : index
// CHECK:           %[[LEFT:.*]] = arith.subi %c200{{.*}}, %{{.*}} : index
// CHECK:           arith.minui %c128{{.*}}, %[[LEFT]] : index
// CHECK:           nvgpu.mbarrier.arrive.expect_tx
// CHECK-COUNT-2:   nvvm.cp.async.bulk.shared.cluster.global
// CHECK-COUNT-2:   memref.load %{{.*}}[%{{.*}}] : memref<192xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-16:  vector.load %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<192xf32, #gpu.address_space<workgroup>>, vector<2xf32>
func.func @blockwise_m192_n200(%a: memref<192x512xf8E4M3FN>, %dc: memref<200x512xf8E5M2>, %n: memref<4xi32>, %sa: memref<192x4xf32>, %sd: memref<200x4xf32>, %db: memref<4x192x200xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n scales(%sa, %sd) outs(%db) {transposed_operands} : memref<192x512xf8E4M3FN>, memref<200x512xf8E5M2>, memref<4xi32>, memref<192x4xf32>, memref<200x4xf32> -> memref<4x192x200xbf16>
  return
}

// -----

// Tensor-wise scales, weight layout nk: the kernel's A is dc ([N, R], N the
// rows of db [G, N, Kd]) and B is a; the epilogue multiplies by
// a_scale · dc_scale.

// CHECK-LABEL: func.func @tensorwise_nk
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c192_i64, %c256_i64, %c64_i32, %c128_i32{{[_0-9]*}}, %c1_i32)
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c128_i64, %c256_i64{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c1_i32{{[_0-9]*}})
// CHECK:       gpu.launch
// CHECK:         %[[SA:.*]] = memref.load %arg4[] : memref<f32>
// CHECK:         %[[SB:.*]] = memref.load %arg3[] : memref<f32>
// CHECK:         %[[S:.*]] = arith.mulf %[[SA]], %[[SB]] : f32
// CHECK:         arith.andi %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e5m2>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:         arith.mulf %{{.*}}, %[[S]] : f32
func.func @tensorwise_nk(%a: memref<128x256xf8E4M3FN>, %dc: memref<192x256xf8E5M2>, %n: memref<4xi32>, %sa: memref<f32>, %sd: memref<f32>, %db: memref<4x192x128xf32>) {
  moe.grouped_weight_grad %a, %dc, %n scales(%sa, %sd) outs(%db) {transposed_operands, weight_layout = #moe<weight_layout nk>} : memref<128x256xf8E4M3FN>, memref<192x256xf8E5M2>, memref<4xi32>, memref<f32>, memref<f32> -> memref<4x192x128xf32>
  return
}

// -----

// bf16 operands stored transposed: K-major bf16 (k16 steps, 64 of R a
// k-step), the same column masking; fp8-only leaves them to the runtime.

// CHECK-LABEL: func.func @bf16_transposed
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c128_i64, %c512_i64, %c128_i32, %c64_i32{{[_0-9]*}}, %c2_i32)
// CHECK:       gpu.launch
// CHECK:         arith.andi %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK:         nvvm.wgmma.mma_async {{.*}} <m = 64, n = {{128|256}}, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// ONLY-LABEL: func.func @bf16_transposed
// ONLY:       moe.grouped_weight_grad
// ONLY-NOT:   gpu.launch
func.func @bf16_transposed(%a: memref<128x512xbf16>, %dc: memref<256x512xbf16>, %n: memref<4xi32>, %db: memref<4x128x256xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) {transposed_operands} : memref<128x512xbf16>, memref<256x512xbf16>, memref<4xi32> -> memref<4x128x256xbf16>
  return
}
