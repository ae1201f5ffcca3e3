// Finite differences through the float casts (arith.extf / arith.truncf,
// whose adjoints are the opposite casts) around f64 arithmetic and a moe op:
// every input and gradient stays f32.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry casts --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry casts --seed 2 --per-input | FileCheck %s
// CHECK: gradients: d_arg0 [4, 2] f32, d_arg1 [4, 2] f32, d_arg2 [2, 3] f32 (all finite)
// CHECK-NEXT: check arg0: {{.*}} ok
// CHECK-NEXT: check arg1: {{.*}} ok
// CHECK-NEXT: check arg2: {{.*}} ok
// CHECK-NEXT: PASS
func.func @casts(%x: tensor<4x2xf32>, %y: tensor<4x2xf32>, %w: tensor<2x3xf32>) -> (tensor<4x2xf32>, tensor<4x3xf32>) {
  %xw = arith.extf %x : tensor<4x2xf32> to tensor<4x2xf64>
  %yw = arith.extf %y : tensor<4x2xf32> to tensor<4x2xf64>
  %p = arith.mulf %xw, %yw : tensor<4x2xf64>
  %s = arith.subf %p, %xw : tensor<4x2xf64>
  %r = arith.truncf %s : tensor<4x2xf64> to tensor<4x2xf32>
  %init3 = tensor.empty() : tensor<4x3xf32>
  %g = moe.gate %r, %w outs(%init3) : tensor<4x2xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  return %r, %g : tensor<4x2xf32>, tensor<4x3xf32>
}
