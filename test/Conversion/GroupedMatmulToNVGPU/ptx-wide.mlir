// The generated grouped GEMM with 256-column tiles (gemm-block-n=256; auto
// takes them for N > 4096 and weight gradients, kernel-wide.mlir) through the whole GPU pipeline and ptxas (sm_90a): the
// m64n256k16 wgmma for both weight layouts and for gate|up halves, 3
// pipeline stages with 128-row tiles (3 full and 3 empty mbarriers of 8
// bytes), B's K-major box of 256 rows (nk); and 128-column tiles where
// gemm-block-n=128 asks for them.
// REQUIRES: ptxas
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated gemm-block-n=256 toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o %t.llvm.mlir 2> %t.nvvm.mlir
// RUN: FileCheck %s --check-prefix=HOST < %t.llvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated gemm-block-n=128 toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.narrow.mlir
// RUN: moe-opt %t.narrow.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=NARROW

// Host: kn's B in 64-row boxes; nk's B ([G * N, K] = [1024, 128]) in
// 256-row boxes; 219136 bytes of dynamic shared memory (3 stages of 48 KiB,
// the f32 staging of 128 x 132, the scans, the alignment slack).
// HOST:     llvm.func @kn(
// HOST:     gpu.launch_func {{.*}} @kn_0_grouped_matmul::@kn_0_grouped_matmul {{.*}} dynamic_shared_memory_size %{{.*}} args(
// HOST:     llvm.func @nk(
// HOST-DAG: llvm.mlir.constant(256 : i32) : i32
// HOST-DAG: llvm.mlir.constant(219136 : i32) : i32
// HOST:     gpu.launch_func {{.*}} @nk_0_grouped_matmul::@nk_0_grouped_matmul

// The PTX is one escaped string (\09 tab, \0A newline) per kernel.
// CHECK:     .visible .entry kn_0_grouped_matmul(
// CHECK:     .maxntid 384, 1, 1
// CHECK:     .shared .align 8 .b8 __mbarrier{{(_0)?}}[24];
// CHECK:     setmaxnreg.inc.sync.aligned.u32 \09232;
// CHECK:     wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-NOT: wgmma.mma_async.sync.aligned.m64n128k16
// CHECK:     cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// CHECK:     .visible .entry nk_0_grouped_matmul(
// CHECK:     wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-NOT: wgmma.mma_async.sync.aligned.m64n128k16
// CHECK:     .visible .entry gated_0_grouped_matmul(
// CHECK:     wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-NOT: wgmma.mma_async.sync.aligned.m64n128k16
// NARROW:     .visible .entry kn_0_grouped_matmul(
// NARROW:     .shared .align 8 .b8 __mbarrier{{(_0)?}}[32];
// NARROW:     wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// NARROW-NOT: wgmma.mma_async.sync.aligned.m64n256k16
func.func @kn(%a: tensor<1024x128xbf16>, %b: tensor<2x128x512xbf16>, %n: tensor<2xi32>) -> tensor<1024x512xbf16> {
  %e = tensor.empty() : tensor<1024x512xbf16>
  %c = moe.grouped_matmul %a, %b, %n outs(%e) : tensor<1024x128xbf16>, tensor<2x128x512xbf16>, tensor<2xi32> -> tensor<1024x512xbf16>
  return %c : tensor<1024x512xbf16>
}
func.func @nk(%a: tensor<1024x128xbf16>, %b: tensor<2x512x128xbf16>, %n: tensor<2xi32>) -> tensor<1024x512xbf16> {
  %e = tensor.empty() : tensor<1024x512xbf16>
  %c = moe.grouped_matmul %a, %b, %n outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<1024x128xbf16>, tensor<2x512x128xbf16>, tensor<2xi32> -> tensor<1024x512xbf16>
  return %c : tensor<1024x512xbf16>
}
func.func @gated(%a: tensor<1024x128xbf16>, %b: tensor<2x128x512xbf16>, %n: tensor<2xi32>) -> tensor<1024x256xbf16> {
  %e = tensor.empty() : tensor<1024x256xbf16>
  %c = moe.grouped_matmul %a, %b, %n outs(%e) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %v = arith.mulf %gate, %up : f32
    moe.yield %v : f32
  } : tensor<1024x128xbf16>, tensor<2x128x512xbf16>, tensor<2xi32> -> tensor<1024x256xbf16>
  return %c : tensor<1024x256xbf16>
}
