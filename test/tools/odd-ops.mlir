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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must be a rank-2 tensor [T, H], got rank 0 (tensor<f32>)
  %0 = moe.gate %a, %b : tensor<f32>, tensor<8x4xf32>
  return
}

// -----

func.func @route_rank0_2(%a: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)
  %0 = moe.route softmax %a : tensor<f32>
  return
}

// -----

func.func @topk_rank0_3(%a: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)
  %w, %i = moe.topk sigmoid %a k 2 : tensor<f32>
  return
}

// -----

func.func @aux_loss_rank0_4(%a: tensor<f32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 : tensor<f32>, tensor<4x2xi32>
  return
}

// -----

func.func @z_loss_rank0_5(%a: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)
  %0 = moe.z_loss %a coeff 1.0e-3 : tensor<f32>
  return
}

// -----

func.func @bias_update_rank0_6(%a: tensor<f32>, %c: tensor<8xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 0 (tensor<f32>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 : tensor<f32>, tensor<8xi32>
  return
}

// -----

func.func @permute_rank0_7(%a: tensor<f32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must be a rank-2 tensor [T, H], got rank 0 (tensor<f32>)
  %0:3 = moe.permute %a, %i experts 8 align 16 : tensor<f32>, tensor<4x2xi32>
  return
}

// -----

func.func @grouped_matmul_rank0_8(%a: tensor<f32>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must be a rank-2 tensor [R, Kd], got rank 0 (tensor<f32>)
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<f32>, tensor<2x8x4xf32>, tensor<2xi32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_rank0_9(%a: tensor<f32>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must be a rank-2 tensor [R, Kd], got rank 0 (tensor<f32>)
  %0 = moe.grouped_weight_grad %a, %d, %s : (tensor<f32>, tensor<4x6xf32>, tensor<2xi32>) -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_rank0_10(%a: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must be a rank-2 tensor [R, 2F] (gate and up), got rank 0 (tensor<f32>)
  %0 = moe.glu silu %a : tensor<f32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_rank0_11(%a: tensor<f32>, %s: tensor<4xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must be a rank-2 tensor [R, H], got rank 0 (tensor<f32>)
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 : (tensor<f32>, tensor<4xi32>) -> (tensor<f32>, tensor<4xi32>)
  return
}

// -----

func.func @combine_rank0_12(%a: tensor<f32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must be a rank-2 tensor [R, H], got rank 0 (tensor<f32>)
  %0 = moe.combine %a, %r, %w : tensor<f32>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @quantize_rank0_13(%a: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must be a ranked tensor of rank ≥ 1, got tensor<f32>
  %0:2 = moe.quantize tensorwise %a : (tensor<f32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @dequantize_rank0_14(%a: tensor<f32>, %s: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must be a ranked tensor of rank ≥ 1, got tensor<f32>
  %0 = moe.dequantize tensorwise %a, %s : (tensor<f32>, tensor<f32>) -> tensor<4x8xf32>
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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must be a rank-2 tensor [T, H], got rank 0 (tensor<f32>)
  %0 = "moe.gate"(%a, %b) : (tensor<f32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_rank0_17(%a: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must be a rank-2 tensor [T, E], got rank 0 (tensor<f32>)
  %0:2 = "moe.topk"(%a) <{k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<f32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_rank0_18(%a: tensor<f32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must be a rank-2 tensor [T, H], got rank 0 (tensor<f32>)
  %0:3 = "moe.permute"(%a, %i) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<f32>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_rank0_19(%a: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must be a rank-2 tensor [R, 2F] (gate and up), got rank 0 (tensor<f32>)
  %0 = "moe.glu"(%a) <{activation = #moe<activation relu>}> : (tensor<f32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_rank0_20(%a: tensor<f32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must be a rank-2 tensor [R, H], got rank 0 (tensor<f32>)
  %0 = "moe.combine"(%a, %r, %w) : (tensor<f32>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_i1_21(%a: tensor<4x8xi1>, %b: tensor<8x4xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got i1
  %0 = moe.gate %a, %b : tensor<4x8xi1>, tensor<8x4xf32>
  return
}

// -----

func.func @route_i1_22(%a: tensor<4x8xi1>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must have f32 elements, got i1
  %0 = moe.route softmax %a : tensor<4x8xi1>
  return
}

// -----

func.func @topk_i1_23(%a: tensor<4x8xi1>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must have f32 elements, got i1
  %w, %i = moe.topk sigmoid %a k 2 : tensor<4x8xi1>
  return
}

// -----

func.func @aux_loss_i1_24(%a: tensor<4x8xi1>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must have f32 elements, got i1
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 : tensor<4x8xi1>, tensor<4x2xi32>
  return
}

// -----

func.func @z_loss_i1_25(%a: tensor<4x8xi1>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must have f32 elements, got i1
  %0 = moe.z_loss %a coeff 1.0e-3 : tensor<4x8xi1>
  return
}

// -----

func.func @bias_update_i1_26(%a: tensor<4x8xi1>, %c: tensor<8xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<4x8xi1>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 : tensor<4x8xi1>, tensor<8xi32>
  return
}

// -----

func.func @permute_i1_27(%a: tensor<4x8xi1>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1
  %0:3 = moe.permute %a, %i experts 8 align 16 : tensor<4x8xi1>, tensor<4x2xi32>
  return
}

// -----

func.func @grouped_matmul_i1_28(%a: tensor<4x8xi1>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<4x8xi1>, tensor<2x8x4xf32>, tensor<2xi32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_i1_29(%a: tensor<4x8xi1>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must have bf16, f16 or f32 elements, got i1
  %0 = moe.grouped_weight_grad %a, %d, %s : (tensor<4x8xi1>, tensor<4x6xf32>, tensor<2xi32>) -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_i1_30(%a: tensor<4x8xi1>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got i1
  %0 = moe.glu silu %a : tensor<4x8xi1>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_i1_31(%a: tensor<4x8xi1>, %s: tensor<4xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 : (tensor<4x8xi1>, tensor<4xi32>) -> (tensor<4x8xi1>, tensor<4xi32>)
  return
}

// -----

func.func @combine_i1_32(%a: tensor<4x8xi1>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got i1
  %0 = moe.combine %a, %r, %w : tensor<4x8xi1>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @quantize_i1_33(%a: tensor<4x8xi1>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got i1
  %0:2 = moe.quantize tensorwise %a : (tensor<4x8xi1>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @dequantize_i1_34(%a: tensor<4x8xi1>, %s: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got i1
  %0 = moe.dequantize tensorwise %a, %s : (tensor<4x8xi1>, tensor<f32>) -> tensor<4x8xf32>
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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got i1
  %0 = "moe.gate"(%a, %b) : (tensor<4x8xi1>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_i1_37(%a: tensor<4x8xi1>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must have f32 elements, got i1
  %0:2 = "moe.topk"(%a) <{k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<4x8xi1>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_i1_38(%a: tensor<4x8xi1>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got i1
  %0:3 = "moe.permute"(%a, %i) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xi1>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_i1_39(%a: tensor<4x8xi1>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got i1
  %0 = "moe.glu"(%a) <{activation = #moe<activation relu>}> : (tensor<4x8xi1>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_i1_40(%a: tensor<4x8xi1>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got i1
  %0 = "moe.combine"(%a, %r, %w) : (tensor<4x8xi1>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_unranked_41(%a: tensor<*xf32>, %b: tensor<8x4xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:26: error: custom op 'moe.gate' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'
  %0 = moe.gate %a, %b : tensor<*xf32>, tensor<8x4xf32>
  return
}

// -----

func.func @route_unranked_42(%a: tensor<*xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:31: error: custom op 'moe.route' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'
  %0 = moe.route softmax %a : tensor<*xf32>
  return
}

// -----

func.func @topk_unranked_43(%a: tensor<*xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:38: error: custom op 'moe.topk' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'
  %w, %i = moe.topk sigmoid %a k 2 : tensor<*xf32>
  return
}

// -----

func.func @aux_loss_unranked_44(%a: tensor<*xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:62: error: custom op 'moe.aux_loss' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 : tensor<*xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @z_loss_unranked_45(%a: tensor<*xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:37: error: custom op 'moe.z_loss' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'
  %0 = moe.z_loss %a coeff 1.0e-3 : tensor<*xf32>
  return
}

// -----

func.func @bias_update_unranked_46(%a: tensor<*xf32>, %c: tensor<8xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:52: error: custom op 'moe.expert_bias_update' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 : tensor<*xf32>, tensor<8xi32>
  return
}

// -----

func.func @permute_unranked_47(%a: tensor<*xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:50: error: custom op 'moe.permute' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'
  %0:3 = moe.permute %a, %i experts 8 align 16 : tensor<*xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @grouped_matmul_unranked_48(%a: tensor<*xf32>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<*xf32>, tensor<2x8x4xf32>, tensor<2xi32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_unranked_49(%a: tensor<*xf32>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0 = moe.grouped_weight_grad %a, %d, %s : (tensor<*xf32>, tensor<4x6xf32>, tensor<2xi32>) -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_unranked_50(%a: tensor<*xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:26: error: custom op 'moe.glu' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'
  %0 = moe.glu silu %a : tensor<*xf32>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_unranked_51(%a: tensor<*xf32>, %s: tensor<4xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 : (tensor<*xf32>, tensor<4xi32>) -> (tensor<*xf32>, tensor<4xi32>)
  return
}

// -----

func.func @combine_unranked_52(%a: tensor<*xf32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:33: error: custom op 'moe.combine' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'
  %0 = moe.combine %a, %r, %w : tensor<*xf32>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @quantize_unranked_53(%a: tensor<*xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0:2 = moe.quantize tensorwise %a : (tensor<*xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @dequantize_unranked_54(%a: tensor<*xf32>, %s: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0 = moe.dequantize tensorwise %a, %s : (tensor<*xf32>, tensor<f32>) -> tensor<4x8xf32>
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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0 = "moe.gate"(%a, %b) : (tensor<*xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_unranked_57(%a: tensor<*xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0:2 = "moe.topk"(%a) <{k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<*xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_unranked_58(%a: tensor<*xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0:3 = "moe.permute"(%a, %i) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<*xf32>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_unranked_59(%a: tensor<*xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0 = "moe.glu"(%a) <{activation = #moe<activation relu>}> : (tensor<*xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_unranked_60(%a: tensor<*xf32>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'
  %0 = "moe.combine"(%a, %r, %w) : (tensor<*xf32>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_complex_61(%a: tensor<4x8xcomplex<f32>>, %b: tensor<8x4xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = moe.gate %a, %b : tensor<4x8xcomplex<f32>>, tensor<8x4xf32>
  return
}

// -----

func.func @route_complex_62(%a: tensor<4x8xcomplex<f32>>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must have f32 elements, got complex<f32>
  %0 = moe.route softmax %a : tensor<4x8xcomplex<f32>>
  return
}

// -----

func.func @topk_complex_63(%a: tensor<4x8xcomplex<f32>>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must have f32 elements, got complex<f32>
  %w, %i = moe.topk sigmoid %a k 2 : tensor<4x8xcomplex<f32>>
  return
}

// -----

func.func @aux_loss_complex_64(%a: tensor<4x8xcomplex<f32>>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must have f32 elements, got complex<f32>
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 : tensor<4x8xcomplex<f32>>, tensor<4x2xi32>
  return
}

// -----

func.func @z_loss_complex_65(%a: tensor<4x8xcomplex<f32>>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must have f32 elements, got complex<f32>
  %0 = moe.z_loss %a coeff 1.0e-3 : tensor<4x8xcomplex<f32>>
  return
}

// -----

func.func @bias_update_complex_66(%a: tensor<4x8xcomplex<f32>>, %c: tensor<8xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<4x8xcomplex<f32>>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 : tensor<4x8xcomplex<f32>>, tensor<8xi32>
  return
}

// -----

func.func @permute_complex_67(%a: tensor<4x8xcomplex<f32>>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0:3 = moe.permute %a, %i experts 8 align 16 : tensor<4x8xcomplex<f32>>, tensor<4x2xi32>
  return
}

// -----

func.func @grouped_matmul_complex_68(%a: tensor<4x8xcomplex<f32>>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<4x8xcomplex<f32>>, tensor<2x8x4xf32>, tensor<2xi32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_complex_69(%a: tensor<4x8xcomplex<f32>>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = moe.grouped_weight_grad %a, %d, %s : (tensor<4x8xcomplex<f32>>, tensor<4x6xf32>, tensor<2xi32>) -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_complex_70(%a: tensor<4x8xcomplex<f32>>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = moe.glu silu %a : tensor<4x8xcomplex<f32>>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_complex_71(%a: tensor<4x8xcomplex<f32>>, %s: tensor<4xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 : (tensor<4x8xcomplex<f32>>, tensor<4xi32>) -> (tensor<4x8xcomplex<f32>>, tensor<4xi32>)
  return
}

// -----

func.func @combine_complex_72(%a: tensor<4x8xcomplex<f32>>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = moe.combine %a, %r, %w : tensor<4x8xcomplex<f32>>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @quantize_complex_73(%a: tensor<4x8xcomplex<f32>>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got complex<f32>
  %0:2 = moe.quantize tensorwise %a : (tensor<4x8xcomplex<f32>>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @dequantize_complex_74(%a: tensor<4x8xcomplex<f32>>, %s: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0 = moe.dequantize tensorwise %a, %s : (tensor<4x8xcomplex<f32>>, tensor<f32>) -> tensor<4x8xf32>
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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = "moe.gate"(%a, %b) : (tensor<4x8xcomplex<f32>>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_complex_77(%a: tensor<4x8xcomplex<f32>>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must have f32 elements, got complex<f32>
  %0:2 = "moe.topk"(%a) <{k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<4x8xcomplex<f32>>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_complex_78(%a: tensor<4x8xcomplex<f32>>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got complex<f32>
  %0:3 = "moe.permute"(%a, %i) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xcomplex<f32>>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_complex_79(%a: tensor<4x8xcomplex<f32>>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = "moe.glu"(%a) <{activation = #moe<activation relu>}> : (tensor<4x8xcomplex<f32>>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_complex_80(%a: tensor<4x8xcomplex<f32>>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got complex<f32>
  %0 = "moe.combine"(%a, %r, %w) : (tensor<4x8xcomplex<f32>>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_index_81(%a: tensor<4x8xindex>, %b: tensor<8x4xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got index
  %0 = moe.gate %a, %b : tensor<4x8xindex>, tensor<8x4xf32>
  return
}

// -----

func.func @route_index_82(%a: tensor<4x8xindex>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must have f32 elements, got index
  %0 = moe.route softmax %a : tensor<4x8xindex>
  return
}

// -----

func.func @topk_index_83(%a: tensor<4x8xindex>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must have f32 elements, got index
  %w, %i = moe.topk sigmoid %a k 2 : tensor<4x8xindex>
  return
}

// -----

func.func @aux_loss_index_84(%a: tensor<4x8xindex>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must have f32 elements, got index
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 : tensor<4x8xindex>, tensor<4x2xi32>
  return
}

// -----

func.func @z_loss_index_85(%a: tensor<4x8xindex>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must have f32 elements, got index
  %0 = moe.z_loss %a coeff 1.0e-3 : tensor<4x8xindex>
  return
}

// -----

func.func @bias_update_index_86(%a: tensor<4x8xindex>, %c: tensor<8xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<4x8xindex>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 : tensor<4x8xindex>, tensor<8xi32>
  return
}

// -----

func.func @permute_index_87(%a: tensor<4x8xindex>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got index
  %0:3 = moe.permute %a, %i experts 8 align 16 : tensor<4x8xindex>, tensor<4x2xi32>
  return
}

// -----

func.func @grouped_matmul_index_88(%a: tensor<4x8xindex>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got index
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<4x8xindex>, tensor<2x8x4xf32>, tensor<2xi32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_index_89(%a: tensor<4x8xindex>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must have bf16, f16 or f32 elements, got index
  %0 = moe.grouped_weight_grad %a, %d, %s : (tensor<4x8xindex>, tensor<4x6xf32>, tensor<2xi32>) -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_index_90(%a: tensor<4x8xindex>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got index
  %0 = moe.glu silu %a : tensor<4x8xindex>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_index_91(%a: tensor<4x8xindex>, %s: tensor<4xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got index
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 : (tensor<4x8xindex>, tensor<4xi32>) -> (tensor<4x8xindex>, tensor<4xi32>)
  return
}

// -----

func.func @combine_index_92(%a: tensor<4x8xindex>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got index
  %0 = moe.combine %a, %r, %w : tensor<4x8xindex>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @quantize_index_93(%a: tensor<4x8xindex>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got index
  %0:2 = moe.quantize tensorwise %a : (tensor<4x8xindex>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @dequantize_index_94(%a: tensor<4x8xindex>, %s: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got index
  %0 = moe.dequantize tensorwise %a, %s : (tensor<4x8xindex>, tensor<f32>) -> tensor<4x8xf32>
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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got index
  %0 = "moe.gate"(%a, %b) : (tensor<4x8xindex>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_index_97(%a: tensor<4x8xindex>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must have f32 elements, got index
  %0:2 = "moe.topk"(%a) <{k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<4x8xindex>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_index_98(%a: tensor<4x8xindex>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got index
  %0:3 = "moe.permute"(%a, %i) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xindex>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_index_99(%a: tensor<4x8xindex>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got index
  %0 = "moe.glu"(%a) <{activation = #moe<activation relu>}> : (tensor<4x8xindex>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_index_100(%a: tensor<4x8xindex>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got index
  %0 = "moe.combine"(%a, %r, %w) : (tensor<4x8xindex>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_f64_101(%a: tensor<4x8xf64>, %b: tensor<8x4xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got f64
  %0 = moe.gate %a, %b : tensor<4x8xf64>, tensor<8x4xf32>
  return
}

// -----

func.func @route_f64_102(%a: tensor<4x8xf64>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must have f32 elements, got f64
  %0 = moe.route softmax %a : tensor<4x8xf64>
  return
}

// -----

func.func @topk_f64_103(%a: tensor<4x8xf64>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must have f32 elements, got f64
  %w, %i = moe.topk sigmoid %a k 2 : tensor<4x8xf64>
  return
}

// -----

func.func @aux_loss_f64_104(%a: tensor<4x8xf64>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must have f32 elements, got f64
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 : tensor<4x8xf64>, tensor<4x2xi32>
  return
}

// -----

func.func @z_loss_f64_105(%a: tensor<4x8xf64>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must have f32 elements, got f64
  %0 = moe.z_loss %a coeff 1.0e-3 : tensor<4x8xf64>
  return
}

// -----

func.func @bias_update_f64_106(%a: tensor<4x8xf64>, %c: tensor<8xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<4x8xf64>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 : tensor<4x8xf64>, tensor<8xi32>
  return
}

// -----

func.func @permute_f64_107(%a: tensor<4x8xf64>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f64
  %0:3 = moe.permute %a, %i experts 8 align 16 : tensor<4x8xf64>, tensor<4x2xi32>
  return
}

// -----

func.func @grouped_matmul_f64_108(%a: tensor<4x8xf64>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f64
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<4x8xf64>, tensor<2x8x4xf32>, tensor<2xi32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_f64_109(%a: tensor<4x8xf64>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must have bf16, f16 or f32 elements, got f64
  %0 = moe.grouped_weight_grad %a, %d, %s : (tensor<4x8xf64>, tensor<4x6xf32>, tensor<2xi32>) -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_f64_110(%a: tensor<4x8xf64>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got f64
  %0 = moe.glu silu %a : tensor<4x8xf64>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_f64_111(%a: tensor<4x8xf64>, %s: tensor<4xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f64
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 : (tensor<4x8xf64>, tensor<4xi32>) -> (tensor<4x8xf64>, tensor<4xi32>)
  return
}

// -----

func.func @combine_f64_112(%a: tensor<4x8xf64>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got f64
  %0 = moe.combine %a, %r, %w : tensor<4x8xf64>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @quantize_f64_113(%a: tensor<4x8xf64>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got f64
  %0:2 = moe.quantize tensorwise %a : (tensor<4x8xf64>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @dequantize_f64_114(%a: tensor<4x8xf64>, %s: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got f64
  %0 = moe.dequantize tensorwise %a, %s : (tensor<4x8xf64>, tensor<f32>) -> tensor<4x8xf32>
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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got f64
  %0 = "moe.gate"(%a, %b) : (tensor<4x8xf64>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_f64_117(%a: tensor<4x8xf64>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must have f32 elements, got f64
  %0:2 = "moe.topk"(%a) <{k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<4x8xf64>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_f64_118(%a: tensor<4x8xf64>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f64
  %0:3 = "moe.permute"(%a, %i) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xf64>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_f64_119(%a: tensor<4x8xf64>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got f64
  %0 = "moe.glu"(%a) <{activation = #moe<activation relu>}> : (tensor<4x8xf64>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_f64_120(%a: tensor<4x8xf64>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got f64
  %0 = "moe.combine"(%a, %r, %w) : (tensor<4x8xf64>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @gate_fnuz_121(%a: tensor<4x8xf8E4M3FNUZ>, %b: tensor<8x4xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = moe.gate %a, %b : tensor<4x8xf8E4M3FNUZ>, tensor<8x4xf32>
  return
}

// -----

func.func @route_fnuz_122(%a: tensor<4x8xf8E4M3FNUZ>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.route' op 'logits' must have f32 elements, got f8E4M3FNUZ
  %0 = moe.route softmax %a : tensor<4x8xf8E4M3FNUZ>
  return
}

// -----

func.func @topk_fnuz_123(%a: tensor<4x8xf8E4M3FNUZ>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op 'scores' must have f32 elements, got f8E4M3FNUZ
  %w, %i = moe.topk sigmoid %a k 2 : tensor<4x8xf8E4M3FNUZ>
  return
}

// -----

func.func @aux_loss_fnuz_124(%a: tensor<4x8xf8E4M3FNUZ>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op 'scores' must have f32 elements, got f8E4M3FNUZ
  %0 = moe.aux_loss batch %a, %i from softmax coeff 1.0e-2 : tensor<4x8xf8E4M3FNUZ>, tensor<4x2xi32>
  return
}

// -----

func.func @z_loss_fnuz_125(%a: tensor<4x8xf8E4M3FNUZ>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op 'logits' must have f32 elements, got f8E4M3FNUZ
  %0 = moe.z_loss %a coeff 1.0e-3 : tensor<4x8xf8E4M3FNUZ>
  return
}

// -----

func.func @bias_update_fnuz_126(%a: tensor<4x8xf8E4M3FNUZ>, %c: tensor<8xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.expert_bias_update' op 'bias' must be a rank-1 tensor [E], got rank 2 (tensor<4x8xf8E4M3FNUZ>)
  %0 = moe.expert_bias_update %a, %c rate 1.0e-3 : tensor<4x8xf8E4M3FNUZ>, tensor<8xi32>
  return
}

// -----

func.func @permute_fnuz_127(%a: tensor<4x8xf8E4M3FNUZ>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0:3 = moe.permute %a, %i experts 8 align 16 : tensor<4x8xf8E4M3FNUZ>, tensor<4x2xi32>
  return
}

// -----

func.func @grouped_matmul_fnuz_128(%a: tensor<4x8xf8E4M3FNUZ>, %b: tensor<2x8x4xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'a' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0 = moe.grouped_matmul %a, %b, %s : (tensor<4x8xf8E4M3FNUZ>, tensor<2x8x4xf32>, tensor<2xi32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @weight_grad_fnuz_129(%a: tensor<4x8xf8E4M3FNUZ>, %d: tensor<4x6xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.grouped_weight_grad' op 'a' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = moe.grouped_weight_grad %a, %d, %s : (tensor<4x8xf8E4M3FNUZ>, tensor<4x6xf32>, tensor<2xi32>) -> tensor<2x8x6xf32>
  return
}

// -----

func.func @glu_fnuz_130(%a: tensor<4x8xf8E4M3FNUZ>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = moe.glu silu %a : tensor<4x8xf8E4M3FNUZ>
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @all_to_all_fnuz_131(%a: tensor<4x8xf8E4M3FNUZ>, %s: tensor<4xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op 'input' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0:2 = moe.all_to_all %a, %s on @ep axis 0 : (tensor<4x8xf8E4M3FNUZ>, tensor<4xi32>) -> (tensor<4x8xf8E4M3FNUZ>, tensor<4xi32>)
  return
}

// -----

func.func @combine_fnuz_132(%a: tensor<4x8xf8E4M3FNUZ>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = moe.combine %a, %r, %w : tensor<4x8xf8E4M3FNUZ>, tensor<4x2xi32>, tensor<4x2xf32>
  return
}

// -----

func.func @quantize_fnuz_133(%a: tensor<4x8xf8E4M3FNUZ>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.quantize' op 'input' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0:2 = moe.quantize tensorwise %a : (tensor<4x8xf8E4M3FNUZ>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>)
  return
}

// -----

func.func @dequantize_fnuz_134(%a: tensor<4x8xf8E4M3FNUZ>, %s: tensor<f32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.dequantize' op 'input' must have f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0 = moe.dequantize tensorwise %a, %s : (tensor<4x8xf8E4M3FNUZ>, tensor<f32>) -> tensor<4x8xf32>
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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.gate' op 'x' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = "moe.gate"(%a, %b) : (tensor<4x8xf8E4M3FNUZ>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @topk_generic_fnuz_137(%a: tensor<4x8xf8E4M3FNUZ>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op 'scores' must have f32 elements, got f8E4M3FNUZ
  %0:2 = "moe.topk"(%a) <{k = 2 : i64, score_function = #moe<score_function sigmoid>}> : (tensor<4x8xf8E4M3FNUZ>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @permute_generic_fnuz_138(%a: tensor<4x8xf8E4M3FNUZ>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op 'x' must have bf16, f16, f32, f8E4M3FN or f8E5M2 elements, got f8E4M3FNUZ
  %0:3 = "moe.permute"(%a, %i) <{num_experts = 8 : i64, align = 1 : i64}> : (tensor<4x8xf8E4M3FNUZ>, tensor<4x2xi32>) -> (tensor<8x8xf32>, tensor<8xi32>, tensor<4x2xi32>)
  return
}

// -----

func.func @glu_generic_fnuz_139(%a: tensor<4x8xf8E4M3FNUZ>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.glu' op 'gate' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = "moe.glu"(%a) <{activation = #moe<activation relu>}> : (tensor<4x8xf8E4M3FNUZ>) -> tensor<4x4xf32>
  return
}

// -----

func.func @combine_generic_fnuz_140(%a: tensor<4x8xf8E4M3FNUZ>, %r: tensor<4x2xi32>, %w: tensor<4x2xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.combine' op 'y' must have bf16, f16 or f32 elements, got f8E4M3FNUZ
  %0 = "moe.combine"(%a, %r, %w) : (tensor<4x8xf8E4M3FNUZ>, tensor<4x2xi32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @topk_k_141(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = -1 must be at least 1
  %w, %i = moe.topk softmax %s k -1 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_k_generic_142(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op k = -1 must be at least 1
  %0:2 = "moe.topk"(%s) <{k = -1 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return
}

// -----

func.func @topk_everything_dynamic_143(%s: tensor<?x?xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = -1 must be at least 1
  %w, %i = moe.topk softmax %s k -1 {num_groups = -1 : i64, group_topk = -1 : i64, group_score_topq = -1 : i64} : tensor<?x?xf32>
  return
}

// -----

func.func @permute_experts_144(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = -1 must be at least 1
  %0:3 = moe.permute %x, %i experts -1 align 1 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_align_145(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op align = -1 must be at least 1
  %0:3 = moe.permute %x, %i experts 8 align -1 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_generic_dynamic_146(%x: tensor<?x?xbf16>, %i: tensor<?x?xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = -1 must be at least 1
  %0:3 = "moe.permute"(%x, %i) <{num_experts = -1 : i64, align = -1 : i64}> : (tensor<?x?xbf16>, tensor<?x?xi32>) -> (tensor<?x?xbf16>, tensor<?xi32>, tensor<?x?xi32>)
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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op grid_axis = -1 must be ≥ 0
  %0:2 = moe.all_to_all %x, %s on @ep axis -1 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @aux_loss_axis_150(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op grid axis -1 is out of range for grid @ep of rank 1
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.0 {grid = @ep, grid_axes = array<i64: -1>} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_seq_length_151(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op seq_length = -1 must be at least 1
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.0 {seq_length = -1 : i64} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_k_152(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = 0 must be at least 1
  %w, %i = moe.topk softmax %s k 0 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_k_generic_153(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op k = 0 must be at least 1
  %0:2 = "moe.topk"(%s) <{k = 0 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return
}

// -----

func.func @topk_everything_dynamic_154(%s: tensor<?x?xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = 0 must be at least 1
  %w, %i = moe.topk softmax %s k 0 {num_groups = 0 : i64, group_topk = 0 : i64, group_score_topq = 0 : i64} : tensor<?x?xf32>
  return
}

// -----

func.func @permute_experts_155(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = 0 must be at least 1
  %0:3 = moe.permute %x, %i experts 0 align 1 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_align_156(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op align = 0 must be at least 1
  %0:3 = moe.permute %x, %i experts 8 align 0 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_generic_dynamic_157(%x: tensor<?x?xbf16>, %i: tensor<?x?xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = 0 must be at least 1
  %0:3 = "moe.permute"(%x, %i) <{num_experts = 0 : i64, align = 0 : i64}> : (tensor<?x?xbf16>, tensor<?x?xi32>) -> (tensor<?x?xbf16>, tensor<?xi32>, tensor<?x?xi32>)
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
  %0:2 = moe.all_to_all %x, %s on @ep axis 0 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @aux_loss_axis_161(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.0 {grid = @ep, grid_axes = array<i64: 0>} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_seq_length_162(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op seq_length = 0 must be at least 1
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.0 {seq_length = 0 : i64} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_k_163(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = 9223372036854775807 exceeds the number of experts E = 8
  %w, %i = moe.topk softmax %s k 9223372036854775807 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_k_generic_164(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op result 'weights' must be [4, 9223372036854775807] of f32 ([T, k] in f32), got tensor<4x1xf32>
  %0:2 = "moe.topk"(%s) <{k = 9223372036854775807 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return
}

// -----

func.func @topk_everything_dynamic_165(%s: tensor<?x?xf32>) {
  %w, %i = moe.topk softmax %s k 9223372036854775807 {num_groups = 9223372036854775807 : i64, group_topk = 9223372036854775807 : i64, group_score_topq = 9223372036854775807 : i64} : tensor<?x?xf32>
  return
}

// -----

func.func @permute_experts_166(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  %0:3 = moe.permute %x, %i experts 9223372036854775807 align 1 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_align_167(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op R = T·K + E·(align − 1) overflows 64 bits (T = 4, K = 2, E = 8, align = 9223372036854775807)
  %0:3 = moe.permute %x, %i experts 8 align 9223372036854775807 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_generic_dynamic_168(%x: tensor<?x?xbf16>, %i: tensor<?x?xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op R = T·K + E·(align − 1) overflows 64 bits (T = ?, K = ?, E = 9223372036854775807, align = 9223372036854775807)
  %0:3 = "moe.permute"(%x, %i) <{num_experts = 9223372036854775807 : i64, align = 9223372036854775807 : i64}> : (tensor<?x?xbf16>, tensor<?x?xi32>) -> (tensor<?x?xbf16>, tensor<?xi32>, tensor<?x?xi32>)
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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op grid axis 9223372036854775807 is out of range for grid @ep of rank 1
  %0:2 = moe.all_to_all %x, %s on @ep axis 9223372036854775807 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @aux_loss_axis_172(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op grid axis 9223372036854775807 is out of range for grid @ep of rank 1
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.0 {grid = @ep, grid_axes = array<i64: 9223372036854775807>} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_seq_length_173(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op T = 4 tokens are not divisible by seq_length = 9223372036854775807
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.0 {seq_length = 9223372036854775807 : i64} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @topk_k_174(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = -9223372036854775808 must be at least 1
  %w, %i = moe.topk softmax %s k -9223372036854775808 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_k_generic_175(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.topk' op k = -9223372036854775808 must be at least 1
  %0:2 = "moe.topk"(%s) <{k = -9223372036854775808 : i64, score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<4x1xi32>)
  return
}

// -----

func.func @topk_everything_dynamic_176(%s: tensor<?x?xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op k = -9223372036854775808 must be at least 1
  %w, %i = moe.topk softmax %s k -9223372036854775808 {num_groups = -9223372036854775808 : i64, group_topk = -9223372036854775808 : i64, group_score_topq = -9223372036854775808 : i64} : tensor<?x?xf32>
  return
}

// -----

func.func @permute_experts_177(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = -9223372036854775808 must be at least 1
  %0:3 = moe.permute %x, %i experts -9223372036854775808 align 1 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_align_178(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op align = -9223372036854775808 must be at least 1
  %0:3 = moe.permute %x, %i experts 8 align -9223372036854775808 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_generic_dynamic_179(%x: tensor<?x?xbf16>, %i: tensor<?x?xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op num_experts = -9223372036854775808 must be at least 1
  %0:3 = "moe.permute"(%x, %i) <{num_experts = -9223372036854775808 : i64, align = -9223372036854775808 : i64}> : (tensor<?x?xbf16>, tensor<?x?xi32>) -> (tensor<?x?xbf16>, tensor<?xi32>, tensor<?x?xi32>)
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
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.all_to_all' op grid_axis = -9223372036854775808 must be ≥ 0
  %0:2 = moe.all_to_all %x, %s on @ep axis -9223372036854775808 : (tensor<8x4xf32>, tensor<4xi32>) -> (tensor<8x4xf32>, tensor<4xi32>)
  return
}

// -----

shard.grid @ep(shape = 4)
func.func @aux_loss_axis_183(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op grid axis -9223372036854775808 is out of range for grid @ep of rank 1
  %0 = moe.aux_loss global %s, %i from softmax coeff 1.0 {grid = @ep, grid_axes = array<i64: -9223372036854775808>} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @aux_loss_seq_length_184(%s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.aux_loss' op seq_length = -9223372036854775808 must be at least 1
  %0 = moe.aux_loss sequence %s, %i from softmax coeff 1.0 {seq_length = -9223372036854775808 : i64} : tensor<4x8xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @permute_tokens_overflow_185(%x: tensor<4611686018427387904x8xbf16>, %i: tensor<4611686018427387904x2xi32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:10: error: 'moe.permute' op R = T·K + E·(align − 1) overflows 64 bits (T = 4611686018427387904, K = 2, E = 8, align = 1)
  %0:3 = moe.permute %x, %i experts 8 align 1 : tensor<4611686018427387904x8xbf16>, tensor<4611686018427387904x2xi32>
  return
}

// -----

func.func @z_loss_coeff_186(%l: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op coeff = nan must be non-negative and finite
  %0 = moe.z_loss %l coeff 0x7FF8000000000000 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_scaling_187(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op scaling_factor = nan must be positive and finite
  %w, %i = moe.topk softmax %s k 2 {scaling_factor = 0x7FF8000000000000 : f64} : tensor<4x8xf32>
  return
}

// -----

func.func @z_loss_coeff_188(%l: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op coeff = -inf must be non-negative and finite
  %0 = moe.z_loss %l coeff 0xFFF0000000000000 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_scaling_189(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op scaling_factor = -inf must be positive and finite
  %w, %i = moe.topk softmax %s k 2 {scaling_factor = 0xFFF0000000000000 : f64} : tensor<4x8xf32>
  return
}

// -----

func.func @z_loss_coeff_190(%l: tensor<4x8xf32>) {
  %0 = moe.z_loss %l coeff -0.0 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_scaling_191(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}odd-ops.mlir:[[@LINE+1]]:12: error: 'moe.topk' op scaling_factor = -0 must be positive and finite
  %w, %i = moe.topk softmax %s k 2 {scaling_factor = -0.0 : f64} : tensor<4x8xf32>
  return
}

// -----

func.func @z_loss_coeff_192(%l: tensor<4x8xf32>) {
  %0 = moe.z_loss %l coeff 1.0e308 : tensor<4x8xf32>
  return
}

// -----

func.func @topk_scaling_193(%s: tensor<4x8xf32>) {
  %w, %i = moe.topk softmax %s k 2 {scaling_factor = 1.0e308 : f64} : tensor<4x8xf32>
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
