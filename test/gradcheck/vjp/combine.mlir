// Finite-difference check of moe.combine's adjoint (moe.combine_grad):
// dy[rows[t,k]] += weights[t,k]·dout[t], dweights[t,k] = <dout[t], y[rows[t,k]]>.
// rows come from a moe.permute of a moe.topk of a separate argument `sel`
// (no gradient, not perturbed). combine_align4 gathers from a padded
// dispatch (align 4, experts 5..7 empty): padding rows and rows past the last
// group are never gathered, so their gradient is zero.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry combine --seed 1 --per-input | FileCheck %s --check-prefix=A1
// RUN: moe-gradcheck %t --entry combine --seed 2 --per-input | FileCheck %s --check-prefix=A1
// RUN: moe-gradcheck %t --entry combine_align4 --seed 1 --per-input | FileCheck %s --check-prefix=A4
// RUN: moe-gradcheck %t --entry combine_align4 --seed 2 --per-input | FileCheck %s --check-prefix=A4

// A1:      gradients: d_y [32, 8] f32, d_weights [16, 2] f32 (all finite)
// A1-NEXT: check y: {{.*}} ok
// A1-NEXT: check weights: {{.*}} ok
// A1-NEXT: PASS

// A4:      gradients: d_y [72, 8] f32, d_weights [16, 3] f32 (all finite)
// A4-NEXT: check y: {{.*}} ok
// A4-NEXT: check weights: {{.*}} ok
// A4-NEXT: PASS

func.func @combine(%y: tensor<32x8xf32> {moe.name = "y"}, %cw: tensor<16x2xf32> {moe.name = "weights"},
                   %sel: tensor<16x8xf32> {moe.name = "sel"}) -> (tensor<16x8xf32> {moe.name = "out"}) {
  %init1 = tensor.empty() : tensor<16x2xf32>
  %init2 = tensor.empty() : tensor<16x2xi32>
  %w, %i = moe.topk softmax %sel k 2 outs(%init1, %init2) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
  %init3 = tensor.empty() : tensor<32x8xf32>
  %init4 = tensor.empty() : tensor<8xi32>
  %init5 = tensor.empty() : tensor<16x2xi32>
  %xs, %sizes, %rows = moe.permute %sel, %i experts 8 align 1 outs(%init3, %init4, %init5) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<32x8xf32>, tensor<8xi32>, tensor<16x2xi32>
  %init6 = tensor.empty() : tensor<16x8xf32>
  %out = moe.combine %y, %rows, %cw outs(%init6) : tensor<32x8xf32>, tensor<16x2xi32>, tensor<16x2xf32> -> tensor<16x8xf32>
  return %out : tensor<16x8xf32>
}

func.func @combine_align4(%y: tensor<72x8xf32> {moe.name = "y"}, %cw: tensor<16x3xf32> {moe.name = "weights"},
                          %sel: tensor<16x8xf32> {moe.name = "sel"}) -> (tensor<16x8xf32> {moe.name = "out"}) {
  %skew = arith.constant dense<[[4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0], [4.0, 3.0, 2.0, 1.0, 0.0, -10.0, -10.0, -10.0]]> : tensor<16x8xf32>
  %sel2 = arith.addf %sel, %skew : tensor<16x8xf32>
  %init7 = tensor.empty() : tensor<16x3xf32>
  %init8 = tensor.empty() : tensor<16x3xi32>
  %w, %i = moe.topk softmax %sel2 k 3 outs(%init7, %init8) : tensor<16x8xf32> -> tensor<16x3xf32>, tensor<16x3xi32>
  %init9 = tensor.empty() : tensor<72x8xf32>
  %init10 = tensor.empty() : tensor<8xi32>
  %init11 = tensor.empty() : tensor<16x3xi32>
  %xs, %sizes, %rows = moe.permute %sel, %i experts 8 align 4 outs(%init9, %init10, %init11) : tensor<16x8xf32>, tensor<16x3xi32> -> tensor<72x8xf32>, tensor<8xi32>, tensor<16x3xi32>
  %init12 = tensor.empty() : tensor<16x8xf32>
  %out = moe.combine %y, %rows, %cw outs(%init12) : tensor<72x8xf32>, tensor<16x3xi32>, tensor<16x3xf32> -> tensor<16x8xf32>
  return %out : tensor<16x8xf32>
}
