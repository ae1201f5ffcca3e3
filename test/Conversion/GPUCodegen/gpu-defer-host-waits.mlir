// RUN: moe-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpu-async-region,gpu-defer-host-waits))' | FileCheck %s
// RUN: moe-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(gpu-async-region))' | FileCheck %s --check-prefix=ASYNC

// gpu-defer-host-waits: gpu-async-region makes the host wait for the stream
// in front of every call; in front of a call marked moert.stream_ordered (a
// cuBLASLt GEMM enqueued on the same stream) the wait goes, and the next
// run of GPU ops waits on the tokens instead.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @moert_entry_matmul_bf16(!llvm.ptr, i32, !llvm.ptr, i32, !llvm.ptr, i32, i64, i64, i64) attributes {moert.stream_ordered}

  // CHECK-LABEL: func.func @kernel_gemm_kernel(
  // CHECK:         %[[T0:.*]] = gpu.wait async
  // CHECK-NEXT:    %[[T1:.*]] = gpu.launch_func async [%[[T0]]] @kernels::@scale
  // CHECK-NOT:     gpu.wait
  // CHECK:         call @moert_entry_matmul_bf16(
  // CHECK-NEXT:    %[[T2:.*]] = gpu.wait async [%[[T1]]]
  // CHECK-NEXT:    %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @kernels::@scale
  // CHECK-NEXT:    gpu.wait [%[[T3]]]
  // CHECK-NEXT:    return
  // ASYNC-LABEL: func.func @kernel_gemm_kernel(
  // ASYNC:         gpu.launch_func async
  // ASYNC-NEXT:    gpu.wait [%{{.*}}]
  // ASYNC-NEXT:    call @moert_entry_matmul_bf16(
  // ASYNC-NEXT:    gpu.wait async
  func.func @kernel_gemm_kernel(%buf: memref<16xf32>, %a: !llvm.ptr, %c: !llvm.ptr) {
    %one = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %n = arith.constant 16 : i64
    gpu.launch_func @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    func.call @moert_entry_matmul_bf16(%a, %i0, %a, %i0, %c, %i0, %n, %n, %n) : (!llvm.ptr, i32, !llvm.ptr, i32, !llvm.ptr, i32, i64, i64, i64) -> ()
    gpu.launch_func @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    return
  }
}

// -----

// A TMA descriptor encoded on the host stack between two kernels (the
// encoding call is stream-ordered, the loads read the stack): no wait.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%word: i64) kernel {
      gpu.return
    }
  }
  func.func private @moert_entry_tensor_map_2d(!llvm.ptr, !llvm.ptr, i64, i64, i32, i32, i32) attributes {moert.stream_ordered}

  // CHECK-LABEL: func.func @descriptor_between_kernels(
  // CHECK:         %[[T1:.*]] = gpu.launch_func async
  // CHECK-NOT:     gpu.wait [
  // CHECK:         llvm.alloca
  // CHECK:         call @moert_entry_tensor_map_2d(
  // CHECK:         %[[WORD:.*]] = llvm.load
  // CHECK-NEXT:    %[[T2:.*]] = gpu.wait async [%[[T1]]]
  // CHECK-NEXT:    gpu.launch_func async [%[[T2]]] @kernels::@gemm {{.*}} args(%[[WORD]] : i64)
  func.func @descriptor_between_kernels(%base: !llvm.ptr) {
    %one = arith.constant 1 : index
    %w = arith.constant 7 : i64
    %rows = arith.constant 128 : i64
    %box = arith.constant 64 : i32
    %two = arith.constant 2 : i32
    %count = arith.constant 1 : i64
    gpu.launch_func @kernels::@gemm blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%w : i64)
    %storage = llvm.alloca %count x !llvm.array<16 x i64> {alignment = 64 : i64} : (i64) -> !llvm.ptr
    func.call @moert_entry_tensor_map_2d(%storage, %base, %rows, %rows, %box, %box, %two) : (!llvm.ptr, !llvm.ptr, i64, i64, i32, i32, i32) -> ()
    %first = llvm.getelementptr %storage[0] : (!llvm.ptr) -> !llvm.ptr, i64
    %word = llvm.load %first : !llvm.ptr -> i64
    gpu.launch_func @kernels::@gemm blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%word : i64)
    return
  }
}

// -----

// The host waits where it must: before a call that is not stream-ordered
// (it might read what the kernel wrote), before a host load of a buffer, and
// before the return.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @moert_entry_grouped_gemm_bf16(!llvm.ptr)
  func.func private @moert_entry_matmul_f32(!llvm.ptr) attributes {moert.stream_ordered}

  // CHECK-LABEL: func.func @waits_that_stay(
  // CHECK:         %[[T1:.*]] = gpu.launch_func async
  // CHECK-NEXT:    gpu.wait [%[[T1]]]
  // CHECK-NEXT:    call @moert_entry_grouped_gemm_bf16(
  // CHECK-NEXT:    %[[T2:.*]] = gpu.wait async{{$}}
  // CHECK-NEXT:    %[[T3:.*]] = gpu.launch_func async [%[[T2]]]
  // CHECK-NEXT:    gpu.wait [%[[T3]]]
  // CHECK-NEXT:    memref.load
  // CHECK-NEXT:    call @moert_entry_matmul_f32(
  // CHECK-NEXT:    %[[T4:.*]] = gpu.wait async{{$}}
  // CHECK-NEXT:    %[[T5:.*]] = gpu.launch_func async [%[[T4]]]
  // CHECK-NEXT:    gpu.wait [%[[T5]]]
  // CHECK-NEXT:    call @moert_entry_matmul_f32(
  // CHECK-NEXT:    return
  func.func @waits_that_stay(%buf: memref<16xf32>, %p: !llvm.ptr) -> f32 {
    %one = arith.constant 1 : index
    %zero = arith.constant 0 : index
    gpu.launch_func @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    func.call @moert_entry_grouped_gemm_bf16(%p) : (!llvm.ptr) -> ()
    gpu.launch_func @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    %x = memref.load %buf[%zero] : memref<16xf32>
    func.call @moert_entry_matmul_f32(%p) : (!llvm.ptr) -> ()
    gpu.launch_func @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
    func.call @moert_entry_matmul_f32(%p) : (!llvm.ptr) -> ()
    return %x : f32
  }
}

// -----

// Inside a loop the wait in front of the body's end stays: the next
// iteration's kernels are another run.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func private @moert_entry_matmul_f32(!llvm.ptr) attributes {moert.stream_ordered}

  // CHECK-LABEL: func.func @loop_body(
  // CHECK:         scf.for
  // CHECK:           %[[T1:.*]] = gpu.launch_func async
  // CHECK-NEXT:      gpu.wait [%[[T1]]]
  // CHECK-NEXT:      call @moert_entry_matmul_f32(
  // CHECK-NEXT:    }
  func.func @loop_body(%buf: memref<16xf32>, %p: !llvm.ptr) {
    %one = arith.constant 1 : index
    %zero = arith.constant 0 : index
    %four = arith.constant 4 : index
    scf.for %i = %zero to %four step %one {
      gpu.launch_func @kernels::@scale blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%buf : memref<16xf32>)
      func.call @moert_entry_matmul_f32(%p) : (!llvm.ptr) -> ()
    }
    return
  }
}
