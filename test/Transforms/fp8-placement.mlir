// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement=recipe=tensorwise | FileCheck %s --check-prefix=TW
// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement="recipe=tensorwise grad-format=e4m3" | FileCheck %s --check-prefix=GE4
// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement="recipe=delayed amax-history-length=4" | FileCheck %s --check-prefix=DL
// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement=recipe=blockwise | FileCheck %s --check-prefix=BW
// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement=recipe=mxfp8 | FileCheck %s --check-prefix=MX
// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement="recipe=blockwise gemms=fc2,wgrad" | FileCheck %s --check-prefix=SEL
// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement="recipe=blockwise quantize-before-all-to-all" | FileCheck %s --check-prefix=A2A
// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement="recipe=blockwise quantize-before-permute=false" | FileCheck %s --check-prefix=BELOW
// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement="recipe=blockwise fp8-residuals=false" | FileCheck %s --check-prefix=BWNORES
// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement="recipe=tensorwise fp8-residuals=false" | FileCheck %s --check-prefix=NORES
// RUN: moe-opt %s -split-input-file --moe-generate-vjp --moe-fp8-placement="recipe=blockwise fp8-weight-residuals=false" | FileCheck %s --check-prefix=NOWRES

// A layer with H = 128, F = 256 (multiples of 128: every recipe applies),
// differentiated first: placement runs on @moe_layer, @moe_layer_fwd and
// @moe_layer_bwd.
func.func @moe_layer(%x: tensor<64x128xbf16>, %router: tensor<128x4xf32>,
                     %w_gate: tensor<4x128x256xbf16>, %w_up: tensor<4x128x256xbf16>,
                     %w_down: tensor<4x256x128xbf16>)
    -> (tensor<64x128xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<64x128xbf16>, tensor<128x4xf32>, tensor<4x128x256xbf16>,
         tensor<4x128x256xbf16>, tensor<4x256x128xbf16>)
      -> (tensor<64x128xbf16>, tensor<f32>)
  return %out, %aux : tensor<64x128xbf16>, tensor<f32>
}

