// RUN: moe-runner %s --device cpu --print | FileCheck %s

// sqrtsoftplus routing with an expert bias, normalize none, k = 2: selection
// on s = √softplus(logit) + bias, weights the unbiased √softplus values.
// Bias = [1, 0, 0.5, −1].
//
// Derivation (python3 math at writing time), r = √log1p(e^x) (x ≤ 20):
//   r(0) = 0.8325546112, r(1) = 1.145976303, r(−1) = 0.5596978538,
//   r(2) = 1.458399126, r(−2) = 0.3562695764, r(3) = 1.746020433,
//   r(3.5) = 1.878763002, r(4) = 2.004532346; r(25) = √25 = 5 (x > 20).
//   t0 [0, 1, −1, 2]:  r = [0.8326, 1.1460, 0.5597, 1.4584]
//      s = [1.832554611, 1.145976303, 1.059697854, 0.4583991261]
//      → e0, e1 (unbiased: e3, e1)  w = [0.8325546112, 1.145976303]
//   t1 [25, 0, 0, 0]:  r = [5, 0.8326, 0.8326, 0.8326]
//      s = [6, 0.8325546112, 1.332554611, −0.1674453888]
//      → e0, e2 (unbiased: e0, e1)  w = [5, 0.8325546112]
//   t2 [−2, 3, 3.5, 4]: r = [0.3563, 1.7460, 1.8788, 2.0045]
//      s = [1.356269576, 1.746020433, 2.378763002, 1.004532346]
//      → e2, e1 (unbiased: e3, e2)  w = [1.878763002, 1.746020433]
//   t3 [1, 1, 1, 1]:   r = 1.145976303 each; s = [2.146, 1.146, 1.646, 0.146]
//      → e0, e2                    w = [1.145976303, 1.145976303]
func.func @topk_sqrtsoftplus_bias() -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %l = arith.constant dense<[[0.0, 1.0, -1.0, 2.0], [25.0, 0.0, 0.0, 0.0],
                             [-2.0, 3.0, 3.5, 4.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<4x4xf32>
  %b = arith.constant dense<[1.0, 0.0, 0.5, -1.0]> : tensor<4xf32>
  %init1 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route sqrtsoftplus %l outs(%init1) : tensor<4x4xf32> -> tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x2xf32>
  %init3 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk sqrtsoftplus %s bias %b k 2 outs(%init2, %init3) : tensor<4x4xf32>, tensor<4xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return %w, %i : tensor<4x2xf32>, tensor<4x2xi32>
}
// CHECK: result0 = [0.832554{{[3-8][0-9]*}}, 1.14597{{[5-6][0-9]*}}, 5, 0.832554{{[3-8][0-9]*}}, 1.87876{{[2-3][0-9]*}}, 1.7460{{[1-2][0-9]*}}, 1.14597{{[5-6][0-9]*}}, 1.14597{{[5-6][0-9]*}}]
// CHECK: result1 = [0, 1, 0, 2, 2, 1, 0, 2]
