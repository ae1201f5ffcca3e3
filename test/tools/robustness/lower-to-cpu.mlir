// moe-lower-to-cpu leaves nothing but the LLVM dialect, or fails with a
// located error: a public function returning its argument kept a
// bufferization.clone, and a memref the bare-pointer convention cannot pass
// left the function as func.func, both with exit 0.
// RUN: moe-opt %s -split-input-file --moe-lower-to-cpu | FileCheck %s
// RUN: not moe-opt %S/Inputs/zero-inner-dim.mlir --moe-lower-to-cpu 2>&1 | FileCheck %s --check-prefix=ZERO --implicit-check-not="PLEASE submit"
// ZERO: zero-inner-dim.mlir:3:1: error: 'func.func' could not be lowered to the LLVM dialect

// CHECK-LABEL: llvm.func @returns_arg(
// CHECK-NOT:   bufferization.
// CHECK:       llvm.return
func.func @returns_arg(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %y = arith.addf %x, %x : tensor<4x3xf32>
  return %x : tensor<4x3xf32>
}

// -----

// Buffers chosen at run time (scf.if) are freed without a leftover
// bufferization op or helper function.
// CHECK-LABEL: llvm.func @select_buffer(
// CHECK-NOT:   bufferization.
// CHECK-NOT:   func.
func.func @select_buffer(%x: tensor<4x4xf32>, %c: i1) -> tensor<4x4xf32> {
  %r = scf.if %c -> tensor<4x4xf32> {
    %y = arith.addf %x, %x : tensor<4x4xf32>
    scf.yield %y : tensor<4x4xf32>
  } else {
    %y = arith.mulf %x, %x : tensor<4x4xf32>
    scf.yield %y : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}
