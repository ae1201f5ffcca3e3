// moe-fuse quantize-with-transpose: a block_1x128 quantize of x and one of
// linalg.transpose x become one moe.quantize_with_transpose where the
// first one was (the second's destinations made there when they come
// later; on by default). Not fused: the option off, a dimension not a
// multiple of 128, another recipe, the two in different blocks.
// RUN: moe-opt %s -split-input-file --moe-fuse=quantize-with-transpose=true | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-fuse | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-fuse=quantize-with-transpose=false | FileCheck %s --check-prefix=OFF

// The blockwise backward's gradient: rowwise for the dgrad, then the
// columnwise wgrad operand after something else.
// CHECK-LABEL: func.func @gradient_both_ways(
// CHECK-SAME:    %[[DY:[^:]+]]: tensor<256x384xbf16>
// CHECK-DAG:     %[[QT0:.*]] = tensor.empty() : tensor<384x256xf8E5M2>
// CHECK-DAG:     %[[ST0:.*]] = tensor.empty() : tensor<384x2xf32>
// CHECK:         %[[Q:[a-z0-9_]+]], %[[S:[a-z0-9_]+]], %[[QT:[a-z0-9_]+]], %[[ST:[a-z0-9_]+]] = moe.quantize_with_transpose %[[DY]] outs(%{{.*}}, %{{.*}}, %[[QT0]], %[[ST0]]) : tensor<256x384xbf16> -> tensor<256x384xf8E5M2>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>
// CHECK-NEXT:    %[[H:.*]] = arith.addf
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     moe.quantize
// CHECK:         return %[[Q]], %[[S]], %[[H]], %[[QT]], %[[ST]]
// OFF-LABEL: func.func @gradient_both_ways(
// OFF:         moe.quantize block_1x128
// OFF:         linalg.transpose
// OFF:         moe.quantize block_1x128
// OFF-NOT:     moe.quantize_with_transpose
func.func @gradient_both_ways(%dy: tensor<256x384xbf16>, %a: tensor<4xf32>) -> (tensor<256x384xf8E5M2>, tensor<256x3xf32>, tensor<4xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>) {
  %q0 = tensor.empty() : tensor<256x384xf8E5M2>
  %s0 = tensor.empty() : tensor<256x3xf32>
  %q, %s = moe.quantize block_1x128 %dy outs(%q0, %s0) : tensor<256x384xbf16> -> tensor<256x384xf8E5M2>, tensor<256x3xf32>
  %h = arith.addf %a, %a : tensor<4xf32>
  %t0 = tensor.empty() : tensor<384x256xbf16>
  %t = linalg.transpose ins(%dy : tensor<256x384xbf16>) outs(%t0 : tensor<384x256xbf16>) permutation = [1, 0]
  %qt0 = tensor.empty() : tensor<384x256xf8E5M2>
  %st0 = tensor.empty() : tensor<384x2xf32>
  %qt, %st = moe.quantize block_1x128 %t outs(%qt0, %st0) : tensor<384x256xbf16> -> tensor<384x256xf8E5M2>, tensor<384x2xf32>
  return %q, %s, %h, %qt, %st : tensor<256x384xf8E5M2>, tensor<256x3xf32>, tensor<4xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>
}

// -----

// The columnwise one first, other FP8 types each way: fused in its place.
// CHECK-LABEL: func.func @columns_first(
// CHECK:         %[[Q:[a-z0-9_]+]], %[[S:[a-z0-9_]+]], %[[QT:[a-z0-9_]+]], %[[ST:[a-z0-9_]+]] = moe.quantize_with_transpose %{{.*}} : tensor<128x256xf32> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>, tensor<256x128xf8E5M2>, tensor<256x1xf32>
// CHECK-NOT:     moe.quantize
// CHECK:         return %[[QT]], %[[ST]], %[[Q]], %[[S]]
func.func @columns_first(%x: tensor<128x256xf32>) -> (tensor<256x128xf8E5M2>, tensor<256x1xf32>, tensor<128x256xf8E4M3FN>, tensor<128x2xf32>) {
  %t0 = tensor.empty() : tensor<256x128xf32>
  %t = linalg.transpose ins(%x : tensor<128x256xf32>) outs(%t0 : tensor<256x128xf32>) permutation = [1, 0]
  %qt0 = tensor.empty() : tensor<256x128xf8E5M2>
  %st0 = tensor.empty() : tensor<256x1xf32>
  %qt, %st = moe.quantize block_1x128 %t outs(%qt0, %st0) : tensor<256x128xf32> -> tensor<256x128xf8E5M2>, tensor<256x1xf32>
  %q0 = tensor.empty() : tensor<128x256xf8E4M3FN>
  %s0 = tensor.empty() : tensor<128x2xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%q0, %s0) : tensor<128x256xf32> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  return %qt, %st, %q, %s : tensor<256x128xf8E5M2>, tensor<256x1xf32>, tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
}

