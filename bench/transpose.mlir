// Transpose bandwidth (scripts/gpu-transpose.sh with BENCH=1; moe-runner's
// median times become GB/s through bench/fp8-quantize-bandwidth.py, which
// counts every input byte read once and every output byte written once).
// The FP8 pipeline's transposes: the wgrad chain's activations [R, H] ->
// [H, R] (bf16), the same at f32, and FP8 expert weights stored kn copied
// to [G, N, K]. Each is one kernel (__moe_entry_<n>_0_transpose); random
// inputs. H100 SXM: ~3.35 TB/s peak HBM3, ~2.8-3.0 TB/s for a copy kernel.

func.func @bf16_131072x2048(%x: tensor<131072x2048xbf16> {moe.name = "x"})
    -> (tensor<2048x131072xbf16> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<2048x131072xbf16>
  %1 = linalg.transpose ins(%x : tensor<131072x2048xbf16>) outs(%0 : tensor<2048x131072xbf16>) permutation = [1, 0]
  return %1 : tensor<2048x131072xbf16>
}

func.func @f32_2048x131072(%x: tensor<2048x131072xf32> {moe.name = "x"})
    -> (tensor<131072x2048xf32> {moe.name = "y"}) {
  %0 = tensor.empty() : tensor<131072x2048xf32>
  %1 = linalg.transpose ins(%x : tensor<2048x131072xf32>) outs(%0 : tensor<131072x2048xf32>) permutation = [1, 0]
  return %1 : tensor<131072x2048xf32>
}

func.func @e4m3_128x2048x768(%w: tensor<128x2048x768xf8E4M3FN> {moe.name = "w"})
    -> (tensor<128x768x2048xf8E4M3FN> {moe.name = "wt"}) {
  %0 = tensor.empty() : tensor<128x768x2048xf8E4M3FN>
  %1 = linalg.transpose ins(%w : tensor<128x2048x768xf8E4M3FN>) outs(%0 : tensor<128x768x2048xf8E4M3FN>) permutation = [0, 2, 1]
  return %1 : tensor<128x768x2048xf8E4M3FN>
}
