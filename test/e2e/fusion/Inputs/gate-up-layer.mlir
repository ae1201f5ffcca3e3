// An MoE layer forward whose experts store gate and up as one concatenated
// weight [E, H, 2F] (as PyTorch's fused formulation does): route, top-2,
// permute, the gate|up grouped matmul, SiLU(gate) · up, the down grouped
// matmul, combine. T = 256 tokens, H = 128, F = 192, E = 8: R = 512 rows,
// H and F multiples of 64 (the generated GEMMs' K steps). moe-fuse turns the
// gate|up matmul and the glu into one grouped matmul with an epilogue.
func.func @gate_up_layer(%x: tensor<256x128xbf16>, %router: tensor<128x8xf32>,
                         %w_gate_up: tensor<8x128x384xbf16>,
                         %w_down: tensor<8x192x128xbf16>) -> tensor<256x128xbf16> {
  %e0 = tensor.empty() : tensor<256x8xf32>
  %logits = moe.gate %x, %router outs(%e0) : tensor<256x128xbf16>, tensor<128x8xf32> -> tensor<256x8xf32>
  %e1 = tensor.empty() : tensor<256x8xf32>
  %scores = moe.route softmax %logits outs(%e1) : tensor<256x8xf32> -> tensor<256x8xf32>
  %e2 = tensor.empty() : tensor<256x2xf32>
  %e3 = tensor.empty() : tensor<256x2xi32>
  %weights, %indices = moe.topk softmax %scores k 2 outs(%e2, %e3) {normalize = #moe<normalize sum>} : tensor<256x8xf32> -> tensor<256x2xf32>, tensor<256x2xi32>
  %e4 = tensor.empty() : tensor<512x128xbf16>
  %e5 = tensor.empty() : tensor<8xi32>
  %e6 = tensor.empty() : tensor<256x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %indices experts 8 align 1 outs(%e4, %e5, %e6) : tensor<256x128xbf16>, tensor<256x2xi32> -> tensor<512x128xbf16>, tensor<8xi32>, tensor<256x2xi32>
  %e7 = tensor.empty() : tensor<512x384xbf16>
  %gu = moe.grouped_matmul %xs, %w_gate_up, %sizes outs(%e7) : tensor<512x128xbf16>, tensor<8x128x384xbf16>, tensor<8xi32> -> tensor<512x384xbf16>
  %e8 = tensor.empty() : tensor<512x192xbf16>
  %h = moe.glu silu %gu outs(%e8) : tensor<512x384xbf16> -> tensor<512x192xbf16>
  %e9 = tensor.empty() : tensor<512x128xbf16>
  %y = moe.grouped_matmul %h, %w_down, %sizes outs(%e9) : tensor<512x192xbf16>, tensor<8x192x128xbf16>, tensor<8xi32> -> tensor<512x128xbf16>
  %e10 = tensor.empty() : tensor<256x128xbf16>
  %out = moe.combine %y, %rows, %weights outs(%e10) : tensor<512x128xbf16>, tensor<256x2xi32>, tensor<256x2xf32> -> tensor<256x128xbf16>
  return %out : tensor<256x128xbf16>
}
