// RUN: rm -rf %t && mkdir -p %t
// RUN: moe-compile --quiet --target=cpu %s -o %t/ref
// RUN: moe-runner %t/ref --device cpu --iters 1 --warmup 0 --print | FileCheck %s
// RUN: moe-compile --quiet --target=cpu --gpu-schedules %s -o %t/gpu
// RUN: moe-runner %t/gpu --device cpu --iters 1 --warmup 0 --print | FileCheck %s

// moe.sort_chunks forward and inverse on the reference loops and on the GPU
// schedule (run in order on the cpu): uneven chunks, empty chunks, rows of x
// past the chunks that must not be copied, and output rows past them that
// must be zeroed (the destinations start as 9s, so a row left unwritten
// shows).
//
// Derivation (moe.sort_chunks): counts = [2, 1, 0, 2, 2, 0], sizes of
// length C = 2, so P = 3 and chunk (p, c) has counts[2p + c] rows:
//   (0,0) 2  (0,1) 1  (1,0) 0  (1,1) 2  (2,0) 2  (2,1) 0;  Σ = 7.
// x = rows r0..r8 with r_i = [i+1, -(i+1)], in (p, c) order:
//   (0,0) = r0 r1, (0,1) = r2, (1,1) = r3 r4, (2,0) = r5 r6; r7, r8 unused.
// Forward, output in (c, p) order:
//   c = 0: (0,0) r0 r1, (1,0) -, (2,0) r5 r6;  c = 1: (0,1) r2, (1,1) r3 r4,
//   (2,1) -;  rows 7, 8 zero.
//   sizes[c] = Σ_p counts[2p + c] = [2+0+2, 1+2+0] = [4, 3].
// Inverse of that output (same counts): back to (p, c) order, r0..r6, rows
// 7, 8 zero; sizes of length P = 3: sizes[p] = Σ_c = [3, 2, 2].
func.func @sort_chunks() -> (tensor<9x2xf32>, tensor<2xi32>, tensor<9x2xf32>, tensor<3xi32>) {
  %x = arith.constant dense<[[1.0, -1.0], [2.0, -2.0], [3.0, -3.0], [4.0, -4.0], [5.0, -5.0], [6.0, -6.0], [7.0, -7.0], [8.0, -8.0], [9.0, -9.0]]> : tensor<9x2xf32>
  %counts = arith.constant dense<[2, 1, 0, 2, 2, 0]> : tensor<6xi32>
  %nines = arith.constant dense<9.0> : tensor<9x2xf32>
  %sizes0 = arith.constant dense<9> : tensor<2xi32>
  %psizes0 = arith.constant dense<9> : tensor<3xi32>
  %y, %sizes = moe.sort_chunks %x, %counts outs(%nines, %sizes0) : tensor<9x2xf32>, tensor<6xi32> -> tensor<9x2xf32>, tensor<2xi32>
  %z, %psizes = moe.sort_chunks inverse %y, %counts outs(%nines, %psizes0) : tensor<9x2xf32>, tensor<6xi32> -> tensor<9x2xf32>, tensor<3xi32>
  return %y, %sizes, %z, %psizes : tensor<9x2xf32>, tensor<2xi32>, tensor<9x2xf32>, tensor<3xi32>
}
// CHECK: result0 = [1, -1, 2, -2, 6, -6, 7, -7, 3, -3, 4, -4, 5, -5, 0, 0, 0, 0]
// CHECK: result1 = [4, 3]
// CHECK: result2 = [1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 0, 0, 0, 0]
// CHECK: result3 = [3, 2, 2]
