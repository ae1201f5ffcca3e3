// Every verifier rule of the moe dialect, one case each, with the message
// (the operand named, the numbers given). The generic form is used where the
// custom form would infer the result types and so cannot state a wrong one.
//
// RUN: moe-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Parsing: custom<EnumKeyword>, required attributes, attribute kinds
//===----------------------------------------------------------------------===//

func.func @route_unknown_keyword(%l: tensor<4x8xf32>) {
  %init1 = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{unknown keyword 'tanh', expected one of: softmax, sigmoid, sqrtsoftplus, identity}}
  %0 = moe.route tanh %l outs(%init1) : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @aux_loss_unknown_variant(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init2 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{unknown keyword 'local', expected one of: batch, sequence, global}}
  %0 = moe.aux_loss local %s, %i from softmax coeff 1.000000e-02 outs(%init2) : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_unknown_score_function(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init3 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{unknown keyword 'softplus', expected one of: softmax, sigmoid, sqrtsoftplus, identity}}
  %0 = moe.aux_loss batch %s, %i from softplus coeff 1.000000e-02 outs(%init3) : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @glu_unknown_activation(%g: tensor<4x8xf32>) {
  %init4 = tensor.empty() : tensor<4x4xf32>
  // expected-error @+1 {{unknown keyword 'swish', expected one of: silu, gelu, gelu_tanh, relu, relu2, identity}}
  %0 = moe.glu swish %g outs(%init4) : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @quantize_unknown_recipe(%x: tensor<4x8xf32>) {
  %init5 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init6 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{unknown keyword 'rowwise', expected one of: tensorwise, delayed, block_1x128, block_128x128, mx_1x32}}
  %0:2 = moe.quantize rowwise %x outs(%init5, %init6) : tensor<4x8xf32> -> tensor<4x8xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @topk_keyword_missing(%s: tensor<4x8xf32>) {
  %init7 = tensor.empty() : tensor<4x2xf32>
  %init8 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{expected valid keyword}}
  %w, %i = moe.topk %s k 2 outs(%init7, %init8) : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_enum_attr_unknown_case(%s: tensor<4x8xf32>) {
  %init9 = tensor.empty() : tensor<4x2xf32>
  %init10 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+2 {{expected ::mlir::moe::Normalize to be one of: none, sum, softmax}}
  // expected-error @+1 {{failed to parse Moe_NormalizeAttr parameter 'value'}}
  %w, %i = moe.topk softmax %s k 2 outs(%init9, %init10) {normalize = #moe<normalize l1>} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_missing_k(%s: tensor<4x8xf32>) {
  %dest1 = tensor.empty() : tensor<4x2xf32>
  %dest2 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op requires attribute 'k'}}
  %0:2 = "moe.topk"(%s, %dest1, %dest2) <{operandSegmentSizes = array<i32: 1, 0, 2>, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @topk_missing_score_function(%s: tensor<4x8xf32>) {
  %dest3 = tensor.empty() : tensor<4x2xf32>
  %dest4 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op requires attribute 'score_function'}}
  %0:2 = "moe.topk"(%s, %dest3, %dest4) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i64}> : (tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @topk_k_wrong_kind(%s: tensor<4x8xf32>) {
  %dest5 = tensor.empty() : tensor<4x2xf32>
  %dest6 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op attribute 'k' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0:2 = "moe.topk"(%s, %dest5, %dest6) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i32, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @topk_group_score_wrong_enum(%s: tensor<4x8xf32>) {
  %init11 = tensor.empty() : tensor<4x2xf32>
  %init12 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{attribute 'group_score' failed to satisfy constraint: expert-group score rule}}
  %w, %i = moe.topk softmax %s k 2 outs(%init11, %init12) {group_score = #moe<normalize sum>} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_missing_num_experts(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %dest7 = tensor.empty() : tensor<8x8xbf16>
  %dest8 = tensor.empty() : tensor<8xi32>
  %dest9 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op requires attribute 'num_experts'}}
  %0:3 = "moe.permute"(%x, %i, %dest7, %dest8, %dest9) <{align = 1 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>, tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @aux_loss_missing_coeff(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %dest10 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op requires attribute 'coeff'}}
  %0 = "moe.aux_loss"(%s, %i, %dest10) <{variant = #moe<aux_loss_variant batch>, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @all_to_all_missing_grid(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %dest11 = tensor.empty() : tensor<8x4xf32>
  %dest12 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.all_to_all' op requires attribute 'grid'}}
  %0:2 = "moe.all_to_all"(%x, %s, %dest11, %dest12) <{grid_axis = 0 : i64}> : (tensor<8x4xf32>, tensor<4xi32>, tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

func.func @quantize_missing_recipe(%x: tensor<4x8xf32>) {
  %dest13 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %dest14 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op requires attribute 'recipe'}}
  %0:2 = "moe.quantize"(%x, %dest13, %dest14) : (tensor<4x8xf32>, tensor<4x8xf8E4M3FN>, tensor<f32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
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
  %dest15 = tensor.empty() : tensor<8x4xf32>
  // expected-error @+1 {{'moe.grouped_matmul' op operand count (4) does not match with the total size (5) specified in attribute 'operandSegmentSizes'}}
  %0 = "moe.grouped_matmul"(%a, %b, %s, %dest15) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 1, 0, 0, 0, 1>}> ({}) : (tensor<8x4xf32>, tensor<2x4x4xf32>, tensor<2xi32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @unranked_operand(%x: tensor<*xf32>, %w: tensor<4x4xf32>) {
  %init13 = tensor.empty() : tensor<4x4xf32>
  // expected-error @+1 {{'moe.grouped_matmul' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'}}
  %0 = moe.grouped_matmul %x, %x, %w outs(%init13) : tensor<*xf32>, tensor<*xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @unranked_result(%s: tensor<4x8xf32>, %w: tensor<4x2xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{'moe.topk' op result #0 must be variadic of ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %0:2 = "moe.topk"(%s, %w, %i) <{k = 2 : i64, operandSegmentSizes = array<i32: 1, 0, 2>, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<*xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @not_a_tensor(%x: f32, %w: tensor<4x4xf32>) {
  %init1 = tensor.empty() : tensor<1xf32>
  // expected-error @+1 {{custom op 'moe.gate' invalid kind of type specified}}
  %0 = moe.gate %x, %w outs(%init1) : f32, tensor<4x4xf32> -> tensor<1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.gate
//===----------------------------------------------------------------------===//

func.func @gate_x_rank(%x: tensor<4x8x2xbf16>, %w: tensor<8x4xf32>) {
  %init14 = tensor.empty() : tensor<4x4xf32>
  // expected-error @+1 {{'moe.gate' op 'x' must be a rank-2 tensor [T, H], got rank 3 (tensor<4x8x2xbf16>)}}
  %0 = moe.gate %x, %w outs(%init14) : tensor<4x8x2xbf16>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @gate_x_element(%x: tensor<4x8xi32>, %w: tensor<8x4xf32>) {
  %init15 = tensor.empty() : tensor<4x4xf32>
  // expected-error @+1 {{'moe.gate' op 'x' must have bf16, f16 or f32 elements, got i32}}
  %0 = moe.gate %x, %w outs(%init15) : tensor<4x8xi32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @gate_weight_rank(%x: tensor<4x8xbf16>, %w: tensor<8xf32>) {
  %init2 = tensor.empty() : tensor<1xf32>
  // expected-error @+1 {{'moe.gate' op 'weight' must be a rank-2 tensor [H, E], got rank 1 (tensor<8xf32>)}}
  %0 = moe.gate %x, %w outs(%init2) : tensor<4x8xbf16>, tensor<8xf32> -> tensor<1xf32>
  return
}

// -----

func.func @gate_weight_fp8(%x: tensor<4x8xbf16>, %w: tensor<8x4xf8E4M3FN>) {
  %init16 = tensor.empty() : tensor<4x4xf32>
  // expected-error @+1 {{'moe.gate' op 'weight' must have bf16, f16 or f32 elements, got f8E4M3FN}}
  %0 = moe.gate %x, %w outs(%init16) : tensor<4x8xbf16>, tensor<8x4xf8E4M3FN> -> tensor<4x4xf32>
  return
}

// -----

func.func @gate_hidden_mismatch(%x: tensor<4x8xbf16>, %w: tensor<16x4xf32>) {
  %init17 = tensor.empty() : tensor<4x4xf32>
  // expected-error @+1 {{'moe.gate' op H mismatch: 'x' dim 1 is 8 but 'weight' dim 0 is 16}}
  %0 = moe.gate %x, %w outs(%init17) : tensor<4x8xbf16>, tensor<16x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @gate_result_not_f32(%x: tensor<4x8xbf16>, %w: tensor<8x4xf32>) {
  %dest16 = tensor.empty() : tensor<4x4xbf16>
  // expected-error @+1 {{'moe.gate' op result 'logits' must be [4, 4] of f32 ([T, E] in f32), got tensor<4x4xbf16>}}
  %0 = "moe.gate"(%x, %w, %dest16) : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
  return
}

// -----

func.func @gate_result_shape(%x: tensor<4x8xbf16>, %w: tensor<8x4xf32>) {
  %dest17 = tensor.empty() : tensor<4x5xf32>
  // expected-error @+1 {{'moe.gate' op result 'logits' must be [4, 4] of f32 ([T, E] in f32), got tensor<4x5xf32>}}
  %0 = "moe.gate"(%x, %w, %dest17) : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @gate_result_rank(%x: tensor<4x8xbf16>, %w: tensor<8x4xf32>) {
  %dest18 = tensor.empty() : tensor<16xf32>
  // expected-error @+1 {{'moe.gate' op result 'logits' must be [4, 4] of f32 ([T, E] in f32), got tensor<16xf32>}}
  %0 = "moe.gate"(%x, %w, %dest18) : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.route
//===----------------------------------------------------------------------===//

func.func @route_rank(%l: tensor<8xf32>) {
  %init18 = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{'moe.route' op 'logits' must be a rank-2 tensor [T, E], got rank 1 (tensor<8xf32>)}}
  %0 = moe.route softmax %l outs(%init18) : tensor<8xf32> -> tensor<8xf32>
  return
}

// -----

func.func @route_bf16(%l: tensor<4x8xbf16>) {
  %init19 = tensor.empty() : tensor<4x8xbf16>
  // expected-error @+1 {{'moe.route' op 'logits' must have f32 elements, got bf16}}
  %0 = moe.route sigmoid %l outs(%init19) : tensor<4x8xbf16> -> tensor<4x8xbf16>
  return
}

// -----

func.func @route_result_type(%l: tensor<4x8xf32>) {
  %dest19 = tensor.empty() : tensor<4x8xf16>
  // expected-error @+1 {{'moe.route' op result 'scores' must be [4, 8] of f32 (the type of 'logits'), got tensor<4x8xf16>}}
  %0 = "moe.route"(%l, %dest19) <{score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x8xf16>) -> tensor<4x8xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.topk
//===----------------------------------------------------------------------===//

func.func @topk_scores_rank(%s: tensor<8xf32>) {
  %init20 = tensor.empty() : tensor<8x2xf32>
  %init21 = tensor.empty() : tensor<8x2xi32>
  // expected-error @+1 {{'moe.topk' op 'scores' must be a rank-2 tensor [T, E], got rank 1 (tensor<8xf32>)}}
  %w, %i = moe.topk softmax %s k 2 outs(%init20, %init21) : tensor<8xf32> -> tensor<8x2xf32>, tensor<8x2xi32>
  return
}

// -----

func.func @topk_scores_bf16(%s: tensor<4x8xbf16>) {
  %init22 = tensor.empty() : tensor<4x2xf32>
  %init23 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op 'scores' must have f32 elements, got bf16}}
  %w, %i = moe.topk softmax %s k 2 outs(%init22, %init23) : tensor<4x8xbf16> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_bias_rank(%s: tensor<4x8xf32>, %b: tensor<1x8xf32>) {
  %init24 = tensor.empty() : tensor<4x2xf32>
  %init25 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<1x8xf32>)}}
  %w, %i = moe.topk sigmoid %s bias %b k 2 outs(%init24, %init25) : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_bias_element(%s: tensor<4x8xf32>, %b: tensor<8xbf16>) {
  %init26 = tensor.empty() : tensor<4x2xf32>
  %init27 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op 'bias' must have f32 elements, got bf16}}
  %w, %i = moe.topk sigmoid %s bias %b k 2 outs(%init26, %init27) : tensor<4x8xf32>, tensor<8xbf16> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_bias_experts(%s: tensor<4x8xf32>, %b: tensor<16xf32>) {
  %init28 = tensor.empty() : tensor<4x2xf32>
  %init29 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op E mismatch: 'scores' dim 1 is 8 but 'bias' dim 0 is 16}}
  %w, %i = moe.topk sigmoid %s bias %b k 2 outs(%init28, %init29) : tensor<4x8xf32>, tensor<16xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_k_zero(%s: tensor<4x8xf32>) {
  %init30 = tensor.empty() : tensor<4x0xf32>
  %init31 = tensor.empty() : tensor<4x0xi32>
  // expected-error @+1 {{'moe.topk' op k = 0 must be at least 1}}
  %w, %i = moe.topk softmax %s k 0 outs(%init30, %init31) : tensor<4x8xf32> -> tensor<4x0xf32>, tensor<4x0xi32>
  return
}

// -----

func.func @topk_k_negative(%s: tensor<4x8xf32>) {
  %init3 = tensor.empty() : tensor<1xf32>
  %init4 = tensor.empty() : tensor<1xf32>
  // expected-error @+1 {{'moe.topk' op k = -3 must be at least 1}}
  %w, %i = moe.topk softmax %s k -3 outs(%init3, %init4) : tensor<4x8xf32> -> tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @topk_k_negative_generic(%s: tensor<4x8xf32>) {
  %dest20 = tensor.empty() : tensor<4x1xf32>
  %dest21 = tensor.empty() : tensor<4x1xi32>
  // expected-error @+1 {{'moe.topk' op k = -1 must be at least 1}}
  %0:2 = "moe.topk"(%s, %dest20, %dest21) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = -1 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return
}

// -----

func.func @topk_k_exceeds_experts(%s: tensor<4x8xf32>) {
  %init32 = tensor.empty() : tensor<4x9xf32>
  %init33 = tensor.empty() : tensor<4x9xi32>
  // expected-error @+1 {{'moe.topk' op k = 9 exceeds the number of experts E = 8}}
  %w, %i = moe.topk softmax %s k 9 outs(%init32, %init33) : tensor<4x8xf32> -> tensor<4x9xf32>, tensor<4x9xi32>
  return
}

// -----

// E is taken from the bias when the scores leave it dynamic.
func.func @topk_k_exceeds_experts_of_bias(%s: tensor<4x?xf32>, %b: tensor<8xf32>) {
  %init34 = tensor.empty() : tensor<4x9xf32>
  %init35 = tensor.empty() : tensor<4x9xi32>
  // expected-error @+1 {{'moe.topk' op k = 9 exceeds the number of experts E = 8}}
  %w, %i = moe.topk sigmoid %s bias %b k 9 outs(%init34, %init35) : tensor<4x?xf32>, tensor<8xf32> -> tensor<4x9xf32>, tensor<4x9xi32>
  return
}

// -----

func.func @topk_weights_shape(%s: tensor<4x8xf32>) {
  %dest22 = tensor.empty() : tensor<4x3xf32>
  %dest23 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op result 'weights' must be [4, 2] of f32 ([T, k] in f32), got tensor<4x3xf32>}}
  %0:2 = "moe.topk"(%s, %dest22, %dest23) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x3xf32>, tensor<4x2xi32>) -> (tensor<4x3xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @topk_indices_i64(%s: tensor<4x8xf32>) {
  %dest24 = tensor.empty() : tensor<4x2xf32>
  %dest25 = tensor.empty() : tensor<4x2xi64>
  // expected-error @+1 {{'moe.topk' op result 'indices' must be [4, 2] of i32 ([T, k] in i32), got tensor<4x2xi64>}}
  %0:2 = "moe.topk"(%s, %dest24, %dest25) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x2xf32>, tensor<4x2xi64>) -> (tensor<4x2xf32>, tensor<4x2xi64>)
  return
}

// -----

func.func @topk_num_groups_zero(%s: tensor<4x8xf32>) {
  %init36 = tensor.empty() : tensor<4x2xf32>
  %init37 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op num_groups = 0 must be at least 1}}
  %w, %i = moe.topk softmax %s k 2 outs(%init36, %init37) {num_groups = 0 : i64} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_experts_not_divisible_by_groups(%s: tensor<4x10xf32>) {
  %init38 = tensor.empty() : tensor<4x2xf32>
  %init39 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op E = 10 experts are not divisible by num_groups = 4}}
  %w, %i = moe.topk softmax %s k 2 outs(%init38, %init39) {num_groups = 4 : i64, group_topk = 2 : i64} : tensor<4x10xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_group_topk_zero(%s: tensor<4x8xf32>) {
  %init40 = tensor.empty() : tensor<4x2xf32>
  %init41 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op group_topk = 0 must be at least 1}}
  %w, %i = moe.topk softmax %s k 2 outs(%init40, %init41) {num_groups = 4 : i64, group_topk = 0 : i64} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_group_topk_exceeds_groups(%s: tensor<4x8xf32>) {
  %init42 = tensor.empty() : tensor<4x2xf32>
  %init43 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op group_topk = 5 exceeds num_groups = 4}}
  %w, %i = moe.topk softmax %s k 2 outs(%init42, %init43) {num_groups = 4 : i64, group_topk = 5 : i64} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_group_topk_without_groups(%s: tensor<4x8xf32>) {
  %init44 = tensor.empty() : tensor<4x2xf32>
  %init45 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op group_topk = 2 exceeds num_groups = 1}}
  %w, %i = moe.topk softmax %s k 2 outs(%init44, %init45) {group_topk = 2 : i64} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_k_not_divisible_by_group_topk(%s: tensor<4x16xf32>) {
  %init46 = tensor.empty() : tensor<4x3xf32>
  %init47 = tensor.empty() : tensor<4x3xi32>
  // expected-error @+1 {{'moe.topk' op k = 3 is not divisible by group_topk = 2}}
  %w, %i = moe.topk softmax %s k 3 outs(%init46, %init47) {num_groups = 4 : i64, group_topk = 2 : i64} : tensor<4x16xf32> -> tensor<4x3xf32>, tensor<4x3xi32>
  return
}

