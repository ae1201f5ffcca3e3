// Finite-difference check of moe.route's adjoint for every score function,
// from a logits argument to the scores. sqrtsoftplus_large scales the logits
// by 30 first so that some of them take the softplus(x) = x branch (x > 20).
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry route_softmax --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry route_softmax --seed 2 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry route_sigmoid --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry route_sigmoid --seed 2 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry route_sqrtsoftplus --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry route_sqrtsoftplus --seed 2 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry route_sqrtsoftplus_large --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry route_sqrtsoftplus_large --seed 2 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry route_identity --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry route_identity --seed 2 --per-input | FileCheck %s

// CHECK:      gradients: d_logits [16, 8] f32 (all finite)
// CHECK-NEXT: check logits: {{.*}} ok
// CHECK-NEXT: PASS

func.func @route_softmax(%l: tensor<16x8xf32> {moe.name = "logits"}) -> (tensor<16x8xf32> {moe.name = "scores"}) {
  %init1 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route softmax %l outs(%init1) : tensor<16x8xf32> -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

func.func @route_sigmoid(%l: tensor<16x8xf32> {moe.name = "logits"}) -> (tensor<16x8xf32> {moe.name = "scores"}) {
  %init2 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sigmoid %l outs(%init2) : tensor<16x8xf32> -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

func.func @route_sqrtsoftplus(%l: tensor<16x8xf32> {moe.name = "logits"}) -> (tensor<16x8xf32> {moe.name = "scores"}) {
  %init3 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sqrtsoftplus %l outs(%init3) : tensor<16x8xf32> -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

func.func @route_sqrtsoftplus_large(%l: tensor<16x8xf32> {moe.name = "logits"}) -> (tensor<16x8xf32> {moe.name = "scores"}) {
  %c = arith.constant dense<30.0> : tensor<16x8xf32>
  %l30 = arith.mulf %l, %c : tensor<16x8xf32>
  %init4 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route sqrtsoftplus %l30 outs(%init4) : tensor<16x8xf32> -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}

func.func @route_identity(%l: tensor<16x8xf32> {moe.name = "logits"}) -> (tensor<16x8xf32> {moe.name = "scores"}) {
  %init5 = tensor.empty() : tensor<16x8xf32>
  %s = moe.route identity %l outs(%init5) : tensor<16x8xf32> -> tensor<16x8xf32>
  return %s : tensor<16x8xf32>
}
