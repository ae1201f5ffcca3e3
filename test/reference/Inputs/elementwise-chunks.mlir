// Elementwise linalg ops that the GPU target runs as 16-byte chunks
// (convert-elementwise-linalg-to-vector-rows), in each of its schedules,
// and one it leaves one thread per element. moe-compile --gpu-schedules runs
// the chunks on the CPU; test/reference/gpu-schedules.test compares them
// with the reference lowering, test/e2e/memcheck/gpu-schedules.test checks
// that every output element is written.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#col2 = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rank0 = affine_map<(d0, d1, d2) -> ()>
#outer_last = affine_map<(d0, d1, d2) -> (d0, d2)>

// The SiLU-gated unit's adjoint as autodiff writes it (three bf16 inputs,
// two bf16 outputs): rows of 512 bf16, 64 chunks of 8: a block per row.
func.func @glu_adjoint_rows(%gate: tensor<6x512xbf16>, %up: tensor<6x512xbf16>,
    %dh: tensor<6x512xbf16>) -> (tensor<6x512xbf16>, tensor<6x512xbf16>) {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<6x512xbf16>
  %e1 = tensor.empty() : tensor<6x512xbf16>
  %dgate:2 = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2, #id2],
      iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up, %dh : tensor<6x512xbf16>, tensor<6x512xbf16>, tensor<6x512xbf16>)
      outs(%e0, %e1 : tensor<6x512xbf16>, tensor<6x512xbf16>) {
  ^bb0(%g16: bf16, %u16: bf16, %d16: bf16, %o0: bf16, %o1: bf16):
    %g = arith.extf %g16 : bf16 to f32
    %u = arith.extf %u16 : bf16 to f32
    %d = arith.extf %d16 : bf16 to f32
    %ng = arith.negf %g : f32
    %exp = math.exp %ng : f32
    %den = arith.addf %exp, %one : f32
    %silu = arith.divf %g, %den : f32
    %sig = arith.divf %one, %den : f32
    %oms = arith.subf %one, %sig : f32
    %gt = arith.mulf %g, %oms : f32
    %gt1 = arith.addf %gt, %one : f32
    %dsilu = arith.mulf %sig, %gt1 : f32
    %du = arith.mulf %u, %dsilu : f32
    %dg = arith.mulf %d, %du : f32
    %dupf = arith.mulf %d, %silu : f32
    %r0 = arith.truncf %dg : f32 to bf16
    %r1 = arith.truncf %dupf : f32 to bf16
    linalg.yield %r0, %r1 : bf16, bf16
  } -> (tensor<6x512xbf16>, tensor<6x512xbf16>)
  return %dgate#0, %dgate#1 : tensor<6x512xbf16>, tensor<6x512xbf16>
}

// bf16 + bf16 (the sum of two dgrad products), rows of 1024: 128 chunks.
func.func @sum_rows(%a: tensor<4x1024xbf16>, %b: tensor<4x1024xbf16>) -> tensor<4x1024xbf16> {
  %e = tensor.empty() : tensor<4x1024xbf16>
  %s = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x1024xbf16>, tensor<4x1024xbf16>) outs(%e : tensor<4x1024xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %r = arith.addf %x, %y : bf16
    linalg.yield %r : bf16
  } -> tensor<4x1024xbf16>
  return %s : tensor<4x1024xbf16>
}

// bf16 widened to f32, times a per-row scale, plus a per-column bias and the
// column index: rows of 40 (5 chunks of 8): one thread per chunk.
func.func @widen_broadcast(%x: tensor<7x40xbf16>, %scale: tensor<7xf32>,
    %bias: tensor<40xf32>) -> tensor<7x40xf32> {
  %e = tensor.empty() : tensor<7x40xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row2, #col2, #id2],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %scale, %bias : tensor<7x40xbf16>, tensor<7xf32>, tensor<40xf32>)
      outs(%e : tensor<7x40xf32>) {
  ^bb0(%v16: bf16, %s: f32, %b: f32, %o: f32):
    %v = arith.extf %v16 : bf16 to f32
    %j = linalg.index 1 : index
    %j32 = arith.index_cast %j : index to i32
    %jf = arith.sitofp %j32 : i32 to f32
    %m = arith.mulf %v, %s : f32
    %a = arith.addf %m, %b : f32
    %t = arith.addf %a, %jf : f32
    linalg.yield %t : f32
  } -> tensor<7x40xf32>
  return %r : tensor<7x40xf32>
}

// Rank 3, f32 rows of 256 (64 chunks of 4): a block per (i, j) row, with a
// rank-0 factor and an operand indexed (i, k) read along k.
func.func @rank3_rows(%a: tensor<2x3x256xf32>, %c: tensor<f32>,
    %w: tensor<2x256xf32>) -> tensor<2x3x256xf32> {
  %e = tensor.empty() : tensor<2x3x256xf32>
  %r = linalg.generic {indexing_maps = [#id3, #rank0, #outer_last, #id3],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %c, %w : tensor<2x3x256xf32>, tensor<f32>, tensor<2x256xf32>)
      outs(%e : tensor<2x3x256xf32>) {
  ^bb0(%x: f32, %s: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %s : f32
    %t = arith.addf %m, %y : f32
    linalg.yield %t : f32
  } -> tensor<2x3x256xf32>
  return %r : tensor<2x3x256xf32>
}

// Rows of 5 f32: no chunk width divides them; one thread per element.
func.func @odd_columns(%a: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = arith.mulf %x, %x : f32
    linalg.yield %t : f32
  } -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
