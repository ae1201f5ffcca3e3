// Every verifier rule of the moe dialect, one case each, with the message
// (the operand named, the numbers given). The generic form is used where the
// custom form would infer the result types and so cannot state a wrong one.
//
// RUN: moe-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Parsing: custom<EnumKeyword>, required attributes, attribute kinds
//===----------------------------------------------------------------------===//

func.func @route_unknown_keyword(%l: tensor<4x8xf32>) {
  // expected-error @+1 {{unknown keyword 'tanh', expected one of: softmax, sigmoid, sqrtsoftplus, identity}}
  %0 = moe.route tanh %l : tensor<4x8xf32>
  return
}

// -----

func.func @aux_loss_unknown_variant(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{unknown keyword 'local', expected one of: batch, sequence, global}}
  %0 = moe.aux_loss local %s, %i from softmax coeff 1.000000e-02 : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_unknown_score_function(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{unknown keyword 'softplus', expected one of: softmax, sigmoid, sqrtsoftplus, identity}}
  %0 = moe.aux_loss batch %s, %i from softplus coeff 1.000000e-02 : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @glu_unknown_activation(%g: tensor<4x8xf32>) {
  // expected-error @+1 {{unknown keyword 'swish', expected one of: silu, gelu, gelu_tanh, relu, relu2, identity}}
  %0 = moe.glu swish %g : tensor<4x8xf32>
  return
}

// -----

func.func @quantize_unknown_recipe(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{unknown keyword 'rowwise', expected one of: tensorwise, delayed, block_1x128, block_128x128, mx_1x32}}
  %0:2 = moe.quantize rowwise %x : (tensor<4x8xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @topk_keyword_missing(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{expected valid keyword}}
  %w, %i = moe.topk %s k 2 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_enum_attr_unknown_case(%s: tensor<4x8xf32>) {
  // expected-error @+2 {{expected ::mlir::moe::Normalize to be one of: none, sum, softmax}}
  // expected-error @+1 {{failed to parse Moe_NormalizeAttr parameter 'value'}}
  %w, %i = moe.topk softmax %s k 2 {normalize = #moe<normalize l1>} : tensor<4x8xf32>
  return
}

// -----

func.func @topk_missing_k(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op requires attribute 'k'}}
  %0:2 = "moe.topk"(%s) <{score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @topk_missing_score_function(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op requires attribute 'score_function'}}
  %0:2 = "moe.topk"(%s) <{k = 2 : i64}> : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @topk_k_wrong_kind(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op attribute 'k' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0:2 = "moe.topk"(%s) <{k = 2 : i32, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @topk_group_score_wrong_enum(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{attribute 'group_score' failed to satisfy constraint: expert-group score rule}}
  %w, %i = moe.topk softmax %s k 2 {group_score = #moe<normalize sum>} : tensor<4x8xf32>
  return
}

// -----

func.func @permute_missing_num_experts(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op requires attribute 'num_experts'}}
  %0:3 = "moe.permute"(%x, %i) <{align = 1 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>) -> (tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @aux_loss_missing_coeff(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op requires attribute 'coeff'}}
  %0 = "moe.aux_loss"(%s, %i) <{variant = #moe<aux_loss_variant batch>, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<f32>
  return
}

// -----

func.func @all_to_all_missing_grid(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op requires attribute 'grid'}}
  %0:2 = "moe.all_to_all"(%x, %s) <{grid_axis = 0 : i64}> : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

func.func @quantize_missing_recipe(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.quantize' op requires attribute 'recipe'}}
  %0:2 = "moe.quantize"(%x) : (tensor<4x8xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @layer_missing_k(%x: tensor<4x8xbf16>, %wr: tensor<8x4xf32>, %wg: tensor<4x8x16xbf16>, %wd: tensor<4x16x8xbf16>) {
  // expected-error @+1 {{'moe.layer' op requires attribute 'k'}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {score_function = #moe<score_function softmax>} : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x8x16xbf16>, tensor<4x8x16xbf16>, tensor<4x16x8xbf16>) -> (tensor<4x8xbf16>, tensor<f32>)
  return
}

// -----

func.func @grouped_matmul_bad_segments(%a: tensor<8x4xf32>, %b: tensor<2x4x4xf32>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op operand count (3) does not match with the total size (4) specified in attribute 'operandSegmentSizes'}}
  %0 = "moe.grouped_matmul"(%a, %b, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (tensor<8x4xf32>, tensor<2x4x4xf32>, tensor<2xi32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @unranked_operand(%x: tensor<*xf32>, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %0 = moe.grouped_matmul %x, %x, %w : (tensor<*xf32>, tensor<*xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @unranked_result(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op result #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %0:2 = "moe.topk"(%s) <{k = 2 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<*xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @not_a_tensor(%x: f32, %w: tensor<4x4xf32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'f32'}}
  %0 = moe.gate %x, %w : f32, tensor<4x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.gate
//===----------------------------------------------------------------------===//

func.func @gate_x_rank(%x: tensor<4x8x2xbf16>, %w: tensor<8x4xf32>) {
  // expected-error @+1 {{'moe.gate' op 'x' must be a rank-2 tensor [T, H], got rank 3 (tensor<4x8x2xbf16>)}}
  %0 = moe.gate %x, %w : tensor<4x8x2xbf16>, tensor<8x4xf32>
  return
}

// -----

func.func @gate_x_element(%x: tensor<4x8xi32>, %w: tensor<8x4xf32>) {
  // expected-error @+1 {{'moe.gate' op 'x' must have bf16, f16 or f32 elements, got i32}}
  %0 = moe.gate %x, %w : tensor<4x8xi32>, tensor<8x4xf32>
  return
}

// -----

func.func @gate_weight_rank(%x: tensor<4x8xbf16>, %w: tensor<8xf32>) {
  // expected-error @+1 {{'moe.gate' op 'weight' must be a rank-2 tensor [H, E], got rank 1 (tensor<8xf32>)}}
  %0 = moe.gate %x, %w : tensor<4x8xbf16>, tensor<8xf32>
  return
}

// -----

func.func @gate_weight_fp8(%x: tensor<4x8xbf16>, %w: tensor<8x4xf8E4M3FN>) {
  // expected-error @+1 {{'moe.gate' op 'weight' must have bf16, f16 or f32 elements, got f8E4M3FN}}
  %0 = moe.gate %x, %w : tensor<4x8xbf16>, tensor<8x4xf8E4M3FN>
  return
}

// -----

func.func @gate_hidden_mismatch(%x: tensor<4x8xbf16>, %w: tensor<16x4xf32>) {
  // expected-error @+1 {{'moe.gate' op H mismatch: 'x' dim 1 is 8 but 'weight' dim 0 is 16}}
  %0 = moe.gate %x, %w : tensor<4x8xbf16>, tensor<16x4xf32>
  return
}

// -----

func.func @gate_result_not_f32(%x: tensor<4x8xbf16>, %w: tensor<8x4xf32>) {
  // expected-error @+1 {{'moe.gate' op result 'logits' must be [4, 4] of f32 ([T, E] in f32), got tensor<4x4xbf16>}}
  %0 = "moe.gate"(%x, %w) : (tensor<4x8xbf16>, tensor<8x4xf32>) -> tensor<4x4xbf16>
  return
}

// -----

func.func @gate_result_shape(%x: tensor<4x8xbf16>, %w: tensor<8x4xf32>) {
  // expected-error @+1 {{'moe.gate' op result 'logits' must be [4, 4] of f32 ([T, E] in f32), got tensor<4x5xf32>}}
  %0 = "moe.gate"(%x, %w) : (tensor<4x8xbf16>, tensor<8x4xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @gate_result_rank(%x: tensor<4x8xbf16>, %w: tensor<8x4xf32>) {
  // expected-error @+1 {{'moe.gate' op result 'logits' must be [4, 4] of f32 ([T, E] in f32), got tensor<16xf32>}}
  %0 = "moe.gate"(%x, %w) : (tensor<4x8xbf16>, tensor<8x4xf32>) -> tensor<16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.route
//===----------------------------------------------------------------------===//

func.func @route_rank(%l: tensor<8xf32>) {
  // expected-error @+1 {{'moe.route' op 'logits' must be a rank-2 tensor [T, E], got rank 1 (tensor<8xf32>)}}
  %0 = moe.route softmax %l : tensor<8xf32>
  return
}

// -----

func.func @route_bf16(%l: tensor<4x8xbf16>) {
  // expected-error @+1 {{'moe.route' op 'logits' must have f32 elements, got bf16}}
  %0 = moe.route sigmoid %l : tensor<4x8xbf16>
  return
}

// -----

func.func @route_result_type(%l: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.route' op requires the same type for all operands and results}}
  %0 = "moe.route"(%l) <{score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> tensor<4x8xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.topk
//===----------------------------------------------------------------------===//

func.func @topk_scores_rank(%s: tensor<8xf32>) {
  // expected-error @+1 {{'moe.topk' op 'scores' must be a rank-2 tensor [T, E], got rank 1 (tensor<8xf32>)}}
  %w, %i = moe.topk softmax %s k 2 : tensor<8xf32>
  return
}

// -----

func.func @topk_scores_bf16(%s: tensor<4x8xbf16>) {
  // expected-error @+1 {{'moe.topk' op 'scores' must have f32 elements, got bf16}}
  %w, %i = moe.topk softmax %s k 2 : tensor<4x8xbf16>
  return
}

// -----

func.func @topk_bias_rank(%s: tensor<4x8xf32>, %b: tensor<1x8xf32>) {
  // expected-error @+1 {{'moe.topk' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<1x8xf32>)}}
  %w, %i = moe.topk sigmoid %s bias %b k 2 : tensor<4x8xf32>, tensor<1x8xf32>
  return
}

// -----

func.func @topk_bias_element(%s: tensor<4x8xf32>, %b: tensor<8xbf16>) {
  // expected-error @+1 {{'moe.topk' op 'bias' must have f32 elements, got bf16}}
  %w, %i = moe.topk sigmoid %s bias %b k 2 : tensor<4x8xf32>, tensor<8xbf16>
  return
}

// -----

func.func @topk_bias_experts(%s: tensor<4x8xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{'moe.topk' op E mismatch: 'scores' dim 1 is 8 but 'bias' dim 0 is 16}}
  %w, %i = moe.topk sigmoid %s bias %b k 2 : tensor<4x8xf32>, tensor<16xf32>
  return
}

// -----

func.func @topk_k_zero(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op k = 0 must be at least 1}}
  %w, %i = moe.topk softmax %s k 0 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_k_negative(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op k = -3 must be at least 1}}
  %w, %i = moe.topk softmax %s k -3 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_k_negative_generic(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op k = -1 must be at least 1}}
  %0:2 = "moe.topk"(%s) <{k = -1 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return
}

// -----

func.func @topk_k_exceeds_experts(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op k = 9 exceeds the number of experts E = 8}}
  %w, %i = moe.topk softmax %s k 9 : tensor<4x8xf32>
  return
}

// -----

// E is taken from the bias when the scores leave it dynamic.
func.func @topk_k_exceeds_experts_of_bias(%s: tensor<4x?xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'moe.topk' op k = 9 exceeds the number of experts E = 8}}
  %w, %i = moe.topk sigmoid %s bias %b k 9 : tensor<4x?xf32>, tensor<8xf32>
  return
}

// -----

func.func @topk_weights_shape(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op result 'weights' must be [4, 2] of f32 ([T, k] in f32), got tensor<4x3xf32>}}
  %0:2 = "moe.topk"(%s) <{k = 2 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @topk_indices_i64(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op result 'indices' must be [4, 2] of i32 ([T, k] in i32), got tensor<4x2xi64>}}
  %0:2 = "moe.topk"(%s) <{k = 2 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  return
}

// -----

func.func @topk_num_groups_zero(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op num_groups = 0 must be at least 1}}
  %w, %i = moe.topk softmax %s k 2 {num_groups = 0 : i64} : tensor<4x8xf32>
  return
}

// -----

func.func @topk_experts_not_divisible_by_groups(%s: tensor<4x10xf32>) {
  // expected-error @+1 {{'moe.topk' op E = 10 experts are not divisible by num_groups = 4}}
  %w, %i = moe.topk softmax %s k 2 {num_groups = 4 : i64, group_topk = 2 : i64} : tensor<4x10xf32>
  return
}

// -----

func.func @topk_group_topk_zero(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op group_topk = 0 must be at least 1}}
  %w, %i = moe.topk softmax %s k 2 {num_groups = 4 : i64, group_topk = 0 : i64} : tensor<4x8xf32>
  return
}

