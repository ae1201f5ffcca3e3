// moe-expert-parallel on a grid of two axes: data x expert parallelism.

// Tokens over both axes (D = 4 shards: 64 / 4 = 16 rows), experts over the
// expert axis 1 only (8 / 2 = 4); the exchange on axis 1, the losses summed
// over both; the annotations name their axes.
// RUN: moe-opt %s --moe-expert-parallel="axis=1 data-axes=0" | FileCheck %s --check-prefix=DPEP
// DPEP:      shard.grid @ep(shape = 2x2)
// DPEP:      func.func @moe_layer(%{{.*}}: tensor<16x32xbf16> {moe.name = "x", moe.role = "input", moe.split_axes = array<i64: 0, 1>, moe.split_dim = 0 : i64}, %{{.*}}: tensor<32x8xf32> {moe.name = "router_weight", moe.role = "weight"}, %{{.*}}: tensor<4x32x48xbf16> {moe.name = "w_gate", moe.role = "weight", moe.split_axes = array<i64: 1>, moe.split_dim = 0 : i64}
// DPEP-SAME: -> (tensor<16x32xbf16> {moe.name = "out", moe.role = "output", moe.split_axes = array<i64: 0, 1>, moe.split_dim = 0 : i64}, tensor<f32> {moe.name = "aux_loss", moe.role = "output"}) attributes {moe.batch_axes = array<i64: 0, 1>}
// DPEP:      moe.all_to_all {{.*}} on @ep axis 1 {{.*}} : tensor<32x32xbf16>, tensor<8xi32> -> tensor<64x32xbf16>, tensor<8xi32>
// DPEP:      moe.sort_chunks {{.*}} : tensor<64x32xbf16>, tensor<8xi32> -> tensor<64x32xbf16>, tensor<4xi32>
// DPEP:      moe.all_to_all {{.*}} on @ep axis 1
// DPEP:      moe.aux_loss global {{.*}} {grid = @ep, grid_axes = array<i64: 0, 1>}
// DPEP:      moe.all_reduce {{.*}} on @ep axes [0, 1]
// The z-loss: coeff 1e-3 / D.
// DPEP:      moe.z_loss {{.*}} coeff 2.500000e-04
// DPEP:      moe.all_reduce {{.*}} on @ep axes [0, 1]

// The order of the axes does not matter: the expert axis 0, tokens over 0, 1.
// RUN: moe-opt %s --moe-expert-parallel="axis=0 data-axes=1" | FileCheck %s --check-prefix=EP0
// EP0: %{{.*}}: tensor<16x32xbf16> {moe.name = "x", moe.role = "input", moe.split_axes = array<i64: 0, 1>, moe.split_dim = 0 : i64}
// EP0-SAME: %{{.*}}: tensor<4x32x48xbf16> {moe.name = "w_gate", moe.role = "weight", moe.split_axes = array<i64: 0>, moe.split_dim = 0 : i64}
// EP0: moe.all_to_all {{.*}} on @ep axis 0

// Without data axes the other axis replicates the batch: T / 2 tokens, the
// losses summed over the expert axis only.
// RUN: moe-opt %s --moe-expert-parallel="axis=1" | FileCheck %s --check-prefix=REPL
// REPL: func.func @moe_layer(%{{.*}}: tensor<32x32xbf16> {moe.name = "x", moe.role = "input", moe.split_axes = array<i64: 1>, moe.split_dim = 0 : i64}
// REPL-SAME: attributes {moe.batch_axes = array<i64: 1>}
// REPL: moe.z_loss {{.*}} coeff 5.000000e-04
// REPL: moe.all_reduce {{.*}} on @ep axes [1]

