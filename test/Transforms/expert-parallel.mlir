// RUN: moe-opt %s -split-input-file --moe-expert-parallel=ranks=2 | FileCheck %s
// The partitioned functions verify on their own and print the same again:
// RUN: moe-opt %s -split-input-file --moe-expert-parallel=ranks=2 | moe-opt -split-input-file --verify-each | FileCheck %s

// moe-expert-parallel on P = 2 ranks: T/2 tokens and E/2 experts per rank,
// the rows exchanged around the expert FFNs, the losses summed over ranks.

// examples/small.mlir: T = 64, H = 32, F = 48, E = 8, K = 2, aux and z loss.
// Per rank: T/P = 32 tokens, R = 32·2 = 64 rows sent, P·R = 128 rows
// received, E/P = 4 local experts.
// CHECK:       shard.grid @ep(shape = 2)
// CHECK-LABEL: func.func @small
// CHECK-SAME:    (%[[X:.*]]: tensor<32x32xbf16> {moe.name = "x", moe.role = "input", moe.split_dim = 0 : i64},
// CHECK-SAME:     %[[WR:.*]]: tensor<32x8xf32> {moe.name = "router_weight", moe.role = "weight"},
// CHECK-SAME:     %[[WG:.*]]: tensor<4x32x48xbf16> {moe.name = "w_gate", moe.role = "weight", moe.split_dim = 0 : i64},
// CHECK-SAME:     %[[WU:.*]]: tensor<4x32x48xbf16> {moe.name = "w_up", moe.role = "weight", moe.split_dim = 0 : i64},
// CHECK-SAME:     %[[WD:.*]]: tensor<4x48x32xbf16> {moe.name = "w_down", moe.role = "weight", moe.split_dim = 0 : i64})
// CHECK-SAME:    -> (tensor<32x32xbf16> {moe.name = "out", moe.role = "output", moe.split_dim = 0 : i64},
// CHECK-SAME:        tensor<f32> {moe.name = "aux_loss", moe.role = "output"})
// CHECK:       %[[LOGITS:.*]] = moe.gate %[[X]], %[[WR]] {{.*}} : tensor<32x32xbf16>, tensor<32x8xf32> -> tensor<32x8xf32>
// CHECK:       %[[SCORES:.*]] = moe.route softmax %[[LOGITS]] {{.*}} -> tensor<32x8xf32>
// CHECK:       %[[W:.*]], %[[IDX:.*]] = moe.topk softmax %[[SCORES]] k 2 {{.*}} -> tensor<32x2xf32>, tensor<32x2xi32>
// CHECK:       %[[XS:.*]], %[[GS:.*]], %[[ROWS:.*]] = moe.permute %[[X]], %[[IDX]] experts 8 align 1
// CHECK-SAME:    -> tensor<64x32xbf16>, tensor<8xi32>, tensor<32x2xi32>
// CHECK:       %[[Y:.*]], %[[RECV:.*]] = moe.all_to_all %[[XS]], %[[GS]] on @ep axis 0
// CHECK-SAME:    : tensor<64x32xbf16>, tensor<8xi32> -> tensor<128x32xbf16>, tensor<8xi32>
// CHECK:       %[[XL:.*]], %[[LSZ:.*]] = moe.sort_chunks %[[Y]], %[[RECV]]
// CHECK-SAME:    : tensor<128x32xbf16>, tensor<8xi32> -> tensor<128x32xbf16>, tensor<4xi32>
// CHECK:       %[[G:.*]] = moe.grouped_matmul %[[XL]], %[[WG]], %[[LSZ]] {{.*}} : tensor<128x32xbf16>, tensor<4x32x48xbf16>, tensor<4xi32> -> tensor<128x48xbf16>
// CHECK:       %[[U:.*]] = moe.grouped_matmul %[[XL]], %[[WU]], %[[LSZ]] {{.*}} -> tensor<128x48xbf16>
// CHECK:       %[[H:.*]] = moe.glu silu %[[G]], %[[U]] {{.*}} -> tensor<128x48xbf16>
// CHECK:       %[[YL:.*]] = moe.grouped_matmul %[[H]], %[[WD]], %[[LSZ]] {{.*}} : tensor<128x48xbf16>, tensor<4x48x32xbf16>, tensor<4xi32> -> tensor<128x32xbf16>
// CHECK:       %[[YB:.*]], %{{.*}} = moe.sort_chunks inverse %[[YL]], %[[RECV]]
// CHECK-SAME:    : tensor<128x32xbf16>, tensor<8xi32> -> tensor<128x32xbf16>, tensor<2xi32>
// CHECK:       %[[Z:.*]], %{{.*}} = moe.all_to_all %[[YB]], %[[RECV]] on @ep axis 0
// CHECK-SAME:    : tensor<128x32xbf16>, tensor<8xi32> -> tensor<64x32xbf16>, tensor<8xi32>
// CHECK:       %[[OUT:.*]] = moe.combine %[[Z]], %[[ROWS]], %[[W]] {{.*}} : tensor<64x32xbf16>, tensor<32x2xi32>, tensor<32x2xf32> -> tensor<32x32xbf16>
// CHECK:       %[[AUX:.*]] = moe.aux_loss global %[[SCORES]], %[[IDX]] from softmax coeff 1.000000e-02
// CHECK-SAME:    {grid = @ep, grid_axes = array<i64: 0>}
// CHECK:       %[[AUXG:.*]] = moe.all_reduce %[[AUX]] on @ep axes [0]
// CHECK:       %[[ZL:.*]] = moe.z_loss %[[LOGITS]] coeff 5.000000e-04
// CHECK:       %[[ZLG:.*]] = moe.all_reduce %[[ZL]] on @ep axes [0]
// CHECK:       %[[LOSS:.*]] = arith.addf %[[AUXG]], %[[ZLG]] : tensor<f32>
// CHECK:       return %[[OUT]], %[[LOSS]] : tensor<32x32xbf16>, tensor<f32>
func.func @small(%x: tensor<64x32xbf16>, %router: tensor<32x8xf32>,
                 %w_gate: tensor<8x32x48xbf16>, %w_up: tensor<8x32x48xbf16>,
                 %w_down: tensor<8x48x32xbf16>)
    -> (tensor<64x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>,
         tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<64x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x32xbf16>, tensor<f32>
}

