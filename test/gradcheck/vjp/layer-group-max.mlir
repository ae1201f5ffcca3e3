// Finite-difference check of the whole layer (moe.layer, expanded and
// differentiated as one block): group-limited routing with the max group
// score: softmax scores, 4 groups of 2, the best 2 groups, top-2, normalize
// none, scaling factor 2.5, per-sequence aux loss (4 sequences of 4), z-loss,
// silu. T=16, H=8, F=12, E=8.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry layer --seed 1 --per-input | FileCheck %s
// RUN: moe-gradcheck %t --entry layer --seed 2 --per-input | FileCheck %s

// CHECK:      forward: layer_fwd results vs layer: max rel L2 diff 0 (out, aux_loss)
// CHECK:      gradients: d_x [16, 8] f32, d_router_weight [8, 8] f32, d_w_gate [8, 8, 12] f32, d_w_up [8, 8, 12] f32, d_w_down [8, 12, 8] f32 (all finite)
// CHECK-NEXT: check x: {{.*}} ok
// CHECK-NEXT: check router_weight: {{.*}} ok
// CHECK-NEXT: check w_gate: {{.*}} ok
// CHECK-NEXT: check w_up: {{.*}} ok
// CHECK-NEXT: check w_down: {{.*}} ok
// CHECK-NEXT: PASS

func.func @layer(%x: tensor<16x8xf32>, %router: tensor<8x8xf32>, %w_gate: tensor<8x8x12xf32>, %w_up: tensor<8x8x12xf32>, %w_down: tensor<8x12x8xf32>)
    -> (tensor<16x8xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64,
       score_function = #moe<score_function softmax>,
       normalize = #moe<normalize none>,
       scaling_factor = 2.5 : f64,
       num_groups = 4 : i64,
       group_topk = 2 : i64,
       group_score = #moe<group_score max>,
       activation = #moe<activation silu>,
       aux_loss_coeff = 1.0e-02 : f64,
       aux_loss_variant = #moe<aux_loss_variant sequence>,
       seq_length = 4 : i64,
       z_loss_coeff = 1.0e-03 : f64}
      : (tensor<16x8xf32>, tensor<8x8xf32>, tensor<8x8x12xf32>, tensor<8x8x12xf32>, tensor<8x12x8xf32>)
      -> (tensor<16x8xf32>, tensor<f32>)
  return %out, %aux : tensor<16x8xf32>, tensor<f32>
}
