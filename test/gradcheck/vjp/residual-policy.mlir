// The residual policy of moe-generate-vjp (`recompute`): the same layer
// (sigmoid scores with an expert bias, normalize sum, groups aligned to 4
// rows, per-sequence aux loss, z-loss, silu; T=16, H=8, F=12, E=8, K=2,
// R = 16·2 + 8·3 = 56 rows) differentiated with
//   none                   every forward value the backward needs is saved;
//   glu (the default)      the GLU output h is recomputed from gate and up;
//   glu,permute            also the dispatch: xs, group sizes and rows are
//                          recomputed from x and the indices;
//   glu,permute,gate,route also the router logits and scores, from x and
//                          the router weight.
// The @layer_fwd result lists show what is saved (residuals in the order the
// adjoints first ask for them, walking the block backwards), the @layer_bwd
// argument lists where the layer's own arguments come among them; the gradients
// must be bit-identical under every policy (recomputing runs the same ops on
// the same values): moe-runner's fnv1a64 hashes of layer_bwd's gradients
// (layer_fwd → layer_bwd chained, seed 3) must agree.
//
// RUN: moe-opt %s --moe-generate-vjp=recompute=none -o %t.none.mlir
// RUN: moe-opt %s --moe-generate-vjp -o %t.glu.mlir
// RUN: moe-opt %s --moe-generate-vjp=recompute=glu -o %t.glu2.mlir
// RUN: diff %t.glu.mlir %t.glu2.mlir
// RUN: moe-opt %s --moe-generate-vjp=recompute=glu,permute -o %t.gp.mlir
// RUN: moe-opt %s --moe-generate-vjp=recompute=glu,permute,gate,route -o %t.all.mlir
// RUN: FileCheck %s --input-file=%t.none.mlir --check-prefix=NONE
// RUN: FileCheck %s --input-file=%t.glu.mlir --check-prefix=GLU
// RUN: FileCheck %s --input-file=%t.gp.mlir --check-prefix=GP
// RUN: FileCheck %s --input-file=%t.all.mlir --check-prefix=ALL
// RUN: moe-compile --quiet %t.none.mlir -o %t.none
// RUN: moe-compile --quiet %t.glu.mlir -o %t.glu
// RUN: moe-compile --quiet %t.gp.mlir -o %t.gp
// RUN: moe-compile --quiet %t.all.mlir -o %t.all
// RUN: moe-runner %t.none --device cpu --entry layer_bwd --seed 3 > %t.none.txt
// RUN: moe-runner %t.glu --device cpu --entry layer_bwd --seed 3 > %t.glu.txt
// RUN: moe-runner %t.gp --device cpu --entry layer_bwd --seed 3 > %t.gp.txt
// RUN: moe-runner %t.all --device cpu --entry layer_bwd --seed 3 > %t.all.txt
// RUN: cat %t.none.txt %t.glu.txt %t.gp.txt %t.all.txt | FileCheck %s --check-prefix=SAME
// Each policy's VJP is also right (and its layer_fwd computes what layer does).
// RUN: moe-gradcheck %t.none --entry layer --seed 1 --per-input | FileCheck %s --check-prefix=FD
// RUN: moe-gradcheck %t.gp --entry layer --seed 1 --per-input | FileCheck %s --check-prefix=FD
// RUN: moe-gradcheck %t.all --entry layer --seed 1 --per-input | FileCheck %s --check-prefix=FD