// tensorwise: fc1's gate and up GEMMs share one quantized activation; the
// router (moe.gate on f32) and the combine stay unquantized.
// TW-LABEL: func.func @moe_layer(
// TW:       moe.gate {{.*}} : tensor<64x128xbf16>, tensor<128x4xf32>
// TW:       %[[XS:.*]], %[[SIZES:.*]], %{{.*}} = moe.permute
// TW:       %[[QX:.*]], %[[SX:.*]] = moe.quantize tensorwise %[[XS]] {{.*}} : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<f32>
// TW:       %[[QG:.*]], %[[SG:.*]] = moe.quantize tensorwise %arg2 {{.*}} -> tensor<4x128x256xf8E4M3FN>, tensor<f32>
// TW:       moe.grouped_matmul %[[QX]], %[[QG]], %[[SIZES]] scales(%[[SX]], %[[SG]]) {{.*}} -> tensor<128x256xbf16>
// TW:       %[[QU:.*]], %[[SU:.*]] = moe.quantize tensorwise %arg3
// TW:       moe.grouped_matmul %[[QX]], %[[QU]], %[[SIZES]] scales(%[[SX]], %[[SU]])
// TW:       %[[H:.*]] = moe.glu
// TW:       %[[QH:.*]], %[[SH:.*]] = moe.quantize tensorwise %[[H]]
// TW:       %[[QD:.*]], %[[SD:.*]] = moe.quantize tensorwise %arg4
// TW:       %[[Y:.*]] = moe.grouped_matmul %[[QH]], %[[QD]], %[[SIZES]] scales(%[[SH]], %[[SD]])
// TW:       moe.combine %[[Y]], {{.*}} : tensor<128x128xbf16>, tensor<64x2xi32>, tensor<64x2xf32>
// The dispatched tokens, a residual that fc1 quantizes, are saved in FP8
// with their scale; @moe_layer_bwd takes both and fc1's wgrad reads them.
// TW-LABEL: func.func @moe_layer_fwd(
// TW-SAME:  tensor<128x128xf8E4M3FN> {moe.name = "res9", moe.role = "residual"}, tensor<f32> {moe.name = "res9_scale", moe.role = "residual"}
// The FP8 weights that the forward GEMMs quantized are residuals too
// (fp8-weight-residuals), after the others, for the backward's dgrads.
// TW-SAME:  tensor<4x128x256xf8E4M3FN> {moe.name = "w_gate_fp8", moe.role = "residual"}, tensor<f32> {moe.name = "w_gate_fp8_scale", moe.role = "residual"}
// TW-SAME:  tensor<4x128x256xf8E4M3FN> {moe.name = "w_up_fp8", moe.role = "residual"}, tensor<f32> {moe.name = "w_up_fp8_scale", moe.role = "residual"}
// TW-SAME:  tensor<4x256x128xf8E4M3FN> {moe.name = "w_down_fp8", moe.role = "residual"}, tensor<f32> {moe.name = "w_down_fp8_scale", moe.role = "residual"})
// TW:       %[[XS:.*]], %{{.*}}, %{{.*}} = moe.permute
// TW:       %[[QX:.*]], %[[SX:.*]] = moe.quantize tensorwise %[[XS]]
// TW:       %[[QG:.*]], %[[SG:.*]] = moe.quantize tensorwise %arg2
// TW:       moe.grouped_matmul {{.*}} scales(
// TW:       %[[QU:.*]], %[[SU:.*]] = moe.quantize tensorwise %arg3
// TW:       moe.grouped_matmul {{.*}} scales(
// TW:       %[[QD:.*]], %[[SD:.*]] = moe.quantize tensorwise %arg4
// TW:       moe.grouped_matmul {{.*}} scales(
// TW:       return {{.*}}, %[[QX]], %[[SX]], %[[QG]], %[[SG]], %[[QU]], %[[SU]], %[[QD]], %[[SD]] :
// TW-LABEL: func.func @moe_layer_bwd(
// TW-SAME:  %[[RES9:arg10]]: tensor<128x128xf8E4M3FN> {moe.name = "res9", moe.role = "residual"}, %[[RES9S:arg11]]: tensor<f32> {moe.name = "res9_scale", moe.role = "residual"}
// TW-SAME:  %[[WG:arg12]]: tensor<4x128x256xf8E4M3FN> {moe.name = "w_gate_fp8", moe.role = "residual"}, %[[WGS:arg13]]: tensor<f32> {moe.name = "w_gate_fp8_scale", moe.role = "residual"}
// TW-SAME:  %[[WU:arg14]]: tensor<4x128x256xf8E4M3FN> {moe.name = "w_up_fp8", moe.role = "residual"}, %[[WUS:arg15]]: tensor<f32> {moe.name = "w_up_fp8_scale", moe.role = "residual"}
// TW-SAME:  %[[WD:arg16]]: tensor<4x256x128xf8E4M3FN> {moe.name = "w_down_fp8", moe.role = "residual"}, %[[WDS:arg17]]: tensor<f32> {moe.name = "w_down_fp8_scale", moe.role = "residual"}
// No weight is quantized again: the dgrads read the forward's.
// TW-NOT:   moe.quantize tensorwise {{.*}} -> tensor<4x
// dgrad of fc2: the gradient in e5m2, the weight in e4m3, weight_layout nk.
// TW:       %[[DY:.*]], %{{.*}} = moe.combine_grad
// TW:       %[[QDY:.*]], %[[SDY:.*]] = moe.quantize tensorwise %[[DY]] {{.*}} -> tensor<128x128xf8E5M2>, tensor<f32>
// TW:       moe.grouped_matmul %[[QDY]], %[[WD]], {{.*}} scales(%[[SDY]], %[[WDS]]) {{.*}} {weight_layout = #moe<weight_layout nk>} : tensor<128x128xf8E5M2>, tensor<4x256x128xf8E4M3FN>
// wgrad of fc2: the FP8 data of both operands' quantizations transposed
// to [C, R] (one scale whatever the layout: the gradient's is the dgrad's),
// then one FP8 weight gradient on them; nothing dequantized.
// TW-NOT:   moe.dequantize
// TW:       %[[QA:.*]], %[[SA:.*]] = moe.quantize tensorwise {{.*}} : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>
// TW-NEXT:  tensor.empty() : tensor<256x128xf8E4M3FN>
// TW-NEXT:  %[[AT:.*]] = linalg.transpose ins(%[[QA]] : tensor<128x256xf8E4M3FN>) {{.*}} permutation = [1, 0]
// TW-NEXT:  tensor.empty() : tensor<128x128xf8E5M2>
// TW-NEXT:  %[[DYT:.*]] = linalg.transpose ins(%[[QDY]] : tensor<128x128xf8E5M2>) {{.*}} permutation = [1, 0]
// TW-NEXT:  moe.grouped_weight_grad %[[AT]], %[[DYT]], %{{.*}} scales(%[[SA]], %[[SDY]]) outs(%{{.*}}) {transposed_operands} : tensor<256x128xf8E4M3FN>, tensor<128x128xf8E5M2>, tensor<4xi32>, tensor<f32>, tensor<f32> -> tensor<4x256x128xbf16>
// fc1's wgrads read the FP8 residual x, transposed once for both, with
// its saved scale.
// TW:       moe.grouped_matmul %{{.*}}, %[[WU]], {{.*}} scales(%{{.*}}, %[[WUS]])
// TW:       %[[XT:.*]] = linalg.transpose ins(%[[RES9]] : tensor<128x128xf8E4M3FN>) {{.*}} permutation = [1, 0]
// TW:       linalg.transpose ins(%{{.*}} : tensor<128x256xf8E5M2>)
// TW-NEXT:  moe.grouped_weight_grad %[[XT]], %{{.*}} scales(%[[RES9S]], %{{.*}}) {{.*}} {transposed_operands} : tensor<128x128xf8E4M3FN>, tensor<256x128xf8E5M2>
// TW:       moe.grouped_matmul %{{.*}}, %[[WG]], {{.*}} scales(%{{.*}}, %[[WGS]])
// TW-NOT:   linalg.transpose ins(%[[RES9]]
// TW:       moe.grouped_weight_grad %[[XT]], %{{.*}} scales(%[[RES9S]], %{{.*}}) {{.*}} {transposed_operands}
// TW-NOT:   moe.grouped_weight_grad
// TW-NOT:   moe.dequantize
// TW:       return

