// Zero-sized dimensions at the entry boundary and inside a whole layer.
// T = 0: the batch aux loss divided by T / S = 0 / 0 (UB; the artifact
// crashed).
func.func @no_tokens(%x: tensor<0x8xf32>, %router: tensor<8x4xf32>,
                     %w_gate: tensor<4x8x6xf32>, %w_up: tensor<4x8x6xf32>,
                     %w_down: tensor<4x6x8xf32>) -> (tensor<0x8xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<0x8xf32>, tensor<8x4xf32>, tensor<4x8x6xf32>, tensor<4x8x6xf32>, tensor<4x6x8xf32>)
      -> (tensor<0x8xf32>, tensor<f32>)
  return %out, %aux : tensor<0x8xf32>, tensor<f32>
}
// H = 0: memref<4x0xf32> cannot take the bare-pointer convention (the entry
// was silently left unlowered: "lowered module lost entry").
func.func @no_hidden(%x: tensor<4x0xf32>, %router: tensor<0x4xf32>,
                     %w_gate: tensor<4x0x6xf32>, %w_up: tensor<4x0x6xf32>,
                     %w_down: tensor<4x6x0xf32>) -> (tensor<4x0xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 0.0 : f64}
      : (tensor<4x0xf32>, tensor<0x4xf32>, tensor<4x0x6xf32>, tensor<4x0x6xf32>, tensor<4x6x0xf32>)
      -> (tensor<4x0xf32>, tensor<f32>)
  return %out, %aux : tensor<4x0xf32>, tensor<f32>
}
// F = 0: the experts add nothing.
func.func @no_ffn(%x: tensor<2x8xf32>, %router: tensor<8x4xf32>,
                  %w_gate: tensor<4x8x0xf32>, %w_up: tensor<4x8x0xf32>,
                  %w_down: tensor<4x0x8xf32>) -> (tensor<2x8xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>}
      : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<4x8x0xf32>, tensor<4x8x0xf32>, tensor<4x0x8xf32>)
      -> (tensor<2x8xf32>, tensor<f32>)
  return %out, %aux : tensor<2x8xf32>, tensor<f32>
}
func.func @empty_passthrough(%x: tensor<3x0x2xf32>) -> tensor<3x0x2xf32> {
  return %x : tensor<3x0x2xf32>
}
