// convert-grouped-matmul-to-nvgpu{max-stages}: the pipeline depth is capped
// (one full and one empty mbarrier a stage, one TMA stage buffer each);
// without it the kernel takes as many stages as shared memory holds: 7 for
// 64 x 128 tiles with K = 128 (kernel.mlir). compute-sanitizer's memcheck
// runs on 3-stage builds (scripts/gpu-sanitize.sh). Under block-n=auto a
// weight gradient takes 256-wide tiles only where 3 stages fit: capped at 2
// it stays 128 wide.
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu | FileCheck %s --check-prefix=DEEP
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=max-stages=3 | FileCheck %s --check-prefix=THREE
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=max-stages=2 | FileCheck %s --check-prefix=TWO
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated gemm-max-stages=3 gemm-block-n=128})' --mlir-print-ir-after=convert-grouped-matmul-to-nvgpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE

// DEEP-LABEL:  func.func @matmul
// DEEP:        nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 7>
// THREE-LABEL: func.func @matmul
// THREE:       nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// TWO-LABEL:   func.func @matmul
// TWO:         nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// PIPELINE:    nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
func.func @matmul(%a: memref<256x128xbf16>, %b: memref<4x128x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x128xbf16>, memref<4x128x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// THREE-LABEL: func.func @weight_grad
// THREE:       nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 256, k = 16>
// TWO-LABEL:   func.func @weight_grad
// TWO:         nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// TWO:         nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>
// TWO-NOT:     n = 256
func.func @weight_grad(%a: memref<512x256xbf16>, %dc: memref<512x256xbf16>, %n: memref<4xi32>, %db: memref<4x256x256xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<512x256xbf16>, memref<512x256xbf16>, memref<4xi32> -> memref<4x256x256xbf16>
  return
}
