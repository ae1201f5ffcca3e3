// RUN: moe-opt %s -split-input-file -verify-diagnostics --convert-moe-to-runtime-calls
// What the GPU target's collective calls cannot do is reported at the op.

// A grid axis of unknown size: the number of ranks must be known.
shard.grid @ep(shape = ?)
func.func @dynamic(%x: memref<4xf32>, %y: memref<4xf32>) {
  // expected-error @+1 {{'moe.all_reduce' op grid @ep axis 0 has a dynamic size}}
  moe.all_reduce %x on @ep axes [0] outs(%y) : memref<4xf32> -> memref<4xf32>
  return
}

// -----

shard.grid @ep(shape = 2)
func.func @strided(%x: memref<8x2xbf16, strided<[4, 1]>>, %n: memref<2xi32>, %y: memref<16x2xbf16>, %r: memref<2xi32>) {
  // expected-error @+1 {{'moe.all_to_all' op over several ranks needs buffers of the identity layout}}
  moe.all_to_all %x, %n on @ep axis 0 outs(%y, %r) : memref<8x2xbf16, strided<[4, 1]>>, memref<2xi32> -> memref<16x2xbf16>, memref<2xi32>
  return
}