// NORES-LABEL: func.func @moe_layer_fwd(
// NORES-NOT:   res9_scale
// NORES-SAME:  tensor<128x128xbf16> {moe.name = "res9", moe.role = "residual"}, tensor<4x128x256xf8E4M3FN> {moe.name = "w_gate_fp8"
// NORES-LABEL: func.func @moe_layer_bwd(
// NORES-SAME:  %arg10: tensor<128x128xbf16> {moe.name = "res9", moe.role = "residual"}
// NORES:       moe.quantize tensorwise %arg10

// GE4-LABEL: func.func @moe_layer_bwd(
// GE4-NOT:   f8E5M2
// GE4:       moe.quantize tensorwise {{.*}} : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>
// GE4:       moe.grouped_matmul {{.*}} : tensor<128x128xf8E4M3FN>, tensor<4x256x128xf8E4M3FN>

// delayed: one history argument per quantized tensor, rolled history
// returned; the forward's activation history is shared by gate and up, and
// a wgrad reuses its dgrad's quantized gradient (and history); fc1's wgrad
// reads the FP8 residual of the forward (no history of its own).
// DL-LABEL: func.func @moe_layer(
// DL-SAME:  %arg5: tensor<4xf32> {moe.name = "amax_fc1_fwd_x", moe.role = "input"}
// DL-SAME:  %arg6: tensor<4xf32> {moe.name = "amax_fc1_fwd_w_gate", moe.role = "input"}
// DL-SAME:  %arg7: tensor<4xf32> {moe.name = "amax_fc1_fwd_w_up", moe.role = "input"}
// DL-SAME:  %arg8: tensor<4xf32> {moe.name = "amax_fc2_fwd_x", moe.role = "input"}
// DL-SAME:  %arg9: tensor<4xf32> {moe.name = "amax_fc2_fwd_w_down", moe.role = "input"}
// DL-SAME:  tensor<4xf32> {moe.name = "new_amax_fc1_fwd_x", moe.role = "output"}
// DL:       %{{.*}}, %{{.*}}, %[[NH:.*]] = moe.quantize delayed %{{.*}} outs(%{{.*}}, %{{.*}}, %arg5) : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<f32>, tensor<4xf32>
// DL:       return {{.*}}, %[[NH]],
// DL-LABEL: func.func @moe_layer_bwd(
// DL-SAME:  {moe.name = "amax_fc2_dgrad_dy_w_down", moe.role = "input"}
// DL-SAME:  {moe.name = "amax_fc2_dgrad_w_down", moe.role = "input"}
// DL-SAME:  {moe.name = "amax_fc2_wgrad_x", moe.role = "input"}
// DL-NOT:   amax_fc2_wgrad_dy
// DL-NOT:   amax_fc1_wgrad_x
// DL-SAME:  {moe.name = "amax_fc1_dgrad_dy_w_up", moe.role = "input"}
// DL-SAME:  {moe.name = "amax_fc1_dgrad_w_up", moe.role = "input"}
// DL-SAME:  {moe.name = "amax_fc1_dgrad_dy_w_gate", moe.role = "input"}
// DL-SAME:  {moe.name = "amax_fc1_dgrad_w_gate", moe.role = "input"}
// DL-SAME:  {moe.name = "new_amax_fc2_dgrad_dy_w_down", moe.role = "output"}

