// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.route softmax: p[t, e] = e^(x[t,e] − m) / Σ_j e^(x[t,j] − m), m = max_j x[t,j].
//
// Derivation (python3 math at writing time):
//   t0 [0, 0, 0, 0]: all equal → 1/4 each = 0.25 (exact).
//   t1 [1, 2, 3, 4]: Σ e^(x−4) = 1 + e^-1 + e^-2 + e^-3 = 1.553001793
//       → [e^-3, e^-2, e^-1, 1] / 1.553001793
//       = [0.03205860328, 0.08714431874, 0.2368828181, 0.6439142599]
//   t2 [2, 0, 0, −2]: Σ e^(x−2) = 1 + 2e^-2 + e^-4 = 1.288986205
//       → [0.7758034926, 0.1049935854, 0.1049935854, 0.01420933662]
//   t3 [1000, 1000, 0, −1000]: e^1000 overflows f32, so this row checks the
//       max subtraction: [1, 1, e^-1000, e^-2000] / 2 → [0.5, 0.5, 0, 0].
// Transcendental results to ~7 significant digits with a few-ulp window.
func.func @route_softmax() -> tensor<4x4xf32> {
  %l = arith.constant dense<[[0.0, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0],
                             [2.0, 0.0, 0.0, -2.0], [1000.0, 1000.0, 0.0, -1000.0]]> : tensor<4x4xf32>
  %init1 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route softmax %l outs(%init1) : tensor<4x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
// CHECK: result0 = [0.25, 0.25, 0.25, 0.25, 0.032058{{[5-6][0-9]*}}, 0.087144{{[2-3][0-9]*}}, 0.236882{{[7-8][0-9]*}}, 0.643914{{[0-4][0-9]*}}, 0.775803{{[2-7][0-9]*}}, 0.104993{{[5-6][0-9]*}}, 0.104993{{[5-6][0-9]*}}, 0.0142093{{[3-4][0-9]*}}, 0.5, 0.5, 0, 0]
