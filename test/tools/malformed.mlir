// Malformed input never crashes moe-opt: every case ends in a located
// diagnostic (file:line:col: error: ...) and a non-zero exit.
//
// RUN: not moe-opt %s -split-input-file 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{PLEASE submit|Stack dump|LLVM ERROR|UNREACHABLE}}'

// CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:1: error: custom op 'this' is unknown (tried 'builtin.this' as well)
this is not mlir

// -----

func.func @garbage_after_op(%l: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:76: error: @ identifier expected to start with letter or '_'
  %0 = moe.route softmax %l outs(%l) : tensor<4x8xf32> -> tensor<4x8xf32> @@@
  return
}

// -----

func.func @unknown_moe_op(%x: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:8: error: custom op 'moe.frobnicate' is unknown
  %0 = moe.frobnicate %x : tensor<4x8xf32>
  return
}

// -----

func.func @unknown_moe_op_generic(%x: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:8: error: unregistered operation 'moe.frobnicate' found in dialect ('moe') that does not allow unknown operations
  %0 = "moe.frobnicate"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @truncated_op(%x: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:20: error: expected SSA operand
  %0 = moe.gate %x,
}

// -----

func.func @truncated_type(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>, %d: tensor<4x4xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:50: error: expected ','
  %0 = moe.gate %x, %w outs(%d) : tensor<4x8xf32>
}

// -----

func.func @missing_operand(%x: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:19: error: expected ','
  %0 = moe.gate %x : tensor<4x8xf32>, tensor<8x4xf32>
  return
}

// -----

func.func @too_many_destinations_generic(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>, %d: tensor<4x4xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:10: error: 'moe.gate' op expects 1 destination in 'outs', got 2
  %0:2 = "moe.gate"(%x, %w, %d, %d) : (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return
}

// -----

func.func @too_few_operands_generic(%x: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:8: error: 'moe.combine' op expected 3 or more operands, but found 1
  %0 = "moe.combine"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @too_many_results_generic(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>, %d: tensor<4x4xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:10: error: 'moe.gate' op on tensors has one result per destination (1), got 2
  %0:2 = "moe.gate"(%x, %w, %d) : (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return
}

// -----

func.func @wrong_result_binding(%s: tensor<4x8xf32>, %w: tensor<4x2xf32>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:3: error: operation defines 2 results but was provided 1 to bind
  %0 = moe.topk softmax %s k 2 outs(%w, %i) : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  return
}

// -----

func.func @memref_and_tensor(%l: memref<4x8xf32>, %d: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:8: error: 'moe.route' op operands must be all tensors (value semantics) or all memrefs (buffer semantics)
  %0 = moe.route softmax %l outs(%d) : memref<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @memref_with_result_generic(%x: memref<4x8xbf16>, %w: memref<8x4xf32>, %d: memref<4x4xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:8: error: 'moe.gate' op on memrefs has no results, got 1
  %0 = "moe.gate"(%x, %w, %d) : (memref<4x8xbf16>, memref<8x4xf32>, memref<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @scalar_not_tensor(%x: f32, %w: tensor<8x4xf32>, %d: tensor<4x4xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:35: error: custom op 'moe.gate' invalid kind of type specified
  %0 = moe.gate %x, %w outs(%d) : f32, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @vector_not_tensor_generic(%x: vector<4x8xf32>, %d: tensor<f32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:8: error: 'moe.z_loss' op operand #0 must be ranked tensor or memref, but got 'vector<4x8xf32>'
  %0 = "moe.z_loss"(%x, %d) <{coeff = 1.0 : f64}> : (vector<4x8xf32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @undefined_value(%x: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:26: error: use of undeclared SSA value name
  %0 = moe.route softmax %y outs(%x) : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @type_disagrees_with_value(%x: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:26: error: use of value '%x' expects different type than prior uses: 'tensor<4x16xf32>' vs 'tensor<4x8xf32>'
  %0 = moe.route softmax %x outs(%x) : tensor<4x16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @missing_colon(%x: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:40: error: expected ':'
  %0 = moe.z_loss %x coeff 1.0 outs(%x) tensor<4x8xf32>
  return
}

// -----

func.func @missing_keyword(%x: tensor<4x8xbf16>, %i: tensor<4x2xi32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:45: error: custom op 'moe.permute' expected 'align'
  %a, %b, %c = moe.permute %x, %i experts 8 : tensor<4x8xbf16>, tensor<4x2xi32>
  return
}

// -----

func.func @integer_for_float(%x: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:28: error: unexpected decimal integer literal for a floating point value
  %0 = moe.z_loss %x coeff 1 : tensor<4x8xf32>
  return
}

// -----

func.func @float_for_integer(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:38: error: floating point value not valid for specified type
  %w, %i = moe.topk softmax %s k 2.5 : tensor<4x8xf32>
  return
}

// -----

func.func @integer_too_large(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:34: error: integer constant out of range for attribute
  %w, %i = moe.topk softmax %s k 99999999999999999999 : tensor<4x8xf32>
  return
}

// -----

func.func @unknown_keyword(%g: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:16: error: custom op 'moe.glu' unknown keyword 'swiglu', expected one of: silu, gelu, gelu_tanh, relu, relu2, identity
  %0 = moe.glu swiglu %g : tensor<4x8xf32>
  return
}

// -----

func.func @keyword_is_a_number(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:21: error: custom op 'moe.topk' expected valid keyword
  %w, %i = moe.topk 3 %s k 2 : tensor<4x8xf32>
  return
}

// -----

// CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:38: error: dialect 'moe' provides no type parsing hook
func.func @unknown_moe_type(%x: !moe.tensor) {
  return
}

// -----

// CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:57: error: unknown attribute `bogus` in dialect `moe`
func.func @unknown_moe_attribute() attributes {a = #moe<bogus x>} {
  return
}

// -----

// CHECK: {{.*}}malformed.mlir:[[@LINE+2]]:78: error: expected valid keyword or string
// CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:78: error: failed to parse Moe_ScoreFunctionAttr parameter 'value' which is to be a `::mlir::moe::ScoreFunction`
func.func @enum_attribute_without_value() attributes {a = #moe<score_function>} {
  return
}

// -----

func.func @properties_not_a_dictionary(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:10: error: invalid properties [1, 2] for op moe.topk: expected DictionaryAttr to set properties
  %0:2 = "moe.topk"(%s) <[1, 2]> : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @property_of_wrong_kind(%s: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:10: error: invalid properties {k = "two", score_function = #moe<score_function softmax>} for op moe.topk: Invalid attribute `k` in property conversion: "two"
  %0:2 = "moe.topk"(%s) <{k = "two", score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}

// -----

func.func @segment_sizes_wrong_length(%a: tensor<8x4xf32>, %b: tensor<2x4x4xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:8: error: invalid properties {operandSegmentSizes = array<i32: 1, 1, 1>} for op moe.grouped_matmul: size mismatch in attribute conversion: 3 vs 9
  %0 = "moe.grouped_matmul"(%a, %b, %s) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<8x4xf32>, tensor<2x4x4xf32>, tensor<2xi32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @segment_sizes_negative(%a: tensor<8x4xf32>, %b: tensor<2x4x4xf32>, %s: tensor<2xi32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:8: error: 'moe.grouped_matmul' op 'operandSegmentSizes' attribute cannot have negative elements
  %0 = "moe.grouped_matmul"(%a, %b, %s) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, -1, 0, 0, 0, 0>}> ({}) : (tensor<8x4xf32>, tensor<2x4x4xf32>, tensor<2xi32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @moe_op_with_region(%l: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:8: error: 'moe.route' op requires zero regions
  %0 = "moe.route"(%l) <{score_function = #moe<score_function softmax>}> ({
  ^bb0:
    "func.return"() : () -> ()
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @moe_op_with_successor(%l: tensor<4x8xf32>) {
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:23: error: successors in non-terminator
  %0 = "moe.route"(%l)[^bb1] <{score_function = #moe<score_function softmax>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
^bb1:
  return
}

// -----

func.func @unbalanced_brace(%l: tensor<4x8xf32>) {
  %0 = moe.route softmax %l outs(%l) : tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK: {{.*}}malformed.mlir:[[@LINE+1]]:9: error: expected operation name in quotes
  return