// -----

func.func @topk_k_exceeds_selected_groups(%s: tensor<4x16xf32>) {
  %init48 = tensor.empty() : tensor<4x10xf32>
  %init49 = tensor.empty() : tensor<4x10xi32>
  // expected-error @+1 {{'moe.topk' op k = 10 exceeds the 8 experts left after group selection (group_topk = 2 groups of 4)}}
  %w, %i = moe.topk softmax %s k 10 outs(%init48, %init49) {num_groups = 4 : i64, group_topk = 2 : i64} : tensor<4x16xf32> -> tensor<4x10xf32>, tensor<4x10xi32>
  return
}

// -----

func.func @topk_group_score_topq_zero(%s: tensor<4x16xf32>) {
  %init50 = tensor.empty() : tensor<4x4xf32>
  %init51 = tensor.empty() : tensor<4x4xi32>
  // expected-error @+1 {{'moe.topk' op group_score_topq = 0 must be in [1, 4], the experts of one group}}
  %w, %i = moe.topk softmax %s k 4 outs(%init50, %init51) {num_groups = 4 : i64, group_topk = 2 : i64, group_score_topq = 0 : i64} : tensor<4x16xf32> -> tensor<4x4xf32>, tensor<4x4xi32>
  return
}

// -----

func.func @topk_group_score_topq_too_large(%s: tensor<4x16xf32>) {
  %init52 = tensor.empty() : tensor<4x4xf32>
  %init53 = tensor.empty() : tensor<4x4xi32>
  // expected-error @+1 {{'moe.topk' op group_score_topq = 5 must be in [1, 4], the experts of one group}}
  %w, %i = moe.topk softmax %s k 4 outs(%init52, %init53) {num_groups = 4 : i64, group_topk = 2 : i64, group_score_topq = 5 : i64} : tensor<4x16xf32> -> tensor<4x4xf32>, tensor<4x4xi32>
  return
}

// -----

func.func @topk_group_score_topq_without_groups(%s: tensor<4x16xf32>) {
  %init54 = tensor.empty() : tensor<4x4xf32>
  %init55 = tensor.empty() : tensor<4x4xi32>
  // expected-error @+1 {{'moe.topk' op group_score_topq applies only to group-limited routing (num_groups > 1)}}
  %w, %i = moe.topk softmax %s k 4 outs(%init54, %init55) {group_score_topq = 2 : i64} : tensor<4x16xf32> -> tensor<4x4xf32>, tensor<4x4xi32>
  return
}

// -----

func.func @topk_group_score_topq_with_max(%s: tensor<4x16xf32>) {
  %init56 = tensor.empty() : tensor<4x4xf32>
  %init57 = tensor.empty() : tensor<4x4xi32>
  // expected-error @+1 {{'moe.topk' op group_score_topq applies only to group_score top_sum, not max}}
  %w, %i = moe.topk softmax %s k 4 outs(%init56, %init57) {num_groups = 4 : i64, group_topk = 2 : i64, group_score = #moe<group_score max>, group_score_topq = 2 : i64} : tensor<4x16xf32> -> tensor<4x4xf32>, tensor<4x4xi32>
  return
}

// -----

func.func @topk_bias_with_softmax(%s: tensor<4x8xf32>, %b: tensor<8xf32>) {
  %init58 = tensor.empty() : tensor<4x2xf32>
  %init59 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op an expert bias is allowed only with sigmoid or sqrtsoftplus scores, not softmax}}
  %w, %i = moe.topk softmax %s bias %b k 2 outs(%init58, %init59) : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_bias_with_identity(%s: tensor<4x8xf32>, %b: tensor<8xf32>) {
  %init60 = tensor.empty() : tensor<4x2xf32>
  %init61 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op an expert bias is allowed only with sigmoid or sqrtsoftplus scores, not identity}}
  %w, %i = moe.topk identity %s bias %b k 2 outs(%init60, %init61) : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_scaling_factor_zero(%s: tensor<4x8xf32>) {
  %init62 = tensor.empty() : tensor<4x2xf32>
  %init63 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op scaling_factor = 0 must be positive and finite}}
  %w, %i = moe.topk softmax %s k 2 outs(%init62, %init63) {scaling_factor = 0.0 : f64} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_scaling_factor_inf(%s: tensor<4x8xf32>) {
  %init64 = tensor.empty() : tensor<4x2xf32>
  %init65 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op scaling_factor = inf must be positive and finite}}
  %w, %i = moe.topk softmax %s k 2 outs(%init64, %init65) {scaling_factor = 0x7FF0000000000000 : f64} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_score_function_mismatch(%l: tensor<4x8xf32>) {
  %init66 = tensor.empty() : tensor<4x8xf32>
  %s = moe.route sigmoid %l outs(%init66) : tensor<4x8xf32> -> tensor<4x8xf32>
  %init67 = tensor.empty() : tensor<4x2xf32>
  %init68 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.topk' op score_function softmax does not match the producing moe.route (sigmoid)}}
  %w, %i = moe.topk softmax %s k 2 outs(%init67, %init68) : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.aux_loss
//===----------------------------------------------------------------------===//

func.func @aux_loss_scores_bf16(%s: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init69 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op 'scores' must have f32 elements, got bf16}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 outs(%init69) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_indices_rank(%s: tensor<4x8xf32>, %i: tensor<8xi32>) {
  %init70 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op 'indices' must be a rank-2 tensor [T, K], got rank 1 (tensor<8xi32>)}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 outs(%init70) : tensor<4x8xf32>, tensor<8xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_indices_i64(%s: tensor<4x8xf32>, %i: tensor<4x2xi64>) {
  %init71 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op 'indices' must have i32 elements, got i64}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 outs(%init71) : tensor<4x8xf32>, tensor<4x2xi64> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_tokens(%s: tensor<4x8xf32>, %i: tensor<6x2xi32>) {
  %init72 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op T mismatch: 'scores' dim 0 is 4 but 'indices' dim 0 is 6}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 outs(%init72) : tensor<4x8xf32>, tensor<6x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_result(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %dest26 = tensor.empty() : tensor<f16>
  // expected-error @+1 {{'moe.aux_loss' op result 'loss' must be [] of f32 (a 0-d f32 tensor), got tensor<f16>}}
  %0 = "moe.aux_loss"(%s, %i, %dest26) <{variant = #moe<aux_loss_variant batch>, score_function = #moe<score_function softmax>, coeff = 1.0e-2 : f64}> : (tensor<4x8xf32>, tensor<4x2xi32>, tensor<f16>) -> tensor<f16>
  return
}

// -----

func.func @aux_loss_identity(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init73 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op the aux loss needs dense scores from softmax, sigmoid or sqrtsoftplus, not identity}}
  %0 = moe.aux_loss batch %s, %i from identity coeff 1.000000e-02 outs(%init73) : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_k_exceeds_experts(%s: tensor<4x8xf32>, %i: tensor<4x9xi32>) {
  %init74 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op 'indices' selects K = 9 experts per token but 'scores' has only E = 8}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 outs(%init74) : tensor<4x8xf32>, tensor<4x9xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_coeff_negative(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init75 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op coeff = -0.01 must be non-negative and finite}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff -1.000000e-02 outs(%init75) : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_coeff_nan(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init76 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op coeff = nan must be non-negative and finite}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 0x7FF8000000000000 outs(%init76) : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_sequence_without_length(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init77 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op aux-loss variant sequence needs seq_length}}
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.000000e-02 outs(%init77) : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_seq_length_zero(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init78 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op seq_length = 0 must be at least 1}}
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.000000e-02 outs(%init78) {seq_length = 0 : i64} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_tokens_not_divisible(%s: tensor<6x8xf32>, %i: tensor<6x2xi32>) {
  %init79 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op T = 6 tokens are not divisible by seq_length = 4}}
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.000000e-02 outs(%init79) {seq_length = 4 : i64} : tensor<6x8xf32>, tensor<6x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_seq_length_with_batch(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init80 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op seq_length applies only to aux-loss variant sequence, not batch}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 outs(%init80) {seq_length = 2 : i64} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_global_without_grid(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init81 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op aux-loss variant global needs grid and grid_axes (the ranks that counts and tokens are summed over)}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 outs(%init81) : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

