// RUN: moe-opt %s -split-input-file --moe-read-only-entry-arguments | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-read-only-entry-arguments \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | FileCheck %s --check-prefix=BUF
// RUN: moe-opt %s -split-input-file --moe-lower-to-cpu \
// RUN:   --mlir-print-ir-after=one-shot-bufferize -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BUF

// Tensor arguments of public functions become read-only; other arguments,
// private functions, declarations and an explicit mark stay as they are.
// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%{{.*}}: tensor<4xf32> {bufferization.writable = false}, %{{.*}}: index, %{{.*}}: tensor<4xf32> {bufferization.writable = true})
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%{{.*}}: tensor<4xf32>)
// CHECK-LABEL: func.func private @external
// CHECK-SAME: (tensor<4xf32>)
func.func @entry(%a: tensor<4xf32>, %n: index, %b: tensor<4xf32> {bufferization.writable = true}) -> tensor<4xf32> {
  %r = func.call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @external(tensor<4xf32>) -> tensor<4xf32>

// -----

// Delayed quantization's history destination is an entry argument: the op
// rolls a copy, never the caller's buffer (also inside moe-lower-to-cpu,
// which runs the pass before bufferizing).
// BUF-LABEL: func.func @delayed
// BUF-SAME: (%[[X:.*]]: memref<4x8xbf16>, %[[H:.*]]: memref<16xf32>)
// BUF:      %[[NH:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// BUF:      memref.copy %[[H]], %[[NH]]
// BUF:      moe.quantize delayed %[[X]] outs(%{{.*}}, %{{.*}}, %[[NH]])
// BUF:      return %{{.*}}, %{{.*}}, %[[NH]]
func.func @delayed(%x: tensor<4x8xbf16>, %h: tensor<16xf32>)
    -> (tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>) {
  %q0 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s, %nh = moe.quantize delayed %x outs(%q0, %s0, %h) : tensor<4x8xbf16> -> tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>
  return %q, %s, %nh : tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>
}
