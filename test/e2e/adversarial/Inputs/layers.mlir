// Adversarial moe.layer configurations (test/e2e/adversarial, and
// test/gpu/adversarial.test against the GPU). T = 37 tokens (not a multiple
// of 4, 8 or 128), H = 32, F = 48, bf16. Inputs/write-inputs.py writes the
// expert biases that skew the routing and the x with NaN and infinities;
// every other input is moe-runner's seeded random.

// Every token to the same K = 2 experts: a +8 bias on experts 2 and 5 beats
// any sigmoid score difference (< 1); the other six experts get no rows.
func.func @same_k(%x: tensor<37x32xbf16>, %router_weight: tensor<32x8xf32>, %bias: tensor<8xf32>,
    %w_gate: tensor<8x32x48xbf16>, %w_up: tensor<8x32x48xbf16>, %w_down: tensor<8x48x32xbf16>)
    -> (tensor<37x32xbf16> {moe.name = "out"}, tensor<f32> {moe.name = "aux_loss"}) {
  %out, %aux = moe.layer %x, %router_weight bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64}
      : (tensor<37x32xbf16>, tensor<32x8xf32>, tensor<8xf32>, tensor<8x32x48xbf16>,
         tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<37x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<37x32xbf16>, tensor<f32>
}

// One expert gets every row: K = 1 and a +8 bias on expert 6.
func.func @one_expert(%x: tensor<37x32xbf16>, %router_weight: tensor<32x8xf32>, %bias: tensor<8xf32>,
    %w_gate: tensor<8x32x48xbf16>, %w_up: tensor<8x32x48xbf16>, %w_down: tensor<8x48x32xbf16>)
    -> (tensor<37x32xbf16> {moe.name = "out"}, tensor<f32> {moe.name = "aux_loss"}) {
  %out, %aux = moe.layer %x, %router_weight bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 1 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64}
      : (tensor<37x32xbf16>, tensor<32x8xf32>, tensor<8xf32>, tensor<8x32x48xbf16>,
         tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<37x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<37x32xbf16>, tensor<f32>
}

