// Finite-difference check of moe.gate's adjoint: dx = dl·wᵀ, dw = xᵀ·dl.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry gate --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry gate --seed 2 --per-input | FileCheck %s

// CHECK:      gradients: d_x [16, 8] f32, d_w [8, 8] f32 (all finite)
// CHECK-NEXT: check x: {{.*}} ok
// CHECK-NEXT: check w: {{.*}} ok
// CHECK-NEXT: PASS
func.func @gate(%x: tensor<16x8xf32> {moe.name = "x"}, %w: tensor<8x8xf32> {moe.name = "w"})
    -> (tensor<16x8xf32> {moe.name = "logits"}) {
  %init1 = tensor.empty() : tensor<16x8xf32>
  %l = moe.gate %x, %w outs(%init1) : tensor<16x8xf32>, tensor<8x8xf32> -> tensor<16x8xf32>
  return %l : tensor<16x8xf32>
}
