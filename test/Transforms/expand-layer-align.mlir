// RUN: moe-opt %s -split-input-file --moe-expand-layer=align=32 | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-expand-layer=align=32 | moe-opt -split-input-file --verify-each | FileCheck %s
// entry-names=false (what the lowering pipelines run) leaves the signature alone:
// RUN: moe-opt %s -split-input-file --moe-expand-layer="align=32 entry-names=false" | FileCheck %s --check-prefix=NONAMES
// NONAMES-NOT: moe.name
// NONAMES: moe.permute
// NONAMES-NOT: moe.name

// moe-expand-layer{align=N}: the permute's align is the lcm of the layer's
// and N; R = T·K + E·(A − 1) rounded up to a multiple of A; every grouped
// matmul over the permuted rows takes that R.

// A = lcm(1, 32) = 32: R = 16·2 + 8·31 = 280 → 288.
// CHECK-LABEL: func.func @unaligned_layer
// CHECK-SAME: {moe.name = "x", moe.role = "input"}
// CHECK: moe.permute %{{.*}}, %{{.*}} experts 8 align 32 outs({{.*}}) : tensor<16x8xbf16>, tensor<16x2xi32> -> tensor<288x8xbf16>, tensor<8xi32>, tensor<16x2xi32>
// CHECK: moe.grouped_matmul {{.*}} -> tensor<288x12xbf16>
// CHECK: moe.grouped_matmul {{.*}} -> tensor<288x12xbf16>
// CHECK: moe.grouped_matmul {{.*}} -> tensor<288x8xbf16>
// CHECK-NOT: moe.layer
func.func @unaligned_layer(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// A = lcm(48, 32) = 96: R = 16·2 + 8·95 = 792 = 8.25·96 → 864.
// CHECK-LABEL: func.func @layer_align48
// CHECK: moe.permute %{{.*}}, %{{.*}} experts 8 align 96 outs({{.*}}) : tensor<16x8xbf16>, tensor<16x2xi32> -> tensor<864x8xbf16>, tensor<8xi32>, tensor<16x2xi32>
func.func @layer_align48(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>, align = 48 : i64}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// Dynamic T: A = 32, R stays the op's own bound (dynamic).
// CHECK-LABEL: func.func @dynamic_tokens
// CHECK: moe.permute %{{.*}}, %{{.*}} experts 8 align 32 outs({{.*}}) : tensor<?x8xbf16>, tensor<?x2xi32> -> tensor<?x8xbf16>, tensor<8xi32>, tensor<?x2xi32>
func.func @dynamic_tokens(%x: tensor<?x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<?x8xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>}
      : (tensor<?x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<?x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<?x8xbf16>, tensor<f32>
}
