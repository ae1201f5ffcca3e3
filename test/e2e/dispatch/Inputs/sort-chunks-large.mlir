// moe.sort_chunks both ways and a chunked one-rank moe.all_to_all on
// layer-sized rows, with their adjoints (moe-generate-vjp), for checking one
// lowering against another: the GPU schedule against the reference loops
// (sort-chunks-check.test on the cpu, test/gpu/sort-chunks.test on a GPU).
// counts and send come from .npy files (sort-chunks-check.test writes them).
shard.grid @one(shape = 1)

func.func @ep_rows(%x: tensor<1024x256xbf16> {moe.name = "x"}, %counts: tensor<32xi32> {moe.name = "counts"},
                   %send: tensor<8xi32> {moe.name = "send"})
    -> (tensor<1024x256xbf16> {moe.name = "local"}, tensor<8xi32> {moe.name = "local_sizes"},
        tensor<1024x256xbf16> {moe.name = "back"}, tensor<4xi32> {moe.name = "rank_sizes"},
        tensor<1100x256xbf16> {moe.name = "exchanged"}, tensor<8xi32> {moe.name = "recv"}) {
  %l0 = tensor.empty() : tensor<1024x256xbf16>
  %ls0 = tensor.empty() : tensor<8xi32>
  %local, %local_sizes = moe.sort_chunks %x, %counts outs(%l0, %ls0) : tensor<1024x256xbf16>, tensor<32xi32> -> tensor<1024x256xbf16>, tensor<8xi32>
  %b0 = tensor.empty() : tensor<1024x256xbf16>
  %rs0 = tensor.empty() : tensor<4xi32>
  %back, %rank_sizes = moe.sort_chunks inverse %local, %counts outs(%b0, %rs0) : tensor<1024x256xbf16>, tensor<32xi32> -> tensor<1024x256xbf16>, tensor<4xi32>
  %e0 = tensor.empty() : tensor<1100x256xbf16>
  %r0 = tensor.empty() : tensor<8xi32>
  %exchanged, %recv = moe.all_to_all %local, %send on @one axis 0 outs(%e0, %r0) : tensor<1024x256xbf16>, tensor<8xi32> -> tensor<1100x256xbf16>, tensor<8xi32>
  return %local, %local_sizes, %back, %rank_sizes, %exchanged, %recv : tensor<1024x256xbf16>, tensor<8xi32>, tensor<1024x256xbf16>, tensor<4xi32>, tensor<1100x256xbf16>, tensor<8xi32>
}

// FP8 rows (16 bytes = 16 elements per access) and f32 rows of 6 columns
// (an access of 2).
func.func @odd_rows(%q: tensor<96x48xf8E4M3FN> {moe.name = "q"}, %f: tensor<77x6xf32> {moe.name = "f"},
                    %counts: tensor<6xi32> {moe.name = "small_counts"})
    -> (tensor<96x48xf8E4M3FN> {moe.name = "q_sorted"}, tensor<77x6xf32> {moe.name = "f_sorted"}, tensor<2xi32> {moe.name = "f_sizes"}) {
  %q0 = tensor.empty() : tensor<96x48xf8E4M3FN>
  %qs0 = tensor.empty() : tensor<3xi32>
  %qs, %qsz = moe.sort_chunks %q, %counts outs(%q0, %qs0) : tensor<96x48xf8E4M3FN>, tensor<6xi32> -> tensor<96x48xf8E4M3FN>, tensor<3xi32>
  %f0 = tensor.empty() : tensor<77x6xf32>
  %fs0 = tensor.empty() : tensor<2xi32>
  %fs, %fsz = moe.sort_chunks inverse %f, %counts outs(%f0, %fs0) : tensor<77x6xf32>, tensor<6xi32> -> tensor<77x6xf32>, tensor<2xi32>
  return %qs, %fs, %fsz : tensor<96x48xf8E4M3FN>, tensor<77x6xf32>, tensor<2xi32>
}
