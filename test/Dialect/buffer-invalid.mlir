// RUN: moe-opt %s -split-input-file -verify-diagnostics

// The buffer forms obey the rules of the tensor forms, on the buffers'
// shapes (one shared verifier per op).

func.func @gate_h_mismatch(%x: memref<4x8xf32>, %w: memref<6x2xf32>, %l: memref<4x2xf32>) {
  // expected-error @+1 {{'moe.buffer.gate' op H mismatch: 'x' dim 1 is 8 but 'weight' dim 0 is 6}}
  moe.buffer.gate(%x, %w, %l) : (memref<4x8xf32>, memref<6x2xf32>, memref<4x2xf32>) -> ()
  return
}

// -----

func.func @gate_wrong_output(%x: memref<4x8xf32>, %w: memref<8x2xf32>, %l: memref<4x3xf32>) {
  // expected-error @+1 {{result 'logits' must be [4, 2] of f32 ([T, E] in f32), got tensor<4x3xf32>}}
  moe.buffer.gate(%x, %w, %l) : (memref<4x8xf32>, memref<8x2xf32>, memref<4x3xf32>) -> ()
  return
}

// -----

func.func @topk_k_too_big(%s: memref<4x8xf32>, %w: memref<4x9xf32>, %i: memref<4x9xi32>) {
  // expected-error @+1 {{'moe.buffer.topk' op k = 9 exceeds the number of experts E = 8}}
  moe.buffer.topk(%s, %w, %i) {k = 9 : i64, score_function = #moe<score_function softmax>}
      : (memref<4x8xf32>, memref<4x9xf32>, memref<4x9xi32>) -> ()
  return
}

// -----

func.func @permute_rows(%x: memref<4x2xf32>, %i: memref<4x2xi32>, %p: memref<8x2xf32>, %s: memref<4xi32>, %r: memref<4x2xi32>) {
  // expected-error @+1 {{result 'permuted' must be [20, 2] of f32 (R = T·K + E·(align − 1) with E = 4, align = 4)}}
  moe.buffer.permute(%x, %i, %p, %s, %r) {num_experts = 4 : i64, align = 4 : i64}
      : (memref<4x2xf32>, memref<4x2xi32>, memref<8x2xf32>, memref<4xi32>, memref<4x2xi32>) -> ()
  return
}

// -----

func.func @one_scale(%a: memref<16x256xf8E4M3FN>, %b: memref<2x256x128xf8E4M3FN>, %n: memref<2xi32>, %as: memref<f32>, %c: memref<16x128xbf16>) {
  // expected-error @+1 {{'moe.buffer.grouped_matmul' op takes no scales or two (a_scale, b_scale), got 1}}
  moe.buffer.grouped_matmul(%a, %b, %n, %as, %c)
      : (memref<16x256xf8E4M3FN>, memref<2x256x128xf8E4M3FN>, memref<2xi32>, memref<f32>, memref<16x128xbf16>) -> ()
  return
}

// -----

func.func @quantize_scale_shape(%x: memref<4x256xbf16>, %q: memref<4x256xf8E4M3FN>, %s: memref<4x3xf32>) {
  // expected-error @+1 {{result 'scale' must be [4, 2] of f32 (the scales of recipe block_1x128 for 'input' [4, 256])}}
  moe.buffer.quantize(%x, %q, %s) {recipe = #moe<recipe block_1x128>}
      : (memref<4x256xbf16>, memref<4x256xf8E4M3FN>, memref<4x3xf32>) -> ()
  return
}

// -----

func.func @exchange_no_grid(%x: memref<4x2xf32>, %n: memref<1xi32>, %y: memref<4x2xf32>, %r: memref<1xi32>) {
  // expected-error @+1 {{grid @nowhere does not name a shard.grid}}
  moe.buffer.all_to_all(%x, %n, %y, %r) {grid = @nowhere, grid_axis = 0 : i64}
      : (memref<4x2xf32>, memref<1xi32>, memref<4x2xf32>, memref<1xi32>) -> ()
  return
}
