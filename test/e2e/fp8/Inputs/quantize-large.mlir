// moe.quantize / moe.dequantize at sizes where the GPU schedules
// (lib/Conversion/MoeToParallelLoops/QuantSchedules.h) use many blocks,
// every recipe but mx_1x32, on the inputs that Inputs/write-quantize-inputs.py
// writes (NaN, ±inf, huge, subnormal, zero and all-NaN blocks). Shapes
// exercise full and partial 128-column blocks (N = 2048, 200, 100: 16-byte,
// 16-byte and 8-byte vectors), partial 128-row blocks (M = 200) and
// batched weights. Each function returns the FP8 tensor, its scales and the
// dequantized tensor, which must be the CPU reference's bit for bit
// (test/gpu/fp8-quantize.test, test/e2e/fp8/gpu-schedules.test).

// Tensor-wise scaling on activations without infinities (an inf makes the
// scale inf and every finite value 0).
func.func @tensorwise_e4m3(%x: tensor<1000x2048xbf16> {moe.name = "x"})
    -> (tensor<1000x2048xf8E4M3FN> {moe.name = "q"}, tensor<f32> {moe.name = "scale"},
        tensor<1000x2048xbf16> {moe.name = "y"}) {
  %q0 = tensor.empty() : tensor<1000x2048xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%q0, %s0) : tensor<1000x2048xbf16> -> tensor<1000x2048xf8E4M3FN>, tensor<f32>
  %y0 = tensor.empty() : tensor<1000x2048xbf16>
  %y = moe.dequantize tensorwise %q, %s outs(%y0) : tensor<1000x2048xf8E4M3FN>, tensor<f32> -> tensor<1000x2048xbf16>
  return %q, %s, %y : tensor<1000x2048xf8E4M3FN>, tensor<f32>, tensor<1000x2048xbf16>
}

func.func @tensorwise_e5m2_rank3(%x: tensor<4x100x72xf32> {moe.name = "x3"})
    -> (tensor<4x100x72xf8E5M2> {moe.name = "q"}, tensor<f32> {moe.name = "scale"},
        tensor<4x100x72xf32> {moe.name = "y"}) {
  %q0 = tensor.empty() : tensor<4x100x72xf8E5M2>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%q0, %s0) : tensor<4x100x72xf32> -> tensor<4x100x72xf8E5M2>, tensor<f32>
  %y0 = tensor.empty() : tensor<4x100x72xf32>
  %y = moe.dequantize tensorwise %q, %s outs(%y0) : tensor<4x100x72xf8E5M2>, tensor<f32> -> tensor<4x100x72xf32>
  return %q, %s, %y : tensor<4x100x72xf8E5M2>, tensor<f32>, tensor<4x100x72xf32>
}

// Delayed scaling: the scale from the history, the history rolled with the
// current amax in slot 0.
func.func @delayed_e4m3(%x: tensor<1000x2048xbf16> {moe.name = "x"},
                        %h: tensor<16xf32> {moe.name = "history"})
    -> (tensor<1000x2048xf8E4M3FN> {moe.name = "q"}, tensor<f32> {moe.name = "scale"},
        tensor<16xf32> {moe.name = "new_history"}, tensor<1000x2048xbf16> {moe.name = "y"}) {
  %q0 = tensor.empty() : tensor<1000x2048xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s, %nh = moe.quantize delayed %x outs(%q0, %s0, %h) : tensor<1000x2048xbf16> -> tensor<1000x2048xf8E4M3FN>, tensor<f32>, tensor<16xf32>
  %y0 = tensor.empty() : tensor<1000x2048xbf16>
  %y = moe.dequantize delayed %q, %s outs(%y0) : tensor<1000x2048xf8E4M3FN>, tensor<f32> -> tensor<1000x2048xbf16>
  return %q, %s, %nh, %y : tensor<1000x2048xf8E4M3FN>, tensor<f32>, tensor<16xf32>, tensor<1000x2048xbf16>
}

