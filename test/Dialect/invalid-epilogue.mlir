// Every verifier rule of moe.grouped_matmul's epilogue region, one case each.
// RUN: moe-opt %s -split-input-file -verify-diagnostics

func.func @halves_need_two_arguments(%xs: tensor<16x32xbf16>, %w: tensor<2x32x96xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op epilogue takes 2 f32 argument(s) (2 accumulators: gate and up halves), got 1}}
  %h = moe.grouped_matmul %xs, %w, %s outs(%init) epilogue {
  ^bb0(%acc: f32):
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x96xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @row_scale_argument_missing(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %scale: tensor<16xf32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op epilogue takes 2 f32 argument(s) (1 accumulator, then the row's scale), got 1}}
  %h = moe.grouped_matmul %xs, %w, %s row_scale(%scale : tensor<16xf32>) outs(%init) epilogue {
  ^bb0(%acc: f32):
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @argument_not_f32(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op epilogue argument #0 must be f32, got 'bf16'}}
  %h = moe.grouped_matmul %xs, %w, %s outs(%init) epilogue {
  ^bb0(%acc: bf16):
    %v = arith.extf %acc : bf16 to f32
    moe.yield %v : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @output_width(%xs: tensor<16x32xbf16>, %w: tensor<2x32x96xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<16x40xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op result 'c' must be [16, 96] of bf16 ([R, N], or [R, N / 2] for gate|up halves), got tensor<16x40xbf16>}}
  %h = moe.grouped_matmul %xs, %w, %s outs(%init) epilogue {
  ^bb0(%acc: f32):
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x96xbf16>, tensor<2xi32> -> tensor<16x40xbf16>
  return
}

// -----

func.func @halves_without_epilogue(%xs: tensor<16x32xbf16>, %w: tensor<2x32x96xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op result 'c' must be [16, 96] of bf16 ([R, N]), got tensor<16x48xbf16>}}
  %h = moe.grouped_matmul %xs, %w, %s outs(%init) : tensor<16x32xbf16>, tensor<2x32x96xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @row_scale_without_epilogue(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %scale: tensor<16xf32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'row_scale' is read by the epilogue, but the op has no epilogue region}}
  %h = moe.grouped_matmul %xs, %w, %s row_scale(%scale : tensor<16xf32>) outs(%init) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @row_scale_rows(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %scale: tensor<8xf32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op R mismatch: 'a' dim 0 is 16 but 'row_scale' dim 0 is 8}}
  %h = moe.grouped_matmul %xs, %w, %s row_scale(%scale : tensor<8xf32>) outs(%init) epilogue {
  ^bb0(%acc: f32, %r: f32):
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @side_effect_in_epilogue(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %buf: memref<1xf32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op epilogue may only hold side-effect-free scalar ops without regions; 'memref.store' is not one}}
  %h = moe.grouped_matmul %xs, %w, %s outs(%init) epilogue {
  ^bb0(%acc: f32):
    %c0 = arith.constant 0 : index
    memref.store %acc, %buf[%c0] : memref<1xf32>
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @wrong_terminator(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op epilogue must end with moe.yield}}
  %h = moe.grouped_matmul %xs, %w, %s outs(%init) epilogue {
  ^bb0(%acc: f32):
    func.return
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @yield_outside_epilogue(%v: f32) {
  // expected-error @+1 {{'moe.yield' op expects parent op 'moe.grouped_matmul'}}
  moe.yield %v : f32
}

// -----

func.func @accumulate_with_epilogue(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %c0: tensor<16x48xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'accumulate' adds the product to c's destination and cannot be combined with an epilogue region}}
  %h = moe.grouped_matmul %xs, %w, %s outs(%c0) epilogue {
  ^bb0(%acc: f32):
    moe.yield %acc : f32
  } {accumulate} : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @inputs_without_epilogue(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %g: tensor<16x48xbf16>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'epilogue_inputs' are read by the epilogue, but the op has no epilogue region}}
  %h = moe.grouped_matmul %xs, %w, %s epilogue_inputs(%g : tensor<16x48xbf16>) outs(%init) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @destinations_without_epilogue(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  %i0 = tensor.empty() : tensor<16x48xbf16>
  %i1 = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op destinations past 'c' are written by the epilogue, but the op has no epilogue region}}
  %h:2 = moe.grouped_matmul %xs, %w, %s outs(%i0, %i1) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>, tensor<16x48xbf16>
  return
}

// -----

func.func @input_shape(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %g: tensor<16x40xbf16>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op N_c mismatch: 'c' dim 1 is 48 but 'epilogue_inputs #0' dim 1 is 40}}
  %h = moe.grouped_matmul %xs, %w, %s epilogue_inputs(%g : tensor<16x40xbf16>) outs(%init) epilogue {
  ^bb0(%acc: f32, %x: f32):
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @input_not_float(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %g: tensor<16x48xi32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'epilogue_inputs #0' must have bf16, f16 or f32 elements, got i32}}
  %h = moe.grouped_matmul %xs, %w, %s epilogue_inputs(%g : tensor<16x48xi32>) outs(%init) epilogue {
  ^bb0(%acc: f32, %x: f32):
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @input_arguments(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %g: tensor<16x48xbf16>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op epilogue takes 2 f32 argument(s) (1 accumulator, then one per epilogue input), got 1}}
  %h = moe.grouped_matmul %xs, %w, %s epilogue_inputs(%g : tensor<16x48xbf16>) outs(%init) epilogue {
  ^bb0(%acc: f32):
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @yield_count(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  %i0 = tensor.empty() : tensor<16x48xbf16>
  %i1 = tensor.empty() : tensor<16x48xf32>
  // expected-error @+1 {{'moe.grouped_matmul' op epilogue yields 1 value(s) but the op has 2 destination(s); it yields one each}}
  %h:2 = moe.grouped_matmul %xs, %w, %s outs(%i0, %i1) epilogue {
  ^bb0(%acc: f32):
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>, tensor<16x48xf32>
  return
}

// -----

func.func @destination_shape(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  %i0 = tensor.empty() : tensor<16x48xbf16>
  %i1 = tensor.empty() : tensor<16x24xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op result 'c1' must be [16, 48] of bf16 ([R, N_c] (c's shape)), got tensor<16x24xbf16>}}
  %h:2 = moe.grouped_matmul %xs, %w, %s outs(%i0, %i1) epilogue {
  ^bb0(%acc: f32):
    moe.yield %acc, %acc : f32, f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>, tensor<16x24xbf16>
  return
}

// -----

func.func @too_many_destinations(%xs: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  %i = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op expects 1 to 3 destinations in 'outs', got 4}}
  %h:4 = moe.grouped_matmul %xs, %w, %s outs(%i, %i, %i, %i) epilogue {
  ^bb0(%acc: f32):
    moe.yield %acc, %acc, %acc, %acc : f32, f32, f32, f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<16x48xbf16>
  return
}

// -----

func.func @up_weight_of_another_type(%xs: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x64xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'up_weight' must have b's type tensor<2x32x48xbf16>, got tensor<2x32x64xbf16>}}
  %h = moe.grouped_matmul %xs, %wg, %s up_weight(%wu : tensor<2x32x64xbf16>) outs(%init) epilogue {
  ^bb0(%g: f32, %u: f32):
    %v = arith.mulf %g, %u : f32
    moe.yield %v : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @up_weight_without_epilogue(%xs: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'up_weight' pairs its product with b's for the epilogue, but the op has no epilogue region}}
  %h = moe.grouped_matmul %xs, %wg, %s up_weight(%wu : tensor<2x32x48xbf16>) outs(%init) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @up_weight_needs_two_arguments(%xs: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op epilogue takes 2 f32 argument(s) (2 accumulators: gate and up halves), got 1}}
  %h = moe.grouped_matmul %xs, %wg, %s up_weight(%wu : tensor<2x32x48xbf16>) outs(%init) epilogue {
  ^bb0(%acc: f32):
    moe.yield %acc : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  return
}

// -----

func.func @up_weight_output_halved(%xs: tensor<16x32xbf16>, %wg: tensor<2x32x48xbf16>, %wu: tensor<2x32x48xbf16>, %s: tensor<2xi32>) {
  %init = tensor.empty() : tensor<16x24xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op result 'c' must be [16, 48] of bf16 ([R, N]: gate and up weights of N columns each)}}
  %h = moe.grouped_matmul %xs, %wg, %s up_weight(%wu : tensor<2x32x48xbf16>) outs(%init) epilogue {
  ^bb0(%g: f32, %u: f32):
    %v = arith.mulf %g, %u : f32
    moe.yield %v : f32
  } : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x24xbf16>
  return
}

// -----

func.func @up_weight_fp8(%xs: tensor<16x32xf8E4M3FN>, %wg: tensor<2x48x32xf8E4M3FN>, %wu: tensor<2x48x32xf8E4M3FN>, %s: tensor<2xi32>, %sa: tensor<f32>, %sb: tensor<f32>) {
  %init = tensor.empty() : tensor<16x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op 'up_weight' is not supported with FP8 operands (scales)}}
  %h = moe.grouped_matmul %xs, %wg, %s scales(%sa, %sb) up_weight(%wu : tensor<2x48x32xf8E4M3FN>) outs(%init) epilogue {
  ^bb0(%g: f32, %u: f32):
    %v = arith.mulf %g, %u : f32
    moe.yield %v : f32
  } {weight_layout = #moe<weight_layout nk>} : tensor<16x32xf8E4M3FN>, tensor<2x48x32xf8E4M3FN>, tensor<2xi32>, tensor<f32>, tensor<f32> -> tensor<16x48xbf16>
  return
}
