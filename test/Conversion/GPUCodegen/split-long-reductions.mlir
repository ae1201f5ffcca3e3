// RUN: moe-opt %s -split-input-file --split-long-reductions | FileCheck %s
// RUN: moe-opt %s -split-input-file --split-long-reductions=chunk=1024 | FileCheck %s --check-prefix=CHUNK
// RUN: moe-opt %s -split-input-file --split-long-reductions=max-threads=8193 | FileCheck %s --check-prefix=THREADS
// RUN: moe-opt %s -split-input-file --split-long-reductions=max-threads=8192 | FileCheck %s --check-prefix=NOSPLIT
// RUN: moe-opt %s -split-input-file --split-long-reductions=min-length=65536 | FileCheck %s --check-prefix=NOSPLIT
// RUN: moe-opt %s -split-input-file --split-long-reductions=row-chunk=0 | FileCheck %s --check-prefix=ROWOFF

// split-long-reductions: a linalg op with few outputs and one long
// reduction (shaped like a router-weight gradient: H·E = 1024·8 outputs,
// each a sum over T = 32768 tokens of x·|g|; a plain contraction xᵀ·g is
// left to cuBLASLt, below) becomes partial sums per chunk of the reduction, then a
// reduction over the chunks. The chunk count is the largest power of two
// dividing T with chunks of at least `chunk` (128) iterations and at most
// 16·max-threads partial outputs: here 32768/128 = 256 chunks.

// CHECK-DAG:   #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG:   #[[GMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG:   #[[PMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG:   #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[OUT2:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @router_weight_grad(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<32768x1024xf32>, %[[G:[^:]+]]: tensor<32768x8xf32>, %[[INIT:[^:]+]]: tensor<1024x8xf32>)
// CHECK:       %[[XE:.*]] = tensor.expand_shape %[[X]] {{\[}}[0, 1], [2]] output_shape [256, 128, 1024] : tensor<32768x1024xf32> into tensor<256x128x1024xf32>
// CHECK:       %[[GE:.*]] = tensor.expand_shape %[[G]] {{\[}}[0, 1], [2]] output_shape [256, 128, 8] : tensor<32768x8xf32> into tensor<256x128x8xf32>
// Partials [chunk, H, E]: the chunk dimension first, the output's layout
// innermost.
// CHECK:       %[[EMPTY:.*]] = tensor.empty() : tensor<256x1024x8xf32>
// CHECK:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<256x1024x8xf32>)
// CHECK:       %[[PART:.*]] = linalg.generic {indexing_maps = [#[[XMAP]], #[[GMAP]], #[[PMAP]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%[[XE]], %[[GE]] : tensor<256x128x1024xf32>, tensor<256x128x8xf32>) outs(%[[FILL]] : tensor<256x1024x8xf32>)
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:       } -> tensor<256x1024x8xf32>
// Final reduction over the leading chunk dimension.
// CHECK:       %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID3]], #[[OUT2]]], iterator_types = ["reduction", "parallel", "parallel"]}
// CHECK-SAME:      ins(%[[PART]] : tensor<256x1024x8xf32>) outs(%[[INIT]] : tensor<1024x8xf32>)
// CHECK:         arith.addf
// CHECK:       } -> tensor<1024x8xf32>
// CHECK:       return %[[SUM]]

// chunk=1024: 32 chunks of 1024.
// CHUNK-LABEL: func.func @router_weight_grad(
// CHUNK:       tensor.expand_shape {{.*}} output_shape [32, 1024, 1024]
// CHUNK:       tensor.empty() : tensor<32x1024x8xf32>

// max-threads=8193: 8192 outputs still split, partials capped at
// 16·8193 (16 chunks).
// THREADS-LABEL: func.func @router_weight_grad(
// THREADS:       tensor.expand_shape {{.*}} output_shape [16, 2048, 1024]
// THREADS:       tensor.empty() : tensor<16x1024x8xf32>