shard.grid @g(shape = 4)
func.func @aux_loss_global_without_axes(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init82 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op aux-loss variant global needs grid and grid_axes}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 outs(%init82) {grid = @g} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

shard.grid @g(shape = 4)
func.func @aux_loss_grid_with_batch(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init83 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op grid and grid_axes apply only to aux-loss variant global, not batch}}
  %0 = moe.aux_loss batch %s, %i from softmax coeff 1.000000e-02 outs(%init83) {grid = @g, grid_axes = array<i64: 0>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_global_unknown_grid(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init84 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op grid @missing does not name a shard.grid}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 outs(%init84) {grid = @missing, grid_axes = array<i64: 0>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_global_grid_is_a_function(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init85 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op grid @aux_loss_global_grid_is_a_function does not name a shard.grid}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 outs(%init85) {grid = @aux_loss_global_grid_is_a_function, grid_axes = array<i64: 0>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

shard.grid @g(shape = 2x4)
func.func @aux_loss_global_axis_out_of_range(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init86 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op grid axis 2 is out of range for grid @g of rank 2}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 outs(%init86) {grid = @g, grid_axes = array<i64: 0, 2>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

shard.grid @g(shape = 2x4)
func.func @aux_loss_global_axis_negative(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init87 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op grid axis -1 is out of range for grid @g of rank 2}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 outs(%init87) {grid = @g, grid_axes = array<i64: -1>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

shard.grid @g(shape = 2x4)
func.func @aux_loss_global_axis_twice(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init88 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.aux_loss' op grid axis 1 is listed twice}}
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 outs(%init88) {grid = @g, grid_axes = array<i64: 1, 1>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.z_loss
//===----------------------------------------------------------------------===//

func.func @z_loss_rank(%l: tensor<f32>) {
  %init89 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.z_loss' op 'logits' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)}}
  %0 = moe.z_loss %l coeff 1.000000e-03 outs(%init89) : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @z_loss_bf16(%l: tensor<4x8xbf16>) {
  %init90 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.z_loss' op 'logits' must have f32 elements, got bf16}}
  %0 = moe.z_loss %l coeff 1.000000e-03 outs(%init90) : tensor<4x8xbf16> -> tensor<f32>
  return
}

// -----

func.func @z_loss_result(%l: tensor<4x8xf32>) {
  %dest27 = tensor.empty() : tensor<1xf32>
  // expected-error @+1 {{'moe.z_loss' op result 'loss' must be [] of f32 (a 0-d f32 tensor), got tensor<1xf32>}}
  %0 = "moe.z_loss"(%l, %dest27) <{coeff = 1.0e-3 : f64}> : (tensor<4x8xf32>, tensor<1xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @z_loss_coeff_negative(%l: tensor<4x8xf32>) {
  %init91 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.z_loss' op coeff = -1 must be non-negative and finite}}
  %0 = moe.z_loss %l coeff -1.000000e+00 outs(%init91) : tensor<4x8xf32> -> tensor<f32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.expert_bias_update
//===----------------------------------------------------------------------===//

func.func @bias_update_bias_rank(%b: tensor<1x8xf32>, %c: tensor<8xi32>) {
  %init92 = tensor.empty() : tensor<1x8xf32>
  // expected-error @+1 {{'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<1x8xf32>)}}
  %0 = moe.expert_bias_update %b, %c rate 1.000000e-03 outs(%init92) : tensor<1x8xf32>, tensor<8xi32> -> tensor<1x8xf32>
  return
}

// -----

func.func @bias_update_bias_bf16(%b: tensor<8xbf16>, %c: tensor<8xi32>) {
  %init93 = tensor.empty() : tensor<8xbf16>
  // expected-error @+1 {{'moe.expert_bias_update' op 'bias' must have f32 elements, got bf16}}
  %0 = moe.expert_bias_update %b, %c rate 1.000000e-03 outs(%init93) : tensor<8xbf16>, tensor<8xi32> -> tensor<8xbf16>
  return
}

// -----

func.func @bias_update_counts_i16(%b: tensor<8xf32>, %c: tensor<8xi16>) {
  %init94 = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{'moe.expert_bias_update' op 'counts' must have i32, i64 or f32 elements, got i16}}
  %0 = moe.expert_bias_update %b, %c rate 1.000000e-03 outs(%init94) : tensor<8xf32>, tensor<8xi16> -> tensor<8xf32>
  return
}

// -----

func.func @bias_update_experts(%b: tensor<8xf32>, %c: tensor<16xi32>) {
  %init95 = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{'moe.expert_bias_update' op E mismatch: 'bias' dim 0 is 8 but 'counts' dim 0 is 16}}
  %0 = moe.expert_bias_update %b, %c rate 1.000000e-03 outs(%init95) : tensor<8xf32>, tensor<16xi32> -> tensor<8xf32>
  return
}

// -----

func.func @bias_update_result(%b: tensor<8xf32>, %c: tensor<8xi32>) {
  %dest28 = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{'moe.expert_bias_update' op result 'updated_bias' must be [8] of f32 (the type of 'bias'), got tensor<4xf32>}}
  %0 = "moe.expert_bias_update"(%b, %c, %dest28) <{rate = 1.0e-3 : f64}> : (tensor<8xf32>, tensor<8xi32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @bias_update_rate_negative(%b: tensor<8xf32>, %c: tensor<8xi32>) {
  %init96 = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{'moe.expert_bias_update' op rate = -0.001 must be non-negative and finite}}
  %0 = moe.expert_bias_update %b, %c rate -1.000000e-03 outs(%init96) : tensor<8xf32>, tensor<8xi32> -> tensor<8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.permute
//===----------------------------------------------------------------------===//

func.func @permute_x_i1(%x: tensor<4x8xi1>, %i: tensor<4x2xi32>) {
  %init97 = tensor.empty() : tensor<8x8xi1>
  %init98 = tensor.empty() : tensor<8xi32>
  %init99 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 1 outs(%init97, %init98, %init99) : tensor<4x8xi1>, tensor<4x2xi32> -> tensor<8x8xi1>, tensor<8xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_x_rank(%x: tensor<4x8x2xbf16>, %i: tensor<4x2xi32>) {
  %init5 = tensor.empty() : tensor<1xf32>
  %init6 = tensor.empty() : tensor<1xf32>
  %init7 = tensor.empty() : tensor<1xf32>
  // expected-error @+1 {{'moe.permute' op 'x' must be a rank-2 tensor [T, H], got rank 3 (tensor<4x8x2xbf16>)}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 1 outs(%init5, %init6, %init7) : tensor<4x8x2xbf16>, tensor<4x2xi32> -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @permute_indices_i64(%x: tensor<4x8xbf16>, %i: tensor<4x2xi64>) {
  %init100 = tensor.empty() : tensor<8x8xbf16>
  %init101 = tensor.empty() : tensor<8xi32>
  %init102 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op 'indices' must have i32 elements, got i64}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 1 outs(%init100, %init101, %init102) : tensor<4x8xbf16>, tensor<4x2xi64> -> tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_tokens(%x: tensor<4x8xbf16>, %i: tensor<5x2xi32>) {
  %init103 = tensor.empty() : tensor<8x8xbf16>
  %init104 = tensor.empty() : tensor<8xi32>
  %init105 = tensor.empty() : tensor<5x2xi32>
  // expected-error @+1 {{'moe.permute' op T mismatch: 'x' dim 0 is 4 but 'indices' dim 0 is 5}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 1 outs(%init103, %init104, %init105) : tensor<4x8xbf16>, tensor<5x2xi32> -> tensor<8x8xbf16>, tensor<8xi32>, tensor<5x2xi32>
  return
}

// -----

func.func @permute_num_experts_zero(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init106 = tensor.empty() : tensor<8x8xbf16>
  %init107 = tensor.empty() : tensor<0xi32>
  %init108 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op num_experts = 0 must be at least 1}}
  %xs, %s, %r = moe.permute %x, %i experts 0 align 1 outs(%init106, %init107, %init108) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<8x8xbf16>, tensor<0xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_align_zero(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init109 = tensor.empty() : tensor<0x8xbf16>
  %init110 = tensor.empty() : tensor<8xi32>
  %init111 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op align = 0 must be at least 1}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 0 outs(%init109, %init110, %init111) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<0x8xbf16>, tensor<8xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_align_negative_generic(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %dest29 = tensor.empty() : tensor<8x8xbf16>
  %dest30 = tensor.empty() : tensor<8xi32>
  %dest31 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op align = -16 must be at least 1}}
  %0:3 = "moe.permute"(%x, %i, %dest29, %dest30, %dest31) <{num_experts = 8 : i64, align = -16 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>, tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_rows_overflow(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init112 = tensor.empty() : tensor<1x8xbf16>
  %init113 = tensor.empty() : tensor<8xi32>
  %init114 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op R = T·K + E·(align − 1) overflows 64 bits (T = 4, K = 2, E = 8, align = 9223372036854775807)}}
  %xs, %s, %r = moe.permute %x, %i experts 8 align 9223372036854775807 outs(%init112, %init113, %init114) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<1x8xbf16>, tensor<8xi32>, tensor<4x2xi32>
  return
}

// -----

// The padding term overflows whatever T is.
func.func @permute_rows_overflow_dynamic_tokens(%x: tensor<?x8xbf16>, %i: tensor<?x2xi32>) {
  %init115 = tensor.empty() : tensor<1x8xbf16>
  %init116 = tensor.empty() : tensor<1xi32>
  %init117_c0 = arith.constant 0 : index
  %init117_d0 = tensor.dim %i, %init117_c0 : tensor<?x2xi32>
  %init117 = tensor.empty(%init117_d0) : tensor<?x2xi32>
  // expected-error @+1 {{'moe.permute' op R = T·K + E·(align − 1) overflows 64 bits (T = ?, K = 2, E = 4611686018427387904, align = 3)}}
  %xs, %s, %r = moe.permute %x, %i experts 4611686018427387904 align 3 outs(%init115, %init116, %init117) : tensor<?x8xbf16>, tensor<?x2xi32> -> tensor<1x8xbf16>, tensor<1xi32>, tensor<?x2xi32>
  return
}

// -----

func.func @permute_k_exceeds_experts(%x: tensor<4x8xbf16>, %i: tensor<4x3xi32>) {
  %init118 = tensor.empty() : tensor<12x8xbf16>
  %init119 = tensor.empty() : tensor<2xi32>
  %init120 = tensor.empty() : tensor<4x3xi32>
  // expected-error @+1 {{'moe.permute' op 'indices' selects K = 3 experts per token but num_experts = 2}}
  %xs, %s, %r = moe.permute %x, %i experts 2 align 1 outs(%init118, %init119, %init120) : tensor<4x8xbf16>, tensor<4x3xi32> -> tensor<12x8xbf16>, tensor<2xi32>, tensor<4x3xi32>
  return
}

// -----

// R = T·K + E·(align − 1) = 4·2 + 8·15 = 128, not 8.
func.func @permute_rows_formula(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %dest32 = tensor.empty() : tensor<8x8xbf16>
  %dest33 = tensor.empty() : tensor<8xi32>
  %dest34 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op result 'permuted' must be [128, 8] of bf16 (R = T·K + E·(align − 1) with E = 8, align = 16), got tensor<8x8xbf16>}}
  %0:3 = "moe.permute"(%x, %i, %dest32, %dest33, %dest34) <{num_experts = 8 : i64, align = 16 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>, tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

// R may exceed the bound (zero rows past the last group), but then the row
// width must still be H = 8.
func.func @permute_rows_above_bound_width(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %dest35 = tensor.empty() : tensor<256x4xbf16>
  %dest36 = tensor.empty() : tensor<8xi32>
  %dest37 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op result 'permuted' must be [256, 8] of bf16 (R ≥ T·K + E·(align − 1) = 128), got tensor<256x4xbf16>}}
  %0:3 = "moe.permute"(%x, %i, %dest35, %dest36, %dest37) <{num_experts = 8 : i64, align = 16 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>, tensor<256x4xbf16>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<256x4xbf16>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_permuted_element(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %dest35 = tensor.empty() : tensor<8x8xf32>
  %dest36 = tensor.empty() : tensor<8xi32>
  %dest37 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op result 'permuted' must be [8, 8] of bf16 (R = T·K + E·(align − 1) with E = 8, align = 1), got tensor<8x8xf32>}}
  %0:3 = "moe.permute"(%x, %i, %dest35, %dest36, %dest37) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>, tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_group_sizes(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %dest38 = tensor.empty() : tensor<8x8xbf16>
  %dest39 = tensor.empty() : tensor<4xi32>
  %dest40 = tensor.empty() : tensor<4x2xi32>
  // expected-error @+1 {{'moe.permute' op result 'group_sizes' must be [8] of i32 ([E] in i32), got tensor<4xi32>}}
  %0:3 = "moe.permute"(%x, %i, %dest38, %dest39, %dest40) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>, tensor<8x8xbf16>, tensor<4xi32>, tensor<4x2xi32>) -> (tensor<8x8xbf16>, tensor<4xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_rows_i64(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %dest41 = tensor.empty() : tensor<8x8xbf16>
  %dest42 = tensor.empty() : tensor<8xi32>
  %dest43 = tensor.empty() : tensor<4x2xi64>
  // expected-error @+1 {{'moe.permute' op result 'rows' must be [4, 2] of i32 ([T, K] in i32), got tensor<4x2xi64>}}
  %0:3 = "moe.permute"(%x, %i, %dest41, %dest42, %dest43) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xbf16>, tensor<4x2xi32>, tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi64>) -> (tensor<8x8xbf16>, tensor<8xi32>, tensor<4x2xi64>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.grouped_matmul
//===----------------------------------------------------------------------===//

func.func @grouped_matmul_a_rank(%a: tensor<8xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi32>) {
  %init121 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'a' must be a rank-2 tensor [R, Kd], got rank 1 (tensor<8xbf16>)}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init121) : tensor<8xbf16>, tensor<2x4x4xbf16>, tensor<2xi32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_a_element(%a: tensor<8x4xi8>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi32>) {
  %init122 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i8}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init122) : tensor<8x4xi8>, tensor<2x4x4xbf16>, tensor<2xi32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_b_rank_kn(%a: tensor<8x4xbf16>, %b: tensor<4x4xbf16>, %s: tensor<2xi32>) {
  %init123 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'b' must be a rank-3 tensor [G, Kd, N] (weight_layout kn), got rank 2 (tensor<4x4xbf16>)}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init123) : tensor<8x4xbf16>, tensor<4x4xbf16>, tensor<2xi32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_b_rank_nk(%a: tensor<8x4xbf16>, %b: tensor<4x4xbf16>, %s: tensor<2xi32>) {
  %init124 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'b' must be a rank-3 tensor [G, N, Kd] (weight_layout nk), got rank 2 (tensor<4x4xbf16>)}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init124) {weight_layout = #moe<weight_layout nk>} : tensor<8x4xbf16>, tensor<4x4xbf16>, tensor<2xi32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_sizes_rank(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<2x1xi32>) {
  %init125 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'group_sizes' must be a rank-1 tensor [G], got rank 2 (tensor<2x1xi32>)}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init125) : tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<2x1xi32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_sizes_rank0(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<i32>) {
  %init126 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'group_sizes' must be a rank-1 tensor [G], got rank 0 (tensor<i32>)}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init126) : tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<i32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_sizes_i64(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi64>) {
  %init127 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'group_sizes' must have i32 elements, got i64}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init127) : tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<2xi64> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_groups(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<3xi32>) {
  %init128 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op G mismatch: 'group_sizes' dim 0 is 3 but 'b' dim 0 is 2}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init128) : tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<3xi32> -> tensor<8x4xbf16>
  return
}

