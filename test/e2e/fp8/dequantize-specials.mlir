// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.dequantize of FP8 bit patterns given directly (hex = raw bits): the
// decoder on every special class, times a tensor-wise scale.
//
// f8E4M3FN, scale 2:
//   0x7F S.1111.111 = NaN; 0xFF = NaN (sign set); 0x80 = -0
//   0x01 = 2^-9 (smallest subnormal) → 2^-8 = 0.00390625
//   0x07 = 7·2^-9 (largest subnormal) → 7·2^-8 = 0.02734375
//   0x08 = 2^-6 (smallest normal) → 0.03125
//   0x7E = 448 → 896;  0xFE = -448 → -896
// f8E5M2, scale 0.5:
//   0x7C = +inf; 0xFC = -inf; 0x7D = NaN
//   0x01 = 2^-16 → 2^-17 = 7.62939453e-06;  0x03 = 3·2^-16 → 2.28881836e-05
//   0x04 = 2^-14 (smallest normal) → 2^-15 = 3.05175781e-05
//   0x7B = 57344 → 28672;  0x80 = -0
// bf16 output, f8E4M3FN, scale 0.1 (f32 0x3DCCCCCD = 0.100000001):
//   1 · 0.100000001 → bf16: 0x3DCC|CCCD rounds up to 0x3DCD = 0.10009765625
//   448 · 0.100000001 = 44.8000007 → bf16 spacing 0.25 in [32, 64) → 44.75
//   0x80 (-0) → -0
func.func @dequantize_specials() -> (tensor<8xf32>, tensor<8xf32>, tensor<3xbf16>) {
  %a = arith.constant dense<[0x7F, 0xFF, 0x80, 0x01, 0x07, 0x08, 0x7E, 0xFE]> : tensor<8xf8E4M3FN>
  %sa = arith.constant dense<2.0> : tensor<f32>
  %init1 = tensor.empty() : tensor<8xf32>
  %ya = moe.dequantize tensorwise %a, %sa outs(%init1) : tensor<8xf8E4M3FN>, tensor<f32> -> tensor<8xf32>
  %b = arith.constant dense<[0x7C, 0xFC, 0x7D, 0x01, 0x03, 0x04, 0x7B, 0x80]> : tensor<8xf8E5M2>
  %sb = arith.constant dense<0.5> : tensor<f32>
  %init2 = tensor.empty() : tensor<8xf32>
  %yb = moe.dequantize tensorwise %b, %sb outs(%init2) : tensor<8xf8E5M2>, tensor<f32> -> tensor<8xf32>
  %c = arith.constant dense<[1.0, 448.0, 0x80]> : tensor<3xf8E4M3FN>
  %sc = arith.constant dense<0.1> : tensor<f32>
  %init3 = tensor.empty() : tensor<3xbf16>
  %yc = moe.dequantize tensorwise %c, %sc outs(%init3) : tensor<3xf8E4M3FN>, tensor<f32> -> tensor<3xbf16>
  return %ya, %yb, %yc : tensor<8xf32>, tensor<8xf32>, tensor<3xbf16>
}
// CHECK: result0 = [{{-?nan}}, {{-?nan}}, -0, 0.00390625, 0.02734375, 0.03125, 896, -896]
// CHECK: result1 = [inf, -inf, {{-?nan}}, 7.62939453e-06, 2.28881836e-05, 3.05175781e-05, 28672, -0]
// CHECK: result2 = [0.100097656, 44.75, -0]
