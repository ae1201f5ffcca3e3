// moe.topk through the whole GPU pipeline, DeepSeek-V3's router shape
// reduced to T = 4096 tokens of E = 256 experts (sigmoid + bias, 8 groups of
// 32 keeping 4, top-8): a warp per token, 4 tokens a block (1024 blocks of
// 128 threads), the selection rounds as shfl.sync.bfly butterflies. With
// warp-router=0 the kernel is a thread per token, without shuffles.
// REQUIRES: ptxas

// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' | FileCheck %s
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=PTX
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path warp-router=0})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.off.mlir
// RUN: moe-opt %t.off.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: llvm.func @topk(
// CHECK-DAG:   %[[C1024:.*]] = llvm.mlir.constant(1024 : index) : i64
// CHECK-DAG:   %[[C128:.*]] = llvm.mlir.constant(128 : index) : i64
// CHECK-DAG:   %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK:       gpu.launch_func <%{{.*}}> @topk_0_topk::@topk_0_topk blocks in (%[[C1024]], %[[ONE]], %[[ONE]]) threads in (%[[C128]], %[[ONE]], %[[ONE]])
// PTX:         gpu.binary @topk_0_topk {{.*}}.maxntid 128, 1, 1{{.*}}shfl.sync.bfly.b32{{.*}}shfl.sync.bfly.b32
// OFF:         gpu.binary @topk_0_topk
// OFF-NOT:     shfl.sync
func.func @topk(%s: tensor<4096x256xf32>, %bias: tensor<256xf32>) -> (tensor<4096x8xf32>, tensor<4096x8xi32>) {
  %w0 = tensor.empty() : tensor<4096x8xf32>
  %i0 = tensor.empty() : tensor<4096x8xi32>
  %w, %i = moe.topk sigmoid %s bias %bias k 8 outs(%w0, %i0)
      {num_groups = 8 : i64, group_topk = 4 : i64, group_score_topq = 2 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64}
      : tensor<4096x256xf32>, tensor<256xf32> -> tensor<4096x8xf32>, tensor<4096x8xi32>
  return %w, %i : tensor<4096x8xf32>, tensor<4096x8xi32>
}
