// RUN: moe-opt %s -split-input-file -verify-diagnostics --moe-fp8-weight-inputs | FileCheck %s

// moe-fp8-weight-inputs: the weight's quantization moves into
// @layer_quantize_weights; @layer_fwd takes w_fp8 / w_fp8_scale (role
// weight) instead of w and no longer returns them as residuals; @layer_bwd
// takes the same two as weights and drops the bf16 w it never read. The
// delayed quantization of `v` (its amax history changes every call) stays.

// CHECK-LABEL: func.func @layer_fwd(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<4x128x256xbf16> {moe.name = "x", moe.role = "input"}
// CHECK-SAME:    %[[Q:[^:]+]]: tensor<4x128x256xf8E4M3FN> {moe.name = "w_fp8", moe.role = "weight"}
// CHECK-SAME:    %[[S:[^:]+]]: tensor<4x1x2xf32> {moe.name = "w_fp8_scale", moe.role = "weight"}
// CHECK-SAME:    %[[V:[^:]+]]: tensor<4x128x256xbf16> {moe.name = "v", moe.role = "weight"}
// CHECK-SAME:    %[[H:[^:]+]]: tensor<16xf32> {moe.name = "amax_v", moe.role = "input"}
// CHECK-SAME:    -> (tensor<4x128x256xbf16> {moe.name = "out", moe.role = "output"}, tensor<4x128x256xf8E4M3FN> {moe.name = "v_fp8", moe.role = "residual"}
// CHECK-NOT:     moe.quantize block_128x128
// CHECK:         moe.dequantize block_128x128 %[[Q]], %[[S]]
// CHECK:         moe.quantize delayed %[[V]]
// CHECK:         return
// CHECK-LABEL: func.func @layer_bwd(
// CHECK-SAME:    {moe.name = "w_fp8", moe.role = "weight"}
// CHECK-SAME:    {moe.name = "w_fp8_scale", moe.role = "weight"}
// CHECK-NOT:     moe.name = "w"
// CHECK-SAME:    -> (tensor<4x128x256xbf16> {moe.name = "d_x", moe.role = "gradient"})
// CHECK-LABEL: func.func @layer_quantize_weights(
// CHECK-SAME:    %[[W:[^:]+]]: tensor<4x128x256xbf16> {moe.name = "w", moe.role = "weight"})
// CHECK-SAME:    -> (tensor<4x128x256xf8E4M3FN> {moe.name = "w_fp8", moe.role = "output"}, tensor<4x1x2xf32> {moe.name = "w_fp8_scale", moe.role = "output"})
// CHECK:         %[[E0:.*]] = tensor.empty() : tensor<4x128x256xf8E4M3FN>
// CHECK:         %[[E1:.*]] = tensor.empty() : tensor<4x1x2xf32>
// CHECK:         %[[QW:.*]], %[[SW:.*]] = moe.quantize block_128x128 %[[W]] outs(%[[E0]], %[[E1]])
// CHECK:         return %[[QW]], %[[SW]]
func.func @layer_fwd(%x: tensor<4x128x256xbf16> {moe.name = "x", moe.role = "input"},
                     %w: tensor<4x128x256xbf16> {moe.name = "w", moe.role = "weight"},
                     %v: tensor<4x128x256xbf16> {moe.name = "v", moe.role = "weight"},
                     %h: tensor<16xf32> {moe.name = "amax_v", moe.role = "input"})
    -> (tensor<4x128x256xbf16> {moe.name = "out", moe.role = "output"},
        tensor<4x128x256xf8E4M3FN> {moe.name = "v_fp8", moe.role = "residual"},
        tensor<4x128x256xf8E4M3FN> {moe.name = "w_fp8", moe.role = "residual"},
        tensor<4x1x2xf32> {moe.name = "w_fp8_scale", moe.role = "residual"}) {
  %q0 = tensor.empty() : tensor<4x128x256xf8E4M3FN>
  %s0 = tensor.empty() : tensor<4x1x2xf32>
  %q, %s = moe.quantize block_128x128 %w outs(%q0, %s0) : tensor<4x128x256xbf16> -> tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>
  %d0 = tensor.empty() : tensor<4x128x256xbf16>
  %d = moe.dequantize block_128x128 %q, %s outs(%d0) : tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32> -> tensor<4x128x256xbf16>
  %t0 = tensor.empty() : tensor<f32>
  %qv, %sv, %nh = moe.quantize delayed %v outs(%q0, %t0, %h) : tensor<4x128x256xbf16> -> tensor<4x128x256xf8E4M3FN>, tensor<f32>, tensor<16xf32>
  return %d, %qv, %q, %s : tensor<4x128x256xbf16>, tensor<4x128x256xf8E4M3FN>, tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>
}
func.func @layer_bwd(%w: tensor<4x128x256xbf16> {moe.name = "w", moe.role = "weight"},
                     %q: tensor<4x128x256xf8E4M3FN> {moe.name = "w_fp8", moe.role = "residual"},
                     %s: tensor<4x1x2xf32> {moe.name = "w_fp8_scale", moe.role = "residual"})
    -> (tensor<4x128x256xbf16> {moe.name = "d_x", moe.role = "gradient"}) {
  %d0 = tensor.empty() : tensor<4x128x256xbf16>
  %d = moe.dequantize block_128x128 %q, %s outs(%d0) : tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32> -> tensor<4x128x256xbf16>
  return %d : tensor<4x128x256xbf16>
}

