//===- Passes.td - lowerings out of the moe dialect --------*- tablegen -*-===//
#ifndef MOE_CONVERSION_PASSES_TD
#define MOE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMoeToLoopsPass : Pass<"convert-moe-to-loops"> {
  let summary = "Lower moe ops on memrefs to scf/arith/math/memref loops";
  let description = [{
    The CPU reference semantics: every moe op on memrefs (what
    one-shot-bufferize makes of the ops on tensors) becomes loops that implement
    DESIGN.md literally: tie-breaking and ordering of top-k, group-limited
    routing, every normalize mode, permute padding and 64-bit offsets, empty
    groups, f32 accumulation, FP8 rounding with saturation. A
    `moe.all_to_all` is lowered only on a one-rank grid axis; more
    ranks on the CPU is an error. Moe ops on tensors must be bufferized
    first (`moe.layer` expanded first).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ConvertMoeToGPUPass : Pass<"convert-moe-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower moe ops on memrefs to GPU kernel bodies and runtime calls";
  let description = [{
    The GPU lowering of the moe ops, on buffers (after one-shot-bufferize):

    * `moe.grouped_matmul` / `moe.grouped_weight_grad` on memrefs of bf16
      become `func.call @moert_entry_grouped_gemm_bf16` /
      `@moert_entry_grouped_weight_grad_bf16` (cuBLASLt, libmoe_runtime_gpu;
      pointers passed as `!llvm.ptr`, group sizes read from device memory);
    * linalg contractions with f32 accumulation (what autodiff writes for
      the router adjoints, dlogits·Wᵀ and xᵀ·dlogits) become
      `func.call @moert_entry_matmul_f32` (one dense cuBLASLt f32 GEMM,
      accumulating into the output), bf16 operands widened to an f32
      temporary first;
    * every other op becomes `scf.parallel` loops over its independent work
      items (tokens, rows, elements, token chunks) whose bodies compute the
      same per-item arithmetic as the CPU reference (shared code), plus, where
      an op has a sequential step (permute's counting sort, loss
      reductions), chunked multi-phase loops: per-chunk partials in parallel,
      then a short combine. `moe-gpu-launch-loops` turns each top-level
      `scf.parallel` into a kernel.

    The results are the CPU reference's bit for bit for the integer outputs
    (indices, rows, group sizes) and within f32 reassociation for the
    reductions. Ops the GPU target cannot run yet (FP8 grouped matmuls,
    exchanges over more than one rank) are reported with their location.

    With `schedules-only`, grouped matmuls keep the reference loops and
    nothing is put in a kernel: the GPU target's algorithms on plain loops,
    which moe-lower-to-cpu{gpu-schedules} runs on the CPU so that they are
    checked against the reference where there is no GPU.
  }];
  let options = [
    Option<"schedulesOnly", "schedules-only", "bool", /*default=*/"false",
           "Only the parallel schedules (reference loops for the rest): no "
           "runtime calls, no kernels">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def MoeGpuSplitReductionsPass
    : Pass<"moe-gpu-split-reductions", "::mlir::func::FuncOp"> {
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
    inputs: the router adjoints) are left whole: convert-moe-to-gpu hands
    them to cuBLASLt.
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

def MoeGpuAccumulateReductionsPass
    : Pass<"moe-gpu-accumulate-reductions", "::mlir::func::FuncOp"> {
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

def MoeGpuLaunchLoopsPass : Pass<"moe-gpu-launch-loops", "::mlir::func::FuncOp"> {
  let summary = "Run every top-level loop nest of a host function on the GPU";
  let description = [{
    After it, a host function only allocates, copies, calls and launches:

    * each top-level `scf.parallel` (any number of dimensions, no
      reductions) becomes a `gpu.launch` over a 1-D grid of `block-size`
      threads per block, one thread per iteration of the collapsed
      iteration space (the thread delinearizes its index; threads past the
      end do nothing);
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

def MoeGpuHostMemoryPass : Pass<"moe-gpu-host-memory", "::mlir::func::FuncOp"> {
  let summary = "Host memref.alloc/dealloc/copy become gpu.alloc/dealloc/memcpy";
  let description = [{
    On the GPU target every buffer of a host function lives in device
    memory: outside kernels, `memref.alloc` becomes `gpu.alloc`,
    `memref.dealloc` `gpu.dealloc` and `memref.copy` (identity layouts)
    `gpu.memcpy`. Run after `moe-gpu-launch-loops`; `gpu-async-region` then
    orders them on a stream.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def ConvertGroupedMatmulToNVGPUPass
    : Pass<"convert-grouped-matmul-to-nvgpu", "::mlir::ModuleOp"> {
  let summary = "Generate Hopper TMA + wgmma kernels for bf16 grouped matmuls";
  let description = [{
    Rewrites each `moe.grouped_matmul` on memrefs that it can generate a
    kernel for into a `gpu.launch` of a persistent, warp-specialized
    grouped GEMM kernel written with the upstream nvgpu/nvvm dialects and
    specialized to the op's static shapes:

    * a producer warpgroup (`setmaxnreg` down) issues TMA bulk tensor loads
      of A's row tiles and B's K x N tiles into a ring of shared-memory
      stages, each guarded by a "full" and an "empty" mbarrier;
    * one consumer warpgroup per 64 rows of the tile (`setmaxnreg` up) runs
      `nvgpu.warpgroup.mma` (wgmma, bf16 in, f32 accumulate) on its rows of
      each stage and releases the stage;
    * the tile scheduler reads the group sizes on the device: every CTA
      scans them in shared memory (tiles per group and row offsets) and walks
      the linear tile index (group, m-tile, n-tile) with a grid stride, so
      no group size ever reaches the host;
    * the epilogue stages the accumulator in shared memory (its register
      fragments, wgmma's layout) and stores the rows of the tile's group only
      (row mask at the group's end, column mask at N), as bf16 or f32; tiles
      past the last group write the zero rows.

    The host side encodes the TMA descriptors with
    `moert_entry_tensor_map_bf16_2d` (host-only work); each CTA copies them
    into its slot of a device scratch buffer and fences them for the tensor
    map proxy. Nothing in the entry waits for the device.

    Tile choice: BN = 128 and BK = 64 always; BM = 128 (two consumer
    warpgroups) when the rows per group on average (R / G) are at least
    128, else 64 (one; small groups waste less of a tile). As many pipeline
    stages as shared memory holds next to the epilogue tile, at most 8 (4
    for BM = 128, 7 for BM = 64).

    Supported: bf16 A and B, `weight_layout = kn` (b is [G, K, N]), bf16 or
    f32 output, K a multiple of 64, N a multiple of 8, no FP8 scales.
    Other grouped matmuls are left for convert-moe-to-gpu (cuBLASLt);
    `require-all` makes them an error naming what is unsupported.
  }];
  let options = [
    Option<"numCtas", "num-ctas", "int64_t", /*default=*/"132",
           "CTAs of the persistent kernel (the SM count: 132 on H100/H200 "
           "SXM)">,
    Option<"requireAll", "require-all", "bool", /*default=*/"false",
           "Fail on a grouped matmul that cannot get a generated kernel "
           "instead of leaving it for the runtime call">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // MOE_CONVERSION_PASSES_TD
