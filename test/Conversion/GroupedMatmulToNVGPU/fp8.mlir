// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=fp8-only | FileCheck %s --check-prefix=ONLY

// FP8 grouped matmuls get the generated kernel with FP8 wgmma (k = 32, both
// operands K-major): a kn weight is copied to [G, N, K] first, the operand
// tensor maps move bytes (element size 1, boxes 128 wide), c's stays bf16.
// Tensor-wise scales: the consumers multiply the accumulator by
// a_scale · b_scale.

// CHECK-LABEL: func.func @tensorwise_kn
// CHECK:       %[[T:.*]] = memref.alloc() : memref<4x192x128xf8E4M3FN>
// CHECK:       linalg.transpose ins(%{{.*}} : memref<4x128x192xf8E4M3FN>) outs(%[[T]] : memref<4x192x128xf8E4M3FN>) permutation = [0, 2, 1]
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64, %c128_i64, %c64_i32, %c128_i32, %c1_i32)
// CHECK:       memref.extract_aligned_pointer_as_index %[[T]]
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c768_i64, %c128_i64{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c1_i32{{[_0-9]*}})
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64{{[_0-9]*}}, %c192_i64, %c64_i32{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %c2_i32)
// CHECK:       gpu.launch
// CHECK:         %[[SA:.*]] = memref.load %arg3[] : memref<f32>
// CHECK:         %[[SB:.*]] = memref.load %arg4[] : memref<f32>
// CHECK:         %[[S:.*]] = arith.mulf %[[SA]], %[[SB]] : f32
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:         arith.mulf %{{.*}}, %[[S]] : f32
// CHECK:       memref.dealloc %[[T]]
func.func @tensorwise_kn(%a: memref<256x128xf8E4M3FN>, %b: memref<4x128x192xf8E4M3FN>, %n: memref<4xi32>, %sa: memref<f32>, %sb: memref<f32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n scales(%sa, %sb) outs(%c) : memref<256x128xf8E4M3FN>, memref<4x128x192xf8E4M3FN>, memref<4xi32>, memref<f32>, memref<f32> -> memref<256x192xbf16>
  return
}
// ONLY-LABEL: func.func @tensorwise_kn
// ONLY:       gpu.launch
// ONLY-NOT:   moe.grouped_matmul

// -----

// Block scales (e5m2 a gradient, e4m3 weight stored nk): every 128-wide
// k-step's product goes to fresh registers and is waited for (wait 0), then
// added to the sum times a_scale[row, k-step] · b_scale[group, n-block,
// k-step]; no transposed copy for nk.

// CHECK-LABEL: func.func @blockwise_nk_e5m2
// CHECK-NOT:   linalg.transpose
// CHECK:       gpu.launch
// CHECK:         scf.for
// CHECK:           memref.load %arg4[%{{.*}}, %{{.*}}, %{{.*}}] : memref<4x2x1xf32>
// CHECK:           memref.load %arg3[%{{.*}}, %{{.*}}] : memref<256x1xf32>
// CHECK:           nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e5m2>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           nvgpu.mbarrier.arrive
// CHECK-COUNT-64:  llvm.intr.fma
func.func @blockwise_nk_e5m2(%a: memref<256x128xf8E5M2>, %b: memref<4x192x128xf8E4M3FN>, %n: memref<4xi32>, %sa: memref<256x1xf32>, %sb: memref<4x2x1xf32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n scales(%sa, %sb) outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xf8E5M2>, memref<4x192x128xf8E4M3FN>, memref<4xi32>, memref<256x1xf32>, memref<4x2x1xf32> -> memref<256x192xbf16>
  return
}

// -----

// fp8-only: bf16 grouped matmuls are left
// for the runtime's cuBLASLt call.
// ONLY-LABEL: func.func @bf16_left_alone
// ONLY:       moe.grouped_matmul
// ONLY-NOT:   gpu.launch
func.func @bf16_left_alone(%a: memref<256x128xbf16>, %b: memref<4x128x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x128xbf16>, memref<4x128x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}