// none: 11 residuals: logits (z-loss), scores, indices (aux loss), expert
// outputs y, rows, weights (combine), h, group sizes (down matmul), gate, up
// (glu), xs (gate/up matmuls). The layer's arguments are no residuals:
// layer_bwd takes w_down (down matmul, after h), w_up, w_gate (gate/up
// matmuls), x and the router weight (gate) directly, under their names.
// NONE-LABEL: func.func @layer_fwd(
// NONE-SAME:  -> (tensor<16x8xf32> {moe.name = "out", moe.role = "output"}, tensor<f32> {moe.name = "aux_loss", moe.role = "output"},
// NONE-SAME:  tensor<16x8xf32> {moe.name = "res0", moe.role = "residual"},
// NONE-SAME:  tensor<16x8xf32> {moe.name = "res1", moe.role = "residual"},
// NONE-SAME:  tensor<16x2xi32> {moe.name = "res2", moe.role = "residual"},
// NONE-SAME:  tensor<56x8xf32> {moe.name = "res3", moe.role = "residual"},
// NONE-SAME:  tensor<16x2xi32> {moe.name = "res4", moe.role = "residual"},
// NONE-SAME:  tensor<16x2xf32> {moe.name = "res5", moe.role = "residual"},
// NONE-SAME:  tensor<56x12xf32> {moe.name = "res6", moe.role = "residual"},
// NONE-SAME:  tensor<8xi32> {moe.name = "res7", moe.role = "residual"},
// NONE-SAME:  tensor<56x12xf32> {moe.name = "res8", moe.role = "residual"},
// NONE-SAME:  tensor<56x12xf32> {moe.name = "res9", moe.role = "residual"},
// NONE-SAME:  tensor<56x8xf32> {moe.name = "res10", moe.role = "residual"}) {
// NONE-LABEL: func.func @layer_bwd(
// NONE-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "res0", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "res1", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<16x2xi32> {moe.name = "res2", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<56x8xf32> {moe.name = "res3", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<16x2xi32> {moe.name = "res4", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<16x2xf32> {moe.name = "res5", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<56x12xf32> {moe.name = "res6", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<8x12x8xf32> {moe.name = "w_down", moe.role = "weight"},
// NONE-SAME:  %{{.*}}: tensor<8xi32> {moe.name = "res7", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<56x12xf32> {moe.name = "res8", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<56x12xf32> {moe.name = "res9", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<56x8xf32> {moe.name = "res10", moe.role = "residual"},
// NONE-SAME:  %{{.*}}: tensor<8x8x12xf32> {moe.name = "w_up", moe.role = "weight"},
// NONE-SAME:  %{{.*}}: tensor<8x8x12xf32> {moe.name = "w_gate", moe.role = "weight"},
// NONE-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "x", moe.role = "input"},
// NONE-SAME:  %{{.*}}: tensor<8x8xf32> {moe.name = "router_weight", moe.role = "weight"},
// NONE-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "d_out", moe.role = "cotangent"},
// NONE-SAME:  %{{.*}}: tensor<f32> {moe.name = "d_aux_loss", moe.role = "cotangent"}) ->

// glu: 10: h is no longer saved (recomputed from gate and up).
// GLU-LABEL: func.func @layer_fwd(
// GLU-SAME:  -> (tensor<16x8xf32> {moe.name = "out", moe.role = "output"}, tensor<f32> {moe.name = "aux_loss", moe.role = "output"},
// GLU-SAME:  tensor<16x8xf32> {moe.name = "res0", moe.role = "residual"},
// GLU-SAME:  tensor<16x8xf32> {moe.name = "res1", moe.role = "residual"},
// GLU-SAME:  tensor<16x2xi32> {moe.name = "res2", moe.role = "residual"},
// GLU-SAME:  tensor<56x8xf32> {moe.name = "res3", moe.role = "residual"},
// GLU-SAME:  tensor<16x2xi32> {moe.name = "res4", moe.role = "residual"},
// GLU-SAME:  tensor<16x2xf32> {moe.name = "res5", moe.role = "residual"},
// GLU-SAME:  tensor<56x12xf32> {moe.name = "res6", moe.role = "residual"},
// GLU-SAME:  tensor<56x12xf32> {moe.name = "res7", moe.role = "residual"},
// GLU-SAME:  tensor<8xi32> {moe.name = "res8", moe.role = "residual"},
// GLU-SAME:  tensor<56x8xf32> {moe.name = "res9", moe.role = "residual"}) {
// GLU-LABEL: func.func @layer_bwd(
// GLU-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "res0", moe.role = "residual"},
// GLU-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "res1", moe.role = "residual"},
// GLU-SAME:  %{{.*}}: tensor<16x2xi32> {moe.name = "res2", moe.role = "residual"},
// GLU-SAME:  %{{.*}}: tensor<56x8xf32> {moe.name = "res3", moe.role = "residual"},
// GLU-SAME:  %{{.*}}: tensor<16x2xi32> {moe.name = "res4", moe.role = "residual"},
// GLU-SAME:  %{{.*}}: tensor<16x2xf32> {moe.name = "res5", moe.role = "residual"},
// GLU-SAME:  %{{.*}}: tensor<56x12xf32> {moe.name = "res6", moe.role = "residual"},
// GLU-SAME:  %{{.*}}: tensor<56x12xf32> {moe.name = "res7", moe.role = "residual"},
// GLU-SAME:  %{{.*}}: tensor<8x12x8xf32> {moe.name = "w_down", moe.role = "weight"},
// GLU-SAME:  %{{.*}}: tensor<8xi32> {moe.name = "res8", moe.role = "residual"},
// GLU-SAME:  %{{.*}}: tensor<56x8xf32> {moe.name = "res9", moe.role = "residual"},
// GLU-SAME:  %{{.*}}: tensor<8x8x12xf32> {moe.name = "w_up", moe.role = "weight"},
// GLU-SAME:  %{{.*}}: tensor<8x8x12xf32> {moe.name = "w_gate", moe.role = "weight"},
// GLU-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "x", moe.role = "input"},
// GLU-SAME:  %{{.*}}: tensor<8x8xf32> {moe.name = "router_weight", moe.role = "weight"},
// GLU-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "d_out", moe.role = "cotangent"},
// GLU-SAME:  %{{.*}}: tensor<f32> {moe.name = "d_aux_loss", moe.role = "cotangent"}) ->

