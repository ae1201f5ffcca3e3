// RUN: moe-opt %s -split-input-file --moe-fp8-weight-inputs | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-fp8-weight-inputs=kmajor-copies=false | FileCheck %s --check-prefix=OFF
// RUN: moe-opt %s -split-input-file --moe-fp8-weight-inputs --moe-fp8-weight-inputs | FileCheck %s --check-prefix=TWICE

// kmajor-copies (default): the forward GEMM that reads the FP8 weight kn
// reads its [G, N, K] copy nk, with the block scales' last two dimensions
// swapped; @layer_quantize_weights transposes both once; the backward's
// GEMM reads the weight nk as it is and keeps w_fp8; @layer_fwd no longer
// takes the kn weight it does not read.

// CHECK-LABEL: func.func @layer_fwd(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<256x128xf8E4M3FN> {moe.name = "x", moe.role = "input"}
// CHECK-NOT:     moe.name = "w_fp8{{(_scale)?}}"
// CHECK-SAME:    %[[T:[^:]+]]: tensor<4x256x128xf8E4M3FN> {moe.name = "w_fp8_t", moe.role = "weight"}
// CHECK-SAME:    %[[TS:[^:]+]]: tensor<4x2x1xf32> {moe.name = "w_fp8_t_scale", moe.role = "weight"}
// CHECK:         moe.grouped_matmul %[[X]], %[[T]], %{{.*}} scales(%{{.*}}, %[[TS]]) outs(%{{.*}}) {weight_layout = #moe<weight_layout nk>}
// CHECK-LABEL: func.func @layer_bwd(
// CHECK-SAME:    %[[Q:[^:]+]]: tensor<4x128x256xf8E4M3FN> {moe.name = "w_fp8", moe.role = "weight"}
// CHECK-SAME:    %[[S:[^:]+]]: tensor<4x1x2xf32> {moe.name = "w_fp8_scale", moe.role = "weight"}
// CHECK-NOT:     w_fp8_t
// CHECK:         moe.grouped_matmul %{{.*}}, %[[Q]], %{{.*}} scales(%{{.*}}, %[[S]]) outs(%{{.*}}) {weight_layout = #moe<weight_layout nk>}
// CHECK-LABEL: func.func @layer_quantize_weights(
// CHECK-SAME:    -> (tensor<4x128x256xf8E4M3FN> {moe.name = "w_fp8", moe.role = "output"}, tensor<4x1x2xf32> {moe.name = "w_fp8_scale", moe.role = "output"}, tensor<4x256x128xf8E4M3FN> {moe.name = "w_fp8_t", moe.role = "output"}, tensor<4x2x1xf32> {moe.name = "w_fp8_t_scale", moe.role = "output"})
// CHECK:         %[[QW:[^,]+]], %[[SW:.*]] = moe.quantize block_128x128
// CHECK:         %[[QT:.*]] = linalg.transpose ins(%[[QW]] : tensor<4x128x256xf8E4M3FN>) outs(%{{.*}} : tensor<4x256x128xf8E4M3FN>) permutation = [0, 2, 1]
// CHECK:         %[[ST:.*]] = linalg.transpose ins(%[[SW]] : tensor<4x1x2xf32>) outs(%{{.*}} : tensor<4x2x1xf32>) permutation = [0, 2, 1]
// CHECK:         return %[[QW]], %[[SW]], %[[QT]], %[[ST]]

// A second run finds no weight quantization left, and the quantize
// function is not a layer of its own.
// TWICE-LABEL: func.func @layer_quantize_weights(
// TWICE-NOT:   @layer_quantize_weights_quantize_weights

