// RUN: moe-opt %s -split-input-file -verify-diagnostics --moe-add-packed-wrappers | FileCheck %s

// moe-add-packed-wrappers: void f_packed(void **args) loads args[i] for
// every pointer f takes and calls f; moe.entries is dropped.

// CHECK-NOT:   moe.entries
// CHECK-LABEL: llvm.func @f(
// CHECK-LABEL: llvm.func @f_packed(
// CHECK-SAME:    %[[ARGS:.*]]: !llvm.ptr) {
// CHECK:         %[[C0:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK:         %[[S0:.*]] = llvm.getelementptr %[[ARGS]][%[[C0]]] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[P0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:         %[[S1:.*]] = llvm.getelementptr %[[ARGS]][%[[C1]]] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[P1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.call @f(%[[P0]], %[[P1]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK:         llvm.return
module attributes {moe.entries = [{name = "f", reserved = "__moe_entry_0", pointers = 2 : i64}]} {
  llvm.func @f(%a: !llvm.ptr, %b: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{lowered module lost entry @f}}
module attributes {moe.entries = [{name = "f", reserved = "__moe_entry_0", pointers = 1 : i64}]} {
}

// -----

// A memref argument that did not take the bare-pointer convention.
module attributes {moe.entries = [{name = "f", reserved = "__moe_entry_0", pointers = 1 : i64}]} {
  // expected-error @+1 {{entry @f does not take one pointer per argument (1) after lowering}}
  llvm.func @f(%a: !llvm.ptr, %b: !llvm.ptr, %o: i64) {
    llvm.return
  }
}

// -----

module attributes {moe.entries = [{name = "f", reserved = "__moe_entry_0", pointers = 1 : i64}]} {
  llvm.func @f(%a: !llvm.ptr) {
    llvm.return
  }
  // expected-error @+1 {{@f_packed is the name of entry @f's packed wrapper}}
  llvm.func @f_packed() {
    llvm.return
  }
}
