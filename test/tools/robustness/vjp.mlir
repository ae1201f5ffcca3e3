// moe-generate-vjp on odd functions: errors are located, never a crash or
// invalid IR; odd but valid forwards differentiate.
// RUN: moe-opt %s -split-input-file -verify-diagnostics --moe-generate-vjp | FileCheck %s
// Applying the pass twice changes nothing the second time.
// RUN: moe-opt %moe_src_root/examples/small.mlir --moe-generate-vjp > %t.once.mlir
// RUN: moe-opt %t.once.mlir --moe-generate-vjp > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// A private function, or one without a body, is not differentiated.
// RUN: not moe-opt %s -split-input-file --moe-generate-vjp=function=helper 2>&1 | FileCheck %s --check-prefix=PRIVATE
// PRIVATE: error: moe-generate-vjp: @helper is private; only public functions with a body are differentiated

// @f_fwd already exists: an error (this produced "redefinition of symbol").
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> { // expected-error {{moe-generate-vjp: cannot differentiate @f: the module already has a symbol @f_fwd}}
  %y = arith.addf %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func private @f_fwd(%x: tensor<2xf32>) -> tensor<2xf32> { // expected-note {{@f_fwd is here}}
  return %x : tensor<2xf32>
}

// -----

// A moe.name that is not a string (this crashed).
func.func @named(%x: tensor<2xf32> {moe.name = 3 : i64}) -> tensor<2xf32> { // expected-error {{argument 0 of @named has moe.name = 3 : i64; expected a string}}
  %y = arith.addf %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

func.func private @helper(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = arith.addf %x, %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @calls(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'func.call' op has no adjoint}}
  %y = func.call @helper(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

func.func @loop(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error @below {{'scf.for' op has no adjoint}}
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> tensor<4x8xf32> {
    %init1 = tensor.empty() : tensor<4x8xf32>
    %l = moe.gate %a, %w outs(%init1) : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
    scf.yield %l : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

func.func @other(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'math.exp' op has no adjoint}}
  %y = math.exp %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// No arguments, no results, an argument returned twice (its cotangents add
// up), an integer result (no cotangent).
// CHECK-LABEL: func.func @no_args_bwd(
// CHECK-SAME:  %{{.*}}: tensor<2xf32> {moe.name = "d_result0", moe.role = "cotangent"}) {
// CHECK-NEXT:  return
// CHECK-LABEL: func.func @no_results_bwd() {
// CHECK-NEXT:  return
// CHECK-LABEL: func.func @twice_bwd(
// CHECK-SAME:  %[[D0:.*]]: tensor<2xf32> {moe.name = "d_result0", moe.role = "cotangent"}, %[[D1:.*]]: tensor<2xf32> {moe.name = "d_result1", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<2xf32> {moe.name = "d_arg0", moe.role = "gradient"})
// CHECK-NEXT:  %[[SUM:.*]] = arith.addf %[[D0]], %[[D1]]
// CHECK-NEXT:  return %[[SUM]]
func.func @no_args() -> tensor<2xf32> {
  %c = arith.constant dense<1.0> : tensor<2xf32>
  return %c : tensor<2xf32>
}
func.func @no_results(%x: tensor<2xf32>) {
  return
}
func.func @twice(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xi32>) {
  %i = arith.constant dense<1> : tensor<2xi32>
  return %x, %x, %i : tensor<2xf32>, tensor<2xf32>, tensor<2xi32>
}

// -----

// Residual names avoid the forward's own names (@sq_fwd had two 'res0'),
// and those of the arguments @sq_bwd takes itself (x, here named "res0").
// Walking backwards, z's adjoint asks for t and s (residuals res0_, res1_),
// then t's adjoint for x (an argument: no residual) and s (already there).
// CHECK-LABEL: func.func @sq_fwd(
// CHECK-SAME:  -> (tensor<2xf32> {moe.name = "res1", moe.role = "output"}, tensor<2xf32> {moe.name = "res0_", moe.role = "residual"}, tensor<2xf32> {moe.name = "res1_", moe.role = "residual"}) {
// CHECK-LABEL: func.func @sq_bwd(
// CHECK-SAME:  %{{.*}}: tensor<2xf32> {moe.name = "res0_", moe.role = "residual"}, %{{.*}}: tensor<2xf32> {moe.name = "res1_", moe.role = "residual"}, %{{.*}}: tensor<2xf32> {moe.name = "res0", moe.role = "input"}, %{{.*}}: tensor<2xf32> {moe.name = "d_res1", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<2xf32> {moe.name = "d_res0", moe.role = "gradient"}, tensor<2xf32> {moe.name = "d_arg1", moe.role = "gradient"})
func.func @sq(%x: tensor<2xf32> {moe.name = "res0"}, %y: tensor<2xf32>) -> (tensor<2xf32> {moe.name = "res1"}) {
  %s = arith.addf %x, %y : tensor<2xf32>
  %t = arith.mulf %x, %s : tensor<2xf32>
  %z = arith.mulf %t, %s : tensor<2xf32>
  return %z : tensor<2xf32>
}
