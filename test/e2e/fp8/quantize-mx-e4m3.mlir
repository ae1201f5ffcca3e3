// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.quantize mx_1x32 (MXFP8, e4m3): one f8E8M0FNU scale per row and per 32
// columns; x is [2, 64], so scale is [2, 2]. The scale is amax / 448 rounded
// UP to a power of two (so |x / scale| <= 448 and nothing clips), 1 where
// amax = 0.
//
// Derivation:
//   row 0, cols 0..31: [1, -0.3, 0.5 × 30]; amax 1 → 1/448 = 0.00223
//     → up to 2^-8 = 0.00390625 (2^-9 = 0.00195 is too small); q = x · 256:
//     256; -0.3 (f32 0.300000012) → -76.8: spacing 8 in [64, 128): 72 (dist
//     4.8) / 80 (dist 3.2) → -80; 0.5 → 128
//     y = [1, -80/256 = -0.3125, 0.5 × 30]
//   row 0, cols 32..63: [448, 17, 1 × 30]; amax 448 → 448/448 = 1, already a
//     power of two → scale 1; q = fp8(x): 448; 17 is a tie 16 / 18 → 16; 1
//     y = q
//   row 1, cols 0..31: 0; scale 1; q = y = 0
//   row 1, cols 32..63: [100, -1, 0.01, 0.5 × 29]; amax 100 → 100/448 =
//     0.223 → up to 0.25; q = x · 4: 400 is a tie between 384 (M=4, even) and
//     416 (M=5) → 384; -4; 0.01 (f32 0.00999999978) → 0.04: spacing 2^-8 in
//     [2^-5, 2^-4): 0.0390625 (dist 0.0009) / 0.04296875 → 0.0390625; 2
//     y = [96, -1, 0.0390625/4 = 0.009765625, 0.5 × 29]
func.func @quantize_mx_e4m3() -> (tensor<2x64xf8E4M3FN>, tensor<2x2xf8E8M0FNU>, tensor<2x64xf32>) {
  %x = arith.constant dense<[[1.0, -0.3, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
                              0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
                              448.0, 17.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
                              1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                             [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                              0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                              100.0, -1.0, 0.01, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
                              0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]]> : tensor<2x64xf32>
  %init1 = tensor.empty() : tensor<2x64xf8E4M3FN>
  %init2 = tensor.empty() : tensor<2x2xf8E8M0FNU>
  %q, %s = moe.quantize mx_1x32 %x outs(%init1, %init2) : tensor<2x64xf32> -> tensor<2x64xf8E4M3FN>, tensor<2x2xf8E8M0FNU>
  %init3 = tensor.empty() : tensor<2x64xf32>
  %y = moe.dequantize mx_1x32 %q, %s outs(%init3) : tensor<2x64xf8E4M3FN>, tensor<2x2xf8E8M0FNU> -> tensor<2x64xf32>
  return %q, %s, %y : tensor<2x64xf8E4M3FN>, tensor<2x2xf8E8M0FNU>, tensor<2x64xf32>
}
// The {{(, v){n}()}} groups are n more copies of ", v".
// CHECK: result0 = [256, -80{{(, 128){30}()}}, 448, 16{{(, 1){30}()}}, 0{{(, 0){31}()}}, 384, -4, 0.0390625{{(, 2){29}()}}]
// CHECK: result1 = [0.00390625, 1, 1, 0.25]
// CHECK: result2 = [1, -0.3125{{(, 0\.5){30}()}}, 448, 16{{(, 1){30}()}}, 0{{(, 0){31}()}}, 96, -1, 0.009765625{{(, 0\.5){29}()}}]
