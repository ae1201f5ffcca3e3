// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.quantize mx_1x32 to e5m2 (max 57344) with N = 40, not a multiple of
// 32: scale is [1, ⌈40/32⌉] = [1, 2] and the second block holds 8 columns.
//
// Derivation (f8E5M2: spacing 512 in [2048, 4096), 0.5 in [2, 4),
// subnormals M · 2^-16 = M · 1.52587890625e-05):
//   cols 0..31: [1, 0.75, -0.1 × 30]; amax 1 → 1/57344 = 1.74e-5 → up to
//     2^-15 = 3.0517578125e-05 (2^-16 = 1.53e-5 is too small); q = x · 32768:
//     32768; 24576 (1.5 · 2^14); -0.1 (f32 0.100000001) → -3276.8: 3072 (dist
//     204.8) / 3584 → -3072
//     y = [1, 0.75, -3072/32768 = -0.09375 × 30]
//   cols 32..39: [229376, 10 × 6, 0.0001]; amax 229376 = 4 · 57344 → scale 4
//     exactly; q = x / 4: 57344; 2.5; 0.0001 (f32 9.99999975e-05) / 4 =
//     2.49999994e-05 = 1.638 · 2^-16 → subnormal code 2 → 2^-15 =
//     3.0517578125e-05
//     y = [229376, 10 × 6, 2^-15 · 4 = 2^-13 = 0.0001220703125]
//   (%.9g of 2^-13 ends on a printed tie, so its last digit is not pinned.)
func.func @quantize_mx_e5m2() -> (tensor<1x40xf8E5M2>, tensor<1x2xf8E8M0FNU>, tensor<1x40xf32>) {
  %x = arith.constant dense<[[1.0, 0.75, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1,
                              -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1, -0.1,
                              229376.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 0.0001]]> : tensor<1x40xf32>
  %init1 = tensor.empty() : tensor<1x40xf8E5M2>
  %init2 = tensor.empty() : tensor<1x2xf8E8M0FNU>
  %q, %s = moe.quantize mx_1x32 %x outs(%init1, %init2) : tensor<1x40xf32> -> tensor<1x40xf8E5M2>, tensor<1x2xf8E8M0FNU>
  %init3 = tensor.empty() : tensor<1x40xf32>
  %y = moe.dequantize mx_1x32 %q, %s outs(%init3) : tensor<1x40xf8E5M2>, tensor<1x2xf8E8M0FNU> -> tensor<1x40xf32>
  return %q, %s, %y : tensor<1x40xf8E5M2>, tensor<1x2xf8E8M0FNU>, tensor<1x40xf32>
}
// The {{(, v){n}()}} groups are n more copies of ", v".
// CHECK: result0 = [32768, 24576, -3072{{(, -3072){29}()}}, 57344, 2.5{{(, 2\.5){5}()}}, 3.05175781e-05]
// CHECK: result1 = [3.05175781e-05, 4]
// CHECK: result2 = [1, 0.75, -0.09375{{(, -0\.09375){29}()}}, 229376, 10{{(, 10){5}()}}, 0.00012207031{{[0-9]}}]
