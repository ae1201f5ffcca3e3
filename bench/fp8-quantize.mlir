// FP8 quantization bandwidth (scripts/gpu-fp8-quantize.sh with BENCH=1;
// bench/fp8-quantize-bandwidth.py turns moe-runner's median times into
// GB/s). DeepSeek-V3-like sizes: activations x [16384, 7168] bf16 (224 MiB),
// expert weights w [16, 7168, 2048] bf16 (448 MiB), random inputs.

func.func @tensorwise(%x: tensor<16384x7168xbf16> {moe.name = "x"})
    -> (tensor<16384x7168xf8E4M3FN> {moe.name = "q"}, tensor<f32> {moe.name = "scale"}) {
  %q0 = tensor.empty() : tensor<16384x7168xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%q0, %s0) : tensor<16384x7168xbf16> -> tensor<16384x7168xf8E4M3FN>, tensor<f32>
  return %q, %s : tensor<16384x7168xf8E4M3FN>, tensor<f32>
}

func.func @block_1x128(%x: tensor<16384x7168xbf16> {moe.name = "x"})
    -> (tensor<16384x7168xf8E4M3FN> {moe.name = "q"}, tensor<16384x56xf32> {moe.name = "scale"}) {
  %q0 = tensor.empty() : tensor<16384x7168xf8E4M3FN>
  %s0 = tensor.empty() : tensor<16384x56xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%q0, %s0) : tensor<16384x7168xbf16> -> tensor<16384x7168xf8E4M3FN>, tensor<16384x56xf32>
  return %q, %s : tensor<16384x7168xf8E4M3FN>, tensor<16384x56xf32>
}

func.func @block_128x128(%w: tensor<16x7168x2048xbf16> {moe.name = "w"})
    -> (tensor<16x7168x2048xf8E4M3FN> {moe.name = "q"}, tensor<16x56x16xf32> {moe.name = "scale"}) {
  %q0 = tensor.empty() : tensor<16x7168x2048xf8E4M3FN>
  %s0 = tensor.empty() : tensor<16x56x16xf32>
  %q, %s = moe.quantize block_128x128 %w outs(%q0, %s0) : tensor<16x7168x2048xbf16> -> tensor<16x7168x2048xf8E4M3FN>, tensor<16x56x16xf32>
  return %q, %s : tensor<16x7168x2048xf8E4M3FN>, tensor<16x56x16xf32>
}

func.func @dequantize_1x128(%q: tensor<16384x7168xf8E4M3FN> {moe.name = "q"},
                            %s: tensor<16384x56xf32> {moe.name = "scale"})
    -> (tensor<16384x7168xbf16> {moe.name = "y"}) {
  %y0 = tensor.empty() : tensor<16384x7168xbf16>
  %y = moe.dequantize block_1x128 %q, %s outs(%y0) : tensor<16384x7168xf8E4M3FN>, tensor<16384x56xf32> -> tensor<16384x7168xbf16>
  return %y : tensor<16384x7168xbf16>
}

