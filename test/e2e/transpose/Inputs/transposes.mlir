// Transposes for test/e2e/transpose/gpu-schedules.test and
// test/gpu/transpose.test (scripts/gpu-transpose.sh): swaps of the last two
// dimensions, which convert-linalg-transpose-to-tiles tiles (a T x T tile per
// block, T = 128 bytes / element), of every element width (FP8 e4m3/e5m2,
// bf16/f16, f32/i32), 2-D and batched 3-D, shapes that are multiples of the
// tile and shapes that are not (partial tiles on either edge, rows whose
// length takes accesses of 1, 2 or 8 elements instead of 16 bytes: 7, 65,
// 33 ...), tiny ones (3 x 5, 1 x 1), and two other permutations, which keep
// the generic one-thread-per-element path. i32_33x70's input comes from
// write-transpose-inputs.py (moe-runner makes no random integers).

func.func @bf16_300x200(%x: tensor<300x200xbf16> {moe.name = "x"}) -> (tensor<200x300xbf16> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<200x300xbf16>
  %1 = linalg.transpose ins(%x : tensor<300x200xbf16>) outs(%0 : tensor<200x300xbf16>) permutation = [1, 0]
  return %1 : tensor<200x300xbf16>
}

func.func @bf16_128x192(%x: tensor<128x192xbf16> {moe.name = "x"}) -> (tensor<192x128xbf16> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<192x128xbf16>
  %1 = linalg.transpose ins(%x : tensor<128x192xbf16>) outs(%0 : tensor<192x128xbf16>) permutation = [1, 0]
  return %1 : tensor<192x128xbf16>
}

func.func @bf16_3x5(%x: tensor<3x5xbf16> {moe.name = "x"}) -> (tensor<5x3xbf16> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<5x3xbf16>
  %1 = linalg.transpose ins(%x : tensor<3x5xbf16>) outs(%0 : tensor<5x3xbf16>) permutation = [1, 0]
  return %1 : tensor<5x3xbf16>
}

func.func @f16_130x7(%x: tensor<130x7xf16> {moe.name = "x"}) -> (tensor<7x130xf16> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<7x130xf16>
  %1 = linalg.transpose ins(%x : tensor<130x7xf16>) outs(%0 : tensor<7x130xf16>) permutation = [1, 0]
  return %1 : tensor<7x130xf16>
}

func.func @f32_64x96(%x: tensor<64x96xf32> {moe.name = "x"}) -> (tensor<96x64xf32> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<96x64xf32>
  %1 = linalg.transpose ins(%x : tensor<64x96xf32>) outs(%0 : tensor<96x64xf32>) permutation = [1, 0]
  return %1 : tensor<96x64xf32>
}

func.func @f32_2x33x65(%x: tensor<2x33x65xf32> {moe.name = "x"}) -> (tensor<2x65x33xf32> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<2x65x33xf32>
  %1 = linalg.transpose ins(%x : tensor<2x33x65xf32>) outs(%0 : tensor<2x65x33xf32>) permutation = [0, 2, 1]
  return %1 : tensor<2x65x33xf32>
}

func.func @i32_33x70(%x: tensor<33x70xi32> {moe.name = "x"}) -> (tensor<70x33xi32> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<70x33xi32>
  %1 = linalg.transpose ins(%x : tensor<33x70xi32>) outs(%0 : tensor<70x33xi32>) permutation = [1, 0]
  return %1 : tensor<70x33xi32>
}

func.func @e4m3_3x200x136(%x: tensor<3x200x136xf8E4M3FN> {moe.name = "x"}) -> (tensor<3x136x200xf8E4M3FN> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<3x136x200xf8E4M3FN>
  %1 = linalg.transpose ins(%x : tensor<3x200x136xf8E4M3FN>) outs(%0 : tensor<3x136x200xf8E4M3FN>) permutation = [0, 2, 1]
  return %1 : tensor<3x136x200xf8E4M3FN>
}

func.func @e4m3_256x384(%x: tensor<256x384xf8E4M3FN> {moe.name = "x"}) -> (tensor<384x256xf8E4M3FN> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<384x256xf8E4M3FN>
  %1 = linalg.transpose ins(%x : tensor<256x384xf8E4M3FN>) outs(%0 : tensor<384x256xf8E4M3FN>) permutation = [1, 0]
  return %1 : tensor<384x256xf8E4M3FN>
}

func.func @e5m2_5x3(%x: tensor<5x3xf8E5M2> {moe.name = "x"}) -> (tensor<3x5xf8E5M2> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<3x5xf8E5M2>
  %1 = linalg.transpose ins(%x : tensor<5x3xf8E5M2>) outs(%0 : tensor<3x5xf8E5M2>) permutation = [1, 0]
  return %1 : tensor<3x5xf8E5M2>
}

func.func @e5m2_2x130x258(%x: tensor<2x130x258xf8E5M2> {moe.name = "x"}) -> (tensor<2x258x130xf8E5M2> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<2x258x130xf8E5M2>
  %1 = linalg.transpose ins(%x : tensor<2x130x258xf8E5M2>) outs(%0 : tensor<2x258x130xf8E5M2>) permutation = [0, 2, 1]
  return %1 : tensor<2x258x130xf8E5M2>
}

func.func @bf16_1x1(%x: tensor<1x1xbf16> {moe.name = "x"}) -> (tensor<1x1xbf16> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<1x1xbf16>
  %1 = linalg.transpose ins(%x : tensor<1x1xbf16>) outs(%0 : tensor<1x1xbf16>) permutation = [1, 0]
  return %1 : tensor<1x1xbf16>
}

func.func @bf16_4x6x10_perm102(%x: tensor<4x6x10xbf16> {moe.name = "x"}) -> (tensor<6x4x10xbf16> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<6x4x10xbf16>
  %1 = linalg.transpose ins(%x : tensor<4x6x10xbf16>) outs(%0 : tensor<6x4x10xbf16>) permutation = [1, 0, 2]
  return %1 : tensor<6x4x10xbf16>
}

func.func @f32_3x4x5_perm210(%x: tensor<3x4x5xf32> {moe.name = "x"}) -> (tensor<5x4x3xf32> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<5x4x3xf32>
  %1 = linalg.transpose ins(%x : tensor<3x4x5xf32>) outs(%0 : tensor<5x4x3xf32>) permutation = [2, 1, 0]
  return %1 : tensor<5x4x3xf32>
}