// -----

func.func @topk_group_topk_exceeds_groups(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op group_topk = 5 exceeds num_groups = 4}}
  %w, %i = moe.topk softmax %s k 2 {num_groups = 4 : i64, group_topk = 5 : i64} : tensor<4x8xf32>
  return
}

// -----

func.func @topk_group_topk_without_groups(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op group_topk = 2 exceeds num_groups = 1}}
  %w, %i = moe.topk softmax %s k 2 {group_topk = 2 : i64} : tensor<4x8xf32>
  return
}

// -----

func.func @topk_k_not_divisible_by_group_topk(%s: tensor<4x16xf32>) {
  // expected-error @+1 {{'moe.topk' op k = 3 is not divisible by group_topk = 2}}
  %w, %i = moe.topk softmax %s k 3 {num_groups = 4 : i64, group_topk = 2 : i64} : tensor<4x16xf32>
  return
}

// -----

func.func @topk_k_exceeds_selected_groups(%s: tensor<4x16xf32>) {
  // expected-error @+1 {{'moe.topk' op k = 10 exceeds the 8 experts left after group selection (group_topk = 2 groups of 4)}}
  %w, %i = moe.topk softmax %s k 10 {num_groups = 4 : i64, group_topk = 2 : i64} : tensor<4x16xf32>
  return
}

// -----

func.func @topk_group_score_topq_zero(%s: tensor<4x16xf32>) {
  // expected-error @+1 {{'moe.topk' op group_score_topq = 0 must be in [1, 4], the experts of one group}}
  %w, %i = moe.topk softmax %s k 4 {num_groups = 4 : i64, group_topk = 2 : i64, group_score_topq = 0 : i64} : tensor<4x16xf32>
  return
}

// -----

func.func @topk_group_score_topq_too_large(%s: tensor<4x16xf32>) {
  // expected-error @+1 {{'moe.topk' op group_score_topq = 5 must be in [1, 4], the experts of one group}}
  %w, %i = moe.topk softmax %s k 4 {num_groups = 4 : i64, group_topk = 2 : i64, group_score_topq = 5 : i64} : tensor<4x16xf32>
  return
}

// -----

func.func @topk_group_score_topq_without_groups(%s: tensor<4x16xf32>) {
  // expected-error @+1 {{'moe.topk' op group_score_topq applies only to group-limited routing (num_groups > 1)}}
  %w, %i = moe.topk softmax %s k 4 {group_score_topq = 2 : i64} : tensor<4x16xf32>
  return
}

// -----

func.func @topk_group_score_topq_with_max(%s: tensor<4x16xf32>) {
  // expected-error @+1 {{'moe.topk' op group_score_topq applies only to group_score top_sum, not max}}
  %w, %i = moe.topk softmax %s k 4 {num_groups = 4 : i64, group_topk = 2 : i64, group_score = #moe<group_score max>, group_score_topq = 2 : i64} : tensor<4x16xf32>
  return
}

// -----

func.func @topk_bias_with_softmax(%s: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'moe.topk' op an expert bias is allowed only with sigmoid or sqrtsoftplus scores, not softmax}}
  %w, %i = moe.topk softmax %s bias %b k 2 : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @topk_bias_with_identity(%s: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'moe.topk' op an expert bias is allowed only with sigmoid or sqrtsoftplus scores, not identity}}
  %w, %i = moe.topk identity %s bias %b k 2 : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @topk_scaling_factor_zero(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op scaling_factor = 0 must be positive and finite}}
  %w, %i = moe.topk softmax %s k 2 {scaling_factor = 0.0 : f64} : tensor<4x8xf32>
  return
}

// -----

func.func @topk_scaling_factor_inf(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.topk' op scaling_factor = inf must be positive and finite}}
  %w, %i = moe.topk softmax %s k 2 {scaling_factor = 0x7FF0000000000000 : f64} : tensor<4x8xf32>
  return
}

// -----

func.func @topk_score_function_mismatch(%l: tensor<4x8xf32>) {
  %s = moe.route sigmoid %l : tensor<4x8xf32>
  // expected-error @+1 {{'moe.topk' op score_function softmax does not match the producing moe.route (sigmoid)}}
  %w, %i = moe.topk softmax %s k 2 : tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.aux_loss
//===----------------------------------------------------------------------===//

func.func @aux_loss_scores_bf16(%s: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op 'scores' must have f32 elements, got bf16}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_indices_rank(%s: tensor<4x8xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op 'indices' must be a rank-2 tensor [T, K], got rank 1 (tensor<8xi32>)}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 : tensor<4x8xf32>, tensor<8xi32>
  return
}

