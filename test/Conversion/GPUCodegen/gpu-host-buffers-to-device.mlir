// RUN: moe-opt %s -split-input-file -verify-diagnostics --gpu-host-buffers-to-device | FileCheck %s

// gpu-host-buffers-to-device: on the GPU target every host buffer lives in device
// memory. Outside kernels memref.alloc/dealloc/copy become gpu.alloc/
// gpu.dealloc/gpu.memcpy (dynamic sizes kept, copy operands swapped into
// memcpy's dst, src order); inside gpu.launch nothing changes.

// CHECK-LABEL: func.func @host(
// CHECK-SAME:    %[[IN:[^:]+]]: memref<16xf32>, %[[OUT:[^:]+]]: memref<16xf32>, %[[N:[^:]+]]: index)
// CHECK-NOT:   memref.alloc
// CHECK:       %[[A:.*]] = gpu.alloc  () : memref<16xf32>
// CHECK-NEXT:  %[[D:.*]] = gpu.alloc  (%[[N]]) : memref<?x16xf32>
// CHECK-NEXT:  gpu.memcpy  %[[A]], %[[IN]] : memref<16xf32>, memref<16xf32>
// CHECK:       gpu.launch
// CHECK-NEXT:    %[[K:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.copy %[[K]], %[[K]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT:    memref.dealloc %[[K]] : memref<4xf32>
// CHECK-NEXT:    gpu.terminator
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.memcpy  %[[OUT]], %[[A]] : memref<16xf32>, memref<16xf32>
// CHECK-NEXT:  gpu.dealloc  %[[A]] : memref<16xf32>
// CHECK-NEXT:  gpu.dealloc  %[[D]] : memref<?x16xf32>
// CHECK-NEXT:  return
func.func @host(%in: memref<16xf32>, %out: memref<16xf32>, %n: index) {
  %a = memref.alloc() : memref<16xf32>
  %d = memref.alloc(%n) : memref<?x16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %k = memref.alloc() : memref<4xf32>
    memref.copy %k, %k : memref<4xf32> to memref<4xf32>
    memref.dealloc %k : memref<4xf32>
    gpu.terminator
  }
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %d : memref<?x16xf32>
  return
}

// -----

// A constant (memref.get_global) lives in host memory: kernels read a device
// copy, uploaded after the get_global and freed before every return.
// CHECK-LABEL: func.func @constant(
// CHECK-SAME:    %[[C:[^:]+]]: i1, %[[OUT:[^:]+]]: memref<4xf32>)
// CHECK-NEXT:  %[[G:.*]] = memref.get_global @table : memref<4xf32>
// CHECK-NEXT:  %[[DEV:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:  gpu.memcpy  %[[DEV]], %[[G]] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:  cf.cond_br %[[C]], ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// The uses of the global are the device copy's.
// CHECK-NEXT:  gpu.memcpy  %[[OUT]], %[[DEV]] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:  gpu.dealloc  %[[DEV]] : memref<4xf32>
// CHECK-NEXT:  return
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:  gpu.dealloc  %[[DEV]] : memref<4xf32>
// CHECK-NEXT:  return
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @constant(%c: i1, %out: memref<4xf32>) {
  %g = memref.get_global @table : memref<4xf32>
  cf.cond_br %c, ^a, ^b
^a:
  memref.copy %g, %out : memref<4xf32> to memref<4xf32>
  return
^b:
  return
}

// -----

// A get_global inside a kernel stays.
// CHECK-LABEL: func.func @kernel_global(
// CHECK-NOT:   gpu.alloc
// CHECK:       gpu.launch
// CHECK-NEXT:    memref.get_global @table
// CHECK-NOT:   gpu.dealloc
// CHECK:       return
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @kernel_global(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %g = memref.get_global @table : memref<4xf32>
    %v0 = memref.load %g[%c0] : memref<4xf32>
    memref.store %v0, %out[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.memcpy needs contiguous buffers.
func.func @strided(%in: memref<4x8xf32>, %out: memref<4x4xf32>) {
  %s = memref.subview %in[0, 0] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  // expected-error @+1 {{'memref.copy' op between strided buffers is not supported on the GPU target}}
  memref.copy %s, %out : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}

// -----

// A constant used in one branch of a multi-block function: uploaded at the
// entry (it dominates every return), freed before each return.
// CHECK-LABEL: func.func @branch_global(
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @branch_k : memref<4xf32>
// CHECK-NEXT:    %[[D:.*]] = gpu.alloc () : memref<4xf32>
// CHECK-NEXT:    gpu.memcpy %[[D]], %[[G]]
// CHECK:         cf.cond_br
// CHECK:         gpu.memcpy %{{.*}}, %[[D]]
// CHECK-NEXT:    gpu.dealloc %[[D]]
// CHECK-NEXT:    return
// CHECK:         gpu.dealloc %[[D]]
// CHECK-NEXT:    return
memref.global "private" constant @branch_k : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @branch_global(%o: memref<4xf32>, %p: i1) {
  cf.cond_br %p, ^a, ^b
^a:
  %g = memref.get_global @branch_k : memref<4xf32>
  memref.copy %g, %o : memref<4xf32> to memref<4xf32>
  return
^b:
  return
}
