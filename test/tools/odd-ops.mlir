// Odd inputs to every moe op, in custom and generic form: rank-0, i1,
// unranked, complex, index, f64 and f8E4M3FNUZ operands; extreme attribute
// values (negative, zero, INT64_MAX, INT64_MIN); overflowing sizes; NaN and
// infinite coefficients. None may crash: each invalid case ends in a located
// diagnostic, and the file as a whole exits non-zero. The valid cases among
// them (a few extremes are legal) must survive canonicalize and CSE.
//
// RUN: not moe-opt %s -split-input-file 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{PLEASE submit|Stack dump|LLVM ERROR|UNREACHABLE}}'
// RUN: not moe-opt %s -split-input-file --canonicalize --cse --moe-expand-layer 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{PLEASE submit|Stack dump|LLVM ERROR|UNREACHABLE}}'

func.func @gate_rank0_1(%a: tensor<f32>, %b: tensor<8x4xf32>) {
  %init1 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must be a rank-2 tensor [T, H], got rank 0 (tensor<f32>)
  %0 = moe.gate %a, %b outs(%init1) : tensor<f32>, tensor<8x4xf32> -> tensor<1xf32>
  return
}

// -----

func.func @route_rank0_2(%a: tensor<f32>) {
  %init1 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)
  %0 = moe.route softmax %a outs(%init1) : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @topk_rank0_3(%a: tensor<f32>) {
  %init2 = tensor.empty() : tensor<1xf32>
  %init3 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)
  %w, %i = moe.topk sigmoid %a k 2 outs(%init2, %init3) : tensor<f32> -> tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @aux_loss_rank0_4(%a: tensor<f32>, %i: tensor<4x2xi32>) {
  %init2 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 outs(%init2) : tensor<f32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @z_loss_rank0_5(%a: tensor<f32>) {
  %init3 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)
  %0 = moe.z_loss %a coeff 1.0e-3 outs(%init3) : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @bias_update_rank0_6(%a: tensor<f32>, %c: tensor<8xi32>) {
  %init4 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 0 (tensor<f32>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 outs(%init4) : tensor<f32>, tensor<8xi32> -> tensor<f32>
  return
}

// -----

func.func @permute_rank0_7(%a: tensor<f32>, %i: tensor<4x2xi32>) {
  %init4 = tensor.empty() : tensor<1xf32>
  %init5 = tensor.empty() : tensor<1xf32>
  %init6 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must be a rank-2 tensor [T, H], got rank 0 (tensor<f32>)
  %0:3 = moe.permute %a, %i experts 8 align 16 outs(%init4, %init5, %init6) : tensor<f32>, tensor<4x2xi32> -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @grouped_matmul_rank0_8(%a: tensor<f32>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  %init5 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must be a rank-2 tensor [R, Kd], got rank 0 (tensor<f32>)
  %0 = moe.grouped_matmul %a, %b, %s outs(%init5) : tensor<f32>, tensor<2x8x4xf32>, tensor<2xi32> -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_rank0_9(%a: tensor<f32>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  %init6 = tensor.empty() : tensor<2x8x6xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must be a rank-2 tensor [R, Kd], got rank 0 (tensor<f32>)
  %0 = moe.grouped_weight_grad %a, %d, %s outs(%init6) : tensor<f32>, tensor<4x6xf32>, tensor<2xi32> -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_rank0_10(%a: tensor<f32>) {
  %init7 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must be a rank-2 tensor [R, 2F] (gate and up), got rank 0 (tensor<f32>)
  %0 = moe.glu silu %a outs(%init7) : tensor<f32> -> tensor<1xf32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_rank0_11(%a: tensor<f32>, %s: tensor<4xi32>) {
  %init7 = tensor.empty() : tensor<f32>
  %init8 = tensor.empty() : tensor<4xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must be a rank-2 tensor [R, H], got rank 0 (tensor<f32>)
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 outs(%init7, %init8) : tensor<f32>, tensor<4xi32> -> tensor<f32>, tensor<4xi32>
  return
}

// -----

func.func @combine_rank0_12(%a: tensor<f32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init8 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must be a rank-2 tensor [R, H], got rank 0 (tensor<f32>)
  %0 = moe.combine %a, %r, %w outs(%init8) : tensor<f32>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<1xf32>
  return
}

// -----

func.func @quantize_rank0_13(%a: tensor<f32>) {
  %init9 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init10 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must be a ranked tensor of rank ≥ 1, got tensor<f32>
  %0:2 = moe.quantize tensorwise %a outs(%init9, %init10) : tensor<f32> -> tensor<4x8xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @dequantize_rank0_14(%a: tensor<f32>, %s: tensor<f32>) {
  %init11 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must be a ranked tensor of rank ≥ 1, got tensor<f32>
  %0 = moe.dequantize tensorwise %a, %s outs(%init11) : tensor<f32>, tensor<f32> -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_rank0_15(%a: tensor<f32>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op 'x' must be a rank-2 tensor [T, H], got rank 0 (tensor<f32>)
  %0:2 = moe.layer %a, %wr experts(%w, %w, %w) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<f32>, tensor<8x4xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> (tensor<4x8xf32>, tensor<f32>)
  return
}

// -----

func.func @gate_generic_rank0_16(%a: tensor<f32>, %b: tensor<8x4xf32>) {
  %dest1 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must be a rank-2 tensor [T, H], got rank 0 (tensor<f32>)
  %0 = "moe.gate"(%a, %b, %dest1) : (tensor<f32>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_rank0_17(%a: tensor<f32>) {
  %dest2 = tensor.empty() : tensor<4x2xf32>
  %dest3 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)
  %0:2 = "moe.topk"(%a, %dest2, %dest3) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<f32>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_rank0_18(%a: tensor<f32>, %i: tensor<4x2xi32>) {
  %dest4 = tensor.empty() : tensor<8x8xf32>
  %dest5 = tensor.empty() : tensor<8xi32>
  %dest6 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must be a rank-2 tensor [T, H], got rank 0 (tensor<f32>)
  %0:3 = "moe.permute"(%a, %i, %dest4, %dest5, %dest6) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<f32>, tensor<4x2xi32>, tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_rank0_19(%a: tensor<f32>) {
  %dest7 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must be a rank-2 tensor [R, 2F] (gate and up), got rank 0 (tensor<f32>)
  %0 = "moe.glu"(%a, %dest7) <{operandSegmentSizes = array<i32: 1, 0, 1>, activation = #moe<activation relu>}> : (tensor<f32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_rank0_20(%a: tensor<f32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest8 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must be a rank-2 tensor [R, H], got rank 0 (tensor<f32>)
  %0 = "moe.combine"(%a, %r, %w, %dest8) : (tensor<f32>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_i1_21(%a: tensor<4x8xi1>, %b: tensor<8x4xf32>) {
  %init12 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got i1
  %0 = moe.gate %a, %b outs(%init12) : tensor<4x8xi1>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @route_i1_22(%a: tensor<4x8xi1>) {
  %init13 = tensor.empty() : tensor<4x8xi1>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must have f32 elements, got i1
  %0 = moe.route softmax %a outs(%init13) : tensor<4x8xi1> -> tensor<4x8xi1>
  return
}

// -----

func.func @topk_i1_23(%a: tensor<4x8xi1>) {
  %init14 = tensor.empty() : tensor<4x2xf32>
  %init15 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must have f32 elements, got i1
  %w, %i = moe.topk sigmoid %a k 2 outs(%init14, %init15) : tensor<4x8xi1> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_i1_24(%a: tensor<4x8xi1>, %i: tensor<4x2xi32>) {
  %init16 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must have f32 elements, got i1
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 outs(%init16) : tensor<4x8xi1>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @z_loss_i1_25(%a: tensor<4x8xi1>) {
  %init17 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must have f32 elements, got i1
  %0 = moe.z_loss %a coeff 1.0e-3 outs(%init17) : tensor<4x8xi1> -> tensor<f32>
  return
}

// -----

func.func @bias_update_i1_26(%a: tensor<4x8xi1>, %c: tensor<8xi32>) {
  %init18 = tensor.empty() : tensor<4x8xi1>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<4x8xi1>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 outs(%init18) : tensor<4x8xi1>, tensor<8xi32> -> tensor<4x8xi1>
  return
}

// -----

func.func @permute_i1_27(%a: tensor<4x8xi1>, %i: tensor<4x2xi32>) {
  %init19 = tensor.empty() : tensor<128x8xi1>
  %init20 = tensor.empty() : tensor<8xi32>
  %init21 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1
  %0:3 = moe.permute %a, %i experts 8 align 16 outs(%init19, %init20, %init21) : tensor<4x8xi1>, tensor<4x2xi32> -> tensor<128x8xi1>, tensor<8xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @grouped_matmul_i1_28(%a: tensor<4x8xi1>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  %init22 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1
  %0 = moe.grouped_matmul %a, %b, %s outs(%init22) : tensor<4x8xi1>, tensor<2x8x4xf32>, tensor<2xi32> -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_i1_29(%a: tensor<4x8xi1>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  %init23 = tensor.empty() : tensor<2x8x6xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1
  %0 = moe.grouped_weight_grad %a, %d, %s outs(%init23) : tensor<4x8xi1>, tensor<4x6xf32>, tensor<2xi32> -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_i1_30(%a: tensor<4x8xi1>) {
  %init24 = tensor.empty() : tensor<4x4xi1>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got i1
  %0 = moe.glu silu %a outs(%init24) : tensor<4x8xi1> -> tensor<4x4xi1>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_i1_31(%a: tensor<4x8xi1>, %s: tensor<4xi32>) {
  %init25 = tensor.empty() : tensor<4x8xi1>
  %init26 = tensor.empty() : tensor<4xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 outs(%init25, %init26) : tensor<4x8xi1>, tensor<4xi32> -> tensor<4x8xi1>, tensor<4xi32>
  return
}

// -----

func.func @combine_i1_32(%a: tensor<4x8xi1>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init27 = tensor.empty() : tensor<4x8xi1>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got i1
  %0 = moe.combine %a, %r, %w outs(%init27) : tensor<4x8xi1>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<4x8xi1>
  return
}

// -----

func.func @quantize_i1_33(%a: tensor<4x8xi1>) {
  %init28 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init29 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got i1
  %0:2 = moe.quantize tensorwise %a outs(%init28, %init29) : tensor<4x8xi1> -> tensor<4x8xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @dequantize_i1_34(%a: tensor<4x8xi1>, %s: tensor<f32>) {
  %init30 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got i1
  %0 = moe.dequantize tensorwise %a, %s outs(%init30) : tensor<4x8xi1>, tensor<f32> -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_i1_35(%a: tensor<4x8xi1>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op 'x' must have bf16, f16 or f32 elements, got i1
  %0:2 = moe.layer %a, %wr experts(%w, %w, %w) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xi1>, tensor<8x4xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> (tensor<4x8xf32>, tensor<f32>)
  return
}

// -----

func.func @gate_generic_i1_36(%a: tensor<4x8xi1>, %b: tensor<8x4xf32>) {
  %dest9 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got i1
  %0 = "moe.gate"(%a, %b, %dest9) : (tensor<4x8xi1>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_i1_37(%a: tensor<4x8xi1>) {
  %dest10 = tensor.empty() : tensor<4x2xf32>
  %dest11 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must have f32 elements, got i1
  %0:2 = "moe.topk"(%a, %dest10, %dest11) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<4x8xi1>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_i1_38(%a: tensor<4x8xi1>, %i: tensor<4x2xi32>) {
  %dest12 = tensor.empty() : tensor<8x8xf32>
  %dest13 = tensor.empty() : tensor<8xi32>
  %dest14 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1
  %0:3 = "moe.permute"(%a, %i, %dest12, %dest13, %dest14) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xi1>, tensor<4x2xi32>, tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_i1_39(%a: tensor<4x8xi1>) {
  %dest15 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got i1
  %0 = "moe.glu"(%a, %dest15) <{operandSegmentSizes = array<i32: 1, 0, 1>, activation = #moe<activation relu>}> : (tensor<4x8xi1>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_i1_40(%a: tensor<4x8xi1>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest16 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got i1
  %0 = "moe.combine"(%a, %r, %w, %dest16) : (tensor<4x8xi1>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_unranked_41(%a: tensor<*xf32>, %b: tensor<8x4xf32>) {
  %init31 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = moe.gate %a, %b outs(%init31) : tensor<*xf32>, tensor<8x4xf32> -> tensor<1xf32>
  return
}

// -----

func.func @route_unranked_42(%a: tensor<*xf32>) {
  %init32 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = moe.route softmax %a outs(%init32) : tensor<*xf32> -> tensor<1xf32>
  return
}

// -----

func.func @topk_unranked_43(%a: tensor<*xf32>) {
  %init33 = tensor.empty() : tensor<1xf32>
  %init34 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %w, %i = moe.topk sigmoid %a k 2 outs(%init33, %init34) : tensor<*xf32> -> tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @aux_loss_unranked_44(%a: tensor<*xf32>, %i: tensor<4x2xi32>) {
  %init35 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 outs(%init35) : tensor<*xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @z_loss_unranked_45(%a: tensor<*xf32>) {
  %init36 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = moe.z_loss %a coeff 1.0e-3 outs(%init36) : tensor<*xf32> -> tensor<f32>
  return
}

// -----

func.func @bias_update_unranked_46(%a: tensor<*xf32>, %c: tensor<8xi32>) {
  %init37 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 outs(%init37) : tensor<*xf32>, tensor<8xi32> -> tensor<1xf32>
  return
}

// -----

func.func @permute_unranked_47(%a: tensor<*xf32>, %i: tensor<4x2xi32>) {
  %init9 = tensor.empty() : tensor<1xf32>
  %init10 = tensor.empty() : tensor<1xf32>
  %init11 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0:3 = moe.permute %a, %i experts 8 align 16 outs(%init9, %init10, %init11) : tensor<*xf32>, tensor<4x2xi32> -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @grouped_matmul_unranked_48(%a: tensor<*xf32>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  %init38 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = moe.grouped_matmul %a, %b, %s outs(%init38) : tensor<*xf32>, tensor<2x8x4xf32>, tensor<2xi32> -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_unranked_49(%a: tensor<*xf32>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  %init39 = tensor.empty() : tensor<2x8x6xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = moe.grouped_weight_grad %a, %d, %s outs(%init39) : tensor<*xf32>, tensor<4x6xf32>, tensor<2xi32> -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_unranked_50(%a: tensor<*xf32>) {
  %init12 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = moe.glu silu %a outs(%init12) : tensor<*xf32> -> tensor<1xf32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_unranked_51(%a: tensor<*xf32>, %s: tensor<4xi32>) {
  %init40 = tensor.empty() : tensor<1xf32>
  %init41 = tensor.empty() : tensor<4xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 outs(%init40, %init41) : tensor<*xf32>, tensor<4xi32> -> tensor<1xf32>, tensor<4xi32>
  return
}

// -----

func.func @combine_unranked_52(%a: tensor<*xf32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init13 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = moe.combine %a, %r, %w outs(%init13) : tensor<*xf32>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<1xf32>
  return
}

// -----

func.func @quantize_unranked_53(%a: tensor<*xf32>) {
  %init42 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init43 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0:2 = moe.quantize tensorwise %a outs(%init42, %init43) : tensor<*xf32> -> tensor<4x8xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @dequantize_unranked_54(%a: tensor<*xf32>, %s: tensor<f32>) {
  %init44 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = moe.dequantize tensorwise %a, %s outs(%init44) : tensor<*xf32>, tensor<f32> -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_unranked_55(%a: tensor<*xf32>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0:2 = moe.layer %a, %wr experts(%w, %w, %w) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<*xf32>, tensor<8x4xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> (tensor<4x8xf32>, tensor<f32>)
  return
}

// -----

func.func @gate_generic_unranked_56(%a: tensor<*xf32>, %b: tensor<8x4xf32>) {
  %dest17 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = "moe.gate"(%a, %b, %dest17) : (tensor<*xf32>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_unranked_57(%a: tensor<*xf32>) {
  %dest18 = tensor.empty() : tensor<4x2xf32>
  %dest19 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0:2 = "moe.topk"(%a, %dest18, %dest19) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<*xf32>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_unranked_58(%a: tensor<*xf32>, %i: tensor<4x2xi32>) {
  %dest20 = tensor.empty() : tensor<8x8xf32>
  %dest21 = tensor.empty() : tensor<8xi32>
  %dest22 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0:3 = "moe.permute"(%a, %i, %dest20, %dest21, %dest22) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<*xf32>, tensor<4x2xi32>, tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_unranked_59(%a: tensor<*xf32>) {
  %dest23 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = "moe.glu"(%a, %dest23) <{operandSegmentSizes = array<i32: 1, 0, 1>, activation = #moe<activation relu>}> : (tensor<*xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_unranked_60(%a: tensor<*xf32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest24 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op operand #0 must be ranked tensor or memref, but got 'tensor<*xf32>'
  %0 = "moe.combine"(%a, %r, %w, %dest24) : (tensor<*xf32>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_complex_61(%a: tensor<4x8xcomplex<f32>>, %b: tensor<8x4xf32>) {
  %init45 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = moe.gate %a, %b outs(%init45) : tensor<4x8xcomplex<f32>>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @route_complex_62(%a: tensor<4x8xcomplex<f32>>) {
  %init46 = tensor.empty() : tensor<4x8xcomplex<f32>>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must have f32 elements, got complex<f32>
  %0 = moe.route softmax %a outs(%init46) : tensor<4x8xcomplex<f32>> -> tensor<4x8xcomplex<f32>>
  return
}

// -----

func.func @topk_complex_63(%a: tensor<4x8xcomplex<f32>>) {
  %init47 = tensor.empty() : tensor<4x2xf32>
  %init48 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must have f32 elements, got complex<f32>
  %w, %i = moe.topk sigmoid %a k 2 outs(%init47, %init48) : tensor<4x8xcomplex<f32>> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_complex_64(%a: tensor<4x8xcomplex<f32>>, %i: tensor<4x2xi32>) {
  %init49 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must have f32 elements, got complex<f32>
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 outs(%init49) : tensor<4x8xcomplex<f32>>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @z_loss_complex_65(%a: tensor<4x8xcomplex<f32>>) {
  %init50 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must have f32 elements, got complex<f32>
  %0 = moe.z_loss %a coeff 1.0e-3 outs(%init50) : tensor<4x8xcomplex<f32>> -> tensor<f32>
  return
}

// -----

func.func @bias_update_complex_66(%a: tensor<4x8xcomplex<f32>>, %c: tensor<8xi32>) {
  %init51 = tensor.empty() : tensor<4x8xcomplex<f32>>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<4x8xcomplex<f32>>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 outs(%init51) : tensor<4x8xcomplex<f32>>, tensor<8xi32> -> tensor<4x8xcomplex<f32>>
  return
}

// -----

func.func @permute_complex_67(%a: tensor<4x8xcomplex<f32>>, %i: tensor<4x2xi32>) {
  %init14 = tensor.empty() : tensor<1xf32>
  %init15 = tensor.empty() : tensor<1xf32>
  %init16 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0:3 = moe.permute %a, %i experts 8 align 16 outs(%init14, %init15, %init16) : tensor<4x8xcomplex<f32>>, tensor<4x2xi32> -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @grouped_matmul_complex_68(%a: tensor<4x8xcomplex<f32>>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  %init52 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0 = moe.grouped_matmul %a, %b, %s outs(%init52) : tensor<4x8xcomplex<f32>>, tensor<2x8x4xf32>, tensor<2xi32> -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_complex_69(%a: tensor<4x8xcomplex<f32>>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  %init53 = tensor.empty() : tensor<2x8x6xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0 = moe.grouped_weight_grad %a, %d, %s outs(%init53) : tensor<4x8xcomplex<f32>>, tensor<4x6xf32>, tensor<2xi32> -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_complex_70(%a: tensor<4x8xcomplex<f32>>) {
  %init17 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = moe.glu silu %a outs(%init17) : tensor<4x8xcomplex<f32>> -> tensor<1xf32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_complex_71(%a: tensor<4x8xcomplex<f32>>, %s: tensor<4xi32>) {
  %init54 = tensor.empty() : tensor<4x8xcomplex<f32>>
  %init55 = tensor.empty() : tensor<4xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 outs(%init54, %init55) : tensor<4x8xcomplex<f32>>, tensor<4xi32> -> tensor<4x8xcomplex<f32>>, tensor<4xi32>
  return
}

// -----

func.func @combine_complex_72(%a: tensor<4x8xcomplex<f32>>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init56 = tensor.empty() : tensor<4x8xcomplex<f32>>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = moe.combine %a, %r, %w outs(%init56) : tensor<4x8xcomplex<f32>>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<4x8xcomplex<f32>>
  return
}

// -----

func.func @quantize_complex_73(%a: tensor<4x8xcomplex<f32>>) {
  %init57 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init58 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got complex<f32>
  %0:2 = moe.quantize tensorwise %a outs(%init57, %init58) : tensor<4x8xcomplex<f32>> -> tensor<4x8xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @dequantize_complex_74(%a: tensor<4x8xcomplex<f32>>, %s: tensor<f32>) {
  %init59 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0 = moe.dequantize tensorwise %a, %s outs(%init59) : tensor<4x8xcomplex<f32>>, tensor<f32> -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_complex_75(%a: tensor<4x8xcomplex<f32>>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op 'x' must have bf16, f16 or f32 elements, got complex<f32>
  %0:2 = moe.layer %a, %wr experts(%w, %w, %w) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xcomplex<f32>>, tensor<8x4xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> (tensor<4x8xf32>, tensor<f32>)
  return
}

// -----

func.func @gate_generic_complex_76(%a: tensor<4x8xcomplex<f32>>, %b: tensor<8x4xf32>) {
  %dest25 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = "moe.gate"(%a, %b, %dest25) : (tensor<4x8xcomplex<f32>>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_complex_77(%a: tensor<4x8xcomplex<f32>>) {
  %dest26 = tensor.empty() : tensor<4x2xf32>
  %dest27 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must have f32 elements, got complex<f32>
  %0:2 = "moe.topk"(%a, %dest26, %dest27) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<4x8xcomplex<f32>>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_complex_78(%a: tensor<4x8xcomplex<f32>>, %i: tensor<4x2xi32>) {
  %dest28 = tensor.empty() : tensor<8x8xf32>
  %dest29 = tensor.empty() : tensor<8xi32>
  %dest30 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0:3 = "moe.permute"(%a, %i, %dest28, %dest29, %dest30) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xcomplex<f32>>, tensor<4x2xi32>, tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_complex_79(%a: tensor<4x8xcomplex<f32>>) {
  %dest31 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = "moe.glu"(%a, %dest31) <{operandSegmentSizes = array<i32: 1, 0, 1>, activation = #moe<activation relu>}> : (tensor<4x8xcomplex<f32>>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_complex_80(%a: tensor<4x8xcomplex<f32>>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest32 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = "moe.combine"(%a, %r, %w, %dest32) : (tensor<4x8xcomplex<f32>>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_index_81(%a: tensor<4x8xindex>, %b: tensor<8x4xf32>) {
  %init60 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got index
  %0 = moe.gate %a, %b outs(%init60) : tensor<4x8xindex>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @route_index_82(%a: tensor<4x8xindex>) {
  %init61 = tensor.empty() : tensor<4x8xindex>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must have f32 elements, got index
  %0 = moe.route softmax %a outs(%init61) : tensor<4x8xindex> -> tensor<4x8xindex>
  return
}

// -----

func.func @topk_index_83(%a: tensor<4x8xindex>) {
  %init62 = tensor.empty() : tensor<4x2xf32>
  %init63 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must have f32 elements, got index
  %w, %i = moe.topk sigmoid %a k 2 outs(%init62, %init63) : tensor<4x8xindex> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_index_84(%a: tensor<4x8xindex>, %i: tensor<4x2xi32>) {
  %init64 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must have f32 elements, got index
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 outs(%init64) : tensor<4x8xindex>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @z_loss_index_85(%a: tensor<4x8xindex>) {
  %init65 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must have f32 elements, got index
  %0 = moe.z_loss %a coeff 1.0e-3 outs(%init65) : tensor<4x8xindex> -> tensor<f32>
  return
}

// -----

func.func @bias_update_index_86(%a: tensor<4x8xindex>, %c: tensor<8xi32>) {
  %init66 = tensor.empty() : tensor<4x8xindex>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<4x8xindex>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 outs(%init66) : tensor<4x8xindex>, tensor<8xi32> -> tensor<4x8xindex>
  return
}

// -----

func.func @permute_index_87(%a: tensor<4x8xindex>, %i: tensor<4x2xi32>) {
  %init18 = tensor.empty() : tensor<1xf32>
  %init19 = tensor.empty() : tensor<1xf32>
  %init20 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got index
  %0:3 = moe.permute %a, %i experts 8 align 16 outs(%init18, %init19, %init20) : tensor<4x8xindex>, tensor<4x2xi32> -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @grouped_matmul_index_88(%a: tensor<4x8xindex>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  %init67 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got index
  %0 = moe.grouped_matmul %a, %b, %s outs(%init67) : tensor<4x8xindex>, tensor<2x8x4xf32>, tensor<2xi32> -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_index_89(%a: tensor<4x8xindex>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  %init68 = tensor.empty() : tensor<2x8x6xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got index
  %0 = moe.grouped_weight_grad %a, %d, %s outs(%init68) : tensor<4x8xindex>, tensor<4x6xf32>, tensor<2xi32> -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_index_90(%a: tensor<4x8xindex>) {
  %init21 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got index
  %0 = moe.glu silu %a outs(%init21) : tensor<4x8xindex> -> tensor<1xf32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_index_91(%a: tensor<4x8xindex>, %s: tensor<4xi32>) {
  %init69 = tensor.empty() : tensor<4x8xindex>
  %init70 = tensor.empty() : tensor<4xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got index
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 outs(%init69, %init70) : tensor<4x8xindex>, tensor<4xi32> -> tensor<4x8xindex>, tensor<4xi32>
  return
}

// -----

func.func @combine_index_92(%a: tensor<4x8xindex>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init71 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got index
  %0 = moe.combine %a, %r, %w outs(%init71) : tensor<4x8xindex>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @quantize_index_93(%a: tensor<4x8xindex>) {
  %init72 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init73 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got index
  %0:2 = moe.quantize tensorwise %a outs(%init72, %init73) : tensor<4x8xindex> -> tensor<4x8xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @dequantize_index_94(%a: tensor<4x8xindex>, %s: tensor<f32>) {
  %init74 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got index
  %0 = moe.dequantize tensorwise %a, %s outs(%init74) : tensor<4x8xindex>, tensor<f32> -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_index_95(%a: tensor<4x8xindex>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op 'x' must have bf16, f16 or f32 elements, got index
  %0:2 = moe.layer %a, %wr experts(%w, %w, %w) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xindex>, tensor<8x4xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> (tensor<4x8xf32>, tensor<f32>)
  return
}

// -----

func.func @gate_generic_index_96(%a: tensor<4x8xindex>, %b: tensor<8x4xf32>) {
  %dest33 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got index
  %0 = "moe.gate"(%a, %b, %dest33) : (tensor<4x8xindex>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_index_97(%a: tensor<4x8xindex>) {
  %dest34 = tensor.empty() : tensor<4x2xf32>
  %dest35 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must have f32 elements, got index
  %0:2 = "moe.topk"(%a, %dest34, %dest35) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<4x8xindex>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_index_98(%a: tensor<4x8xindex>, %i: tensor<4x2xi32>) {
  %dest36 = tensor.empty() : tensor<8x8xf32>
  %dest37 = tensor.empty() : tensor<8xi32>
  %dest38 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got index
  %0:3 = "moe.permute"(%a, %i, %dest36, %dest37, %dest38) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xindex>, tensor<4x2xi32>, tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_index_99(%a: tensor<4x8xindex>) {
  %dest39 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got index
  %0 = "moe.glu"(%a, %dest39) <{operandSegmentSizes = array<i32: 1, 0, 1>, activation = #moe<activation relu>}> : (tensor<4x8xindex>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_index_100(%a: tensor<4x8xindex>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest40 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got index
  %0 = "moe.combine"(%a, %r, %w, %dest40) : (tensor<4x8xindex>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_f64_101(%a: tensor<4x8xf64>, %b: tensor<8x4xf32>) {
  %init75 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got f64
  %0 = moe.gate %a, %b outs(%init75) : tensor<4x8xf64>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @route_f64_102(%a: tensor<4x8xf64>) {
  %init76 = tensor.empty() : tensor<4x8xf64>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must have f32 elements, got f64
  %0 = moe.route softmax %a outs(%init76) : tensor<4x8xf64> -> tensor<4x8xf64>
  return
}

// -----

func.func @topk_f64_103(%a: tensor<4x8xf64>) {
  %init77 = tensor.empty() : tensor<4x2xf32>
  %init78 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must have f32 elements, got f64
  %w, %i = moe.topk sigmoid %a k 2 outs(%init77, %init78) : tensor<4x8xf64> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_f64_104(%a: tensor<4x8xf64>, %i: tensor<4x2xi32>) {
  %init79 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must have f32 elements, got f64
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 outs(%init79) : tensor<4x8xf64>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @z_loss_f64_105(%a: tensor<4x8xf64>) {
  %init80 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must have f32 elements, got f64
  %0 = moe.z_loss %a coeff 1.0e-3 outs(%init80) : tensor<4x8xf64> -> tensor<f32>
  return
}

// -----

func.func @bias_update_f64_106(%a: tensor<4x8xf64>, %c: tensor<8xi32>) {
  %init81 = tensor.empty() : tensor<4x8xf64>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<4x8xf64>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 outs(%init81) : tensor<4x8xf64>, tensor<8xi32> -> tensor<4x8xf64>
  return
}

// -----

func.func @permute_f64_107(%a: tensor<4x8xf64>, %i: tensor<4x2xi32>) {
  %init82 = tensor.empty() : tensor<128x8xf64>
  %init83 = tensor.empty() : tensor<8xi32>
  %init84 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f64
  %0:3 = moe.permute %a, %i experts 8 align 16 outs(%init82, %init83, %init84) : tensor<4x8xf64>, tensor<4x2xi32> -> tensor<128x8xf64>, tensor<8xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @grouped_matmul_f64_108(%a: tensor<4x8xf64>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  %init85 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f64
  %0 = moe.grouped_matmul %a, %b, %s outs(%init85) : tensor<4x8xf64>, tensor<2x8x4xf32>, tensor<2xi32> -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_f64_109(%a: tensor<4x8xf64>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  %init86 = tensor.empty() : tensor<2x8x6xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f64
  %0 = moe.grouped_weight_grad %a, %d, %s outs(%init86) : tensor<4x8xf64>, tensor<4x6xf32>, tensor<2xi32> -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_f64_110(%a: tensor<4x8xf64>) {
  %init87 = tensor.empty() : tensor<4x4xf64>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got f64
  %0 = moe.glu silu %a outs(%init87) : tensor<4x8xf64> -> tensor<4x4xf64>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_f64_111(%a: tensor<4x8xf64>, %s: tensor<4xi32>) {
  %init88 = tensor.empty() : tensor<4x8xf64>
  %init89 = tensor.empty() : tensor<4xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f64
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 outs(%init88, %init89) : tensor<4x8xf64>, tensor<4xi32> -> tensor<4x8xf64>, tensor<4xi32>
  return
}

// -----

func.func @combine_f64_112(%a: tensor<4x8xf64>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init90 = tensor.empty() : tensor<4x8xf64>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got f64
  %0 = moe.combine %a, %r, %w outs(%init90) : tensor<4x8xf64>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<4x8xf64>
  return
}

// -----

func.func @quantize_f64_113(%a: tensor<4x8xf64>) {
  %init91 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init92 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got f64
  %0:2 = moe.quantize tensorwise %a outs(%init91, %init92) : tensor<4x8xf64> -> tensor<4x8xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @dequantize_f64_114(%a: tensor<4x8xf64>, %s: tensor<f32>) {
  %init93 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got f64
  %0 = moe.dequantize tensorwise %a, %s outs(%init93) : tensor<4x8xf64>, tensor<f32> -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_f64_115(%a: tensor<4x8xf64>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op 'x' must have bf16, f16 or f32 elements, got f64
  %0:2 = moe.layer %a, %wr experts(%w, %w, %w) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xf64>, tensor<8x4xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> (tensor<4x8xf32>, tensor<f32>)
  return
}

// -----

func.func @gate_generic_f64_116(%a: tensor<4x8xf64>, %b: tensor<8x4xf32>) {
  %dest41 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got f64
  %0 = "moe.gate"(%a, %b, %dest41) : (tensor<4x8xf64>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_f64_117(%a: tensor<4x8xf64>) {
  %dest42 = tensor.empty() : tensor<4x2xf32>
  %dest43 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must have f32 elements, got f64
  %0:2 = "moe.topk"(%a, %dest42, %dest43) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<4x8xf64>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_f64_118(%a: tensor<4x8xf64>, %i: tensor<4x2xi32>) {
  %dest44 = tensor.empty() : tensor<8x8xf32>
  %dest45 = tensor.empty() : tensor<8xi32>
  %dest46 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f64
  %0:3 = "moe.permute"(%a, %i, %dest44, %dest45, %dest46) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xf64>, tensor<4x2xi32>, tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_f64_119(%a: tensor<4x8xf64>) {
  %dest47 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got f64
  %0 = "moe.glu"(%a, %dest47) <{operandSegmentSizes = array<i32: 1, 0, 1>, activation = #moe<activation relu>}> : (tensor<4x8xf64>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_f64_120(%a: tensor<4x8xf64>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest48 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got f64
  %0 = "moe.combine"(%a, %r, %w, %dest48) : (tensor<4x8xf64>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_fnuz_121(%a: tensor<4x8xf8E4M3FNUZ>, %b: tensor<8x4xf32>) {
  %init94 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = moe.gate %a, %b outs(%init94) : tensor<4x8xf8E4M3FNUZ>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @route_fnuz_122(%a: tensor<4x8xf8E4M3FNUZ>) {
  %init95 = tensor.empty() : tensor<4x8xf8E4M3FNUZ>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must have f32 elements, got f8E4M3FNUZ
  %0 = moe.route softmax %a outs(%init95) : tensor<4x8xf8E4M3FNUZ> -> tensor<4x8xf8E4M3FNUZ>
  return
}

// -----

func.func @topk_fnuz_123(%a: tensor<4x8xf8E4M3FNUZ>) {
  %init96 = tensor.empty() : tensor<4x2xf32>
  %init97 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must have f32 elements, got f8E4M3FNUZ
  %w, %i = moe.topk sigmoid %a k 2 outs(%init96, %init97) : tensor<4x8xf8E4M3FNUZ> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_fnuz_124(%a: tensor<4x8xf8E4M3FNUZ>, %i: tensor<4x2xi32>) {
  %init98 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must have f32 elements, got f8E4M3FNUZ
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 outs(%init98) : tensor<4x8xf8E4M3FNUZ>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @z_loss_fnuz_125(%a: tensor<4x8xf8E4M3FNUZ>) {
  %init99 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must have f32 elements, got f8E4M3FNUZ
  %0 = moe.z_loss %a coeff 1.0e-3 outs(%init99) : tensor<4x8xf8E4M3FNUZ> -> tensor<f32>
  return
}

// -----

func.func @bias_update_fnuz_126(%a: tensor<4x8xf8E4M3FNUZ>, %c: tensor<8xi32>) {
  %init100 = tensor.empty() : tensor<4x8xf8E4M3FNUZ>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<4x8xf8E4M3FNUZ>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 outs(%init100) : tensor<4x8xf8E4M3FNUZ>, tensor<8xi32> -> tensor<4x8xf8E4M3FNUZ>
  return
}

// -----

func.func @permute_fnuz_127(%a: tensor<4x8xf8E4M3FNUZ>, %i: tensor<4x2xi32>) {
  %init101 = tensor.empty() : tensor<128x8xf8E4M3FNUZ>
  %init102 = tensor.empty() : tensor<8xi32>
  %init103 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0:3 = moe.permute %a, %i experts 8 align 16 outs(%init101, %init102, %init103) : tensor<4x8xf8E4M3FNUZ>, tensor<4x2xi32> -> tensor<128x8xf8E4M3FNUZ>, tensor<8xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @grouped_matmul_fnuz_128(%a: tensor<4x8xf8E4M3FNUZ>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  %init104 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0 = moe.grouped_matmul %a, %b, %s outs(%init104) : tensor<4x8xf8E4M3FNUZ>, tensor<2x8x4xf32>, tensor<2xi32> -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_fnuz_129(%a: tensor<4x8xf8E4M3FNUZ>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  %init105 = tensor.empty() : tensor<2x8x6xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0 = moe.grouped_weight_grad %a, %d, %s outs(%init105) : tensor<4x8xf8E4M3FNUZ>, tensor<4x6xf32>, tensor<2xi32> -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_fnuz_130(%a: tensor<4x8xf8E4M3FNUZ>) {
  %init106 = tensor.empty() : tensor<4x4xf8E4M3FNUZ>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = moe.glu silu %a outs(%init106) : tensor<4x8xf8E4M3FNUZ> -> tensor<4x4xf8E4M3FNUZ>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_fnuz_131(%a: tensor<4x8xf8E4M3FNUZ>, %s: tensor<4xi32>) {
  %init107 = tensor.empty() : tensor<4x8xf8E4M3FNUZ>
  %init108 = tensor.empty() : tensor<4xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 outs(%init107, %init108) : tensor<4x8xf8E4M3FNUZ>, tensor<4xi32> -> tensor<4x8xf8E4M3FNUZ>, tensor<4xi32>
  return
}

// -----

func.func @combine_fnuz_132(%a: tensor<4x8xf8E4M3FNUZ>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %init109 = tensor.empty() : tensor<4x8xf8E4M3FNUZ>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = moe.combine %a, %r, %w outs(%init109) : tensor<4x8xf8E4M3FNUZ>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<4x8xf8E4M3FNUZ>
  return
}

// -----

func.func @quantize_fnuz_133(%a: tensor<4x8xf8E4M3FNUZ>) {
  %init110 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init111 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0:2 = moe.quantize tensorwise %a outs(%init110, %init111) : tensor<4x8xf8E4M3FNUZ> -> tensor<4x8xf8E4M3FN>, tensor<f32>
  return
}

// -----

func.func @dequantize_fnuz_134(%a: tensor<4x8xf8E4M3FNUZ>, %s: tensor<f32>) {
  %init112 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0 = moe.dequantize tensorwise %a, %s outs(%init112) : tensor<4x8xf8E4M3FNUZ>, tensor<f32> -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_fnuz_135(%a: tensor<4x8xf8E4M3FNUZ>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op 'x' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0:2 = moe.layer %a, %wr experts(%w, %w, %w) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xf8E4M3FNUZ>, tensor<8x4xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> (tensor<4x8xf32>, tensor<f32>)
  return
}

// -----

func.func @gate_generic_fnuz_136(%a: tensor<4x8xf8E4M3FNUZ>, %b: tensor<8x4xf32>) {
  %dest49 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = "moe.gate"(%a, %b, %dest49) : (tensor<4x8xf8E4M3FNUZ>, tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_fnuz_137(%a: tensor<4x8xf8E4M3FNUZ>) {
  %dest50 = tensor.empty() : tensor<4x2xf32>
  %dest51 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must have f32 elements, got f8E4M3FNUZ
  %0:2 = "moe.topk"(%a, %dest50, %dest51) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<4x8xf8E4M3FNUZ>, tensor<4x2xf32>, tensor<4x2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_fnuz_138(%a: tensor<4x8xf8E4M3FNUZ>, %i: tensor<4x2xi32>) {
  %dest52 = tensor.empty() : tensor<8x8xf32>
  %dest53 = tensor.empty() : tensor<8xi32>
  %dest54 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0:3 = "moe.permute"(%a, %i, %dest52, %dest53, %dest54) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xf8E4M3FNUZ>, tensor<4x2xi32>, tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_fnuz_139(%a: tensor<4x8xf8E4M3FNUZ>) {
  %dest55 = tensor.empty() : tensor<4x4xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = "moe.glu"(%a, %dest55) <{operandSegmentSizes = array<i32: 1, 0, 1>, activation = #moe<activation relu>}> : (tensor<4x8xf8E4M3FNUZ>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_fnuz_140(%a: tensor<4x8xf8E4M3FNUZ>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  %dest56 = tensor.empty() : tensor<4x8xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = "moe.combine"(%a, %r, %w, %dest56) : (tensor<4x8xf8E4M3FNUZ>, tensor<4x2xi32>, tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @topk_k_141(%s: tensor<4x8xf32>) {
  %init22 = tensor.empty() : tensor<1xf32>
  %init23 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = -1 must be at least 1
  %w, %i = moe.topk softmax %s k -1 outs(%init22, %init23) : tensor<4x8xf32> -> tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @topk_k_generic_142(%s: tensor<4x8xf32>) {
  %dest57 = tensor.empty() : tensor<4x1xf32>
  %dest58 = tensor.empty() : tensor<4x1xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op k = -1 must be at least 1
  %0:2 = "moe.topk"(%s, %dest57, %dest58) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = -1 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return
}

// -----

func.func @topk_everything_dynamic_143(%s: tensor<?x?xf32>) {
  %init24 = tensor.empty() : tensor<1xf32>
  %init25 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = -1 must be at least 1
  %w, %i = moe.topk softmax %s k -1 outs(%init24, %init25) {num_groups = -1 : i64, group_topk = -1 : i64, group_score_topq = -1 : i64} : tensor<?x?xf32> -> tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @permute_experts_144(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init26 = tensor.empty() : tensor<1xf32>
  %init27 = tensor.empty() : tensor<1xf32>
  %init28 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = -1 must be at least 1
  %0:3 = moe.permute %x, %i experts -1 align 1 outs(%init26, %init27, %init28) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @permute_align_145(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init29 = tensor.empty() : tensor<1xf32>
  %init30 = tensor.empty() : tensor<1xf32>
  %init31 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op align = -1 must be at least 1
  %0:3 = moe.permute %x, %i experts 8 align -1 outs(%init29, %init30, %init31) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @permute_generic_dynamic_146(%x: tensor<?x?xbf16>, %i: tensor<?x?xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = -1 must be at least 1
  %0:3 = "moe.permute"(%x, %i, %x, %i, %i) <{num_experts = -1 : i64, align = -1 : i64}> : (tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xi32>)
  return
}

// -----

func.func @layer_align_147(%x: tensor<4x8xbf16>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xbf16>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op align = -1 must be at least 1
  %0:2 = moe.layer %x, %wr experts(%w, %w, %w) {k = 2 : i64, align = -1 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>) -> (tensor<4x8xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_k_148(%x: tensor<4x8xbf16>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xbf16>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op k = -1 must be at least 1
  %0:2 = moe.layer %x, %wr experts(%w, %w, %w) {k = -1 : i64, num_groups = -1 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>) -> (tensor<4x8xbf16>, tensor<f32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_axis_149(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init113 = tensor.empty() : tensor<8x4xf32>
  %init114 = tensor.empty() : tensor<4xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op grid_axis = -1 must be ≥ 0
  %0:2 = moe.all_to_all %x, %s on @ep axis -1 outs(%init113, %init114) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xf32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @aux_loss_axis_150(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init115 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op grid axis -1 is out of range for grid @ep of rank 1
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.0 outs(%init115) {grid = @ep, grid_axes = array<i64: -1>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_seq_length_151(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init116 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op seq_length = -1 must be at least 1
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.0 outs(%init116) {seq_length = -1 : i64} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @topk_k_152(%s: tensor<4x8xf32>) {
  %init117 = tensor.empty() : tensor<4x0xf32>
  %init118 = tensor.empty() : tensor<4x0xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = 0 must be at least 1
  %w, %i = moe.topk softmax %s k 0 outs(%init117, %init118) : tensor<4x8xf32> -> tensor<4x0xf32>, tensor<4x0xi32>
  return
}

// -----

func.func @topk_k_generic_153(%s: tensor<4x8xf32>) {
  %dest59 = tensor.empty() : tensor<4x1xf32>
  %dest60 = tensor.empty() : tensor<4x1xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op k = 0 must be at least 1
  %0:2 = "moe.topk"(%s, %dest59, %dest60) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 0 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return
}

// -----

func.func @topk_everything_dynamic_154(%s: tensor<?x?xf32>) {
  %init119_c0 = arith.constant 0 : index
  %init119_d0 = tensor.dim %s, %init119_c0 : tensor<?x?xf32>
  %init119 = tensor.empty(%init119_d0) : tensor<?x0xf32>
  %init120_c0 = arith.constant 0 : index
  %init120_d0 = tensor.dim %s, %init120_c0 : tensor<?x?xf32>
  %init120 = tensor.empty(%init120_d0) : tensor<?x0xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = 0 must be at least 1
  %w, %i = moe.topk softmax %s k 0 outs(%init119, %init120) {num_groups = 0 : i64, group_topk = 0 : i64, group_score_topq = 0 : i64} : tensor<?x?xf32> -> tensor<?x0xf32>, tensor<?x0xi32>
  return
}

// -----

func.func @permute_experts_155(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init121 = tensor.empty() : tensor<8x8xbf16>
  %init122 = tensor.empty() : tensor<0xi32>
  %init123 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = 0 must be at least 1
  %0:3 = moe.permute %x, %i experts 0 align 1 outs(%init121, %init122, %init123) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<8x8xbf16>, tensor<0xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_align_156(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init124 = tensor.empty() : tensor<0x8xbf16>
  %init125 = tensor.empty() : tensor<8xi32>
  %init126 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op align = 0 must be at least 1
  %0:3 = moe.permute %x, %i experts 8 align 0 outs(%init124, %init125, %init126) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<0x8xbf16>, tensor<8xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_generic_dynamic_157(%x: tensor<?x?xbf16>, %i: tensor<?x?xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = 0 must be at least 1
  %0:3 = "moe.permute"(%x, %i, %x, %i, %i) <{num_experts = 0 : i64, align = 0 : i64}> : (tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xi32>)
  return
}

// -----

func.func @layer_align_158(%x: tensor<4x8xbf16>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xbf16>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op align = 0 must be at least 1
  %0:2 = moe.layer %x, %wr experts(%w, %w, %w) {k = 2 : i64, align = 0 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>) -> (tensor<4x8xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_k_159(%x: tensor<4x8xbf16>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xbf16>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op k = 0 must be at least 1
  %0:2 = moe.layer %x, %wr experts(%w, %w, %w) {k = 0 : i64, num_groups = 0 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>) -> (tensor<4x8xbf16>, tensor<f32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_axis_160(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init127 = tensor.empty() : tensor<8x4xf32>
  %init128 = tensor.empty() : tensor<4xi32>
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 outs(%init127, %init128) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xf32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @aux_loss_axis_161(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init129 = tensor.empty() : tensor<f32>
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.0 outs(%init129) {grid = @ep, grid_axes = array<i64: 0>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_seq_length_162(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init130 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op seq_length = 0 must be at least 1
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.0 outs(%init130) {seq_length = 0 : i64} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @topk_k_163(%s: tensor<4x8xf32>) {
  %init131 = tensor.empty() : tensor<4x9223372036854775807xf32>
  %init132 = tensor.empty() : tensor<4x9223372036854775807xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = 9223372036854775807 exceeds the number of experts E = 8
  %w, %i = moe.topk softmax %s k 9223372036854775807 outs(%init131, %init132) : tensor<4x8xf32> -> tensor<4x9223372036854775807xf32>, tensor<4x9223372036854775807xi32>
  return
}

// -----

func.func @topk_k_generic_164(%s: tensor<4x8xf32>) {
  %dest61 = tensor.empty() : tensor<4x1xf32>
  %dest62 = tensor.empty() : tensor<4x1xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op result 'weights' must be [4, 9223372036854775807] of f32 ([T, k] in f32), got tensor<4x1xf32>
  %0:2 = "moe.topk"(%s, %dest61, %dest62) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = 9223372036854775807 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return
}

// -----

func.func @topk_everything_dynamic_165(%s: tensor<?x?xf32>) {
  %init133_c0 = arith.constant 0 : index
  %init133_d0 = tensor.dim %s, %init133_c0 : tensor<?x?xf32>
  %init133 = tensor.empty(%init133_d0) : tensor<?x9223372036854775807xf32>
  %init134_c0 = arith.constant 0 : index
  %init134_d0 = tensor.dim %s, %init134_c0 : tensor<?x?xf32>
  %init134 = tensor.empty(%init134_d0) : tensor<?x9223372036854775807xi32>
  %w, %i = moe.topk softmax %s k 9223372036854775807 outs(%init133, %init134) {num_groups = 9223372036854775807 : i64, group_topk = 9223372036854775807 : i64, group_score_topq = 9223372036854775807 : i64} : tensor<?x?xf32> -> tensor<?x9223372036854775807xf32>, tensor<?x9223372036854775807xi32>
  return
}

// -----

func.func @permute_experts_166(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init135 = tensor.empty() : tensor<8x8xbf16>
  %init136 = tensor.empty() : tensor<9223372036854775807xi32>
  %init137 = tensor.empty() : tensor<4x2xi32>
  %0:3 = moe.permute %x, %i experts 9223372036854775807 align 1 outs(%init135, %init136, %init137) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<8x8xbf16>, tensor<9223372036854775807xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_align_167(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init138 = tensor.empty() : tensor<1x8xbf16>
  %init139 = tensor.empty() : tensor<8xi32>
  %init140 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op R = T·K + E·(align − 1) overflows 64 bits (T = 4, K = 2, E = 8, align = 9223372036854775807)
  %0:3 = moe.permute %x, %i experts 8 align 9223372036854775807 outs(%init138, %init139, %init140) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<1x8xbf16>, tensor<8xi32>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_generic_dynamic_168(%x: tensor<?x?xbf16>, %i: tensor<?x?xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op R = T·K + E·(align − 1) overflows 64 bits (T = ?, K = ?, E = 9223372036854775807, align = 9223372036854775807)
  %0:3 = "moe.permute"(%x, %i, %x, %i, %i) <{num_experts = 9223372036854775807 : i64, align = 9223372036854775807 : i64}> : (tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xi32>)
  return
}

// -----

func.func @layer_align_169(%x: tensor<4x8xbf16>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xbf16>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op R = T·K + E·(align − 1) overflows 64 bits (T = 4, K = 2, E = 4, align = 9223372036854775807)
  %0:2 = moe.layer %x, %wr experts(%w, %w, %w) {k = 2 : i64, align = 9223372036854775807 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>) -> (tensor<4x8xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_k_170(%x: tensor<4x8xbf16>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xbf16>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op k = 9223372036854775807 exceeds the number of experts E = 4
  %0:2 = moe.layer %x, %wr experts(%w, %w, %w) {k = 9223372036854775807 : i64, num_groups = 9223372036854775807 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>) -> (tensor<4x8xbf16>, tensor<f32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_axis_171(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init141 = tensor.empty() : tensor<8x4xf32>
  %init142 = tensor.empty() : tensor<4xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op grid axis 9223372036854775807 is out of range for grid @ep of rank 1
  %0:2 = moe.all_to_all %x, %s on @ep axis 9223372036854775807 outs(%init141, %init142) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xf32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @aux_loss_axis_172(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init143 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op grid axis 9223372036854775807 is out of range for grid @ep of rank 1
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.0 outs(%init143) {grid = @ep, grid_axes = array<i64: 9223372036854775807>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_seq_length_173(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init144 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op T = 4 tokens are not divisible by seq_length = 9223372036854775807
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.0 outs(%init144) {seq_length = 9223372036854775807 : i64} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @topk_k_174(%s: tensor<4x8xf32>) {
  %init32 = tensor.empty() : tensor<1xf32>
  %init33 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = -9223372036854775808 must be at least 1
  %w, %i = moe.topk softmax %s k -9223372036854775808 outs(%init32, %init33) : tensor<4x8xf32> -> tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @topk_k_generic_175(%s: tensor<4x8xf32>) {
  %dest63 = tensor.empty() : tensor<4x1xf32>
  %dest64 = tensor.empty() : tensor<4x1xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op k = -9223372036854775808 must be at least 1
  %0:2 = "moe.topk"(%s, %dest63, %dest64) <{operandSegmentSizes = array<i32: 1, 0, 2>, k = -9223372036854775808 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return
}

// -----

func.func @topk_everything_dynamic_176(%s: tensor<?x?xf32>) {
  %init34 = tensor.empty() : tensor<1xf32>
  %init35 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = -9223372036854775808 must be at least 1
  %w, %i = moe.topk softmax %s k -9223372036854775808 outs(%init34, %init35) {num_groups = -9223372036854775808 : i64, group_topk = -9223372036854775808 : i64, group_score_topq = -9223372036854775808 : i64} : tensor<?x?xf32> -> tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @permute_experts_177(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init36 = tensor.empty() : tensor<1xf32>
  %init37 = tensor.empty() : tensor<1xf32>
  %init38 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = -9223372036854775808 must be at least 1
  %0:3 = moe.permute %x, %i experts -9223372036854775808 align 1 outs(%init36, %init37, %init38) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @permute_align_178(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %init39 = tensor.empty() : tensor<1xf32>
  %init40 = tensor.empty() : tensor<1xf32>
  %init41 = tensor.empty() : tensor<1xf32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op align = -9223372036854775808 must be at least 1
  %0:3 = moe.permute %x, %i experts 8 align -9223372036854775808 outs(%init39, %init40, %init41) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  return
}

// -----

func.func @permute_generic_dynamic_179(%x: tensor<?x?xbf16>, %i: tensor<?x?xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = -9223372036854775808 must be at least 1
  %0:3 = "moe.permute"(%x, %i, %x, %i, %i) <{num_experts = -9223372036854775808 : i64, align = -9223372036854775808 : i64}> : (tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xi32>) -> (tensor<?x?xbf16>, tensor<?x?xi32>, tensor<?x?xi32>)
  return
}

// -----

func.func @layer_align_180(%x: tensor<4x8xbf16>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xbf16>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op align = -9223372036854775808 must be at least 1
  %0:2 = moe.layer %x, %wr experts(%w, %w, %w) {k = 2 : i64, align = -9223372036854775808 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>) -> (tensor<4x8xbf16>, tensor<f32>)
  return
}

// -----

func.func @layer_k_181(%x: tensor<4x8xbf16>, %wr: tensor<8x4xf32>, %w: tensor<4x8x8xbf16>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op k = -9223372036854775808 must be at least 1
  %0:2 = moe.layer %x, %wr experts(%w, %w, %w) {k = -9223372036854775808 : i64, num_groups = -9223372036854775808 : i64, score_function = #moe<score_function softmax>} : (tensor<4x8xbf16>, tensor<8x4xf32>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>, tensor<4x8x8xbf16>) -> (tensor<4x8xbf16>, tensor<f32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_axis_182(%x: tensor<8x4xf32>, %s: tensor<4xi32>) {
  %init145 = tensor.empty() : tensor<8x4xf32>
  %init146 = tensor.empty() : tensor<4xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op grid_axis = -9223372036854775808 must be ≥ 0
  %0:2 = moe.all_to_all %x, %s on @ep axis -9223372036854775808 outs(%init145, %init146) : tensor<8x4xf32>, tensor<4xi32> -> tensor<8x4xf32>, tensor<4xi32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @aux_loss_axis_183(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init147 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op grid axis -9223372036854775808 is out of range for grid @ep of rank 1
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.0 outs(%init147) {grid = @ep, grid_axes = array<i64: -9223372036854775808>} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @aux_loss_seq_length_184(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %init148 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op seq_length = -9223372036854775808 must be at least 1
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.0 outs(%init148) {seq_length = -9223372036854775808 : i64} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<f32>
  return
}

// -----

func.func @permute_tokens_overflow_185(%x: tensor<4611686018427387904x8xbf16>, %i: tensor<4611686018427387904x2xi32>) {
  %init149 = tensor.empty() : tensor<1x8xbf16>
  %init150 = tensor.empty() : tensor<8xi32>
  %init151 = tensor.empty() : tensor<4611686018427387904x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op R = T·K + E·(align − 1) overflows 64 bits (T = 4611686018427387904, K = 2, E = 8, align = 1)
  %0:3 = moe.permute %x, %i experts 8 align 1 outs(%init149, %init150, %init151) : tensor<4611686018427387904x8xbf16>, tensor<4611686018427387904x2xi32> -> tensor<1x8xbf16>, tensor<8xi32>, tensor<4611686018427387904x2xi32>
  return
}

// -----

func.func @z_loss_coeff_186(%l: tensor<4x8xf32>) {
  %init152 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op coeff = nan must be non-negative and finite
  %0 = moe.z_loss %l coeff 0x7FF8000000000000 outs(%init152) : tensor<4x8xf32> -> tensor<f32>
  return
}

// -----

func.func @topk_scaling_187(%s: tensor<4x8xf32>) {
  %init153 = tensor.empty() : tensor<4x2xf32>
  %init154 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op scaling_factor = nan must be positive and finite
  %w, %i = moe.topk softmax %s k 2 outs(%init153, %init154) {scaling_factor = 0x7FF8000000000000 : f64} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @z_loss_coeff_188(%l: tensor<4x8xf32>) {
  %init155 = tensor.empty() : tensor<f32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op coeff = -inf must be non-negative and finite
  %0 = moe.z_loss %l coeff 0xFFF0000000000000 outs(%init155) : tensor<4x8xf32> -> tensor<f32>
  return
}

// -----

func.func @topk_scaling_189(%s: tensor<4x8xf32>) {
  %init156 = tensor.empty() : tensor<4x2xf32>
  %init157 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op scaling_factor = -inf must be positive and finite
  %w, %i = moe.topk softmax %s k 2 outs(%init156, %init157) {scaling_factor = 0xFFF0000000000000 : f64} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @z_loss_coeff_190(%l: tensor<4x8xf32>) {
  %init158 = tensor.empty() : tensor<f32>
  %0 = moe.z_loss %l coeff -0.0 outs(%init158) : tensor<4x8xf32> -> tensor<f32>
  return
}

// -----

func.func @topk_scaling_191(%s: tensor<4x8xf32>) {
  %init159 = tensor.empty() : tensor<4x2xf32>
  %init160 = tensor.empty() : tensor<4x2xi32>
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op scaling_factor = -0 must be positive and finite
  %w, %i = moe.topk softmax %s k 2 outs(%init159, %init160) {scaling_factor = -0.0 : f64} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @z_loss_coeff_192(%l: tensor<4x8xf32>) {
  %init161 = tensor.empty() : tensor<f32>
  %0 = moe.z_loss %l coeff 1.0e308 outs(%init161) : tensor<4x8xf32> -> tensor<f32>
  return
}

// -----

func.func @topk_scaling_193(%s: tensor<4x8xf32>) {
  %init162 = tensor.empty() : tensor<4x2xf32>
  %init163 = tensor.empty() : tensor<4x2xi32>
  %w, %i = moe.topk softmax %s k 2 outs(%init162, %init163) {scaling_factor = 1.0e308 : f64} : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

// A layer whose number of experts is not static used to pass the verifier
// and crash moe-expand-layer (moe.permute needs E as an attribute).
func.func @layer_dynamic_experts(%x: tensor<64x32xbf16>, %wr: tensor<32x?xf32>, %wg: tensor<?x32x48xbf16>, %wd: tensor<?x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op the number of experts E must be static, but 'router_weight' dim 1 is dynamic (tensor<32x?xf32>)
  %o:2 = moe.layer %x, %wr experts(%wg, %wg, %wd) {k = 2 : i64, align = 16 : i64, score_function = #moe<score_function softmax>} : (tensor<64x32xbf16>, tensor<32x?xf32>, tensor<?x32x48xbf16>, tensor<?x32x48xbf16>, tensor<?x48x32xbf16>) -> (tensor<64x32xbf16>, tensor<f32>)
  return %o#0, %o#1 : tensor<64x32xbf16>, tensor<f32>
}

// -----

// Dynamic E with a static expert-weight E is still refused: the router
// weight is where moe-expand-layer reads E.
func.func @layer_dynamic_router_experts(%x: tensor<?x?xf32>, %wr: tensor<?x?xf32>, %wg: tensor<8x?x?xf32>) -> (tensor<?x?xf32>, tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.layer' op the number of experts E must be static, but 'router_weight' dim 1 is dynamic (tensor<?x?xf32>)
  %o:2 = moe.layer %x, %wr experts(%wg, %wg, %wg) {k = 2 : i64, score_function = #moe<score_function softmax>} : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<8x?x?xf32>, tensor<8x?x?xf32>, tensor<8x?x?xf32>) -> (tensor<?x?xf32>, tensor<f32>)
  return %o#0, %o#1 : tensor<?x?xf32>, tensor<f32>
}
