// Finite differences through the upstream tensor ops moe programs use:
// reshapes (inverse reshape), division, negation, subtraction, product,
// sum, and f32 ↔ f32 casts around a moe op.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry upstream --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry upstream --seed 2 --per-input | FileCheck %s
// CHECK: gradients: d_arg0 [2, 4] f32, d_arg1 [8] f32, d_arg2 [2, 3] f32 (all finite)
// CHECK-NEXT: check arg0: {{.*}} ok
// CHECK-NEXT: check arg1: {{.*}} ok
// CHECK-NEXT: check arg2: {{.*}} ok
// CHECK-NEXT: PASS
func.func @upstream(%x: tensor<2x4xf32>, %y: tensor<8xf32>, %w: tensor<2x3xf32>) -> (tensor<8xf32>, tensor<4x3xf32>) {
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %one = arith.constant dense<1.5> : tensor<8xf32>
  %den = arith.addf %y, %one : tensor<8xf32>
  %sq = arith.mulf %den, %den : tensor<8xf32>
  %q = arith.divf %flat, %sq : tensor<8xf32>
  %n = arith.negf %q : tensor<8xf32>
  %d = arith.subf %n, %flat : tensor<8xf32>
  %rows = tensor.expand_shape %flat [[0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
  %init1 = tensor.empty() : tensor<4x3xf32>
  %g = moe.gate %rows, %w outs(%init1) : tensor<4x2xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  return %d, %g : tensor<8xf32>, tensor<4x3xf32>
}
