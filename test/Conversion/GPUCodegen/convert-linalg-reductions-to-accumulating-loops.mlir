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

// -----

// A fresh buffer filled and then only reduced into (split-long-reductions'
// partial sums, a sum over rows): the accumulators start from the fill's
// value, and the fill (a kernel over the whole buffer on the GPU) goes.
// Another op may fill a buffer it does not read.
// CHECK-LABEL: func.func @fill_feeds_reduction(
// CHECK-SAME:    %[[X:.*]]: memref<64x128xf32>, %[[R:.*]]: memref<64xf32>)
// CHECK:       %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:       %[[P:.*]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT:  linalg.fill ins(%[[ZERO]] : f32) outs(%[[R]] : memref<64xf32>)
// CHECK-NOT:   linalg.fill
// CHECK:       scf.parallel
// CHECK-NOT:     memref.load %[[P]]
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f32)
// CHECK:         memref.store %{{.*}}, %[[P]]
// CHECK:       memref.copy %[[P]], %[[R]]
// CHECK:       memref.dealloc %[[P]]
func.func @fill_feeds_reduction(%x: memref<64x128xf32>, %r: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<64xf32>)
  linalg.fill ins(%zero : f32) outs(%r : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x128xf32>) outs(%p : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  memref.copy %p, %r : memref<64xf32> to memref<64xf32>
  memref.dealloc %p : memref<64xf32>
  return
}

// -----

// The fill stays, and the accumulators start from the buffer, where
// something else reads the filled buffer before the reduction, the
// reduction reads it as an input too, or the buffer is not the function's
// own (an argument: the caller may read it).
// CHECK-LABEL: func.func @fill_kept(
// CHECK-SAME:    %[[X:.*]]: memref<64x128xf32>, %[[R:.*]]: memref<64xf32>, %[[C:.*]]: memref<64xf32>)
// CHECK:       %[[P:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       %[[Q:.*]] = memref.alloc() : memref<64xf32>
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[P]] : memref<64xf32>)
// CHECK:       memref.copy %[[P]], %[[C]]
// CHECK:       scf.parallel
// CHECK:         memref.load %[[P]][%{{.*}}] : memref<64xf32>
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[Q]] : memref<64xf32>)
// CHECK:       scf.parallel
// CHECK:         memref.load %[[Q]][%{{.*}}] : memref<64xf32>
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[R]] : memref<64xf32>)
// CHECK:       scf.parallel
// CHECK:         memref.load %[[R]][%{{.*}}] : memref<64xf32>
func.func @fill_kept(%x: memref<64x128xf32>, %r: memref<64xf32>, %c: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<64xf32>
  %q = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<64xf32>)
  memref.copy %p, %c : memref<64xf32> to memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x128xf32>) outs(%p : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%zero : f32) outs(%q : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %q : memref<64x128xf32>, memref<64xf32>) outs(%q : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%zero : f32) outs(%r : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x128xf32>) outs(%r : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  }
  memref.dealloc %p : memref<64xf32>
  memref.dealloc %q : memref<64xf32>
  return
}