// -----

func.func @aux_loss_indices_i64(%s: tensor<4x8xf32>, %i: tensor<4x2xi64>) {
  // expected-error @+1 {{'moe.aux_loss' op 'indices' must have i32 elements, got i64}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 : tensor<4x8xf32>, tensor<4x2xi64>
  return
}

// -----

func.func @aux_loss_tokens(%s: tensor<4x8xf32>, %i: tensor<6x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op T mismatch: 'scores' dim 0 is 4 but 'indices' dim 0 is 6}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 : tensor<4x8xf32>, tensor<6x2xi32>
  return
}

// -----

func.func @aux_loss_result(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op result 'loss' must be [] of f32 (a 0-d f32 tensor), got tensor<f16>}}
  %0 = "moe.aux_loss"(%s, %i) <{variant = #moe<aux_loss_variant batch>, score_function = #moe<score_function softmax>, coeff = 1.0e-2 : f64}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<f16>
  return
}

// -----

func.func @aux_loss_identity(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op the aux loss needs dense scores from softmax, sigmoid or sqrtsoftplus, not identity}}
  %0 = moe.aux_loss batch %s, %i from identity coeff 1.000000e-02 : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_k_exceeds_experts(%s: tensor<4x8xf32>, %i: tensor<4x9xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op 'indices' selects K = 9 experts per token but 'scores' has only E = 8}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 : tensor<4x8xf32>, tensor<4x9xi32>
  return
}

// -----

func.func @aux_loss_coeff_negative(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op coeff = -0.01 must be non-negative and finite}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff -1.000000e-02 : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_coeff_nan(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op coeff = nan must be non-negative and finite}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 0x7FF8000000000000 : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_sequence_without_length(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op aux-loss variant sequence needs seq_length}}
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.000000e-02 : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_seq_length_zero(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op seq_length = 0 must be at least 1}}
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.000000e-02 {seq_length = 0 : i64} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_tokens_not_divisible(%s: tensor<6x8xf32>, %i: tensor<6x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op T = 6 tokens are not divisible by seq_length = 4}}
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.000000e-02 {seq_length = 4 : i64} : tensor<6x8xf32>, tensor<6x2xi32>
  return
}

// -----

func.func @aux_loss_seq_length_with_batch(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op seq_length applies only to aux-loss variant sequence, not batch}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 {seq_length = 2 : i64} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_global_without_grid(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op aux-loss variant global needs grid and grid_axes (the ranks that counts and tokens are summed over)}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

shard.grid @g(shape = 4)
func.func @aux_loss_global_without_axes(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op aux-loss variant global needs grid and grid_axes}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 {grid = @g} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

shard.grid @g(shape = 4)
func.func @aux_loss_grid_with_batch(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op grid and grid_axes apply only to aux-loss variant global, not batch}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 {grid = @g, grid_axes = array<i64: 0>} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_global_unknown_grid(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op grid @missing does not name a shard.grid}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 {grid = @missing, grid_axes = array<i64: 0>} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_global_grid_is_a_function(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op grid @aux_loss_global_grid_is_a_function does not name a shard.grid}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 {grid = @aux_loss_global_grid_is_a_function, grid_axes = array<i64: 0>} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

shard.grid @g(shape = 2x4)
func.func @aux_loss_global_axis_out_of_range(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op grid axis 2 is out of range for grid @g of rank 2}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 {grid = @g, grid_axes = array<i64: 0, 2>} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

shard.grid @g(shape = 2x4)
func.func @aux_loss_global_axis_negative(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op grid axis -1 is out of range for grid @g of rank 2}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 {grid = @g, grid_axes = array<i64: -1>} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