// The backward: an expert weight's gradient is split over the expert axis
// and a partial sum over the data axis; the router weight's a partial sum
// over both; d_x split like x.
// RUN: moe-opt %s --moe-expert-parallel="axis=1 data-axes=0" --moe-generate-vjp | FileCheck %s --check-prefix=GRAD
// GRAD:      func.func @moe_layer_bwd(
// GRAD-SAME: -> (tensor<16x32xbf16> {moe.name = "d_x", moe.role = "gradient", moe.split_axes = array<i64: 0, 1>, moe.split_dim = 0 : i64}, tensor<32x8xf32> {moe.name = "d_router_weight", moe.partial_axes = array<i64: 0, 1>, moe.partial_sum, moe.role = "gradient"}, tensor<4x32x48xbf16> {moe.name = "d_w_gate", moe.partial_axes = array<i64: 0>, moe.partial_sum, moe.role = "gradient", moe.split_axes = array<i64: 1>, moe.split_dim = 0 : i64}
// With the batch replicated on axis 0, nothing is summed over it.
// RUN: moe-opt %s --moe-expert-parallel="axis=1" --moe-generate-vjp | FileCheck %s --check-prefix=GRAD-REPL
// GRAD-REPL:      func.func @moe_layer_bwd(
// GRAD-REPL-SAME: {moe.name = "d_router_weight", moe.partial_axes = array<i64: 1>, moe.partial_sum, moe.role = "gradient"}, tensor<4x32x48xbf16> {moe.name = "d_w_gate", moe.role = "gradient", moe.split_axes = array<i64: 1>, moe.split_dim = 0 : i64}

// grid-shape creates a grid of several axes when the module has none of
// that name (here @dp); it must match an existing one.
// RUN: moe-opt %s --moe-expert-parallel="grid=dp grid-shape=2,4 axis=1 data-axes=0" | FileCheck %s --check-prefix=CREATE
// CREATE:      shard.grid @dp(shape = 2x4)
// CREATE:      func.func @moe_layer(%{{.*}}: tensor<8x32xbf16> {moe.name = "x", moe.role = "input", moe.split_axes = array<i64: 0, 1>, moe.split_dim = 0 : i64}, %{{.*}}: tensor<32x8xf32> {moe.name = "router_weight", moe.role = "weight"}, %{{.*}}: tensor<2x32x48xbf16> {moe.name = "w_gate", moe.role = "weight", moe.split_axes = array<i64: 1>, moe.split_dim = 0 : i64}
// CREATE:      moe.all_to_all {{.*}} on @dp axis 1
// RUN: not moe-opt %s --moe-expert-parallel="grid-shape=4,2 axis=1" 2>&1 | FileCheck %s --check-prefix=SHAPE-EXISTS
// SHAPE-EXISTS: error: moe-expert-parallel: grid-shape is the shape of a grid the pass creates, but @ep exists
// RUN: not moe-opt %s --moe-expert-parallel="grid=dp grid-shape=2,0" 2>&1 | FileCheck %s --check-prefix=SHAPE-ZERO
// SHAPE-ZERO: error: moe-expert-parallel: grid-shape size 0 must be at least 1
// RUN: not moe-opt %s --moe-expert-parallel="grid=dp grid-shape=2,2 axis=1 ranks=4" 2>&1 | FileCheck %s --check-prefix=SHAPE-RANKS
// SHAPE-RANKS: error: moe-expert-parallel: ranks = 4 but axis 1 of shard.grid @dp has 2 ranks

// Bad data axes.
// RUN: not moe-opt %s --moe-expert-parallel="axis=1 data-axes=1" 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: error: moe-expert-parallel: data axis 1 is the expert-parallel axis
// RUN: not moe-opt %s --moe-expert-parallel="axis=1 data-axes=0,0" 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: moe-expert-parallel: data axis 0 is named twice
// RUN: not moe-opt %s --moe-expert-parallel="axis=1 data-axes=2" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: moe-expert-parallel: data axis 2 does not exist in shard.grid @ep of rank 2
// A created grid has one axis.
// RUN: not moe-opt %s --moe-expert-parallel="grid=fresh ranks=2 data-axes=1" 2>&1 | FileCheck %s --check-prefix=CREATED
// CREATED: error: moe-expert-parallel: data-axes needs a shard.grid @fresh of several axes: declare one in the module or give grid-shape
// T = 64 tokens do not split into the 2 x 64 = 128 shards of @wide.
// RUN: not moe-opt %s --moe-expert-parallel="grid=wide axis=0 data-axes=1" 2>&1 | FileCheck %s --check-prefix=TOKENS
// TOKENS: error: moe-expert-parallel: T = 64 tokens (dim 0 of argument 0, x) is not divisible by D = 128 token shards

shard.grid @ep(shape = 2x2)
shard.grid @wide(shape = 2x64)

func.func @moe_layer(%x: tensor<64x32xbf16>, %router: tensor<32x8xf32>,
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
