// RUN: moe-opt %s -split-input-file --moe-expert-parallel -verify-diagnostics

// Each case brings its own shard.grid @ep: P is its size (ranks left 0).

shard.grid @ep(shape = 16)
// T = 64 divides by 16; E = 8 does not.
// expected-error @+1 {{moe-expert-parallel: E = 8 experts (dim 0 of argument 2, w_gate) is not divisible by P = 16 ranks}}
func.func @experts_not_divisible(%x: tensor<64x32xbf16>, %router: tensor<32x8xf32>,
    %wg: tensor<8x32x48xbf16>, %wu: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>)
    -> (tensor<64x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>}
      : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<64x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x32xbf16>, tensor<f32>
}

// -----

shard.grid @ep(shape = 3)
// E = 6 divides by 3; T = 64 does not.
// expected-error @+1 {{moe-expert-parallel: T = 64 tokens (dim 0 of argument 0, x) is not divisible by P = 3 ranks}}
func.func @tokens_not_divisible(%x: tensor<64x32xbf16>, %router: tensor<32x6xf32>,
    %wg: tensor<6x32x48xbf16>, %wu: tensor<6x32x48xbf16>, %wd: tensor<6x48x32xbf16>)
    -> (tensor<64x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>}
      : (tensor<64x32xbf16>, tensor<32x6xf32>, tensor<6x32x48xbf16>, tensor<6x32x48xbf16>, tensor<6x48x32xbf16>)
      -> (tensor<64x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x32xbf16>, tensor<f32>
}

// -----

// expected-error @+1 {{moe-expert-parallel: axis 0 of shard.grid @ep has a dynamic size; the pass needs static rank counts}}
shard.grid @ep(shape = ?)
func.func @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %x : tensor<8x4xf32>
}

// -----

// expected-error @+1 {{moe-expert-parallel: @ep is a func.func, not a shard.grid}}
func.func private @ep()

// -----

shard.grid @ep(shape = 2)
// T = 48: T/P = 24 is not a multiple of seq_length = 16, nor is 16 = T.
func.func @sequence_spans_ranks(%x: tensor<48x32xbf16>, %router: tensor<32x8xf32>,
    %wg: tensor<8x32x48xbf16>, %wu: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>)
    -> (tensor<48x32xbf16>, tensor<f32>) {
  // expected-error @+1 {{'moe.aux_loss' op moe-expert-parallel: seq_length = 16 neither divides T/P = 24 (T = 48, P = 2 ranks) nor equals T: a sequence would span ranks}}
  %out, %aux = moe.layer %x, %router experts(%wg, %wu, %wd)
      {k = 2 : i64, score_function = #moe<score_function softmax>, aux_loss_coeff = 1.0e-02 : f64,
       aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 16 : i64}
      : (tensor<48x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<48x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<48x32xbf16>, tensor<f32>
}

// -----

shard.grid @ep(shape = 2)
func.func @already_global(%scores: tensor<8x4xf32>, %indices: tensor<8x2xi32>) -> tensor<f32> {
  %init = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op moe-expert-parallel: aux-loss variant global is already per rank; partition a batch or sequence loss instead}}
  %l = moe.aux_loss global %scores, %indices from softmax coeff 1.0e-02 outs(%init)
      {grid = @ep, grid_axes = array<i64: 0>} : tensor<8x4xf32>, tensor<8x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

shard.grid @ep(shape = 2)
func.func @unsupported(%x: tensor<8x4xf32>, %router: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %init = tensor.empty() : tensor<8x4xf32>
  %logits = moe.gate %x, %router outs(%init) : tensor<8x4xf32>, tensor<4x4xf32> -> tensor<8x4xf32>
  // expected-error @+1 {{'tensor.extract_slice' op is not supported by moe-expert-parallel}}
  %head = tensor.extract_slice %logits[0, 0] [4, 4] [1, 1] : tensor<8x4xf32> to tensor<4x4xf32>
  return %head : tensor<4x4xf32>
}

// -----

shard.grid @ep(shape = 2)
// The permuted rows are rank-local: no one-rank value to return.
func.func @returns_rows(%x: tensor<8x4xf32>, %indices: tensor<8x2xi32>) -> tensor<16x4xf32> {
  %i0 = tensor.empty() : tensor<16x4xf32>
  %i1 = tensor.empty() : tensor<4xi32>
  %i2 = tensor.empty() : tensor<8x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %indices experts 4 align 1 outs(%i0, %i1, %i2)
      : tensor<8x4xf32>, tensor<8x2xi32> -> tensor<16x4xf32>, tensor<4xi32>, tensor<8x2xi32>
  // expected-error @+1 {{'func.return' op moe-expert-parallel: result 0 is rows grouped by expert (moe.permute's); expected replicated or split by tokens or split by experts (an expert weight) or per-expert counts of this rank's tokens}}
  return %xs : tensor<16x4xf32>
}

// -----

shard.grid @ep(shape = 2)
// The router weight would have to be replicated for moe.gate and split by
// tokens for moe.z_loss.
// expected-error @+1 {{moe-expert-parallel: argument 1 (arg1) is used both split by tokens and replicated by moe.gate}}
func.func @conflicting_uses(%x: tensor<8x4xf32>, %router: tensor<4x4xf32>) -> (tensor<8x4xf32>, tensor<f32>) {
  %init = tensor.empty() : tensor<8x4xf32>
  %logits = moe.gate %x, %router outs(%init) : tensor<8x4xf32>, tensor<4x4xf32> -> tensor<8x4xf32>
  %z0 = tensor.empty() : tensor<f32>
  %z = moe.z_loss %router coeff 1.0e-03 outs(%z0) : tensor<4x4xf32> -> tensor<f32>
  return %logits, %z : tensor<8x4xf32>, tensor<f32>
}

// -----

shard.grid @ep(shape = 2)
// The expert weights are split over the ranks: E = 6 experts of the permute
// are not (the weights' own check comes first when they are arguments).
func.func @permute_experts(%x: tensor<8x4xf32>, %indices: tensor<8x2xi32>) -> tensor<5xi32> {
  %i0 = tensor.empty() : tensor<16x4xf32>
  %i1 = tensor.empty() : tensor<5xi32>
  %i2 = tensor.empty() : tensor<8x2xi32>
  // expected-error @+1 {{'moe.permute' op moe-expert-parallel: E = 5 experts are not divisible by P = 2 ranks}}
  %xs, %sizes, %rows = moe.permute %x, %indices experts 5 align 1 outs(%i0, %i1, %i2)
      : tensor<8x4xf32>, tensor<8x2xi32> -> tensor<16x4xf32>, tensor<5xi32>, tensor<8x2xi32>
  return %sizes : tensor<5xi32>
}

// -----

shard.grid @ep(shape = 2)
// Each rank pads its own groups to a multiple of 4: the padded sizes of the
// ranks do not add up to the one-rank padded sizes.
func.func @padded_counts(%x: tensor<8x4xf32>, %indices: tensor<8x2xi32>) -> tensor<4xi32> {
  %i0 = tensor.empty() : tensor<28x4xf32>
  %i1 = tensor.empty() : tensor<4xi32>
  %i2 = tensor.empty() : tensor<8x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %indices experts 4 align 4 outs(%i0, %i1, %i2)
      : tensor<8x4xf32>, tensor<8x2xi32> -> tensor<28x4xf32>, tensor<4xi32>, tensor<8x2xi32>
  // expected-error @+1 {{'func.return' op moe-expert-parallel: result 0 are group sizes padded to align = 4, whose sum over the ranks is not the one-rank value}}
  return %sizes : tensor<4xi32>
}
