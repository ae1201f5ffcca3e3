// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.permute then moe.combine on its rows: the padding (align 4) never
// reaches the output, and out[t] = (Σ_k weights[t,k])·x[t].
//
// Derivation: combine reads y[rows[t,k]] = x[t] for every k (permute copies
// x[t] to rows[t,k]), so
//   out[0] = (0.5 + 0.5)·[1, 2]  = [1, 2]
//   out[1] = (0.25 + 2)·[3, 4]   = [6.75, 9]
//   out[2] = (1 − 0.5)·[5, 6]    = [2.5, 3]
func.func @permute_combine() -> tensor<3x2xf32> {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %idx = arith.constant dense<[[1, 2], [2, 0], [0, 1]]> : tensor<3x2xi32>
  %w = arith.constant dense<[[0.5, 0.5], [0.25, 2.0], [1.0, -0.5]]> : tensor<3x2xf32>
  %init1 = tensor.empty() : tensor<15x2xf32>
  %init2 = tensor.empty() : tensor<3xi32>
  %init3 = tensor.empty() : tensor<3x2xi32>
  %p, %s, %r = moe.permute %x, %idx experts 3 align 4 outs(%init1, %init2, %init3) : tensor<3x2xf32>, tensor<3x2xi32> -> tensor<15x2xf32>, tensor<3xi32>, tensor<3x2xi32>
  %init4 = tensor.empty() : tensor<3x2xf32>
  %out = moe.combine %p, %r, %w outs(%init4) : tensor<15x2xf32>, tensor<3x2xi32>, tensor<3x2xf32> -> tensor<3x2xf32>
  return %out : tensor<3x2xf32>
}
// CHECK: result0 = [1, 2, 6.75, 9, 2.5, 3]
