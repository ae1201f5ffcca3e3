// Grouped matmuls that convert-grouped-matmul-to-nvgpu generates kernels for
// on sm_90a, each an entry of its own; group sizes come from
// write-group-sizes.py (moe-runner --inputs), a and b are random.
//   balanced:       4 groups of 128 rows; N = 192 is not a multiple of the
//                   128-column tile (the second column tile is half outside)
//   skewed_empty:   8 groups with empty ones, sizes not multiples of the
//                   64-row tile, 106 rows past the last group (zero)
//   one_group:      every row in group 2, the others empty
//   f32_out:        the skewed sizes with an f32 output
//   large_groups:   2 groups of 700 and 324 rows (R / G >= 256: 128-row tiles)
//   many_groups:    300 groups (more than the kernel's 256 threads: the
//                   size scan takes two entries a thread), sizes 0..12
//   nk_skewed:      weight_layout nk (b [G, N, K], K-major for wgmma) with
//                   the skewed sizes; N = 192, so a 128-column tile of b
//                   reaches into the next expert's rows (masked)
//   nk_large:       nk with 128-row tiles (two consumer warpgroups)
// Weight gradients (the groups cut the reduction; both operands are read
// transposed, rows of the next group zeroed in a group's last k-step):
//   wgrad_skewed:   skewed sizes (empty groups, sizes not multiples of the
//                   64-row k-step, 106 rows past the last group), f32 db,
//                   N = 192 not a multiple of the 128-column tile
//   wgrad_bf16:     groups of 700 and 324 rows, Kd = 192 (64-row tiles),
//                   bf16 db
//   wgrad_nk:       weight_layout nk (db [G, N, Kd] = dcᵀ · a per group)
//   wgrad_one_group: every row in group 2 (its tiles reduce 512 rows, the
//                   other groups' db exactly zero)
//   wgrad_many_groups: the 300 groups of many_groups
//   wgrad_pingpong: bf16 db with 128 x 128 tiles (pingpong: each consumer
//                   warpgroup runs whole tiles, the k-step count carried
//                   over tiles of different groups' k-steps), the skewed
//                   sizes (empty groups, partial k-steps zeroed by the
//                   tile's one consumer)
//   wgrad_pingpong_many: the same over the 300 groups of many_groups (each
//                   CTA runs 2 or 3 tiles of 0 or 1 k-steps)
// Epilogues (the fusion hook; applied to the accumulator registers):
//   gated_silu:     gate and up as one GEMM, b [G, K, 2F] (kn) with F = 160:
//                   SiLU(gate) · up in the epilogue; the skewed sizes; F is
//                   not a multiple of the 64-column half tile, so the last
//                   tile's gate box reads up columns and its up box reaches
//                   past 2F (both masked)
//   gated_nk_scaled: b [G, 2F, K] (nk), 128-row tiles, SiLU(gate) · up ·
//                   row_scale[r], f32 output
//   row_scaled:     one accumulator a column times row_scale[r] (the router
//                   weight of a permuted row), the skewed sizes: the rows
//                   past the last group are the epilogue of zero
//   glu_adjoint:    epilogue inputs (gate bf16, up f32) and three
//                   destinations (d_gate bf16, d_up f32, h bf16): the
//                   backward's activation adjoint, nk, the skewed sizes
//                   (64-row tiles: the epilogue on the registers)
//   glu_adjoint_pingpong: the same on 128-row pingpong tiles (K = 256,
//                   groups of 600 and 324 rows, 100 zero rows): the
//                   epilogue over the staged bf16 boxes
// Accumulate (the fusion hook of moe-fuse's accumulate-matmuls):
//   accumulated_sum: a1 · b1 + a2 · b2 as the second matmul accumulating
//                   into the first (nk, the skewed sizes: the rows past the
//                   last group stay the first product's zeros); the two are
//                   one kernel with both products' k-steps in its main loop
//   accumulated_sum_kn_f32: the same pair as one kernel with kn weights, an
//                   f32 output and K = 64 then 192 (b2's k-steps start at
//                   each group's own K offset), the skewed sizes
//   accumulated_into_input: a product added to an input c (no product to
//                   pair with: the kernel loads c before its main loop),
//                   the skewed sizes
// 256-column tiles (m64n256k16 for every entry with --gemm-block-n=256; auto
// takes them for the weight gradients and grouped matmuls with N > 4096):
//   wide_kn:        kn, N = 512, groups of 700 and 324 rows (128-row tiles:
//                   TMA-stored boxes and, at the group boundary, the f32
//                   rows stored in two 128-column slabs)
//   wide_nk:        nk, N = 512 (B's K-major box is 256 rows), the same sizes
//   wide_gated:     gate|up halves (kn, F = 256: c's tiles 128 wide, B as
//                   two 64 x 128 halves), SiLU(gate) · up, the same sizes
//   wide_gated_nk_f32: gate|up halves (nk, F = 128: two K-major boxes of 128
//                   rows), f32 output, the skewed sizes (64-row tiles)
// K not a multiple of the 64-wide k-step (a last, partial k-step):
//   k_tail_kn:      K = 96, kn, the skewed sizes; b from write-group-sizes.py
//                   with NaN weights in the empty group 2, whose first rows
//                   the last k-step of group 1 (300 rows) brings in: they
//                   must be zeroed, not multiplied by A's zero columns
//   k_tail_nk:      K = 32 (the small example's), nk, the skewed sizes
//   wgrad_m_tail:   a weight gradient with Kd = 96 db rows (the second
//                   64-row tile partial), bf16 db, the skewed sizes
//   wgrad_nk_m_tail: nk, db [G, N = 32, Kd] f32 (one partial tile)
// Panel order (a group's tiles panel after panel of n-tiles; the test
// forces 2-tile panels with --gemm-panel-tiles=2, the default takes 8 or 11):
//   panels_kn:      N = 640 (5 column tiles: panels of 2, 2, 1), groups of
//                   700 and 324 rows (6 and 3 128-row tiles)
//   panels_wgrad:   the weight gradient of the same shape, f32 db [2, 256,
//                   640] (2 x 5 tiles a group)
// A layer (test/e2e/fusion/Inputs/gate-up-layer.mlir, copied): with
// gemm=generated, moe-lower-to-gpu's moe-fuse gives its gate|up matmul the
// SiLU(gate) · up epilogue; the CPU reference runs it unfused.
func.func @balanced(%a: tensor<512x128xbf16>, %b: tensor<4x128x192xbf16>, %sizes: tensor<4xi32> {moe.name = "sizes"}) -> tensor<512x192xbf16> {
  %e = tensor.empty() : tensor<512x192xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<512x128xbf16>, tensor<4x128x192xbf16>, tensor<4xi32> -> tensor<512x192xbf16>
  return %c : tensor<512x192xbf16>
}
func.func @skewed_empty(%a: tensor<512x64xbf16>, %b: tensor<8x64x256xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x256xbf16> {
  %e = tensor.empty() : tensor<512x256xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<512x64xbf16>, tensor<8x64x256xbf16>, tensor<8xi32> -> tensor<512x256xbf16>
  return %c : tensor<512x256xbf16>
}
func.func @one_group(%a: tensor<512x192xbf16>, %b: tensor<4x192x128xbf16>, %sizes: tensor<4xi32> {moe.name = "sizes"}) -> tensor<512x128xbf16> {
  %e = tensor.empty() : tensor<512x128xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<512x192xbf16>, tensor<4x192x128xbf16>, tensor<4xi32> -> tensor<512x128xbf16>
  return %c : tensor<512x128xbf16>
}
func.func @f32_out(%a: tensor<512x64xbf16>, %b: tensor<8x64x256xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x256xf32> {
  %e = tensor.empty() : tensor<512x256xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<512x64xbf16>, tensor<8x64x256xbf16>, tensor<8xi32> -> tensor<512x256xf32>
  return %c : tensor<512x256xf32>
}
func.func @large_groups(%a: tensor<1024x256xbf16>, %b: tensor<2x256x384xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> tensor<1024x384xbf16> {
  %e = tensor.empty() : tensor<1024x384xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<1024x256xbf16>, tensor<2x256x384xbf16>, tensor<2xi32> -> tensor<1024x384xbf16>
  return %c : tensor<1024x384xbf16>
}
func.func @many_groups(%a: tensor<2048x64xbf16>, %b: tensor<300x64x64xbf16>, %sizes: tensor<300xi32> {moe.name = "sizes"}) -> tensor<2048x64xbf16> {
  %e = tensor.empty() : tensor<2048x64xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<2048x64xbf16>, tensor<300x64x64xbf16>, tensor<300xi32> -> tensor<2048x64xbf16>
  return %c : tensor<2048x64xbf16>
}
func.func @nk_skewed(%a: tensor<512x128xbf16>, %b: tensor<8x192x128xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x192xbf16> {
  %e = tensor.empty() : tensor<512x192xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<512x128xbf16>, tensor<8x192x128xbf16>, tensor<8xi32> -> tensor<512x192xbf16>
  return %c : tensor<512x192xbf16>
}
func.func @nk_large(%a: tensor<1024x256xbf16>, %b: tensor<2x384x256xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> tensor<1024x384xbf16> {
  %e = tensor.empty() : tensor<1024x384xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<1024x256xbf16>, tensor<2x384x256xbf16>, tensor<2xi32> -> tensor<1024x384xbf16>
  return %c : tensor<1024x384xbf16>
}
func.func @k_tail_kn(%a: tensor<512x96xbf16>, %b: tensor<8x96x192xbf16> {moe.name = "b"}, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x192xbf16> {
  %e = tensor.empty() : tensor<512x192xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<512x96xbf16>, tensor<8x96x192xbf16>, tensor<8xi32> -> tensor<512x192xbf16>
  return %c : tensor<512x192xbf16>
}
func.func @k_tail_nk(%a: tensor<512x32xbf16>, %b: tensor<8x192x32xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x192xbf16> {
  %e = tensor.empty() : tensor<512x192xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<512x32xbf16>, tensor<8x192x32xbf16>, tensor<8xi32> -> tensor<512x192xbf16>
  return %c : tensor<512x192xbf16>
}
func.func @wgrad_m_tail(%a: tensor<512x96xbf16>, %dc: tensor<512x192xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x96x192xbf16> {
  %e = tensor.empty() : tensor<8x96x192xbf16>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) : tensor<512x96xbf16>, tensor<512x192xbf16>, tensor<8xi32> -> tensor<8x96x192xbf16>
  return %db : tensor<8x96x192xbf16>
}
func.func @wgrad_nk_m_tail(%a: tensor<512x128xbf16>, %dc: tensor<512x32xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x32x128xf32> {
  %e = tensor.empty() : tensor<8x32x128xf32>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<512x128xbf16>, tensor<512x32xbf16>, tensor<8xi32> -> tensor<8x32x128xf32>
  return %db : tensor<8x32x128xf32>
}
func.func @panels_kn(%a: tensor<1024x128xbf16>, %b: tensor<2x128x640xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> tensor<1024x640xbf16> {
  %e = tensor.empty() : tensor<1024x640xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<1024x128xbf16>, tensor<2x128x640xbf16>, tensor<2xi32> -> tensor<1024x640xbf16>
  return %c : tensor<1024x640xbf16>
}
func.func @panels_wgrad(%a: tensor<1024x256xbf16>, %dc: tensor<1024x640xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> tensor<2x256x640xf32> {
  %e = tensor.empty() : tensor<2x256x640xf32>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) : tensor<1024x256xbf16>, tensor<1024x640xbf16>, tensor<2xi32> -> tensor<2x256x640xf32>
  return %db : tensor<2x256x640xf32>
}
func.func @wgrad_skewed(%a: tensor<512x128xbf16>, %dc: tensor<512x192xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x128x192xf32> {
  %e = tensor.empty() : tensor<8x128x192xf32>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) : tensor<512x128xbf16>, tensor<512x192xbf16>, tensor<8xi32> -> tensor<8x128x192xf32>
  return %db : tensor<8x128x192xf32>
}
func.func @wgrad_bf16(%a: tensor<1024x192xbf16>, %dc: tensor<1024x256xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> tensor<2x192x256xbf16> {
  %e = tensor.empty() : tensor<2x192x256xbf16>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) : tensor<1024x192xbf16>, tensor<1024x256xbf16>, tensor<2xi32> -> tensor<2x192x256xbf16>
  return %db : tensor<2x192x256xbf16>
}
func.func @wgrad_nk(%a: tensor<512x256xbf16>, %dc: tensor<512x128xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x128x256xf32> {
  %e = tensor.empty() : tensor<8x128x256xf32>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<512x256xbf16>, tensor<512x128xbf16>, tensor<8xi32> -> tensor<8x128x256xf32>
  return %db : tensor<8x128x256xf32>
}
func.func @wgrad_one_group(%a: tensor<512x128xbf16>, %dc: tensor<512x128xbf16>, %sizes: tensor<4xi32> {moe.name = "sizes"}) -> tensor<4x128x128xf32> {
  %e = tensor.empty() : tensor<4x128x128xf32>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) : tensor<512x128xbf16>, tensor<512x128xbf16>, tensor<4xi32> -> tensor<4x128x128xf32>
  return %db : tensor<4x128x128xf32>
}
func.func @wgrad_many_groups(%a: tensor<2048x64xbf16>, %dc: tensor<2048x64xbf16>, %sizes: tensor<300xi32> {moe.name = "sizes"}) -> tensor<300x64x64xf32> {
  %e = tensor.empty() : tensor<300x64x64xf32>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) : tensor<2048x64xbf16>, tensor<2048x64xbf16>, tensor<300xi32> -> tensor<300x64x64xf32>
  return %db : tensor<300x64x64xf32>
}
func.func @wgrad_pingpong(%a: tensor<512x256xbf16>, %dc: tensor<512x384xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<8x256x384xbf16> {
  %e = tensor.empty() : tensor<8x256x384xbf16>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) : tensor<512x256xbf16>, tensor<512x384xbf16>, tensor<8xi32> -> tensor<8x256x384xbf16>
  return %db : tensor<8x256x384xbf16>
}
func.func @wgrad_pingpong_many(%a: tensor<2048x128xbf16>, %dc: tensor<2048x128xbf16>, %sizes: tensor<300xi32> {moe.name = "sizes"}) -> tensor<300x128x128xbf16> {
  %e = tensor.empty() : tensor<300x128x128xbf16>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%e) : tensor<2048x128xbf16>, tensor<2048x128xbf16>, tensor<300xi32> -> tensor<300x128x128xbf16>
  return %db : tensor<300x128x128xbf16>
}
func.func @gated_silu(%a: tensor<512x128xbf16>, %b: tensor<8x128x320xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x160xbf16> {
  %e = tensor.empty() : tensor<512x160xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %neg = arith.negf %gate : f32
    %exp = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %exp : f32
    %silu = arith.divf %gate, %den : f32
    %v = arith.mulf %silu, %up : f32
    moe.yield %v : f32
  } : tensor<512x128xbf16>, tensor<8x128x320xbf16>, tensor<8xi32> -> tensor<512x160xbf16>
  return %c : tensor<512x160xbf16>
}
func.func @gated_nk_scaled(%a: tensor<1024x256xbf16>, %b: tensor<2x384x256xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}, %scale: tensor<1024xf32>) -> tensor<1024x192xf32> {
  %e = tensor.empty() : tensor<1024x192xf32>
  %c = moe.grouped_matmul %a, %b, %sizes row_scale(%scale : tensor<1024xf32>) outs(%e) epilogue {
  ^bb0(%gate: f32, %up: f32, %s: f32):
    %neg = arith.negf %gate : f32
    %exp = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %exp : f32
    %silu = arith.divf %gate, %den : f32
    %v = arith.mulf %silu, %up : f32
    %w = arith.mulf %v, %s : f32
    moe.yield %w : f32
  } {weight_layout = #moe<weight_layout nk>} : tensor<1024x256xbf16>, tensor<2x384x256xbf16>, tensor<2xi32> -> tensor<1024x192xf32>
  return %c : tensor<1024x192xf32>
}
// Gate and up as two weights (up_weight, moe-fuse gate-up-weights): b_up's
// boxes come from a tensor map of their own. up_weight_kn: F = 160 (the
// second 64-column output tile partial), skewed sizes, three destinations
// stored from the registers: h, gate (bf16) and up (f32), as the forward
// writes the residuals; up_weight_nk: weight_layout nk, 128-row tiles.
func.func @up_weight_kn(%a: tensor<512x128xbf16>, %bg: tensor<8x128x160xbf16>, %bu: tensor<8x128x160xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> (tensor<512x160xbf16>, tensor<512x160xbf16>, tensor<512x160xf32>) {
  %e0 = tensor.empty() : tensor<512x160xbf16>
  %e1 = tensor.empty() : tensor<512x160xbf16>
  %e2 = tensor.empty() : tensor<512x160xf32>
  %h, %g, %u = moe.grouped_matmul %a, %bg, %sizes up_weight(%bu : tensor<8x128x160xbf16>) outs(%e0, %e1, %e2) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %neg = arith.negf %gate : f32
    %exp = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %exp : f32
    %silu = arith.divf %gate, %den : f32
    %v = arith.mulf %silu, %up : f32
    moe.yield %v, %gate, %up : f32, f32, f32
  } : tensor<512x128xbf16>, tensor<8x128x160xbf16>, tensor<8xi32> -> tensor<512x160xbf16>, tensor<512x160xbf16>, tensor<512x160xf32>
  return %h, %g, %u : tensor<512x160xbf16>, tensor<512x160xbf16>, tensor<512x160xf32>
}
func.func @up_weight_nk(%a: tensor<1024x256xbf16>, %bg: tensor<2x192x256xbf16>, %bu: tensor<2x192x256xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> tensor<1024x192xbf16> {
  %e = tensor.empty() : tensor<1024x192xbf16>
  %c = moe.grouped_matmul %a, %bg, %sizes up_weight(%bu : tensor<2x192x256xbf16>) outs(%e) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %r = arith.maximumf %gate, %up : f32
    %v = arith.mulf %r, %up : f32
    moe.yield %v : f32
  } {weight_layout = #moe<weight_layout nk>} : tensor<1024x256xbf16>, tensor<2x192x256xbf16>, tensor<2xi32> -> tensor<1024x192xbf16>
  return %c : tensor<1024x192xbf16>
}
// up_weight_pingpong: 128 x 128 tiles of 4 k-steps (pingpong: each
// consumer warpgroup runs whole tiles, the epilogue of one overlapping the
// other's main loop), groups of 700 and 324 rows, three destinations.
func.func @up_weight_pingpong(%a: tensor<1024x256xbf16>, %bg: tensor<2x256x192xbf16>, %bu: tensor<2x256x192xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> (tensor<1024x192xbf16>, tensor<1024x192xbf16>, tensor<1024x192xbf16>) {
  %e0 = tensor.empty() : tensor<1024x192xbf16>
  %e1 = tensor.empty() : tensor<1024x192xbf16>
  %e2 = tensor.empty() : tensor<1024x192xbf16>
  %h, %g, %u = moe.grouped_matmul %a, %bg, %sizes up_weight(%bu : tensor<2x256x192xbf16>) outs(%e0, %e1, %e2) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %neg = arith.negf %gate : f32
    %exp = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %exp : f32
    %silu = arith.divf %gate, %den : f32
    %v = arith.mulf %silu, %up : f32
    moe.yield %v, %gate, %up : f32, f32, f32
  } : tensor<1024x256xbf16>, tensor<2x256x192xbf16>, tensor<2xi32> -> tensor<1024x192xbf16>, tensor<1024x192xbf16>, tensor<1024x192xbf16>
  return %h, %g, %u : tensor<1024x192xbf16>, tensor<1024x192xbf16>, tensor<1024x192xbf16>
}
// The activation adjoint in the epilogue (moe-fuse elementwise-epilogue and
// recompute-in-epilogue): dh = dy · W_downᵀ (nk) with the saved gate (bf16)
// and up (f32) as epilogue inputs, and three destinations: d_gate (bf16),
// d_up (f32) and the recomputed SiLU(gate) · up (bf16), each stored by
// threads with c's row mask; skewed sizes with empty groups and zero rows
// past the last group (where dh is 0).
func.func @glu_adjoint(%dy: tensor<512x128xbf16>, %w: tensor<8x192x128xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}, %gate: tensor<512x192xbf16>, %up: tensor<512x192xf32>) -> (tensor<512x192xbf16>, tensor<512x192xf32>, tensor<512x192xbf16>) {
  %e0 = tensor.empty() : tensor<512x192xbf16>
  %e1 = tensor.empty() : tensor<512x192xf32>
  %e2 = tensor.empty() : tensor<512x192xbf16>
  %dg, %du, %h = moe.grouped_matmul %dy, %w, %sizes epilogue_inputs(%gate, %up : tensor<512x192xbf16>, tensor<512x192xf32>) outs(%e0, %e1, %e2) epilogue {
  ^bb0(%dh: f32, %g: f32, %u: f32):
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %g : f32
    %exp = math.exp %neg : f32
    %den = arith.addf %one, %exp : f32
    %sig = arith.divf %one, %den : f32
    %silu = arith.mulf %g, %sig : f32
    %oneMinus = arith.subf %one, %sig : f32
    %gs = arith.mulf %g, %oneMinus : f32
    %inner = arith.addf %gs, %one : f32
    %dsilu = arith.mulf %sig, %inner : f32
    %dhu = arith.mulf %dh, %u : f32
    %dgate = arith.mulf %dhu, %dsilu : f32
    %dup = arith.mulf %dh, %silu : f32
    %hv = arith.mulf %silu, %u : f32
    moe.yield %dgate, %dup, %hv : f32, f32, f32
  } {weight_layout = #moe<weight_layout nk>} : tensor<512x128xbf16>, tensor<8x192x128xbf16>, tensor<8xi32> -> tensor<512x192xbf16>, tensor<512x192xf32>, tensor<512x192xbf16>
  return %dg, %du, %h : tensor<512x192xbf16>, tensor<512x192xf32>, tensor<512x192xbf16>
}
// The same on 128-row pingpong tiles (groups of 600 and 324 rows, 100 zero
// rows past them; K = 256: the 4 k-steps pingpong needs): the epilogue runs
// over the staged bf16 boxes, 8 columns a thread; N = 192 leaves the second
// column tile half outside c.
func.func @glu_adjoint_pingpong(%dy: tensor<1024x256xbf16>, %w: tensor<2x192x256xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}, %gate: tensor<1024x192xbf16>, %up: tensor<1024x192xf32>) -> (tensor<1024x192xbf16>, tensor<1024x192xf32>, tensor<1024x192xbf16>) {
  %e0 = tensor.empty() : tensor<1024x192xbf16>
  %e1 = tensor.empty() : tensor<1024x192xf32>
  %e2 = tensor.empty() : tensor<1024x192xbf16>
  %dg, %du, %h = moe.grouped_matmul %dy, %w, %sizes epilogue_inputs(%gate, %up : tensor<1024x192xbf16>, tensor<1024x192xf32>) outs(%e0, %e1, %e2) epilogue {
  ^bb0(%dh: f32, %g: f32, %u: f32):
    %one = arith.constant 1.0 : f32
    %neg = arith.negf %g : f32
    %exp = math.exp %neg : f32
    %den = arith.addf %one, %exp : f32
    %sig = arith.divf %one, %den : f32
    %silu = arith.mulf %g, %sig : f32
    %oneMinus = arith.subf %one, %sig : f32
    %gs = arith.mulf %g, %oneMinus : f32
    %inner = arith.addf %gs, %one : f32
    %dsilu = arith.mulf %sig, %inner : f32
    %dhu = arith.mulf %dh, %u : f32
    %dgate = arith.mulf %dhu, %dsilu : f32
    %dup = arith.mulf %dh, %silu : f32
    %hv = arith.mulf %silu, %u : f32
    moe.yield %dgate, %dup, %hv : f32, f32, f32
  } {weight_layout = #moe<weight_layout nk>} : tensor<1024x256xbf16>, tensor<2x192x256xbf16>, tensor<2xi32> -> tensor<1024x192xbf16>, tensor<1024x192xf32>, tensor<1024x192xbf16>
  return %dg, %du, %h : tensor<1024x192xbf16>, tensor<1024x192xf32>, tensor<1024x192xbf16>
}
func.func @row_scaled(%a: tensor<512x64xbf16>, %b: tensor<8x64x256xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}, %scale: tensor<512xf32>) -> tensor<512x256xbf16> {
  %e = tensor.empty() : tensor<512x256xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes row_scale(%scale : tensor<512xf32>) outs(%e) epilogue {
  ^bb0(%acc: f32, %s: f32):
    %v = arith.mulf %acc, %s : f32
    moe.yield %v : f32
  } : tensor<512x64xbf16>, tensor<8x64x256xbf16>, tensor<8xi32> -> tensor<512x256xbf16>
  return %c : tensor<512x256xbf16>
}
func.func @accumulated_sum(%a1: tensor<512x128xbf16>, %b1: tensor<8x192x128xbf16>, %a2: tensor<512x128xbf16>, %b2: tensor<8x192x128xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x192xbf16> {
  %e = tensor.empty() : tensor<512x192xbf16>
  %p = moe.grouped_matmul %a1, %b1, %sizes outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<512x128xbf16>, tensor<8x192x128xbf16>, tensor<8xi32> -> tensor<512x192xbf16>
  %c = moe.grouped_matmul %a2, %b2, %sizes outs(%p) {accumulate, weight_layout = #moe<weight_layout nk>} : tensor<512x128xbf16>, tensor<8x192x128xbf16>, tensor<8xi32> -> tensor<512x192xbf16>
  return %c : tensor<512x192xbf16>
}
func.func @accumulated_sum_kn_f32(%a1: tensor<512x64xbf16>, %b1: tensor<8x64x192xbf16>, %a2: tensor<512x192xbf16>, %b2: tensor<8x192x192xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x192xf32> {
  %e = tensor.empty() : tensor<512x192xf32>
  %p = moe.grouped_matmul %a1, %b1, %sizes outs(%e) : tensor<512x64xbf16>, tensor<8x64x192xbf16>, tensor<8xi32> -> tensor<512x192xf32>
  %c = moe.grouped_matmul %a2, %b2, %sizes outs(%p) {accumulate} : tensor<512x192xbf16>, tensor<8x192x192xbf16>, tensor<8xi32> -> tensor<512x192xf32>
  return %c : tensor<512x192xf32>
}
func.func @accumulated_into_input(%a: tensor<512x128xbf16>, %b: tensor<8x192x128xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}, %c0: tensor<512x192xbf16>) -> tensor<512x192xbf16> {
  %c = moe.grouped_matmul %a, %b, %sizes outs(%c0) {accumulate, weight_layout = #moe<weight_layout nk>} : tensor<512x128xbf16>, tensor<8x192x128xbf16>, tensor<8xi32> -> tensor<512x192xbf16>
  return %c : tensor<512x192xbf16>
}
func.func @wide_kn(%a: tensor<1024x128xbf16>, %b: tensor<2x128x512xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> tensor<1024x512xbf16> {
  %e = tensor.empty() : tensor<1024x512xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) : tensor<1024x128xbf16>, tensor<2x128x512xbf16>, tensor<2xi32> -> tensor<1024x512xbf16>
  return %c : tensor<1024x512xbf16>
}
func.func @wide_nk(%a: tensor<1024x128xbf16>, %b: tensor<2x512x128xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> tensor<1024x512xbf16> {
  %e = tensor.empty() : tensor<1024x512xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) {weight_layout = #moe<weight_layout nk>} : tensor<1024x128xbf16>, tensor<2x512x128xbf16>, tensor<2xi32> -> tensor<1024x512xbf16>
  return %c : tensor<1024x512xbf16>
}
func.func @wide_gated(%a: tensor<1024x128xbf16>, %b: tensor<2x128x512xbf16>, %sizes: tensor<2xi32> {moe.name = "sizes"}) -> tensor<1024x256xbf16> {
  %e = tensor.empty() : tensor<1024x256xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %neg = arith.negf %gate : f32
    %exp = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %exp : f32
    %silu = arith.divf %gate, %den : f32
    %v = arith.mulf %silu, %up : f32
    moe.yield %v : f32
  } : tensor<1024x128xbf16>, tensor<2x128x512xbf16>, tensor<2xi32> -> tensor<1024x256xbf16>
  return %c : tensor<1024x256xbf16>
}
func.func @wide_gated_nk_f32(%a: tensor<512x128xbf16>, %b: tensor<8x256x128xbf16>, %sizes: tensor<8xi32> {moe.name = "sizes"}) -> tensor<512x128xf32> {
  %e = tensor.empty() : tensor<512x128xf32>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%e) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %neg = arith.negf %gate : f32
    %exp = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %exp : f32
    %silu = arith.divf %gate, %den : f32
    %v = arith.mulf %silu, %up : f32
    moe.yield %v : f32
  } {weight_layout = #moe<weight_layout nk>} : tensor<512x128xbf16>, tensor<8x256x128xbf16>, tensor<8xi32> -> tensor<512x128xf32>
  return %c : tensor<512x128xf32>
}
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