// -----

// [G, N, Kd] given to a kn matmul: Kd of 'a' (32) is b dim 2, not dim 1.
func.func @grouped_matmul_layout_kn(%a: tensor<8x32xbf16>, %b: tensor<2x48x32xbf16>, %s: tensor<2xi32>) {
  %init129 = tensor.empty() : tensor<8x32xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op Kd (weight_layout kn) mismatch: 'a' dim 1 is 32 but 'b' dim 1 is 48}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init129) : tensor<8x32xbf16>, tensor<2x48x32xbf16>, tensor<2xi32> -> tensor<8x32xbf16>
  return
}

// -----

func.func @grouped_matmul_layout_nk(%a: tensor<8x32xbf16>, %b: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  %init130 = tensor.empty() : tensor<8x32xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op Kd (weight_layout nk) mismatch: 'a' dim 1 is 32 but 'b' dim 2 is 48}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init130) {weight_layout = #moe<weight_layout nk>} : tensor<8x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<8x32xbf16>
  return
}

// -----

func.func @grouped_matmul_mixed_fp8(%a: tensor<8x4xf8E4M3FN>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi32>) {
  %init131 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'a' (f8E4M3FN) and 'b' (bf16) must both be FP8 or both not}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init131) : tensor<8x4xf8E4M3FN>, tensor<2x4x4xbf16>, tensor<2xi32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_e5m2_e5m2(%a: tensor<8x4xf8E5M2>, %b: tensor<2x4x4xf8E5M2>, %s: tensor<2xi32>, %sc: tensor<f32>) {
  %init132 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op FP8 grouped matmul needs at least one e4m3 operand; e5m2 × e5m2 is not supported}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%sc, %sc) outs(%init132) : tensor<8x4xf8E5M2>, tensor<2x4x4xf8E5M2>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_fp8_without_scales(%a: tensor<8x4xf8E4M3FN>, %b: tensor<2x4x4xf8E4M3FN>, %s: tensor<2xi32>) {
  %init133 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op FP8 operands need the scales: 'a_scale' and 'b_scale'}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init133) : tensor<8x4xf8E4M3FN>, tensor<2x4x4xf8E4M3FN>, tensor<2xi32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_fp8_one_scale(%a: tensor<8x4xf8E4M3FN>, %b: tensor<2x4x4xf8E4M3FN>, %s: tensor<2xi32>, %sc: tensor<f32>) {
  %dest44 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op FP8 operands need the scales: 'a_scale' and 'b_scale'}}
  %0 = "moe.grouped_matmul"(%a, %b, %s, %sc, %dest44) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 1, 0, 0, 0, 1>}> ({}) : (tensor<8x4xf8E4M3FN>, tensor<2x4x4xf8E4M3FN>, tensor<2xi32>, tensor<f32>, tensor<8x4xbf16>) -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_scale_dtype(%a: tensor<8x4xf8E4M3FN>, %b: tensor<2x4x4xf8E4M3FN>, %s: tensor<2xi32>, %as: tensor<bf16>, %bs: tensor<f32>) {
  %init134 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'a_scale' must be a 0-d f32 tensor (tensor-wise) or block scales, got tensor<bf16>}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) outs(%init134) : tensor<8x4xf8E4M3FN>, tensor<2x4x4xf8E4M3FN>, tensor<2xi32>, tensor<bf16>, tensor<f32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_a_block_scale_shape(%a: tensor<8x256xf8E4M3FN>, %b: tensor<2x256x4xf8E4M3FN>, %s: tensor<2xi32>, %as: tensor<8x1xf32>, %bs: tensor<f32>) {
  %init135 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'a_scale' must be [8, 2] of f32 (the scales of recipe block_1x128 for 'a' [8, 256]), got tensor<8x1xf32>}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) outs(%init135) : tensor<8x256xf8E4M3FN>, tensor<2x256x4xf8E4M3FN>, tensor<2xi32>, tensor<8x1xf32>, tensor<f32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_b_block_scale_shape(%a: tensor<8x256xf8E4M3FN>, %b: tensor<2x256x300xf8E4M3FN>, %s: tensor<2xi32>, %as: tensor<f32>, %bs: tensor<2x3x2xf32>) {
  %init136 = tensor.empty() : tensor<8x300xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'b_scale' must be [2, 2, 3] of f32 (the scales of recipe block_128x128 for 'b' [2, 256, 300]), got tensor<2x3x2xf32>}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) outs(%init136) : tensor<8x256xf8E4M3FN>, tensor<2x256x300xf8E4M3FN>, tensor<2xi32>, tensor<f32>, tensor<2x3x2xf32> -> tensor<8x300xbf16>
  return
}

// -----

func.func @grouped_matmul_block_scale_f16(%a: tensor<8x256xf8E4M3FN>, %b: tensor<2x256x4xf8E4M3FN>, %s: tensor<2xi32>, %as: tensor<8x2xf16>, %bs: tensor<f32>) {
  %init137 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'a_scale' must be [8, 2] of f32 (the scales of recipe block_1x128 for 'a' [8, 256]), got tensor<8x2xf16>}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%as, %bs) outs(%init137) : tensor<8x256xf8E4M3FN>, tensor<2x256x4xf8E4M3FN>, tensor<2xi32>, tensor<8x2xf16>, tensor<f32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_scales_without_fp8(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi32>, %sc: tensor<f32>) {
  %init138 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'a_scale' and 'b_scale' apply only to FP8 operands, got bf16}}
  %0 = moe.grouped_matmul %a, %b, %s scales(%sc, %sc) outs(%init138) : tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_element_mismatch(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xf32>, %s: tensor<2xi32>) {
  %init139 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'a' has bf16 elements but 'b' has f32}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init139) : tensor<8x4xbf16>, tensor<2x4x4xf32>, tensor<2xi32> -> tensor<8x4xbf16>
  return
}

// -----

func.func @grouped_matmul_result_fp8(%a: tensor<8x4xbf16>, %b: tensor<2x4x4xbf16>, %s: tensor<2xi32>) {
  %init140 = tensor.empty() : tensor<8x4xf8E4M3FN>
  // expected-error @+1 {{'moe.grouped_matmul' op result 'c' must be a tensor of bf16, f16 or f32, got tensor<8x4xf8E4M3FN>}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init140) : tensor<8x4xbf16>, tensor<2x4x4xbf16>, tensor<2xi32> -> tensor<8x4xf8E4M3FN>
  return
}

// -----

func.func @grouped_matmul_result_shape(%a: tensor<8x4xbf16>, %b: tensor<2x4x6xbf16>, %s: tensor<2xi32>) {
  %init141 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op result 'c' must be [8, 6] of bf16 ([R, N]), got tensor<8x4xbf16>}}
  %0 = moe.grouped_matmul %a, %b, %s outs(%init141) : tensor<8x4xbf16>, tensor<2x4x6xbf16>, tensor<2xi32> -> tensor<8x4xbf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.grouped_weight_grad
//===----------------------------------------------------------------------===//

func.func @weight_grad_a_rank(%a: tensor<8xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  %init142 = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a' must be a rank-2 tensor [R, Kd], got rank 1 (tensor<8xbf16>)}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init142) : tensor<8xbf16>, tensor<8x6xbf16>, tensor<2xi32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_a_fp8(%a: tensor<8x4xf8E4M3FN>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  %init143 = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a' (f8E4M3FN) and 'dc' (bf16) must both be FP8 or both not}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init143) : tensor<8x4xf8E4M3FN>, tensor<8x6xbf16>, tensor<2xi32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_a_i8(%a: tensor<8x4xi8>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i8}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init) : tensor<8x4xi8>, tensor<8x6xbf16>, tensor<2xi32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_transposed_a_rank(%a: tensor<4x8x1xbf16>, %dc: tensor<6x8xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a' must be a rank-2 tensor [Kd, R] (transposed_operands), got rank 3 (tensor<4x8x1xbf16>)}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init) {transposed_operands} : tensor<4x8x1xbf16>, tensor<6x8xbf16>, tensor<2xi32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_transposed_rows(%a: tensor<4x8xbf16>, %dc: tensor<6x16xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op R mismatch: 'a' dim 1 is 8 but 'dc' dim 1 is 16}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init) {transposed_operands} : tensor<4x8xbf16>, tensor<6x16xbf16>, tensor<2xi32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_transposed_result(%a: tensor<4x8xbf16>, %dc: tensor<6x8xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<2x8x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be [2, 4, 6] of f32 ([G, Kd, N] for weight_layout kn), got tensor<2x8x6xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init) {transposed_operands} : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<2xi32> -> tensor<2x8x6xf32>
  return
}

// -----

