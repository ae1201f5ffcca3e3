// Transposes through the whole GPU pipeline
// (convert-linalg-transpose-to-tiles, then gpu-launch-top-level-loops and
// gpu-align-workgroup-buffers): [256, 512] bf16 -> [512, 256] as 4 · 8 = 32
// blocks of 256 threads over 64 x 64 tiles in a 16-byte aligned shared
// buffer, 16-byte global loads and stores, a barrier between the phases;
// batched FP8 [2, 128, 384] -> [2, 384, 128] as 2 · 3 = 6 blocks over
// 128 x 128 tiles. The kernels are named after the transpose. With
// tiled-transposes=0, one thread per element (2-byte accesses, no shared
// memory).
// REQUIRES: ptxas

// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' | FileCheck %s
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=PTX
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path tiled-transposes=0})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.off.mlir
// RUN: moe-opt %t.off.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=OFF-PTX

// CHECK-LABEL: llvm.func @transposes(
// CHECK-DAG:   %[[C6:.*]] = llvm.mlir.constant(6 : index) : i64
// CHECK-DAG:   %[[C32:.*]] = llvm.mlir.constant(32 : index) : i64
// CHECK-DAG:   %[[C256:.*]] = llvm.mlir.constant(256 : index) : i64
// CHECK-DAG:   %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK:       gpu.launch_func <%{{.*}}> @transposes_0_transpose::@transposes_0_transpose blocks in (%[[C32]], %[[ONE]], %[[ONE]]) threads in (%[[C256]], %[[ONE]], %[[ONE]])
// CHECK:       gpu.launch_func <%{{.*}}> @transposes_1_transpose::@transposes_1_transpose blocks in (%[[C6]], %[[ONE]], %[[ONE]]) threads in (%[[C256]], %[[ONE]], %[[ONE]])

// PTX:     gpu.binary @transposes_0_transpose {{.*}}.maxntid 256, 1, 1{{.*}}.shared .align 16 .b8 {{[A-Za-z0-9_]+}}[8192];{{.*}}ld.global.v4.b32{{.*}}st.shared.v4.b32{{.*}}bar.sync{{.*}}ld.shared.b16{{.*}}st.global.v4.b32
// PTX:     gpu.binary @transposes_1_transpose {{.*}}.shared .align 16 .b8 {{[A-Za-z0-9_]+}}[16384];{{.*}}ld.global.v4.b32{{.*}}st.shared.v4.b32{{.*}}bar.sync{{.*}}ld.shared.b8{{.*}}st.global.v4.b32

// OFF-PTX:      gpu.binary @transposes_0_transpose
// OFF-PTX-NOT:  .shared
// OFF-PTX-SAME: ld.global.b16
// OFF-PTX:      gpu.binary @transposes_1_transpose
// OFF-PTX-NOT:  .shared
// OFF-PTX-SAME: ld.global.b8
func.func @transposes(%x: memref<256x512xbf16>, %y: memref<512x256xbf16>,
                      %w: memref<2x128x384xf8E4M3FN>, %wt: memref<2x384x128xf8E4M3FN>) {
  linalg.transpose ins(%x : memref<256x512xbf16>) outs(%y : memref<512x256xbf16>) permutation = [1, 0]
  linalg.transpose ins(%w : memref<2x128x384xf8E4M3FN>) outs(%wt : memref<2x384x128xf8E4M3FN>) permutation = [0, 2, 1]
  return
}
