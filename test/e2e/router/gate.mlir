// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.gate: logits[t, e] = Σ_h x[t, h] · w[h, e], x bf16 read as f32, w f32,
// accumulated and returned in f32.
//
//   x (bf16) = [[ 1,   2, 0, -1   ],      w (f32) = [[1, 0, 0.5,  0.25],
//               [ 0.5, 0.5, 0.5, 0.5],               [0, 1, 0.5, -1   ],
//               [ 0.1, 0, 0,  0   ],                 [0, 0, 1,    2   ],
//               [-2,   1, 3,  0.25]]                 [1, 1, 0,    4   ]]
//
// 0.1 is not a bf16 value: 0.1 = 1.6·2^-4 and 1.6 with 7 fraction bits is
// 204.8/128 → 205/128 = 1.6015625, so x[2,0] = 0.10009765625. Every other
// value and every product/sum below is exact in f32.
//
//   t0: e0 = 1·1 + 2·0 + 0·0 + (−1)·1            = 0
//       e1 = 1·0 + 2·1 + 0·0 + (−1)·1            = 1
//       e2 = 1·0.5 + 2·0.5 + 0·1 + (−1)·0        = 1.5
//       e3 = 1·0.25 + 2·(−1) + 0·2 + (−1)·4      = −5.75
//   t1: 0.5 · column sums; sums = [2, 2, 2, 5.25] → [1, 1, 1, 2.625]
//   t2: 0.10009765625 · w[0,:] = [0.10009765625, 0, 0.050048828125,
//       0.0250244140625]  (%.9g: 0.100097656, 0, 0.0500488281, 0.0250244141)
//   t3: e0 = −2·1 + 0.25·1                       = −1.75
//       e1 = 1·1 + 0.25·1                        = 1.25
//       e2 = −2·0.5 + 1·0.5 + 3·1                = 2.5
//       e3 = −2·0.25 + 1·(−1) + 3·2 + 0.25·4     = 5.5
func.func @gate_bf16_f32() -> tensor<4x4xf32> {
  %x = arith.constant dense<[[1.0, 2.0, 0.0, -1.0], [0.5, 0.5, 0.5, 0.5],
                             [0.1, 0.0, 0.0, 0.0], [-2.0, 1.0, 3.0, 0.25]]> : tensor<4x4xbf16>
  %w = arith.constant dense<[[1.0, 0.0, 0.5, 0.25], [0.0, 1.0, 0.5, -1.0],
                             [0.0, 0.0, 1.0, 2.0], [1.0, 1.0, 0.0, 4.0]]> : tensor<4x4xf32>
  %init1 = tensor.empty() : tensor<4x4xf32>
  %l = moe.gate %x, %w outs(%init1) : tensor<4x4xbf16>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %l : tensor<4x4xf32>
}
// CHECK: result0 = [0, 1, 1.5, -5.75, 1, 1, 1, 2.625, 0.100097656, 0, 0.0500488281, 0.0250244141, -1.75, 1.25, 2.5, 5.5]

// Five tokens: one full block of four tokens per iteration and a block with
// one token (the three past the end are neither read beyond x nor stored).
// The same x and w, plus t4 = [1, 1, 1, 1]: the column sums of w,
// [2, 2, 2, 5.25].
func.func @gate_five_tokens() -> tensor<5x4xf32> {
  %x = arith.constant dense<[[1.0, 2.0, 0.0, -1.0], [0.5, 0.5, 0.5, 0.5],
                             [0.1, 0.0, 0.0, 0.0], [-2.0, 1.0, 3.0, 0.25],
                             [1.0, 1.0, 1.0, 1.0]]> : tensor<5x4xbf16>
  %w = arith.constant dense<[[1.0, 0.0, 0.5, 0.25], [0.0, 1.0, 0.5, -1.0],
                             [0.0, 0.0, 1.0, 2.0], [1.0, 1.0, 0.0, 4.0]]> : tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<5x4xf32>
  %l = moe.gate %x, %w outs(%init2) : tensor<5x4xbf16>, tensor<4x4xf32> -> tensor<5x4xf32>
  return %l : tensor<5x4xf32>
}
// CHECK: result0 = [0, 1, 1.5, -5.75, 1, 1, 1, 2.625, 0.100097656, 0, 0.0500488281, 0.0250244141, -1.75, 1.25, 2.5, 5.5, 2, 2, 2, 5.25]
