// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.permute of a bf16 x: rows are copied exactly (every value below is
// exactly representable in bf16), K = 1.
//
// Derivation (DESIGN.md, moe.permute): T = 3, K = 1, E = 2, A = 1, R = 3.
//   experts: t0 → 1, t1 → 0, t2 → 1; counts e0 = 1, e1 = 2;
//   group_sizes = [1, 2]; offsets 0, 1
//   e0: t1 → row 0 = x1; e1: t0 → row 1 = x0, t2 → row 2 = x2
//   rows = [[1], [0], [2]]
func.func @permute_bf16() -> (tensor<3x2xbf16>, tensor<2xi32>, tensor<3x1xi32>) {
  %x = arith.constant dense<[[1.5, -2.25], [3.0, 0.375], [256.0, -0.0078125]]> : tensor<3x2xbf16>
  %idx = arith.constant dense<[[1], [0], [1]]> : tensor<3x1xi32>
  %init1 = tensor.empty() : tensor<3x2xbf16>
  %init2 = tensor.empty() : tensor<2xi32>
  %init3 = tensor.empty() : tensor<3x1xi32>
  %p, %s, %r = moe.permute %x, %idx experts 2 align 1 outs(%init1, %init2, %init3) : tensor<3x2xbf16>, tensor<3x1xi32> -> tensor<3x2xbf16>, tensor<2xi32>, tensor<3x1xi32>
  return %p, %s, %r : tensor<3x2xbf16>, tensor<2xi32>, tensor<3x1xi32>
}
// CHECK: result0 = [3, 0.375, 1.5, -2.25, 256, -0.0078125]
// CHECK: result1 = [1, 2]
// CHECK: result2 = [1, 0, 2]