func.func @weight_grad_transposed_result_nk(%a: tensor<4x8xbf16>, %dc: tensor<6x8xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be [2, 6, 4] of f32 ([G, N, Kd] for weight_layout nk), got tensor<2x4x6xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init) {transposed_operands, weight_layout = #moe<weight_layout nk>} : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<2xi32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_fp8_not_transposed(%a: tensor<256x4xf8E4M3FN>, %dc: tensor<256x6xf8E5M2>, %s: tensor<2xi32>, %as: tensor<f32>, %ds: tensor<f32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op FP8 operands need 'transposed_operands' (a [Kd, R], dc [N, R], as columnwise quantization writes them); got a [256, 4] of f8E4M3FN, dc [256, 6] of f8E5M2}}
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) : tensor<256x4xf8E4M3FN>, tensor<256x6xf8E5M2>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_fp8_dc_not_fp8(%a: tensor<4x256xf8E4M3FN>, %dc: tensor<6x256xbf16>, %s: tensor<2xi32>, %as: tensor<f32>, %ds: tensor<f32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a' (f8E4M3FN) and 'dc' (bf16) must both be FP8 or both not}}
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) {transposed_operands} : tensor<4x256xf8E4M3FN>, tensor<6x256xbf16>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_fp8_no_scales(%a: tensor<4x256xf8E4M3FN>, %dc: tensor<6x256xf8E5M2>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op FP8 operands need the scales: 'a_scale' and 'dc_scale', got neither}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init) {transposed_operands} : tensor<4x256xf8E4M3FN>, tensor<6x256xf8E5M2>, tensor<2xi32> -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_fp8_only_a_scale(%a: tensor<4x256xf8E4M3FN>, %dc: tensor<6x256xf8E5M2>, %s: tensor<2xi32>, %as: tensor<f32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op FP8 operands need the scales: 'a_scale' and 'dc_scale', got only 'a_scale'}}
  %0 = "moe.grouped_weight_grad"(%a, %dc, %s, %as, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>, transposed_operands, weight_layout = #moe<weight_layout kn>}> : (tensor<4x256xf8E4M3FN>, tensor<6x256xf8E5M2>, tensor<2xi32>, tensor<f32>, tensor<2x4x6xbf16>) -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_fp8_only_dc_scale(%a: tensor<4x256xf8E4M3FN>, %dc: tensor<6x256xf8E5M2>, %s: tensor<2xi32>, %ds: tensor<f32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op FP8 operands need the scales: 'a_scale' and 'dc_scale', got only 'dc_scale'}}
  %0 = "moe.grouped_weight_grad"(%a, %dc, %s, %ds, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>, transposed_operands, weight_layout = #moe<weight_layout kn>}> : (tensor<4x256xf8E4M3FN>, tensor<6x256xf8E5M2>, tensor<2xi32>, tensor<f32>, tensor<2x4x6xbf16>) -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_scales_not_fp8(%a: tensor<4x256xbf16>, %dc: tensor<6x256xbf16>, %s: tensor<2xi32>, %as: tensor<f32>, %ds: tensor<f32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a_scale' and 'dc_scale' apply only to FP8 operands, got bf16}}
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) {transposed_operands} : tensor<4x256xbf16>, tensor<6x256xbf16>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_one_scale_not_fp8(%a: tensor<4x256xbf16>, %dc: tensor<6x256xbf16>, %s: tensor<2xi32>, %ds: tensor<f32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a_scale' and 'dc_scale' apply only to FP8 operands, got bf16}}
  %0 = "moe.grouped_weight_grad"(%a, %dc, %s, %ds, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>, transposed_operands, weight_layout = #moe<weight_layout kn>}> : (tensor<4x256xbf16>, tensor<6x256xbf16>, tensor<2xi32>, tensor<f32>, tensor<2x4x6xbf16>) -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_fp8_scale_f16(%a: tensor<4x256xf8E4M3FN>, %dc: tensor<6x256xf8E5M2>, %s: tensor<2xi32>, %as: tensor<f16>, %ds: tensor<f32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a_scale' must be a 0-d f32 tensor (tensor-wise) or block scales, got tensor<f16>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) {transposed_operands} : tensor<4x256xf8E4M3FN>, tensor<6x256xf8E5M2>, tensor<2xi32>, tensor<f16>, tensor<f32> -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_fp8_a_scale_blocks(%a: tensor<4x300xf8E4M3FN>, %dc: tensor<6x300xf8E5M2>, %s: tensor<2xi32>, %as: tensor<4x2xf32>, %ds: tensor<6x3xf32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a_scale' must be [4, 3] of f32 (the scales of recipe block_1x128 for 'a' [4, 300]), got tensor<4x2xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) {transposed_operands} : tensor<4x300xf8E4M3FN>, tensor<6x300xf8E5M2>, tensor<2xi32>, tensor<4x2xf32>, tensor<6x3xf32> -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_fp8_dc_scale_rows(%a: tensor<4x256xf8E4M3FN>, %dc: tensor<6x256xf8E5M2>, %s: tensor<2xi32>, %as: tensor<4x2xf32>, %ds: tensor<4x2xf32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'dc_scale' must be [6, 2] of f32 (the scales of recipe block_1x128 for 'dc' [6, 256]), got tensor<4x2xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) {transposed_operands} : tensor<4x256xf8E4M3FN>, tensor<6x256xf8E5M2>, tensor<2xi32>, tensor<4x2xf32>, tensor<4x2xf32> -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_fp8_scale_rank1(%a: tensor<4x256xf8E4M3FN>, %dc: tensor<6x256xf8E5M2>, %s: tensor<2xi32>, %as: tensor<4xf32>, %ds: tensor<6x2xf32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a_scale' must be [4, 2] of f32 (the scales of recipe block_1x128 for 'a' [4, 256]), got tensor<4xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) {transposed_operands} : tensor<4x256xf8E4M3FN>, tensor<6x256xf8E5M2>, tensor<2xi32>, tensor<4xf32>, tensor<6x2xf32> -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_fp8_mixed_scale_kinds(%a: tensor<4x256xf8E4M3FN>, %dc: tensor<6x256xf8E5M2>, %s: tensor<2xi32>, %as: tensor<f32>, %ds: tensor<6x2xf32>) {
  %init = tensor.empty() : tensor<2x4x6xbf16>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a_scale' (tensor<f32>) and 'dc_scale' (tensor<6x2xf32>) must both be 0-d (tensor-wise) or both block scales}}
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) {transposed_operands} : tensor<4x256xf8E4M3FN>, tensor<6x256xf8E5M2>, tensor<2xi32>, tensor<f32>, tensor<6x2xf32> -> tensor<2x4x6xbf16>
  return
}

// -----

func.func @weight_grad_fp8_result_f8(%a: tensor<4x256xf8E4M3FN>, %dc: tensor<6x256xf8E5M2>, %s: tensor<2xi32>, %as: tensor<f32>, %ds: tensor<f32>) {
  %init = tensor.empty() : tensor<2x4x6xf8E4M3FN>
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be a tensor of bf16, f16 or f32, got tensor<2x4x6xf8E4M3FN>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s scales(%as, %ds) outs(%init) {transposed_operands} : tensor<4x256xf8E4M3FN>, tensor<6x256xf8E5M2>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<2x4x6xf8E4M3FN>
  return
}

// -----

func.func @weight_grad_dc_rank(%a: tensor<8x4xbf16>, %dc: tensor<2x8x6xbf16>, %s: tensor<2xi32>) {
  %init144 = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'dc' must be a rank-2 tensor [R, N], got rank 3 (tensor<2x8x6xbf16>)}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init144) : tensor<8x4xbf16>, tensor<2x8x6xbf16>, tensor<2xi32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_rows(%a: tensor<8x4xbf16>, %dc: tensor<16x6xbf16>, %s: tensor<2xi32>) {
  %init145 = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op R mismatch: 'a' dim 0 is 8 but 'dc' dim 0 is 16}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init145) : tensor<8x4xbf16>, tensor<16x6xbf16>, tensor<2xi32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_sizes_rank(%a: tensor<8x4xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<i32>) {
  %init146 = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'group_sizes' must be a rank-1 tensor [G], got rank 0 (tensor<i32>)}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init146) : tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<i32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_element_mismatch(%a: tensor<8x4xbf16>, %dc: tensor<8x6xf16>, %s: tensor<2xi32>) {
  %init147 = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op 'a' has bf16 elements but 'dc' has f16}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init147) : tensor<8x4xbf16>, tensor<8x6xf16>, tensor<2xi32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_result_i32(%a: tensor<8x4xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  %init148 = tensor.empty() : tensor<2x4x6xi32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be a tensor of bf16, f16 or f32, got tensor<2x4x6xi32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init148) : tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<2xi32> -> tensor<2x4x6xi32>
  return
}

// -----

func.func @weight_grad_layout_kn(%a: tensor<8x4xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  %init149 = tensor.empty() : tensor<2x6x4xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be [2, 4, 6] of f32 ([G, Kd, N] for weight_layout kn), got tensor<2x6x4xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init149) : tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<2xi32> -> tensor<2x6x4xf32>
  return
}

// -----

func.func @weight_grad_layout_nk(%a: tensor<8x4xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  %init150 = tensor.empty() : tensor<2x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be [2, 6, 4] of f32 ([G, N, Kd] for weight_layout nk), got tensor<2x4x6xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init150) {weight_layout = #moe<weight_layout nk>} : tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<2xi32> -> tensor<2x4x6xf32>
  return
}

// -----

func.func @weight_grad_groups(%a: tensor<8x4xbf16>, %dc: tensor<8x6xbf16>, %s: tensor<2xi32>) {
  %init151 = tensor.empty() : tensor<3x4x6xf32>
  // expected-error @+1 {{'moe.grouped_weight_grad' op result 'db' must be [2, 4, 6] of f32 ([G, Kd, N] for weight_layout kn), got tensor<3x4x6xf32>}}
  %0 = moe.grouped_weight_grad %a, %dc, %s outs(%init151) : tensor<8x4xbf16>, tensor<8x6xbf16>, tensor<2xi32> -> tensor<3x4x6xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.glu
//===----------------------------------------------------------------------===//

func.func @glu_fused_odd(%gu: tensor<4x7xbf16>) {
  %init152 = tensor.empty() : tensor<4x3xbf16>
  // expected-error @+1 {{'moe.glu' op 'gate' holds gate and up side by side and needs an even last dim (2F), got 7}}
  %0 = moe.glu silu %gu outs(%init152) : tensor<4x7xbf16> -> tensor<4x3xbf16>
  return
}

// -----

func.func @glu_fused_rank(%gu: tensor<2x4x8xbf16>) {
  %init8 = tensor.empty() : tensor<1xf32>
  // expected-error @+1 {{'moe.glu' op 'gate' must be a rank-2 tensor [R, 2F] (gate and up), got rank 3 (tensor<2x4x8xbf16>)}}
  %0 = moe.glu silu %gu outs(%init8) : tensor<2x4x8xbf16> -> tensor<1xf32>
  return
}

// -----

func.func @glu_gate_element(%g: tensor<4x8xi32>, %u: tensor<4x8xi32>) {
  %init153 = tensor.empty() : tensor<4x8xi32>
  // expected-error @+1 {{'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got i32}}
  %0 = moe.glu silu %g, %u outs(%init153) : tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xi32>
  return
}

// -----

func.func @glu_up_rank(%g: tensor<4x8xbf16>, %u: tensor<32xbf16>) {
  %init154 = tensor.empty() : tensor<4x8xbf16>
  // expected-error @+1 {{'moe.glu' op 'up' must be a rank-2 tensor [R, F], got rank 1 (tensor<32xbf16>)}}
  %0 = moe.glu silu %g, %u outs(%init154) : tensor<4x8xbf16>, tensor<32xbf16> -> tensor<4x8xbf16>
  return
}

// -----

func.func @glu_rows(%g: tensor<4x8xbf16>, %u: tensor<5x8xbf16>) {
  %init155 = tensor.empty() : tensor<4x8xbf16>
  // expected-error @+1 {{'moe.glu' op R mismatch: 'gate' dim 0 is 4 but 'up' dim 0 is 5}}
  %0 = moe.glu silu %g, %u outs(%init155) : tensor<4x8xbf16>, tensor<5x8xbf16> -> tensor<4x8xbf16>
  return
}

// -----

func.func @glu_width(%g: tensor<4x8xbf16>, %u: tensor<4x16xbf16>) {
  %init156 = tensor.empty() : tensor<4x8xbf16>
  // expected-error @+1 {{'moe.glu' op F mismatch: 'gate' dim 1 is 8 but 'up' dim 1 is 16}}
  %0 = moe.glu gelu %g, %u outs(%init156) : tensor<4x8xbf16>, tensor<4x16xbf16> -> tensor<4x8xbf16>
  return
}

// -----

func.func @glu_element_mismatch(%g: tensor<4x8xbf16>, %u: tensor<4x8xf32>) {
  %init157 = tensor.empty() : tensor<4x8xbf16>
  // expected-error @+1 {{'moe.glu' op 'gate' has bf16 elements but 'up' has f32}}
  %0 = moe.glu relu2 %g, %u outs(%init157) : tensor<4x8xbf16>, tensor<4x8xf32> -> tensor<4x8xbf16>
  return
}

// -----

func.func @glu_fused_result(%gu: tensor<4x16xbf16>) {
  %dest45 = tensor.empty() : tensor<4x16xbf16>
  // expected-error @+1 {{'moe.glu' op result 'h' must be [4, 8] of bf16 ([R, F] with the element type of 'gate'), got tensor<4x16xbf16>}}
  %0 = "moe.glu"(%gu, %dest45) <{operandSegmentSizes = array<i32: 1, 0, 1>, activation = #moe<activation silu>}> : (tensor<4x16xbf16>, tensor<4x16xbf16>) -> tensor<4x16xbf16>
  return
}

// -----

func.func @glu_result_element(%g: tensor<4x8xbf16>, %u: tensor<4x8xbf16>) {
  %dest46 = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{'moe.glu' op result 'h' must be [4, 8] of bf16 ([R, F] with the element type of 'gate'), got tensor<4x8xf32>}}
  %0 = "moe.glu"(%g, %u, %dest46) <{operandSegmentSizes = array<i32: 1, 1, 1>, activation = #moe<activation silu>}> : (tensor<4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.all_to_all
//===----------------------------------------------------------------------===//

shard.grid @ep(shape = 4)
func.func @all_to_all_input_element(%x: tensor<8x4xi32>, %s: tensor<4xi32>) {
  %init158 = tensor.empty() : tensor<8x4xi32>
  %init159 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i32}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%init158, %init159) : tensor<8x4xi32>, tensor<4xi32> -> tensor<8x4xi32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_input_rank(%x: tensor<8xf32>, %s: tensor<4xi32>) {
  %init160 = tensor.empty() : tensor<8xf32>
  %init161 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.all_to_all' op 'input' must be a rank-2 tensor [R, H], got rank 1 (tensor<8xf32>)}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%init160, %init161) : tensor<8xf32>, tensor<4xi32> -> tensor<8xf32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_send_sizes_rank(%x: tensor<8x4xf32>, %s: tensor<i32>) {
  %init162 = tensor.empty() : tensor<8x4xf32>
  %init163 = tensor.empty() : tensor<i32>
  // expected-error @+1 {{'moe.all_to_all' op 'send_sizes' must be a rank-1 tensor [P·C], got rank 0 (tensor<i32>)}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%init162, %init163) : tensor<8x4xf32>, tensor<i32> -> tensor<8x4xf32>, tensor<i32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_send_sizes_i64(%x: tensor<8x4xf32>, %s: tensor<4xi64>) {
  %init164 = tensor.empty() : tensor<8x4xf32>
  %init165 = tensor.empty() : tensor<4xi64>
  // expected-error @+1 {{'moe.all_to_all' op 'send_sizes' must have i32 elements, got i64}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%init164, %init165) : tensor<8x4xf32>, tensor<4xi64> -> tensor<8x4xf32>, tensor<4xi64>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_axis_negative(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init166 = tensor.empty() : tensor<8x4xf32>
  %init167 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.all_to_all' op grid_axis = -1 must be ≥ 0}}
  %0:2 = moe.all_to_all %x, %s on @ep axis -1 outs(%init166, %init167) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xf32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_output_element(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init168 = tensor.empty() : tensor<8x4xbf16>
  %init169 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.all_to_all' op result 'output' must be a rank-2 tensor [R', H] of f32, got tensor<8x4xbf16>}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%init168, %init169) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xbf16>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_output_rank(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init170 = tensor.empty() : tensor<32xf32>
  %init171 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.all_to_all' op result 'output' must be a rank-2 tensor [R', H] of f32, got tensor<32xf32>}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%init170, %init171) : tensor<8x4xf32>, tensor<4xi32> -> tensor<32xf32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_hidden(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init172 = tensor.empty() : tensor<8x8xf32>
  %init173 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.all_to_all' op H mismatch: 'input' dim 1 is 4 but 'output' dim 1 is 8}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%init172, %init173) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x8xf32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_recv_sizes(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init174 = tensor.empty() : tensor<8x4xf32>
  %init175 = tensor.empty() : tensor<2xi32>
  // expected-error @+1 {{'moe.all_to_all' op result 'recv_sizes' must be [4] of i32 (one count per chunk, like 'send_sizes'), got tensor<2xi32>}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%init174, %init175) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xf32>, tensor<2xi32>
  return
}