// Block recipes see the specials: a block holding an inf gets scale inf.
func.func @block_1x128_e4m3(%x: tensor<1000x2048xbf16> {moe.name = "xs"})
    -> (tensor<1000x2048xf8E4M3FN> {moe.name = "q"}, tensor<1000x16xf32> {moe.name = "scale"},
        tensor<1000x2048xbf16> {moe.name = "y"}) {
  %q0 = tensor.empty() : tensor<1000x2048xf8E4M3FN>
  %s0 = tensor.empty() : tensor<1000x16xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%q0, %s0) : tensor<1000x2048xbf16> -> tensor<1000x2048xf8E4M3FN>, tensor<1000x16xf32>
  %y0 = tensor.empty() : tensor<1000x2048xbf16>
  %y = moe.dequantize block_1x128 %q, %s outs(%y0) : tensor<1000x2048xf8E4M3FN>, tensor<1000x16xf32> -> tensor<1000x2048xbf16>
  return %q, %s, %y : tensor<1000x2048xf8E4M3FN>, tensor<1000x16xf32>, tensor<1000x2048xbf16>
}

// N = 200: a partial last block of 72 columns.
func.func @block_1x128_e5m2_partial(%x: tensor<300x200xbf16> {moe.name = "xp"})
    -> (tensor<300x200xf8E5M2> {moe.name = "q"}, tensor<300x2xf32> {moe.name = "scale"},
        tensor<300x200xf32> {moe.name = "y"}) {
  %q0 = tensor.empty() : tensor<300x200xf8E5M2>
  %s0 = tensor.empty() : tensor<300x2xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%q0, %s0) : tensor<300x200xbf16> -> tensor<300x200xf8E5M2>, tensor<300x2xf32>
  %y0 = tensor.empty() : tensor<300x200xf32>
  %y = moe.dequantize block_1x128 %q, %s outs(%y0) : tensor<300x200xf8E5M2>, tensor<300x2xf32> -> tensor<300x200xf32>
  return %q, %s, %y : tensor<300x200xf8E5M2>, tensor<300x2xf32>, tensor<300x200xf32>
}

// N = 100 (not a multiple of 8): 4-element vectors, one partial block.
func.func @block_1x128_e4m3_narrow(%x: tensor<130x100xf32> {moe.name = "xn"})
    -> (tensor<130x100xf8E4M3FN> {moe.name = "q"}, tensor<130x1xf32> {moe.name = "scale"},
        tensor<130x100xbf16> {moe.name = "y"}) {
  %q0 = tensor.empty() : tensor<130x100xf8E4M3FN>
  %s0 = tensor.empty() : tensor<130x1xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%q0, %s0) : tensor<130x100xf32> -> tensor<130x100xf8E4M3FN>, tensor<130x1xf32>
  %y0 = tensor.empty() : tensor<130x100xbf16>
  %y = moe.dequantize block_1x128 %q, %s outs(%y0) : tensor<130x100xf8E4M3FN>, tensor<130x1xf32> -> tensor<130x100xbf16>
  return %q, %s, %y : tensor<130x100xf8E4M3FN>, tensor<130x1xf32>, tensor<130x100xbf16>
}

// Batched weights [G, M, N].
func.func @block_128x128_e4m3(%w: tensor<4x256x384xbf16> {moe.name = "w"})
    -> (tensor<4x256x384xf8E4M3FN> {moe.name = "q"}, tensor<4x2x3xf32> {moe.name = "scale"},
        tensor<4x256x384xbf16> {moe.name = "y"}) {
  %q0 = tensor.empty() : tensor<4x256x384xf8E4M3FN>
  %s0 = tensor.empty() : tensor<4x2x3xf32>
  %q, %s = moe.quantize block_128x128 %w outs(%q0, %s0) : tensor<4x256x384xbf16> -> tensor<4x256x384xf8E4M3FN>, tensor<4x2x3xf32>
  %y0 = tensor.empty() : tensor<4x256x384xbf16>
  %y = moe.dequantize block_128x128 %q, %s outs(%y0) : tensor<4x256x384xf8E4M3FN>, tensor<4x2x3xf32> -> tensor<4x256x384xbf16>
  return %q, %s, %y : tensor<4x256x384xf8E4M3FN>, tensor<4x2x3xf32>, tensor<4x256x384xbf16>
}