// -----

// T = E = 8: tokens and experts are told apart by the ops, not by sizes.
// The router weight [H, E] keeps its 8 experts; x and the expert weights
// are halved; the logits are [T/P, E] = [4, 8].
// CHECK-LABEL: func.func @tokens_equal_experts
// CHECK-SAME:    tensor<4x16xbf16> {{{[^}]*}}moe.split_dim = 0 : i64}, %{{.*}}: tensor<16x8xf32> {moe.name = "router_weight", moe.role = "weight"}, %{{.*}}: tensor<4x16x24xbf16> {{{[^}]*}}moe.split_dim = 0 : i64}
// CHECK:       moe.gate {{.*}} : tensor<4x16xbf16>, tensor<16x8xf32> -> tensor<4x8xf32>
// CHECK:       moe.permute {{.*}} experts 8 align 1 {{.*}} -> tensor<8x16xbf16>, tensor<8xi32>, tensor<4x2xi32>
// CHECK:       moe.all_to_all {{.*}} : tensor<8x16xbf16>, tensor<8xi32> -> tensor<16x16xbf16>, tensor<8xi32>
// CHECK:       moe.sort_chunks {{.*}} -> tensor<16x16xbf16>, tensor<4xi32>
// CHECK:       moe.combine {{.*}} -> tensor<4x16xbf16>
// Both losses off: the zero loss constant is replicated as it is.
// CHECK-NOT:   moe.all_reduce
// CHECK:       return %{{.*}}, %cst : tensor<4x16xbf16>, tensor<f32>
func.func @tokens_equal_experts(%x: tensor<8x16xbf16>, %router: tensor<16x8xf32>,
    %wg: tensor<8x16x24xbf16>, %wu: tensor<8x16x24xbf16>, %wd: tensor<8x24x16xbf16>)
    -> (tensor<8x16xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>}
      : (tensor<8x16xbf16>, tensor<16x8xf32>, tensor<8x16x24xbf16>, tensor<8x16x24xbf16>, tensor<8x24x16xbf16>)
      -> (tensor<8x16xbf16>, tensor<f32>)
  return %out, %aux : tensor<8x16xbf16>, tensor<f32>
}

// -----

