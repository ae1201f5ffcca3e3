// RUN: moe-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpu-defer-host-waits))' | FileCheck %s

// gpu-defer-host-waits on host code as gpu-async-region leaves it: which
// blocking waits go (their tokens move to the next run's gpu.wait async)
// and which stay.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @moert_entry_matmul_f32(!llvm.ptr) attributes {moert.stream_ordered}

  // A wait on two tokens: both move.
  // CHECK-LABEL: func.func @two_tokens(
  // CHECK:         %[[A:.*]] = gpu.launch_func async
  // CHECK:         %[[B:.*]] = gpu.launch_func async
  // CHECK-NEXT:    call @moert_entry_matmul_f32(
  // CHECK-NEXT:    %[[T:.*]] = gpu.wait async [%[[A]], %[[B]]]
  // CHECK-NEXT:    gpu.launch_func async [%[[T]]]
  func.func @two_tokens(%buf: memref<16xf32>, %p: !llvm.ptr) {
    %one = arith.constant 1 : index
    %t0 = gpu.wait async
    %a = gpu.launch_func async [%t0] @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    %t1 = gpu.wait async
    %b = gpu.launch_func async [%t1] @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    gpu.wait [%a, %b]
    func.call @moert_entry_matmul_f32(%p) : (!llvm.ptr) -> ()
    %t2 = gpu.wait async
    %c = gpu.launch_func async [%t2] @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    gpu.wait [%c]
    return
  }

  // The next wait blocks too: nothing to hand the tokens to.
  // CHECK-LABEL: func.func @next_wait_blocks(
  // CHECK:         %[[A:.*]] = gpu.launch_func async
  // CHECK-NEXT:    gpu.wait [%[[A]]]
  // CHECK-NEXT:    call @moert_entry_matmul_f32(
  // CHECK-NEXT:    gpu.wait
  func.func @next_wait_blocks(%buf: memref<16xf32>, %p: !llvm.ptr) {
    %one = arith.constant 1 : index
    %t0 = gpu.wait async
    %a = gpu.launch_func async [%t0] @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    gpu.wait [%a]
    func.call @moert_entry_matmul_f32(%p) : (!llvm.ptr) -> ()
    gpu.wait
    return
  }

  // A stack buffer that a GPU op writes is not host-only: its load waits.
  // CHECK-LABEL: func.func @stack_buffer_copied_from_device(
  // CHECK:         %[[A:.*]] = gpu.memcpy async
  // CHECK-NEXT:    gpu.wait [%[[A]]]
  // CHECK-NEXT:    memref.load
  func.func @stack_buffer_copied_from_device(%dev: memref<16xf32>) -> f32 {
    %zero = arith.constant 0 : index
    %stack = memref.alloca() : memref<16xf32>
    %t0 = gpu.wait async
    %a = gpu.memcpy async [%t0] %stack, %dev : memref<16xf32>, memref<16xf32>
    gpu.wait [%a]
    %x = memref.load %stack[%zero] : memref<16xf32>
    %t1 = gpu.wait async
    gpu.wait [%t1]
    return %x : f32
  }

  // A load through a pointer that is not a stack allocation waits, and so
  // does a branch that reads memory.
  // CHECK-LABEL: func.func @pointer_and_branch(
  // CHECK:         %[[A:.*]] = gpu.launch_func async
  // CHECK-NEXT:    gpu.wait [%[[A]]]
  // CHECK-NEXT:    llvm.load
  // CHECK:         %[[B:.*]] = gpu.launch_func async
  // CHECK-NEXT:    gpu.wait [%[[B]]]
  // CHECK-NEXT:    scf.if
  func.func @pointer_and_branch(%buf: memref<16xf32>, %p: !llvm.ptr, %flag: i1) -> (i64, f32) {
    %one = arith.constant 1 : index
    %zero = arith.constant 0 : index
    %f0 = arith.constant 0.0 : f32
    %t0 = gpu.wait async
    %a = gpu.launch_func async [%t0] @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    gpu.wait [%a]
    %word = llvm.load %p : !llvm.ptr -> i64
    %t1 = gpu.wait async
    %b = gpu.launch_func async [%t1] @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    gpu.wait [%b]
    %x = scf.if %flag -> f32 {
      %v = memref.load %buf[%zero] : memref<16xf32>
      scf.yield %v : f32
    } else {
      scf.yield %f0 : f32
    }
    %t2 = gpu.wait async
    gpu.wait [%t2]
    return %word, %x : i64, f32
  }
}
