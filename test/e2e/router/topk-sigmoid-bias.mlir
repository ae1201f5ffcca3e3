// RUN: moe-runner %s --device cpu --print | FileCheck %s

// Sigmoid routing with an expert bias (aux-loss-free balancing): selection
// on s = σ(logit) + bias, weights from the UNBIASED σ of the chosen experts,
// normalize sum (w / (Σw + 1e-20)); k = 2. Bias = [−0.5, 0, 0.25, 0.625].
//
// Derivation (python3 math at writing time):
//   t0 logits [2, 1, 0, −1]: σ = [0.880797078, 0.7310585786, 0.5, 0.2689414214]
//      s = [0.380797078, 0.7310585786, 0.75, 0.8939414214]
//      → e3, e2 (without the bias it would be e0, e1)
//      w = [0.2689414214, 0.5] / 0.7689414214 = [0.3497554091, 0.6502445909]
//   t1 logits [4, 0, −4, −4]: σ = [0.98201379, 0.5, 0.01798620996, 0.01798620996]
//      s = [0.48201379, 0.5, 0.26798621, 0.64298621]
//      → e3 (0.643), e1 (0.5); ordered by s although σ(e1) > σ(e3)
//      w = [0.01798620996, 0.5] / 0.51798621 = [0.03472333745, 0.9652766626]
//   t2 logits [5, 5, −5, −5]: σ = [0.9933071491, 0.9933071491, 0.006692850924, 0.006692850924]
//      s = [0.4933071491, 0.9933071491, 0.2566928509, 0.6316928509] → e1, e3
//      w = [0.9933071491, 0.006692850924] / 1 (σ(5) + σ(−5) = 1)
//   t3 logits [0, 0, 0, 0]: σ = 0.5 each; s = [0, 0.5, 0.75, 1.125] → e3, e2
//      w = [0.5, 0.5] / 1 = [0.5, 0.5]
func.func @topk_sigmoid_bias() -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %l = arith.constant dense<[[2.0, 1.0, 0.0, -1.0], [4.0, 0.0, -4.0, -4.0],
                             [5.0, 5.0, -5.0, -5.0], [0.0, 0.0, 0.0, 0.0]]> : tensor<4x4xf32>
  %b = arith.constant dense<[-0.5, 0.0, 0.25, 0.625]> : tensor<4xf32>
  %init1 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route sigmoid %l outs(%init1) : tensor<4x4xf32> -> tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x2xf32>
  %init3 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk sigmoid %s bias %b k 2 outs(%init2, %init3) {normalize = #moe<normalize sum>} : tensor<4x4xf32>, tensor<4xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return %w, %i : tensor<4x2xf32>, tensor<4x2xi32>
}
// CHECK: result0 = [0.349755{{[3-5][0-9]*}}, 0.650244{{[4-7][0-9]*}}, 0.0347233{{[2-4][0-9]*}}, 0.965276{{[3-9][0-9]*}}, 0.99330{{[6-7][0-9]*}}, 0.0066928{{[4-5][0-9]*}}, 0.5, 0.5]
// CHECK: result1 = [3, 2, 3, 1, 1, 3, 3, 2]