// A sequence loss whose sequences (16 tokens) lie within a rank's 32 tokens
// stays a sequence loss with coeff/P; the expert bias is replicated; with
// align 4 the permute's R is 32·2 + 8·3 = 88 rows.
// CHECK-LABEL: func.func @sequence_within_rank
// CHECK-SAME:    %[[BIAS:[^:]*]]: tensor<8xf32> {moe.name = "bias", moe.role = "weight"}
// CHECK:       moe.topk sigmoid %{{.*}} bias %[[BIAS]] k 2
// CHECK:       moe.permute {{.*}} experts 8 align 4 {{.*}} -> tensor<88x32xbf16>, tensor<8xi32>, tensor<32x2xi32>
// CHECK:       moe.all_to_all {{.*}} : tensor<88x32xbf16>, tensor<8xi32> -> tensor<176x32xbf16>, tensor<8xi32>
// CHECK:       moe.all_to_all {{.*}} : tensor<176x32xbf16>, tensor<8xi32> -> tensor<88x32xbf16>, tensor<8xi32>
// CHECK:       %[[AUX:.*]] = moe.aux_loss sequence {{.*}} from sigmoid coeff 5.000000e-03 outs({{.*}}) {seq_length = 16 : i64}
// CHECK:       %[[AUXG:.*]] = moe.all_reduce %[[AUX]] on @ep axes [0]
// CHECK:       return %{{.*}}, %[[AUXG]]
func.func @sequence_within_rank(%x: tensor<64x32xbf16>, %router: tensor<32x8xf32>, %bias: tensor<8xf32>,
    %wg: tensor<8x32x48xbf16>, %wu: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>)
    -> (tensor<64x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router bias %bias experts(%wg, %wu, %wd)
      {k = 2 : i64, score_function = #moe<score_function sigmoid>, align = 4 : i64, aux_loss_coeff = 1.0e-02 : f64,
       aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 16 : i64}
      : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<64x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x32xbf16>, tensor<f32>
}

// -----

// One sequence of all T = 64 tokens is the batch loss: global, full coeff.
// Post-softmax routing: the aux loss's dense softmax scores are per token.
// CHECK-LABEL: func.func @sequence_is_batch
// CHECK:       %[[DENSE:.*]] = moe.route softmax %{{.*}} : tensor<32x8xf32> -> tensor<32x8xf32>
// CHECK:       %[[AUX:.*]] = moe.aux_loss global %[[DENSE]], %{{.*}} from softmax coeff 1.000000e-02
// CHECK-SAME:    {grid = @ep, grid_axes = array<i64: 0>}
// CHECK:       moe.all_reduce %[[AUX]] on @ep axes [0]
func.func @sequence_is_batch(%x: tensor<64x32xbf16>, %router: tensor<32x8xf32>,
    %wg: tensor<8x32x48xbf16>, %wu: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>)
    -> (tensor<64x32xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%wg, %wu, %wd)
      {k = 2 : i64, score_function = #moe<score_function softmax>, post_softmax, aux_loss_coeff = 1.0e-02 : f64,
       aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 64 : i64}
      : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>)
      -> (tensor<64x32xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x32xbf16>, tensor<f32>
}

// -----