// E = 256 in 8 groups of 32, keep 2 groups, top-8 (dsv3's routing; F = 16):
// a +8 bias on every expert of groups 1 and 6, so groups 0, 2, 3, 4, 5 and
// 7 are never chosen and 240 experts get no rows.
func.func @groups_e256(%x: tensor<37x32xbf16>, %router_weight: tensor<32x256xf32>, %bias: tensor<256xf32>,
    %w_gate: tensor<256x32x16xbf16>, %w_up: tensor<256x32x16xbf16>, %w_down: tensor<256x16x32xbf16>)
    -> (tensor<37x32xbf16> {moe.name = "out"}, tensor<f32> {moe.name = "aux_loss"}) {
  %out, %aux = moe.layer %x, %router_weight bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 8 : i64, score_function = #moe<score_function sigmoid>, num_groups = 8 : i64, group_topk = 2 : i64, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64, aux_loss_coeff = 1.0e-03 : f64}
      : (tensor<37x32xbf16>, tensor<32x256xf32>, tensor<256xf32>, tensor<256x32x16xbf16>,
         tensor<256x32x16xbf16>, tensor<256x16x32xbf16>)
      -> (tensor<37x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<37x32xbf16>, tensor<f32>
}

// Non-finite x (Inputs/write-inputs.py): token 3 has a NaN, token 10 a +inf,
// token 20 a -inf (one element each); softmax top-2 with aux and z losses.
func.func @nonfinite_x(%x: tensor<37x32xbf16>, %router_weight: tensor<32x8xf32>,
    %w_gate: tensor<8x32x48xbf16>, %w_up: tensor<8x32x48xbf16>, %w_down: tensor<8x48x32xbf16>)
    -> (tensor<37x32xbf16> {moe.name = "out"}, tensor<f32> {moe.name = "aux_loss"}) {
  %out, %aux = moe.layer %x, %router_weight experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<37x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>,
         tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<37x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<37x32xbf16>, tensor<f32>
}

// The layer's op graph with the router logits as an input (no moe.gate), so
// that NaN and infinities can be placed in single logits
// (Inputs/write-inputs.py, the same logits for both score functions):
//   token 3   logits[3, 1] = NaN       token 25  -inf except logits[25, 5] = 0.5
//   token 10  logits[10, 4] = +inf     token 30  every logit -inf
//   token 20  logits[20, 2] = -inf     token 33  logits[33, 0] = NaN
// Top-2, normalize = sum, aux loss 1e-2 and z-loss 1e-3 as separate results.

func.func @logits_softmax(%x: tensor<37x32xbf16> {moe.name = "x"}, %logits: tensor<37x8xf32> {moe.name = "logits"},
    %w_gate: tensor<8x32x48xbf16> {moe.name = "w_gate"}, %w_up: tensor<8x32x48xbf16> {moe.name = "w_up"},
    %w_down: tensor<8x48x32xbf16> {moe.name = "w_down"})
    -> (tensor<37x32xbf16> {moe.name = "out"}, tensor<f32> {moe.name = "aux_loss"}, tensor<f32> {moe.name = "z_loss"}) {
  %e0 = tensor.empty() : tensor<37x8xf32>
  %scores = moe.route softmax %logits outs(%e0) : tensor<37x8xf32> -> tensor<37x8xf32>
  %e1 = tensor.empty() : tensor<37x2xf32>
  %e2 = tensor.empty() : tensor<37x2xi32>
  %weights, %indices = moe.topk softmax %scores k 2 outs(%e1, %e2) {normalize = #moe<normalize sum>} : tensor<37x8xf32> -> tensor<37x2xf32>, tensor<37x2xi32>
  %e3 = tensor.empty() : tensor<74x32xbf16>
  %e4 = tensor.empty() : tensor<8xi32>
  %e5 = tensor.empty() : tensor<37x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %indices experts 8 align 1 outs(%e3, %e4, %e5) : tensor<37x32xbf16>, tensor<37x2xi32> -> tensor<74x32xbf16>, tensor<8xi32>, tensor<37x2xi32>
  %e6 = tensor.empty() : tensor<74x48xbf16>
  %gate = moe.grouped_matmul %xs, %w_gate, %sizes outs(%e6) : tensor<74x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<74x48xbf16>
  %e7 = tensor.empty() : tensor<74x48xbf16>
  %up = moe.grouped_matmul %xs, %w_up, %sizes outs(%e7) : tensor<74x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<74x48xbf16>
  %e8 = tensor.empty() : tensor<74x48xbf16>
  %h = moe.glu silu %gate, %up outs(%e8) : tensor<74x48xbf16>, tensor<74x48xbf16> -> tensor<74x48xbf16>
  %e9 = tensor.empty() : tensor<74x32xbf16>
  %y = moe.grouped_matmul %h, %w_down, %sizes outs(%e9) : tensor<74x48xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<74x32xbf16>
  %e10 = tensor.empty() : tensor<37x32xbf16>
  %out = moe.combine %y, %rows, %weights outs(%e10) : tensor<74x32xbf16>, tensor<37x2xi32>, tensor<37x2xf32> -> tensor<37x32xbf16>
  %e11 = tensor.empty() : tensor<f32>
  %aux = moe.aux_loss batch %scores, %indices from softmax coeff 1.000000e-02 outs(%e11) : tensor<37x8xf32>, tensor<37x2xi32> -> tensor<f32>
  %e12 = tensor.empty() : tensor<f32>
  %z = moe.z_loss %logits coeff 1.000000e-03 outs(%e12) : tensor<37x8xf32> -> tensor<f32>
  return %out, %aux, %z : tensor<37x32xbf16>, tensor<f32>, tensor<f32>
}

// The same graph with sigmoid scores.

func.func @logits_sigmoid(%x: tensor<37x32xbf16> {moe.name = "x"}, %logits: tensor<37x8xf32> {moe.name = "logits"},
    %w_gate: tensor<8x32x48xbf16> {moe.name = "w_gate"}, %w_up: tensor<8x32x48xbf16> {moe.name = "w_up"},
    %w_down: tensor<8x48x32xbf16> {moe.name = "w_down"})
    -> (tensor<37x32xbf16> {moe.name = "out"}, tensor<f32> {moe.name = "aux_loss"}, tensor<f32> {moe.name = "z_loss"}) {
  %e0 = tensor.empty() : tensor<37x8xf32>
  %scores = moe.route sigmoid %logits outs(%e0) : tensor<37x8xf32> -> tensor<37x8xf32>
  %e1 = tensor.empty() : tensor<37x2xf32>
  %e2 = tensor.empty() : tensor<37x2xi32>
  %weights, %indices = moe.topk sigmoid %scores k 2 outs(%e1, %e2) {normalize = #moe<normalize sum>} : tensor<37x8xf32> -> tensor<37x2xf32>, tensor<37x2xi32>
  %e3 = tensor.empty() : tensor<74x32xbf16>
  %e4 = tensor.empty() : tensor<8xi32>
  %e5 = tensor.empty() : tensor<37x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %indices experts 8 align 1 outs(%e3, %e4, %e5) : tensor<37x32xbf16>, tensor<37x2xi32> -> tensor<74x32xbf16>, tensor<8xi32>, tensor<37x2xi32>
  %e6 = tensor.empty() : tensor<74x48xbf16>
  %gate = moe.grouped_matmul %xs, %w_gate, %sizes outs(%e6) : tensor<74x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<74x48xbf16>
  %e7 = tensor.empty() : tensor<74x48xbf16>
  %up = moe.grouped_matmul %xs, %w_up, %sizes outs(%e7) : tensor<74x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<74x48xbf16>
  %e8 = tensor.empty() : tensor<74x48xbf16>
  %h = moe.glu silu %gate, %up outs(%e8) : tensor<74x48xbf16>, tensor<74x48xbf16> -> tensor<74x48xbf16>
  %e9 = tensor.empty() : tensor<74x32xbf16>
  %y = moe.grouped_matmul %h, %w_down, %sizes outs(%e9) : tensor<74x48xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<74x32xbf16>
  %e10 = tensor.empty() : tensor<37x32xbf16>
  %out = moe.combine %y, %rows, %weights outs(%e10) : tensor<74x32xbf16>, tensor<37x2xi32>, tensor<37x2xf32> -> tensor<37x32xbf16>
  %e11 = tensor.empty() : tensor<f32>
  %aux = moe.aux_loss batch %scores, %indices from sigmoid coeff 1.000000e-02 outs(%e11) : tensor<37x8xf32>, tensor<37x2xi32> -> tensor<f32>
  %e12 = tensor.empty() : tensor<f32>
  %z = moe.z_loss %logits coeff 1.000000e-03 outs(%e12) : tensor<37x8xf32> -> tensor<f32>
  return %out, %aux, %z : tensor<37x32xbf16>, tensor<f32>, tensor<f32>
}

// bf16 overflow in the expert GEMMs (Inputs/write-inputs.py): x[5, 0] = 2^70
// and x[t, 0] = 0 for every other token; row 0 of w_gate of experts 6 and 7
// is 2^70; the logits send token 5 (and only it) to experts 6 and 7. Token
// 5's gate products x[5, 0] · w_gate[e][0, f] = 2^140 pass f32's largest
// finite value (2^128 · (1 − 2^-24)) and are +inf, so its gate rows are +inf;
// every other product is ordinary.

func.func @gemm_overflow(%x: tensor<37x32xbf16> {moe.name = "x"}, %logits: tensor<37x8xf32> {moe.name = "logits"},
    %w_gate: tensor<8x32x48xbf16> {moe.name = "w_gate"}, %w_up: tensor<8x32x48xbf16> {moe.name = "w_up"},
    %w_down: tensor<8x48x32xbf16> {moe.name = "w_down"})
    -> (tensor<37x32xbf16> {moe.name = "out"}, tensor<f32> {moe.name = "aux_loss"}, tensor<f32> {moe.name = "z_loss"}) {
  %e0 = tensor.empty() : tensor<37x8xf32>
  %scores = moe.route softmax %logits outs(%e0) : tensor<37x8xf32> -> tensor<37x8xf32>
  %e1 = tensor.empty() : tensor<37x2xf32>
  %e2 = tensor.empty() : tensor<37x2xi32>
  %weights, %indices = moe.topk softmax %scores k 2 outs(%e1, %e2) {normalize = #moe<normalize sum>} : tensor<37x8xf32> -> tensor<37x2xf32>, tensor<37x2xi32>
  %e3 = tensor.empty() : tensor<74x32xbf16>
  %e4 = tensor.empty() : tensor<8xi32>
  %e5 = tensor.empty() : tensor<37x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %indices experts 8 align 1 outs(%e3, %e4, %e5) : tensor<37x32xbf16>, tensor<37x2xi32> -> tensor<74x32xbf16>, tensor<8xi32>, tensor<37x2xi32>
  %e6 = tensor.empty() : tensor<74x48xbf16>
  %gate = moe.grouped_matmul %xs, %w_gate, %sizes outs(%e6) : tensor<74x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<74x48xbf16>
  %e7 = tensor.empty() : tensor<74x48xbf16>
  %up = moe.grouped_matmul %xs, %w_up, %sizes outs(%e7) : tensor<74x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<74x48xbf16>
  %e8 = tensor.empty() : tensor<74x48xbf16>
  %h = moe.glu silu %gate, %up outs(%e8) : tensor<74x48xbf16>, tensor<74x48xbf16> -> tensor<74x48xbf16>
  %e9 = tensor.empty() : tensor<74x32xbf16>
  %y = moe.grouped_matmul %h, %w_down, %sizes outs(%e9) : tensor<74x48xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<74x32xbf16>
  %e10 = tensor.empty() : tensor<37x32xbf16>
  %out = moe.combine %y, %rows, %weights outs(%e10) : tensor<74x32xbf16>, tensor<37x2xi32>, tensor<37x2xf32> -> tensor<37x32xbf16>
  %e11 = tensor.empty() : tensor<f32>
  %aux = moe.aux_loss batch %scores, %indices from softmax coeff 1.000000e-02 outs(%e11) : tensor<37x8xf32>, tensor<37x2xi32> -> tensor<f32>
  %e12 = tensor.empty() : tensor<f32>
  %z = moe.z_loss %logits coeff 1.000000e-03 outs(%e12) : tensor<37x8xf32> -> tensor<f32>
  return %out, %aux, %z : tensor<37x32xbf16>, tensor<f32>, tensor<f32>
}
