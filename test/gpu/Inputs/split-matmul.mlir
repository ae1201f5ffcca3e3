// f32 contractions the GPU lowering computes as bf16 GEMMs on split
// operands (SplitMatmul.h), against the CPU's fp32 loops: moe.gate (bf16 x,
// f32 w) and two f32 operands in two storages (the six-block layout);
// split-matmul-bf16.mlir has the other contractions of a bf16 and an f32
// operand. Sizes T = 64, H = 96,
// E = 24; random N(0, 1) operands use all 24 bits of an f32 mantissa, so
// a dropped or repeated part shows far above fp32 round-off. Every
// argument is f32 (the bf16 operands are rounded inside), so moe-runner
// holds the outputs to f32's 1e-5.
#id = affine_map<(i, j) -> (i, j)>
func.func private @to_bf16(%v: tensor<64x96xf32>) -> tensor<64x96xbf16> {
  %e = tensor.empty() : tensor<64x96xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%v : tensor<64x96xf32>) outs(%e : tensor<64x96xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x96xbf16>
  return %r : tensor<64x96xbf16>
}

func.func @gate(%xf: tensor<64x96xf32>, %w: tensor<96x24xf32>) -> tensor<64x24xf32> {
  %x = func.call @to_bf16(%xf) : (tensor<64x96xf32>) -> tensor<64x96xbf16>
  %init = tensor.empty() : tensor<64x24xf32>
  %l = moe.gate %x, %w outs(%init) : tensor<64x96xbf16>, tensor<96x24xf32> -> tensor<64x24xf32>
  return %l : tensor<64x24xf32>
}

// o[t, h] = Σ_e g[t, e] · w[h, e]: both f32, B stored [n, k].
func.func @f32_f32_bt(%g: tensor<64x24xf32>, %w: tensor<96x24xf32>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(t, h, e) -> (t, e)>, affine_map<(t, h, e) -> (h, e)>, affine_map<(t, h, e) -> (t, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %w : tensor<64x24xf32>, tensor<96x24xf32>) outs(%init : tensor<64x96xf32>) {
  ^bb0(%ga: f32, %wa: f32, %acc: f32):
    %m = arith.mulf %ga, %wa : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// o[i, j] = Σ_l a[l, i] · b[l, j]: both f32, A stored [k, m], B [k, n].
func.func @f32_f32_at(%a: tensor<24x64xf32>, %b: tensor<24x96xf32>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, l) -> (l, i)>, affine_map<(i, j, l) -> (l, j)>, affine_map<(i, j, l) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<24x64xf32>, tensor<24x96xf32>) outs(%init : tensor<64x96xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