// -----

func.func @all_to_all_unknown_grid(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init176 = tensor.empty() : tensor<8x4xf32>
  %init177 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.all_to_all' op grid @ep does not name a shard.grid}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%init176, %init177) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xf32>, tensor<4xi32>
  return
}

// -----

func.func @all_to_all_grid_is_a_function(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init178 = tensor.empty() : tensor<8x4xf32>
  %init179 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.all_to_all' op grid @all_to_all_grid_is_a_function does not name a shard.grid}}
  %0:2 = moe.all_to_all %x, %s on @all_to_all_grid_is_a_function axis 0 outs(%init178, %init179) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xf32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 2x4)
func.func @all_to_all_axis_out_of_range(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init180 = tensor.empty() : tensor<8x4xf32>
  %init181 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.all_to_all' op grid axis 2 is out of range for grid @ep of rank 2}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 2 outs(%init180, %init181) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xf32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 2x4)
func.func @all_to_all_send_sizes_vs_axis(%x: tensor<8x4xf32>, %s: tensor<6xi32>) {
  %init182 = tensor.empty() : tensor<8x4xf32>
  %init183 = tensor.empty() : tensor<6xi32>
  // expected-error @+1 {{'moe.all_to_all' op 'send_sizes' has 6 entries, not a positive multiple of the 4 ranks of axis 1 of grid @ep (C chunks per rank)}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 1 outs(%init182, %init183) : tensor<8x4xf32>, tensor<6xi32> -> tensor<8x4xf32>, tensor<6xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_no_chunks(%x: tensor<8x4xf32>, %s: tensor<0xi32>) {
  %y0 = tensor.empty() : tensor<8x4xf32>
  %r0 = tensor.empty() : tensor<0xi32>
  // expected-error @+1 {{'moe.all_to_all' op 'send_sizes' has 0 entries, not a positive multiple of the 4 ranks of axis 0 of grid @ep (C chunks per rank)}}
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%y0, %r0) : tensor<8x4xf32>, tensor<0xi32> -> tensor<8x4xf32>, tensor<0xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.permute_rows
//===----------------------------------------------------------------------===//

func.func @permute_rows_x_element(%x: tensor<8x4xi32>, %rows: tensor<8x2xi32>) {
  %p0 = tensor.empty() : tensor<16x4xi32>
  // expected-error @+1 {{'moe.permute_rows' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i32}}
  %0 = moe.permute_rows %x, %rows outs(%p0) : tensor<8x4xi32>, tensor<8x2xi32> -> tensor<16x4xi32>
  return
}

// -----

func.func @permute_rows_rows_i64(%x: tensor<8x4xf32>, %rows: tensor<8x2xi64>) {
  %p0 = tensor.empty() : tensor<16x4xf32>
  // expected-error @+1 {{'moe.permute_rows' op 'rows' must have i32 elements, got i64}}
  %0 = moe.permute_rows %x, %rows outs(%p0) : tensor<8x4xf32>, tensor<8x2xi64> -> tensor<16x4xf32>
  return
}

// -----

func.func @permute_rows_tokens(%x: tensor<8x4xf32>, %rows: tensor<6x2xi32>) {
  %p0 = tensor.empty() : tensor<16x4xf32>
  // expected-error @+1 {{'moe.permute_rows' op T mismatch: 'x' dim 0 is 8 but 'rows' dim 0 is 6}}
  %0 = moe.permute_rows %x, %rows outs(%p0) : tensor<8x4xf32>, tensor<6x2xi32> -> tensor<16x4xf32>
  return
}

// -----

func.func @permute_rows_width(%x: tensor<8x4xf32>, %rows: tensor<8x2xi32>) {
  %p0 = tensor.empty() : tensor<16x3xf32>
  // expected-error @+1 {{'moe.permute_rows' op result 'permuted' must be [16, 4] of f32 ([R, C] with the element type of 'x'), got tensor<16x3xf32>}}
  %0 = moe.permute_rows %x, %rows outs(%p0) : tensor<8x4xf32>, tensor<8x2xi32> -> tensor<16x3xf32>
  return
}

// -----

func.func @permute_rows_element(%x: tensor<8x4xf32>, %rows: tensor<8x2xi32>) {
  %p0 = tensor.empty() : tensor<16x4xbf16>
  // expected-error @+1 {{'moe.permute_rows' op result 'permuted' must be [16, 4] of f32 ([R, C] with the element type of 'x'), got tensor<16x4xbf16>}}
  %0 = moe.permute_rows %x, %rows outs(%p0) : tensor<8x4xf32>, tensor<8x2xi32> -> tensor<16x4xbf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.sort_chunks
//===----------------------------------------------------------------------===//

func.func @sort_chunks_x_rank(%x: tensor<8xf32>, %c: tensor<6xi32>) {
  %y0 = tensor.empty() : tensor<8xf32>
  %s0 = tensor.empty() : tensor<3xi32>
  // expected-error @+1 {{'moe.sort_chunks' op 'x' must be a rank-2 tensor [R, H], got rank 1 (tensor<8xf32>)}}
  %0:2 = moe.sort_chunks %x, %c outs(%y0, %s0) : tensor<8xf32>, tensor<6xi32> -> tensor<8xf32>, tensor<3xi32>
  return
}

// -----

func.func @sort_chunks_x_element(%x: tensor<8x4xi32>, %c: tensor<6xi32>) {
  %y0 = tensor.empty() : tensor<8x4xi32>
  %s0 = tensor.empty() : tensor<3xi32>
  // expected-error @+1 {{'moe.sort_chunks' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i32}}
  %0:2 = moe.sort_chunks %x, %c outs(%y0, %s0) : tensor<8x4xi32>, tensor<6xi32> -> tensor<8x4xi32>, tensor<3xi32>
  return
}

// -----

func.func @sort_chunks_counts_rank(%x: tensor<8x4xf32>, %c: tensor<2x3xi32>) {
  %y0 = tensor.empty() : tensor<8x4xf32>
  %s0 = tensor.empty() : tensor<3xi32>
  // expected-error @+1 {{'moe.sort_chunks' op 'counts' must be a rank-1 tensor [N] (N = P·C), got rank 2 (tensor<2x3xi32>)}}
  %0:2 = moe.sort_chunks %x, %c outs(%y0, %s0) : tensor<8x4xf32>, tensor<2x3xi32> -> tensor<8x4xf32>, tensor<3xi32>
  return
}

// -----

func.func @sort_chunks_counts_i64(%x: tensor<8x4xf32>, %c: tensor<6xi64>) {
  %y0 = tensor.empty() : tensor<8x4xf32>
  %s0 = tensor.empty() : tensor<3xi32>
  // expected-error @+1 {{'moe.sort_chunks' op 'counts' must have i32 elements, got i64}}
  %0:2 = moe.sort_chunks %x, %c outs(%y0, %s0) : tensor<8x4xf32>, tensor<6xi64> -> tensor<8x4xf32>, tensor<3xi32>
  return
}

// -----

func.func @sort_chunks_output_shape(%x: tensor<8x4xf32>, %c: tensor<6xi32>) {
  %y0 = tensor.empty() : tensor<9x4xf32>
  %s0 = tensor.empty() : tensor<3xi32>
  // expected-error @+1 {{'moe.sort_chunks' op result 'output' must be [8, 4] of f32 (the shape and element type of 'x'), got tensor<9x4xf32>}}
  %0:2 = moe.sort_chunks %x, %c outs(%y0, %s0) : tensor<8x4xf32>, tensor<6xi32> -> tensor<9x4xf32>, tensor<3xi32>
  return
}

// -----

func.func @sort_chunks_output_element(%x: tensor<8x4xf32>, %c: tensor<6xi32>) {
  %y0 = tensor.empty() : tensor<8x4xbf16>
  %s0 = tensor.empty() : tensor<3xi32>
  // expected-error @+1 {{'moe.sort_chunks' op result 'output' must be [8, 4] of f32 (the shape and element type of 'x'), got tensor<8x4xbf16>}}
  %0:2 = moe.sort_chunks %x, %c outs(%y0, %s0) : tensor<8x4xf32>, tensor<6xi32> -> tensor<8x4xbf16>, tensor<3xi32>
  return
}

// -----

func.func @sort_chunks_sizes_i64(%x: tensor<8x4xf32>, %c: tensor<6xi32>) {
  %y0 = tensor.empty() : tensor<8x4xf32>
  %s0 = tensor.empty() : tensor<3xi64>
  // expected-error @+1 {{'moe.sort_chunks' op result 'sizes' must be a 1-D tensor of i32 (C: rows per local chunk), got tensor<3xi64>}}
  %0:2 = moe.sort_chunks %x, %c outs(%y0, %s0) : tensor<8x4xf32>, tensor<6xi32> -> tensor<8x4xf32>, tensor<3xi64>
  return
}

// -----

func.func @sort_chunks_sizes_rank(%x: tensor<8x4xf32>, %c: tensor<6xi32>) {
  %y0 = tensor.empty() : tensor<8x4xf32>
  %s0 = tensor.empty() : tensor<i32>
  // expected-error @+1 {{'moe.sort_chunks' op result 'sizes' must be a 1-D tensor of i32 (P: rows per rank), got tensor<i32>}}
  %0:2 = moe.sort_chunks inverse %x, %c outs(%y0, %s0) : tensor<8x4xf32>, tensor<6xi32> -> tensor<8x4xf32>, tensor<i32>
  return
}

// -----

func.func @sort_chunks_sizes_empty(%x: tensor<8x4xf32>, %c: tensor<6xi32>) {
  %y0 = tensor.empty() : tensor<8x4xf32>
  %s0 = tensor.empty() : tensor<0xi32>
  // expected-error @+1 {{'moe.sort_chunks' op result 'sizes' must have at least one entry (C: rows per local chunk)}}
  %0:2 = moe.sort_chunks %x, %c outs(%y0, %s0) : tensor<8x4xf32>, tensor<6xi32> -> tensor<8x4xf32>, tensor<0xi32>
  return
}

// -----

func.func @sort_chunks_not_divisible(%x: tensor<8x4xf32>, %c: tensor<6xi32>) {
  %y0 = tensor.empty() : tensor<8x4xf32>
  %s0 = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{'moe.sort_chunks' op 'counts' has N = 6 entries, not divisible by the 4 entries of result 'sizes' (P: rows per rank)}}
  %0:2 = moe.sort_chunks inverse %x, %c outs(%y0, %s0) : tensor<8x4xf32>, tensor<6xi32> -> tensor<8x4xf32>, tensor<4xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.all_reduce
//===----------------------------------------------------------------------===//

shard.grid @ep(shape = 4)
func.func @all_reduce_element(%x: tensor<4xbf16>) {
  %y0 = tensor.empty() : tensor<4xbf16>
  // expected-error @+1 {{'moe.all_reduce' op 'input' must have f32, f64, i32 or i64 elements, got bf16}}
  %0 = moe.all_reduce %x on @ep axes [0] outs(%y0) : tensor<4xbf16> -> tensor<4xbf16>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_reduce_output(%x: tensor<4xf32>) {
  %y0 = tensor.empty() : tensor<4xf64>
  // expected-error @+1 {{'moe.all_reduce' op result 'output' must be [4] of f32 (the shape and element type of 'input'), got tensor<4xf64>}}
  %0 = moe.all_reduce %x on @ep axes [0] outs(%y0) : tensor<4xf32> -> tensor<4xf64>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_reduce_no_axes(%x: tensor<f32>) {
  %y0 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.all_reduce' op needs at least one grid axis to sum over}}
  %0 = moe.all_reduce %x on @ep axes [] outs(%y0) : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @all_reduce_missing_grid(%x: tensor<f32>) {
  %y0 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.all_reduce' op grid @nowhere does not name a shard.grid}}
  %0 = moe.all_reduce %x on @nowhere axes [0] outs(%y0) : tensor<f32> -> tensor<f32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_reduce_axis_range(%x: tensor<f32>) {
  %y0 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.all_reduce' op grid axis 1 is out of range for grid @ep of rank 1}}
  %0 = moe.all_reduce %x on @ep axes [1] outs(%y0) : tensor<f32> -> tensor<f32>
  return
}

// -----

shard.grid @ep(shape = 2x2)
func.func @all_reduce_axis_twice(%x: tensor<f32>) {
  %y0 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.all_reduce' op grid axis 1 is listed twice}}
  %0 = moe.all_reduce %x on @ep axes [1, 1] outs(%y0) : tensor<f32> -> tensor<f32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.combine
//===----------------------------------------------------------------------===//

func.func @combine_y_fp8(%y: tensor<8x4xf8E4M3FN>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init184 = tensor.empty() : tensor<4x4xf8E4M3FN>
  // expected-error @+1 {{'moe.combine' op 'y' must have bf16, f16 or f32 elements, got f8E4M3FN}}
  %0 = moe.combine %y, %r, %w outs(%init184) : tensor<8x4xf8E4M3FN>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<4x4xf8E4M3FN>
  return
}

// -----

func.func @combine_rows_i64(%y: tensor<8x4xbf16>, %r: tensor<4x2xi64>, %w: tensor<4x2xf32>) {
  %init185 = tensor.empty() : tensor<4x4xbf16>
  // expected-error @+1 {{'moe.combine' op 'rows' must have i32 elements, got i64}}
  %0 = moe.combine %y, %r, %w outs(%init185) : tensor<8x4xbf16>, tensor<4x2xi64>, tensor<4x2xf32> -> tensor<4x4xbf16>
  return
}

// -----

func.func @combine_weights_bf16(%y: tensor<8x4xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xbf16>) {
  %init186 = tensor.empty() : tensor<4x4xbf16>
  // expected-error @+1 {{'moe.combine' op 'weights' must have f32 elements, got bf16}}
  %0 = moe.combine %y, %r, %w outs(%init186) : tensor<8x4xbf16>, tensor<4x2xi32>, tensor<4x2xbf16> -> tensor<4x4xbf16>
  return
}

// -----

func.func @combine_weights_rank(%y: tensor<8x4xbf16>, %r: tensor<4x2xi32>, %w: tensor<8xf32>) {
  %init187 = tensor.empty() : tensor<4x4xbf16>
  // expected-error @+1 {{'moe.combine' op 'weights' must be a rank-2 tensor [T, K], got rank 1 (tensor<8xf32>)}}
  %0 = moe.combine %y, %r, %w outs(%init187) : tensor<8x4xbf16>, tensor<4x2xi32>, tensor<8xf32> -> tensor<4x4xbf16>
  return
}

// -----

func.func @combine_tokens(%y: tensor<8x4xbf16>, %r: tensor<4x2xi32>, %w: tensor<3x2xf32>) {
  %init188 = tensor.empty() : tensor<4x4xbf16>
  // expected-error @+1 {{'moe.combine' op T mismatch: 'rows' dim 0 is 4 but 'weights' dim 0 is 3}}
  %0 = moe.combine %y, %r, %w outs(%init188) : tensor<8x4xbf16>, tensor<4x2xi32>, tensor<3x2xf32> -> tensor<4x4xbf16>
  return
}

// -----

func.func @combine_topk(%y: tensor<8x4xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x1xf32>) {
  %init189 = tensor.empty() : tensor<4x4xbf16>
  // expected-error @+1 {{'moe.combine' op K mismatch: 'rows' dim 1 is 2 but 'weights' dim 1 is 1}}
  %0 = moe.combine %y, %r, %w outs(%init189) : tensor<8x4xbf16>, tensor<4x2xi32>, tensor<4x1xf32> -> tensor<4x4xbf16>
  return
}

// -----

func.func @combine_result(%y: tensor<8x4xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest47 = tensor.empty() : tensor<8x4xbf16>
  // expected-error @+1 {{'moe.combine' op result 'out' must be [4, 4] of bf16 ([T, H] with the element type of 'y'), got tensor<8x4xbf16>}}
  %0 = "moe.combine"(%y, %r, %w, %dest47) : (tensor<8x4xbf16>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<8x4xbf16>) -> tensor<8x4xbf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.quantize
//===----------------------------------------------------------------------===//

func.func @quantize_rank0(%x: tensor<f32>) {
  %init190 = tensor.empty() : tensor<f8E4M3FN>
  %init191 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op 'input' must be a ranked tensor of rank ≥ 1, got tensor<f32>}}
  %0:2 = moe.quantize tensorwise %x outs(%init190, %init191) : tensor<f32> -> tensor<f8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @quantize_input_fp8(%x: tensor<4x8xf8E5M2>) {
  %init192 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init193 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got f8E5M2}}
  %0:2 = moe.quantize tensorwise %x outs(%init192, %init193) : tensor<4x8xf8E5M2> -> tensor<4x8xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @quantize_output_not_fp8(%x: tensor<4x8xf32>) {
  %init194 = tensor.empty() : tensor<4x8xbf16>
  %init195 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op result 'output' must be a tensor of f8E4M3FN or f8E5M2, got tensor<4x8xbf16>}}
  %0:2 = moe.quantize tensorwise %x outs(%init194, %init195) : tensor<4x8xf32> -> tensor<4x8xbf16>, tensor<f32>
  return
}

// -----

func.func @quantize_output_e4m3fnuz(%x: tensor<4x8xf32>) {
  %init196 = tensor.empty() : tensor<4x8xf8E4M3FNUZ>
  %init197 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op result 'output' must be a tensor of f8E4M3FN or f8E5M2, got tensor<4x8xf8E4M3FNUZ>}}
  %0:2 = moe.quantize tensorwise %x outs(%init196, %init197) : tensor<4x8xf32> -> tensor<4x8xf8E4M3FNUZ>, tensor<f32>
  return
}

// -----

func.func @quantize_output_shape(%x: tensor<4x8xf32>) {
  %init198 = tensor.empty() : tensor<8x4xf8E4M3FN>
  %init199 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op result 'output' must be [4, 8] of f8E4M3FN (the shape of 'input'), got tensor<8x4xf8E4M3FN>}}
  %0:2 = moe.quantize tensorwise %x outs(%init198, %init199) : tensor<4x8xf32> -> tensor<8x4xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @quantize_tensorwise_scale(%x: tensor<4x8xf32>) {
  %init200 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init201 = tensor.empty() : tensor<4x1xf32>
  // expected-error @+1 {{'moe.quantize' op result 'scale' must be [] of f32 (the scales of recipe tensorwise for 'input' [4, 8]), got tensor<4x1xf32>}}
  %0:2 = moe.quantize tensorwise %x outs(%init200, %init201) : tensor<4x8xf32> -> tensor<4x8xf8E4M3FN>, tensor<4x1xf32>
  return
}

// -----

func.func @quantize_block_1x128_scale(%x: tensor<4x300xf32>) {
  %init202 = tensor.empty() : tensor<4x300xf8E4M3FN>
  %init203 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.quantize' op result 'scale' must be [4, 3] of f32 (the scales of recipe block_1x128 for 'input' [4, 300]), got tensor<4x2xf32>}}
  %0:2 = moe.quantize block_1x128 %x outs(%init202, %init203) : tensor<4x300xf32> -> tensor<4x300xf8E4M3FN>, tensor<4x2xf32>
  return
}

// -----

func.func @quantize_block_128x128_scale(%x: tensor<2x256x300xbf16>) {
  %init204 = tensor.empty() : tensor<2x256x300xf8E4M3FN>
  %init205 = tensor.empty() : tensor<2x256x3xf32>
  // expected-error @+1 {{'moe.quantize' op result 'scale' must be [2, 2, 3] of f32 (the scales of recipe block_128x128 for 'input' [2, 256, 300]), got tensor<2x256x3xf32>}}
  %0:2 = moe.quantize block_128x128 %x outs(%init204, %init205) : tensor<2x256x300xbf16> -> tensor<2x256x300xf8E4M3FN>, tensor<2x256x3xf32>
  return
}

// -----

func.func @quantize_block_rank1(%x: tensor<300xbf16>) {
  %init206 = tensor.empty() : tensor<300xf8E4M3FN>
  %init207 = tensor.empty() : tensor<3xf32>
  // expected-error @+1 {{'moe.quantize' op recipe block_1x128 needs 'input' of rank ≥ 2 ([..., M, N]), got rank 1}}
  %0:2 = moe.quantize block_1x128 %x outs(%init206, %init207) : tensor<300xbf16> -> tensor<300xf8E4M3FN>, tensor<3xf32>
  return
}

// -----

func.func @quantize_mx_scale_f32(%x: tensor<4x64xbf16>) {
  %init208 = tensor.empty() : tensor<4x64xf8E4M3FN>
  %init209 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.quantize' op result 'scale' must be [4, 2] of f8E8M0FNU (the scales of recipe mx_1x32 for 'input' [4, 64]), got tensor<4x2xf32>}}
  %0:2 = moe.quantize mx_1x32 %x outs(%init208, %init209) : tensor<4x64xbf16> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf32>
  return
}

// -----

func.func @quantize_block_scale_e8m0(%x: tensor<4x256xbf16>) {
  %init210 = tensor.empty() : tensor<4x256xf8E4M3FN>
  %init211 = tensor.empty() : tensor<4x2xf8E8M0FNU>
  // expected-error @+1 {{'moe.quantize' op result 'scale' must be [4, 2] of f32 (the scales of recipe block_1x128 for 'input' [4, 256]), got tensor<4x2xf8E8M0FNU>}}
  %0:2 = moe.quantize block_1x128 %x outs(%init210, %init211) : tensor<4x256xbf16> -> tensor<4x256xf8E4M3FN>, tensor<4x2xf8E8M0FNU>
  return
}

// -----

func.func @quantize_delayed_without_history(%x: tensor<4x8xf32>) {
  %init212 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init213 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op recipe delayed needs the 'amax_history' operand}}
  %0:2 = moe.quantize delayed %x outs(%init212, %init213) : tensor<4x8xf32> -> tensor<4x8xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @quantize_history_without_delayed(%x: tensor<4x8xf32>, %h: tensor<16xf32>) {
  %init214 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init215 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op 'amax_history' applies only to recipe delayed}}
  %0:3 = moe.quantize tensorwise %x outs(%init214, %init215, %h) : tensor<4x8xf32> -> tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>
  return
}