shard.grid @g(shape = 2x4)
func.func @aux_loss_global_axis_twice(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.aux_loss' op grid axis 1 is listed twice}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 {grid = @g, grid_axes = array<i64: 1, 1>} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.z_loss
//===----------------------------------------------------------------------===//

func.func @z_loss_rank(%l: tensor<f32>) {
  // expected-error @+1 {{'moe.z_loss' op 'logits' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)}}
  %0 = moe.z_loss %l coeff 1.000000e-03 : tensor<f32>
  return
}

// -----

func.func @z_loss_bf16(%l: tensor<4x8xbf16>) {
  // expected-error @+1 {{'moe.z_loss' op 'logits' must have f32 elements, got bf16}}
  %0 = moe.z_loss %l coeff 1.000000e-03 : tensor<4x8xbf16>
  return
}

// -----

func.func @z_loss_result(%l: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.z_loss' op result 'loss' must be [] of f32 (a 0-d f32 tensor), got tensor<1xf32>}}
  %0 = "moe.z_loss"(%l) <{coeff = 1.0e-3 : f64}> : (tensor<4x8xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @z_loss_coeff_negative(%l: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.z_loss' op coeff = -1 must be non-negative and finite}}
  %0 = moe.z_loss %l coeff -1.000000e+00 : tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.expert_bias_update
//===----------------------------------------------------------------------===//

func.func @bias_update_bias_rank(%b: tensor<1x8xf32>, %c: tensor<8xi32>) {
  // expected-error @+1 {{'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<1x8xf32>)}}
  %0 = moe.expert_bias_update %b, %c rate 1.000000e-03 : tensor<1x8xf32>, tensor<8xi32>
  return
}

// -----

func.func @bias_update_bias_bf16(%b: tensor<8xbf16>, %c: tensor<8xi32>) {
  // expected-error @+1 {{'moe.expert_bias_update' op 'bias' must have f32 elements, got bf16}}
  %0 = moe.expert_bias_update %b, %c rate 1.000000e-03 : tensor<8xbf16>, tensor<8xi32>
  return
}

// -----

func.func @bias_update_counts_i16(%b: tensor<8xf32>, %c: tensor<8xi16>) {
  // expected-error @+1 {{'moe.expert_bias_update' op 'counts' must have i32, i64 or f32 elements, got i16}}
  %0 = moe.expert_bias_update %b, %c rate 1.000000e-03 : tensor<8xf32>, tensor<8xi16>
  return
}

// -----

func.func @bias_update_experts(%b: tensor<8xf32>, %c: tensor<16xi32>) {
  // expected-error @+1 {{'moe.expert_bias_update' op E mismatch: 'bias' dim 0 is 8 but 'counts' dim 0 is 16}}
  %0 = moe.expert_bias_update %b, %c rate 1.000000e-03 : tensor<8xf32>, tensor<16xi32>
  return
}

// -----

func.func @bias_update_result(%b: tensor<8xf32>, %c: tensor<8xi32>) {
  // expected-error @+1 {{'moe.expert_bias_update' op result 'updated_bias' must be [8] of f32 (the type of 'bias'), got tensor<4xf32>}}
  %0 = "moe.expert_bias_update"(%b, %c) <{rate = 1.0e-3 : f64}> : (tensor<8xf32>, tensor<8xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @bias_update_rate_negative(%b: tensor<8xf32>, %c: tensor<8xi32>) {
  // expected-error @+1 {{'moe.expert_bias_update' op rate = -0.001 must be non-negative and finite}}
  %0 = moe.expert_bias_update %b, %c rate -1.000000e-03 : tensor<8xf32>, tensor<8xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.permute
//===----------------------------------------------------------------------===//

func.func @permute_x_i1(%x: tensor<4x8xi1>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 1 : tensor<4x8xi1>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_x_rank(%x: tensor<4x8x2xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op 'x' must be a rank-2 tensor [T, H], got rank 3 (tensor<4x8x2xbf16>)}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 1 : tensor<4x8x2xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_indices_i64(%x: tensor<4x8xbf16>, %i: tensor<4x2xi64>) {
  // expected-error @+1 {{'moe.permute' op 'indices' must have i32 elements, got i64}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 1 : tensor<4x8xbf16>, tensor<4x2xi64>
  return
}

// -----

func.func @permute_tokens(%x: tensor<4x8xbf16>, %i: tensor<5x2xi32>) {
  // expected-error @+1 {{'moe.permute' op T mismatch: 'x' dim 0 is 4 but 'indices' dim 0 is 5}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 1 : tensor<4x8xbf16>, tensor<5x2xi32>
  return
}

// -----

func.func @permute_num_experts_zero(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op num_experts = 0 must be at least 1}}
  %xs, %s, %r = moe.permute %x, %i experts 0 align 1 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_align_zero(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op align = 0 must be at least 1}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 0 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_align_negative_generic(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op align = -16 must be at least 1}}
  %0:3 = "moe.permute"(%x, %i) <{num_experts = 8 : i64, align = -16 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>) -> (tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_rows_overflow(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op R = T·K + E·(align − 1) overflows 64 bits (T = 4, K = 2, E = 8, align = 9223372036854775807)}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 9223372036854775807 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

// The padding term overflows whatever T is.
func.func @permute_rows_overflow_dynamic_tokens(%x: tensor<?x8xbf16>, %i: tensor<?x2xi32>) {
  // expected-error @+1 {{'moe.permute' op R = T·K + E·(align − 1) overflows 64 bits (T = ?, K = 2, E = 4611686018427387904, align = 3)}}
  %xs, %s, %r = moe.permute %x, %i experts 4611686018427387904 align 3 : tensor<?x8xbf16>, tensor<?x2xi32>
  return
}

// -----

func.func @permute_k_exceeds_experts(%x: tensor<4x8xbf16>, %i: tensor<4x3xi32>) {
  // expected-error @+1 {{'moe.permute' op 'indices' selects K = 3 experts per token but num_experts = 2}}
  %xs, %s, %r = moe.permute %x, %i experts 2 align 1 : tensor<4x8xbf16>, tensor<4x3xi32>
  return
}

// -----

// R = T·K + E·(align − 1) = 4·2 + 8·15 = 128, not 8.
func.func @permute_rows_formula(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op result 'permuted' must be [128, 8] of bf16 (R = T·K + E·(align − 1) with E = 8, align = 16), got tensor<8x8xbf16>}}
  %0:3 = "moe.permute"(%x, %i) <{num_experts = 8 : i64, align = 16 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>) -> (tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_permuted_element(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op result 'permuted' must be [8, 8] of bf16 (R = T·K + E·(align − 1) with E = 8, align = 1), got tensor<8x8xf32>}}
  %0:3 = "moe.permute"(%x, %i) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_group_sizes(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op result 'group_sizes' must be [8] of i32 ([E] in i32), got tensor<4xi32>}}
  %0:3 = "moe.permute"(%x, %i) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>) -> (tensor<8x8xbf16>, tensor<4xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_rows_i64(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.permute' op result 'rows' must be [4, 2] of i32 ([T, K] in i32), got tensor<4x2xi64>}}
  %0:3 = "moe.permute"(%x, %i) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>) -> (tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi64>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.grouped_matmul
//===----------------------------------------------------------------------===//

func.func @grouped_matmul_a_rank(%a: tensor<8xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'a' must be a rank-2 tensor [R, Kd], got rank 1 (tensor<8xbf16>)}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8xbf16>, tensor<2x4x4xbf16>, tensor<2xi32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_a_element(%a: tensor<8x4xi8>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i8}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xi8>, tensor<2x4x4xbf16>, tensor<2xi32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_b_rank_kn(%a: tensor<8x4xbf16>, %b: tensor<4x4xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'b' must be a rank-3 tensor [G, Kd, N] (weight_layout kn), got rank 2 (tensor<4x4xbf16>)}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xbf16>, tensor<4x4xbf16>, tensor<2xi32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_b_rank_nk(%a: tensor<8x4xbf16>, %b: tensor<4x4xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'b' must be a rank-3 tensor [G, N, Kd] (weight_layout nk), got rank 2 (tensor<4x4xbf16>)}}
  %0 = moe.grouped_matmul %a, %b, %s {weight_layout = #moe<weight_layout nk>} : (tensor<8x4xbf16>, tensor<4x4xbf16>, tensor<2xi32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_sizes_rank(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<2x1xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'group_sizes' must be a rank-1 tensor [G], got rank 2 (tensor<2x1xi32>)}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<2x1xi32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_sizes_rank0(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<i32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'group_sizes' must be a rank-1 tensor [G], got rank 0 (tensor<i32>)}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<i32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_sizes_i64(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'group_sizes' must have i32 elements, got i64}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<2xi64>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_groups(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<3xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op G mismatch: 'group_sizes' dim 0 is 3 but 'b' dim 0 is 2}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<3xi32>) -> tensor<8x4xbf16>
  return
}

// -----

// [G, N, Kd] given to a kn matmul: Kd of 'a' (32) is b dim 2, not dim 1.
func.func @grouped_matmul_layout_kn(%a: tensor<8x32xbf16>, %b: tensor<2x48x32xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op Kd (weight_layout kn) mismatch: 'a' dim 1 is 32 but 'b' dim 1 is 48}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x32xbf16>, tensor<2x48x32xbf16>, tensor<2xi32>) -> tensor<8x32xbf16>
  return
}

// -----

func.func @grouped_matmul_layout_nk(%a: tensor<8x32xbf16>, %b: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op Kd (weight_layout nk) mismatch: 'a' dim 1 is 32 but 'b' dim 2 is 48}}
  %0 = moe.grouped_matmul %a, %b, %s {weight_layout = #moe<weight_layout nk>} : (tensor<8x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32>) -> tensor<8x32xbf16>
  return
}

// -----

func.func @grouped_matmul_mixed_fp8(%a: tensor<8x4xf8E4M3FN>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'a' (f8E4M3FN) and 'b' (bf16) must both be FP8 or both not}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xf8E4M3FN>, tensor<2x4x4xbf16>, tensor<2xi32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_e5m2_e5m2(%a: tensor<8x4xf8E5M2>, %b: tensor<2x4x4xf8E5M2>, %s: tensor<2xi32>, %sc: tensor<f32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op FP8 grouped matmul needs at least one e4m3 operand; e5m2 × e5m2 is not supported}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%sc, %sc) : (tensor<8x4xf8E5M2>, tensor<2x4x4xf8E5M2>, tensor<2xi32>, tensor<f32>, tensor<f32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_fp8_without_scales(%a: tensor<8x4xf8E4M3FN>, %b: tensor<2x4x4xf8E4M3FN>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op FP8 operands need the scales: 'a_scale' and 'b_scale'}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xf8E4M3FN>, tensor<2x4x4xf8E4M3FN>, tensor<2xi32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_fp8_one_scale(%a: tensor<8x4xf8E4M3FN>, %b: tensor<2x4x4xf8E4M3FN>, %s: tensor<2xi32>, %sc: tensor<f32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op FP8 operands need the scales: 'a_scale' and 'b_scale'}}
  %0 = "moe.grouped_matmul"(%a, %b, %s, %sc) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> : (tensor<8x4xf8E4M3FN>, tensor<2x4x4xf8E4M3FN>, tensor<2xi32>, tensor<f32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_scale_dtype(%a: tensor<8x4xf8E4M3FN>, %b: tensor<2x4x4xf8E4M3FN>, %s: tensor<2xi32>, %as: tensor<bf16>, %bs: tensor<f32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'a_scale' must be a 0-d f32 tensor (tensor-wise) or block scales, got tensor<bf16>}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) : (tensor<8x4xf8E4M3FN>, tensor<2x4x4xf8E4M3FN>, tensor<2xi32>, tensor<bf16>, tensor<f32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_a_block_scale_shape(%a: tensor<8x256xf8E4M3FN>, %b: tensor<2x256x4xf8E4M3FN>, %s: tensor<2xi32>, %as: tensor<8x1xf32>, %bs: tensor<f32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'a_scale' must be [8, 2] of f32 (the scales of recipe block_1x128 for 'a' [8, 256]), got tensor<8x1xf32>}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) : (tensor<8x256xf8E4M3FN>, tensor<2x256x4xf8E4M3FN>, tensor<2xi32>, tensor<8x1xf32>, tensor<f32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_b_block_scale_shape(%a: tensor<8x256xf8E4M3FN>, %b: tensor<2x256x300xf8E4M3FN>, %s: tensor<2xi32>, %as: tensor<f32>, %bs: tensor<2x3x2xf32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'b_scale' must be [2, 2, 3] of f32 (the scales of recipe block_128x128 for 'b' [2, 256, 300]), got tensor<2x3x2xf32>}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) : (tensor<8x256xf8E4M3FN>, tensor<2x256x300xf8E4M3FN>, tensor<2xi32>, tensor<f32>, tensor<2x3x2xf32>) -> tensor<8x300xbf16>
  return
}

// -----

