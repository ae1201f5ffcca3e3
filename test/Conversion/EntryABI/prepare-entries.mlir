// RUN: moe-opt %s -split-input-file --moe-prepare-entries | FileCheck %s

// moe-prepare-entries: entries take read-only tensors, elementless tensors
// travel as tensor<0xT> / memref<0xT>, names and roles are dropped, and a
// value returned twice is copied for its second result.

// CHECK-LABEL: func.func @entry(
// CHECK-SAME:    %{{[^:]+}}: tensor<4x8xf32> {bufferization.writable = false},
// CHECK-SAME:    %{{[^:]+}}: memref<0xf32>)
// CHECK-SAME:    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<0xf32>)
// CHECK-NOT:     moe.name
// CHECK:         %[[EMPTY_ARG:.*]] = tensor.empty() : tensor<4x0xf32>
// CHECK:         %[[SUM:.*]] = arith.addf
// CHECK:         %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[SUM]])
// CHECK:         %[[EMPTY_RES:.*]] = tensor.empty() : tensor<0xf32>
// CHECK:         return %[[SUM]], %[[COPY]], %[[EMPTY_RES]]
func.func @entry(%x: tensor<4x8xf32> {moe.name = "x", moe.role = "input"},
                 %none: tensor<4x0xf32> {moe.name = "none", moe.role = "input"})
    -> (tensor<4x8xf32> {moe.name = "y", moe.role = "output"},
        tensor<4x8xf32>, tensor<4x0xf32>) {
  %y = arith.addf %x, %x : tensor<4x8xf32>
  return %y, %y, %none : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x0xf32>
}

// -----

// An entry the module calls keeps its value-returning form for the call, as
// a private copy without names and roles; private functions are no entries.
// CHECK-LABEL: func.func @twice(
// CHECK-SAME:    {bufferization.writable = false}
// CHECK:         call @double_callee(
// CHECK-LABEL: func.func @double(
// CHECK-SAME:    {bufferization.writable = false}
// CHECK-LABEL: func.func private @double_callee(
// CHECK-NOT:     moe.name
// CHECK-NOT:     bufferization.writable
// CHECK-LABEL: func.func private @helper(
// CHECK-NOT:     bufferization.writable
func.func @twice(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = call @double(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
func.func @double(%x: tensor<8xf32> {moe.name = "x", moe.role = "input"}) -> (tensor<8xf32> {moe.name = "y", moe.role = "output"}) {
  %y = arith.addf %x, %x : tensor<8xf32>
  return %y : tensor<8xf32>
}
func.func private @helper(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
