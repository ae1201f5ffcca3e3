// cuBLASLt grouped matmuls and weight gradients (moe-compile --gemm=cublaslt)
// whose result is read by a compiled elementwise kernel (x + x) before it
// becomes the entry's output: the same producer/consumer pairs as the small
// example's backward (R = 128 rows, H = 32, F = 48, 8 experts), in each
// weight layout and in the weight gradient. Under compute-sanitizer
// initcheck (scripts/gpu-sanitize.sh, artifact "cublaslt") a report in the
// consumer of one layout and not the other says which runtime call's
// writes the tool does not see or which elements it leaves unwritten.
//   kn_f48, nk_f48:   [128, 32] x [8, 32, 48] (kn) or [8, 48, 32] (nk)
//   kn_h32, nk_h32:   [128, 48] x [8, 48, 32] (kn) or [8, 32, 48] (nk)
//   nk_f48_tail:      nk_f48 with an empty group and 20 rows past the last
//                     group (the runtime's zeroed tail)
//   wgrad_f48:        db [8, 48, 32] = aᵀ · dc per group
// Group sizes are constants: 13, 20, 7, 30, 16, 16, 10, 16 (a run of equal
// sizes goes to one strided-batched call); the tail case 13, 0, 7, 30, 16,
// 16, 10, 16 (108 of 128 rows).
func.func @kn_f48(%a: tensor<128x32xbf16>, %b: tensor<8x32x48xbf16>) -> tensor<128x48xbf16> {
  %sizes = arith.constant dense<[13, 20, 7, 30, 16, 16, 10, 16]> : tensor<8xi32>
  %e = tensor.empty() : tensor<128x48xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<128x32xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<128x48xbf16>
  %r = arith.addf %c, %c : tensor<128x48xbf16>
  return %r : tensor<128x48xbf16>
}
func.func @nk_f48(%a: tensor<128x32xbf16>, %b: tensor<8x48x32xbf16>) -> tensor<128x48xbf16> {
  %sizes = arith.constant dense<[13, 20, 7, 30, 16, 16, 10, 16]> : tensor<8xi32>
  %e = tensor.empty() : tensor<128x48xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<128x32xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<128x48xbf16>
  %r = arith.addf %c, %c : tensor<128x48xbf16>
  return %r : tensor<128x48xbf16>
}
func.func @kn_h32(%a: tensor<128x48xbf16>, %b: tensor<8x48x32xbf16>) -> tensor<128x32xbf16> {
  %sizes = arith.constant dense<[13, 20, 7, 30, 16, 16, 10, 16]> : tensor<8xi32>
  %e = tensor.empty() : tensor<128x32xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<128x48xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<128x32xbf16>
  %r = arith.addf %c, %c : tensor<128x32xbf16>
  return %r : tensor<128x32xbf16>
}
func.func @nk_h32(%a: tensor<128x48xbf16>, %b: tensor<8x32x48xbf16>) -> tensor<128x32xbf16> {
  %sizes = arith.constant dense<[13, 20, 7, 30, 16, 16, 10, 16]> : tensor<8xi32>
  %e = tensor.empty() : tensor<128x32xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<128x48xbf16>, tensor<8x32x48xbf16>, tensor<8xi32> -> tensor<128x32xbf16>
  %r = arith.addf %c, %c : tensor<128x32xbf16>
  return %r : tensor<128x32xbf16>
}
func.func @nk_f48_tail(%a: tensor<128x32xbf16>, %b: tensor<8x48x32xbf16>) -> tensor<128x48xbf16> {
  %sizes = arith.constant dense<[13, 0, 7, 30, 16, 16, 10, 16]> : tensor<8xi32>
  %e = tensor.empty() : tensor<128x48xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<128x32xbf16>, tensor<8x48x32xbf16>, tensor<8xi32> -> tensor<128x48xbf16>
  %r = arith.addf %c, %c : tensor<128x48xbf16>
  return %r : tensor<128x48xbf16>
}
func.func @wgrad_f48(%a: tensor<128x48xbf16>, %dc: tensor<128x32xbf16>) -> tensor<8x48x32xbf16> {
  %sizes = arith.constant dense<[13, 20, 7, 30, 16, 16, 10, 16]> : tensor<8xi32>
  %e = tensor.empty() : tensor<8x48x32xbf16>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) : tensor<128x48xbf16>, tensor<128x32xbf16>, tensor<8xi32> -> tensor<8x48x32xbf16>
  %r = arith.addf %db, %db : tensor<8x48x32xbf16>
  return %r : tensor<8x48x32xbf16>
}
