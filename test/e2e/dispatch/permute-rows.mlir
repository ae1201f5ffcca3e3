// RUN: rm -rf %t && mkdir -p %t
// RUN: moe-compile --quiet --target=cpu %s -o %t/ref
// RUN: moe-runner %t/ref --device cpu --iters 1 --warmup 0 --print | FileCheck %s
// RUN: moe-compile --quiet --target=cpu --gpu-schedules %s -o %t/gpu
// RUN: moe-runner %t/gpu --device cpu --iters 1 --warmup 0 --print | FileCheck %s

// moe.permute_rows moves rows of token data to the rows a moe.permute
// chose, on the reference loops and on the GPU schedule (run in order on
// the cpu). The permute is permute-align4.mlir's:
//   rows[t, k] = [[8, 0], [1, 9], [10, 4], [5, 2]], R = 20,
// rows 3, 6, 7 and 11 are padding, rows 12..19 are past the groups.
// So permuted row r = s[t] for rows[t, k] = r:
//   0 ← s0, 1 ← s1, 2 ← s3, 4 ← s2, 5 ← s3, 8 ← s0, 9 ← s1, 10 ← s2,
// and every other row is zero. The destinations start as 9s, so a row
// left unwritten shows. The bf16 case copies by 16-byte vectors (8
// columns); the f32 one with 3 columns by elements. Token 3's second pair
// in @dropped names expert 7 (out of range): its row is -1 and nothing
// lands for it.
func.func @permute_rows_f32() -> (tensor<20x3xf32>) {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %idx = arith.constant dense<[[3, 0], [0, 3], [3, 2], [2, 0]]> : tensor<4x2xi32>
  %s = arith.constant dense<[[10.0, 11.0, 12.0], [20.0, 21.0, 22.0], [30.0, 31.0, 32.0], [40.0, 41.0, 42.0]]> : tensor<4x3xf32>
  %p0 = tensor.empty() : tensor<20x2xf32>
  %g0 = tensor.empty() : tensor<4xi32>
  %r0 = tensor.empty() : tensor<4x2xi32>
  %p, %g, %rows = moe.permute %x, %idx experts 4 align 4 outs(%p0, %g0, %r0) : tensor<4x2xf32>, tensor<4x2xi32> -> tensor<20x2xf32>, tensor<4xi32>, tensor<4x2xi32>
  %nines = arith.constant dense<9.0> : tensor<20x3xf32>
  %ps = moe.permute_rows %s, %rows outs(%nines) : tensor<4x3xf32>, tensor<4x2xi32> -> tensor<20x3xf32>
  return %ps : tensor<20x3xf32>
}
// CHECK-LABEL: entry permute_rows_f32
// CHECK: result0 = [10, 11, 12, 20, 21, 22, 40, 41, 42, 0, 0, 0, 30, 31, 32, 40, 41, 42, 0, 0, 0, 0, 0, 0, 10, 11, 12, 20, 21, 22, 30, 31, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]

func.func @permute_rows_bf16() -> (tensor<20x8xbf16>) {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %idx = arith.constant dense<[[3, 0], [0, 3], [3, 2], [2, 0]]> : tensor<4x2xi32>
  %s = arith.constant dense<[[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.5], [3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.5], [4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.5]]> : tensor<4x8xbf16>
  %p0 = tensor.empty() : tensor<20x2xf32>
  %g0 = tensor.empty() : tensor<4xi32>
  %r0 = tensor.empty() : tensor<4x2xi32>
  %p, %g, %rows = moe.permute %x, %idx experts 4 align 4 outs(%p0, %g0, %r0) : tensor<4x2xf32>, tensor<4x2xi32> -> tensor<20x2xf32>, tensor<4xi32>, tensor<4x2xi32>
  %nines = arith.constant dense<9.0> : tensor<20x8xbf16>
  %ps = moe.permute_rows %s, %rows outs(%nines) : tensor<4x8xbf16>, tensor<4x2xi32> -> tensor<20x8xbf16>
  return %ps : tensor<20x8xbf16>
}
// CHECK-LABEL: entry permute_rows_bf16
// CHECK: result0 = [1, 1, 1, 1, 1, 1, 1, 1.5, 2, 2, 2, 2, 2, 2, 2, 2.5, 4, 4, 4, 4, 4, 4, 4, 4.5, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3, 3, 3.5, 4, 4, 4, 4, 4, 4, 4, 4.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1.5, 2, 2, 2, 2, 2, 2, 2, 2.5, 3, 3, 3, 3, 3, 3, 3, 3.5, 0, 0, 0, 0, 0, 0, 0, 0, 0,

func.func @dropped() -> (tensor<20x3xf32>, tensor<4x2xi32>) {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %idx = arith.constant dense<[[3, 0], [0, 3], [3, 2], [2, 7]]> : tensor<4x2xi32>
  %s = arith.constant dense<[[10.0, 11.0, 12.0], [20.0, 21.0, 22.0], [30.0, 31.0, 32.0], [40.0, 41.0, 42.0]]> : tensor<4x3xf32>
  %p0 = tensor.empty() : tensor<20x2xf32>
  %g0 = tensor.empty() : tensor<4xi32>
  %r0 = tensor.empty() : tensor<4x2xi32>
  %p, %g, %rows = moe.permute %x, %idx experts 4 align 4 outs(%p0, %g0, %r0) : tensor<4x2xf32>, tensor<4x2xi32> -> tensor<20x2xf32>, tensor<4xi32>, tensor<4x2xi32>
  %nines = arith.constant dense<9.0> : tensor<20x3xf32>
  %ps = moe.permute_rows %s, %rows outs(%nines) : tensor<4x3xf32>, tensor<4x2xi32> -> tensor<20x3xf32>
  return %ps, %rows : tensor<20x3xf32>, tensor<4x2xi32>
}
// Without (3, 1): e0 = 2 rows (t0, t1), e2 = 2 (t2, t3), e3 = 3; padded
// sizes [4, 0, 4, 4], rows [[8, 0], [1, 9], [10, 4], [5, -1]].
// CHECK-LABEL: entry dropped
// CHECK: result0 = [10, 11, 12, 20, 21, 22, 0, 0, 0, 0, 0, 0, 30, 31, 32, 40, 41, 42, 0, 0, 0, 0, 0, 0, 10, 11, 12, 20, 21, 22, 30, 31, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// CHECK: result1 = [8, 0, 1, 9, 10, 4, 5, -1]
