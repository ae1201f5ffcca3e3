// A matrix quantized in 1x128 blocks of its rows and of its columns by two
// moe.quantize (the second on a linalg.transpose), as moe-fp8-placement's
// blockwise backward quantizes each gradient: quantize-with-transpose.test
// fuses it into one moe.quantize_with_transpose and compares both. The
// input xw (Inputs/write-quantize-inputs.py) has NaN, infinite, zero,
// subnormal-only, saturating and huge-value blocks both ways.
func.func @both_ways(%x: tensor<1024x384xbf16> {moe.name = "xw"})
    -> (tensor<1024x384xf8E4M3FN> {moe.name = "q"}, tensor<1024x3xf32> {moe.name = "scale"},
        tensor<384x1024xf8E5M2> {moe.name = "qt"}, tensor<384x8xf32> {moe.name = "scale_t"}) {
  %q0 = tensor.empty() : tensor<1024x384xf8E4M3FN>
  %s0 = tensor.empty() : tensor<1024x3xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%q0, %s0) : tensor<1024x384xbf16> -> tensor<1024x384xf8E4M3FN>, tensor<1024x3xf32>
  %t0 = tensor.empty() : tensor<384x1024xbf16>
  %t = linalg.transpose ins(%x : tensor<1024x384xbf16>) outs(%t0 : tensor<384x1024xbf16>) permutation = [1, 0]
  %qt0 = tensor.empty() : tensor<384x1024xf8E5M2>
  %st0 = tensor.empty() : tensor<384x8xf32>
  %qt, %st = moe.quantize block_1x128 %t outs(%qt0, %st0) : tensor<384x1024xbf16> -> tensor<384x1024xf8E5M2>, tensor<384x8xf32>
  return %q, %s, %qt, %st : tensor<1024x384xf8E4M3FN>, tensor<1024x3xf32>, tensor<384x1024xf8E5M2>, tensor<384x8xf32>
}
