// moe.combine_grad's dy through the whole GPU pipeline (T = 64 tokens of
// H = 1024 bf16, top-2, R = 256 rows): after the dweights and the per-row
// pair counts, a block per token (a thread per 8 columns: 128 threads) reads
// its dout vector once with a 16-byte ld.global.v4.b32 and stores it,
// scaled, to its pairs' rows with st.global.v4.b32; then a warp per 32 rows
// (4 warps a block; each lane tests one row) writes the rows no single pair
// names (zero, or the sum over every pair naming them), its lanes 8 columns
// apart by 32 · 8.
// REQUIRES: ptxas

// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' | FileCheck %s
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=PTX

func.func @combine_grad(%dout: tensor<64x1024xbf16>, %y: tensor<256x1024xbf16>, %rows: tensor<64x2xi32>,
                        %w: tensor<64x2xf32>) -> (tensor<256x1024xbf16>, tensor<64x2xf32>) {
  %dy0 = tensor.empty() : tensor<256x1024xbf16>
  %dw0 = tensor.empty() : tensor<64x2xf32>
  %dy, %dw = moe.combine_grad %dout, %y, %rows, %w outs(%dy0, %dw0)
      : tensor<64x1024xbf16>, tensor<256x1024xbf16>, tensor<64x2xi32>, tensor<64x2xf32> -> tensor<256x1024xbf16>, tensor<64x2xf32>
  return %dy, %dw : tensor<256x1024xbf16>, tensor<64x2xf32>
}

// Launch shapes: dweights (a warp per pair), the counts' zeroing and
// counting, then tokens × 128 (dy rows from their token) and rows / 128 ×
// 128 (a warp per 32 rows tests them; the other rows).
// CHECK-LABEL: llvm.func @combine_grad(
// CHECK-DAG:   %[[C64:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK-DAG:   %[[C2:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK-DAG:   %[[C128:.*]] = llvm.mlir.constant(128 : index) : i64
// CHECK-DAG:   %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK:       gpu.launch_func <%{{.*}}> @combine_grad_0_combine_grad::@combine_grad_0_combine_grad
// CHECK:       gpu.launch_func <%{{.*}}> @combine_grad_1_combine_grad::@combine_grad_1_combine_grad
// CHECK:       gpu.launch_func <%{{.*}}> @combine_grad_2_combine_grad::@combine_grad_2_combine_grad
// CHECK:       gpu.launch_func <%{{.*}}> @combine_grad_3_combine_grad::@combine_grad_3_combine_grad blocks in (%[[C64]], %[[ONE]], %[[ONE]]) threads in (%[[C128]], %[[ONE]], %[[ONE]])
// CHECK:       gpu.launch_func <%{{.*}}> @combine_grad_4_combine_grad::@combine_grad_4_combine_grad blocks in (%[[C2]], %[[ONE]], %[[ONE]]) threads in (%[[C128]], %[[ONE]], %[[ONE]])
// CHECK-NOT:   gpu.launch_func

// dweights: a warp per pair (8 a block of 256 threads), both rows read 16
// bytes a lane, the lanes' sums added by a 5-step butterfly.
// PTX:     gpu.binary @combine_grad_0_combine_grad {{.*}}.maxntid 256, 1, 1{{.*}}ld.global.v4.b32{{.*}}ld.global.v4.b32{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32
// PTX:     gpu.binary @combine_grad_2_combine_grad {{.*}}atom.global.add
// PTX:     gpu.binary @combine_grad_3_combine_grad {{.*}}.maxntid 128, 1, 1{{.*}}ld.global.v4.b32{{.*}}st.global.v4.b32
// PTX:     gpu.binary @combine_grad_4_combine_grad {{.*}}.maxntid 128, 1, 1{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32{{.*(ld.global.v4.b32.*st.global.v4.b32|st.global.v4.b32.*ld.global.v4.b32)}}
