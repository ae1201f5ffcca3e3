// The pipelines' out-params option: public functions return their results
// through trailing out-params; a result the function allocates is computed
// in its out-param (no allocation, no copy), an argument returned as a
// result is copied there. Without the option a public function keeps its
// results.
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-cpu{out-params})' | FileCheck %s
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-cpu)' | FileCheck %s --check-prefix=RESULTS

// CHECK-LABEL: llvm.func @logits(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
// CHECK-NOT:   llvm.call @malloc
// CHECK:       llvm.intr.memcpy
// CHECK-NOT:   llvm.intr.memcpy
// CHECK:       llvm.return
// RESULTS-LABEL: llvm.func @logits(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> !llvm.struct<(ptr, ptr)>
func.func @logits(%a: tensor<2x3xbf16>, %s: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<3x4xf32>) {
  %init1 = tensor.empty() : tensor<2x4xf32>
  %l = moe.gate %a, %s outs(%init1) : tensor<2x3xbf16>, tensor<3x4xf32> -> tensor<2x4xf32>
  return %l, %s : tensor<2x4xf32>, tensor<3x4xf32>
}
