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
