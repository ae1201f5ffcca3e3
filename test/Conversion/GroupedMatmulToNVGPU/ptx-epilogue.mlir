// The generated grouped GEMM's two epilogues in PTX, through ptxas (sm_90a):
// - accumulate: each consumer thread loads its values of c (8-byte vector
//   loads) right after taking its registers, before the first wgmma of the
//   tile, and stores the sums with 8-byte vector stores (bf16 pairs packed
//   by cvt.rn.bf16x2; no c tensor map);
// - a bf16 weight gradient: every tile's rows are whole, so the consumer
//   (pingpong: each runs whole tiles; ptxas places the main loop after the
//   epilogue) writes bf16 boxes to shared memory, fences them for the async
//   proxy and TMA-stores them (bulk group committed, its reads awaited
//   before the next tile's boxes, all of it before exit); no per-thread
//   global store of db.
// REQUIRES: ptxas
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated gemm-block-n=128 toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o %t.llvm.mlir 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s

// The PTX is one escaped string (\09 tab, \0A newline) per kernel.
// CHECK:     .visible .entry acc_0_grouped_matmul(
// CHECK-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// CHECK:     setmaxnreg.inc.sync.aligned.u32 \09232;
// CHECK-NOT: wgmma.mma_async
// CHECK-COUNT-16: ld.global.v4.b16
// CHECK-NOT: ld.global.v4.b16
// CHECK:     mbarrier.try_wait
// CHECK:     wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NOT: ld.global.v4.b16
// CHECK-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// CHECK:     st.global.v2.b32
// CHECK-NOT: cp.async.bulk.tensor.2d.global.shared::cta
// CHECK:     .visible .entry wgrad_0_grouped_weight_grad(
// CHECK-NOT: st.global.v4
// CHECK:     setmaxnreg.inc.sync.aligned.u32 \09232;
// CHECK-NOT: st.global.v4
// CHECK:     cp.async.bulk.wait_group.read \090;
// CHECK-NOT: st.global.v4
// CHECK:     fence.proxy.async.shared::cta;
// CHECK-NOT: st.global.v4
// CHECK:     wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NOT: st.global.v4
// CHECK:     cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK-NOT: st.global.v4
// CHECK:     cp.async.bulk.commit_group;
// CHECK-NOT: st.global.v4
// CHECK:     cp.async.bulk.wait_group \090;
// CHECK-NOT: st.global.v4
// CHECK:     ret;
func.func @acc(%a: tensor<1024x128xbf16>, %b: tensor<4x256x128xbf16>, %n: tensor<4xi32>, %c0: tensor<1024x256xbf16>) -> tensor<1024x256xbf16> {
  %c = moe.grouped_matmul %a, %b, %n outs(%c0) {accumulate, weight_layout = #moe<weight_layout nk>} : tensor<1024x128xbf16>, tensor<4x256x128xbf16>, tensor<4xi32> -> tensor<1024x256xbf16>
  return %c : tensor<1024x256xbf16>
}

func.func @wgrad(%a: tensor<1024x256xbf16>, %dc: tensor<1024x256xbf16>, %n: tensor<8xi32>) -> tensor<8x256x256xbf16> {
  %e = tensor.empty() : tensor<8x256x256xbf16>
  %db = moe.grouped_weight_grad %a, %dc, %n outs(%e) : tensor<1024x256xbf16>, tensor<1024x256xbf16>, tensor<8xi32> -> tensor<8x256x256xbf16>
  return %db : tensor<8x256x256xbf16>
}
