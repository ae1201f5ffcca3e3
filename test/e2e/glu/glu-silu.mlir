// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.glu silu: h = silu(gate) · up, silu(x) = x · σ(x) = x / (1 + e^-x).
//
// Derivation (e = 2.718281828459045):
//   silu(0)  = 0                                    · 1    = 0
//   silu(1)  = 1 / (1 + 0.36787944117)  = 0.73105857863 · 2    = 1.46211715726
//   silu(-1) = -1 / (1 + 2.71828182846) = -0.26894142137 · 3   = -0.80682426410
//   silu(2)  = 2 / (1 + 0.13533528324)  = 1.76159415596 · 0.5  = 0.88079707798
//   silu(-3) = -3 / (1 + 20.0855369232) = -0.14227761953 · -1  = 0.14227761953
//   silu(10) = 10 / (1 + 4.539992976e-5) = 9.99954602131 · 1   = 9.99954602131
// Transcendental results are checked to 6 significant digits, with a window
// of about ±1e-6 relative (a few f32 ulps) where it straddles a digit.
func.func @glu_silu() -> tensor<2x3xf32> {
  %g = arith.constant dense<[[0.0, 1.0, -1.0], [2.0, -3.0, 10.0]]> : tensor<2x3xf32>
  %u = arith.constant dense<[[1.0, 2.0, 3.0], [0.5, -1.0, 1.0]]> : tensor<2x3xf32>
  %init1 = tensor.empty() : tensor<2x3xf32>
  %h = moe.glu silu %g, %u outs(%init1) : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %h : tensor<2x3xf32>
}
// CHECK: result0 = [0, 1.46211{{[0-9]*}}, -0.80682{{[3-5][0-9]*}}, 0.88079{{[6-7][0-9]*}}, 0.142277{{[0-9]*}}, 9.9995{{[3-5][0-9]*}}]