func.func @grouped_matmul_block_scale_f16(%a: tensor<8x256xf8E4M3FN>, %b: tensor<2x256x4xf8E4M3FN>, %s: tensor<2xi32>, %as: tensor<8x2xf16>, %bs: tensor<f32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'a_scale' must be [8, 2] of f32 (the scales of recipe block_1x128 for 'a' [8, 256]), got tensor<8x2xf16>}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) : (tensor<8x256xf8E4M3FN>, tensor<2x256x4xf8E4M3FN>, tensor<2xi32>, tensor<8x2xf16>, tensor<f32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_scales_without_fp8(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi32>, %sc: tensor<f32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'a_scale' and 'b_scale' apply only to FP8 operands, got bf16}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%sc, %sc) : (tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<2xi32>, tensor<f32>, tensor<f32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_element_mismatch(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xf32>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'a' has bf16 elements but 'b' has f32}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xbf16>, tensor<2x4x4xf32>, tensor<2xi32>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_result_fp8(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op result 'c' must be a tensor of bf16, f16 or f32, got tensor<8x4xf8E4M3FN>}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<2xi32>) -> tensor<8x4xf8E4M3FN>
  return
}

// -----

func.func @grouped_matmul_result_shape(%a: tensor<8x4xbf16>, %b: tensor<2x4x6xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op result 'c' must be [8, 6] of bf16 ([R, N]), got tensor<8x4xbf16>}}
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<8x4xbf16>, tensor<2x4x6xbf16>, tensor<2xi32>) -> tensor<8x4xbf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.grouped_weight_grad
//===----------------------------------------------------------------------===//

