// moe.combine_grad on rows of 1024 bf16 (128 vectors of 8: each lane of the
// GPU schedule's warp sums 4 of them before the butterfly), 64 tokens of
// top-2 onto 130 rows: pairs 0..126 name rows 0..126, pair 127 is dropped
// (-1), rows 127..129 are named by no pair (zero).
func.func @combine_grad_wide(%dout: tensor<64x1024xbf16>, %y: tensor<130x1024xbf16>, %w: tensor<64x2xf32>) -> (tensor<130x1024xbf16>, tensor<64x2xf32>) {
  %e = tensor.empty() : tensor<64x2xi32>
  %rows = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<64x2xi32>) {
  ^bb0(%o: i32):
    %t = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %c127 = arith.constant 127 : index
    %tk = arith.muli %t, %c2 : index
    %pair = arith.addi %tk, %k : index
    %named = arith.cmpi ult, %pair, %c127 : index
    %row = arith.index_cast %pair : index to i32
    %dropped = arith.constant -1 : i32
    %r = arith.select %named, %row, %dropped : i32
    linalg.yield %r : i32
  } -> tensor<64x2xi32>
  %dy0 = tensor.empty() : tensor<130x1024xbf16>
  %dw0 = tensor.empty() : tensor<64x2xf32>
  %dy, %dw = moe.combine_grad %dout, %y, %rows, %w outs(%dy0, %dw0)
      : tensor<64x1024xbf16>, tensor<130x1024xbf16>, tensor<64x2xi32>, tensor<64x2xf32> -> tensor<130x1024xbf16>, tensor<64x2xf32>
  return %dy, %dw : tensor<130x1024xbf16>, tensor<64x2xf32>
}
