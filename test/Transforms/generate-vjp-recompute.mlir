// The residual policy of moe-generate-vjp: each op's recompute class
// (VJPOpInterface::getRecomputeClass) against the classes the `recompute`
// option names. Here moe.gate (class `gate`) makes the logits, moe.route
// (class `route`) the scores, and both the route adjoint (sigmoid: ds·s·(1−s))
// and the mulf's need the scores.
// RUN: moe-opt %s --moe-generate-vjp=recompute=none | FileCheck %s --check-prefix=SAVE
// RUN: moe-opt %s --moe-generate-vjp | FileCheck %s --check-prefix=SAVE
// RUN: moe-opt %s --moe-generate-vjp=recompute=glu,permute | FileCheck %s --check-prefix=SAVE
// Naming the gate alone changes nothing: no adjoint asks for the logits
// while the scores are saved.
// RUN: moe-opt %s --moe-generate-vjp=recompute=gate | FileCheck %s --check-prefix=SAVE
// RUN: moe-opt %s --moe-generate-vjp=recompute=route | FileCheck %s --check-prefix=ROUTE
// RUN: moe-opt %s --moe-generate-vjp=recompute=route,gate | FileCheck %s --check-prefix=BOTH
// RUN: moe-opt %s --moe-generate-vjp=recompute=gate,none,route | FileCheck %s --check-prefix=BOTH
// The classes that hold whatever the option says are not option names.
// RUN: not moe-opt %s --moe-generate-vjp=recompute=always 2>&1 | FileCheck %s --check-prefix=ALWAYS
// RUN: not moe-opt %s --moe-generate-vjp=recompute=never 2>&1 | FileCheck %s --check-prefix=NEVER
// RUN: not moe-opt %s --moe-generate-vjp=recompute=Glu 2>&1 | FileCheck %s --check-prefix=CASE
// ALWAYS: error: moe-generate-vjp: unknown recompute kind 'always' (known: glu, permute, gate, route, none)
// NEVER: error: moe-generate-vjp: unknown recompute kind 'never' (known: glu, permute, gate, route, none)
// CASE: error: moe-generate-vjp: unknown recompute kind 'Glu' (known: glu, permute, gate, route, none)

// Saved: the scores are the one residual; no moe op in the backward but the
// gate's adjoint (linalg).
// SAVE-LABEL: func.func @router_fwd
// SAVE-SAME:  -> (tensor<4x4xf32> {moe.name = "result0", moe.role = "output"}, tensor<4x4xf32> {moe.name = "res0", moe.role = "residual"}) {
// SAVE-LABEL: func.func @router_bwd
// SAVE-SAME:  (%{{.*}}: tensor<4x4xf32> {moe.name = "res0", moe.role = "residual"}, %{{.*}}: tensor<4x8xf32> {moe.name = "arg0", moe.role = "input"}, %{{.*}}: tensor<8x4xf32> {moe.name = "arg1", moe.role = "input"}, %{{.*}}: tensor<4x4xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// SAVE-NOT:   moe.route
// SAVE-NOT:   moe.gate
// SAVE:       return

// route: the scores are recomputed from the logits, which are saved.
// ROUTE-LABEL: func.func @router_fwd
// ROUTE-SAME:  -> (tensor<4x4xf32> {moe.name = "result0", moe.role = "output"}, tensor<4x4xf32> {moe.name = "res0", moe.role = "residual"}) {
// ROUTE:       %[[L:.*]] = moe.gate
// ROUTE:       return %{{.*}}, %[[L]]
// ROUTE-LABEL: func.func @router_bwd
// ROUTE-SAME:  (%[[RL:.*]]: tensor<4x4xf32> {moe.name = "res0", moe.role = "residual"}, %{{.*}}: tensor<4x8xf32> {moe.name = "arg0", moe.role = "input"}, %{{.*}}: tensor<8x4xf32> {moe.name = "arg1", moe.role = "input"}, %{{.*}}: tensor<4x4xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// ROUTE-NEXT:  %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
// ROUTE-NEXT:  %[[S:.*]] = moe.route sigmoid %[[RL]] outs(%[[E]]) : tensor<4x4xf32> -> tensor<4x4xf32>
// ROUTE-NOT:   moe.gate
// ROUTE:       return

// gate and route: nothing is saved; the backward takes x and w first (the
// mulf's adjoint asks for the scores, recomputed from the recomputed logits).
// BOTH-LABEL: func.func @router_fwd
// BOTH-SAME:  -> (tensor<4x4xf32> {moe.name = "result0", moe.role = "output"}) {
// BOTH-LABEL: func.func @router_bwd
// BOTH-SAME:  (%[[X:.*]]: tensor<4x8xf32> {moe.name = "arg0", moe.role = "input"}, %[[W:.*]]: tensor<8x4xf32> {moe.name = "arg1", moe.role = "input"}, %{{.*}}: tensor<4x4xf32> {moe.name = "d_result0", moe.role = "cotangent"})
// BOTH-NEXT:  %[[E0:.*]] = tensor.empty() : tensor<4x4xf32>
// BOTH-NEXT:  %[[L:.*]] = moe.gate %[[X]], %[[W]] outs(%[[E0]]) : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
// BOTH-NEXT:  %[[E1:.*]] = tensor.empty() : tensor<4x4xf32>
// BOTH-NEXT:  %[[S:.*]] = moe.route sigmoid %[[L]] outs(%[[E1]]) : tensor<4x4xf32> -> tensor<4x4xf32>
// BOTH-NOT:   moe.gate
// BOTH-NOT:   moe.route
// BOTH:       return
func.func @router(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %init1 = tensor.empty() : tensor<4x4xf32>
  %l = moe.gate %x, %w outs(%init1) : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route sigmoid %l outs(%init2) : tensor<4x4xf32> -> tensor<4x4xf32>
  %y = arith.mulf %s, %s : tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
