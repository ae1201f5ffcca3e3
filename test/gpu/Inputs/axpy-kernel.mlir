// y[i] = 2 * x[i] + 1 over 1 << 20 f32 elements, on the GPU: the host function
// allocates device buffers (gpu.alloc), copies x in, launches 4096 blocks of
// 256 threads, copies y out and frees the buffers. Compiled to a shared object
// by build-kernel.sh; its only external calls are the mgpu* functions of
// libmoe_runtime_gpu (runtime/gpu/lib/CudaDriver.cpp). Exported as
// _mlir_ciface_axpy(memref descriptor *x, memref descriptor *y).
module attributes {gpu.container_module} {
  func.func @axpy(%x: memref<1048576xf32>, %y: memref<1048576xf32>)
      attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c4096 = arith.constant 4096 : index
    // One stream (gpu-to-llvm lowers only the async forms of alloc/memcpy/
    // dealloc): the token chain orders everything on it; the final gpu.wait
    // synchronises and destroys it.
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] () : memref<1048576xf32>
    %dy, %t2 = gpu.alloc async [%t1] () : memref<1048576xf32>
    %t3 = gpu.memcpy async [%t2] %dx, %x : memref<1048576xf32>, memref<1048576xf32>
    %t4 = gpu.launch async [%t3]
               blocks(%bx, %by, %bz) in (%gx = %c4096, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %dx[%i] : memref<1048576xf32>
      %two = arith.constant 2.0 : f32
      %one = arith.constant 1.0 : f32
      %t = arith.mulf %v, %two : f32
      %r = arith.addf %t, %one : f32
      memref.store %r, %dy[%i] : memref<1048576xf32>
      gpu.terminator
    }
    %t5 = gpu.memcpy async [%t4] %y, %dy : memref<1048576xf32>, memref<1048576xf32>
    %t6 = gpu.dealloc async [%t5] %dx : memref<1048576xf32>
    %t7 = gpu.dealloc async [%t6] %dy : memref<1048576xf32>
    gpu.wait [%t7]
    return
  }
}
