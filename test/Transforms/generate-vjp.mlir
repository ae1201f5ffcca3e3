// RUN: moe-opt %s -split-input-file -verify-diagnostics --moe-generate-vjp | FileCheck %s
// Saving everything: the glu output becomes a residual, not a recompute.
// RUN: moe-opt %s -split-input-file -verify-diagnostics --moe-generate-vjp=recompute=none | FileCheck %s --check-prefix=NONE
// Recomputing the dispatch too: the backward permutes again.
// RUN: moe-opt %s -split-input-file -verify-diagnostics --moe-generate-vjp=recompute=glu,permute | FileCheck %s --check-prefix=DISPATCH
// RUN: not moe-opt %s --moe-generate-vjp=recompute=bogus 2>&1 | FileCheck %s --check-prefix=BOGUS
// BOGUS: error: moe-generate-vjp: unknown recompute kind 'bogus' (known: glu, permute, gate, route, none)
// RUN: not moe-opt %s --moe-generate-vjp=function=nowhere 2>&1 | FileCheck %s --check-prefix=NOWHERE
// NOWHERE: error: moe-generate-vjp: no public function @nowhere

// moe-generate-vjp: @f → @f_fwd (results + residuals) and ONE @f_bwd
// (the arguments of @f it needs, under their own names, and the residuals;
// then cotangents → gradients). An argument of @f is never a residual.
// Numbers are checked by finite differences in test/gradcheck/vjp; here, the
// structure of each adjoint.

// gate: dx = dlogits · wᵀ and dw = xᵀ · dlogits as f32 reductions; dx back
// to x's bf16. x and w are @gate's arguments: @gate_bwd takes them as they
// are (names arg0/arg1, role input) and @gate_fwd returns no residual.
// CHECK-LABEL: func.func @gate_fwd
// CHECK-SAME:  -> (tensor<4x2xf32> {moe.name = "result0", moe.role = "output"}) {
// CHECK-LABEL: func.func @gate_bwd
// CHECK-SAME:  (%[[X:.*]]: tensor<4x8xbf16> {moe.name = "arg0", moe.role = "input"}, %[[W:.*]]: tensor<8x2xf32> {moe.name = "arg1", moe.role = "input"}, %[[DL:.*]]: tensor<4x2xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<4x8xbf16> {moe.name = "d_arg0", moe.role = "gradient"}, tensor<8x2xf32> {moe.name = "d_arg1", moe.role = "gradient"})
// CHECK:       %[[DX32:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%[[DL]], %[[W]] : tensor<4x2xf32>, tensor<8x2xf32>)
// CHECK:       %[[DW:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%[[X]], %[[DL]] : tensor<4x8xbf16>, tensor<4x2xf32>)
// CHECK:       %[[DX:.*]] = linalg.generic {{.*}} ins(%[[DX32]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK:       return %[[DX]], %[[DW]]
func.func @gate(%x: tensor<4x8xbf16>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %init1 = tensor.empty() : tensor<4x2xf32>
  %l = moe.gate %x, %w outs(%init1) : tensor<4x8xbf16>, tensor<8x2xf32> -> tensor<4x2xf32>
  return %l : tensor<4x2xf32>
}

// -----

