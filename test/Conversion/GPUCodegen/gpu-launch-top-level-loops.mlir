// RUN: moe-opt %s -split-input-file -verify-diagnostics --gpu-launch-top-level-loops | FileCheck %s
// Grid sizes and trip counts fold to constants:
// RUN: moe-opt %s -split-input-file -verify-diagnostics --gpu-launch-top-level-loops --canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: moe-opt %s -split-input-file -verify-diagnostics --gpu-launch-top-level-loops=block-size=128 --canonicalize | FileCheck %s --check-prefix=B128

// gpu-launch-top-level-loops: each top-level scf.parallel becomes a gpu.launch with
// one thread per iteration of the collapsed iteration space (1-D grid of
// block-size threads, threads past the end guarded off, last dimension
// fastest); other top-level code that touches memory runs in a 1×1 launch.

// A 100 × 30 loop: 3000 threads, ceil(3000/256) = 12 blocks of 256
// (ceil(3000/128) = 24 of 128).
// CHECK-LABEL: func.func @parallel_2d(
// CHECK-SAME:    %[[M:[^:]+]]: memref<100x30xf32>)
// CHECK-NOT:   scf.parallel
// CHECK:       %[[SPAN0:.*]] = arith.subi %c100, %c0 : index
// CHECK:       %[[POS0:.*]] = arith.maxsi %[[SPAN0]], %{{.*}} : index
// CHECK:       %[[N0:.*]] = arith.ceildivui %[[POS0]], %c1 : index
// CHECK:       %[[P0:.*]] = arith.muli %{{.*}}, %[[N0]] : index
// CHECK:       %[[SPAN1:.*]] = arith.subi %c30, %c0 : index
// CHECK:       %[[POS1:.*]] = arith.maxsi %[[SPAN1]], %{{.*}} : index
// CHECK:       %[[N1:.*]] = arith.ceildivui %[[POS1]], %c1 : index
// CHECK:       %[[TOTAL:.*]] = arith.muli %[[P0]], %[[N1]] : index
// CHECK:       %[[BS:.*]] = arith.constant 256 : index
// CHECK:       %[[NB:.*]] = arith.ceildivui %[[TOTAL]], %[[BS]] : index
// At least one block (a zero-sized grid is a launch error).
// CHECK:       %[[BLOCKS:.*]] = arith.maxui %[[NB]], %{{.*}} : index
// CHECK:       gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCKS]], %{{.*}} = %[[ONE:.*]], %{{.*}} = %[[ONE]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BS]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK-NEXT:    %[[B0:.*]] = arith.muli %[[BX]], %[[BS]] : index
// CHECK-NEXT:    %[[LIN:.*]] = arith.addi %[[B0]], %[[TX]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %[[LIN]], %[[TOTAL]] : index
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[J:.*]] = arith.remui %[[LIN]], %[[N1]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.divui %[[LIN]], %[[N1]] : index
// CHECK-NEXT:      %[[JS:.*]] = arith.muli %[[J]], %c1 : index
// CHECK-NEXT:      %[[JV:.*]] = arith.addi %c0, %[[JS]] : index
// CHECK-NEXT:      %[[IS:.*]] = arith.muli %[[I]], %c1 : index
// CHECK-NEXT:      %[[IV:.*]] = arith.addi %c0, %[[IS]] : index
// CHECK-NEXT:      memref.store %{{.*}}, %[[M]][%[[IV]], %[[JV]]] : memref<100x30xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.terminator
// CHECK-NEXT:  }
// CHECK-NEXT:  return

// FOLD-LABEL: func.func @parallel_2d(
// FOLD-DAG:   %[[C12:.*]] = arith.constant 12 : index
// FOLD-DAG:   %[[C256:.*]] = arith.constant 256 : index
// FOLD-DAG:   %[[C3000:.*]] = arith.constant 3000 : index
// FOLD-DAG:   %[[C30:.*]] = arith.constant 30 : index
// FOLD:       gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C12]], %{{.*}} = %c1, %{{.*}} = %c1) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], %{{.*}} = %c1, %{{.*}} = %c1)
// FOLD:         arith.cmpi ult, %{{.*}}, %[[C3000]] : index
// FOLD:         arith.remui %{{.*}}, %[[C30]] : index
// FOLD:         arith.divui %{{.*}}, %[[C30]] : index

// B128-LABEL: func.func @parallel_2d(
// B128-DAG:   %[[C24:.*]] = arith.constant 24 : index
// B128-DAG:   %[[C128:.*]] = arith.constant 128 : index
// B128:       gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C24]], %{{.*}} = %c1, %{{.*}} = %c1) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]], %{{.*}} = %c1, %{{.*}} = %c1)
// B128:         arith.muli %{{.*}}, %[[C128]] : index
func.func @parallel_2d(%m: memref<100x30xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c30 = arith.constant 30 : index
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c100, %c30) step (%c1, %c1) {
    memref.store %cst, %m[%i, %j] : memref<100x30xf32>
    scf.reduce
  }
  return
}

