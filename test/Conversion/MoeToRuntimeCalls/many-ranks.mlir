// RUN: moe-opt %s -split-input-file -verify-diagnostics --convert-moe-to-runtime-calls
// Collectives over several ranks on a GPU target are reported, not lowered
// as if on one rank (their NCCL runtime calls are not emitted yet).

shard.grid @ep(shape = 4)
func.func @all_to_all(%x: memref<8x2xbf16>, %n: memref<8xi32>, %y: memref<32x2xbf16>, %r: memref<8xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op communicates over 4 ranks: expert parallelism is not lowered for GPU targets yet}}
  moe.all_to_all %x, %n on @ep axis 0 outs(%y, %r) : memref<8x2xbf16>, memref<8xi32> -> memref<32x2xbf16>, memref<8xi32>
  return
}

// -----

shard.grid @ep(shape = 2)
func.func @all_reduce(%x: memref<4xf32>, %y: memref<4xf32>) {
  // expected-error @+1 {{'moe.all_reduce' op communicates over 2 ranks}}
  moe.all_reduce %x on @ep axes [0] outs(%y) : memref<4xf32> -> memref<4xf32>
  return
}

// -----

shard.grid @ep(shape = 2)
func.func @global_aux_loss(%s: memref<8x4xf32>, %i: memref<8x2xi32>, %l: memref<f32>) {
  // expected-error @+1 {{'moe.aux_loss' op communicates over 2 ranks}}
  moe.aux_loss global %s, %i from softmax coeff 1.000000e-02 outs(%l) {grid = @ep, grid_axes = array<i64: 0>} : memref<8x4xf32>, memref<8x2xi32> -> memref<f32>
  return
}

// -----

// One rank: nothing to report (lowered later as the identity / batch loss).
shard.grid @ep(shape = 1)
func.func @one_rank(%x: memref<8x2xbf16>, %n: memref<1xi32>, %y: memref<8x2xbf16>, %r: memref<1xi32>) {
  moe.all_to_all %x, %n on @ep axis 0 outs(%y, %r) : memref<8x2xbf16>, memref<1xi32> -> memref<8x2xbf16>, memref<1xi32>
  return
}