// blockwise: 1×128 activation blocks, 128×128 weight blocks; wgrad in
// 128×1 blocks along the rows: each bf16 operand transposed to [C, R] and
// quantized block_1x128 ([C, R/128] scales), one FP8 weight gradient on
// them; no dequantize, no transpose back. fc1's x (the dequantized FP8
// residual) is transposed and quantized once for the gate and up wgrads.
// BW-LABEL: func.func @moe_layer(
// BW:       %[[QX0:.*]], %[[SX0:.*]] = moe.quantize block_1x128 %arg0 {{.*}} : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
// BW:       %[[QP0:.*]], %{{.*}}, %[[ROWS0:.*]] = moe.permute %[[QX0]], {{.*}} -> tensor<128x128xf8E4M3FN>, tensor<4xi32>, tensor<64x2xi32>
// BW:       %[[SP0:.*]] = moe.permute_rows %[[SX0]], %[[ROWS0]] {{.*}} : tensor<64x1xf32>, tensor<64x2xi32> -> tensor<128x1xf32>
// BW-NOT:   moe.permute
// BW:       moe.quantize block_128x128 %arg2 {{.*}} -> tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>
// BW:       moe.grouped_matmul %[[QP0]], {{.*}} scales(%[[SP0]], {{.*}} : tensor<128x128xf8E4M3FN>, tensor<4x128x256xf8E4M3FN>, tensor<4xi32>, tensor<128x1xf32>, tensor<4x1x2xf32>
// BW:       moe.quantize block_1x128 {{.*}} : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
// BW-LABEL: func.func @moe_layer_fwd(
// BW-SAME:  tensor<4x256x128xf8E4M3FN> {moe.name = "w_down_fp8", moe.role = "residual"}, tensor<4x2x1xf32> {moe.name = "w_down_fp8_scale", moe.role = "residual"})
// The dgrad of fc2 reads the forward's 128×128-block weight (the same
// blocks whichever dimension is contracted); no weight is quantized again.
// BW-LABEL: func.func @moe_layer_bwd(
// BW-SAME:  %[[WD:arg16]]: tensor<4x256x128xf8E4M3FN> {moe.name = "w_down_fp8", moe.role = "residual"}, %[[WDS:arg17]]: tensor<4x2x1xf32> {moe.name = "w_down_fp8_scale", moe.role = "residual"}
// BW-NOT:   moe.quantize block_128x128
// BW:       %[[QDY0:.*]], %[[SDY0:.*]] = moe.quantize block_1x128 {{.*}} : tensor<128x128xbf16> -> tensor<128x128xf8E5M2>, tensor<128x1xf32>
// BW:       moe.grouped_matmul %[[QDY0]], %[[WD]], %{{.*}} scales(%[[SDY0]], %[[WDS]]) {{.*}} {weight_layout = #moe<weight_layout nk>}
// BW:       %[[T:.*]] = linalg.transpose ins(%{{.*}} : tensor<128x256xbf16>) {{.*}} permutation = [1, 0]
// BW:       %[[Q:.*]], %[[S:.*]] = moe.quantize block_1x128 %[[T]] {{.*}} : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<256x1xf32>
// BW:       %[[TDY:.*]] = linalg.transpose ins(%{{.*}} : tensor<128x128xbf16>) {{.*}} permutation = [1, 0]
// BW:       %[[QDY:.*]], %[[SDY:.*]] = moe.quantize block_1x128 %[[TDY]] {{.*}} : tensor<128x128xbf16> -> tensor<128x128xf8E5M2>, tensor<128x1xf32>
// BW-NEXT:  moe.grouped_weight_grad %[[Q]], %[[QDY]], %{{.*}} scales(%[[S]], %[[SDY]]) outs(%{{.*}}) {transposed_operands} : tensor<256x128xf8E4M3FN>, tensor<128x128xf8E5M2>, tensor<4xi32>, tensor<256x1xf32>, tensor<128x1xf32> -> tensor<4x256x128xbf16>
// BW:       %[[XT:.*]] = linalg.transpose ins(%{{.*}} : tensor<128x128xbf16>) {{.*}} permutation = [1, 0]
// BW:       %[[QX:.*]], %[[SX:.*]] = moe.quantize block_1x128 %[[XT]] {{.*}} -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
// BW:       moe.quantize block_1x128 {{.*}} : tensor<256x128xbf16> -> tensor<256x128xf8E5M2>, tensor<256x1xf32>
// BW-NEXT:  moe.grouped_weight_grad %[[QX]], %{{.*}} scales(%[[SX]], %{{.*}}) {{.*}} {transposed_operands}
// BW-NOT:   moe.quantize {{.*}} -> tensor<128x128xf8E4M3FN>
// BW:       moe.grouped_weight_grad %[[QX]], %{{.*}} scales(%[[SX]], %{{.*}}) {{.*}} {transposed_operands}
// BW-NOT:   moe.dequantize
// BW-NOT:   moe.quantize block_128x128
// BW:       return