// -----

// Lower bounds and steps: i = 5, 8, ..., 29 (ceil(25/3) = 9 iterations,
// one block), iv = 5 + pos·3.
// FOLD-LABEL: func.func @lb_step(
// FOLD-DAG:   %[[C9:.*]] = arith.constant 9 : index
// FOLD-DAG:   %[[C3:.*]] = arith.constant 3 : index
// FOLD-DAG:   %[[C5:.*]] = arith.constant 5 : index
// FOLD:       gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256
// FOLD:         %[[IN:.*]] = arith.cmpi ult, %[[TX]], %[[C9]] : index
// FOLD:         scf.if %[[IN]] {
// FOLD:           %[[S:.*]] = arith.muli %[[TX]], %[[C3]] : index
// FOLD:           %[[IV:.*]] = arith.addi %[[S]], %[[C5]] : index
// FOLD:           memref.store %{{.*}}, %{{.*}}[%[[IV]]] : memref<30xf32>
func.func @lb_step(%m: memref<30xf32>) {
  %c5 = arith.constant 5 : index
  %c3 = arith.constant 3 : index
  %c30 = arith.constant 30 : index
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c5) to (%c30) step (%c3) {
    memref.store %cst, %m[%i] : memref<30xf32>
    scf.reduce
  }
  return
}

// -----

// A sequential loop that writes memory runs in one thread.
// CHECK-LABEL: func.func @sequential(
// CHECK-SAME:    %[[M:[^:]+]]: memref<8xf32>)
// CHECK:       gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GX:[^,]*]], %{{.*}} = %[[GY:[^,]*]], %{{.*}} = %[[GZ:[^)]*]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GX]], %{{.*}} = %[[GY]], %{{.*}} = %[[GZ]])
// CHECK-NEXT:    scf.for %[[I:.*]] = %c1 to %c8 step %c1 {
// CHECK:           memref.load %[[M]]
// CHECK:           memref.store %{{.*}}, %[[M]][%[[I]]] : memref<8xf32>
// CHECK:         }
// CHECK-NEXT:    gpu.terminator
// CHECK-NEXT:  }
// CHECK-NEXT:  return
// FOLD-LABEL: func.func @sequential(
// FOLD:       %[[ONE:.*]] = arith.constant 1 : index
// FOLD:       gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// FOLD-NEXT:    scf.for
func.func @sequential(%m: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %cst = arith.constant 1.0 : f32
  scf.for %i = %c1 to %c8 step %c1 {
    %p = arith.subi %i, %c1 : index
    %v = memref.load %m[%p] : memref<8xf32>
    %w = arith.addf %v, %cst : f32
    memref.store %w, %m[%i] : memref<8xf32>
  }
  return
}

// -----

// Kernel names: "<function>_<n>_<what>", n in launch order, <what> the
// NameLoc moe-name-kernel-sources gives the ops ("kernel" without one).
// CHECK-LABEL: func.func @named(
// CHECK:       gpu.launch {{.*}} function(@named_0_permute)
// CHECK:       gpu.launch {{.*}} function(@named_1_kernel)
// CHECK:       gpu.launch {{.*}} function(@named_2_combine_grad)
func.func @named(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %cst, %m[%i] : memref<8xf32>
    scf.reduce
  } loc("permute"("file.mlir":1:1))
  memref.store %cst, %m[%c0] : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %cst, %m[%i] : memref<8xf32>
    scf.reduce
  } loc("combine.grad"(unknown))
  return
}

// -----

// A top-level store is device code too; host-only code (no memory access)
// stays on the host.
// CHECK-LABEL: func.func @store(
// CHECK:       arith.addi
// CHECK-NOT:   memref.store
// CHECK:       gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GX:[^,]*]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads({{.*}}) in (%{{.*}} = %[[GX]],
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    gpu.terminator
func.func @store(%m: memref<8xindex>, %a: index, %b: index) {
  %s = arith.addi %a, %b : index
  memref.store %s, %m[%a] : memref<8xindex>
  return
}

// -----

