// RUN: moe-runner %s --device cpu --print | FileCheck %s

// normalize sum with k = 1 is a no-op: the weight is the raw score σ(x) of
// the chosen expert (dividing it by itself would give 1).
//
// Derivation (python3 math at writing time):
//   t0 [1, 0, −1, 2]       → best e3: σ(2)  = 0.880797078
//   t1 [0, 3, −3, 1]       → best e1: σ(3)  = 0.9525741268
//   t2 [−1, −2, −0.5, −4]  → best e2: σ(−0.5) = 0.3775406688
//   t3 [0, 0, 0, 0]        → all tie, lowest index e0: σ(0) = 0.5
func.func @topk_normalize_sum_k1() -> (tensor<4x1xf32>, tensor<4x1xi32>) {
  %l = arith.constant dense<[[1.0, 0.0, -1.0, 2.0], [0.0, 3.0, -3.0, 1.0],
                             [-1.0, -2.0, -0.5, -4.0], [0.0, 0.0, 0.0, 0.0]]> : tensor<4x4xf32>
  %init1 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route sigmoid %l outs(%init1) : tensor<4x4xf32> -> tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x1xf32>
  %init3 = tensor.empty() : tensor<4x1xi32>
  %w, %i = moe.topk sigmoid %s k 1 outs(%init2, %init3) {normalize = #moe<normalize sum>} : tensor<4x4xf32> -> tensor<4x1xf32>, tensor<4x1xi32>
  return %w, %i : tensor<4x1xf32>, tensor<4x1xi32>
}
// CHECK: result0 = [0.88079{{[6-7][0-9]*}}, 0.95257{{[3-4][0-9]*}}, 0.377540{{[5-7][0-9]*}}, 0.5]
// CHECK: result1 = [3, 1, 2, 0]