// NOSPLIT-LABEL: func.func @router_weight_grad(
// NOSPLIT-NOT:   tensor.expand_shape
// NOSPLIT:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// NOSPLIT-SAME:    ins(%{{.*}}, %{{.*}} : tensor<32768x1024xf32>, tensor<32768x8xf32>)
// NOSPLIT-NOT:   linalg.generic
// NOSPLIT:       return
#x = affine_map<(h, e, t) -> (t, h)>
#g = affine_map<(h, e, t) -> (t, e)>
#o = affine_map<(h, e, t) -> (h, e)>
func.func @router_weight_grad(%x: tensor<32768x1024xf32>, %g: tensor<32768x8xf32>, %init: tensor<1024x8xf32>) -> tensor<1024x8xf32> {
  %r = linalg.generic {indexing_maps = [#x, #g, #o], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g : tensor<32768x1024xf32>, tensor<32768x8xf32>) outs(%init : tensor<1024x8xf32>) {
  ^bb0(%xa: f32, %ga: f32, %acc: f32):
    %ag = math.absf %ga : f32
    %m = arith.mulf %xa, %ag : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1024x8xf32>
  return %r : tensor<1024x8xf32>
}

// -----

// Unchanged: f32 contractions (acc + a·b, bf16 factors widened) with few
// outputs and a long reduction, which would otherwise be split: the router
// weight gradient xᵀ·g and its transpose gᵀ·x, operands in either order.
// convert-moe-to-runtime-calls gives them to cuBLASLt whole.
// CHECK-LABEL: func.func @contractions(
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.generic
// CHECK:       linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @contractions(%x: tensor<32768x1024xbf16>, %g: tensor<32768x8xf32>,
                        %dw0: tensor<1024x8xf32>, %dwt0: tensor<8x1024xf32>) -> (tensor<1024x8xf32>, tensor<8x1024xf32>) {
  %dw = linalg.generic {indexing_maps = [affine_map<(h, e, t) -> (t, h)>, affine_map<(h, e, t) -> (t, e)>, affine_map<(h, e, t) -> (h, e)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g : tensor<32768x1024xbf16>, tensor<32768x8xf32>) outs(%dw0 : tensor<1024x8xf32>) {
  ^bb0(%xa: bf16, %ga: f32, %acc: f32):
    %xf = arith.extf %xa : bf16 to f32
    %m = arith.mulf %xf, %ga : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1024x8xf32>
  %dwt = linalg.generic {indexing_maps = [affine_map<(e, h, t) -> (t, h)>, affine_map<(e, h, t) -> (t, e)>, affine_map<(e, h, t) -> (e, h)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g : tensor<32768x1024xbf16>, tensor<32768x8xf32>) outs(%dwt0 : tensor<8x1024xf32>) {
  ^bb0(%xa: bf16, %ga: f32, %acc: f32):
    %xf = arith.extf %xa : bf16 to f32
    %m = arith.mulf %ga, %xf : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x1024xf32>
  return %dw, %dwt : tensor<1024x8xf32>, tensor<8x1024xf32>
}

// -----

// A length that is not a power of two: 6000 = 16·375, so 16 chunks of 375
// (32 does not divide it).
// CHECK-LABEL: func.func @sum_6000(
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [64, 16, 375] : tensor<64x6000xf32> into tensor<64x16x375xf32>
// CHECK:       tensor.empty() : tensor<16x64xf32>
// CHECK:       linalg.generic
// CHECK:       linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}}ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}} : tensor<64xf32>)
func.func @sum_6000(%x: tensor<64x6000xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x6000xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// A reduction shorter than min-length (1024 < 2048) along the rows of its
// input: a row reduction of at least min-row-length (64), split into
// 1024 / row-chunk (8) = 128 chunks interleaved along the row (element k
// in chunk k mod 128: [64, 8, 128], the chunk dimension inner and
// parallel), partials [64, 128], then a reduction per row. With
// row-chunk=0 it stays.
// CHECK-LABEL: func.func @short(
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [64, 8, 128] : tensor<64x1024xf32> into tensor<64x8x128xf32>
// CHECK:       tensor.empty() : tensor<64x128xf32>
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}}ins(%{{.*}} : tensor<64x8x128xf32>) outs(%{{.*}} : tensor<64x128xf32>)
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%{{.*}} : tensor<64x128xf32>) outs(%{{.*}} : tensor<64xf32>)
// CHECK:       return
// ROWOFF-LABEL: func.func @short(
// ROWOFF-NOT:   tensor.expand_shape
// ROWOFF:       linalg.generic {{.*}}ins(%{{.*}} : tensor<64x1024xf32>) outs(%{{.*}} : tensor<64xf32>)
// ROWOFF-NOT:   linalg.generic
// ROWOFF:       return
func.func @short(%x: tensor<64x1024xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Unchanged: enough outputs to fill the GPU (1024·256 ≥ 131072 threads).
// CHECK-LABEL: func.func @many_outputs(
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @many_outputs(%x: tensor<4096x1024xf32>, %g: tensor<4096x256xf32>, %init: tensor<1024x256xf32>) -> tensor<1024x256xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(h, e, t) -> (t, h)>, affine_map<(h, e, t) -> (t, e)>, affine_map<(h, e, t) -> (h, e)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g : tensor<4096x1024xf32>, tensor<4096x256xf32>) outs(%init : tensor<1024x256xf32>) {
  ^bb0(%xa: f32, %ga: f32, %acc: f32):
    %m = arith.mulf %xa, %ga : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1024x256xf32>
  return %r : tensor<1024x256xf32>
}

// -----

// Unchanged: two results (a sum and a max) of one reduction.
// CHECK-LABEL: func.func @two_results(
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @two_results(%x: tensor<64x32768xf32>, %init: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x32768xf32>) outs(%init, %init : tensor<64xf32>, tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32, %mx: f32):
    %s = arith.addf %acc, %a : f32
    %m = arith.maximumf %mx, %a : f32
    linalg.yield %s, %m : f32, f32
  } -> (tensor<64xf32>, tensor<64xf32>)
  return %r#0, %r#1 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Unchanged: on buffers (the pass runs before bufferization).
// CHECK-LABEL: func.func @on_buffers(
// CHECK-NOT:   memref.expand_shape
// CHECK:       linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @on_buffers(%x: memref<64x32768xf32>, %out: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x32768xf32>) outs(%out : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The softmax adjoint's row reduction Σ_e dp·p over [T, E] = [16384, 128]
// (16384 outputs: never split by the rule for few outputs): a thread per
// row would read its 512-byte row alone, 512 bytes from its neighbour's.
// Split as rows: 16 chunks, element e in chunk e mod 16, so a row's 16
// threads read 16 consecutive floats in each of their 8 iterations.
// CHECK-DAG:   #[[IN3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[PART3:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @softmax_adjoint_rows(
// CHECK:       %[[A:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [16384, 8, 16]
// CHECK:       %[[B:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [16384, 8, 16]
// CHECK:       tensor.empty() : tensor<16384x16xf32>
// CHECK:       %[[P:.*]] = linalg.generic {indexing_maps = [#[[IN3]], #[[IN3]], #[[PART3]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<16384x8x16xf32>, tensor<16384x8x16xf32>)
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%[[P]] : tensor<16384x16xf32>)
// ROWOFF-LABEL: func.func @softmax_adjoint_rows(
// ROWOFF-NOT:   tensor.expand_shape
func.func @softmax_adjoint_rows(%dp: tensor<16384x128xf32>, %p: tensor<16384x128xf32>, %init: tensor<16384xf32>) -> tensor<16384xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(t, e) -> (t, e)>, affine_map<(t, e) -> (t, e)>, affine_map<(t, e) -> (t)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%dp, %p : tensor<16384x128xf32>, tensor<16384x128xf32>) outs(%init : tensor<16384xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16384xf32>
  return %r : tensor<16384xf32>
}

// -----

// Unchanged: not a row reduction (one input reduced along its first
// dimension), nor one shorter than min-row-length (8 < 64: the [T, K]
// reductions of the top-k weights).
// CHECK-LABEL: func.func @not_rows(
// CHECK-NOT:   tensor.expand_shape
// CHECK:       linalg.generic
// CHECK:       linalg.generic
// CHECK-NOT:   linalg.generic
// CHECK:       return
func.func @not_rows(%a: tensor<16384x128xf32>, %at: tensor<128x16384xf32>, %w: tensor<16384x8xf32>,
                    %init: tensor<16384xf32>) -> (tensor<16384xf32>, tensor<16384xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(t, e) -> (t, e)>, affine_map<(t, e) -> (e, t)>, affine_map<(t, e) -> (t)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a, %at : tensor<16384x128xf32>, tensor<128x16384xf32>) outs(%init : tensor<16384xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16384xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(t, k) -> (t, k)>, affine_map<(t, k) -> (t)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%w : tensor<16384x8xf32>) outs(%init : tensor<16384xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<16384xf32>
  return %r, %k : tensor<16384xf32>, tensor<16384xf32>
}
