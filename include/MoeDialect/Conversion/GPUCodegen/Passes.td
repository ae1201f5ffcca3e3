//===- Passes.td - GPU code generation passes --------------*- tablegen -*-===//
//
// Passes on upstream dialects (linalg, scf, memref, gpu) that prepare host
// functions for the GPU: they know nothing of the moe dialect, so they carry
// no moe- prefix and live apart from the moe lowerings.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_CONVERSION_GPUCODEGEN_PASSES_TD
#define MOE_CONVERSION_GPUCODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def SplitLongReductionsPass
    : Pass<"split-long-reductions", "::mlir::func::FuncOp"> {
  let summary = "Split long linalg reductions with few outputs into chunks";
  let description = [{
    On the GPU each output element of a linalg op becomes a thread that runs
    its reduction loop alone; a router-weight gradient (H·E outputs, each a
    sum over all T tokens) would leave the GPU nearly idle. Ops with one
    reduction dimension of at least `min-length` iterations and fewer than
    `max-threads` outputs get upstream linalg::splitReduction: partial
    results per chunk of the reduction (more threads, short loops), then a
    reduction over the chunks. Sums are reassociated by chunk. f32
    contractions (acc + a·b over one reduction dimension, two rank-2
    inputs: the router adjoints) are left whole: convert-moe-to-runtime-calls
    hands them to cuBLASLt.
  }];
  let options = [
    Option<"minLength", "min-length", "int64_t", /*default=*/"2048",
           "Reductions shorter than this stay as they are">,
    Option<"maxThreads", "max-threads", "int64_t", /*default=*/"131072",
           "Ops with at least this many outputs stay as they are">,
    Option<"chunk", "chunk", "int64_t", /*default=*/"128",
           "Target length of a chunk (a power of two dividing the length)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertLinalgReductionsToAccumulatingLoopsPass
    : Pass<"convert-linalg-reductions-to-accumulating-loops",
           "::mlir::func::FuncOp"> {
  let summary = "Lower linalg reductions to parallel loops that accumulate in registers";
  let description = [{
    Upstream linalg-to-parallel-loops keeps a reduction's accumulator in
    memory: every iteration loads and stores the output element, and since
    kernel arguments may alias, LLVM cannot keep it in a register. On the GPU
    (one thread per output element, e.g. the router adjoints xᵀ·dlogits and
    dlogits·Wᵀ) that is a global read-modify-write per multiply-add. Here a
    buffer-form linalg op with reduction iterators whose single output is
    indexed by its parallel dimensions only becomes an scf.parallel over
    the parallel dimensions and, inside, an scf.for nest over the reduction
    dimensions that carries the accumulator (iter_args): one load before,
    one store after. The order of the sum is that of the reduction loops,
    as upstream's. An input that neighbouring threads would read a row
    apart (indexed by the output's last dimension, but by a reduction
    dimension last, like w in dlogits·wᵀ) and that is small next to the
    output is first copied transposed, so that those reads are contiguous.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def GpuLaunchTopLevelLoopsPass
    : Pass<"gpu-launch-top-level-loops", "::mlir::func::FuncOp"> {
  let summary = "Run every top-level loop nest of a host function on the GPU";
  let description = [{
    After it, a host function only allocates, copies, calls and launches:

    * each top-level `scf.parallel` (any number of dimensions, no
      reductions) becomes a `gpu.launch` over a 1-D grid of `block-size`
      threads per block, one thread per iteration of the collapsed
      iteration space (the thread delinearizes its index; threads past the
      end do nothing);
    * a block-per-row loop nest (a one-dimensional `scf.parallel` mapped to
      `block_x` by upstream's `#gpu.loop_dim_map` attribute whose body holds
      one mapped to `thread_x`) becomes a `gpu.launch` with a block per
      iteration of the outer loop; the block has one thread per iteration of
      the inner loop (rounded up to whole warps) when that count is static and
      at most 1024, otherwise `block-size` threads that stride over it;
    * any other top-level op that reads or writes memory (`scf.for`,
      `scf.if`, `memref.load/store`, ...: sequential reference code) runs in
      a single-thread `gpu.launch`;
    * top-level `memref.load`s whose values are used only inside such loop
      nests are moved into them (the memory read must happen on the device).

    Host code that would need a value computed on the device is reported.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block of the launched kernels">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def GpuHostBuffersToDevicePass
    : Pass<"gpu-host-buffers-to-device", "::mlir::func::FuncOp"> {
  let summary = "Host memref.alloc/dealloc/copy become gpu.alloc/dealloc/memcpy";
  let description = [{
    On the GPU target every buffer of a host function lives in device
    memory: outside kernels, `memref.alloc` becomes `gpu.alloc`,
    `memref.dealloc` `gpu.dealloc` and `memref.copy` (identity layouts)
    `gpu.memcpy`. Run after `gpu-launch-top-level-loops`; `gpu-async-region` then
    orders them on a stream.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // MOE_CONVERSION_GPUCODEGEN_PASSES_TD