// -----

func.func @quantize_history_rank(%x: tensor<4x8xf32>, %h: tensor<2x16xf32>) {
  %init220 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init221 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op 'amax_history' must be a rank-1 tensor [L], got rank 2 (tensor<2x16xf32>)}}
  %0:3 = moe.quantize delayed %x outs(%init220, %init221, %h) : tensor<4x8xf32> -> tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<2x16xf32>
  return
}

// -----

func.func @quantize_history_bf16(%x: tensor<4x8xf32>, %h: tensor<16xbf16>) {
  %init222 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init223 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op 'amax_history' must have f32 elements, got bf16}}
  %0:3 = moe.quantize delayed %x outs(%init222, %init223, %h) : tensor<4x8xf32> -> tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xbf16>
  return
}

// -----

func.func @quantize_history_empty(%x: tensor<4x8xf32>, %h: tensor<0xf32>) {
  %init224 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init225 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.quantize' op 'amax_history' must hold at least one entry}}
  %0:3 = moe.quantize delayed %x outs(%init224, %init225, %h) : tensor<4x8xf32> -> tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<0xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// moe.dequantize
//===----------------------------------------------------------------------===//

func.func @dequantize_input_not_fp8(%x: tensor<4x8xbf16>, %s: tensor<f32>) {
  %init228 = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got bf16}}
  %0 = moe.dequantize tensorwise %x, %s outs(%init228) : tensor<4x8xbf16>, tensor<f32> -> tensor<4x8xf32>
  return
}

// -----

