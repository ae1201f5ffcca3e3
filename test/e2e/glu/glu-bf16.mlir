// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.glu on bf16: computed in f32, rounded once to bf16 (nearest even).
// bf16 has 8 significant bits: spacing 2^-7 = 0.0078125 in [1, 2).
//
// Derivation (a = 1.0078125 = 1 + 2^-7, exact in bf16):
//   identity: a·a = 1 + 2^-6 + 2^-14 = 1.01568603515625
//               → between 1.015625 and 1.0234375, nearer 1.015625
//             -1.5·2 = -3;  3·-0.5 = -1.5;  0.25·4 = 1
//   relu2:    a²·a = 1 + 3·2^-7 + 3·2^-14 + 2^-21 = 1.02362108230591 (exact
//               in f32) → between 1.0234375 and 1.03125, nearer 1.0234375
//             relu(-1.5)² · 2 = 0;  9·-0.5 = -4.5;  0.0625·4 = 0.25
func.func @glu_bf16() -> (tensor<2x2xbf16>, tensor<2x2xbf16>) {
  %g = arith.constant dense<[[1.0078125, -1.5], [3.0, 0.25]]> : tensor<2x2xbf16>
  %u = arith.constant dense<[[1.0078125, 2.0], [-0.5, 4.0]]> : tensor<2x2xbf16>
  %init1 = tensor.empty() : tensor<2x2xbf16>
  %id = moe.glu identity %g, %u outs(%init1) : tensor<2x2xbf16>, tensor<2x2xbf16> -> tensor<2x2xbf16>
  %init2 = tensor.empty() : tensor<2x2xbf16>
  %r2 = moe.glu relu2 %g, %u outs(%init2) : tensor<2x2xbf16>, tensor<2x2xbf16> -> tensor<2x2xbf16>
  return %id, %r2 : tensor<2x2xbf16>, tensor<2x2xbf16>
}
// CHECK: result0 = [1.015625, -3, -1.5, 1]
// CHECK: result1 = [1.0234375, 0, -4.5, 0.25]
