// RUN: moe-opt %s -split-input-file --convert-linalg-reductions-to-accumulating-loops | FileCheck %s

// convert-linalg-reductions-to-accumulating-loops: a buffer-form linalg reduction becomes a
// parallel loop over its output elements whose reduction loop carries the
// running sum (one load of the output before, one store after).

#lhs = affine_map<(t, h, e) -> (t, e)>
#rhs = affine_map<(t, h, e) -> (h, e)>
#out = affine_map<(t, h, e) -> (t, h)>
// dx[t, h] += dlogits[t, e] * w[h, e] (the router adjoint's shape). Threads
// walk h fastest, so w (small next to the output) is read from a transposed
// copy wt[e, h]: neighbouring threads read neighbouring elements.
// CHECK-LABEL: func.func @matmul_transposed(
// CHECK-SAME:    %[[A:.*]]: memref<16x4xf32>, %[[W:.*]]: memref<8x4xf32>, %[[OUT:.*]]: memref<16x8xf32>)
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK:       %[[WT:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK:       linalg.transpose ins(%[[W]] : memref<8x4xf32>) outs(%[[WT]] : memref<4x8xf32>) permutation = [1, 0]
// CHECK:       scf.parallel (%[[T:.*]], %[[H:.*]]) = (%[[C0]], %[[C0]]) to (%{{.*}}, %{{.*}}) step
// CHECK:         %[[INIT:.*]] = memref.load %[[OUT]][%[[T]], %[[H]]]
// CHECK:         %[[SUM:.*]] = scf.for %[[E:.*]] = %[[C0]] to %[[C4]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK:           %[[X:.*]] = memref.load %[[A]][%[[T]], %[[E]]]
// CHECK:           %[[Y:.*]] = memref.load %[[WT]][%[[E]], %[[H]]]
// CHECK:           %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK:           %[[N:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK:           scf.yield %[[N]] : f32
// CHECK-NOT:       memref.store
// CHECK:         }
// CHECK:         memref.store %[[SUM]], %[[OUT]][%[[T]], %[[H]]]
// CHECK:       memref.dealloc %[[WT]]
// CHECK-NOT:   linalg.generic
func.func @matmul_transposed(%a: memref<16x4xf32>, %w: memref<8x4xf32>, %out: memref<16x8xf32>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #out],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<16x4xf32>, memref<8x4xf32>) outs(%out : memref<16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The same access, but w is as large as the output: no copy pays off.
// CHECK-LABEL: func.func @no_copy_for_large_input(
// CHECK-SAME:    %{{.*}}: memref<2x4xf32>, %[[W:.*]]: memref<8x4xf32>
// CHECK-NOT:   memref.alloc
// CHECK:       memref.load %[[W]][%{{.*}}, %{{.*}}]
func.func @no_copy_for_large_input(%a: memref<2x4xf32>, %w: memref<8x4xf32>, %out: memref<2x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(t, h, e) -> (t, e)>, affine_map<(t, h, e) -> (h, e)>,
                                   affine_map<(t, h, e) -> (t, h)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : memref<2x4xf32>, memref<8x4xf32>) outs(%out : memref<2x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two reduction dimensions (a loop nest carrying the sum), the output's
// dimension in the middle, linalg.index and a scalar operand.
// CHECK-LABEL: func.func @two_reductions(
// CHECK-SAME:    %[[IN:.*]]: memref<3x5x7xf32>, %[[S:.*]]: f32, %[[OUT:.*]]: memref<5xf32>)
// CHECK:       scf.parallel (%[[J:.*]]) =
// CHECK:         %[[INIT:.*]] = memref.load %[[OUT]][%[[J]]]
// CHECK:         scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC0:.*]] = %[[INIT]]) -> (f32) {
// CHECK:           scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC1:.*]] = %[[ACC0]]) -> (f32) {
// CHECK:             %[[V:.*]] = memref.load %[[IN]][%[[I]], %[[J]], %[[K]]]
// CHECK:             arith.index_cast %[[K]] : index to i64
// CHECK:             arith.mulf %[[V]], %[[S]]
// CHECK:             scf.yield
// CHECK:           scf.yield
// CHECK:         memref.store %{{.*}}, %[[OUT]][%[[J]]]
func.func @two_reductions(%in: memref<3x5x7xf32>, %s: f32, %out: memref<5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>,
                                   affine_map<(i, j, k) -> ()>,
                                   affine_map<(i, j, k) -> (j)>],
                  iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%in, %s : memref<3x5x7xf32>, f32) outs(%out : memref<5xf32>) {
  ^bb0(%x: f32, %scale: f32, %acc: f32):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    %p = arith.mulf %x, %scale : f32
    %q = arith.addf %p, %kf : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not reductions, or on tensors: left to upstream.
// CHECK-LABEL: func.func @left_alone(
// CHECK:       linalg.generic
// CHECK:       linalg.reduce
func.func @left_alone(%in: memref<8xf32>, %out: memref<8xf32>, %t: tensor<8xf32>, %init: tensor<f32>) -> tensor<f32> {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%in : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  %r = linalg.reduce ins(%t : tensor<8xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}
