// MXFP8 (moe.quantize / moe.dequantize mx_1x32) on a Hopper target: a clear
// "unsupported on target" error at the op, before anything is lowered
// (sm_100 and newer pass the check).
// RUN: not moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{chip=sm_90a})' 2>&1 | FileCheck %s --check-prefix=SM90

// SM90: error: 'moe.quantize' op recipe mx_1x32 (MXFP8) is unsupported on target sm_90a: MX block scaling needs sm_100 or newer (use recipe blockwise on Hopper)
func.func @mx(%x: tensor<128x128xbf16>) -> tensor<128x128xbf16> {
  %q0 = tensor.empty() : tensor<128x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<128x4xf8E8M0FNU>
  %q, %s = moe.quantize mx_1x32 %x outs(%q0, %s0) : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x4xf8E8M0FNU>
  %y0 = tensor.empty() : tensor<128x128xbf16>
  %y = moe.dequantize mx_1x32 %q, %s outs(%y0) : tensor<128x128xf8E4M3FN>, tensor<128x4xf8E8M0FNU> -> tensor<128x128xbf16>
  return %y : tensor<128x128xbf16>
}
