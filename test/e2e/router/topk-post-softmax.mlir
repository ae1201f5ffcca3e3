// RUN: moe-runner %s --device cpu --print | FileCheck %s

// Post-softmax routing: moe.route identity (logits unchanged), moe.topk
// identity selects on the raw logits and normalize softmax takes the softmax
// over the k = 2 chosen only: w = [σ(a − b), σ(b − a)] for chosen logits a ≥ b.
//
// Derivation (python3 math at writing time):
//   t0 [1, 2, 3, 4]      → e3 (4), e2 (3); Δ = 1   → [0.7310585786, 0.2689414214]
//   t1 [0, 0.5, −1, 2]   → e3 (2), e1 (0.5); Δ = 1.5 → [0.8175744762, 0.1824255238]
//   t2 [−1, −2, −3, −4]  → e0, e1; Δ = 1             → [0.7310585786, 0.2689414214]
//   t3 [5, 0, 5.5, 1]    → e2 (5.5), e0 (5); Δ = 0.5 → [0.6224593312, 0.3775406688]
// (Pre-softmax routing of t0 would give [0.6439, 0.2369]: the two differ.)
func.func @topk_post_softmax() -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %l = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.0, 0.5, -1.0, 2.0],
                             [-1.0, -2.0, -3.0, -4.0], [5.0, 0.0, 5.5, 1.0]]> : tensor<4x4xf32>
  %init1 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route identity %l outs(%init1) : tensor<4x4xf32> -> tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x2xf32>
  %init3 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk identity %s k 2 outs(%init2, %init3) {normalize = #moe<normalize softmax>} : tensor<4x4xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return %w, %i : tensor<4x2xf32>, tensor<4x2xi32>
}
// CHECK: result0 = [0.731058{{[3-7][0-9]*}}, 0.268941{{[3-4][0-9]*}}, 0.817574{{[2-7][0-9]*}}, 0.182425{{[4-5][0-9]*}}, 0.731058{{[3-7][0-9]*}}, 0.268941{{[3-4][0-9]*}}, 0.622459{{[1-5][0-9]*}}, 0.377540{{[5-7][0-9]*}}]
// CHECK: result1 = [3, 2, 3, 1, 0, 1, 2, 0]
