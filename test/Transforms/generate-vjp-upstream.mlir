// RUN: moe-opt %s -split-input-file -verify-diagnostics --moe-generate-vjp | FileCheck %s
// RUN: moe-opt %s -split-input-file -verify-diagnostics --moe-generate-vjp=recompute=none | FileCheck %s --check-prefix=NONE

// The adjoints of the upstream ops moe programs use around the moe ops
// (VJPOpInterface external models, lib/Dialect/UpstreamVJPInterfaceImpl.cpp),
// one op per function. Numbers are checked by finite differences in
// test/gradcheck/vjp/upstream*.mlir; here, the ops each adjoint builds.

// addf: both operands get the cotangent itself; the backward needs no
// forward value.
// CHECK-LABEL: func.func @addf_bwd
// CHECK-SAME:  (%[[D:.*]]: tensor<4xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// CHECK-NEXT:  return %[[D]], %[[D]] : tensor<4xf32>, tensor<4xf32>
func.func @addf(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %a, %b : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// subf: d for the minuend, −d for the subtrahend.
// CHECK-LABEL: func.func @subf_bwd
// CHECK-SAME:  (%[[D:.*]]: tensor<4xf32> {{.*}})
// CHECK-NEXT:  %[[N:.*]] = arith.negf %[[D]] : tensor<4xf32>
// CHECK-NEXT:  return %[[D]], %[[N]]
func.func @subf(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.subf %a, %b : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// negf: −d.
// CHECK-LABEL: func.func @negf_bwd
// CHECK-SAME:  (%[[D:.*]]: tensor<4xf32> {{.*}})
// CHECK-NEXT:  %[[N:.*]] = arith.negf %[[D]] : tensor<4xf32>
// CHECK-NEXT:  return %[[N]]
func.func @negf(%a: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.negf %a : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// mulf: d·b for a, d·a for b; a and b are @mulf's arguments, taken by
// @mulf_bwd in the order the adjoint asks for them.
// CHECK-LABEL: func.func @mulf_bwd
// CHECK-SAME:  (%[[A:.*]]: tensor<4xf32> {moe.name = "arg0", moe.role = "input"}, %[[B:.*]]: tensor<4xf32> {moe.name = "arg1", moe.role = "input"}, %[[D:.*]]: tensor<4xf32> {{.*}})
// CHECK-NEXT:  %[[DA:.*]] = arith.mulf %[[D]], %[[B]] : tensor<4xf32>
// CHECK-NEXT:  %[[DB:.*]] = arith.mulf %[[D]], %[[A]] : tensor<4xf32>
// CHECK-NEXT:  return %[[DA]], %[[DB]]
func.func @mulf(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.mulf %a, %b : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// mulf of a value by itself: the two operand cotangents are summed.
// CHECK-LABEL: func.func @square_bwd
// CHECK-SAME:  (%[[A:.*]]: tensor<4xf32> {{.*}}, %[[D:.*]]: tensor<4xf32> {{.*}})
// CHECK-NEXT:  %[[D0:.*]] = arith.mulf %[[D]], %[[A]] : tensor<4xf32>
// CHECK-NEXT:  %[[D1:.*]] = arith.mulf %[[D]], %[[A]] : tensor<4xf32>
// CHECK-NEXT:  %[[DA:.*]] = arith.addf %[[D0]], %[[D1]] : tensor<4xf32>
// CHECK-NEXT:  return %[[DA]]
func.func @square(%a: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.mulf %a, %a : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// divf: d/b for a, −(d/b)·a/b for b.
// CHECK-LABEL: func.func @divf_bwd
// CHECK-SAME:  (%[[A:.*]]: tensor<4xf32> {{.*}}, %[[B:.*]]: tensor<4xf32> {{.*}}, %[[D:.*]]: tensor<4xf32> {{.*}})
// CHECK-NEXT:  %[[DA:.*]] = arith.divf %[[D]], %[[B]] : tensor<4xf32>
// CHECK-NEXT:  %[[M:.*]] = arith.mulf %[[DA]], %[[A]] : tensor<4xf32>
// CHECK-NEXT:  %[[Q:.*]] = arith.divf %[[M]], %[[B]] : tensor<4xf32>
// CHECK-NEXT:  %[[DB:.*]] = arith.negf %[[Q]] : tensor<4xf32>
// CHECK-NEXT:  return %[[DA]], %[[DB]]
func.func @divf(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.divf %a, %b : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// truncf / extf: the cotangent takes the opposite cast back to the
// operand's type.
// CHECK-LABEL: func.func @casts_bwd
// CHECK-SAME:  (%[[DH:.*]]: tensor<4xbf16> {moe.name = "d_result0", moe.role = "cotangent"}, %[[DW:.*]]: tensor<4xf64> {moe.name = "d_result1", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<4xf32> {moe.name = "d_arg0", moe.role = "gradient"}, tensor<4xf32> {moe.name = "d_arg1", moe.role = "gradient"})
// CHECK-NEXT:  %[[DB:.*]] = arith.truncf %[[DW]] : tensor<4xf64> to tensor<4xf32>
// CHECK-NEXT:  %[[DA:.*]] = arith.extf %[[DH]] : tensor<4xbf16> to tensor<4xf32>
// CHECK-NEXT:  return %[[DA]], %[[DB]]
func.func @casts(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xbf16>, tensor<4xf64>) {
  %h = arith.truncf %a : tensor<4xf32> to tensor<4xbf16>
  %w = arith.extf %b : tensor<4xf32> to tensor<4xf64>
  return %h, %w : tensor<4xbf16>, tensor<4xf64>
}

// -----

// expand_shape / collapse_shape: the cotangent takes the inverse reshape
// with the same reassociation.
// CHECK-LABEL: func.func @reshapes_bwd
// CHECK-SAME:  (%[[DR:.*]]: tensor<4x2xf32> {{.*}}, %[[DF:.*]]: tensor<8xf32> {{.*}})
// CHECK-NEXT:  %[[DB:.*]] = tensor.expand_shape %[[DF]] {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT:  %[[DA:.*]] = tensor.collapse_shape %[[DR]] {{\[\[}}0, 1]] : tensor<4x2xf32> into tensor<8xf32>
// CHECK-NEXT:  return %[[DA]], %[[DB]]
func.func @reshapes(%a: tensor<8xf32>, %b: tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<8xf32>) {
  %rows = tensor.expand_shape %a [[0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
  %flat = tensor.collapse_shape %b [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  return %rows, %flat : tensor<4x2xf32>, tensor<8xf32>
}

// -----

// A dynamic expand_shape: its output size operand (an index) carries no
// gradient; the inverse collapse is dynamic too.
// CHECK-LABEL: func.func @dynamic_expand_bwd
// CHECK-SAME:  (%[[D:.*]]: tensor<?x2xf32> {{.*}})
// CHECK-NEXT:  %[[DA:.*]] = tensor.collapse_shape %[[D]] {{\[\[}}0, 1]] : tensor<?x2xf32> into tensor<?xf32>
// CHECK-NEXT:  return %[[DA]] : tensor<?xf32>
func.func @dynamic_expand(%a: tensor<?xf32>, %n: index) -> tensor<?x2xf32> {
  %rows = tensor.expand_shape %a [[0, 1]] output_shape [%n, 2] : tensor<?xf32> into tensor<?x2xf32>
  return %rows : tensor<?x2xf32>
}

// -----

// arith.constant and tensor.empty are recomputed in the backward under every
// policy (recompute class `always`), never saved: @const_fwd returns no
// residual. The cotangents reaching them (d·x, unused) stop there.
// CHECK-LABEL: func.func @const_fwd
// CHECK-SAME:  -> (tensor<4xf32> {moe.name = "result0", moe.role = "output"}) {
// CHECK-LABEL: func.func @const_bwd
// CHECK-SAME:  (%[[X:.*]]: tensor<4xf32> {moe.name = "arg0", moe.role = "input"}, %[[D:.*]]: tensor<4xf32> {{.*}})
// CHECK-NEXT:  %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:  %[[DXE:.*]] = arith.mulf %[[D]], %[[E]] : tensor<4xf32>
// CHECK-NEXT:  arith.mulf %[[D]], %[[X]] : tensor<4xf32>
// CHECK-NEXT:  %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT:  %[[DXC:.*]] = arith.mulf %[[D]], %[[C]] : tensor<4xf32>
// CHECK-NEXT:  arith.mulf %[[D]], %[[X]] : tensor<4xf32>
// CHECK-NEXT:  %[[DX:.*]] = arith.addf %[[DXE]], %[[DXC]] : tensor<4xf32>
// CHECK-NEXT:  return %[[DX]]
// NONE-LABEL:  func.func @const_fwd
// NONE-SAME:   -> (tensor<4xf32> {moe.name = "result0", moe.role = "output"}) {
// NONE-LABEL:  func.func @const_bwd
// NONE-SAME:   (%{{.*}}: tensor<4xf32> {moe.name = "arg0", moe.role = "input"}, %{{.*}}: tensor<4xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// NONE:        tensor.empty
// NONE:        arith.constant
func.func @const(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<2.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %xc = arith.mulf %x, %c : tensor<4xf32>
  %xe = arith.mulf %x, %e : tensor<4xf32>
  %y = arith.addf %xc, %xe : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// A value an adjoint needs that an op without VJPOpInterface defines is
// saved under every policy (it has no recompute class), and that op needs
// no adjoint while no cotangent reaches it: arith.addi makes the group
// sizes of a grouped_matmul.
// CHECK-LABEL: func.func @sizes_fwd
// CHECK-SAME:  -> (tensor<8x6xf32> {moe.name = "result0", moe.role = "output"}, tensor<2xi32> {moe.name = "res0", moe.role = "residual"}) {
// CHECK:       %[[M:.*]] = arith.addi
// CHECK:       return %{{.*}}, %[[M]]
// CHECK-LABEL: func.func @sizes_bwd
// CHECK-SAME:  (%[[A:.*]]: tensor<8x4xf32> {moe.name = "arg0", moe.role = "input"}, %[[B:.*]]: tensor<2x4x6xf32> {moe.name = "arg1", moe.role = "input"}, %[[M:.*]]: tensor<2xi32> {moe.name = "res0", moe.role = "residual"}, %[[D:.*]]: tensor<8x6xf32> {{.*}})
// CHECK-NOT:   arith.addi
// CHECK:       moe.grouped_matmul %[[D]], %[[B]], %[[M]]
// NONE-LABEL:  func.func @sizes_fwd
// NONE-SAME:   tensor<2xi32> {moe.name = "res0", moe.role = "residual"}) {
func.func @sizes(%a: tensor<8x4xf32>, %b: tensor<2x4x6xf32>, %n: tensor<2xi32>) -> tensor<8x6xf32> {
  %m = arith.addi %n, %n : tensor<2xi32>
  %init4 = tensor.empty() : tensor<8x6xf32>
  %c = moe.grouped_matmul %a, %b, %m outs(%init4) : tensor<8x4xf32>, tensor<2x4x6xf32>, tensor<2xi32> -> tensor<8x6xf32>
  return %c : tensor<8x6xf32>
}

// -----

// An upstream op with no model is reported by name when a cotangent reaches
// it.
func.func @slice(%x: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.extract_slice' op has no adjoint: moe-generate-vjp supports the moe ops, arith.addf/subf/mulf/divf/negf/truncf/extf/constant, tensor.empty and tensor.expand_shape/collapse_shape on tensors}}
  %y = tensor.extract_slice %x[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %y : tensor<4xf32>
}