func.func @dequantize_input_rank0(%x: tensor<f8E4M3FN>, %s: tensor<f32>) {
  %init229 = tensor.empty() : tensor<f32>
  // expected-error @+1 {{'moe.dequantize' op 'input' must be a ranked tensor of rank ≥ 1, got tensor<f8E4M3FN>}}
  %0 = moe.dequantize tensorwise %x, %s outs(%init229) : tensor<f8E4M3FN>, tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @dequantize_scale_shape(%x: tensor<4x256xf8E4M3FN>, %s: tensor<4x1xf32>) {
  %init230 = tensor.empty() : tensor<4x256xbf16>
  // expected-error @+1 {{'moe.dequantize' op 'scale' must be [4, 2] of f32 (the scales of recipe block_1x128 for 'input' [4, 256]), got tensor<4x1xf32>}}
  %0 = moe.dequantize block_1x128 %x, %s outs(%init230) : tensor<4x256xf8E4M3FN>, tensor<4x1xf32> -> tensor<4x256xbf16>
  return
}

// -----

func.func @dequantize_mx_scale_dtype(%x: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf32>) {
  %init231 = tensor.empty() : tensor<4x64xbf16>
  // expected-error @+1 {{'moe.dequantize' op 'scale' must be [4, 2] of f8E8M0FNU (the scales of recipe mx_1x32 for 'input' [4, 64]), got tensor<4x2xf32>}}
  %0 = moe.dequantize mx_1x32 %x, %s outs(%init231) : tensor<4x64xf8E4M3FN>, tensor<4x2xf32> -> tensor<4x64xbf16>
  return
}

// -----

func.func @dequantize_block_rank1(%x: tensor<256xf8E4M3FN>, %s: tensor<2x2xf32>) {
  %init232 = tensor.empty() : tensor<256xbf16>
  // expected-error @+1 {{'moe.dequantize' op recipe block_128x128 needs 'input' of rank ≥ 2 ([..., M, N]), got rank 1}}
  %0 = moe.dequantize block_128x128 %x, %s outs(%init232) : tensor<256xf8E4M3FN>, tensor<2x2xf32> -> tensor<256xbf16>
  return
}

// -----

func.func @dequantize_output_fp8(%x: tensor<4x8xf8E4M3FN>, %s: tensor<f32>) {
  %init233 = tensor.empty() : tensor<4x8xf8E5M2>
  // expected-error @+1 {{'moe.dequantize' op result 'output' must be a tensor of bf16, f16 or f32, got tensor<4x8xf8E5M2>}}
  %0 = moe.dequantize tensorwise %x, %s outs(%init233) : tensor<4x8xf8E4M3FN>, tensor<f32> -> tensor<4x8xf8E5M2>
  return
}

// -----

func.func @dequantize_output_shape(%x: tensor<4x8xf8E4M3FN>, %s: tensor<f32>) {
  %init234 = tensor.empty() : tensor<4x4xbf16>
  // expected-error @+1 {{'moe.dequantize' op result 'output' must be [4, 8] of bf16 (the shape of 'input'), got tensor<4x4xbf16>}}
  %0 = moe.dequantize tensorwise %x, %s outs(%init234) : tensor<4x8xf8E4M3FN>, tensor<f32> -> tensor<4x4xbf16>
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
  %init235 = tensor.empty() : tensor<6x8xbf16>
  %init236 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op 'dout' must have bf16, f16 or f32 elements, got f8E4M3FN}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init235, %init236) : tensor<4x8xf8E4M3FN>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<6x8xbf16>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_dout_rank(%d: tensor<32xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init237 = tensor.empty() : tensor<6x8xbf16>
  %init238 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op 'dout' must be a rank-2 tensor [T, H], got rank 1 (tensor<32xbf16>)}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init237, %init238) : tensor<32xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<6x8xbf16>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_y_i32(%d: tensor<4x8xbf16>, %y: tensor<6x8xi32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init239 = tensor.empty() : tensor<6x8xi32>
  %init240 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op 'y' must have bf16, f16 or f32 elements, got i32}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init239, %init240) : tensor<4x8xbf16>, tensor<6x8xi32>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<6x8xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_y_rank(%d: tensor<4x8xbf16>, %y: tensor<2x6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init241 = tensor.empty() : tensor<2x6xbf16>
  %init242 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op 'y' must be a rank-2 tensor [R, H], got rank 3 (tensor<2x6x8xbf16>)}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init241, %init242) : tensor<4x8xbf16>, tensor<2x6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<2x6xbf16>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_hidden(%d: tensor<4x8xbf16>, %y: tensor<6x16xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init243 = tensor.empty() : tensor<6x16xbf16>
  %init244 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op H mismatch: 'dout' dim 1 is 8 but 'y' dim 1 is 16}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init243, %init244) : tensor<4x8xbf16>, tensor<6x16xbf16>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<6x16xbf16>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_element_types(%d: tensor<4x8xbf16>, %y: tensor<6x8xf32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init245 = tensor.empty() : tensor<6x8xf32>
  %init246 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op 'dout' has bf16 elements but 'y' has f32}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init245, %init246) : tensor<4x8xbf16>, tensor<6x8xf32>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<6x8xf32>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_rows_i64(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi64>, %w: tensor<4x2xf32>) {
  %init247 = tensor.empty() : tensor<6x8xbf16>
  %init248 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op 'rows' must have i32 elements, got i64}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init247, %init248) : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi64>, tensor<4x2xf32> -> tensor<6x8xbf16>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_rows_rank(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<8xi32>, %w: tensor<4x2xf32>) {
  %init9 = tensor.empty() : tensor<1xf32>
  %init10 = tensor.empty() : tensor<1xf32>
  // expected-error @+1 {{'moe.combine_grad' op 'rows' must be a rank-2 tensor [T, K], got rank 1 (tensor<8xi32>)}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init9, %init10) : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<8xi32>, tensor<4x2xf32> -> tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @combine_grad_tokens_rows(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<3x2xi32>, %w: tensor<3x2xf32>) {
  %init249 = tensor.empty() : tensor<6x8xbf16>
  %init250 = tensor.empty() : tensor<3x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op T mismatch: 'dout' dim 0 is 4 but 'rows' dim 0 is 3}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init249, %init250) : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<3x2xi32>, tensor<3x2xf32> -> tensor<6x8xbf16>, tensor<3x2xf32>
  return
}

// -----

func.func @combine_grad_weights_bf16(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xbf16>) {
  %init251 = tensor.empty() : tensor<6x8xbf16>
  %init252 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op 'weights' must have f32 elements, got bf16}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init251, %init252) : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xbf16> -> tensor<6x8xbf16>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_weights_rank(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<8xf32>) {
  %init253 = tensor.empty() : tensor<6x8xbf16>
  %init254 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op 'weights' must be a rank-2 tensor [T, K], got rank 1 (tensor<8xf32>)}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init253, %init254) : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<8xf32> -> tensor<6x8xbf16>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_tokens_weights(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<3x2xf32>) {
  %init255 = tensor.empty() : tensor<6x8xbf16>
  %init256 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op T mismatch: 'rows' dim 0 is 4 but 'weights' dim 0 is 3}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init255, %init256) : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<3x2xf32> -> tensor<6x8xbf16>, tensor<4x2xf32>
  return
}

// -----

// With 'rows' dynamic, T is still checked between 'dout' and 'weights'.
func.func @combine_grad_tokens_dout_weights(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<?x2xi32>, %w: tensor<3x2xf32>) {
  %init257 = tensor.empty() : tensor<6x8xbf16>
  %init258_c0 = arith.constant 0 : index
  %init258_d0 = tensor.dim %r, %init258_c0 : tensor<?x2xi32>
  %init258 = tensor.empty(%init258_d0) : tensor<?x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op T mismatch: 'dout' dim 0 is 4 but 'weights' dim 0 is 3}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init257, %init258) : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<?x2xi32>, tensor<3x2xf32> -> tensor<6x8xbf16>, tensor<?x2xf32>
  return
}

// -----

func.func @combine_grad_topk(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x1xf32>) {
  %init259 = tensor.empty() : tensor<6x8xbf16>
  %init260 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op K mismatch: 'rows' dim 1 is 2 but 'weights' dim 1 is 1}}
  %0:2 = moe.combine_grad %d, %y, %r, %w outs(%init259, %init260) : tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x1xf32> -> tensor<6x8xbf16>, tensor<4x2xf32>
  return
}

// -----

func.func @combine_grad_dy_shape(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest48 = tensor.empty() : tensor<4x8xbf16>
  %dest49 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op result 'dy' must be [6, 8] of bf16 ([R, H] with the element type of 'y'), got tensor<4x8xbf16>}}
  %0:2 = "moe.combine_grad"(%d, %y, %r, %w, %dest48, %dest49) : (tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<4x8xbf16>, tensor<4x2xf32>) -> (tensor<4x8xbf16>, tensor<4x2xf32>)
  return
}

// -----

func.func @combine_grad_dy_element_type(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest50 = tensor.empty() : tensor<6x8xf32>
  %dest51 = tensor.empty() : tensor<4x2xf32>
  // expected-error @+1 {{'moe.combine_grad' op result 'dy' must be [6, 8] of bf16 ([R, H] with the element type of 'y'), got tensor<6x8xf32>}}
  %0:2 = "moe.combine_grad"(%d, %y, %r, %w, %dest50, %dest51) : (tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<6x8xf32>, tensor<4x2xf32>) -> (tensor<6x8xf32>, tensor<4x2xf32>)
  return
}

// -----

func.func @combine_grad_dweights(%d: tensor<4x8xbf16>, %y: tensor<6x8xbf16>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest52 = tensor.empty() : tensor<6x8xbf16>
  %dest53 = tensor.empty() : tensor<4x2xbf16>
  // expected-error @+1 {{'moe.combine_grad' op result 'dweights' must be [4, 2] of f32 ([T, K] in f32), got tensor<4x2xbf16>}}
  %0:2 = "moe.combine_grad"(%d, %y, %r, %w, %dest52, %dest53) : (tensor<4x8xbf16>, tensor<6x8xbf16>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<6x8xbf16>, tensor<4x2xbf16>) -> (tensor<6x8xbf16>, tensor<4x2xbf16>)
  return
}

// -----

func.func @quantize_with_transpose_rank(%x: tensor<4x8x128xbf16>) {
  %q0 = tensor.empty() : tensor<4x8x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<4x8x1xf32>
  %qt0 = tensor.empty() : tensor<128x8x4xf8E4M3FN>
  %st0 = tensor.empty() : tensor<128x8x1xf32>
  // expected-error @+1 {{'moe.quantize_with_transpose' op 'input' must be a rank-2 tensor [M, N]}}
  %0:4 = moe.quantize_with_transpose %x outs(%q0, %s0, %qt0, %st0) : tensor<4x8x128xbf16> -> tensor<4x8x128xf8E4M3FN>, tensor<4x8x1xf32>, tensor<128x8x4xf8E4M3FN>, tensor<128x8x1xf32>
  return
}

// -----

func.func @quantize_with_transpose_output_type(%x: tensor<256x128xbf16>) {
  %q0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<256x1xf32>
  %qt0 = tensor.empty() : tensor<128x256xbf16>
  %st0 = tensor.empty() : tensor<128x2xf32>
  // expected-error @+1 {{'moe.quantize_with_transpose' op result 'transposed_output' must be a tensor of f8E4M3FN or f8E5M2, got tensor<128x256xbf16>}}
  %0:4 = moe.quantize_with_transpose %x outs(%q0, %s0, %qt0, %st0) : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<256x1xf32>, tensor<128x256xbf16>, tensor<128x2xf32>
  return
}

// -----

// The transposed output is [N, M], not [M, N].
func.func @quantize_with_transpose_not_transposed(%x: tensor<256x128xbf16>) {
  %q0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<256x1xf32>
  %qt0 = tensor.empty() : tensor<256x128xf8E5M2>
  %st0 = tensor.empty() : tensor<128x2xf32>
  // expected-error @+1 {{'moe.quantize_with_transpose' op result 'transposed_output' must be [128, 256] of f8E5M2 (the shape of 'transpose(input)'), got tensor<256x128xf8E5M2>}}
  %0:4 = moe.quantize_with_transpose %x outs(%q0, %s0, %qt0, %st0) : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<256x1xf32>, tensor<256x128xf8E5M2>, tensor<128x2xf32>
  return
}

// -----

// One scale per 128 rows of a column: [N, ⌈M/128⌉] = [128, 2].
func.func @quantize_with_transpose_scale(%x: tensor<256x128xbf16>) {
  %q0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<256x1xf32>
  %qt0 = tensor.empty() : tensor<128x256xf8E5M2>
  %st0 = tensor.empty() : tensor<128x1xf32>
  // expected-error @+1 {{'moe.quantize_with_transpose' op result 'transposed_scale' must be [128, 2] of f32 (the scales of recipe block_1x128 for 'transpose(input)' [128, 256]), got tensor<128x1xf32>}}
  %0:4 = moe.quantize_with_transpose %x outs(%q0, %s0, %qt0, %st0) : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<256x1xf32>, tensor<128x256xf8E5M2>, tensor<128x1xf32>
  return
}

// -----

func.func @quantize_with_transpose_row_scale(%x: tensor<256x300xbf16>) {
  %q0 = tensor.empty() : tensor<256x300xf8E4M3FN>
  %s0 = tensor.empty() : tensor<256x2xf32>
  %qt0 = tensor.empty() : tensor<300x256xf8E5M2>
  %st0 = tensor.empty() : tensor<300x2xf32>
  // expected-error @+1 {{'moe.quantize_with_transpose' op result 'scale' must be [256, 3] of f32 (the scales of recipe block_1x128 for 'input' [256, 300]), got tensor<256x2xf32>}}
  %0:4 = moe.quantize_with_transpose %x outs(%q0, %s0, %qt0, %st0) : tensor<256x300xbf16> -> tensor<256x300xf8E4M3FN>, tensor<256x2xf32>, tensor<300x256xf8E5M2>, tensor<300x2xf32>
  return
}

// -----

func.func @quantize_with_transpose_destinations(%x: tensor<256x128xbf16>) {
  %q0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<256x1xf32>
  // expected-error @+1 {{'moe.quantize_with_transpose' op expects 4 destinations in 'outs', got 2}}
  %0:2 = moe.quantize_with_transpose %x outs(%q0, %s0) : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<256x1xf32>
  return
}