// Columnwise 1x128 (blocks along the rows, as the blockwise wgrad's
// operands): the transposed quantize reads x through the transpose.
// x [32768, 7168] bf16 (448 MiB) → q [7168, 32768].
func.func @transposed_1x128(%x: tensor<32768x7168xbf16> {moe.name = "x"})
    -> (tensor<7168x32768xf8E4M3FN> {moe.name = "q"}, tensor<7168x256xf32> {moe.name = "scale"}) {
  %t0 = tensor.empty() : tensor<7168x32768xbf16>
  %t = linalg.transpose ins(%x : tensor<32768x7168xbf16>) outs(%t0 : tensor<7168x32768xbf16>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<7168x32768xf8E4M3FN>
  %s0 = tensor.empty() : tensor<7168x256xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<7168x32768xbf16> -> tensor<7168x32768xf8E4M3FN>, tensor<7168x256xf32>
  return %q, %s : tensor<7168x32768xf8E4M3FN>, tensor<7168x256xf32>
}

// Rowwise and columnwise 1x128 at once (moe.quantize_with_transpose, what
// the blockwise backward makes of each gradient): qwen3-30b-a3b's dy
// [131072, 2048] bf16 (512 MiB), read once → q [131072, 2048] and
// qt [2048, 131072], e5m2.
func.func @with_transpose_1x128(%x: tensor<131072x2048xbf16> {moe.name = "x"})
    -> (tensor<131072x2048xf8E5M2> {moe.name = "q"}, tensor<131072x16xf32> {moe.name = "scale"},
        tensor<2048x131072xf8E5M2> {moe.name = "qt"}, tensor<2048x1024xf32> {moe.name = "scale_t"}) {
  %q0 = tensor.empty() : tensor<131072x2048xf8E5M2>
  %s0 = tensor.empty() : tensor<131072x16xf32>
  %qt0 = tensor.empty() : tensor<2048x131072xf8E5M2>
  %st0 = tensor.empty() : tensor<2048x1024xf32>
  %q, %s, %qt, %st = moe.quantize_with_transpose %x outs(%q0, %s0, %qt0, %st0) : tensor<131072x2048xbf16> -> tensor<131072x2048xf8E5M2>, tensor<131072x16xf32>, tensor<2048x131072xf8E5M2>, tensor<2048x1024xf32>
  return %q, %s, %qt, %st : tensor<131072x2048xf8E5M2>, tensor<131072x16xf32>, tensor<2048x131072xf8E5M2>, tensor<2048x1024xf32>
}

// The columnwise wgrad operand from an FP8 residual (the blockwise
// backward's dispatched tokens): 1x128 FP8 rows and their scales,
// dequantized, transposed and quantized in 128x1 blocks. The GPU schedule
// reads the FP8 rows directly (one kernel). qwen3-30b-a3b's xs [131072,
// 2048] e4m3 (256 MiB) → qt [2048, 131072].
func.func @dequantized_transposed_1x128(%r: tensor<131072x2048xf8E4M3FN> {moe.name = "r"},
                                         %rs: tensor<131072x16xf32> {moe.name = "r_scale"})
    -> (tensor<2048x131072xf8E4M3FN> {moe.name = "qt"}, tensor<2048x1024xf32> {moe.name = "scale_t"}) {
  %d0 = tensor.empty() : tensor<131072x2048xbf16>
  %d = moe.dequantize block_1x128 %r, %rs outs(%d0) : tensor<131072x2048xf8E4M3FN>, tensor<131072x16xf32> -> tensor<131072x2048xbf16>
  %t0 = tensor.empty() : tensor<2048x131072xbf16>
  %t = linalg.transpose ins(%d : tensor<131072x2048xbf16>) outs(%t0 : tensor<2048x131072xbf16>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<2048x131072xf8E4M3FN>
  %s0 = tensor.empty() : tensor<2048x1024xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<2048x131072xbf16> -> tensor<2048x131072xf8E4M3FN>, tensor<2048x1024xf32>
  return %q, %s : tensor<2048x131072xf8E4M3FN>, tensor<2048x1024xf32>
}

// The same chain with the dequantized copy also returned: not fused (the
// copy is an entry result, a buffer from outside), so the dequantize kernel
// writes it and the transposed quantize reads it, as before the fusion: the
// two kernels to compare @dequantized_transposed_1x128 with in the same
// call. (Before the fix of the fusion's rule, this entry was fused too and
// its d left unwritten: bench/results/2026-11-30-h200-fp8-dsv3-table run3.)
func.func @dequantized_transposed_1x128_apart(%r: tensor<131072x2048xf8E4M3FN> {moe.name = "r"},
                                               %rs: tensor<131072x16xf32> {moe.name = "r_scale"})
    -> (tensor<131072x2048xbf16> {moe.name = "d"}, tensor<2048x131072xf8E4M3FN> {moe.name = "qt"},
        tensor<2048x1024xf32> {moe.name = "scale_t"}) {
  %d0 = tensor.empty() : tensor<131072x2048xbf16>
  %d = moe.dequantize block_1x128 %r, %rs outs(%d0) : tensor<131072x2048xf8E4M3FN>, tensor<131072x16xf32> -> tensor<131072x2048xbf16>
  %t0 = tensor.empty() : tensor<2048x131072xbf16>
  %t = linalg.transpose ins(%d : tensor<131072x2048xbf16>) outs(%t0 : tensor<2048x131072xbf16>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<2048x131072xf8E4M3FN>
  %s0 = tensor.empty() : tensor<2048x1024xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<2048x131072xbf16> -> tensor<2048x131072xf8E4M3FN>, tensor<2048x1024xf32>
  return %d, %q, %s : tensor<131072x2048xbf16>, tensor<2048x131072xf8E4M3FN>, tensor<2048x1024xf32>
}
