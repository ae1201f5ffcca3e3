// Finite-difference check of the whole layer (moe.layer, expanded and
// differentiated as one block): sqrtsoftplus scores with an expert bias,
// normalize sum and scaling factor 1.5 (top-4), batch aux loss, z-loss, relu.
// T=16, H=8, F=12, E=8.
// The expert bias only steers selection: no d_bias.
// relu's kink at 0: with the default step (1e-3) seed 1 moves a gate
// pre-activation across it (rel_err 0.024 on w_gate); 3e-4 stays clear
// and is still far above f32 rounding noise.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry layer --seed 1 --per-input --eps 3e-4 | FileCheck %s
// RUN: moe-gradcheck %t --entry layer --seed 2 --per-input --eps 3e-4 | FileCheck %s

// CHECK:      forward: layer_fwd results vs layer: max rel L2 diff 0 (out, aux_loss)
// CHECK:      gradients: d_x [16, 8] f32, d_router_weight [8, 8] f32, d_w_gate [8, 8, 12] f32, d_w_up [8, 8, 12] f32, d_w_down [8, 12, 8] f32 (all finite)
// CHECK-NEXT: check x: {{.*}} ok
// CHECK-NEXT: check router_weight: {{.*}} ok
// CHECK-NEXT: check w_gate: {{.*}} ok
// CHECK-NEXT: check w_up: {{.*}} ok
// CHECK-NEXT: check w_down: {{.*}} ok
// CHECK-NEXT: PASS

func.func @layer(%x: tensor<16x8xf32>, %router: tensor<8x8xf32>, %bias: tensor<8xf32>, %w_gate: tensor<8x8x12xf32>, %w_up: tensor<8x8x12xf32>, %w_down: tensor<8x12x8xf32>)
    -> (tensor<16x8xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 4 : i64,
       score_function = #moe<score_function sqrtsoftplus>,
       normalize = #moe<normalize sum>,
       scaling_factor = 1.5 : f64,
       activation = #moe<activation relu>,
       aux_loss_coeff = 1.0e-02 : f64,
       aux_loss_variant = #moe<aux_loss_variant batch>,
       z_loss_coeff = 1.0e-03 : f64}
      : (tensor<16x8xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8x8x12xf32>, tensor<8x8x12xf32>, tensor<8x12x8xf32>)
      -> (tensor<16x8xf32>, tensor<f32>)
  return %out, %aux : tensor<16x8xf32>, tensor<f32>
}