// grouped_matmul: dgrad is a grouped matmul reading the same weights with
// the other layout; wgrad is grouped_weight_grad in the weights' layout. All
// three operands are arguments: no residuals.
// CHECK-LABEL: func.func @matmul_nk_fwd
// CHECK-SAME:  -> (tensor<8x6xbf16> {moe.name = "result0", moe.role = "output"}) {
// CHECK-LABEL: func.func @matmul_nk_bwd
// CHECK-SAME:  (%[[A:.*]]: tensor<8x4xbf16> {moe.name = "arg0", moe.role = "input"}, %[[B:.*]]: tensor<2x6x4xbf16> {moe.name = "arg1", moe.role = "input"}, %[[N:.*]]: tensor<2xi32> {moe.name = "arg2", moe.role = "input"}, %[[DC:.*]]: tensor<8x6xbf16> {moe.name = "d_result0", moe.role = "cotangent"})
// CHECK: %[[INIT2:.+]] = tensor.empty() : tensor<8x4xbf16>
// CHECK:       %[[DA:.*]] = moe.grouped_matmul %[[DC]], %[[B]], %[[N]] outs(%[[INIT2]]) : tensor<8x6xbf16>, tensor<2x6x4xbf16>, tensor<2xi32> -> tensor<8x4xbf16>
// CHECK: %[[INIT3:.+]] = tensor.empty() : tensor<2x6x4xbf16>
// CHECK:       %[[DB:.*]] = moe.grouped_weight_grad %[[A]], %[[DC]], %[[N]] outs(%[[INIT3]]) {weight_layout = #moe<weight_layout nk>} : tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<2xi32> -> tensor<2x6x4xbf16>
// CHECK:       return %[[DA]], %[[DB]]
func.func @matmul_nk(%a: tensor<8x4xbf16>, %b: tensor<2x6x4xbf16>, %n: tensor<2xi32>) -> tensor<8x6xbf16> {
  %init4 = tensor.empty() : tensor<8x6xbf16>
  %c = moe.grouped_matmul %a, %b, %n outs(%init4) {weight_layout = #moe<weight_layout nk>} : tensor<8x4xbf16>, tensor<2x6x4xbf16>, tensor<2xi32> -> tensor<8x6xbf16>
  return %c : tensor<8x6xbf16>
}

// -----

// permute: dx[t] = Σ_k dxs[rows[t, k]], a combine with unit weights; the
// integer results get no cotangent, the indices no gradient.
// CHECK-LABEL: func.func @permute_bwd
// CHECK-SAME:  (%[[ROWS:.*]]: tensor<4x2xi32> {moe.name = "res0", moe.role = "residual"}, %[[DXS:.*]]: tensor<8x3xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<4x3xf32> {moe.name = "d_arg0", moe.role = "gradient"})
// CHECK:       %[[ONES:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK:       %[[DX:.*]] = moe.combine %[[DXS]], %[[ROWS]], %[[ONES]]
// CHECK:       return %[[DX]]
func.func @permute(%x: tensor<4x3xf32>, %idx: tensor<4x2xi32>) -> (tensor<8x3xf32>, tensor<4xi32>) {
  %init5 = tensor.empty() : tensor<8x3xf32>
  %init6 = tensor.empty() : tensor<4xi32>
  %init7 = tensor.empty() : tensor<4x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %idx experts 4 align 1 outs(%init5, %init6, %init7) : tensor<4x3xf32>, tensor<4x2xi32> -> tensor<8x3xf32>, tensor<4xi32>, tensor<4x2xi32>
  return %xs, %sizes : tensor<8x3xf32>, tensor<4xi32>
}

// -----

// route softmax: dl = s ⊙ (ds − Σ_e s·ds): a row reduction, then a map.
// CHECK-LABEL: func.func @route_softmax_bwd
// CHECK-SAME:  (%[[S:.*]]: tensor<4x8xf32> {moe.name = "res0", moe.role = "residual"}, %[[DS:.*]]: tensor<4x8xf32> {{.*}})
// CHECK:       %[[DOT:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[S]], %[[DS]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK:       %[[DL:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[S]], %[[DS]], %[[DOT]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>)
// CHECK:         arith.subf
// CHECK:         arith.mulf
// CHECK:       return %[[DL]]
func.func @route_softmax(%l: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %init8 = tensor.empty() : tensor<4x8xf32>
  %s = moe.route softmax %l outs(%init8) : tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// aux loss (sequence, sigmoid scores): counts per sequence from the indices
// as [sequences, length·k] against the constant expert ids (one reduction
// dimension); dp back to [T, E]; then the per-token normalization's rule.
// The indices get no gradient.
// CHECK-LABEL: func.func @aux_sequence_bwd
// CHECK-SAME:  -> (tensor<4x8xf32> {moe.name = "d_arg0", moe.role = "gradient"})
// CHECK:       %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x2xi32> into tensor<8xi32>
// CHECK:       %[[PAIRS:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xi32> into tensor<2x4xi32>
// CHECK:       %[[IDS:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
// CHECK:       %[[COUNTS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[PAIRS]], %[[IDS]] : tensor<2x4xi32>, tensor<8xi32>) outs(%{{.*}} : tensor<2x8xf32>)
// CHECK:       %[[DP3:.*]] = linalg.generic {{.*}} ins(%[[COUNTS]], %{{.*}} : tensor<2x8xf32>, tensor<f32>) outs(%{{.*}} : tensor<2x2x8xf32>)
// CHECK:       %[[DP:.*]] = tensor.collapse_shape %[[DP3]] {{\[\[}}0, 1], [2]] : tensor<2x2x8xf32> into tensor<4x8xf32>
// CHECK:       linalg.generic {{.*}} ins(%[[DP]], %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>)
func.func @aux_sequence(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) -> tensor<f32> {
  %init9 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss sequence %s, %i from sigmoid coeff 1.0e-02 outs(%init9) {seq_length = 2 : i64} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// z-loss: row max, row Σexp, then dloss·(2c/T)·lse·softmax.
// CHECK-LABEL: func.func @zloss_bwd
// CHECK:       linalg.generic {{.*}}"reduction"
// CHECK:         arith.maximumf
// CHECK:       linalg.generic {{.*}}"reduction"
// CHECK:         math.exp
// CHECK:       linalg.generic
// CHECK:         math.log
// CHECK:       return
func.func @zloss(%l: tensor<4x8xf32>) -> tensor<f32> {
  %init10 = tensor.empty() : tensor<f32>
  %z = moe.z_loss %l coeff 1.0e-03 outs(%init10) : tensor<4x8xf32> -> tensor<f32>
  return %z : tensor<f32>
}

// -----

// glu, fused [R, 2F] operand: one map writes dgate into the first F columns
// and dup into the last F.
// CHECK-LABEL: func.func @glu_fused_bwd
// CHECK-SAME:  (%[[GU:.*]]: tensor<6x8xf32> {moe.name = "arg0", moe.role = "input"}, %[[DH:.*]]: tensor<6x4xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<6x8xf32> {moe.name = "d_arg0", moe.role = "gradient"})
// CHECK:       linalg.generic {{.*}} outs(%{{.*}} : tensor<6x8xf32>)
// CHECK:         linalg.index 0
// CHECK:         linalg.index 1
// CHECK:         tensor.extract %[[GU]]
// CHECK:         tensor.extract %[[GU]]
// CHECK:         tensor.extract %[[DH]]
func.func @glu_fused(%gu: tensor<6x8xf32>) -> tensor<6x4xf32> {
  %init11 = tensor.empty() : tensor<6x4xf32>
  %h = moe.glu silu %gu outs(%init11) : tensor<6x8xf32> -> tensor<6x4xf32>
  return %h : tensor<6x4xf32>
}

// -----

// combine: one combine_grad gives both dy and dweights.
// CHECK-LABEL: func.func @combine_bwd
// CHECK: %[[INIT12:.+]] = tensor.empty() : tensor<8x3xf32>
// CHECK: %[[INIT13:.+]] = tensor.empty() : tensor<4x2xf32>
// CHECK:       %[[DY:.*]], %[[DW:.*]] = moe.combine_grad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} outs(%[[INIT12]], %[[INIT13]]) : tensor<4x3xf32>, tensor<8x3xf32>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<8x3xf32>, tensor<4x2xf32>
// CHECK:       return %[[DY]], %[[DW]]
func.func @combine(%y: tensor<8x3xf32>, %rows: tensor<4x2xi32>, %w: tensor<4x2xf32>) -> tensor<4x3xf32> {
  %init14 = tensor.empty() : tensor<4x3xf32>
  %out = moe.combine %y, %rows, %w outs(%init14) : tensor<8x3xf32>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<4x3xf32>
  return %out : tensor<4x3xf32>
}

// -----

// topk: the expert bias only steers selection — no gradient for it (and
// the backward does not take it).
// CHECK-LABEL: func.func @topk_bias_bwd
// CHECK-SAME:  (%{{.*}}: tensor<4x8xf32> {moe.name = "arg0", moe.role = "input"}, %{{.*}}: tensor<4x2xi32> {moe.name = "res0", moe.role = "residual"}, %{{.*}}: tensor<4x2xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<4x8xf32> {moe.name = "d_arg0", moe.role = "gradient"})
// CHECK-NOT:   d_arg1
func.func @topk_bias(%s: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %init15 = tensor.empty() : tensor<4x2xf32>
  %init16 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk sigmoid %s bias %b k 2 outs(%init15, %init16) {normalize = #moe<normalize sum>} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return %w, %i : tensor<4x2xf32>, tensor<4x2xi32>
}

// -----

// all_to_all: the reverse exchange with the received counts.
// CHECK-LABEL: func.func @exchange_bwd
// CHECK-SAME:  (%[[RECV:.*]]: tensor<4xi32> {moe.name = "res0", moe.role = "residual"}, %[[DY:.*]]: tensor<16x3xf32> {{.*}})
// CHECK: %[[INIT17:.+]] = tensor.empty() : tensor<8x3xf32>
// CHECK: %[[INIT18:.+]] = tensor.empty() : tensor<4xi32>
// CHECK:       %[[DX:.*]], %{{.*}} = moe.all_to_all %[[DY]], %[[RECV]] on @ep axis 0 outs(%[[INIT17]], %[[INIT18]]) : tensor<16x3xf32>, tensor<4xi32> -> tensor<8x3xf32>, tensor<4xi32>
// CHECK:       return %[[DX]]
shard.grid @ep(shape = 4)
func.func @exchange(%x: tensor<8x3xf32>, %send: tensor<4xi32>) -> tensor<16x3xf32> {
  %init19 = tensor.empty() : tensor<16x3xf32>
  %init20 = tensor.empty() : tensor<4xi32>
  %y, %r = moe.all_to_all %x, %send on @ep axis 0 outs(%init19, %init20) : tensor<8x3xf32>, tensor<4xi32> -> tensor<16x3xf32>, tensor<4xi32>
  return %y : tensor<16x3xf32>
}

// -----

// Chunked all_to_all (C = 2 chunks per rank): still the reverse exchange,
// with the [P·C] received counts as its send sizes.
// CHECK-LABEL: func.func @exchange_chunks_bwd
// CHECK-SAME:  (%[[RECV:.*]]: tensor<8xi32> {moe.name = "res0", moe.role = "residual"}, %[[DY:.*]]: tensor<16x3xf32> {{.*}})
// CHECK:       %[[DX:.*]], %{{.*}} = moe.all_to_all %[[DY]], %[[RECV]] on @ep_chunks axis 0 outs(%{{.*}}, %{{.*}}) : tensor<16x3xf32>, tensor<8xi32> -> tensor<8x3xf32>, tensor<8xi32>
// CHECK:       return %[[DX]]
shard.grid @ep_chunks(shape = 4)
func.func @exchange_chunks(%x: tensor<8x3xf32>, %send: tensor<8xi32>) -> tensor<16x3xf32> {
  %y0 = tensor.empty() : tensor<16x3xf32>
  %r0 = tensor.empty() : tensor<8xi32>
  %y, %r = moe.all_to_all %x, %send on @ep_chunks axis 0 outs(%y0, %r0) : tensor<8x3xf32>, tensor<8xi32> -> tensor<16x3xf32>, tensor<8xi32>
  return %y : tensor<16x3xf32>
}

// -----

// sort_chunks: the reverse reorder (inverse flipped) with the same counts;
// its sizes have the other axis' length (N / C = 6 / 2 = 3 ranks, and back
// 6 / 3 = 2 chunks). counts get no gradient.
// CHECK-LABEL: func.func @reorder_bwd
// CHECK-SAME:  (%[[C:.*]]: tensor<6xi32> {moe.name = "arg1", moe.role = "input"}, %[[DY:.*]]: tensor<9x3xbf16> {moe.name = "d_result0", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<9x3xbf16> {moe.name = "d_arg0", moe.role = "gradient"})
// CHECK:       %[[DX:.*]], %{{.*}} = moe.sort_chunks inverse %[[DY]], %[[C]] outs(%{{.*}}, %{{.*}}) : tensor<9x3xbf16>, tensor<6xi32> -> tensor<9x3xbf16>, tensor<3xi32>
// CHECK:       return %[[DX]]
// CHECK-LABEL: func.func @unreorder_bwd
// CHECK-SAME:  (%[[C:.*]]: tensor<6xi32> {moe.name = "arg1", moe.role = "input"}, %[[DY:.*]]: tensor<9x3xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// CHECK:       %[[DX:.*]], %{{.*}} = moe.sort_chunks %[[DY]], %[[C]] outs(%{{.*}}, %{{.*}}) : tensor<9x3xf32>, tensor<6xi32> -> tensor<9x3xf32>, tensor<2xi32>
// CHECK:       return %[[DX]]
func.func @reorder(%x: tensor<9x3xbf16>, %counts: tensor<6xi32>) -> tensor<9x3xbf16> {
  %y0 = tensor.empty() : tensor<9x3xbf16>
  %s0 = tensor.empty() : tensor<2xi32>
  %y, %sizes = moe.sort_chunks %x, %counts outs(%y0, %s0) : tensor<9x3xbf16>, tensor<6xi32> -> tensor<9x3xbf16>, tensor<2xi32>
  return %y : tensor<9x3xbf16>
}
func.func @unreorder(%x: tensor<9x3xf32>, %counts: tensor<6xi32>) -> tensor<9x3xf32> {
  %y0 = tensor.empty() : tensor<9x3xf32>
  %s0 = tensor.empty() : tensor<3xi32>
  %y, %sizes = moe.sort_chunks inverse %x, %counts outs(%y0, %s0) : tensor<9x3xf32>, tensor<6xi32> -> tensor<9x3xf32>, tensor<3xi32>
  return %y : tensor<9x3xf32>
}

// -----

// all_reduce: the identity, dx = dy (the sum is replicated over the axes and
// so is its cotangent); the forward keeps its collective.
// CHECK-LABEL: func.func @replicated_sum_fwd
// CHECK:       moe.all_reduce %{{.*}} on @ep_sum axes [0]
// CHECK-LABEL: func.func @replicated_sum_bwd
// CHECK-SAME:  (%[[DY:.*]]: tensor<2x3xf32> {moe.name = "d_result0", moe.role = "cotangent"}) -> (tensor<2x3xf32> {moe.name = "d_arg0", moe.role = "gradient"})
// CHECK-NEXT:  return %[[DY]]
shard.grid @ep_sum(shape = 4)
func.func @replicated_sum(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y0 = tensor.empty() : tensor<2x3xf32>
  %y = moe.all_reduce %x on @ep_sum axes [0] outs(%y0) : tensor<2x3xf32> -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// The global aux loss' share: its adjoint sums the counts over the ranks of
// the axes (moe.all_reduce, as the forward does) and uses T_g = T · ranks:
// factor = E · coeff / (K · T_g²) = 8 · 0.01 / (2 · (4 · 4)²) = 1.5625e-4.
// CHECK-LABEL: func.func @aux_global_bwd
// CHECK:       %[[COUNTS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} {{.*}} outs(%{{.*}} : tensor<1x8xf32>)
// CHECK:       %[[GLOBAL:.*]] = moe.all_reduce %[[COUNTS]] on @ep_aux axes [0] outs(%{{.*}}) : tensor<1x8xf32> -> tensor<1x8xf32>
// CHECK:       linalg.generic {{.*}} ins(%[[GLOBAL]], %{{.*}} : tensor<1x8xf32>, tensor<f32>)
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.constant 1.562500e-04 : f32
shard.grid @ep_aux(shape = 4)
func.func @aux_global(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) -> tensor<f32> {
  %l0 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss global %s, %i from softmax coeff 1.0e-02 outs(%l0) {grid = @ep_aux, grid_axes = array<i64: 0>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// FP8 is straight-through: dequantize multiplies by the scale, quantize
// divides by it (so the pair passes the gradient through).
// CHECK-LABEL: func.func @fp8_round_trip_bwd
// CHECK:       linalg.generic
// CHECK:         arith.mulf
// CHECK:       } -> tensor<4x256xf32>
// CHECK:       linalg.generic
// CHECK:         arith.divf
// CHECK:       } -> tensor<4x256xbf16>
func.func @fp8_round_trip(%x: tensor<4x256xbf16>) -> tensor<4x256xbf16> {
  %init21 = tensor.empty() : tensor<4x256xf8E4M3FN>
  %init22 = tensor.empty() : tensor<4x2xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%init21, %init22) : tensor<4x256xbf16> -> tensor<4x256xf8E4M3FN>, tensor<4x2xf32>
  %init23 = tensor.empty() : tensor<4x256xbf16>
  %y = moe.dequantize block_1x128 %q, %s outs(%init23) : tensor<4x256xf8E4M3FN>, tensor<4x2xf32> -> tensor<4x256xbf16>
  return %y : tensor<4x256xbf16>
}

// -----

// The whole layer: expanded, then one backward with every adjoint in it.
// The glu output is recomputed (default policy), not saved. @layer_fwd
// returns ten residuals and none of the layer's arguments; @layer_bwd takes
// the expert weights, x and the router weight under their own names and
// roles where the adjoints first ask for them (walking the block backwards:
// w_down for the down matmul's dgrad, w_up and w_gate, then x and the router
// weight for the gate), and not the expert bias (selection only).
// CHECK-LABEL: func.func @layer_fwd
// CHECK-SAME:  -> (tensor<16x8xbf16> {moe.name = "out", moe.role = "output"}, tensor<f32> {moe.name = "aux_loss", moe.role = "output"},
// CHECK-SAME:  tensor<16x8xf32> {moe.name = "res0", moe.role = "residual"}, tensor<16x8xf32> {moe.name = "res1", moe.role = "residual"},
// CHECK-SAME:  tensor<16x2xi32> {moe.name = "res2", moe.role = "residual"}, tensor<32x8xbf16> {moe.name = "res3", moe.role = "residual"},
// CHECK-SAME:  tensor<16x2xi32> {moe.name = "res4", moe.role = "residual"}, tensor<16x2xf32> {moe.name = "res5", moe.role = "residual"},
// CHECK-SAME:  tensor<32x12xbf16> {moe.name = "res6", moe.role = "residual"}, tensor<32x12xbf16> {moe.name = "res7", moe.role = "residual"},
// CHECK-SAME:  tensor<8xi32> {moe.name = "res8", moe.role = "residual"}, tensor<32x8xbf16> {moe.name = "res9", moe.role = "residual"}) {
// CHECK-NOT:   moe.layer
// CHECK-LABEL: func.func @layer_bwd
// CHECK-SAME:  (%{{.*}}: tensor<16x8xf32> {moe.name = "res0", moe.role = "residual"}, %{{.*}}: tensor<16x8xf32> {moe.name = "res1", moe.role = "residual"},
// CHECK-SAME:  %{{.*}}: tensor<16x2xi32> {moe.name = "res2", moe.role = "residual"}, %{{.*}}: tensor<32x8xbf16> {moe.name = "res3", moe.role = "residual"},
// CHECK-SAME:  %{{.*}}: tensor<16x2xi32> {moe.name = "res4", moe.role = "residual"}, %{{.*}}: tensor<16x2xf32> {moe.name = "res5", moe.role = "residual"},
// CHECK-SAME:  %{{.*}}: tensor<32x12xbf16> {moe.name = "res6", moe.role = "residual"}, %{{.*}}: tensor<32x12xbf16> {moe.name = "res7", moe.role = "residual"},
// CHECK-SAME:  %{{.*}}: tensor<8x12x8xbf16> {moe.name = "w_down", moe.role = "weight"},
// CHECK-SAME:  %{{.*}}: tensor<8xi32> {moe.name = "res8", moe.role = "residual"}, %{{.*}}: tensor<32x8xbf16> {moe.name = "res9", moe.role = "residual"},
// CHECK-SAME:  %{{.*}}: tensor<8x8x12xbf16> {moe.name = "w_up", moe.role = "weight"}, %{{.*}}: tensor<8x8x12xbf16> {moe.name = "w_gate", moe.role = "weight"},
// CHECK-SAME:  %{{.*}}: tensor<16x8xbf16> {moe.name = "x", moe.role = "input"}, %{{.*}}: tensor<8x8xf32> {moe.name = "router_weight", moe.role = "weight"},
// CHECK-SAME:  %{{.*}}: tensor<16x8xbf16> {moe.name = "d_out", moe.role = "cotangent"}, %{{.*}}: tensor<f32> {moe.name = "d_aux_loss", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<16x8xbf16> {moe.name = "d_x", moe.role = "gradient"}, tensor<8x8xf32> {moe.name = "d_router_weight", moe.role = "gradient"}, tensor<8x8x12xbf16> {moe.name = "d_w_gate", moe.role = "gradient"}, tensor<8x8x12xbf16> {moe.name = "d_w_up", moe.role = "gradient"}, tensor<8x12x8xbf16> {moe.name = "d_w_down", moe.role = "gradient"})
// CHECK-NOT:   moe.layer
// CHECK:       moe.combine_grad
// CHECK:       moe.glu silu
// CHECK:       moe.grouped_matmul {{.*}}weight_layout = #moe<weight_layout nk>
// CHECK:       moe.grouped_weight_grad
// CHECK-COUNT-2: moe.grouped_weight_grad
// CHECK:       moe.combine
// CHECK:       return
// NONE-LABEL:  func.func @layer_bwd
// NONE-NOT:    moe.glu
// NONE-NOT:    moe.permute
// NONE:        return
// DISPATCH-LABEL: func.func @layer_bwd
// DISPATCH:    moe.permute
// DISPATCH:    moe.glu silu
// DISPATCH:    return
func.func @layer(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %b: tensor<8xf32>, %wg: tensor<8x8x12xbf16>,
                 %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %wr bias %b experts(%wg, %wu, %wd)
      {k = 2 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize sum>,
       aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>)
      -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// A weight the backward needs is an argument of @f_bwd, with its own name
// and role, wherever the adjoints first ask for it (here before the one
// residual, the softmax scores, which is still res0: residuals are numbered
// among themselves); @f_fwd does not return it. The backward of y = w · s
// asks for w, then s; the softmax adjoint asks for s again (the same
// argument).
// CHECK-LABEL: func.func @scaled_scores_fwd
// CHECK-SAME:  (%{{.*}}: tensor<4x8xf32> {moe.name = "logits", moe.role = "input"}, %{{.*}}: tensor<4x8xf32> {moe.name = "w_scale", moe.role = "weight"})
// CHECK-SAME:  -> (tensor<4x8xf32> {moe.name = "y", moe.role = "output"}, tensor<4x8xf32> {moe.name = "res0", moe.role = "residual"}) {
// CHECK:       %[[S:.*]] = moe.route softmax
// CHECK:       return %{{.*}}, %[[S]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-LABEL: func.func @scaled_scores_bwd
// CHECK-SAME:  (%[[W:.*]]: tensor<4x8xf32> {moe.name = "w_scale", moe.role = "weight"}, %[[S:.*]]: tensor<4x8xf32> {moe.name = "res0", moe.role = "residual"}, %[[DY:.*]]: tensor<4x8xf32> {moe.name = "d_y", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<4x8xf32> {moe.name = "d_logits", moe.role = "gradient"}, tensor<4x8xf32> {moe.name = "d_w_scale", moe.role = "gradient"})
// CHECK-DAG:   %[[DW:.*]] = arith.mulf %[[DY]], %[[S]]
// CHECK-DAG:   %[[DS:.*]] = arith.mulf %[[DY]], %[[W]]
// CHECK:       linalg.generic {{.*}} ins(%[[S]], %[[DS]] : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:       return %{{.*}}, %[[DW]]
func.func @scaled_scores(%l: tensor<4x8xf32> {moe.name = "logits", moe.role = "input"},
                         %w: tensor<4x8xf32> {moe.name = "w_scale", moe.role = "weight"})
    -> (tensor<4x8xf32> {moe.name = "y"}) {
  %init24 = tensor.empty() : tensor<4x8xf32>
  %s = moe.route softmax %l outs(%init24) : tensor<4x8xf32> -> tensor<4x8xf32>
  %y = arith.mulf %w, %s : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// The arguments @f_bwd takes keep their names, so a name of @f's that reads
// like a cotangent or gradient name would repeat one in @f_bwd: an error that
// says so, not an artifact with two arguments of one name.
func.func @clash(%x: tensor<4xf32> {moe.name = "d_y"}, %y: tensor<4xf32>) -> (tensor<4xf32> {moe.name = "y"}) {
  // expected-error @-1 {{moe-generate-vjp: cannot differentiate @clash: argument 'd_y' of @clash_bwd has the name of another of its arguments or results (rename an argument or result of @clash with moe.name)}}
  %z = arith.mulf %x, %y : tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// Ops without an adjoint are reported by name.
func.func @unsupported(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'arith.maximumf' op has no adjoint: moe-generate-vjp supports the moe ops, arith.addf/subf/mulf/divf/negf/truncf/extf/constant, tensor.empty and tensor.expand_shape/collapse_shape on tensors}}
  %z = arith.maximumf %x, %y : tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// Upstream tensor ops: a reshape's cotangent takes the inverse reshape;
// division and negation by their rules. The quotient is a residual, the
// divisor (an argument) is taken as it is.
// CHECK-LABEL: func.func @upstream_fwd
// CHECK-SAME:  -> (tensor<8xf32> {moe.name = "result0", moe.role = "output"}, tensor<8xf32> {moe.name = "res0", moe.role = "residual"}) {
// CHECK-LABEL: func.func @upstream_bwd
// CHECK-SAME:  (%{{.*}}: tensor<8xf32> {moe.name = "res0", moe.role = "residual"}, %{{.*}}: tensor<8xf32> {moe.name = "arg1", moe.role = "input"}, %{{.*}}: tensor<8xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// CHECK-SAME:  -> (tensor<2x4xf32> {moe.name = "d_arg0", moe.role = "gradient"}, tensor<8xf32> {moe.name = "d_arg1", moe.role = "gradient"})
// CHECK:       arith.negf
// CHECK:       arith.divf
// CHECK:       %[[DX:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK:       return %[[DX]]
func.func @upstream(%x: tensor<2x4xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %q = arith.divf %flat, %y : tensor<8xf32>
  %n = arith.negf %q : tensor<8xf32>
  return %n : tensor<8xf32>
}

// -----

func.func @fp8_matmul(%a: tensor<16x256xf8E4M3FN>, %b: tensor<2x256x128xf8E4M3FN>, %n: tensor<2xi32>,
                      %as: tensor<f32>, %bs: tensor<f32>) -> tensor<16x128xbf16> {
  %init25 = tensor.empty() : tensor<16x128xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op adjoint of an FP8 grouped_matmul is not supported yet}}
  %c = moe.grouped_matmul %a, %b, %n scales(%as, %bs) outs(%init25) : tensor<16x256xf8E4M3FN>, tensor<2x256x128xf8E4M3FN>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<16x128xbf16>
  return %c : tensor<16x128xbf16>
}

// -----

// The moe adjoints need static shapes (a fuzzer case crashed in the aux
// loss's adjoint).
func.func @aux_loss_dynamic(%s: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<f32> {
  %init = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op adjoint needs static shapes, but operand #0 is 'tensor<?x?xf32>'}}
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.000000e-02 outs(%init) {seq_length = 4 : i64} : tensor<?x?xf32>, tensor<?x?xi32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// FP8 rows have no cotangent of their own type to gather (a fuzzer case
// crashed here).
func.func @permute_fp8(%x: tensor<3x2xf8E5M2>, %idx: tensor<3x1xi32>) -> tensor<3x2xf8E5M2> {
  %init1 = tensor.empty() : tensor<3x2xf8E5M2>
  %init2 = tensor.empty() : tensor<2xi32>
  %init3 = tensor.empty() : tensor<3x1xi32>
  // expected-error @+1 {{'moe.permute' op adjoint needs a bf16, f16 or f32 cotangent of the permuted rows, got 'tensor<3x2xf8E5M2>' (moe-fp8-placement runs after moe-generate-vjp)}}
  %p, %s, %r = moe.permute %x, %idx experts 2 align 1 outs(%init1, %init2, %init3) : tensor<3x2xf8E5M2>, tensor<3x1xi32> -> tensor<3x2xf8E5M2>, tensor<2xi32>, tensor<3x1xi32>
  return %p : tensor<3x2xf8E5M2>
}

// -----

// A fused (accumulating) matmul is differentiated before fusion, not after.
func.func @accumulate_matmul(%a: tensor<16x32xbf16>, %b: tensor<2x32x48xbf16>, %n: tensor<2xi32>, %c0: tensor<16x48xbf16>) -> tensor<16x48xbf16> {
  // expected-error @+1 {{'moe.grouped_matmul' op with 'accumulate' has no adjoint: run moe-generate-vjp on the unfused graph, then fuse forward and backward}}
  %c = moe.grouped_matmul %a, %b, %n outs(%c0) {accumulate} : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return %c : tensor<16x48xbf16>
}

// -----

// Control flow between blocks: the adjoints run backward through one block
// (a fuzzer case crashed here).
// expected-error @+1 {{'func.func' op moe-generate-vjp: expects a function body of one block ending in func.return (straight-line code); @blocks has 2 blocks}}
func.func @blocks(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  cf.br ^exit
^exit:
  return %x : tensor<4x8xf32>
}

// -----

// No tokens: the aux loss's adjoint gives an empty score gradient (its
// sequence count divided by zero: a fuzzer case crashed here).
// CHECK-LABEL: func.func @aux_no_tokens_bwd(
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<0x8xf32>
// CHECK:         return %[[E]] : tensor<0x8xf32>
func.func @aux_no_tokens(%s: tensor<0x8xf32>, %i: tensor<0x2xi32>) -> tensor<f32> {
  %l0 = tensor.empty() : tensor<f32>
  %l = moe.aux_loss batch %s, %i from softmax coeff 1.0e-02 outs(%l0) : tensor<0x8xf32>, tensor<0x2xi32> -> tensor<f32>
  return %l : tensor<f32>
}
