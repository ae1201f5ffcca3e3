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

// -----

// moe-fuse's gate-up-weights (one grouped matmul on w_gate and w_up) ran
// first: its FP8 form is not supported, so placement asks to run before
// fusing.
func.func @moe_layer(%arg0: tensor<64x32xbf16> {moe.name = "x", moe.role = "input"}, %arg1: tensor<32x8xf32> {moe.name = "router_weight", moe.role = "weight"}, %arg2: tensor<8x32x48xbf16> {moe.name = "w_gate", moe.role = "weight"}, %arg3: tensor<8x32x48xbf16> {moe.name = "w_up", moe.role = "weight"}, %arg4: tensor<8x48x32xbf16> {moe.name = "w_down", moe.role = "weight"}) -> (tensor<64x32xbf16> {moe.name = "out", moe.role = "output"}, tensor<f32> {moe.name = "aux_loss", moe.role = "output"}) {
  %cst = arith.constant 1.000000e+00 : f32
  %0 = tensor.empty() : tensor<64x8xf32>
  %1 = moe.gate %arg0, %arg1 outs(%0) : tensor<64x32xbf16>, tensor<32x8xf32> -> tensor<64x8xf32>
  %2 = tensor.empty() : tensor<64x8xf32>
  %3 = moe.route softmax %1 outs(%2) : tensor<64x8xf32> -> tensor<64x8xf32>
  %4 = tensor.empty() : tensor<64x2xf32>
  %5 = tensor.empty() : tensor<64x2xi32>
  %weights, %indices = moe.topk softmax %3 k 2 outs(%4, %5) {normalize = #moe<normalize sum>} : tensor<64x8xf32> -> tensor<64x2xf32>, tensor<64x2xi32>
  %6 = tensor.empty() : tensor<128x32xbf16>
  %7 = tensor.empty() : tensor<8xi32>
  %8 = tensor.empty() : tensor<64x2xi32>
  %permuted, %group_sizes, %rows = moe.permute %arg0, %indices experts 8 align 1 outs(%6, %7, %8) : tensor<64x32xbf16>, tensor<64x2xi32> -> tensor<128x32xbf16>, tensor<8xi32>, tensor<64x2xi32>
  %9 = tensor.empty() : tensor<128x48xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op moe-fp8-placement: the fc1 fwd GEMM pairs gate and up weights ('up_weight', made by moe-fuse); place FP8 before fusing}}
  %10 = moe.grouped_matmul %permuted, %arg2, %group_sizes up_weight(%arg3 : tensor<8x32x48xbf16>) outs(%9) epilogue {
  ^bb0(%arg5: f32, %arg6: f32):
    %20 = arith.negf %arg5 : f32
    %21 = math.exp %20 : f32
    %22 = arith.addf %21, %cst : f32
    %23 = arith.divf %arg5, %22 : f32
    %24 = arith.mulf %23, %arg6 : f32
    moe.yield %24 : f32
  } : tensor<128x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<128x48xbf16>
  %11 = tensor.empty() : tensor<128x32xbf16>
  %12 = moe.grouped_matmul %10, %arg4, %group_sizes outs(%11) : tensor<128x48xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<128x32xbf16>
  %13 = tensor.empty() : tensor<64x32xbf16>
  %14 = moe.combine %12, %rows, %weights outs(%13) : tensor<128x32xbf16>, tensor<64x2xi32>, tensor<64x2xf32> -> tensor<64x32xbf16>
  %15 = tensor.empty() : tensor<f32>
  %16 = moe.aux_loss batch %3, %indices from softmax coeff 1.000000e-02 outs(%15) : tensor<64x8xf32>, tensor<64x2xi32> -> tensor<f32>
  %17 = tensor.empty() : tensor<f32>
  %18 = moe.z_loss %1 coeff 1.000000e-03 outs(%17) : tensor<64x8xf32> -> tensor<f32>
  %19 = arith.addf %16, %18 : tensor<f32>
  return %14, %19 : tensor<64x32xbf16>, tensor<f32>
}