// fp8-weight-residuals=false: the backward quantizes each weight itself.
// NOWRES-LABEL: func.func @moe_layer_fwd(
// NOWRES-NOT:   _fp8
// NOWRES-SAME:  {
// NOWRES-LABEL: func.func @moe_layer_bwd(
// NOWRES-NOT:   _fp8
// NOWRES-SAME:  {
// NOWRES-COUNT-3: moe.quantize block_128x128 %arg{{[0-9]+}} {{.*}} : tensor<4x{{(128x256|256x128)}}xbf16>

// mxfp8: 1×32 blocks with e8m0 scales along the contraction; a kn weight
// is transposed to nk; the GEMM runs on the dequantized (exact) values.
// MX-LABEL: func.func @moe_layer(
// MX:       %[[Q:.*]], %[[S:.*]] = moe.quantize mx_1x32 {{.*}} : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x4xf8E8M0FNU>
// MX:       %[[WT:.*]] = linalg.transpose ins(%arg2 : tensor<4x128x256xbf16>) {{.*}} permutation = [0, 2, 1]
// MX:       %[[A:.*]] = moe.dequantize mx_1x32 %[[Q]], %[[S]] {{.*}} -> tensor<128x128xbf16>
// MX:       %[[QW:.*]], %[[SW:.*]] = moe.quantize mx_1x32 %[[WT]] {{.*}} -> tensor<4x256x128xf8E4M3FN>, tensor<4x256x4xf8E8M0FNU>
// MX:       %[[W:.*]] = moe.dequantize mx_1x32 %[[QW]], %[[SW]] {{.*}} -> tensor<4x256x128xbf16>
// MX:       moe.grouped_matmul %[[A]], %[[W]], {{.*}} {weight_layout = #moe<weight_layout nk>} : tensor<128x128xbf16>, tensor<4x256x128xbf16>
// mxfp8 has no FP8 weight gradient: each operand transposed, quantized in
// 1×32 blocks, dequantized to f32 and transposed back; fc1's x once for
// the gate and up wgrads.
// MX-LABEL: func.func @moe_layer_bwd(
// MX:       moe.grouped_weight_grad {{.*}} : tensor<128x256xf32>, tensor<128x128xf32>, tensor<4xi32> -> tensor<4x256x128xbf16>
// MX:       %[[XT:.*]] = linalg.transpose ins(%{{.*}} : tensor<128x128xbf16>) {{.*}} permutation = [1, 0]
// MX:       %[[QX:.*]], %[[SX:.*]] = moe.quantize mx_1x32 %[[XT]] {{.*}} -> tensor<128x128xf8E4M3FN>, tensor<128x4xf8E8M0FNU>
// MX:       %[[DX:.*]] = moe.dequantize mx_1x32 %[[QX]], %[[SX]] {{.*}} -> tensor<128x128xf32>
// MX:       %[[X32:.*]] = linalg.transpose ins(%[[DX]] : tensor<128x128xf32>) {{.*}} permutation = [1, 0]
// MX:       moe.grouped_weight_grad %[[X32]], %{{.*}} : tensor<128x128xf32>, tensor<128x256xf32>, tensor<4xi32> -> tensor<4x128x256xbf16>
// MX-NOT:   moe.quantize mx_1x32 {{.*}} -> tensor<128x128xf8E4M3FN>
// MX-NOT:   linalg.transpose ins(%[[DX]]
// MX:       moe.grouped_weight_grad %[[X32]], %{{.*}} : tensor<128x128xf32>, tensor<128x256xf32>, tensor<4xi32> -> tensor<4x128x256xbf16>

