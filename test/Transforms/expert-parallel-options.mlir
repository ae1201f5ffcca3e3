// The options of moe-expert-parallel against the module's grid.

// No grid and no ranks: nothing says P.
// RUN: not moe-opt %s --moe-expert-parallel 2>&1 | FileCheck %s --check-prefix=NO-RANKS
// NO-RANKS: error: moe-expert-parallel: the module has no shard.grid @ep; give ranks=P (or grid-shape) to create one

// A created grid is 1-D: axis 1 does not exist.
// RUN: not moe-opt %s --moe-expert-parallel="ranks=2 axis=1" 2>&1 | FileCheck %s --check-prefix=NEW-AXIS
// NEW-AXIS: error: moe-expert-parallel: grid axis 1 does not exist in the 1-D shard.grid @ep the pass creates

// RUN: not moe-opt %s --moe-expert-parallel="ranks=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: moe-expert-parallel: ranks = -1 must be at least 1 (or 0: the grid's axis size)

// The grid named by the option is used: @tp has 4 ranks, ranks must agree.
// RUN: not moe-opt %s --moe-expert-parallel="grid=tp ranks=2" 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: error: moe-expert-parallel: ranks = 2 but axis 0 of shard.grid @tp has 4 ranks

// RUN: not moe-opt %s --moe-expert-parallel="grid=tp axis=1" 2>&1 | FileCheck %s --check-prefix=AXIS
// AXIS: error: moe-expert-parallel: grid axis 1 does not exist in shard.grid @tp of rank 1

// With ranks left 0 the grid's axis says P = 4: T/4 = 16, E/4 = 2.
// RUN: moe-opt %s --moe-expert-parallel="grid=tp" | FileCheck %s --check-prefix=TP
// TP:      shard.grid @tp(shape = 4)
// TP-NOT:  shard.grid
// TP:      func.func @moe_layer(%{{.*}}: tensor<16x32xbf16> {{{[^}]*}}moe.split_dim = 0 : i64}, %{{.*}}: tensor<32x8xf32> {moe.name = "router_weight", moe.role = "weight"}, %{{.*}}: tensor<2x32x48xbf16> {{{[^}]*}}moe.split_dim = 0 : i64}
// TP:      moe.all_to_all {{.*}} on @tp axis 0 {{.*}} : tensor<32x32xbf16>, tensor<8xi32> -> tensor<128x32xbf16>, tensor<8xi32>
// TP:      moe.sort_chunks {{.*}} : tensor<128x32xbf16>, tensor<8xi32> -> tensor<128x32xbf16>, tensor<2xi32>
// TP:      moe.all_reduce {{.*}} on @tp axes [0]

shard.grid @tp(shape = 4)

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
