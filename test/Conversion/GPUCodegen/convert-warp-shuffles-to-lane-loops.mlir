// RUN: moe-opt %s -split-input-file -verify-diagnostics --convert-warp-shuffles-to-lane-loops | FileCheck %s

// A thread loop of 64 lanes (two warps) with one shuffle: two phases, each
// an scf.for over the lanes. The first computes %v and keeps it per lane in
// a scratch buffer; the second reads lane (lane xor 16) for the shuffle and
// its own lane for %v.
// CHECK-LABEL: func.func @butterfly_step(
// CHECK-SAME:    %[[IN:[^:]+]]: memref<64xf32>, %[[OUT:[^:]+]]: memref<64xf32>)
// CHECK:       %[[V:.*]] = memref.alloca() : memref<64xf32>
// CHECK-NOT:   scf.parallel
// CHECK:       scf.for %[[L1:.*]] = %{{.*}} to %c64{{.*}} step
// CHECK:         %[[X:.*]] = memref.load %[[IN]][%[[L1]]]
// CHECK:         memref.store %[[X]], %[[V]][%[[L1]]]
// CHECK:       scf.for %[[L2:.*]] = %{{.*}} to %c64{{.*}} step
// CHECK-DAG:     %[[MINE:.*]] = memref.load %[[V]][%[[L2]]]
// CHECK-DAG:     %[[FROM:.*]] = arith.xori %[[L2]], %c16
// CHECK-DAG:     %[[OTHER:.*]] = memref.load %[[V]][%[[FROM]]]
// CHECK:         %[[SUM:.*]] = arith.addf %[[MINE]], %[[OTHER]]
// CHECK:         memref.store %[[SUM]], %[[OUT]][%[[L2]]]
// CHECK-NOT:   gpu.shuffle
func.func @butterfly_step(%in: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
    %c16 = arith.constant 16 : i32
    %c32 = arith.constant 32 : i32
    %v = memref.load %in[%t] : memref<64xf32>
    %s, %ok = gpu.shuffle xor %v, %c16, %c32 : f32
    %sum = arith.addf %v, %s : f32
    memref.store %sum, %out[%t] : memref<64xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

// A shuffle idx broadcasts lane 5 of each 32-lane segment: lane l reads
// lane (l - l mod 32) + 5.
// CHECK-LABEL: func.func @broadcast(
// CHECK-SAME:    %[[IN:[^:]+]]: memref<64xf32>, %[[OUT:[^:]+]]: memref<64xf32>)
// CHECK:       %[[V:.*]] = memref.alloca() : memref<64xf32>
// CHECK:       scf.for
// CHECK:       scf.for %[[L:.*]] = %{{.*}} to %c64{{.*}} step
// CHECK:         %[[REM:.*]] = arith.remui %[[L]], %c32
// CHECK:         %[[FIRST:.*]] = arith.subi %[[L]], %[[REM]]
// CHECK:         %[[FROM:.*]] = arith.addi %[[FIRST]], %c5
// CHECK:         %[[OTHER:.*]] = memref.load %[[V]][%[[FROM]]]
// CHECK:         memref.store %[[OTHER]], %[[OUT]][%[[L]]]
// CHECK-NOT:   gpu.shuffle
func.func @broadcast(%in: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
    %c5 = arith.constant 5 : i32
    %c32 = arith.constant 32 : i32
    %v = memref.load %in[%t] : memref<64xf32>
    %s, %ok = gpu.shuffle idx %v, %c5, %c32 : f32
    memref.store %s, %out[%t] : memref<64xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

// Other modes (up, down) are reported.
func.func @shuffle_down(%in: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  %c32_i32 = arith.constant 32 : i32
  scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
    %v = memref.load %in[%t] : memref<32xf32>
    // expected-error @+1 {{only shuffles xor and idx with constant offset}}
    %s, %ok = gpu.shuffle down %v, %c1_i32, %c32_i32 : f32
    memref.store %s, %in[%t] : memref<32xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

// A shuffle under control flow cannot be cut into lane phases.
func.func @shuffle_in_if(%in: memref<32xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c1_i32 = arith.constant 1 : i32
  %c32_i32 = arith.constant 32 : i32
  scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
    %v = memref.load %in[%t] : memref<32xf32>
    scf.if %c {
      // expected-error @+1 {{cannot run lanes in order}}
      %s, %ok = gpu.shuffle xor %v, %c1_i32, %c32_i32 : f32
      memref.store %s, %in[%t] : memref<32xf32>
    }
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

// A shuffle in an scf.for of constant trip count (a warp schedule's chunks,
// with a loop-carried value): the loop is unrolled, then cut into phases:
// three phases, one per shuffle and the last after it.
// CHECK-LABEL: func.func @shuffle_in_chunk_loop(
// CHECK-NOT:   scf.parallel
// CHECK-COUNT-3: scf.for %{{.*}} = %{{.*}} to %c32{{.*}} step
// CHECK-NOT:   scf.for
// CHECK-NOT:   gpu.shuffle
// CHECK:       return
func.func @shuffle_in_chunk_loop(%in: memref<2x32xf32>, %out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %zero = arith.constant 0.0 : f32
    %acc = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %zero) -> (f32) {
      %v = memref.load %in[%i, %t] : memref<2x32xf32>
      %s, %ok = gpu.shuffle xor %v, %c1_i32, %c32_i32 : f32
      %m = arith.maxnumf %v, %s : f32
      %n = arith.addf %a, %m : f32
      scf.yield %n : f32
    }
    memref.store %acc, %out[%t] : memref<32xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

// A chunk loop whose trip count is not known: it cannot be unrolled.
func.func @shuffle_in_dynamic_loop(%in: memref<?x32xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    // expected-error @+1 {{with warp shuffles needs a constant trip count}}
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %in[%i, %t] : memref<?x32xf32>
      %s, %ok = gpu.shuffle xor %v, %c1_i32, %c32_i32 : f32
      memref.store %s, %in[%i, %t] : memref<?x32xf32>
    }
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

// Nested chunk loops (2 x 2 iterations) with a shuffle: both unrolled, four
// shuffles, five phases.
// CHECK-LABEL: func.func @shuffle_in_nested_loops(
// CHECK-NOT:   scf.parallel
// CHECK-COUNT-5: scf.for %{{.*}} = %{{.*}} to %c32{{.*}} step
// CHECK-NOT:   scf.for
// CHECK-NOT:   gpu.shuffle
// CHECK:       return
func.func @shuffle_in_nested_loops(%in: memref<32xf32>, %out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %v = memref.load %in[%t] : memref<32xf32>
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %v) -> (f32) {
      %r2 = scf.for %j = %c0 to %c2 step %c1 iter_args(%b = %a) -> (f32) {
        %s, %ok = gpu.shuffle xor %b, %c1_i32, %c32_i32 : f32
        %n = arith.addf %b, %s : f32
        scf.yield %n : f32
      }
      scf.yield %r2 : f32
    }
    memref.store %r, %out[%t] : memref<32xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

// A chunk loop that runs no iteration: its results are its inits, and no
// shuffle is left.
// CHECK-LABEL: func.func @shuffle_in_empty_loop(
// CHECK-SAME:    %[[IN:[^:]+]]: memref<32xf32>, %[[OUT:[^:]+]]: memref<32xf32>)
// CHECK:       scf.parallel (%[[T:.*]]) =
// CHECK:         %[[V:.*]] = memref.load %[[IN]][%[[T]]]
// CHECK-NEXT:    memref.store %[[V]], %[[OUT]][%[[T]]]
// CHECK-NOT:   gpu.shuffle
func.func @shuffle_in_empty_loop(%in: memref<32xf32>, %out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %v = memref.load %in[%t] : memref<32xf32>
    %r = scf.for %i = %c0 to %c0 step %c1 iter_args(%a = %v) -> (f32) {
      %s, %ok = gpu.shuffle xor %a, %c1_i32, %c32_i32 : f32
      scf.yield %s : f32
    }
    memref.store %r, %out[%t] : memref<32xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// -----

// A chunk loop under an scf.if: not unrolled, its shuffle is reported.
func.func @shuffle_loop_in_if(%in: memref<32xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%t) = (%c0) to (%c32) step (%c1) {
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    scf.if %c {
      scf.for %i = %c0 to %c2 step %c1 {
        %v = memref.load %in[%t] : memref<32xf32>
        // expected-error @+1 {{cannot run lanes in order}}
        %s, %ok = gpu.shuffle xor %v, %c1_i32, %c32_i32 : f32
        memref.store %s, %in[%t] : memref<32xf32>
      }
    }
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}