// M = 200, N = 136: partial row blocks (72 rows) and column blocks (8).
func.func @block_128x128_e5m2_partial(%w: tensor<3x200x136xbf16> {moe.name = "wp"})
    -> (tensor<3x200x136xf8E5M2> {moe.name = "q"}, tensor<3x2x2xf32> {moe.name = "scale"},
        tensor<3x200x136xf32> {moe.name = "y"}) {
  %q0 = tensor.empty() : tensor<3x200x136xf8E5M2>
  %s0 = tensor.empty() : tensor<3x2x2xf32>
  %q, %s = moe.quantize block_128x128 %w outs(%q0, %s0) : tensor<3x200x136xbf16> -> tensor<3x200x136xf8E5M2>, tensor<3x2x2xf32>
  %y0 = tensor.empty() : tensor<3x200x136xf32>
  %y = moe.dequantize block_128x128 %q, %s outs(%y0) : tensor<3x200x136xf8E5M2>, tensor<3x2x2xf32> -> tensor<3x200x136xf32>
  return %q, %s, %y : tensor<3x200x136xf8E5M2>, tensor<3x2x2xf32>, tensor<3x200x136xf32>
}

// block_1x128 of a transpose (moe-fp8-placement's columnwise wgrad
// operands): the GPU schedule reads the untransposed x through the
// transpose (the transposed copy is gone) where only the quantize reads
// it; both must equal the reference's transpose, then quantize.
func.func @transposed_1x128_e4m3(%x: tensor<1024x288xbf16> {moe.name = "xt"})
    -> (tensor<288x1024xf8E4M3FN> {moe.name = "q"}, tensor<288x8xf32> {moe.name = "scale"}) {
  %t0 = tensor.empty() : tensor<288x1024xbf16>
  %t = linalg.transpose ins(%x : tensor<1024x288xbf16>) outs(%t0 : tensor<288x1024xbf16>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<288x1024xf8E4M3FN>
  %s0 = tensor.empty() : tensor<288x8xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<288x1024xbf16> -> tensor<288x1024xf8E4M3FN>, tensor<288x8xf32>
  return %q, %s : tensor<288x1024xf8E4M3FN>, tensor<288x8xf32>
}

// f32 source (one column a lane), e5m2.
func.func @transposed_1x128_e5m2_f32(%x: tensor<256x48xf32> {moe.name = "xtf"})
    -> (tensor<48x256xf8E5M2> {moe.name = "q"}, tensor<48x2xf32> {moe.name = "scale"}) {
  %t0 = tensor.empty() : tensor<48x256xf32>
  %t = linalg.transpose ins(%x : tensor<256x48xf32>) outs(%t0 : tensor<48x256xf32>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<48x256xf8E5M2>
  %s0 = tensor.empty() : tensor<48x2xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<48x256xf32> -> tensor<48x256xf8E5M2>, tensor<48x2xf32>
  return %q, %s : tensor<48x256xf8E5M2>, tensor<48x2xf32>
}

// 16-bit rows of whole 128 x 128 tiles (xw: 1024 x 384, special blocks
// both ways): the staged schedule, a block per tile through shared memory.
func.func @transposed_1x128_staged(%x: tensor<1024x384xbf16> {moe.name = "xw"})
    -> (tensor<384x1024xf8E4M3FN> {moe.name = "q"}, tensor<384x8xf32> {moe.name = "scale"}) {
  %t0 = tensor.empty() : tensor<384x1024xbf16>
  %t = linalg.transpose ins(%x : tensor<1024x384xbf16>) outs(%t0 : tensor<384x1024xbf16>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<384x1024xf8E4M3FN>
  %s0 = tensor.empty() : tensor<384x8xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<384x1024xbf16> -> tensor<384x1024xf8E4M3FN>, tensor<384x8xf32>
  return %q, %s : tensor<384x1024xf8E4M3FN>, tensor<384x8xf32>
}

// The columnwise wgrad operand from an FP8 residual (moe-fp8-placement's
// blockwise backward): 1×128 rows dequantized, transposed and quantized in
// 128×1 blocks; the GPU schedule (one kernel: the transposed quantize
// reading the FP8 rows and their scales, dequantizing as it loads) must
// equal the reference's three steps bit for bit, NaN and infinities of xt
// included. 288 columns: the rows' last
// block is partial.
func.func @dequantized_transposed_1x128(%x: tensor<1024x288xbf16> {moe.name = "xt"})
    -> (tensor<288x1024xf8E5M2> {moe.name = "q"}, tensor<288x8xf32> {moe.name = "scale"}) {
  %r0 = tensor.empty() : tensor<1024x288xf8E4M3FN>
  %rs0 = tensor.empty() : tensor<1024x3xf32>
  %r, %rs = moe.quantize block_1x128 %x outs(%r0, %rs0) : tensor<1024x288xbf16> -> tensor<1024x288xf8E4M3FN>, tensor<1024x3xf32>
  %d0 = tensor.empty() : tensor<1024x288xbf16>
  %d = moe.dequantize block_1x128 %r, %rs outs(%d0) : tensor<1024x288xf8E4M3FN>, tensor<1024x3xf32> -> tensor<1024x288xbf16>
  %t0 = tensor.empty() : tensor<288x1024xbf16>
  %t = linalg.transpose ins(%d : tensor<1024x288xbf16>) outs(%t0 : tensor<288x1024xbf16>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<288x1024xf8E5M2>
  %s0 = tensor.empty() : tensor<288x8xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<288x1024xbf16> -> tensor<288x1024xf8E5M2>, tensor<288x8xf32>
  return %q, %s : tensor<288x1024xf8E5M2>, tensor<288x8xf32>
}

// The same chain on whole tiles, e5m2 rows dequantized to f16 (the staged
// schedule's tile holds the f16 copy's bits), into e4m3 columns.
func.func @dequantized_transposed_1x128_staged(%x: tensor<1024x384xbf16> {moe.name = "xw"})
    -> (tensor<384x1024xf8E4M3FN> {moe.name = "q"}, tensor<384x8xf32> {moe.name = "scale"}) {
  %r0 = tensor.empty() : tensor<1024x384xf8E5M2>
  %rs0 = tensor.empty() : tensor<1024x3xf32>
  %r, %rs = moe.quantize block_1x128 %x outs(%r0, %rs0) : tensor<1024x384xbf16> -> tensor<1024x384xf8E5M2>, tensor<1024x3xf32>
  %d0 = tensor.empty() : tensor<1024x384xf16>
  %d = moe.dequantize block_1x128 %r, %rs outs(%d0) : tensor<1024x384xf8E5M2>, tensor<1024x3xf32> -> tensor<1024x384xf16>
  %t0 = tensor.empty() : tensor<384x1024xf16>
  %t = linalg.transpose ins(%d : tensor<1024x384xf16>) outs(%t0 : tensor<384x1024xf16>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<384x1024xf8E4M3FN>
  %s0 = tensor.empty() : tensor<384x8xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<384x1024xf16> -> tensor<384x1024xf8E4M3FN>, tensor<384x8xf32>
  return %q, %s : tensor<384x1024xf8E4M3FN>, tensor<384x8xf32>
}

// The same chain from e5m2 rows dequantized to f32 (the fused schedule's
// lanes then hold 4 columns, 16 bytes of the f32 copy, and the copy's
// rounding is none) into e4m3 columns.
func.func @dequantized_transposed_1x128_f32(%x: tensor<512x256xf32> {moe.name = "xdf"})
    -> (tensor<256x512xf8E4M3FN> {moe.name = "q"}, tensor<256x4xf32> {moe.name = "scale"}) {
  %r0 = tensor.empty() : tensor<512x256xf8E5M2>
  %rs0 = tensor.empty() : tensor<512x2xf32>
  %r, %rs = moe.quantize block_1x128 %x outs(%r0, %rs0) : tensor<512x256xf32> -> tensor<512x256xf8E5M2>, tensor<512x2xf32>
  %d0 = tensor.empty() : tensor<512x256xf32>
  %d = moe.dequantize block_1x128 %r, %rs outs(%d0) : tensor<512x256xf8E5M2>, tensor<512x2xf32> -> tensor<512x256xf32>
  %t0 = tensor.empty() : tensor<256x512xf32>
  %t = linalg.transpose ins(%d : tensor<512x256xf32>) outs(%t0 : tensor<256x512xf32>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<256x512xf8E4M3FN>
  %s0 = tensor.empty() : tensor<256x4xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<256x512xf32> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  return %q, %s : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
}

// The dequantized copy is also returned (an entry result: with out-params a
// buffer from outside): the dequantize writes it, and the chain is not
// fused; the three outputs equal the reference's.
func.func @dequantized_transposed_1x128_copy_returned(%x: tensor<1024x288xbf16> {moe.name = "xt"})
    -> (tensor<1024x288xbf16> {moe.name = "d"}, tensor<288x1024xf8E5M2> {moe.name = "q"}, tensor<288x8xf32> {moe.name = "scale"}) {
  %r0 = tensor.empty() : tensor<1024x288xf8E4M3FN>
  %rs0 = tensor.empty() : tensor<1024x3xf32>
  %r, %rs = moe.quantize block_1x128 %x outs(%r0, %rs0) : tensor<1024x288xbf16> -> tensor<1024x288xf8E4M3FN>, tensor<1024x3xf32>
  %d0 = tensor.empty() : tensor<1024x288xbf16>
  %d = moe.dequantize block_1x128 %r, %rs outs(%d0) : tensor<1024x288xf8E4M3FN>, tensor<1024x3xf32> -> tensor<1024x288xbf16>
  %t0 = tensor.empty() : tensor<288x1024xbf16>
  %t = linalg.transpose ins(%d : tensor<1024x288xbf16>) outs(%t0 : tensor<288x1024xbf16>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<288x1024xf8E5M2>
  %s0 = tensor.empty() : tensor<288x8xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<288x1024xbf16> -> tensor<288x1024xf8E5M2>, tensor<288x8xf32>
  return %d, %q, %s : tensor<1024x288xbf16>, tensor<288x1024xf8E5M2>, tensor<288x8xf32>
}

// The transposed copy is also returned: it stays, and the quantize reads it.
func.func @transposed_1x128_copy_kept(%x: tensor<1024x288xbf16> {moe.name = "xt"})
    -> (tensor<288x1024xbf16> {moe.name = "t"}, tensor<288x1024xf8E4M3FN> {moe.name = "q"}, tensor<288x8xf32> {moe.name = "scale"}) {
  %t0 = tensor.empty() : tensor<288x1024xbf16>
  %t = linalg.transpose ins(%x : tensor<1024x288xbf16>) outs(%t0 : tensor<288x1024xbf16>) permutation = [1, 0]
  %q0 = tensor.empty() : tensor<288x1024xf8E4M3FN>
  %s0 = tensor.empty() : tensor<288x8xf32>
  %q, %s = moe.quantize block_1x128 %t outs(%q0, %s0) : tensor<288x1024xbf16> -> tensor<288x1024xf8E4M3FN>, tensor<288x8xf32>
  return %t, %q, %s : tensor<288x1024xbf16>, tensor<288x1024xf8E4M3FN>, tensor<288x8xf32>
}

// moe.quantize_with_transpose (moe-fuse quantize-with-transpose): x in
// 1x128 blocks of its rows and of its columns from one read; rows e4m3,
// columns e5m2. The GPU schedule (the staged one: a block per 128 x 128
// tile through shared memory) must equal the reference's two quantizes bit
// for bit.
func.func @with_transpose_1x128(%x: tensor<1024x384xbf16> {moe.name = "xw"})
    -> (tensor<1024x384xf8E4M3FN> {moe.name = "q"}, tensor<1024x3xf32> {moe.name = "scale"},
        tensor<384x1024xf8E5M2> {moe.name = "qt"}, tensor<384x8xf32> {moe.name = "scale_t"}) {
  %q0 = tensor.empty() : tensor<1024x384xf8E4M3FN>
  %s0 = tensor.empty() : tensor<1024x3xf32>
  %qt0 = tensor.empty() : tensor<384x1024xf8E5M2>
  %st0 = tensor.empty() : tensor<384x8xf32>
  %q, %s, %qt, %st = moe.quantize_with_transpose %x outs(%q0, %s0, %qt0, %st0) : tensor<1024x384xbf16> -> tensor<1024x384xf8E4M3FN>, tensor<1024x3xf32>, tensor<384x1024xf8E5M2>, tensor<384x8xf32>
  return %q, %s, %qt, %st : tensor<1024x384xf8E4M3FN>, tensor<1024x3xf32>, tensor<384x1024xf8E5M2>, tensor<384x8xf32>
}

// f32 source (the warp-per-tile schedule: 4 columns a lane, 16 chunks of 8
// columns a tile); e5m2 both ways.
func.func @with_transpose_1x128_f32(%x: tensor<256x128xf32> {moe.name = "xwf"})
    -> (tensor<256x128xf8E5M2> {moe.name = "q"}, tensor<256x1xf32> {moe.name = "scale"},
        tensor<128x256xf8E5M2> {moe.name = "qt"}, tensor<128x2xf32> {moe.name = "scale_t"}) {
  %q0 = tensor.empty() : tensor<256x128xf8E5M2>
  %s0 = tensor.empty() : tensor<256x1xf32>
  %qt0 = tensor.empty() : tensor<128x256xf8E5M2>
  %st0 = tensor.empty() : tensor<128x2xf32>
  %q, %s, %qt, %st = moe.quantize_with_transpose %x outs(%q0, %s0, %qt0, %st0) : tensor<256x128xf32> -> tensor<256x128xf8E5M2>, tensor<256x1xf32>, tensor<128x256xf8E5M2>, tensor<128x2xf32>
  return %q, %s, %qt, %st : tensor<256x128xf8E5M2>, tensor<256x1xf32>, tensor<128x256xf8E5M2>, tensor<128x2xf32>
}

// Not a quantize: f32 rounded to bf16 as every kernel that writes bf16
// from f32 math rounds it (on the GPU cvt.rn, gpu-native-bf16-truncation;
// on the CPU the integer rounding), on the raw bit patterns of "rb": ties
// both ways, values that round up to inf, f32 subnormals, ±0, ±inf and NaNs
// of every sign and payload (each must become 0x7FC0), then random bits.
// Row by row the GPU converts pairs (cvt.rn.bf16x2.f32, min.s16x2); the
// transposed copy converts one value at a time (cvt.rn.bf16.f32, min.s16).
func.func @round_f32_to_bf16(%x: tensor<256x1024xf32> {moe.name = "rb"})
    -> (tensor<256x1024xbf16> {moe.name = "rounded"}) {
  %init = tensor.empty() : tensor<256x1024xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x1024xf32>) outs(%init : tensor<256x1024xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<256x1024xbf16>
  return %r : tensor<256x1024xbf16>
}

func.func @round_f32_to_bf16_transposed(%x: tensor<256x1024xf32> {moe.name = "rb"})
    -> (tensor<1024x256xbf16> {moe.name = "rounded_t"}) {
  %init = tensor.empty() : tensor<1024x256xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x1024xf32>) outs(%init : tensor<1024x256xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1024x256xbf16>
  return %r : tensor<1024x256xbf16>
}
