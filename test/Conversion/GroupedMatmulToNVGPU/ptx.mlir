// The generated grouped GEMM through the whole GPU pipeline down to PTX
// (gemm=generated): TMA loads on mbarriers, wgmma bf16 -> f32, the
// warpgroup register split, the descriptor fences of PTX 8.3; ptxas
// compiles it to the cubin of the pipeline's own output; the consumers
// synchronize on their own named barrier (bar.sync id, 128); the epilogue
// TMA-stores whole rows from shared memory (fenced for the async proxy, one
// bulk group a tile) and stores the others 8 bytes a thread (four bf16 as two packed pairs).
// REQUIRES: ptxas
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated gemm-block-n=128 toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o %t.llvm.mlir 2> %t.nvvm.mlir
// RUN: FileCheck %s --check-prefix=HOST < %t.llvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s

// HOST:     llvm.call @moert_entry_tensor_map_2d
// HOST:     llvm.call @moert_entry_tensor_map_2d
// HOST:     llvm.call @moert_entry_tensor_map_2d
// HOST:     gpu.launch_func <%{{.*}} : !llvm.ptr> @gmm_0_grouped_matmul::@gmm_0_grouped_matmul {{.*}} dynamic_shared_memory_size
// HOST:     gpu.binary @gmm_0_grouped_matmul [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx83">, properties = {{.*}}, bin = "\7FELF

// The PTX is one escaped string (\09 tab, \0A newline): separators are
// matched loosely, and the producer's and consumer's code in any order.
// CHECK:     .version 8.3
// CHECK:     .visible .entry gmm_0_grouped_matmul(
// CHECK:     .maxntid 384, 1, 1
// CHECK-DAG: mbarrier.init.shared.b64
// CHECK-DAG: setmaxnreg.dec.sync.aligned.u32 \0940;
// CHECK-DAG: fence.proxy.tensormap::generic.release.gpu
// CHECK-DAG: fence.proxy.tensormap::generic.acquire.gpu
// CHECK-DAG: mbarrier.try_wait.parity.shared.b64
// CHECK-DAG: mbarrier.arrive.expect_tx.shared.b64
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: setmaxnreg.inc.sync.aligned.u32 \09232;
// CHECK-DAG: wgmma.fence.sync.aligned
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-DAG: wgmma.commit_group.sync.aligned
// CHECK-DAG: wgmma.wait_group.sync.aligned \091;
// CHECK-DAG: wgmma.wait_group.sync.aligned \090;
// CHECK-DAG: mbarrier.arrive.shared.b64
// CHECK-DAG: bar.sync \09%r{{[0-9]+}}, 128;
// CHECK-DAG: fence.proxy.async.shared::cta;
// CHECK-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK-DAG: cp.async.bulk.commit_group;
// CHECK-DAG: cp.async.bulk.wait_group.read \090;
// CHECK-DAG: st.global.v2.b32
func.func @gmm(%a: tensor<1024x128xbf16>, %b: tensor<4x128x256xbf16>, %n: tensor<4xi32>) -> tensor<1024x256xbf16> {
  %e = tensor.empty() : tensor<1024x256xbf16>
  %c = moe.grouped_matmul %a, %b, %n outs(%e) : tensor<1024x128xbf16>, tensor<4x128x256xbf16>, tensor<4xi32> -> tensor<1024x256xbf16>
  return %c : tensor<1024x256xbf16>
}