// kmajor-copies=false: the forward reads w_fp8 kn, nothing is transposed.
// OFF-LABEL: func.func @layer_fwd(
// OFF-SAME:    {moe.name = "w_fp8", moe.role = "weight"}
// OFF-NOT:     w_fp8_t
// OFF:         moe.grouped_matmul {{.*}} scales({{.*}}) outs({{.*}}) :
// OFF-LABEL: func.func @layer_quantize_weights(
// OFF-NOT:     linalg.transpose
// OFF:         return
func.func @layer_fwd(%x: tensor<256x128xf8E4M3FN> {moe.name = "x", moe.role = "input"},
                     %xs: tensor<256x1xf32> {moe.name = "xs", moe.role = "input"},
                     %w: tensor<4x128x256xbf16> {moe.name = "w", moe.role = "weight"},
                     %sizes: tensor<4xi32> {moe.name = "sizes", moe.role = "input"})
    -> (tensor<256x256xbf16> {moe.name = "out", moe.role = "output"},
        tensor<4x128x256xf8E4M3FN> {moe.name = "w_fp8", moe.role = "residual"},
        tensor<4x1x2xf32> {moe.name = "w_fp8_scale", moe.role = "residual"}) {
  %q0 = tensor.empty() : tensor<4x128x256xf8E4M3FN>
  %s0 = tensor.empty() : tensor<4x1x2xf32>
  %q, %s = moe.quantize block_128x128 %w outs(%q0, %s0) : tensor<4x128x256xbf16> -> tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>
  %c0 = tensor.empty() : tensor<256x256xbf16>
  %c = moe.grouped_matmul %x, %q, %sizes scales(%xs, %s) outs(%c0) : tensor<256x128xf8E4M3FN>, tensor<4x128x256xf8E4M3FN>, tensor<4xi32>, tensor<256x1xf32>, tensor<4x1x2xf32> -> tensor<256x256xbf16>
  return %c, %q, %s : tensor<256x256xbf16>, tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>
}
func.func @layer_bwd(%dy: tensor<256x256xf8E5M2> {moe.name = "dy", moe.role = "input"},
                     %dys: tensor<256x2xf32> {moe.name = "dys", moe.role = "input"},
                     %q: tensor<4x128x256xf8E4M3FN> {moe.name = "w_fp8", moe.role = "residual"},
                     %s: tensor<4x1x2xf32> {moe.name = "w_fp8_scale", moe.role = "residual"},
                     %sizes: tensor<4xi32> {moe.name = "sizes", moe.role = "input"})
    -> (tensor<256x128xbf16> {moe.name = "d_x", moe.role = "gradient"}) {
  %c0 = tensor.empty() : tensor<256x128xbf16>
  %dx = moe.grouped_matmul %dy, %q, %sizes scales(%dys, %s) outs(%c0) {weight_layout = #moe<weight_layout nk>} : tensor<256x256xf8E5M2>, tensor<4x128x256xf8E4M3FN>, tensor<4xi32>, tensor<256x2xf32>, tensor<4x1x2xf32> -> tensor<256x128xbf16>
  return %dx : tensor<256x128xbf16>
}

// -----

// A tensor-wise scale serves both layouts: only the data is copied.

// CHECK-LABEL: func.func @tw(
// CHECK-SAME:    %[[S:[^:]+]]: tensor<f32> {moe.name = "w_fp8_scale", moe.role = "weight"}
// CHECK-SAME:    %[[T:[^:]+]]: tensor<4x256x128xf8E4M3FN> {moe.name = "w_fp8_t", moe.role = "weight"}
// CHECK-NOT:     w_fp8_t_scale
// CHECK:         moe.grouped_matmul %{{.*}}, %[[T]], %{{.*}} scales(%{{.*}}, %[[S]]) outs(%{{.*}}) {weight_layout = #moe<weight_layout nk>}
// Nothing reads w_fp8 any more (no backward): the quantize function does
// not return it.
// CHECK-LABEL: func.func @tw_quantize_weights(
// CHECK-SAME:    -> (tensor<f32> {moe.name = "w_fp8_scale", moe.role = "output"}, tensor<4x256x128xf8E4M3FN> {moe.name = "w_fp8_t", moe.role = "output"})
func.func @tw(%x: tensor<256x128xf8E4M3FN> {moe.name = "x", moe.role = "input"},
              %xs: tensor<f32> {moe.name = "xs", moe.role = "input"},
              %w: tensor<4x128x256xbf16> {moe.name = "w", moe.role = "weight"},
              %sizes: tensor<4xi32> {moe.name = "sizes", moe.role = "input"})
    -> (tensor<256x256xbf16> {moe.name = "out", moe.role = "output"}) {
  %q0 = tensor.empty() : tensor<4x128x256xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %w outs(%q0, %s0) : tensor<4x128x256xbf16> -> tensor<4x128x256xf8E4M3FN>, tensor<f32>
  %c0 = tensor.empty() : tensor<256x256xbf16>
  %c = moe.grouped_matmul %x, %q, %sizes scales(%xs, %s) outs(%c0) : tensor<256x128xf8E4M3FN>, tensor<4x128x256xf8E4M3FN>, tensor<4xi32>, tensor<f32>, tensor<f32> -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

// -----

// An expert-split weight (moe-expert-parallel): its FP8 forms, scales and
// copies, and the quantize function's weight and results, are split along
// the experts as it is; a weight read both kn and nk in one function keeps
// both forms.

// CHECK-LABEL: func.func @ep(
// CHECK-SAME:    {moe.name = "w_fp8", moe.role = "weight", moe.split_dim = 0 : i64}
// CHECK-SAME:    {moe.name = "w_fp8_scale", moe.role = "weight", moe.split_dim = 0 : i64}
// CHECK-SAME:    {moe.name = "w_fp8_t", moe.role = "weight", moe.split_dim = 0 : i64}
// CHECK-SAME:    {moe.name = "w_fp8_t_scale", moe.role = "weight", moe.split_dim = 0 : i64}
// CHECK-LABEL: func.func @ep_quantize_weights(
// CHECK-SAME:    {moe.name = "w", moe.role = "weight", moe.split_dim = 0 : i64}
// CHECK-SAME:    {moe.name = "w_fp8", moe.role = "output", moe.split_dim = 0 : i64}
// CHECK-SAME:    {moe.name = "w_fp8_t_scale", moe.role = "output", moe.split_dim = 0 : i64}
func.func @ep(%x: tensor<256x128xf8E4M3FN> {moe.name = "x", moe.role = "input"},
              %xs: tensor<256x1xf32> {moe.name = "xs", moe.role = "input"},
              %dy: tensor<256x256xf8E4M3FN> {moe.name = "dy", moe.role = "input"},
              %dys: tensor<256x2xf32> {moe.name = "dys", moe.role = "input"},
              %w: tensor<4x128x256xbf16> {moe.name = "w", moe.role = "weight", moe.split_dim = 0 : i64},
              %sizes: tensor<4xi32> {moe.name = "sizes", moe.role = "input"})
    -> (tensor<256x256xbf16> {moe.name = "out", moe.role = "output"},
        tensor<256x128xbf16> {moe.name = "back", moe.role = "output"}) {
  %q0 = tensor.empty() : tensor<4x128x256xf8E4M3FN>
  %s0 = tensor.empty() : tensor<4x1x2xf32>
  %q, %s = moe.quantize block_128x128 %w outs(%q0, %s0) : tensor<4x128x256xbf16> -> tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>
  %c0 = tensor.empty() : tensor<256x256xbf16>
  %c = moe.grouped_matmul %x, %q, %sizes scales(%xs, %s) outs(%c0) : tensor<256x128xf8E4M3FN>, tensor<4x128x256xf8E4M3FN>, tensor<4xi32>, tensor<256x1xf32>, tensor<4x1x2xf32> -> tensor<256x256xbf16>
  %b0 = tensor.empty() : tensor<256x128xbf16>
  %b = moe.grouped_matmul %dy, %q, %sizes scales(%dys, %s) outs(%b0) {weight_layout = #moe<weight_layout nk>} : tensor<256x256xf8E4M3FN>, tensor<4x128x256xf8E4M3FN>, tensor<4xi32>, tensor<256x2xf32>, tensor<4x1x2xf32> -> tensor<256x128xbf16>
  return %c, %b : tensor<256x256xbf16>, tensor<256x128xbf16>
}
