// Grouped matmuls whose K is not a multiple of the 64-wide k-step (k-tail.mlir)
// through the whole GPU pipeline: ptxas compiles each kernel for sm_90a with
// K = 8 (one partial step), 40, 96 and 200 (whole steps then a partial one),
// both weight layouts, a pair of products and an f32 output, and the kn
// kernels zero B's rows past K with 16-byte shared-memory stores before the
// wgmma reads them.
// REQUIRES: ptxas
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o %t.llvm.mlir 2> %t.nvvm.mlir
// RUN: FileCheck %s --check-prefix=HOST < %t.llvm.mlir
// RUN: not grep -q moert_entry_grouped %t.llvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s

// Every grouped matmul became a generated kernel with its cubin (no
// cuBLASLt grouped call is left).
// HOST-DAG: gpu.binary @kn_k8_0_grouped_matmul [#gpu.object<{{.*}}bin = "\7FELF
// HOST-DAG: gpu.binary @kn_k40_0_grouped_matmul [#gpu.object<{{.*}}bin = "\7FELF
// HOST-DAG: gpu.binary @nk_k96_0_grouped_matmul [#gpu.object<{{.*}}bin = "\7FELF
// HOST-DAG: gpu.binary @kn_k200_f32_0_grouped_matmul [#gpu.object<{{.*}}bin = "\7FELF
// HOST-DAG: gpu.binary @pair_0_grouped_matmul [#gpu.object<{{.*}}bin = "\7FELF

// CHECK:     .visible .entry kn_k8_0_grouped_matmul(
// CHECK:     st.shared.v4
// CHECK:     fence.proxy.async.shared::cta
// CHECK:     wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK:     .visible .entry nk_k96_0_grouped_matmul(
// CHECK-NOT: .visible .entry
// CHECK:     wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
func.func @kn_k8(%a: tensor<256x8xbf16>, %b: tensor<4x8x128xbf16>, %n: tensor<4xi32>) -> tensor<256x128xbf16> {
  %e = tensor.empty() : tensor<256x128xbf16>
  %c = moe.grouped_matmul %a, %b, %n outs(%e) : tensor<256x8xbf16>, tensor<4x8x128xbf16>, tensor<4xi32> -> tensor<256x128xbf16>
  return %c : tensor<256x128xbf16>
}
func.func @kn_k40(%a: tensor<256x40xbf16>, %b: tensor<4x40x192xbf16>, %n: tensor<4xi32>) -> tensor<256x192xbf16> {
  %e = tensor.empty() : tensor<256x192xbf16>
  %c = moe.grouped_matmul %a, %b, %n outs(%e) : tensor<256x40xbf16>, tensor<4x40x192xbf16>, tensor<4xi32> -> tensor<256x192xbf16>
  return %c : tensor<256x192xbf16>
}
func.func @nk_k96(%a: tensor<256x96xbf16>, %b: tensor<4x128x96xbf16>, %n: tensor<4xi32>) -> tensor<256x128xbf16> {
  %e = tensor.empty() : tensor<256x128xbf16>
  %c = moe.grouped_matmul %a, %b, %n outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<256x96xbf16>, tensor<4x128x96xbf16>, tensor<4xi32> -> tensor<256x128xbf16>
  return %c : tensor<256x128xbf16>
}
func.func @kn_k200_f32(%a: tensor<1024x200xbf16>, %b: tensor<2x200x64xbf16>, %n: tensor<2xi32>) -> tensor<1024x64xf32> {
  %e = tensor.empty() : tensor<1024x64xf32>
  %c = moe.grouped_matmul %a, %b, %n outs(%e) : tensor<1024x200xbf16>, tensor<2x200x64xbf16>, tensor<2xi32> -> tensor<1024x64xf32>
  return %c : tensor<1024x64xf32>
}
func.func @pair(%a1: tensor<256x96xbf16>, %b1: tensor<4x96x128xbf16>, %a2: tensor<256x40xbf16>, %b2: tensor<4x40x128xbf16>, %n: tensor<4xi32>) -> tensor<256x128xbf16> {
  %e = tensor.empty() : tensor<256x128xbf16>
  %c1 = moe.grouped_matmul %a1, %b1, %n outs(%e) : tensor<256x96xbf16>, tensor<4x96x128xbf16>, tensor<4xi32> -> tensor<256x128xbf16>
  %c2 = moe.grouped_matmul %a2, %b2, %n outs(%e) : tensor<256x40xbf16>, tensor<4x40x128xbf16>, tensor<4xi32> -> tensor<256x128xbf16>
  %s = arith.addf %c1, %c2 : tensor<256x128xbf16>
  return %s : tensor<256x128xbf16>
}
