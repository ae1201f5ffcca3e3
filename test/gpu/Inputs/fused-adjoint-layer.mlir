// A layer whose down projection's dgrad runs pingpong tiles with the
// activation adjoint in its epilogue (moe-compile --gemm=generated
// --gemm-epilogue-fusion): T = 512 tokens, H = 256 (4 k-steps of 64), F = 128,
// E = 8, top-2, so the 1024 permuted rows average 128 a group (128-row
// tiles). scripts/gpu-artifacts.sh compiles it; scripts/gpu-e2e.sh and
// test/gpu/examples.test check it against its CPU reference.
func.func @moe_layer(%x: tensor<512x256xbf16>, %router: tensor<256x8xf32>,
                     %w_gate: tensor<8x256x128xbf16>, %w_up: tensor<8x256x128xbf16>,
                     %w_down: tensor<8x128x256xbf16>)
    -> (tensor<512x256xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<512x256xbf16>, tensor<256x8xf32>, tensor<8x256x128xbf16>,
         tensor<8x256x128xbf16>, tensor<8x128x256xbf16>)
      -> (tensor<512x256xbf16>, tensor<f32>)
  return %out, %aux : tensor<512x256xbf16>, tensor<f32>
}
