// Finite-difference check of moe.glu's adjoint for every activation, with
// two operands (gate, up [R, F]) and fused (one [R, 2F] operand: gate is the
// first F columns, up the last F): dgate = dh·up·act'(gate), dup = dh·act(gate).
// relu has a kink at 0: an element within a step of it spoils the central
// difference. Seed 2 draws a gate element 4.4e-5 from 0 for the two-operand
// relu (crossed by any step >= 1e-4; at 3e-5 rounding noise dominates), so
// that entry runs seeds 1 and 3; all others run seeds 1 and 2. relu2 is C¹.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry glu_silu --seed 1 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_silu --seed 2 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_fused_silu --seed 1 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_fused_silu --seed 2 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_gelu --seed 1 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_gelu --seed 2 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_fused_gelu --seed 1 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_fused_gelu --seed 2 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_gelu_tanh --seed 1 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_gelu_tanh --seed 2 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_fused_gelu_tanh --seed 1 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_fused_gelu_tanh --seed 2 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_relu --seed 1 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_relu --seed 3 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_fused_relu --seed 1 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_fused_relu --seed 2 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_relu2 --seed 1 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_relu2 --seed 2 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_fused_relu2 --seed 1 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_fused_relu2 --seed 2 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_identity --seed 1 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_identity --seed 2 --per-input | FileCheck %s --check-prefix=TWO
// RUN: moe-gradcheck %t --entry glu_fused_identity --seed 1 --per-input | FileCheck %s --check-prefix=FUSED
// RUN: moe-gradcheck %t --entry glu_fused_identity --seed 2 --per-input | FileCheck %s --check-prefix=FUSED

// TWO:      gradients: d_gate [32, 12] f32, d_up [32, 12] f32 (all finite)
// TWO-NEXT: check gate: {{.*}} ok
// TWO-NEXT: check up: {{.*}} ok
// TWO-NEXT: PASS

// FUSED:      gradients: d_gate_up [32, 24] f32 (all finite)
// FUSED-NEXT: check gate_up: {{.*}} ok
// FUSED-NEXT: PASS

func.func @glu_silu(%g: tensor<32x12xf32> {moe.name = "gate"}, %u: tensor<32x12xf32> {moe.name = "up"})
    -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init1 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu silu %g, %u outs(%init1) : tensor<32x12xf32>, tensor<32x12xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_fused_silu(%gu: tensor<32x24xf32> {moe.name = "gate_up"}) -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init2 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu silu %gu outs(%init2) : tensor<32x24xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_gelu(%g: tensor<32x12xf32> {moe.name = "gate"}, %u: tensor<32x12xf32> {moe.name = "up"})
    -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init3 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu gelu %g, %u outs(%init3) : tensor<32x12xf32>, tensor<32x12xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_fused_gelu(%gu: tensor<32x24xf32> {moe.name = "gate_up"}) -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init4 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu gelu %gu outs(%init4) : tensor<32x24xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_gelu_tanh(%g: tensor<32x12xf32> {moe.name = "gate"}, %u: tensor<32x12xf32> {moe.name = "up"})
    -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init5 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu gelu_tanh %g, %u outs(%init5) : tensor<32x12xf32>, tensor<32x12xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_fused_gelu_tanh(%gu: tensor<32x24xf32> {moe.name = "gate_up"}) -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init6 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu gelu_tanh %gu outs(%init6) : tensor<32x24xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_relu(%g: tensor<32x12xf32> {moe.name = "gate"}, %u: tensor<32x12xf32> {moe.name = "up"})
    -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init7 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu relu %g, %u outs(%init7) : tensor<32x12xf32>, tensor<32x12xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_fused_relu(%gu: tensor<32x24xf32> {moe.name = "gate_up"}) -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init8 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu relu %gu outs(%init8) : tensor<32x24xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_relu2(%g: tensor<32x12xf32> {moe.name = "gate"}, %u: tensor<32x12xf32> {moe.name = "up"})
    -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init9 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu relu2 %g, %u outs(%init9) : tensor<32x12xf32>, tensor<32x12xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_fused_relu2(%gu: tensor<32x24xf32> {moe.name = "gate_up"}) -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init10 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu relu2 %gu outs(%init10) : tensor<32x24xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_identity(%g: tensor<32x12xf32> {moe.name = "gate"}, %u: tensor<32x12xf32> {moe.name = "up"})
    -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init11 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu identity %g, %u outs(%init11) : tensor<32x12xf32>, tensor<32x12xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}

func.func @glu_fused_identity(%gu: tensor<32x24xf32> {moe.name = "gate_up"}) -> (tensor<32x12xf32> {moe.name = "h"}) {
  %init12 = tensor.empty() : tensor<32x12xf32>
  %h = moe.glu identity %gu outs(%init12) : tensor<32x24xf32> -> tensor<32x12xf32>
  return %h : tensor<32x12xf32>
}
