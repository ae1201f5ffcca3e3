// RUN: moe-opt %s -split-input-file -verify-diagnostics

// On memrefs the moe ops obey the rules they obey on tensors, on the
// buffers' shapes (one verifier per op serves both), and have no results.

func.func @gate_h_mismatch(%x: memref<4x8xf32>, %w: memref<6x2xf32>, %l: memref<4x2xf32>) {
  // expected-error @+1 {{'moe.gate' op H mismatch: 'x' dim 1 is 8 but 'weight' dim 0 is 6}}
  moe.gate %x, %w outs(%l) : memref<4x8xf32>, memref<6x2xf32> -> memref<4x2xf32>
  return
}

// -----

func.func @gate_wrong_output(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %l: memref<4x3xf32>) {
  // expected-error @+1 {{result 'logits' must be [4, 2] of f32 ([T, E] in f32), got tensor<4x3xf32>}}
  moe.gate %x, %w outs(%l) : memref<4x8xf32>, memref<8x2xf32> -> memref<4x3xf32>
  return
}

// -----

func.func @topk_k_too_big(%s: memref<4x8xf32>, %w: memref<4x9xf32>, %i: memref<4x9xi32>) {
  // expected-error @+1 {{'moe.topk' op k = 9 exceeds the number of experts E = 8}}
  moe.topk softmax %s k 9 outs(%w, %i) : memref<4x8xf32> -> memref<4x9xf32>, memref<4x9xi32>
  return
}

// -----

func.func @permute_rows(%x: memref<4x2xf32>, %i: memref<4x2xi32>, %p: memref<8x2xf32>, %s: memref<4xi32>, %r: memref<4x2xi32>) {
  // expected-error @+1 {{result 'permuted' must be [20, 2] of f32 (R = T·K + E·(align − 1) with E = 4, align = 4)}}
  moe.permute %x, %i experts 4 align 4 outs(%p, %s, %r) : memref<4x2xf32>, memref<4x2xi32> -> memref<8x2xf32>, memref<4xi32>, memref<4x2xi32>
  return
}

// -----

func.func @one_scale(%a: memref<16x256xf8E4M3FN>, %b: memref<2x256x128xf8E4M3FN>, %n: memref<2xi32>, %as: memref<f32>, %c: memref<16x128xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op FP8 operands need the scales: 'a_scale' and 'b_scale'}}
  "moe.grouped_matmul"(%a, %b, %n, %as, %c) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 1, 0, 0, 0, 1>}> ({})
      : (memref<16x256xf8E4M3FN>, memref<2x256x128xf8E4M3FN>, memref<2xi32>, memref<f32>, memref<16x128xbf16>) -> ()
  return
}

// -----

func.func @quantize_scale_shape(%x: memref<4x256xbf16>, %q: memref<4x256xf8E4M3FN>, %s: memref<4x3xf32>) {
  // expected-error @+1 {{result 'scale' must be [4, 2] of f32 (the scales of recipe block_1x128 for 'input' [4, 256])}}
  moe.quantize block_1x128 %x outs(%q, %s) : memref<4x256xbf16> -> memref<4x256xf8E4M3FN>, memref<4x3xf32>
  return
}

// -----

func.func @exchange_no_grid(%x: memref<4x2xf32>, %n: memref<1xi32>, %y: memref<4x2xf32>, %r: memref<1xi32>) {
  // expected-error @+1 {{grid @nowhere does not name a shard.grid}}
  moe.all_to_all %x, %n on @nowhere axis 0 outs(%y, %r) : memref<4x2xf32>, memref<1xi32> -> memref<4x2xf32>, memref<1xi32>
  return
}

// -----

func.func @mixed(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>, %l: memref<4x2xf32>) {
  // expected-error @+1 {{'moe.gate' op operands must be all tensors (value semantics) or all memrefs (buffer semantics)}}
  moe.gate %x, %w outs(%l) : tensor<4x8xf32>, tensor<8x2xf32> -> memref<4x2xf32>
  return
}

// -----

func.func @results_on_memrefs(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %l: memref<4x2xf32>) {
  // expected-error @+1 {{'moe.gate' op on memrefs has no results, got 1}}
  %0 = "moe.gate"(%x, %w, %l) : (memref<4x8xf32>, memref<8x2xf32>, memref<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @missing_destination(%x: memref<4x8xf32>, %w: memref<8x2xf32>) {
  // expected-error @+1 {{'moe.gate' op expects 1 destination in 'outs', got 0}}
  "moe.gate"(%x, %w) : (memref<4x8xf32>, memref<8x2xf32>) -> ()
  return
}

// -----

func.func @delayed_history(%x: memref<4x8xbf16>, %q: memref<4x8xf8E4M3FN>, %s: memref<f32>, %h: memref<16xf32>, %extra: memref<16xf32>) {
  // expected-error @+1 {{'moe.quantize' op expects 2 to 3 destinations in 'outs', got 4}}
  moe.quantize delayed %x outs(%q, %s, %h, %extra) : memref<4x8xbf16> -> memref<4x8xf8E4M3FN>, memref<f32>, memref<16xf32>, memref<16xf32>
  return
}
