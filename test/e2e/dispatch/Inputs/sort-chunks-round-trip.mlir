// sort_chunks then sort_chunks inverse with the same counts: the identity on
// the rows the chunks cover (here all of them: Σ counts = R = 16). Outputs
// are differences from x: `moved` = sort_chunks(x) − x (not zero: the chunks
// do move) and `round_trip` = inverse(sort_chunks(x)) − x (exactly zero).
func.func @round_trip(%x: tensor<16x8xbf16> {moe.name = "x"}, %counts: tensor<12xi32> {moe.name = "counts"})
    -> (tensor<16x8xf32> {moe.name = "moved"}, tensor<16x8xf32> {moe.name = "round_trip"}, tensor<3xi32> {moe.name = "per_chunk"}, tensor<4xi32> {moe.name = "per_rank"}) {
  %y0 = tensor.empty() : tensor<16x8xbf16>
  %c0 = tensor.empty() : tensor<3xi32>
  %y, %per_chunk = moe.sort_chunks %x, %counts outs(%y0, %c0) : tensor<16x8xbf16>, tensor<12xi32> -> tensor<16x8xbf16>, tensor<3xi32>
  %z0 = tensor.empty() : tensor<16x8xbf16>
  %p0 = tensor.empty() : tensor<4xi32>
  %z, %per_rank = moe.sort_chunks inverse %y, %counts outs(%z0, %p0) : tensor<16x8xbf16>, tensor<12xi32> -> tensor<16x8xbf16>, tensor<4xi32>
  %xf = arith.extf %x : tensor<16x8xbf16> to tensor<16x8xf32>
  %yf = arith.extf %y : tensor<16x8xbf16> to tensor<16x8xf32>
  %zf = arith.extf %z : tensor<16x8xbf16> to tensor<16x8xf32>
  %moved = arith.subf %yf, %xf : tensor<16x8xf32>
  %back = arith.subf %zf, %xf : tensor<16x8xf32>
  return %moved, %back, %per_chunk, %per_rank : tensor<16x8xf32>, tensor<16x8xf32>, tensor<3xi32>, tensor<4xi32>
}
