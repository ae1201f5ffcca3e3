// The bandwidth-bound ops as block-per-row kernels through the whole GPU
// pipeline: permute's row copies (T = 64 tokens of H = 1024 bf16, top-2),
// combine, glu (F = 512): a block per row, a thread per 8 columns
// (1024 / 8 = 128 threads; glu 512 / 8 = 64), every row access one 16-byte
// ld.global.v4.b32 / st.global.v4.b32.
// REQUIRES: ptxas

// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' | FileCheck %s
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=PTX

// Launch shapes: tokens × 128 (the copy to the pairs' rows), rows / 128 ×
// 128 (a warp per 32 rows: each lane tests whether a pair landed on its
// row, the warp zeroes those where none did),
// tokens × 128 (combine), rows × 64 (glu).
// CHECK-LABEL: llvm.func @rows(
// CHECK-DAG:   %[[C64:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK-DAG:   %[[C128:.*]] = llvm.mlir.constant(128 : index) : i64
// CHECK-DAG:   %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK:       gpu.launch_func <%{{.*}}> @rows_7_permute::@rows_7_permute blocks in (%[[C64]], %[[ONE]], %[[ONE]]) threads in (%[[C128]], %[[ONE]], %[[ONE]])
// CHECK:       gpu.launch_func <%{{.*}}> @rows_8_permute::@rows_8_permute blocks in (%[[ONE]], %[[ONE]], %[[ONE]]) threads in (%[[C128]], %[[ONE]], %[[ONE]])
// CHECK:       gpu.launch_func <%{{.*}}> @rows_9_combine::@rows_9_combine blocks in (%[[C64]], %[[ONE]], %[[ONE]]) threads in (%[[C128]], %[[ONE]], %[[ONE]])
// CHECK:       gpu.launch_func <%{{.*}}> @rows_10_glu::@rows_10_glu blocks in (%[[C128]], %[[ONE]], %[[ONE]]) threads in (%[[C64]], %[[ONE]], %[[ONE]])

// PTX:     gpu.binary @rows_7_permute {{.*}}.maxntid 128, 1, 1{{.*}}ld.global.v4.b32{{.*}}st.global.v4.b32
// PTX:     gpu.binary @rows_8_permute {{.*}}.maxntid 128, 1, 1{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*}}st.global.v4.b32
// PTX:     gpu.binary @rows_9_combine {{.*}}.maxntid 128, 1, 1{{.*}}ld.global.v4.b32{{.*}}st.global.v4.b32
// PTX:     gpu.binary @rows_10_glu {{.*}}.maxntid 64, 1, 1{{.*}}ld.global.v4.b32{{.*}}ld.global.v4.b32{{.*}}st.global.v4.b32
func.func @rows(%x: tensor<64x1024xbf16>, %idx: tensor<64x2xi32>, %w: tensor<64x2xf32>,
                %gu: tensor<128x1024xbf16>) -> (tensor<64x1024xbf16>, tensor<128x512xbf16>) {
  %p0 = tensor.empty() : tensor<128x1024xbf16>
  %s0 = tensor.empty() : tensor<4xi32>
  %r0 = tensor.empty() : tensor<64x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %idx experts 4 align 1 outs(%p0, %s0, %r0)
      : tensor<64x1024xbf16>, tensor<64x2xi32> -> tensor<128x1024xbf16>, tensor<4xi32>, tensor<64x2xi32>
  %o0 = tensor.empty() : tensor<64x1024xbf16>
  %out = moe.combine %xs, %rows, %w outs(%o0) : tensor<128x1024xbf16>, tensor<64x2xi32>, tensor<64x2xf32> -> tensor<64x1024xbf16>
  %h0 = tensor.empty() : tensor<128x512xbf16>
  %h = moe.glu silu %gu outs(%h0) : tensor<128x1024xbf16> -> tensor<128x512xbf16>
  return %out, %h : tensor<64x1024xbf16>, tensor<128x512xbf16>
}