// glu,permute: 7: xs, rows and group sizes are no longer saved; layer_bwd
// takes x (permute's input) in their place.
// GP-LABEL: func.func @layer_fwd(
// GP-SAME:  -> (tensor<16x8xf32> {moe.name = "out", moe.role = "output"}, tensor<f32> {moe.name = "aux_loss", moe.role = "output"},
// GP-SAME:  tensor<16x8xf32> {moe.name = "res0", moe.role = "residual"},
// GP-SAME:  tensor<16x8xf32> {moe.name = "res1", moe.role = "residual"},
// GP-SAME:  tensor<16x2xi32> {moe.name = "res2", moe.role = "residual"},
// GP-SAME:  tensor<56x8xf32> {moe.name = "res3", moe.role = "residual"},
// GP-SAME:  tensor<16x2xf32> {moe.name = "res4", moe.role = "residual"},
// GP-SAME:  tensor<56x12xf32> {moe.name = "res5", moe.role = "residual"},
// GP-SAME:  tensor<56x12xf32> {moe.name = "res6", moe.role = "residual"}) {
// GP-LABEL: func.func @layer_bwd(
// GP-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "res0", moe.role = "residual"},
// GP-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "res1", moe.role = "residual"},
// GP-SAME:  %{{.*}}: tensor<16x2xi32> {moe.name = "res2", moe.role = "residual"},
// GP-SAME:  %{{.*}}: tensor<56x8xf32> {moe.name = "res3", moe.role = "residual"},
// GP-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "x", moe.role = "input"},
// GP-SAME:  %{{.*}}: tensor<16x2xf32> {moe.name = "res4", moe.role = "residual"},
// GP-SAME:  %{{.*}}: tensor<56x12xf32> {moe.name = "res5", moe.role = "residual"},
// GP-SAME:  %{{.*}}: tensor<56x12xf32> {moe.name = "res6", moe.role = "residual"},
// GP-SAME:  %{{.*}}: tensor<8x12x8xf32> {moe.name = "w_down", moe.role = "weight"},
// GP-SAME:  %{{.*}}: tensor<8x8x12xf32> {moe.name = "w_up", moe.role = "weight"},
// GP-SAME:  %{{.*}}: tensor<8x8x12xf32> {moe.name = "w_gate", moe.role = "weight"},
// GP-SAME:  %{{.*}}: tensor<8x8xf32> {moe.name = "router_weight", moe.role = "weight"},
// GP-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "d_out", moe.role = "cotangent"},
// GP-SAME:  %{{.*}}: tensor<f32> {moe.name = "d_aux_loss", moe.role = "cotangent"}) ->

// glu,permute,gate,route: 5: no logits or scores; layer_bwd takes x and the
// router weight first (the z-loss's adjoint asks for the logits, recomputed
// from them).
// ALL-LABEL: func.func @layer_fwd(
// ALL-SAME:  -> (tensor<16x8xf32> {moe.name = "out", moe.role = "output"}, tensor<f32> {moe.name = "aux_loss", moe.role = "output"},
// ALL-SAME:  tensor<16x2xi32> {moe.name = "res0", moe.role = "residual"},
// ALL-SAME:  tensor<56x8xf32> {moe.name = "res1", moe.role = "residual"},
// ALL-SAME:  tensor<16x2xf32> {moe.name = "res2", moe.role = "residual"},
// ALL-SAME:  tensor<56x12xf32> {moe.name = "res3", moe.role = "residual"},
// ALL-SAME:  tensor<56x12xf32> {moe.name = "res4", moe.role = "residual"}) {
// ALL-LABEL: func.func @layer_bwd(
// ALL-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "x", moe.role = "input"},
// ALL-SAME:  %{{.*}}: tensor<8x8xf32> {moe.name = "router_weight", moe.role = "weight"},
// ALL-SAME:  %{{.*}}: tensor<16x2xi32> {moe.name = "res0", moe.role = "residual"},
// ALL-SAME:  %{{.*}}: tensor<56x8xf32> {moe.name = "res1", moe.role = "residual"},
// ALL-SAME:  %{{.*}}: tensor<16x2xf32> {moe.name = "res2", moe.role = "residual"},
// ALL-SAME:  %{{.*}}: tensor<56x12xf32> {moe.name = "res3", moe.role = "residual"},
// ALL-SAME:  %{{.*}}: tensor<56x12xf32> {moe.name = "res4", moe.role = "residual"},
// ALL-SAME:  %{{.*}}: tensor<8x12x8xf32> {moe.name = "w_down", moe.role = "weight"},
// ALL-SAME:  %{{.*}}: tensor<8x8x12xf32> {moe.name = "w_up", moe.role = "weight"},
// ALL-SAME:  %{{.*}}: tensor<8x8x12xf32> {moe.name = "w_gate", moe.role = "weight"},
// ALL-SAME:  %{{.*}}: tensor<16x8xf32> {moe.name = "d_out", moe.role = "cotangent"},
// ALL-SAME:  %{{.*}}: tensor<f32> {moe.name = "d_aux_loss", moe.role = "cotangent"}) ->

