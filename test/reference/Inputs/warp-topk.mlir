// moe.topk shapes of the warp-per-token schedule (E a multiple of 32),
// each against the reference lowering in gpu-schedules.test. T = 100 tokens
// is not a multiple of the 4 warps of a block.

// qwen3-like: softmax scores, top-8 of 128, softmax over the chosen.
func.func @softmax_e128(%logits: tensor<100x128xf32>) -> (tensor<100x8xf32>, tensor<100x8xi32>) {
  %s0 = tensor.empty() : tensor<100x128xf32>
  %s = moe.route softmax %logits outs(%s0) : tensor<100x128xf32> -> tensor<100x128xf32>
  %w0 = tensor.empty() : tensor<100x8xf32>
  %i0 = tensor.empty() : tensor<100x8xi32>
  %w, %i = moe.topk softmax %s k 8 outs(%w0, %i0) {normalize = #moe<normalize softmax>}
      : tensor<100x128xf32> -> tensor<100x8xf32>, tensor<100x8xi32>
  return %w, %i : tensor<100x8xf32>, tensor<100x8xi32>
}

// dsv3-like: sigmoid + expert bias, 8 groups of 32 keeping 4 (sum of each
// group's top 2), top-8 of 256 normalized by their sum and scaled.
func.func @sigmoid_bias_groups_e256(%logits: tensor<100x256xf32>, %bias: tensor<256xf32>)
    -> (tensor<100x8xf32>, tensor<100x8xi32>) {
  %s0 = tensor.empty() : tensor<100x256xf32>
  %s = moe.route sigmoid %logits outs(%s0) : tensor<100x256xf32> -> tensor<100x256xf32>
  %w0 = tensor.empty() : tensor<100x8xf32>
  %i0 = tensor.empty() : tensor<100x8xi32>
  %w, %i = moe.topk sigmoid %s bias %bias k 8 outs(%w0, %i0)
      {num_groups = 8 : i64, group_topk = 4 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64}
      : tensor<100x256xf32>, tensor<256xf32> -> tensor<100x8xf32>, tensor<100x8xi32>
  return %w, %i : tensor<100x8xf32>, tensor<100x8xi32>
}

// Groups of 64 scored by their max, keeping 2 of 4; no normalization.
func.func @groups_max_e256(%s: tensor<100x256xf32>) -> (tensor<100x4xf32>, tensor<100x4xi32>) {
  %w0 = tensor.empty() : tensor<100x4xf32>
  %i0 = tensor.empty() : tensor<100x4xi32>
  %w, %i = moe.topk softmax %s k 4 outs(%w0, %i0)
      {num_groups = 4 : i64, group_topk = 2 : i64, group_score = #moe<group_score max>}
      : tensor<100x256xf32> -> tensor<100x4xf32>, tensor<100x4xi32>
  return %w, %i : tensor<100x4xf32>, tensor<100x4xi32>
}

// Exact ties everywhere: scores are small integers (the floor of 4 · a
// random input), so most of each token's top 32 tie with experts in other lanes
// and in the same lane. Ties go to the lower index.
func.func @ties_e64(%u: tensor<100x64xf32>) -> (tensor<100x32xf32>, tensor<100x32xi32>) {
  %four = arith.constant dense<4.0> : tensor<100x64xf32>
  %scaled = arith.mulf %u, %four : tensor<100x64xf32>
  %s = math.floor %scaled : tensor<100x64xf32>
  %w0 = tensor.empty() : tensor<100x32xf32>
  %i0 = tensor.empty() : tensor<100x32xi32>
  %w, %i = moe.topk sigmoid %s k 32 outs(%w0, %i0) {normalize = #moe<normalize sum>}
      : tensor<100x64xf32> -> tensor<100x32xf32>, tensor<100x32xi32>
  return %w, %i : tensor<100x32xf32>, tensor<100x32xi32>
}

// Tied groups: small integer scores again, 4 groups of 32 keeping 2;
// most groups' top-2 sums are 6, and the lower groups must stay.
func.func @tied_groups_e128(%u: tensor<100x128xf32>) -> (tensor<100x4xf32>, tensor<100x4xi32>) {
  %four = arith.constant dense<4.0> : tensor<100x128xf32>
  %scaled = arith.mulf %u, %four : tensor<100x128xf32>
  %s = math.floor %scaled : tensor<100x128xf32>
  %w0 = tensor.empty() : tensor<100x4xf32>
  %i0 = tensor.empty() : tensor<100x4xi32>
  %w, %i = moe.topk sigmoid %s k 4 outs(%w0, %i0) {num_groups = 4 : i64, group_topk = 2 : i64}
      : tensor<100x128xf32> -> tensor<100x4xf32>, tensor<100x4xi32>
  return %w, %i : tensor<100x4xf32>, tensor<100x4xi32>
}