// gemms=fc2,wgrad: only fc2's weight gradient is quantized.
// SEL-LABEL: func.func @moe_layer(
// SEL-NOT:   moe.quantize
// SEL-LABEL: func.func @moe_layer_fwd(
// SEL-NOT:   moe.quantize
// SEL-LABEL: func.func @moe_layer_bwd(
// SEL-NOT:   moe.grouped_matmul {{.*}}scales
// SEL:       moe.quantize block_1x128 {{.*}} : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>
// SEL:       moe.quantize block_1x128 {{.*}} : tensor<128x128xbf16> -> tensor<128x128xf8E5M2>
// SEL:       moe.grouped_weight_grad {{.*}} {transposed_operands} : tensor<256x128xf8E4M3FN>, tensor<128x128xf8E5M2>, tensor<4xi32>, tensor<256x1xf32>, tensor<128x1xf32> -> tensor<4x256x128xbf16>
// SEL-NOT:   moe.quantize
// SEL:       return

// quantize-before-all-to-all on a layer without an exchange: fc1's
// activation is quantized before moe.permute, and the FP8 rows and their
// 1×128 scales are permuted; the bf16 permute is gone, in @moe_layer_fwd
// too, where the FP8 rows and scales are the residual.
// quantize-before-permute=false: the permuted bf16 rows are quantized.
// BELOW-LABEL: func.func @moe_layer(
// BELOW:       %[[P:.*]], %{{.*}}, %{{.*}} = moe.permute %arg0, {{.*}} -> tensor<128x128xbf16>, tensor<4xi32>, tensor<64x2xi32>
// BELOW-NOT:   moe.permute
// BELOW:       moe.quantize block_1x128 %[[P]] {{.*}} : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
// BELOW-LABEL: func.func @moe_layer_fwd(

// blockwise with bf16 residuals: @moe_layer_fwd returns the permuted bf16
// rows, so its quantize stays below the one permute (above it, a second
// permute would be needed for the FP8 rows); @moe_layer has no residuals.
// BWNORES-LABEL: func.func @moe_layer(
// BWNORES:       moe.quantize block_1x128 %arg0
// BWNORES:       moe.permute_rows
// BWNORES-LABEL: func.func @moe_layer_fwd(
// BWNORES:       %[[P:.*]], %{{.*}}, %{{.*}} = moe.permute %arg0, {{.*}} -> tensor<128x128xbf16>
// BWNORES-NOT:   moe.permute
// BWNORES:       moe.quantize block_1x128 %[[P]]
// BWNORES-NOT:   moe.permute
// BWNORES:       return
// BWNORES-LABEL: func.func @moe_layer_bwd(

