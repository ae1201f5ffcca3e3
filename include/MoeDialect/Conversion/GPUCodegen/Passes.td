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
    reduction over the chunks. Sums are reassociated by chunk. Row
    reductions (the reduced dimension the last of every input, e.g. the
    softmax adjoint's Σ_e dp·p over [T, E]) of at least `min-row-length`
    with many outputs are split too, or each thread reads its row alone
    a row apart from its neighbour: `N / row-chunk` chunks interleaved
    along the row (element k in chunk k mod ratio), partial results
    [outputs, chunks], then a reduction per row. f32
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
    Option<"minRowLength", "min-row-length", "int64_t", /*default=*/"64",
           "Row reductions (along every input's last dimension) at least "
           "this long are split into interleaved chunks">,
    Option<"rowChunk", "row-chunk", "int64_t", /*default=*/"8",
           "Elements of a row that one thread sums in a split row "
           "reduction (0: row reductions stay as they are)">,
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
    Where the output is a fresh buffer that a linalg.fill wrote before the
    op and nothing else reads before it (split-long-reductions' partial
    sums, a reduction's zeroed output), the accumulators start from the
    fill's value and the fill goes: on the GPU it was a kernel over the
    whole output.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertElementwiseLinalgToVectorRowsPass
    : Pass<"convert-elementwise-linalg-to-vector-rows",
           "::mlir::func::FuncOp"> {
  let summary = "Elementwise linalg ops on buffers as 16-byte vector accesses";
  let description = [{
    Upstream linalg-to-parallel-loops makes an elementwise linalg op one
    thread per element on the GPU: 2-byte loads and stores for bf16, a
    fraction of the memory bandwidth. Here a buffer-form linalg op at the
    top level of a function whose
    iterators are all parallel, whose outputs are indexed by the identity
    and whose shaped inputs are either indexed with the last loop dimension
    last (read along it) or without it (broadcast along the last dimension:
    a per-row value, or a rank-0 buffer), all memrefs with the identity
    layout and a static last loop dimension, becomes a loop over chunks of
    `width` consecutive elements of the last dimension. `width` is
    `access-bytes` over the narrowest element type of the buffers read or
    written along the last dimension (halved until it divides the last
    dimension; at least 2). Each chunk reads and writes each such buffer
    with one vector.load / vector.store (wider element types take several
    16-byte transactions), reads broadcast operands once, and runs the
    op's body once per element, unrolled on scalars: the arithmetic is the
    body's, element for element.

    Rows of at least `min-row-vectors` chunks become a block per row: an
    scf.parallel over the rows (the leading dimensions, linearized) mapped
    to `block_x` holding one over the row's chunks mapped to `thread_x`,
    which gpu-launch-top-level-loops launches as a block per row. Shorter
    rows (and rank-1 ops) become one scf.parallel over all chunks, one
    thread per chunk. Other linalg ops are left for
    convert-linalg-to-parallel-loops. On the CPU
    (moe-lower-to-cpu{gpu-schedules}) the loops run in order.
  }];
  let options = [
    Option<"accessBytes", "access-bytes", "int64_t", /*default=*/"16",
           "Bytes of the narrowest element type a thread moves per access">,
    Option<"minRowVectors", "min-row-vectors", "int64_t", /*default=*/"64",
           "Rows of at least this many chunks get a block of threads each">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertLinalgTransposeToTilesPass
    : Pass<"convert-linalg-transpose-to-tiles", "::mlir::func::FuncOp"> {
  let summary = "Transposes of the last two dimensions as tiles staged in shared memory";
  let description = [{
    Upstream linalg-to-parallel-loops makes a transpose one thread per
    element: a warp writes 32 consecutive elements of an output row but
    reads them a whole input row apart, a fraction of the memory bandwidth.
    Here a buffer-form linalg.transpose at the top level of a function whose
    permutation swaps the last two dimensions ([A, B] -> [B, A], or batched
    [..., A, B] -> [..., B, A] with the leading dimensions in place), on
    memrefs with the identity layout and elements of 1, 2 or 4 bytes,
    becomes a block per T x T tile (T = 128 bytes over the element size:
    128 for FP8, 64 for bf16/f16, 32 for f32/i32; a tile row is one
    128-byte line) of 256 threads in two phases:

    1. each thread reads T/32 16-byte chunks of input rows (a warp: four
       rows of 128 bytes) and stores each into the tile (one 16-byte store);
    2. each thread gathers T/32 chunks of a tile column (an output row:
       16/elem scalar reads from consecutive tile rows) and writes each with
       one 16-byte store (a warp: four output rows of 128 bytes).

    The tile holds the bits of the elements (integers of their width); the
    16-byte chunks of tile row r are stored with their index xor'ed with
    (r / (16 / elem bytes)) mod 8, so the stores of phase 1 (a quarter-warp
    writes one row's 8 chunks) and the scalar reads of phase 2 (a warp reads
    one element of each of 8 chunk rows, 4 columns apart at most) touch 32
    distinct banks. Global accesses are as wide as the row length allows (a
    power of two of elements dividing it, up to 16 bytes; single elements
    for odd lengths). At the edges of a partial tile, reads are clamped to
    the last row and the last piece of a row (in bounds, no branches; what
    they hold is never written) and each write is masked; only the
    dimensions that are not multiples of T get clamps and masks. Indices
    are `index` (64-bit on the GPU). Transposes with A or B of 1 (the same
    bytes in both layouts) are left alone.

    The tile is an scf.parallel over tiles mapped to `block_x` holding two
    scf.parallel mapped to `thread_x`, the phases (gpu-launch-top-level-loops
    puts a barrier between them), and a memref.alloca of the tile in
    workgroup memory, which becomes the launch's shared memory. With
    `hoist-tiles` (the CPU: moe-lower-to-cpu{gpu-schedules}, where the
    blocks and their threads run one after another) the tile is allocated
    once at the start of the function instead, in the default memory space.
    Other transposes are left for convert-linalg-to-parallel-loops.
  }];
  let options = [
    Option<"hoistTiles", "hoist-tiles", "bool", /*default=*/"false",
           "Allocate the tile once at the start of the function, in the "
           "default memory space (the CPU)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertWarpShufflesToLaneLoopsPass
    : Pass<"convert-warp-shuffles-to-lane-loops", "::mlir::func::FuncOp"> {
  let summary = "Run the lanes of thread loops with warp shuffles in order (CPU)";
  let description = [{
    The CPU (moe-lower-to-cpu{gpu-schedules}) runs a thread loop (an
    scf.parallel mapped to `thread_x` over [0, N), N static) one iteration
    after another, so a `gpu.shuffle` in its body has no other lane to read.
    Here such a loop is cut at its shuffles into phases, each an scf.for over
    the N lanes in order: a value one phase computes and a later one uses
    goes through a scratch buffer of N elements, and a shuffle `xor`
    (width a power of two, at most N) reads lane (lane xor offset) of its
    operand's buffer, a shuffle `idx` lane offset of the lane's width-wide
    segment (a broadcast). The lanes compute what the GPU's lanes compute, in
    the same order of operations, so the results are the GPU's. Shuffles
    must stand at the top level of the thread loop's body, or in an scf.for
    of constant trip count there (unrolled first); a shuffle elsewhere, or
    of another mode, is reported.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
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
      one or more mapped to `thread_x`, and no other `scf.parallel`) becomes
      a `gpu.launch` with a block per iteration of the outer loop; the block
      has one thread per iteration of the longest inner loop (rounded up to
      whole warps) when every inner count is static and at most 1024,
      otherwise `block-size` threads that stride over them. Several inner
      loops are phases: a `gpu.barrier` separates each from the next, as
      the CPU runs them (one after the other). A static-shaped
      `memref.alloca` in workgroup memory in the outer body becomes a
      workgroup attribution of the launch (shared memory of the block);
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

def GpuAlignWorkgroupBuffersPass
    : Pass<"gpu-align-workgroup-buffers", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Align the shared-memory buffers of kernels for vector accesses";
  let description = [{
    convert-gpu-to-nvvm gives a workgroup attribution of a gpu.func the
    alignment of its element type unless the attribution carries
    `llvm.align`, and gpu-kernel-outlining has no way to pass one from a
    gpu.launch; a 16-byte vector load or store into an i16 buffer could then
    be misaligned. Here every memref workgroup attribution of the module's
    kernels without `llvm.align` gets `alignment` (the transpose tiles of
    convert-linalg-transpose-to-tiles store 16-byte chunks).
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"16",
           "Bytes each workgroup buffer is aligned to">,
  ];
}

def GpuNativeBf16TruncationPass
    : Pass<"gpu-native-bf16-truncation", "::mlir::gpu::GPUModuleOp"> {
  let summary = "f32 to bf16 truncations in kernels as the chip's cvt.rn, "
                "NaN made canonical";
  let description = [{
    The pipelines' float emulation (arith-expand with bf16) turns every
    `arith.truncf` to bf16 into integer rounding: exact, but about six
    instructions an element, where sm_80 and newer convert a pair in one
    `cvt.rn.bf16x2.f32`. In a kernel that writes many bf16 values per
    instruction it issues, that rounding is the work: a generated FP8
    weight gradient with one k-step a tile spent 434 of its consumers'
    instructions a tile in the epilogue, most of them rounding 64 values
    (one H200: dsv3-1gpu's ran at 2.16 instructions a cycle, issue-bound,
    bench/results/2026-12-02-h200-dsv3-wgrad).

    Here each `arith.truncf` of f32 (or a vector of f32) to bf16 in the
    module's kernels, rounding to nearest even (no rounding mode, or
    `to_nearest_even`), becomes the chip's cvt.rn and a signed 16-bit
    `llvm.intr.smin` with 0x7FC0: a vector's lanes in pairs
    (`nvvm.convert.f32x2.to.bf16x2`, cvt.rn.bf16x2.f32), a scalar or an odd
    last lane alone (`llvm.nvvm.f2bf16.rn`, cvt.rn.bf16.f32). cvt.rn has
    given every NaN 0x7FFF on an H200 (sm_90; the quantize-large
    `round_f32_to_bf16` cases: NaNs of both signs with quiet, signalling
    and full payloads and those among random bit patterns; the PTX ISA
    documents the canonical NaN only for `.relu`), the only bf16 above
    0x7FC0 as a signed integer (finite values and infinities are at most
    0x7F80, negative ones below zero), so the min gives a NaN the integer
    rounding's quiet NaN and leaves every other value alone: GPU results
    stay bit for bit those of the CPU reference. The NVVM conversions, not
    `llvm.fptrunc`: LLVM folds an fptrunc of a constant NaN (x + NaN
    folded) to a NaN that keeps its sign, 0xFFC0, which the min would
    leave; it does not fold the intrinsics. On sm_90 a pair is two
    instructions (cvt.rn.bf16x2.f32, min.s16x2), a lone value two
    (cvt.rn.bf16.f32, min.s16). An elementwise kernel's row of scalar
    truncations gathered as bf16 bits (`vector.from_elements` of their
    `arith.bitcast`s) is first truncated as one vector, so it is converted
    in pairs too. Other truncations are left to the emulation. Run before
    the emulation, on modules whose target converts to bf16 natively (sm_80
    and newer; checked on sm_90 hardware only).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
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

def GpuDeferHostWaitsPass
    : Pass<"gpu-defer-host-waits", "::mlir::func::FuncOp"> {
  let summary = "Drop the host waits in front of host code that does not "
                "need the device's results";
  let description = [{
    gpu-async-region ends every run of asynchronous GPU ops with a blocking
    `gpu.wait` in front of the next op with side effects: the host waits
    for the stream before each runtime call. Calls into the runtime that
    only enqueue work on the runtime stream (declarations with the unit
    attribute `moert.stream_ordered`, from moert_abi.def's
    MOERT_ABI_STREAM_ORDERED), and host code that touches only the host
    stack (the TMA descriptors being encoded), need no such wait: the
    stream keeps their work in order. Here a blocking `gpu.wait` whose
    following host code up to the next `gpu.wait async` (in the same block)
    is only such code is erased, and that `gpu.wait async` waits on its
    tokens instead, so the kernels before and after run back to back on the
    stream. A wait in front of anything else (a host read of device memory
    or of a stack buffer that a GPU op uses, another call, a loop, the
    return) stays. Run after gpu-async-region. Sound only where every
    stream of the host code is one stream, as libmoe_runtime_gpu's
    mgpuStreamCreate makes it (the stream-ordered calls enqueue on that
    runtime stream).
  }];
}

#endif // MOE_CONVERSION_GPUCODEGEN_PASSES_TD