// -----

// A bf16 weight that something else reads stays, beside its FP8 form; an
// FP8 weight returned as an output (not a residual) stays a result; a
// function without weight quantizations is left alone.
// CHECK-LABEL: func.func @both(
// CHECK-SAME:    %[[W:[^:]+]]: tensor<256x128xbf16> {moe.name = "w", moe.role = "weight"}
// CHECK-SAME:    %[[Q:[^:]+]]: tensor<256x128xf8E4M3FN> {moe.name = "w_fp8", moe.role = "weight"}
// CHECK-SAME:    %{{[^:]+}}: tensor<f32> {moe.name = "w_fp8_scale", moe.role = "weight"}
// CHECK-SAME:    -> (tensor<256x128xbf16>, tensor<256x128xf8E4M3FN>)
// CHECK:         return %[[W]], %[[Q]]
// CHECK-LABEL: func.func @both_quantize_weights(
// CHECK:         moe.quantize tensorwise
// CHECK-LABEL: func.func @plain(
// CHECK-NOT:   func.func @plain_quantize_weights
func.func @both(%w: tensor<256x128xbf16> {moe.name = "w", moe.role = "weight"})
    -> (tensor<256x128xbf16>, tensor<256x128xf8E4M3FN>) {
  %q0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %w outs(%q0, %s0) : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<f32>
  return %w, %q : tensor<256x128xbf16>, tensor<256x128xf8E4M3FN>
}
func.func @plain(%w: tensor<256x128xbf16> {moe.name = "w", moe.role = "weight"}) -> tensor<256x128xbf16> {
  return %w : tensor<256x128xbf16>
}

// -----

// One weight, two quantizations in one layer: no single FP8 input serves
// both.
func.func @two_fwd(%w: tensor<256x128xbf16> {moe.name = "w", moe.role = "weight"}) -> tensor<256x128xf8E4M3FN> {
  %q0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  // expected-note @below {{the other quantization}}
  %q, %s = moe.quantize tensorwise %w outs(%q0, %s0) : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<f32>
  return %q : tensor<256x128xf8E4M3FN>
}
func.func @two_bwd(%w: tensor<256x128xbf16> {moe.name = "w", moe.role = "weight"}) -> tensor<256x128xf8E4M3FN> {
  %q0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<2x1xf32>
  // expected-error @below {{moe-fp8-weight-inputs: weight 'w' is quantized differently here than in another function of layer 'two'; one FP8 weight input cannot serve both}}
  %q, %s = moe.quantize block_128x128 %w outs(%q0, %s0) : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<2x1xf32>
  return %q : tensor<256x128xf8E4M3FN>
}

// -----

// The quantize function's name is taken.
func.func @clash(%w: tensor<256x128xbf16> {moe.name = "w", moe.role = "weight"}) -> tensor<256x128xf8E4M3FN> {
  %q0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %w outs(%q0, %s0) : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<f32>
  return %q : tensor<256x128xf8E4M3FN>
}
// expected-error @below {{'func.func' op moe-fp8-weight-inputs: @clash_quantize_weights is needed for the weights of layer 'clash' but already defined}}
func.func @clash_quantize_weights() {
  return
}

// -----

// The results are rewritten at the entry block's func.return.
// expected-error @below {{'func.func' op moe-fp8-weight-inputs: expects a function body of one block ending in func.return (straight-line code); @blocks has 2 blocks}}
func.func @blocks(%w: tensor<256x128xbf16> {moe.name = "w", moe.role = "weight"}) -> tensor<256x128xf8E4M3FN> {
  %q0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %w outs(%q0, %s0) : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<f32>
  cf.br ^exit
^exit:
  return %q : tensor<256x128xf8E4M3FN>
}