// -----

// 200 rows: the schedule takes whole 128 x 128 tiles only.
// CHECK-LABEL: func.func @partial_tiles(
// CHECK-NOT:     moe.quantize_with_transpose
// CHECK:         return
func.func @partial_tiles(%x: tensor<200x128xbf16>) -> (tensor<200x128xf8E4M3FN>, tensor<200x1xf32>, tensor<128x200xf8E4M3FN>, tensor<128x2xf32>) {
  %q0 = tensor.empty() : tensor<200x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<200x1xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%q0, %s0) : tensor<200x128xbf16> -> tensor<200x128xf8E4M3FN>, tensor<200x1xf32>
  %t0 = tensor.empty() : tensor<128x200xbf16>
  %t = linalg.transpose ins(%x : tensor<200x128xbf16>) outs(%t0 : tensor<128x200xbf16>) permutation = [1, 0]
  %qt0 = tensor.empty() : tensor<128x200xf8E4M3FN>
  %st0 = tensor.empty() : tensor<128x2xf32>
  %qt, %st = moe.quantize block_1x128 %t outs(%qt0, %st0) : tensor<128x200xbf16> -> tensor<128x200xf8E4M3FN>, tensor<128x2xf32>
  return %q, %s, %qt, %st : tensor<200x128xf8E4M3FN>, tensor<200x1xf32>, tensor<128x200xf8E4M3FN>, tensor<128x2xf32>
}

// -----

// Tensor-wise scaling transposes the FP8 data instead: nothing to fuse.
// CHECK-LABEL: func.func @tensorwise(
// CHECK-NOT:     moe.quantize_with_transpose
// CHECK:         return
func.func @tensorwise(%x: tensor<128x128xbf16>) -> (tensor<128x128xf8E4M3FN>, tensor<f32>, tensor<128x128xf8E4M3FN>, tensor<f32>) {
  %q0 = tensor.empty() : tensor<128x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%q0, %s0) : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<f32>
  %t0 = tensor.empty() : tensor<128x128xbf16>
  %t = linalg.transpose ins(%x : tensor<128x128xbf16>) outs(%t0 : tensor<128x128xbf16>) permutation = [1, 0]
  %qt0 = tensor.empty() : tensor<128x128xf8E4M3FN>
  %st0 = tensor.empty() : tensor<f32>
  %qt, %st = moe.quantize tensorwise %t outs(%qt0, %st0) : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<f32>
  return %q, %s, %qt, %st : tensor<128x128xf8E4M3FN>, tensor<f32>, tensor<128x128xf8E4M3FN>, tensor<f32>
}

// -----

// The columnwise quantize inside an scf.if: not in the rowwise one's block.
// CHECK-LABEL: func.func @other_block(
// CHECK-NOT:     moe.quantize_with_transpose
// CHECK:         return
func.func @other_block(%x: tensor<128x128xbf16>, %c: i1) -> (tensor<128x128xf8E4M3FN>, tensor<128x1xf32>, tensor<128x128xf8E4M3FN>) {
  %q0 = tensor.empty() : tensor<128x128xf8E4M3FN>
  %s0 = tensor.empty() : tensor<128x1xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%q0, %s0) : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  %r = scf.if %c -> tensor<128x128xf8E4M3FN> {
    %t0 = tensor.empty() : tensor<128x128xbf16>
    %t = linalg.transpose ins(%x : tensor<128x128xbf16>) outs(%t0 : tensor<128x128xbf16>) permutation = [1, 0]
    %qt0 = tensor.empty() : tensor<128x128xf8E4M3FN>
    %st0 = tensor.empty() : tensor<128x1xf32>
    %qt, %st = moe.quantize block_1x128 %t outs(%qt0, %st0) : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
    scf.yield %qt : tensor<128x128xf8E4M3FN>
  } else {
    scf.yield %q : tensor<128x128xf8E4M3FN>
  }
  return %q, %s, %r : tensor<128x128xf8E4M3FN>, tensor<128x1xf32>, tensor<128x128xf8E4M3FN>
}
