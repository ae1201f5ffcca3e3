// Finite-difference check of moe.z_loss's adjoint:
// dl = dloss · (2·coeff/T) · logsumexp(l[t]) · softmax(l[t]).
// z_loss_large scales the logits by 20 (large logsumexp, where a naive
// exp(l) would lose precision).
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry z_loss --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry z_loss --seed 2 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry z_loss_large --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry z_loss_large --seed 2 --per-input | FileCheck %s

// CHECK:      gradients: d_logits [16, 8] f32 (all finite)
// CHECK-NEXT: check logits: {{.*}} ok
// CHECK-NEXT: PASS

func.func @z_loss(%l: tensor<16x8xf32> {moe.name = "logits"}) -> (tensor<f32> {moe.name = "loss"}) {
  %init1 = tensor.empty() : tensor<f32>
  %z = moe.z_loss %l coeff 1.0e-03 outs(%init1) : tensor<16x8xf32> -> tensor<f32>
  return %z : tensor<f32>
}

func.func @z_loss_large(%l: tensor<16x8xf32> {moe.name = "logits"}) -> (tensor<f32> {moe.name = "loss"}) {
  %c = arith.constant dense<20.0> : tensor<16x8xf32>
  %l20 = arith.mulf %l, %c : tensor<16x8xf32>
  %init2 = tensor.empty() : tensor<f32>
  %z = moe.z_loss %l20 coeff 1.0e-03 outs(%init2) : tensor<16x8xf32> -> tensor<f32>
  return %z : tensor<f32>
}
