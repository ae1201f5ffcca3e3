// RUN: moe-opt %s -split-input-file -verify-diagnostics --moe-restore-entry-names | FileCheck %s

// moe-restore-entry-names: the lowered entries get their names back.

// CHECK:       module attributes {moe.entries =
// CHECK-LABEL: llvm.func @f(
// CHECK-LABEL: llvm.func @g(
module attributes {moe.entries = [{name = "f", reserved = "__moe_entry_0", pointers = 1 : i64},
                                  {name = "g", reserved = "__moe_entry_1", pointers = 0 : i64}]} {
  llvm.func @__moe_entry_0(%a: !llvm.ptr) {
    llvm.return
  }
  llvm.func @__moe_entry_1() {
    llvm.return
  }
}

// -----

// expected-error @+1 {{lowered module lost entry @f}}
module attributes {moe.entries = [{name = "f", reserved = "__moe_entry_0", pointers = 1 : i64}]} {
}

// -----

// The lowered code calls a C function of the entry's name.
module attributes {moe.entries = [{name = "malloc", reserved = "__moe_entry_0", pointers = 1 : i64}]} {
  llvm.func @malloc(i64) -> !llvm.ptr
  // expected-error @+1 {{entry @malloc has the name of a function that the lowered code calls; rename the entry}}
  llvm.func @__moe_entry_0(%a: !llvm.ptr) {
    llvm.return
  }
}

// -----

// expected-error @+1 {{no 'moe.entries' array: run moe-reserve-entry-names first}}
module {
}

// -----

// expected-error @+1 {{'moe.entries' holds an entry that is not {name, reserved, pointers}: {name = "f"}}}
module attributes {moe.entries = [{name = "f"}]} {
}
