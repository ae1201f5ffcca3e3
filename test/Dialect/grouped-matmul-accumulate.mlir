// moe.grouped_matmul `accumulate` (a fusion hook): round trip in custom and
// generic form and through bytecode; one-shot-bufferize treats the
// destination as read, so a destination still needed afterwards is copied
// first instead of being overwritten in place.
// RUN: moe-opt %s | FileCheck %s
// RUN: moe-opt %s --mlir-print-op-generic | moe-opt | FileCheck %s
// RUN: moe-opt %s --verify-roundtrip | FileCheck %s
// RUN: moe-opt %s \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | FileCheck %s --check-prefix=BUF

// CHECK-LABEL: func.func @sum_of_products(
// CHECK:         %[[P:.*]] = moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} outs(%{{.*}}) : tensor<16x32xbf16>, tensor<2x32x48xbf16>
// CHECK:         %[[S:.*]] = moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} outs(%[[P]]) {accumulate} : tensor<16x32xbf16>, tensor<2x32x48xbf16>
// CHECK:         return %[[S]], %[[P]]
// The first product is returned as well, so accumulating into its buffer
// in place would change it: bufferization copies it first, and the
// accumulating matmul works on the copy.
// BUF-LABEL:   func.func @sum_of_products(
// BUF:           %[[PB:.*]] = memref.alloc() {{.*}} : memref<16x48xbf16>
// BUF:           moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} outs(%[[PB]]) : memref<16x32xbf16>
// BUF:           %[[SB:.*]] = memref.alloc() {{.*}} : memref<16x48xbf16>
// BUF:           memref.copy %[[PB]], %[[SB]] : memref<16x48xbf16> to memref<16x48xbf16>
// BUF:           moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} outs(%[[SB]]) {accumulate} : memref<16x32xbf16>
// BUF:           return %[[SB]], %[[PB]]
func.func @sum_of_products(%xs: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> (tensor<16x48xbf16>, tensor<16x48xbf16>) {
  %e = tensor.empty() : tensor<16x48xbf16>
  %p = moe.grouped_matmul %xs, %wg, %s outs(%e) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %sum = moe.grouped_matmul %xs, %wu, %s outs(%p) {accumulate} : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return %sum, %p : tensor<16x48xbf16>, tensor<16x48xbf16>
}