// An expanded graph with an existing grid of 2 ranks: a residual add of x
// (element-wise on tokens), the aux-loss-free bias update on the counts
// summed over the ranks, and the group sizes returned as this rank's
// counts (moe.partial_sum).
// CHECK:       shard.grid @ep(shape = 2)
// CHECK-NOT:   shard.grid
// CHECK-LABEL: func.func @bias_update_and_residual
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<8x8xf32> {{{[^}]*}}moe.split_dim = 0 : i64}, %{{.*}}: tensor<8x4xf32> {moe.name = "arg1", moe.role = "input"}, %[[BIAS:[^:]*]]: tensor<4xf32> {moe.name = "arg2", moe.role = "input"},
// CHECK-SAME:    -> (tensor<8x8xf32> {{{[^}]*}}moe.split_dim = 0 : i64}, tensor<4xf32> {moe.name = "result1", moe.role = "output"}, tensor<4xi32> {moe.name = "result2", moe.partial_sum, moe.role = "output"})
// CHECK:       %{{.*}}, %[[GS:.*]], %{{.*}} = moe.permute %[[X]], %{{.*}} experts 4 align 1
// CHECK:       moe.sort_chunks {{.*}} : tensor<16x8xf32>, tensor<4xi32> -> tensor<16x8xf32>, tensor<2xi32>
// CHECK:       %[[OUT:.*]] = moe.combine {{.*}} -> tensor<8x8xf32>
// CHECK:       %[[RES:.*]] = arith.addf %[[OUT]], %[[X]] : tensor<8x8xf32>
// CHECK:       %[[COUNTS:.*]] = moe.all_reduce %[[GS]] on @ep axes [0] outs(%{{.*}}) : tensor<4xi32> -> tensor<4xi32>
// CHECK:       %[[NB:.*]] = moe.expert_bias_update %[[BIAS]], %[[COUNTS]]
// CHECK:       return %[[RES]], %[[NB]], %[[GS]] : tensor<8x8xf32>, tensor<4xf32>, tensor<4xi32>
shard.grid @ep(shape = 2)
func.func @bias_update_and_residual(%x: tensor<16x8xf32>, %router: tensor<8x4xf32>, %bias: tensor<4xf32>,
    %wg: tensor<4x8x6xf32>, %wu: tensor<4x8x6xf32>, %wd: tensor<4x6x8xf32>)
    -> (tensor<16x8xf32>, tensor<4xf32>, tensor<4xi32>) {
  %i0 = tensor.empty() : tensor<16x4xf32>
  %logits = moe.gate %x, %router outs(%i0) : tensor<16x8xf32>, tensor<8x4xf32> -> tensor<16x4xf32>
  %i1 = tensor.empty() : tensor<16x4xf32>
  %scores = moe.route sigmoid %logits outs(%i1) : tensor<16x4xf32> -> tensor<16x4xf32>
  %i2 = tensor.empty() : tensor<16x1xf32>
  %i3 = tensor.empty() : tensor<16x1xi32>
  %w, %idx = moe.topk sigmoid %scores bias %bias k 1 outs(%i2, %i3) : tensor<16x4xf32>, tensor<4xf32> -> tensor<16x1xf32>, tensor<16x1xi32>
  %i4 = tensor.empty() : tensor<16x8xf32>
  %i5 = tensor.empty() : tensor<4xi32>
  %i6 = tensor.empty() : tensor<16x1xi32>
  %xs, %sizes, %rows = moe.permute %x, %idx experts 4 align 1 outs(%i4, %i5, %i6) : tensor<16x8xf32>, tensor<16x1xi32> -> tensor<16x8xf32>, tensor<4xi32>, tensor<16x1xi32>
  %i7 = tensor.empty() : tensor<16x6xf32>
  %g = moe.grouped_matmul %xs, %wg, %sizes outs(%i7) : tensor<16x8xf32>, tensor<4x8x6xf32>, tensor<4xi32> -> tensor<16x6xf32>
  %i8 = tensor.empty() : tensor<16x6xf32>
  %u = moe.grouped_matmul %xs, %wu, %sizes outs(%i8) : tensor<16x8xf32>, tensor<4x8x6xf32>, tensor<4xi32> -> tensor<16x6xf32>
  %i9 = tensor.empty() : tensor<16x6xf32>
  %h = moe.glu silu %g, %u outs(%i9) : tensor<16x6xf32>, tensor<16x6xf32> -> tensor<16x6xf32>
  %i10 = tensor.empty() : tensor<16x8xf32>
  %y = moe.grouped_matmul %h, %wd, %sizes outs(%i10) : tensor<16x6xf32>, tensor<4x6x8xf32>, tensor<4xi32> -> tensor<16x8xf32>
  %i11 = tensor.empty() : tensor<16x8xf32>
  %out = moe.combine %y, %rows, %w outs(%i11) : tensor<16x8xf32>, tensor<16x1xi32>, tensor<16x1xf32> -> tensor<16x8xf32>
  %res = arith.addf %out, %x : tensor<16x8xf32>
  %i12 = tensor.empty() : tensor<4xf32>
  %nb = moe.expert_bias_update %bias, %sizes rate 1.0e-03 outs(%i12) : tensor<4xf32>, tensor<4xi32> -> tensor<4xf32>
  return %res, %nb, %sizes : tensor<16x8xf32>, tensor<4xf32>, tensor<4xi32>
}