// -----

// A called layer function would no longer match its calls.
// expected-error @below {{'func.func' op moe-fp8-weight-inputs: @called is called in this module; its arguments are about to change (run the pass on the layer's functions alone)}}
func.func @called(%w: tensor<256x128xbf16> {moe.name = "w", moe.role = "weight"}) -> tensor<256x128xf8E4M3FN> {
  %q0 = tensor.empty() : tensor<256x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %w outs(%q0, %s0) : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<f32>
  return %q : tensor<256x128xf8E4M3FN>
}
func.func @caller(%w: tensor<256x128xbf16>) -> tensor<256x128xf8E4M3FN> {
  %q = func.call @called(%w) : (tensor<256x128xbf16>) -> tensor<256x128xf8E4M3FN>
  return %q : tensor<256x128xf8E4M3FN>
}

// -----

// kmajor-copies names the K-major copy of w's FP8 form "w_fp8_t": an
// argument of that name that the pass did not make would be read in its
// place.
// expected-error @below {{'func.func' op moe-fp8-weight-inputs: argument 'w_fp8_t' exists already, but kmajor-copies gives that name to the [G, N, K] copy of FP8 weight 'w' (rename it, or kmajor-copies=false)}}
func.func @clash(%x: tensor<256x128xf8E4M3FN> {moe.name = "x", moe.role = "input"},
                 %xs: tensor<f32> {moe.name = "xs", moe.role = "input"},
                 %w: tensor<4x128x256xbf16> {moe.name = "w", moe.role = "weight"},
                 %t: tensor<4x256x128xf8E4M3FN> {moe.name = "w_fp8_t", moe.role = "input"},
                 %sizes: tensor<4xi32> {moe.name = "sizes", moe.role = "input"})
    -> (tensor<256x256xbf16> {moe.name = "out", moe.role = "output"}, tensor<4x256x128xf8E4M3FN> {moe.name = "t", moe.role = "output"}) {
  %q0 = tensor.empty() : tensor<4x128x256xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %w outs(%q0, %s0) : tensor<4x128x256xbf16> -> tensor<4x128x256xf8E4M3FN>, tensor<f32>
  %c0 = tensor.empty() : tensor<256x256xbf16>
  %c = moe.grouped_matmul %x, %q, %sizes scales(%xs, %s) outs(%c0) : tensor<256x128xf8E4M3FN>, tensor<4x128x256xf8E4M3FN>, tensor<4xi32>, tensor<f32>, tensor<f32> -> tensor<256x256xbf16>
  return %c, %t : tensor<256x256xbf16>, tensor<4x256x128xf8E4M3FN>
}

// -----

// A weight split over ranks along another dimension than the experts'
// would need its FP8 forms split along other dimensions.
func.func @split_h(%w: tensor<4x64x256xbf16> {moe.name = "w", moe.role = "weight", moe.split_dim = 1 : i64})
    -> (tensor<4x64x256xf8E4M3FN> {moe.name = "q", moe.role = "output"}) {
  %q0 = tensor.empty() : tensor<4x64x256xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  // expected-error @below {{'moe.quantize' op moe-fp8-weight-inputs: weight 'w' is split over ranks along 1 : i64; only a split along the experts (dimension 0) keeps its FP8 forms and block scales split the same way}}
  %q, %s = moe.quantize tensorwise %w outs(%q0, %s0) : tensor<4x64x256xbf16> -> tensor<4x64x256xf8E4M3FN>, tensor<f32>
  return %q : tensor<4x64x256xf8E4M3FN>
}

// -----

// An expert-split weight quantized with one scale: each rank's scale would
// be its own experts' amax, which no argument attribute can say.
func.func @split_tensorwise(%w: tensor<4x128x256xbf16> {moe.name = "w", moe.role = "weight", moe.split_dim = 0 : i64})
    -> (tensor<4x128x256xf8E4M3FN> {moe.name = "q", moe.role = "output"}) {
  %q0 = tensor.empty() : tensor<4x128x256xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  // expected-error @below {{'moe.quantize' op moe-fp8-weight-inputs: weight 'w' is split over ranks and quantized with one scale: each rank's scale would come from its own experts' amax, which no argument can say (a 128x128 block recipe splits its scales with the experts)}}
  %q, %s = moe.quantize tensorwise %w outs(%q0, %s0) : tensor<4x128x256xbf16> -> tensor<4x128x256xf8E4M3FN>, tensor<f32>
  return %q : tensor<4x128x256xf8E4M3FN>
}
