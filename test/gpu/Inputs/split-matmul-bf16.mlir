// Contractions of a bf16 and an f32 operand that the GPU lowering computes
// as one bf16 GEMM over the f32 operand's three parts side by side
// (SplitMatmul.h), in each of the four storages: the parts along the
// output's columns (the f32 operand is B, stored [k, n] or [n, k]) or rows
// (it is A, stored [m, k] or [k, m]). The bf16 operands are arguments
// (a bf16 value computed inside would fuse its rounding into the
// contraction, which then has no bf16 operand). Sizes T = 64, H = 96,
// E = 24; random N(0, 1) f32 operands use all 24 bits of the mantissa, so
// a dropped or repeated part shows far above fp32 round-off:
// split-matmul.test compares the dumps at 1e-5 (moe-runner's check holds
// f32 outputs of bf16 arguments to bf16's 1e-2).

// dw[h, e] = Σ_t x[t, h] · g[t, e]: the bf16 operand stored [k, m], the
// f32 one [k, n] (the router-weight gradient).
func.func @bf16_f32_transposed(%x: tensor<64x96xbf16>, %g: tensor<64x24xf32>) -> tensor<96x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x24xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<96x24xf32>) -> tensor<96x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(h, e, t) -> (t, h)>, affine_map<(h, e, t) -> (t, e)>, affine_map<(h, e, t) -> (h, e)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g : tensor<64x96xbf16>, tensor<64x24xf32>) outs(%init : tensor<96x24xf32>) {
  ^bb0(%xa: bf16, %ga: f32, %acc: f32):
    %xw = arith.extf %xa : bf16 to f32
    %m = arith.mulf %xw, %ga : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<96x24xf32>
  return %r : tensor<96x24xf32>
}

// o[t, e] = Σ_h x[t, h] · w[e, h]: the f32 operand stored [n, k].
func.func @bf16_f32_bt(%x: tensor<64x96xbf16>, %w: tensor<24x96xf32>) -> tensor<64x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x24xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x24xf32>) -> tensor<64x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(t, e, h) -> (t, h)>, affine_map<(t, e, h) -> (e, h)>, affine_map<(t, e, h) -> (t, e)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<64x96xbf16>, tensor<24x96xf32>) outs(%init : tensor<64x24xf32>) {
  ^bb0(%xa: bf16, %wa: f32, %acc: f32):
    %xw = arith.extf %xa : bf16 to f32
    %m = arith.mulf %xw, %wa : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x24xf32>
  return %r : tensor<64x24xf32>
}

// o[t, h] = Σ_e g[t, e] · v[e, h]: the f32 operand is A, stored [m, k].
func.func @f32_bf16(%g: tensor<64x24xf32>, %v: tensor<24x96xbf16>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(t, h, e) -> (t, e)>, affine_map<(t, h, e) -> (e, h)>, affine_map<(t, h, e) -> (t, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %v : tensor<64x24xf32>, tensor<24x96xbf16>) outs(%init : tensor<64x96xf32>) {
  ^bb0(%ga: f32, %va: bf16, %acc: f32):
    %vw = arith.extf %va : bf16 to f32
    %m = arith.mulf %ga, %vw : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// o[i, j] = Σ_l a[l, i] · v[l, j]: the f32 operand is A, stored [k, m].
func.func @f32t_bf16(%a: tensor<24x64xf32>, %v: tensor<24x96xbf16>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, l) -> (l, i)>, affine_map<(i, j, l) -> (l, j)>, affine_map<(i, j, l) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %v : tensor<24x64xf32>, tensor<24x96xbf16>) outs(%init : tensor<64x96xf32>) {
  ^bb0(%x: f32, %y: bf16, %acc: f32):
    %yw = arith.extf %y : bf16 to f32
    %m = arith.mulf %x, %yw : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