// One block per policy, in the order none, glu, glu,permute, all; the
// first defines the hashes, the others must repeat them.
// SAME:      residuals from entry layer_fwd: res0, {{.*}}, res10{{$}}
// SAME-NEXT: inputs from entry layer_fwd: w_down, w_up, w_gate, x, router_weight{{$}}
// SAME:      d_x gradient {{.*}} [[DX:[0-9a-f]+]]{{$}}
// SAME-NEXT: d_router_weight gradient {{.*}} [[DR:[0-9a-f]+]]{{$}}
// SAME-NEXT: d_w_gate gradient {{.*}} [[DG:[0-9a-f]+]]{{$}}
// SAME-NEXT: d_w_up gradient {{.*}} [[DU:[0-9a-f]+]]{{$}}
// SAME-NEXT: d_w_down gradient {{.*}} [[DD:[0-9a-f]+]]{{$}}
// SAME:      residuals from entry layer_fwd: res0, {{.*}}, res9{{$}}
// SAME-NEXT: inputs from entry layer_fwd: w_down, w_up, w_gate, x, router_weight{{$}}
// SAME:      d_x gradient {{.*}} [[DX]]{{$}}
// SAME-NEXT: d_router_weight gradient {{.*}} [[DR]]{{$}}
// SAME-NEXT: d_w_gate gradient {{.*}} [[DG]]{{$}}
// SAME-NEXT: d_w_up gradient {{.*}} [[DU]]{{$}}
// SAME-NEXT: d_w_down gradient {{.*}} [[DD]]{{$}}
// SAME:      residuals from entry layer_fwd: res0, {{.*}}, res6{{$}}
// SAME-NEXT: inputs from entry layer_fwd: x, w_down, w_up, w_gate, router_weight{{$}}
// SAME:      d_x gradient {{.*}} [[DX]]{{$}}
// SAME-NEXT: d_router_weight gradient {{.*}} [[DR]]{{$}}
// SAME-NEXT: d_w_gate gradient {{.*}} [[DG]]{{$}}
// SAME-NEXT: d_w_up gradient {{.*}} [[DU]]{{$}}
// SAME-NEXT: d_w_down gradient {{.*}} [[DD]]{{$}}
// SAME:      residuals from entry layer_fwd: res0, {{.*}}, res4{{$}}
// SAME-NEXT: inputs from entry layer_fwd: x, router_weight, w_down, w_up, w_gate{{$}}
// SAME:      d_x gradient {{.*}} [[DX]]{{$}}
// SAME-NEXT: d_router_weight gradient {{.*}} [[DR]]{{$}}
// SAME-NEXT: d_w_gate gradient {{.*}} [[DG]]{{$}}
// SAME-NEXT: d_w_up gradient {{.*}} [[DU]]{{$}}
// SAME-NEXT: d_w_down gradient {{.*}} [[DD]]{{$}}

// FD:      forward: layer_fwd results vs layer: max rel L2 diff 0 (out, aux_loss)
// FD:      check x: {{.*}} ok
// FD-NEXT: check router_weight: {{.*}} ok
// FD-NEXT: check w_gate: {{.*}} ok
// FD-NEXT: check w_up: {{.*}} ok
// FD-NEXT: check w_down: {{.*}} ok
// FD-NEXT: PASS

func.func @layer(%x: tensor<16x8xf32>, %router: tensor<8x8xf32>, %bias: tensor<8xf32>, %w_gate: tensor<8x8x12xf32>, %w_up: tensor<8x8x12xf32>, %w_down: tensor<8x12x8xf32>)
    -> (tensor<16x8xf32>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router bias %bias experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize sum>,
       activation = #moe<activation silu>, align = 4 : i64,
       aux_loss_coeff = 1.0e-02 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 8 : i64,
       z_loss_coeff = 1.0e-03 : f64}
      : (tensor<16x8xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8x8x12xf32>, tensor<8x8x12xf32>, tensor<8x12x8xf32>)
      -> (tensor<16x8xf32>, tensor<f32>)
  return %out, %aux : tensor<16x8xf32>, tensor<f32>
}