// A2A-LABEL: func.func @moe_layer(
// A2A:       %[[Q:.*]], %[[S:.*]] = moe.quantize block_1x128 %arg0 {{.*}} : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
// A2A:       %[[QP:.*]], %[[SIZES:.*]], %[[ROWS:.*]] = moe.permute %[[Q]], {{.*}} -> tensor<128x128xf8E4M3FN>, tensor<4xi32>, tensor<64x2xi32>
// A2A:       %[[SP:.*]] = moe.permute_rows %[[S]], %[[ROWS]] {{.*}} : tensor<64x1xf32>, tensor<64x2xi32> -> tensor<128x1xf32>
// A2A-NOT:   moe.permute
// A2A:       moe.grouped_matmul %[[QP]], %{{.*}}, %[[SIZES]] scales(%[[SP]], %{{.*}})
// A2A:       moe.combine %{{.*}}, %[[ROWS]]
// A2A-LABEL: func.func @moe_layer_fwd(
// A2A:       %[[QP:.*]], %{{.*}}, %{{.*}} = moe.permute %{{.*}} : tensor<64x128xf8E4M3FN>
// A2A:       %[[SP:.*]] = moe.permute_rows %{{.*}} : tensor<64x1xf32>
// A2A-NOT:   moe.permute
// A2A:       return {{.*}}, %[[QP]], %[[SP]], {{.*}} :

// -----

// An exchange between the permute and the GEMM: blockwise scales travel
// through a second moe.all_to_all with the same send sizes.
shard.grid @ep(shape = 2)
func.func @exchange(%x: tensor<64x128xbf16> {moe.name = "x"},
                    %indices: tensor<64x2xi32> {moe.name = "indices"},
                    %w_gate: tensor<4x128x256xbf16> {moe.name = "w_gate"})
    -> tensor<128x256xbf16> {
  %p0 = tensor.empty() : tensor<128x128xbf16>
  %g0 = tensor.empty() : tensor<4xi32>
  %r0 = tensor.empty() : tensor<64x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %indices experts 4 align 1 outs(%p0, %g0, %r0) : tensor<64x128xbf16>, tensor<64x2xi32> -> tensor<128x128xbf16>, tensor<4xi32>, tensor<64x2xi32>
  %send = arith.constant dense<64> : tensor<2xi32>
  %y0 = tensor.empty() : tensor<128x128xbf16>
  %c0 = tensor.empty() : tensor<2xi32>
  %recv_rows, %recv = moe.all_to_all %xs, %send on @ep axis 0 outs(%y0, %c0) : tensor<128x128xbf16>, tensor<2xi32> -> tensor<128x128xbf16>, tensor<2xi32>
  %h0 = tensor.empty() : tensor<128x256xbf16>
  %h = moe.grouped_matmul %recv_rows, %w_gate, %sizes outs(%h0) : tensor<128x128xbf16>, tensor<4x128x256xbf16>, tensor<4xi32> -> tensor<128x256xbf16>
  return %h : tensor<128x256xbf16>
}
// A2A-LABEL: func.func @exchange(
// A2A:       %[[Q:.*]], %[[S:.*]] = moe.quantize block_1x128 %arg0
// A2A:       %[[QP:.*]], %[[SIZES:.*]], %[[ROWS:.*]] = moe.permute %[[Q]]
// A2A:       %[[SP:.*]] = moe.permute_rows %[[S]], %[[ROWS]]
// A2A-NOT:   moe.permute
// A2A:       %[[QE:.*]], %{{.*}} = moe.all_to_all %[[QP]], %{{.*}} on @ep axis 0 {{.*}} : tensor<128x128xf8E4M3FN>, tensor<2xi32> -> tensor<128x128xf8E4M3FN>, tensor<2xi32>
// A2A:       %[[SE:.*]], %{{.*}} = moe.all_to_all %[[SP]], %{{.*}} on @ep axis 0 {{.*}} : tensor<128x1xf32>, tensor<2xi32> -> tensor<128x1xf32>, tensor<2xi32>
// A2A-NOT:   moe.all_to_all
// A2A:       moe.grouped_matmul %[[QE]], %{{.*}}, %[[SIZES]] scales(%[[SE]], %{{.*}})
// TW-LABEL: func.func @exchange(
// TW:       moe.all_to_all {{.*}} : tensor<128x128xbf16>
// TW:       moe.quantize tensorwise
