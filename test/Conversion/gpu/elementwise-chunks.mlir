// Elementwise linalg ops through the whole GPU pipeline
// (convert-elementwise-linalg-to-vector-rows): the bf16 sum of two
// [64, 1024] buffers as a block per row (1024 / 8 = 128 threads, a 16-byte
// ld.global.v4.b32 per input and st.global.v4.b32 per thread), the bf16 →
// f32 widening of [32, 256] as one thread per 8 elements (32 · 32 = 1024
// threads: 4 blocks of 256; one 16-byte load, two 16-byte stores). With
// vector-elementwise=0, one thread per element and 2-byte accesses.
// REQUIRES: ptxas

// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' | FileCheck %s
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=PTX
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path vector-elementwise=0})' | FileCheck %s --check-prefix=OFF
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path vector-elementwise=0})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.off.mlir
// RUN: moe-opt %t.off.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=OFF-PTX

// CHECK-LABEL: llvm.func @chunks(
// CHECK-DAG:   %[[C4:.*]] = llvm.mlir.constant(4 : index) : i64
// CHECK-DAG:   %[[C64:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK-DAG:   %[[C128:.*]] = llvm.mlir.constant(128 : index) : i64
// CHECK-DAG:   %[[C256:.*]] = llvm.mlir.constant(256 : index) : i64
// CHECK-DAG:   %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK:       gpu.launch_func <%{{.*}}> @chunks_0_elementwise::@chunks_0_elementwise blocks in (%[[C64]], %[[ONE]], %[[ONE]]) threads in (%[[C128]], %[[ONE]], %[[ONE]])
// CHECK:       gpu.launch_func <%{{.*}}> @chunks_1_elementwise::@chunks_1_elementwise blocks in (%[[C4]], %[[ONE]], %[[ONE]]) threads in (%[[C256]], %[[ONE]], %[[ONE]])

// PTX:     gpu.binary @chunks_0_elementwise {{.*}}.maxntid 128, 1, 1{{.*}}ld.global.v4.b32{{.*}}ld.global.v4.b32{{.*}}st.global.v4.b32
// PTX:     gpu.binary @chunks_1_elementwise {{.*}}ld.global.v4.b32{{.*}}st.global.v4.{{[bf]}}32{{.*}}st.global.v4.{{[bf]}}32

// 64 · 1024 and 32 · 256 threads, one per element, in blocks of 256.
// OFF-LABEL: llvm.func @chunks(
// OFF-DAG:   %[[C256:.*]] = llvm.mlir.constant(256 : index) : i64
// OFF-DAG:   %[[C32:.*]] = llvm.mlir.constant(32 : index) : i64
// OFF-DAG:   %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// OFF:       gpu.launch_func <%{{.*}}> @chunks_0_elementwise::@chunks_0_elementwise blocks in (%[[C256]], %[[ONE]], %[[ONE]]) threads in (%[[C256]], %[[ONE]], %[[ONE]])
// OFF:       gpu.launch_func <%{{.*}}> @chunks_1_elementwise::@chunks_1_elementwise blocks in (%[[C32]], %[[ONE]], %[[ONE]]) threads in (%[[C256]], %[[ONE]], %[[ONE]])
// OFF-PTX:     gpu.binary @chunks_0_elementwise
// OFF-PTX-NOT: v4.b32
// OFF-PTX-SAME: ld.global.b16
// OFF-PTX-NOT: v4.b32
// OFF-PTX:     gpu.binary @chunks_1_elementwise
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chunks(%a: tensor<64x1024xbf16>, %b: tensor<64x1024xbf16>, %x: tensor<32x256xbf16>)
    -> (tensor<64x1024xbf16>, tensor<32x256xf32>) {
  %e0 = tensor.empty() : tensor<64x1024xbf16>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<64x1024xbf16>, tensor<64x1024xbf16>) outs(%e0 : tensor<64x1024xbf16>) {
  ^bb0(%p: bf16, %q: bf16, %o: bf16):
    %s = arith.addf %p, %q : bf16
    linalg.yield %s : bf16
  } -> tensor<64x1024xbf16>
  %e1 = tensor.empty() : tensor<32x256xf32>
  %wide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<32x256xbf16>) outs(%e1 : tensor<32x256xf32>) {
  ^bb0(%v: bf16, %o: f32):
    %f = arith.extf %v : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<32x256xf32>
  return %sum, %wide : tensor<64x1024xbf16>, tensor<32x256xf32>
}
