// RUN: moe-opt %s -split-input-file -verify-diagnostics --moe-fp8-placement="recipe=blockwise quantize-before-all-to-all"
// RUN: not moe-opt %s -split-input-file --moe-fp8-placement=gemms=fc3 2>&1 | FileCheck %s --check-prefix=GEMM
// RUN: not moe-opt %s -split-input-file --moe-fp8-placement=recipe=nvfp4 2>&1 | FileCheck %s --check-prefix=RECIPE
// RUN: not moe-opt %s -split-input-file --moe-fp8-placement=grad-format=e3m4 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not moe-opt %s -split-input-file --moe-fp8-placement="recipe=tensorwise quantize-before-all-to-all" 2>&1 | FileCheck %s --check-prefix=TW-A2A
// RUN: not moe-opt %s -split-input-file --moe-fp8-placement="recipe=mxfp8 quantize-before-all-to-all" 2>&1 | FileCheck %s --check-prefix=MX-A2A

// GEMM: moe-fp8-placement: unknown GEMM 'fc3' in gemms (expected fc1, fc2, forward, dgrad, wgrad)
// RECIPE: moe-fp8-placement: unknown recipe 'nvfp4' (expected tensorwise, delayed, blockwise or mxfp8)
// FORMAT: moe-fp8-placement: unknown grad-format 'e3m4' (expected e5m2 or e4m3)
// TW-A2A: error: 'moe.all_to_all' op quantize-before-all-to-all: recipe tensorwise has one scale per tensor
// MX-A2A: error: 'moe.permute' op quantize-before-all-to-all: the e8m0 scales of recipe mxfp8 cannot move

// Blockwise needs the contraction dimension to be a multiple of 128.
func.func @k_not_multiple(%xs: tensor<128x32xbf16>,
                          %w_gate: tensor<4x32x256xbf16> {moe.name = "w_gate"},
                          %sizes: tensor<4xi32>) -> tensor<128x256xbf16> {
  %h0 = tensor.empty() : tensor<128x256xbf16>
  // expected-error @+1 {{moe-fp8-placement recipe blockwise: the fc1 fwd GEMM contracts over Kd = 32, not a multiple of 128 (1×128 activation blocks, 128×128 weight blocks)}}
  %h = moe.grouped_matmul %xs, %w_gate, %sizes outs(%h0) : tensor<128x32xbf16>, tensor<4x32x256xbf16>, tensor<4xi32> -> tensor<128x256xbf16>
  return %h : tensor<128x256xbf16>
}

// -----

// A weight without a name, and no moe.glu next to the GEMM.
func.func @unknown_layer(%xs: tensor<128x128xbf16>, %w: tensor<4x128x256xbf16>,
                         %sizes: tensor<4xi32>) -> tensor<128x256xbf16> {
  %h0 = tensor.empty() : tensor<128x256xbf16>
  // expected-error @+1 {{moe-fp8-placement cannot tell whether this GEMM is fc1 or fc2}}
  %h = moe.grouped_matmul %xs, %w, %sizes outs(%h0) : tensor<128x128xbf16>, tensor<4x128x256xbf16>, tensor<4xi32> -> tensor<128x256xbf16>
  return %h : tensor<128x256xbf16>
}

// -----

// Blockwise wgrad quantizes along the rows, in 128-row blocks.
func.func @wgrad_rows(%xs: tensor<96x128xbf16>, %dh: tensor<96x256xbf16>,
                      %sizes: tensor<4xi32>)
    -> (tensor<4x128x256xbf16> {moe.name = "d_w_gate"}) {
  %d0 = tensor.empty() : tensor<4x128x256xbf16>
  // expected-error @+1 {{moe-fp8-placement recipe blockwise: the fc1 wgrad GEMM contracts over R = 96 rows, not a multiple of 128}}
  %dw = moe.grouped_weight_grad %xs, %dh, %sizes outs(%d0) : tensor<96x128xbf16>, tensor<96x256xbf16>, tensor<4xi32> -> tensor<4x128x256xbf16>
  return %dw : tensor<4x128x256xbf16>
}

// -----

// A wgrad whose gradient is returned under no weight's name.
func.func @wgrad_unnamed(%xs: tensor<128x128xbf16>, %dh: tensor<128x256xbf16>,
                         %sizes: tensor<4xi32>) -> tensor<4x128x256xbf16> {
  %d0 = tensor.empty() : tensor<4x128x256xbf16>
  // expected-error @+1 {{moe-fp8-placement cannot tell whether this wgrad is fc1's or fc2's}}
  %dw = moe.grouped_weight_grad %xs, %dh, %sizes outs(%d0) : tensor<128x128xbf16>, tensor<128x256xbf16>, tensor<4xi32> -> tensor<4x128x256xbf16>
  return %dw : tensor<4x128x256xbf16>
}

// -----

// Tensor-wise scales cannot cross an exchange (each rank has its own);
// blockwise row scales can, so this split is valid for the first RUN.
shard.grid @ep(shape = 2)
func.func @exchange(%xs: tensor<128x128xbf16>, %send: tensor<2xi32>,
                    %w_gate: tensor<4x128x256xbf16> {moe.name = "w_gate"},
                    %sizes: tensor<4xi32>) -> tensor<128x256xbf16> {
  %y0 = tensor.empty() : tensor<128x128xbf16>
  %c0 = tensor.empty() : tensor<2xi32>
  %rows, %recv = moe.all_to_all %xs, %send on @ep axis 0 outs(%y0, %c0) : tensor<128x128xbf16>, tensor<2xi32> -> tensor<128x128xbf16>, tensor<2xi32>
  %h0 = tensor.empty() : tensor<128x256xbf16>
  %h = moe.grouped_matmul %rows, %w_gate, %sizes outs(%h0) : tensor<128x128xbf16>, tensor<4x128x256xbf16>, tensor<4xi32> -> tensor<128x256xbf16>
  return %h : tensor<128x256xbf16>
}

// -----

// MX scales (e8m0) cannot move through moe.permute.
func.func @permute(%x: tensor<64x128xbf16>, %indices: tensor<64x2xi32>,
                   %w_gate: tensor<4x128x256xbf16> {moe.name = "w_gate"})
    -> tensor<128x256xbf16> {
  %p0 = tensor.empty() : tensor<128x128xbf16>
  %g0 = tensor.empty() : tensor<4xi32>
  %r0 = tensor.empty() : tensor<64x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %indices experts 4 align 1 outs(%p0, %g0, %r0) : tensor<64x128xbf16>, tensor<64x2xi32> -> tensor<128x128xbf16>, tensor<4xi32>, tensor<64x2xi32>
  %h0 = tensor.empty() : tensor<128x256xbf16>
  %h = moe.grouped_matmul %xs, %w_gate, %sizes outs(%h0) : tensor<128x128xbf16>, tensor<4x128x256xbf16>, tensor<4xi32> -> tensor<128x256xbf16>
  return %h : tensor<128x256xbf16>
}
