// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.grouped_matmul with an epilogue region (the fusion hook): gate and up
// as one GEMM on a concatenated [G, Kd, 2F] weight (kn) or [G, 2F, Kd] (nk),
// the epilogue combining each output column's gate and up accumulators, and
// a per-row scale.
//
// Derivation (DESIGN.md, moe.grouped_matmul): sizes = [2, 0, 2], Σ = 4 < 5,
// a = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 0, -1], [2, 2, 2]].
//   Group 0: gate B0g = [[1, 0], [0, 1], [1, 1]], up B0u = [[0, 1], [1, 0], [0, 0]]
//     row 0: gate [4, 5], up [2, 1];   row 1: gate [10, 11], up [5, 4]
//   Group 2: gate B2g = [[1, -1], [2, 0], [0, 3]], up B2u = [[1, 0], [0, 1], [0, 0]]
//     row 2: gate [23, 20], up [7, 8]; row 3: gate [1, -4], up [1, 0]
//   Row 4 is past the groups: gate = up = 0, and the epilogue still applies.
// gated_relu_scaled: relu(gate) · up · scale, scale = [1, 0.5, 2, -1, 3]:
//   [8, 5], [25, 22], [322, 320], [-1, -0], [0, 0]  (exact in bf16; row 3
//   column 1 is 0 · -1 = -0)
// gated_plus_one_nk: gate · up + 1, the same weights stored [G, 2F, Kd]:
//   [9, 6], [51, 45], [162, 161], [2, 1], [1, 1]   (row 4: 0 · 0 + 1)
func.func @gated_relu_scaled() -> tensor<5x2xbf16> {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0],
                             [1.0, 0.0, -1.0], [2.0, 2.0, 2.0]]> : tensor<5x3xbf16>
  // b[g, kd, :] = [gate cols | up cols]
  %b = arith.constant dense<[[[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0]],
                             [[9.0, 9.0, 9.0, 9.0], [9.0, 9.0, 9.0, 9.0], [9.0, 9.0, 9.0, 9.0]],
                             [[1.0, -1.0, 1.0, 0.0], [2.0, 0.0, 0.0, 1.0], [0.0, 3.0, 0.0, 0.0]]]> : tensor<3x3x4xbf16>
  %sizes = arith.constant dense<[2, 0, 2]> : tensor<3xi32>
  %scale = arith.constant dense<[1.0, 0.5, 2.0, -1.0, 3.0]> : tensor<5xf32>
  %init = tensor.empty() : tensor<5x2xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes row_scale(%scale : tensor<5xf32>) outs(%init) epilogue {
  ^bb0(%gate: f32, %up: f32, %s: f32):
    %zero = arith.constant 0.0 : f32
    %relu = arith.maximumf %gate, %zero : f32
    %h = arith.mulf %relu, %up : f32
    %v = arith.mulf %h, %s : f32
    moe.yield %v : f32
  } : tensor<5x3xbf16>, tensor<3x3x4xbf16>, tensor<3xi32> -> tensor<5x2xbf16>
  return %c : tensor<5x2xbf16>
}
// CHECK-LABEL: entry gated_relu_scaled
// CHECK: result0 = [8, 5, 25, 22, 322, 320, -1, -0, 0, 0]

func.func @gated_plus_one_nk() -> tensor<5x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0],
                             [1.0, 0.0, -1.0], [2.0, 2.0, 2.0]]> : tensor<5x3xbf16>
  // b[g, n, :] = column n of [gate | up] (b of gated_relu_scaled, transposed)
  %b = arith.constant dense<[[[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]],
                             [[9.0, 9.0, 9.0], [9.0, 9.0, 9.0], [9.0, 9.0, 9.0], [9.0, 9.0, 9.0]],
                             [[1.0, 2.0, 0.0], [-1.0, 0.0, 3.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]> : tensor<3x4x3xbf16>
  %sizes = arith.constant dense<[2, 0, 2]> : tensor<3xi32>
  %init = tensor.empty() : tensor<5x2xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %one = arith.constant 1.0 : f32
    %h = arith.mulf %gate, %up : f32
    %v = arith.addf %h, %one : f32
    moe.yield %v : f32
  } {weight_layout = #moe<weight_layout nk>} : tensor<5x3xbf16>, tensor<3x4x3xbf16>, tensor<3xi32> -> tensor<5x2xf32>
  return %c : tensor<5x2xf32>
}
// CHECK-LABEL: entry gated_plus_one_nk
// CHECK: result0 = [9, 6, 51, 45, 162, 161, 2, 1, 1, 1]

// constant_epilogue: an epilogue that yields a constant, which
// canonicalization hoists out of the region into the function: every
// element, rows past the groups included, is that constant (found by the
// fuzzer, seed 173: the lowering looked the yielded value up among the
// region's clones only and crashed).
func.func @constant_epilogue() -> tensor<5x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0],
                             [1.0, 0.0, -1.0], [2.0, 2.0, 2.0]]> : tensor<5x3xbf16>
  %b = arith.constant dense<1.0> : tensor<3x4x3xbf16>
  %sizes = arith.constant dense<[2, 0, 2]> : tensor<3xi32>
  %init = tensor.empty() : tensor<5x2xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %seven = arith.constant 7.0 : f32
    moe.yield %seven : f32
  } {weight_layout = #moe<weight_layout nk>} : tensor<5x3xbf16>, tensor<3x4x3xbf16>, tensor<3xi32> -> tensor<5x2xf32>
  return %c : tensor<5x2xf32>
}
// CHECK-LABEL: entry constant_epilogue
// CHECK: result0 = [7, 7, 7, 7, 7, 7, 7, 7, 7, 7]
