// RUN: moe-opt %s --moe-reserve-entry-names | FileCheck %s

// moe-reserve-entry-names: entries go by __moe_entry_<n> (n skipping names
// the module has), recorded with their name and pointer count (arguments
// plus results) in moe.entries; private and external functions keep theirs.

// CHECK:       module attributes {moe.entries = [{name = "malloc", pointers = 3 : i64, reserved = "__moe_entry_0"}, {name = "g", pointers = 1 : i64, reserved = "__moe_entry_2"}]}
// CHECK-LABEL: func.func @__moe_entry_0(
// CHECK-LABEL: func.func private @__moe_entry_1(
// CHECK-LABEL: func.func @__moe_entry_2(
// CHECK-LABEL: func.func private @helper(
// CHECK-LABEL: func.func private @expf(f32) -> f32
func.func @malloc(%a: memref<4xf32>, %b: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}
func.func private @__moe_entry_1() {
  return
}
func.func @g(%a: memref<4xf32>) {
  return
}
func.func private @helper() {
  return
}
func.func private @expf(f32) -> f32