func.func @weight_grad_a_rank(%a: tensor<8xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a' must be a rank-2 tensor [R, Kd], got rank 1 (tensor<8xbf16>)}}
  %0 = moe.grouped_weight_grad %a, %dc, %s : (tensor<8xbf16>, tensor<8x6xbf16>, tensor<2xi32>) -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_a_fp8(%a: tensor<8x4xf8E4M3FN>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a' must have bf16, f16 or f32 elements, got f8E4M3FN}}
  %0 = moe.grouped_weight_grad %a, %dc, %s : (tensor<8x4xf8E4M3FN>, tensor<8x6xbf16>, tensor<2xi32>) -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_dc_rank(%a: tensor<8x4xbf16>, %dc: tensor<2x8x6xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'dc' must be a rank-2 tensor [R, N], got rank 3 (tensor<2x8x6xbf16>)}}
  %0 = moe.grouped_weight_grad %a, %dc, %s : (tensor<8x4xbf16>, tensor<2x8x6xbf16>, tensor<2xi32>) -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_rows(%a: tensor<8x4xbf16>, %dc: tensor<16x6xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op R mismatch: 'a' dim 0 is 8 but 'dc' dim 0 is 16}}
  %0 = moe.grouped_weight_grad %a, %dc, %s : (tensor<8x4xbf16>, tensor<16x6xbf16>, tensor<2xi32>) -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_sizes_rank(%a: tensor<8x4xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<i32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'group_sizes' must be a rank-1 tensor [G], got rank 0 (tensor<i32>)}}
  %0 = moe.grouped_weight_grad %a, %dc, %s : (tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<i32>) -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_element_mismatch(%a: tensor<8x4xbf16>, %dc: tensor<8x6xf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a' has bf16 elements but 'dc' has f16}}
  %0 = moe.grouped_weight_grad %a, %dc, %s : (tensor<8x4xbf16>, tensor<8x6xf16>, tensor<2xi32>) -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_result_i32(%a: tensor<8x4xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be a tensor of bf16, f16 or f32, got tensor<2x4x6xi32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s : (tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<2xi32>) -> tensor<2x4x6xi32>
  return
}

// -----

func.func @weight_grad_layout_kn(%a: tensor<8x4xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be [2, 4, 6] of f32 ([G, Kd, N] for weight_layout kn), got tensor<2x6x4xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s : (tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<2xi32>) -> tensor<2x6x4xf32>
  return
}

// -----

func.func @weight_grad_layout_nk(%a: tensor<8x4xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be [2, 6, 4] of f32 ([G, N, Kd] for weight_layout nk), got tensor<2x4x6xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s {weight_layout = #moe<weight_layout nk>} : (tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<2xi32>) -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_groups(%a: tensor<8x4xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be [2, 4, 6] of f32 ([G, Kd, N] for weight_layout kn), got tensor<3x4x6xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s : (tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<2xi32>) -> tensor<3x4x6xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.glu
//===----------------------------------------------------------------------===//

func.func @glu_fused_odd(%gu: tensor<4x7xbf16>) {
  // expected-error @+1 {{'moe.glu' op 'gate' holds gate and up side by side and needs an even last dim (2F), got 7}}
  %0 = moe.glu silu %gu : tensor<4x7xbf16>
  return
}

// -----

func.func @glu_fused_rank(%gu: tensor<2x4x8xbf16>) {
  // expected-error @+1 {{'moe.glu' op 'gate' must be a rank-2 tensor [R, 2F] (gate and up), got rank 3 (tensor<2x4x8xbf16>)}}
  %0 = moe.glu silu %gu : tensor<2x4x8xbf16>
  return
}

// -----

func.func @glu_gate_element(%g: tensor<4x8xi32>, %u: tensor<4x8xi32>) {
  // expected-error @+1 {{'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got i32}}
  %0 = moe.glu silu %g, %u : tensor<4x8xi32>, tensor<4x8xi32>
  return
}

// -----

func.func @glu_up_rank(%g: tensor<4x8xbf16>, %u: tensor<32xbf16>) {
  // expected-error @+1 {{'moe.glu' op 'up' must be a rank-2 tensor [R, F], got rank 1 (tensor<32xbf16>)}}
  %0 = moe.glu silu %g, %u : tensor<4x8xbf16>, tensor<32xbf16>
  return
}

// -----

func.func @glu_rows(%g: tensor<4x8xbf16>, %u: tensor<5x8xbf16>) {
  // expected-error @+1 {{'moe.glu' op R mismatch: 'gate' dim 0 is 4 but 'up' dim 0 is 5}}
  %0 = moe.glu silu %g, %u : tensor<4x8xbf16>, tensor<5x8xbf16>
  return
}

// -----

func.func @glu_width(%g: tensor<4x8xbf16>, %u: tensor<4x16xbf16>) {
  // expected-error @+1 {{'moe.glu' op F mismatch: 'gate' dim 1 is 8 but 'up' dim 1 is 16}}
  %0 = moe.glu gelu %g, %u : tensor<4x8xbf16>, tensor<4x16xbf16>
  return
}

// -----

func.func @glu_element_mismatch(%g: tensor<4x8xbf16>, %u: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.glu' op 'gate' has bf16 elements but 'up' has f32}}
  %0 = moe.glu relu2 %g, %u : tensor<4x8xbf16>, tensor<4x8xf32>
  return
}

// -----

func.func @glu_fused_result(%gu: tensor<4x16xbf16>) {
  // expected-error @+1 {{'moe.glu' op result 'h' must be [4, 8] of bf16 ([R, F] with the element type of 'gate'), got tensor<4x16xbf16>}}
  %0 = "moe.glu"(%gu) <{activation = #moe<activation silu>}> : (tensor<4x16xbf16>) -> tensor<4x16xbf16>
  return
}

// -----

func.func @glu_result_element(%g: tensor<4x8xbf16>, %u: tensor<4x8xbf16>) {
  // expected-error @+1 {{'moe.glu' op result 'h' must be [4, 8] of bf16 ([R, F] with the element type of 'gate'), got tensor<4x8xf32>}}
  %0 = "moe.glu"(%g, %u) <{activation = #moe<activation silu>}> : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.all_to_all
//===----------------------------------------------------------------------===//

shard.grid @ep(shape = 4)
func.func @all_to_all_input_element(%x: tensor<8x4xi32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i32}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8x4xi32>, tensor<4xi32>) -> (tensor<8x4xi32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_input_rank(%x: tensor<8xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op 'input' must be a rank-2 tensor [R, H], got rank 1 (tensor<8xf32>)}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8xf32>, tensor<4xi32>) -> (tensor<8xf32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_send_sizes_rank(%x: tensor<8x4xf32>, %s: tensor<i32>) {
  // expected-error @+1 {{'moe.all_to_all' op 'send_sizes' must be a rank-1 tensor [P], got rank 0 (tensor<i32>)}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8x4xf32>, tensor<i32>) -> (tensor<8x4xf32>, tensor<i32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_send_sizes_i64(%x: tensor<8x4xf32>, %s: tensor<4xi64>) {
  // expected-error @+1 {{'moe.all_to_all' op 'send_sizes' must have i32 elements, got i64}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8x4xf32>, tensor<4xi64>) -> (tensor<8x4xf32>, tensor<4xi64>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_axis_negative(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op grid_axis = -1 must be ≥ 0}}
  %0:2 = moe.all_to_all %x, %s on @ep axis -1 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_output_element(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op result 'output' must be a rank-2 tensor [R', H] of f32, got tensor<8x4xbf16>}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xbf16>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_output_rank(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op result 'output' must be a rank-2 tensor [R', H] of f32, got tensor<32xf32>}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<32xf32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_hidden(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op H mismatch: 'input' dim 1 is 4 but 'output' dim 1 is 8}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x8xf32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_recv_sizes(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op result 'recv_sizes' must be [4] of i32 (one count per rank, like 'send_sizes'), got tensor<2xi32>}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<2xi32>)
  return
}

// -----

func.func @all_to_all_unknown_grid(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op grid @ep does not name a shard.grid}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

func.func @all_to_all_grid_is_a_function(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op grid @all_to_all_grid_is_a_function does not name a shard.grid}}
  %0:2 = moe.all_to_all %x, %s on @all_to_all_grid_is_a_function axis 0 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 2x4)
func.func @all_to_all_axis_out_of_range(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op grid axis 2 is out of range for grid @ep of rank 2}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 2 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 2x4)
func.func @all_to_all_send_sizes_vs_axis(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op 'send_sizes' has 4 entries but axis 0 of grid @ep has 2 ranks}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.combine
//===----------------------------------------------------------------------===//

func.func @combine_y_fp8(%y: tensor<8x4xf8E4M3FN>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine' op 'y' must have bf16, f16 or f32 elements, got f8E4M3FN}}
  %0 = moe.combine %y, %r, %w : tensor<8x4xf8E4M3FN>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_rows_i64(%y: tensor<8x4xbf16>, %r: tensor<4x2xi64>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine' op 'rows' must have i32 elements, got i64}}
  %0 = moe.combine %y, %r, %w : tensor<8x4xbf16>, tensor<4x2xi64>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_weights_bf16(%y: tensor<8x4xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xbf16>) {
  // expected-error @+1 {{'moe.combine' op 'weights' must have f32 elements, got bf16}}
  %0 = moe.combine %y, %r, %w : tensor<8x4xbf16>, tensor<4x2xi32>, tensor<4x2xbf16>
  return
}

// -----

func.func @combine_weights_rank(%y: tensor<8x4xbf16>, %r: tensor<4x2xi32>, %w: tensor<8xf32>) {
  // expected-error @+1 {{'moe.combine' op 'weights' must be a rank-2 tensor [T, K], got rank 1 (tensor<8xf32>)}}
  %0 = moe.combine %y, %r, %w : tensor<8x4xbf16>, tensor<4x2xi32>, tensor<8xf32>
  return
}

// -----

func.func @combine_tokens(%y: tensor<8x4xbf16>, %r: tensor<4x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{'moe.combine' op T mismatch: 'rows' dim 0 is 4 but 'weights' dim 0 is 3}}
  %0 = moe.combine %y, %r, %w : tensor<8x4xbf16>, tensor<4x2xi32>, tensor<3x2xf32>
  return
}

// -----

func.func @combine_topk(%y: tensor<8x4xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x1xf32>) {
  // expected-error @+1 {{'moe.combine' op K mismatch: 'rows' dim 1 is 2 but 'weights' dim 1 is 1}}
  %0 = moe.combine %y, %r, %w : tensor<8x4xbf16>, tensor<4x2xi32>, tensor<4x1xf32>
  return
}

// -----

func.func @combine_result(%y: tensor<8x4xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine' op result 'out' must be [4, 4] of bf16 ([T, H] with the element type of 'y'), got tensor<8x4xbf16>}}
  %0 = "moe.combine"(%y, %r, %w) : (tensor<8x4xbf16>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<8x4xbf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.quantize
//===----------------------------------------------------------------------===//

func.func @quantize_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{'moe.quantize' op 'input' must be a ranked tensor of rank ≥ 1, got tensor<f32>}}
  %0:2 = moe.quantize tensorwise %x : (tensor<f32>) -> (tensor<f8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @quantize_input_fp8(%x: tensor<4x8xf8E5M2>) {
  // expected-error @+1 {{'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got f8E5M2}}
  %0:2 = moe.quantize tensorwise %x : (tensor<4x8xf8E5M2>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @quantize_output_not_fp8(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.quantize' op result 'output' must be a tensor of f8E4M3FN or f8E5M2, got tensor<4x8xbf16>}}
  %0:2 = moe.quantize tensorwise %x : (tensor<4x8xf32>) -> (tensor<4x8xbf16>, tensor<f32>)
  return
}

// -----

func.func @quantize_output_e4m3fnuz(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.quantize' op result 'output' must be a tensor of f8E4M3FN or f8E5M2, got tensor<4x8xf8E4M3FNUZ>}}
  %0:2 = moe.quantize tensorwise %x : (tensor<4x8xf32>) -> (tensor<4x8xf8E4M3FNUZ>, tensor<f32>)
  return
}

// -----

func.func @quantize_output_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.quantize' op result 'output' must be [4, 8] of f8E4M3FN (the shape of 'input'), got tensor<8x4xf8E4M3FN>}}
  %0:2 = moe.quantize tensorwise %x : (tensor<4x8xf32>) -> (tensor<8x4xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @quantize_tensorwise_scale(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.quantize' op result 'scale' must be [] of f32 (the scales of recipe tensorwise for 'input' [4, 8]), got tensor<4x1xf32>}}
  %0:2 = moe.quantize tensorwise %x : (tensor<4x8xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<4x1xf32>)
  return
}

// -----

func.func @quantize_block_1x128_scale(%x: tensor<4x300xf32>) {
  // expected-error @+1 {{'moe.quantize' op result 'scale' must be [4, 3] of f32 (the scales of recipe block_1x128 for 'input' [4, 300]), got tensor<4x2xf32>}}
  %0:2 = moe.quantize block_1x128 %x : (tensor<4x300xf32>) -> (tensor<4x300xf8E4M3FN>, tensor<4x2xf32>)
  return
}

// -----

func.func @quantize_block_128x128_scale(%x: tensor<2x256x300xbf16>) {
  // expected-error @+1 {{'moe.quantize' op result 'scale' must be [2, 2, 3] of f32 (the scales of recipe block_128x128 for 'input' [2, 256, 300]), got tensor<2x256x3xf32>}}
  %0:2 = moe.quantize block_128x128 %x : (tensor<2x256x300xbf16>) -> (tensor<2x256x300xf8E4M3FN>, tensor<2x256x3xf32>)
  return
}

// -----

func.func @quantize_block_rank1(%x: tensor<300xbf16>) {
  // expected-error @+1 {{'moe.quantize' op recipe block_1x128 needs 'input' of rank ≥ 2 ([..., M, N]), got rank 1}}
  %0:2 = moe.quantize block_1x128 %x : (tensor<300xbf16>) -> (tensor<300xf8E4M3FN>, tensor<3xf32>)
  return
}

// -----

func.func @quantize_mx_scale_f32(%x: tensor<4x64xbf16>) {
  // expected-error @+1 {{'moe.quantize' op result 'scale' must be [4, 2] of f8E8M0FNU (the scales of recipe mx_1x32 for 'input' [4, 64]), got tensor<4x2xf32>}}
  %0:2 = moe.quantize mx_1x32 %x : (tensor<4x64xbf16>) -> (tensor<4x64xf8E4M3FN>, tensor<4x2xf32>)
  return
}

// -----

func.func @quantize_block_scale_e8m0(%x: tensor<4x256xbf16>) {
  // expected-error @+1 {{'moe.quantize' op result 'scale' must be [4, 2] of f32 (the scales of recipe block_1x128 for 'input' [4, 256]), got tensor<4x2xf8E8M0FNU>}}
  %0:2 = moe.quantize block_1x128 %x : (tensor<4x256xbf16>) -> (tensor<4x256xf8E4M3FN>, tensor<4x2xf8E8M0FNU>)
  return
}

// -----

func.func @quantize_delayed_without_history(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.quantize' op recipe delayed needs the 'amax_history' operand}}
  %0:2 = moe.quantize delayed %x : (tensor<4x8xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @quantize_history_without_delayed(%x: tensor<4x8xf32>, %h: tensor<16xf32>) {
  // expected-error @+1 {{'moe.quantize' op 'amax_history' applies only to recipe delayed}}
  %0:3 = moe.quantize tensorwise %x history %h : (tensor<4x8xf32>, tensor<16xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>)
  return
}

// -----

func.func @quantize_delayed_without_new_history(%x: tensor<4x8xf32>, %h: tensor<16xf32>) {
  // expected-error @+1 {{'moe.quantize' op recipe delayed returns 'new_amax_history'}}
  %0:2 = moe.quantize delayed %x history %h : (tensor<4x8xf32>, tensor<16xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @quantize_new_history_without_delayed(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'moe.quantize' op 'new_amax_history' applies only to recipe delayed}}
  %0:3 = moe.quantize tensorwise %x : (tensor<4x8xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>)
  return
}

// -----

func.func @quantize_history_rank(%x: tensor<4x8xf32>, %h: tensor<2x16xf32>) {
  // expected-error @+1 {{'moe.quantize' op 'amax_history' must be a rank-1 tensor [L], got rank 2 (tensor<2x16xf32>)}}
  %0:3 = moe.quantize delayed %x history %h : (tensor<4x8xf32>, tensor<2x16xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<2x16xf32>)
  return
}

// -----

func.func @quantize_history_bf16(%x: tensor<4x8xf32>, %h: tensor<16xbf16>) {
  // expected-error @+1 {{'moe.quantize' op 'amax_history' must have f32 elements, got bf16}}
  %0:3 = moe.quantize delayed %x history %h : (tensor<4x8xf32>, tensor<16xbf16>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xbf16>)
  return
}

// -----

func.func @quantize_history_empty(%x: tensor<4x8xf32>, %h: tensor<0xf32>) {
  // expected-error @+1 {{'moe.quantize' op 'amax_history' must hold at least one entry}}
  %0:3 = moe.quantize delayed %x history %h : (tensor<4x8xf32>, tensor<0xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<0xf32>)
  return
}

// -----

func.func @quantize_new_history_type(%x: tensor<4x8xf32>, %h: tensor<16xf32>) {
  // expected-error @+1 {{'moe.quantize' op result 'new_amax_history' must have the type of 'amax_history' (tensor<16xf32>), got tensor<8xf32>}}
  %0:3 = moe.quantize delayed %x history %h : (tensor<4x8xf32>, tensor<16xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<8xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.dequantize
//===----------------------------------------------------------------------===//

func.func @dequantize_input_not_fp8(%x: tensor<4x8xbf16>, %s: tensor<f32>) {
  // expected-error @+1 {{'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got bf16}}
  %0 = moe.dequantize tensorwise %x, %s : (tensor<4x8xbf16>, tensor<f32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dequantize_input_rank0(%x: tensor<f8E4M3FN>, %s: tensor<f32>) {
  // expected-error @+1 {{'moe.dequantize' op 'input' must be a ranked tensor of rank ≥ 1, got tensor<f8E4M3FN>}}
  %0 = moe.dequantize tensorwise %x, %s : (tensor<f8E4M3FN>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @dequantize_scale_shape(%x: tensor<4x256xf8E4M3FN>, %s: tensor<4x1xf32>) {
  // expected-error @+1 {{'moe.dequantize' op 'scale' must be [4, 2] of f32 (the scales of recipe block_1x128 for 'input' [4, 256]), got tensor<4x1xf32>}}
  %0 = moe.dequantize block_1x128 %x, %s : (tensor<4x256xf8E4M3FN>, tensor<4x1xf32>) -> tensor<4x256xbf16>
  return
}

// -----

func.func @dequantize_mx_scale_dtype(%x: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.dequantize' op 'scale' must be [4, 2] of f8E8M0FNU (the scales of recipe mx_1x32 for 'input' [4, 64]), got tensor<4x2xf32>}}
  %0 = moe.dequantize mx_1x32 %x, %s : (tensor<4x64xf8E4M3FN>, tensor<4x2xf32>) -> tensor<4x64xbf16>
  return
}

// -----

func.func @dequantize_block_rank1(%x: tensor<256xf8E4M3FN>, %s: tensor<2x2xf32>) {
  // expected-error @+1 {{'moe.dequantize' op recipe block_128x128 needs 'input' of rank ≥ 2 ([..., M, N]), got rank 1}}
  %0 = moe.dequantize block_128x128 %x, %s : (tensor<256xf8E4M3FN>, tensor<2x2xf32>) -> tensor<256xbf16>
  return
}

// -----

func.func @dequantize_output_fp8(%x: tensor<4x8xf8E4M3FN>, %s: tensor<f32>) {
  // expected-error @+1 {{'moe.dequantize' op result 'output' must be a tensor of bf16, f16 or f32, got tensor<4x8xf8E5M2>}}
  %0 = moe.dequantize tensorwise %x, %s : (tensor<4x8xf8E4M3FN>, tensor<f32>) -> tensor<4x8xf8E5M2>
  return
}

// -----

func.func @dequantize_output_shape(%x: tensor<4x8xf8E4M3FN>, %s: tensor<f32>) {
  // expected-error @+1 {{'moe.dequantize' op result 'output' must be [4, 8] of bf16 (the shape of 'input'), got tensor<4x4xbf16>}}
  %0 = moe.dequantize tensorwise %x, %s : (tensor<4x8xf8E4M3FN>, tensor<f32>) -> tensor<4x4xbf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.layer
//===----------------------------------------------------------------------===//

func.func @layer_x_rank(%x: tensor<64xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op 'x' must be a rank-2 tensor [T, H], got rank 1 (tensor<64xbf16>)}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_out_type(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op result 'out' must be [64, 32] of bf16 (the type of 'x'), got tensor<64x32xf32>}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xf32>, tensor<f32>)
  return
}

// -----

func.func @layer_aux_loss_type(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op result 'aux_loss' must be [] of f32 (a 0-d f32 tensor), got tensor<bf16>}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<bf16>)
  return
}

// -----

func.func @layer_router_rank(%x: tensor<64x32xbf16>, %wr: tensor<32xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op 'router_weight' must be a rank-2 tensor [H, E], got rank 1 (tensor<32xf32>)}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_router_hidden(%x: tensor<64x32xbf16>, %wr: tensor<16x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op H mismatch: 'x' dim 1 is 32 but 'router_weight' dim 0 is 16}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<16x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_dynamic_experts(%x: tensor<64x32xbf16>, %wr: tensor<32x?xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op the number of experts E must be static, but 'router_weight' dim 1 is dynamic (tensor<32x?xf32>)}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, align = 16 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x?xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_bias_element(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %b: tensor<8xbf16>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op 'bias' must have f32 elements, got bf16}}
  %0:2 = moe.layer %x, %wr bias %b experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function sigmoid>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8xbf16>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_bias_experts(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %b: tensor<16xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op E mismatch: 'router_weight' dim 1 is 8 but 'bias' dim 0 is 16}}
  %0:2 = moe.layer %x, %wr bias %b experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function sigmoid>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<16xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_w_gate_rank(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<32x48xbf16>, %wu: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op 'w_gate' must be a rank-3 tensor [E, H, F], got rank 2 (tensor<32x48xbf16>)}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_w_up_element(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wu: tensor<8x32x48xf8E4M3FN>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op 'w_up' must have bf16, f16 or f32 elements, got f8E4M3FN}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xf8E4M3FN>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_w_down_rank_nk(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x48x32xbf16>, %wd: tensor<8x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op 'w_down' must be a rank-3 tensor [E, H, F], got rank 2 (tensor<8x32xbf16>)}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>, weight_layout = #moe<weight_layout nk>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x48x32xbf16>, tensor<8x48x32xbf16>, tensor<8x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_w_gate_experts(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<4x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op E mismatch: 'router_weight' dim 1 is 8 but 'w_gate' dim 0 is 4}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<4x32x48xbf16>, tensor<4x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_w_up_experts(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wu: tensor<4x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op E mismatch: 'w_gate' dim 0 is 8 but 'w_up' dim 0 is 4}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<4x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_w_down_experts(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<4x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op E mismatch: 'w_gate' dim 0 is 8 but 'w_down' dim 0 is 4}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<4x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

// kn weights given with weight_layout nk: w_gate must be [E, F, H].
func.func @layer_weight_layout_nk(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op H mismatch: 'x' dim 1 is 32 but 'w_gate' dim 2 is 48}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>, weight_layout = #moe<weight_layout nk>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

// nk weights given with the default weight_layout kn.
func.func @layer_weight_layout_kn(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x48x32xbf16>, %wd: tensor<8x32x48xbf16>) {
  // expected-error @+1 {{'moe.layer' op H mismatch: 'x' dim 1 is 32 but 'w_gate' dim 1 is 48}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x48x32xbf16>, tensor<8x48x32xbf16>, tensor<8x32x48xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_w_up_hidden(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wu: tensor<8x16x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op H mismatch: 'x' dim 1 is 32 but 'w_up' dim 1 is 16}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x16x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_w_down_hidden(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x16xbf16>) {
  // expected-error @+1 {{'moe.layer' op H mismatch: 'x' dim 1 is 32 but 'w_down' dim 2 is 16}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x16xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_w_up_width(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wu: tensor<8x32x64xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op F mismatch: 'w_gate' dim 2 is 48 but 'w_up' dim 2 is 64}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wu, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x64xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_w_down_width(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x64x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op F mismatch: 'w_gate' dim 2 is 48 but 'w_down' dim 1 is 64}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x64x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_weight_element(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xf32>) {
  // expected-error @+1 {{'moe.layer' op 'w_down' has f32 elements but 'x' has bf16}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xf32>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_identity(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op score_function identity is for moe.route; a layer's router uses softmax, sigmoid or sqrtsoftplus (post_softmax for softmax after top-k)}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function identity>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_post_softmax_sigmoid(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op post_softmax needs score_function softmax and normalize none (the softmax over the k chosen is the normalization), got sigmoid and none}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, post_softmax, score_function = #moe<score_function sigmoid>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_post_softmax_normalize(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op post_softmax needs score_function softmax and normalize none (the softmax over the k chosen is the normalization), got softmax and sum}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, normalize = #moe<normalize sum>, post_softmax, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_k_exceeds_experts(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op k = 9 exceeds the number of experts E = 8}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 9 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_k_zero(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op k = 0 must be at least 1}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 0 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_groups_not_dividing(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op E = 8 experts are not divisible by num_groups = 3}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, num_groups = 3 : i64, score_function = #moe<score_function sigmoid>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_bias_with_softmax(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %b: tensor<8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op an expert bias is allowed only with sigmoid or sqrtsoftplus scores, not softmax}}
  %0:2 = moe.layer %x, %wr bias %b experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_align_zero(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op align = 0 must be at least 1}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {align = 0 : i64, k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_align_overflow(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op R = T·K + E·(align − 1) overflows 64 bits (T = 64, K = 2, E = 8, align = 4611686018427387904)}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {align = 4611686018427387904 : i64, k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_aux_coeff_negative(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op aux_loss_coeff = -0.5 must be non-negative and finite}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {aux_loss_coeff = -5.0e-01 : f64, k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_sequence_without_length(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op aux-loss variant sequence needs seq_length}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {aux_loss_coeff = 1.0e-02 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_tokens_not_divisible(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op T = 64 tokens are not divisible by seq_length = 24}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {aux_loss_coeff = 1.0e-02 : f64, aux_loss_variant = #moe<aux_loss_variant sequence>, seq_length = 24 : i64, k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_global_without_grid(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op aux-loss variant global needs grid and grid_axes}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {aux_loss_coeff = 1.0e-02 : f64, aux_loss_variant = #moe<aux_loss_variant global>, k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @layer_grid_with_batch(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op grid and grid_axes apply only to aux-loss variant global, not batch}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {grid = @ep, grid_axes = array<i64: 0>, k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_global_unknown_grid(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op grid @ep does not name a shard.grid}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {aux_loss_coeff = 1.0e-02 : f64, aux_loss_variant = #moe<aux_loss_variant global>, grid = @ep, grid_axes = array<i64: 0>, k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @layer_global_axis_out_of_range(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op grid axis 1 is out of range for grid @ep of rank 1}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {aux_loss_coeff = 1.0e-02 : f64, aux_loss_variant = #moe<aux_loss_variant global>, grid = @ep, grid_axes = array<i64: 1>, k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_z_loss_coeff(%x: tensor<64x32xbf16>, %wr: tensor<32x8xf32>, %wg: tensor<8x32x48xbf16>, %wd: tensor<8x48x32xbf16>) {
  // expected-error @+1 {{'moe.layer' op z_loss_coeff = inf must be non-negative and finite}}
  %0:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, score_function = #moe<score_function softmax>, z_loss_coeff = 0x7FF0000000000000 : f64} : (tensor<64x32xbf16>, tensor<32x8xf32>, tensor<8x32x48xbf16>, tensor<8x32x48xbf16>, tensor<8x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.combine_grad
//===----------------------------------------------------------------------===//

func.func @combine_grad_dout_fp8(%d: tensor<4x8xf8E4M3FN>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op 'dout' must have bf16, f16 or f32 elements, got f8E4M3FN}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xf8E4M3FN>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_dout_rank(%d: tensor<32xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op 'dout' must be a rank-2 tensor [T, H], got rank 1 (tensor<32xbf16>)}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<32xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_y_i32(%d: tensor<4x8xbf16>, %y: tensor<6x8xi32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op 'y' must have bf16, f16 or f32 elements, got i32}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x8xi32>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_y_rank(%d: tensor<4x8xbf16>, %y: tensor<2x6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op 'y' must be a rank-2 tensor [R, H], got rank 3 (tensor<2x6x8xbf16>)}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<2x6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_hidden(%d: tensor<4x8xbf16>, %y: tensor<6x16xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op H mismatch: 'dout' dim 1 is 8 but 'y' dim 1 is 16}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x16xbf16>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_element_types(%d: tensor<4x8xbf16>, %y: tensor<6x8xf32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op 'dout' has bf16 elements but 'y' has f32}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x8xf32>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_rows_i64(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi64>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op 'rows' must have i32 elements, got i64}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi64>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_rows_rank(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<8xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op 'rows' must be a rank-2 tensor [T, K], got rank 1 (tensor<8xi32>)}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<8xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_tokens_rows(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<3x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op T mismatch: 'dout' dim 0 is 4 but 'rows' dim 0 is 3}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<3x2xi32>, tensor<3x2xf32>
  return
}

// -----

func.func @combine_grad_weights_bf16(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xbf16>) {
  // expected-error @+1 {{'moe.combine_grad' op 'weights' must have f32 elements, got bf16}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xbf16>
  return
}

// -----

func.func @combine_grad_weights_rank(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<8xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op 'weights' must be a rank-2 tensor [T, K], got rank 1 (tensor<8xf32>)}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<8xf32>
  return
}

// -----

func.func @combine_grad_tokens_weights(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op T mismatch: 'rows' dim 0 is 4 but 'weights' dim 0 is 3}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<3x2xf32>
  return
}

// -----

// With 'rows' dynamic, T is still checked between 'dout' and 'weights'.
func.func @combine_grad_tokens_dout_weights(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<?x2xi32>, %w: tensor<3x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op T mismatch: 'dout' dim 0 is 4 but 'weights' dim 0 is 3}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<?x2xi32>, tensor<3x2xf32>
  return
}

// -----

func.func @combine_grad_topk(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x1xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op K mismatch: 'rows' dim 1 is 2 but 'weights' dim 1 is 1}}
  %0:2 = moe.combine_grad %d, %y, %r, %w : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x1xf32>
  return
}

// -----

func.func @combine_grad_dy_shape(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op result 'dy' must be [6, 8] of bf16 ([R, H] with the element type of 'y'), got tensor<4x8xbf16>}}
  %0:2 = "moe.combine_grad"(%d, %y, %r, %w) : (tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32>) -> (tensor<4x8xbf16>, tensor<4x2xf32>)
  return
}

// -----

func.func @combine_grad_dy_element_type(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op result 'dy' must be [6, 8] of bf16 ([R, H] with the element type of 'y'), got tensor<6x8xf32>}}
  %0:2 = "moe.combine_grad"(%d, %y, %r, %w) : (tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32>) -> (tensor<6x8xf32>, tensor<4x2xf32>)
  return
}

// -----

func.func @combine_grad_dweights(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{'moe.combine_grad' op result 'dweights' must be [4, 2] of f32 ([T, K] in f32), got tensor<4x2xbf16>}}
  %0:2 = "moe.combine_grad"(%d, %y, %r, %w) : (tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32>) -> (tensor<6x8xbf16>, tensor<4x2xbf16>)
  return
}