// A top-level load (a rank-0 scale, say) is taken where it stands: a
// one-thread kernel copies the value to a device scalar (later kernels may
// write the loaded buffer), and the kernel that uses it reads the copy, with
// what is computed from it cloned in; the host copies are gone.
// CHECK-LABEL: func.func @cloned_load(
// CHECK-SAME:    %[[S:[^:]+]]: memref<f32>, %[[M:[^:]+]]: memref<64xf32>)
// CHECK-NOT:   arith.mulf
// CHECK:       %[[COPY:.*]] = memref.alloc() : memref<f32>
// CHECK:       gpu.launch
// CHECK-NEXT:    %[[V0:.*]] = memref.load %[[S]][] : memref<f32>
// CHECK-NEXT:    memref.store %[[V0]], %[[COPY]][] : memref<f32>
// CHECK-NEXT:    gpu.terminator
// CHECK:       gpu.launch
// CHECK:         scf.if
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[COPY]][] : memref<f32>
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      %[[W:.*]] = arith.mulf %[[V]], %[[TWO]] : f32
// CHECK:           memref.store %[[W]], %[[M]][%{{.*}}] : memref<64xf32>
// CHECK:       memref.dealloc %[[COPY]] : memref<f32>
// CHECK-NEXT:  return
func.func @cloned_load(%s: memref<f32>, %m: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = memref.load %s[] : memref<f32>
  %two = arith.constant 2.0 : f32
  %w = arith.mulf %v, %two : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %w, %m[%i] : memref<64xf32>
    scf.reduce
  }
  return
}

// -----

// The read happens before a later kernel overwrites the buffer: the value
// used by the last kernel is a[0] as it was, not the zero written in between.
// CHECK-LABEL: func.func @read_before_overwrite(
// CHECK-SAME:    %[[A:[^:]+]]: memref<4xf32>, %[[B:[^:]+]]: memref<4xf32>)
// CHECK:       %[[COPY:.*]] = memref.alloc() : memref<f32>
// CHECK:       gpu.launch
// CHECK:         memref.load %[[A]][%{{.*}}] : memref<4xf32>
// CHECK:         memref.store %{{.*}}, %[[COPY]][] : memref<f32>
// CHECK:       gpu.launch
// CHECK:         memref.store %{{.*}}, %[[A]][%{{.*}}] : memref<4xf32>
// CHECK:       gpu.launch
// CHECK:         %[[V:.*]] = memref.load %[[COPY]][] : memref<f32>
// CHECK:         memref.store %[[V]], %[[B]][%{{.*}}] : memref<4xf32>
func.func @read_before_overwrite(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %v = memref.load %a[%c0] : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %a[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %v, %b[%i] : memref<4xf32>
    scf.reduce
  }
  return
}

// -----

// Loops that are already kernels are left alone.
// CHECK-LABEL: func.func @already_launched(
// CHECK:       gpu.launch
// CHECK-NOT:   gpu.launch
// CHECK:       return
func.func @already_launched(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %cst, %m[%c0] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @for_result_used(%m: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'scf.for' op computes a value that host code uses; it cannot be moved to the GPU}}
  %s = scf.for %i = %c0 to %c8 step %c1 iter_args(%a = %z) -> (f32) {
    %v = memref.load %m[%i] : memref<8xf32>
    %w = arith.addf %a, %v : f32
    scf.yield %w : f32
  }
  return %s : f32
}

// -----

func.func @host_read(%m: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.load' op is read by host code (func.return); the GPU target cannot read device memory on the host}}
  %v = memref.load %m[%c0] : memref<8xf32>
  return %v : f32
}

// -----

// A value loaded for a kernel and also used on the host.
func.func @host_and_kernel_read(%s: memref<index>, %m: memref<64xf32>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  // expected-error @+1 {{'memref.load' op is read by host code (}}
  %n = memref.load %s[] : memref<index>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %cst, %m[%i] : memref<64xf32>
    scf.reduce
  }
  %r = arith.addi %n, %c1 : index
  return %r : index
}

// -----

func.func @reduction(%m: memref<8xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'scf.parallel' op with reductions cannot run on the GPU target yet}}
  %s = scf.parallel (%i) = (%c0) to (%c8) step (%c1) init (%z) -> f32 {
    %v = memref.load %m[%i] : memref<8xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  return
}

// -----

// Host control flow around a runtime call and device code: reported, never
// a call inside a kernel.
func.func @call_in_loop(%m: memref<4xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{contains runtime calls or kernels as well as device code; moe ops inside host control flow are not supported on the GPU target yet}}
  scf.for %i = %c0 to %n step %c1 {
    func.call @host_side() : () -> ()
    %v = memref.load %m[%c0] : memref<4xi32>
    memref.store %v, %m[%c1] : memref<4xi32>
  }
  return
}
func.func private @host_side()
