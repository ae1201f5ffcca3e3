// RUN: moe-opt %s -split-input-file --moe-expand-layer | FileCheck %s
// The expanded graph must verify on its own and print the same again:
// RUN: moe-opt %s -split-input-file --moe-expand-layer | moe-opt -split-input-file --verify-each | FileCheck %s

// moe.layer → the op graph, for every router configuration and activation.

// CHECK-LABEL: func.func @softmax_pre_no_losses
func.func @softmax_pre_no_losses(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// The entry keeps the layer's operand names (what moe-generate-vjp,
// moe-fp8-placement and moe-runner find its arguments by):
// CHECK-SAME: (%[[X:[a-z0-9]+]]: tensor<16x8xbf16> {moe.name = "x", moe.role = "input"}, %[[WR:[a-z0-9]+]]: tensor<8x8xf32> {moe.name = "router_weight", moe.role = "weight"}, %[[WG:[a-z0-9]+]]: tensor<8x8x12xbf16> {moe.name = "w_gate", moe.role = "weight"}, %[[WU:[a-z0-9]+]]: tensor<8x8x12xbf16> {moe.name = "w_up", moe.role = "weight"}, %[[WD:[a-z0-9]+]]: tensor<8x12x8xbf16> {moe.name = "w_down", moe.role = "weight"})
// CHECK-SAME: -> (tensor<16x8xbf16> {moe.name = "out", moe.role = "output"}, tensor<f32> {moe.name = "aux_loss", moe.role = "output"})
// CHECK:      %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[INIT1:.+]] = tensor.empty() : tensor<16x8xf32>
// CHECK-NEXT: %[[LOGITS:.*]] = moe.gate %[[X]], %[[WR]] outs(%[[INIT1]]) : tensor<16x8xbf16>, tensor<8x8xf32> -> tensor<16x8xf32>
// CHECK-NEXT: %[[INIT2:.+]] = tensor.empty() : tensor<16x8xf32>
// CHECK-NEXT: %[[SCORES:.*]] = moe.route softmax %[[LOGITS]] outs(%[[INIT2]]) : tensor<16x8xf32> -> tensor<16x8xf32>
// CHECK-NEXT: %[[INIT3:.+]] = tensor.empty() : tensor<16x2xf32>
// CHECK-NEXT: %[[INIT4:.+]] = tensor.empty() : tensor<16x2xi32>
// CHECK-NEXT: %[[W:.*]], %[[IDX:.*]] = moe.topk softmax %[[SCORES]] k 2 outs(%[[INIT3]], %[[INIT4]]) : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
// CHECK-NEXT: %[[INIT5:.+]] = tensor.empty() : tensor<32x8xbf16>
// CHECK-NEXT: %[[INIT6:.+]] = tensor.empty() : tensor<8xi32>
// CHECK-NEXT: %[[INIT7:.+]] = tensor.empty() : tensor<16x2xi32>
// CHECK-NEXT: %[[XS:.*]], %[[SIZES:.*]], %[[ROWS:.*]] = moe.permute %[[X]], %[[IDX]] experts 8 align 1 outs(%[[INIT5]], %[[INIT6]], %[[INIT7]]) : tensor<16x8xbf16>, tensor<16x2xi32> -> tensor<32x8xbf16>, tensor<8xi32>, tensor<16x2xi32>
// CHECK-NEXT: %[[INIT8:.+]] = tensor.empty() : tensor<32x12xbf16>
// CHECK-NEXT: %[[G:.*]] = moe.grouped_matmul %[[XS]], %[[WG]], %[[SIZES]] outs(%[[INIT8]]) : tensor<32x8xbf16>, tensor<8x8x12xbf16>, tensor<8xi32> -> tensor<32x12xbf16>
// CHECK-NEXT: %[[INIT9:.+]] = tensor.empty() : tensor<32x12xbf16>
// CHECK-NEXT: %[[U:.*]] = moe.grouped_matmul %[[XS]], %[[WU]], %[[SIZES]] outs(%[[INIT9]]) : tensor<32x8xbf16>, tensor<8x8x12xbf16>, tensor<8xi32> -> tensor<32x12xbf16>
// CHECK-NEXT: %[[INIT10:.+]] = tensor.empty() : tensor<32x12xbf16>
// CHECK-NEXT: %[[H:.*]] = moe.glu silu %[[G]], %[[U]] outs(%[[INIT10]]) : tensor<32x12xbf16>, tensor<32x12xbf16> -> tensor<32x12xbf16>
// CHECK-NEXT: %[[INIT11:.+]] = tensor.empty() : tensor<32x8xbf16>
// CHECK-NEXT: %[[Y:.*]] = moe.grouped_matmul %[[H]], %[[WD]], %[[SIZES]] outs(%[[INIT11]]) : tensor<32x12xbf16>, tensor<8x12x8xbf16>, tensor<8xi32> -> tensor<32x8xbf16>
// CHECK-NEXT: %[[INIT12:.+]] = tensor.empty() : tensor<16x8xbf16>
// CHECK-NEXT: %[[OUT:.*]] = moe.combine %[[Y]], %[[ROWS]], %[[W]] outs(%[[INIT12]]) : tensor<32x8xbf16>, tensor<16x2xi32>, tensor<16x2xf32> -> tensor<16x8xbf16>
// CHECK-NEXT: return %[[OUT]], %[[ZERO]]
// CHECK-NOT: moe.aux_loss
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @softmax_pre_sum_aux_z
func.func @softmax_pre_sum_aux_z(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK:      %[[LOGITS:.*]] = moe.gate
// CHECK:      %[[SCORES:.*]] = moe.route softmax %[[LOGITS]]
// CHECK:      %{{.*}}, %[[IDX:.*]] = moe.topk softmax %[[SCORES]] k 2 outs({{.*}}) {normalize = #moe<normalize sum>}
// CHECK: %[[INIT13:.+]] = tensor.empty() : tensor<f32>
// CHECK:      %[[AUX:.*]] = moe.aux_loss batch %[[SCORES]], %[[IDX]] from softmax coeff 1.000000e-02 outs(%[[INIT13]]) : tensor<16x8xf32>, tensor<16x2xi32> -> tensor<f32>
// CHECK-NEXT: %[[INIT14:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[Z:.*]] = moe.z_loss %[[LOGITS]] coeff 1.000000e-03 outs(%[[INIT14]]) : tensor<16x8xf32> -> tensor<f32>
// CHECK-NEXT: %[[LOSS:.*]] = arith.addf %[[AUX]], %[[Z]] : tensor<f32>
// CHECK-NEXT: return %{{.*}}, %[[LOSS]]
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @softmax_post_aux
func.func @softmax_post_aux(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK:      %[[LOGITS:.*]] = moe.gate
// CHECK-NEXT: %[[INIT15:.+]] = tensor.empty() : tensor<16x8xf32>
// CHECK-NEXT: %[[SEL:.*]] = moe.route identity %[[LOGITS]] outs(%[[INIT15]]) : tensor<16x8xf32> -> tensor<16x8xf32>
// CHECK-NEXT: %[[INIT16:.+]] = tensor.empty() : tensor<16x2xf32>
// CHECK-NEXT: %[[INIT17:.+]] = tensor.empty() : tensor<16x2xi32>
// CHECK-NEXT: %{{.*}}, %[[IDX:.*]] = moe.topk identity %[[SEL]] k 2 outs(%[[INIT16]], %[[INIT17]]) {normalize = #moe<normalize softmax>} : tensor<16x8xf32> -> tensor<16x2xf32>, tensor<16x2xi32>
// CHECK:      moe.combine
// CHECK-NEXT: %[[INIT18:.+]] = tensor.empty() : tensor<16x8xf32>
// CHECK-NEXT: %[[DENSE:.*]] = moe.route softmax %[[LOGITS]] outs(%[[INIT18]]) : tensor<16x8xf32> -> tensor<16x8xf32>
// CHECK:      %[[AUX:.*]] = moe.aux_loss batch %[[DENSE]], %[[IDX]] from softmax coeff 1.000000e-02
// CHECK-NEXT: return %{{.*}}, %[[AUX]]
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>, post_softmax, aux_loss_coeff = 1.0e-02 : f64}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @sigmoid_bias_scaled
func.func @sigmoid_bias_scaled(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %b: tensor<8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK-SAME: %[[B:[a-z0-9]+]]: tensor<8xf32>
// CHECK:      %[[SCORES:.*]] = moe.route sigmoid
// CHECK:      moe.topk sigmoid %[[SCORES]] bias %[[B]] k 2 outs({{.*}}) {normalize = #moe<normalize sum>, scaling_factor = 2.500000e+00 : f64} : tensor<16x8xf32>, tensor<8xf32>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr bias %b experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function sigmoid>, normalize = #moe<normalize sum>, scaling_factor = 2.5 : f64}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @sqrtsoftplus_sequence_aux
func.func @sqrtsoftplus_sequence_aux(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %b: tensor<8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK:      %[[SCORES:.*]] = moe.route sqrtsoftplus
// CHECK:      %{{.*}}, %[[IDX:.*]] = moe.topk sqrtsoftplus %[[SCORES]] bias %{{.*}} k 2 outs({{.*}}) {normalize = #moe<normalize sum>}
// CHECK:      moe.aux_loss sequence %[[SCORES]], %[[IDX]] from sqrtsoftplus coeff 1.000000e-04 outs(%{{.*}}) {seq_length = 8 : i64}
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr bias %b experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function sqrtsoftplus>, normalize = #moe<normalize sum>, aux_loss_coeff = 1.0e-04 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 8 : i64}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @group_limited_top_sum
func.func @group_limited_top_sum(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %b: tensor<8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK: moe.topk sigmoid %{{.*}} bias %{{.*}} k 4 outs({{.*}}) {group_topk = 2 : i64, normalize = #moe<normalize sum>, num_groups = 4 : i64} : tensor<16x8xf32>, tensor<8xf32>
// CHECK: moe.permute %{{.*}}, %{{.*}} experts 8 align 1 outs({{.*}}) : tensor<16x8xbf16>, tensor<16x4xi32>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr bias %b experts(%wg, %wu, %wd) {k = 4 : i64, score_function = #moe<score_function sigmoid>, num_groups = 4 : i64, group_topk = 2 : i64, normalize = #moe<normalize sum>}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @group_limited_max
func.func @group_limited_max(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK: moe.topk softmax %{{.*}} k 4 outs({{.*}}) {group_score = #moe<group_score max>, group_topk = 2 : i64, num_groups = 4 : i64} : tensor<16x8xf32>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 4 : i64, score_function = #moe<score_function softmax>, num_groups = 4 : i64, group_topk = 2 : i64, group_score = #moe<group_score max>}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @group_limited_topq
func.func @group_limited_topq(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK: moe.topk sigmoid %{{.*}} k 4 outs({{.*}}) {group_score_topq = 2 : i64, num_groups = 2 : i64} : tensor<16x8xf32>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 4 : i64, score_function = #moe<score_function sigmoid>, num_groups = 2 : i64, group_topk = 1 : i64, group_score_topq = 2 : i64}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @activation_gelu
func.func @activation_gelu(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK: %[[G:.*]] = moe.grouped_matmul
// CHECK:      %[[U:.*]] = moe.grouped_matmul
// CHECK:      moe.glu gelu %[[G]], %[[U]] outs(%{{.*}}) : tensor<16x12xbf16>, tensor<16x12xbf16> -> tensor<16x12xbf16>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 1 : i64, score_function = #moe<score_function softmax>, activation = #moe<activation gelu>}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @activation_gelu_tanh
func.func @activation_gelu_tanh(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK: %[[G:.*]] = moe.grouped_matmul
// CHECK:      %[[U:.*]] = moe.grouped_matmul
// CHECK:      moe.glu gelu_tanh %[[G]], %[[U]] outs(%{{.*}}) : tensor<16x12xbf16>, tensor<16x12xbf16> -> tensor<16x12xbf16>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 1 : i64, score_function = #moe<score_function softmax>, activation = #moe<activation gelu_tanh>}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @activation_relu
func.func @activation_relu(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK: %[[G:.*]] = moe.grouped_matmul
// CHECK:      %[[U:.*]] = moe.grouped_matmul
// CHECK:      moe.glu relu %[[G]], %[[U]] outs(%{{.*}}) : tensor<16x12xbf16>, tensor<16x12xbf16> -> tensor<16x12xbf16>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 1 : i64, score_function = #moe<score_function softmax>, activation = #moe<activation relu>}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @activation_relu2
func.func @activation_relu2(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK: %[[G:.*]] = moe.grouped_matmul
// CHECK:      %[[U:.*]] = moe.grouped_matmul
// CHECK:      moe.glu relu2 %[[G]], %[[U]] outs(%{{.*}}) : tensor<16x12xbf16>, tensor<16x12xbf16> -> tensor<16x12xbf16>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 1 : i64, score_function = #moe<score_function softmax>, activation = #moe<activation relu2>}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @activation_identity
func.func @activation_identity(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK: %[[G:.*]] = moe.grouped_matmul
// CHECK:      %[[U:.*]] = moe.grouped_matmul
// CHECK:      moe.glu identity %[[G]], %[[U]] outs(%{{.*}}) : tensor<16x12xbf16>, tensor<16x12xbf16> -> tensor<16x12xbf16>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 1 : i64, score_function = #moe<score_function softmax>, activation = #moe<activation identity>}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @layout_nk_align16
func.func @layout_nk_align16(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x12x8xbf16>, %wu: tensor<8x12x8xbf16>, %wd: tensor<8x8x12xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK: moe.permute %{{.*}}, %{{.*}} experts 8 align 16 outs({{.*}}) : tensor<16x8xbf16>, tensor<16x2xi32>
// CHECK: moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} outs(%{{.*}}) {weight_layout = #moe<weight_layout nk>} : tensor<152x8xbf16>, tensor<8x12x8xbf16>, tensor<8xi32> -> tensor<152x12xbf16>
// CHECK: moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} outs(%{{.*}}) {weight_layout = #moe<weight_layout nk>} : tensor<152x8xbf16>, tensor<8x12x8xbf16>, tensor<8xi32> -> tensor<152x12xbf16>
// CHECK:      moe.glu silu
// CHECK: moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} outs(%{{.*}}) {weight_layout = #moe<weight_layout nk>} : tensor<152x12xbf16>, tensor<8x8x12xbf16>, tensor<8xi32> -> tensor<152x8xbf16>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>, weight_layout = #moe<weight_layout nk>, align = 16 : i64}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x12x8xbf16>, tensor<8x12x8xbf16>, tensor<8x8x12xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @z_loss_only
func.func @z_loss_only(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK:      %[[LOGITS:.*]] = moe.gate
// CHECK:      %[[Z:.*]] = moe.z_loss %[[LOGITS]] coeff 1.000000e-03
// CHECK-NEXT: return %{{.*}}, %[[Z]]
// CHECK-NOT:  moe.aux_loss
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

shard.grid @dp_ep(shape = 2x4)
// CHECK-LABEL: func.func @global_aux_loss
func.func @global_aux_loss(%x: tensor<16x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {

// CHECK: moe.aux_loss global %{{.*}}, %{{.*}} from softmax coeff 1.000000e-02 outs(%{{.*}}) {grid = @dp_ep, grid_axes = array<i64: 0, 1>}
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>, aux_loss_coeff = 1.0e-02 : f64, aux_loss_variant = #moe<aux_loss_variant global>, grid = @dp_ep, grid_axes = array<i64: 0, 1>}
      : (tensor<16x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @dynamic_tokens
func.func @dynamic_tokens(%x: tensor<?x8xbf16>, %wr: tensor<8x8xf32>, %wg: tensor<8x8x12xbf16>, %wu: tensor<8x8x12xbf16>, %wd: tensor<8x12x8xbf16>) -> (tensor<?x8xbf16>, tensor<f32>) {

// CHECK: moe.permute %{{.*}}, %{{.*}} experts 8 align 1 outs({{.*}}) : tensor<?x8xbf16>, tensor<?x2xi32>
// CHECK: moe.grouped_matmul %{{.*}} : tensor<?x8xbf16>, tensor<8x8x12xbf16>, tensor<8xi32> -> tensor<?x12xbf16>
// CHECK: moe.combine %{{.*}} : tensor<?x8xbf16>, tensor<?x2xi32>, tensor<?x2xf32> -> tensor<?x8xbf16>
  // CHECK-NOT: moe.layer
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>}
      : (tensor<?x8xbf16>, tensor<8x8xf32>, tensor<8x8x12xbf16>, tensor<8x8x12xbf16>, tensor<8x12x8xbf16>) -> (tensor<?x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<?x8xbf16>, tensor<f32>
}
