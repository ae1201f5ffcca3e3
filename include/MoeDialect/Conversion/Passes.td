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
  // func and llvm: collectives over several ranks become calls into
  // libmoe_runtime (func.call with !llvm.ptr arguments).
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def MoeNameKernelSourcesPass
    : Pass<"moe-name-kernel-sources", "::mlir::ModuleOp"> {
  let summary = "Name the location of every op that becomes a kernel after the op";
  let description = [{
    Wraps the location of every moe op and every linalg op in a `NameLoc`
    saying what it computes (`permute`, `combine_grad`, and `transpose`,
    `elementwise` or `reduction` for linalg ops); a location that is a `NameLoc` already
    stays. The loops lowered from an op inherit its location, and
    `gpu-launch-top-level-loops` names each kernel after it, so profiles and
    runtime errors show which op a kernel came from.

    A pass of its own because it must run before the GPU lowerings of the
    moe ops (`convert-grouped-matmul-to-nvgpu` launches its kernel at the
    op's location, `convert-moe-to-runtime-calls` names the kernels that
    widen bf16 operands after the contraction's location,
    `convert-moe-to-parallel-loops` erases the ops whose names it records),
    and it is the last point where an op's identity is visible.
  }];
}

def ConvertMoeToRuntimeCallsPass
    : Pass<"convert-moe-to-runtime-calls", "::mlir::ModuleOp"> {
  let summary = "Lower grouped matmuls and f32 contractions on memrefs to runtime calls";
  let description = [{
    What the GPU target hands to libmoe_runtime_gpu (cuBLASLt), on buffers
    (after one-shot-bufferize):

    * `moe.grouped_matmul` / `moe.grouped_weight_grad` on memrefs of bf16
      become `func.call @moert_entry_grouped_gemm_bf16` /
      `@moert_entry_grouped_weight_grad_bf16` (pointers passed as
      `!llvm.ptr`, group sizes read from device memory), on memrefs of f32
      (e.g. the dequantized FP8 operands of moe-fp8-placement's weight
      gradients) `@moert_entry_grouped_gemm_f32` /
      `@moert_entry_grouped_weight_grad_f32` (TF32 tensor cores for a bf16
      output, true fp32 for an f32 one);
    * `moe.gate` and the linalg contractions with f32 accumulation (what
      autodiff writes for the router adjoints, dlogits·Wᵀ and xᵀ·dlogits)
      become `func.call @moert_entry_matmul_bf16` (dense cuBLASLt GEMMs on
      bf16 tensor cores, accumulating into the f32 output) on operands
      split into bf16 parts at about fp32 accuracy (an f32 value as the sum of
      three bf16 values, split_bf16 kernels; SplitMatmul.h); dynamic shapes
      keep one true-fp32 `@moert_entry_matmul_f32`; contractions on buffers
      with a non-identity layout stay.

    The call signatures come from the runtime's ABI list (moert_abi.def).
    What the runtime cannot do is an error, located at the op, not a
    fallback to loops: grouped matmuls with FP8 scales, operands other than
    bf16 or f32, group sizes other than i32, outputs other than bf16/f32,
    non-contiguous buffers. The other moe ops are left for
    `convert-moe-to-parallel-loops`.

    `dense-matmuls=false` leaves `moe.gate` and the f32 contractions to the
    compiler's own kernels (`convert-moe-to-parallel-loops`: a thread per
    logit, reduction loops), so that no library kernel runs in a layer
    without grouped-GEMM calls: compute-sanitizer racecheck fails inside
    cuBLASLt's split-K kernel of dsv3-1gpu's router matmul before it
    reaches the compiler's kernels. Slower; meant for sanitizer builds.
  }];
  let options = [
    Option<"denseMatmuls", "dense-matmuls", "bool", /*default=*/"true",
           "moe.gate and the f32 contractions as cuBLASLt GEMMs on split "
           "bf16 operands (false: left to the compiler's kernels)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def ConvertMoeToParallelLoopsPass
    : Pass<"convert-moe-to-parallel-loops", "::mlir::ModuleOp"> {
  let summary = "Lower moe ops on memrefs to parallel loops over independent work items";
  let description = [{
    The GPU target's algorithms, on buffers (after one-shot-bufferize):
    every moe op with a parallel schedule (`ParallelScheduleOpInterface`)
    becomes `scf.parallel` loops over its independent work items (tokens,
    rows, elements, token chunks) whose bodies compute the same per-item
    arithmetic as the CPU reference (shared code), plus, where an op has a
    sequential step (permute's counting sort, loss reductions), chunked
    multi-phase loops: per-chunk partials in parallel, then a short combine.
    Row-wise ops on rows with a static length (permute's row copies,
    combine, glu) get a block-per-row schedule: an `scf.parallel` over rows
    mapped to `block_x` holding one over the row's vectors mapped to
    `thread_x` (`#gpu.loop_dim_map`), with 16-byte `vector.load` /
    `vector.store` accesses. FP8 `moe.quantize` / `moe.dequantize` (all
    recipes but mx_1x32) amax-reduce with warp shuffle butterflies
    (tensor-wise: warp partials, then one warp; 1x128: 16 lanes a block;
    128x128: a warp a tile) and cast with vector accesses, bit for bit the
    reference's (a maximum is exact in any order). A 1x128 quantize of a
    transposed copy reads the copy's source; where that source is a
    dequantized copy of FP8 rows that nothing else uses (the blockwise
    backward's columnwise operand from an FP8 residual), it reads the FP8
    rows and their scales, and neither copy is made. The transposed
    schedules divide by the scale's reciprocal with two FMA corrections,
    which gives the division's bits.
    The results are the CPU reference's bit for bit for the integer outputs
    (indices, rows, group sizes) and within f32 reassociation for the
    reductions. Every other moe op gets its reference loops
    (`convert-moe-to-loops`); what cannot be lowered at all (exchanges over
    more than one rank) is reported with its location.

    With `single-thread-kernels` (the GPU target), an op without a parallel
    schedule is first put in a single-thread `gpu.launch`, so that its
    sequential reference loops run on the device; `gpu-launch-top-level-loops`
    turns the parallel loops into kernels. With `hoist-scratch` (the CPU,
    which runs the iterations one after another, as
    `moe-lower-to-cpu{gpu-schedules}` does to check these algorithms against
    the reference where there is no GPU), the per-iteration scratch of the
    parallel loops is allocated once, in front of the outermost loop.

    With `warp-router`, moe.topk over a static number of experts that is a
    multiple of 32 (at most 512, K <= 32, groups of a multiple of 32
    experts) is a warp per token: each lane holds E/32 selection scores,
    each selection round is a butterfly of `gpu.shuffle xor` on (score,
    expert) pairs in the reference's order (ties to the lower index), and
    the results equal the reference's bit for bit. moe.route over such
    experts is a warp per token too (lane l computes experts l + 32 j;
    softmax's max is a butterfly, its sum adds the lanes' values broadcast
    in the reference's order, so the scores equal the reference's bit for
    bit). On the CPU,
    `convert-warp-shuffles-to-lane-loops` runs the lanes in order.

    With `fuse-glu-quantize`, a `moe.quantize block_1x128` whose input only a
    `moe.glu` writes (an allocation nothing else reads: the FP8 forward's
    fc2 input) becomes the quantize's row-block schedule computing the glu
    from gate and up (the glu schedule's arithmetic, rounded to h's type as
    its store would): h is never written, the glu kernel goes.

    With `fuse-combine-grad-quantize`, a `moe.quantize_with_transpose` whose
    input only a `moe.combine_grad` writes as its dy (an allocation nothing
    else reads: the FP8 backward's fc2 output gradient) becomes the staged
    schedule gathering each dy row itself (the row's pair (t, k) from a
    row → pair map made in the combine_grad's place, weights[t, k] ·
    dout[t] rounded to dy's type as the store would): dy is never written,
    the combine_grad's dy kernel goes.

    With `fp8-instructions` (GPU targets sm_89 and newer), the quantize and
    dequantize schedules convert between f32 and FP8 with the
    `nvvm.convert.f32x2.to.f8x2` (cvt.rn.satfinite) and
    `nvvm.convert.f8x2.to.f16x2` instructions, two values each, instead of
    the reference's integer arithmetic: the same codes and values, at a
    fraction of the instructions.
  }];
  let options = [
    Option<"singleThreadKernels", "single-thread-kernels", "bool",
           /*default=*/"false",
           "Put each op without a parallel schedule in a single-thread "
           "gpu.launch before lowering it to its reference loops">,
    Option<"hoistScratch", "hoist-scratch", "bool", /*default=*/"false",
           "Allocate the per-iteration scratch of parallel loops once, in "
           "front of the outermost loop (targets that run iterations in "
           "order)">,
    Option<"warpRouter", "warp-router", "bool", /*default=*/"false",
           "moe.route and moe.topk as a warp per token (gpu.shuffle "
           "butterflies) where "
           "the number of experts is a static multiple of 32">,
    Option<"fp8Instructions", "fp8-instructions", "bool", /*default=*/"false",
           "FP8 quantize/dequantize convert with the sm_89+ cvt "
           "instructions (NVVM ops) instead of integer arithmetic">,
    Option<"fuseGluQuantize", "fuse-glu-quantize", "bool", /*default=*/"false",
           "A moe.quantize block_1x128 of a moe.glu output that nothing else "
           "reads computes the glu's values itself: one kernel, h never "
           "stored (the same bits)">,
    Option<"fuseCombineGradQuantize", "fuse-combine-grad-quantize", "bool",
           /*default=*/"false",
           "A moe.quantize_with_transpose of a moe.combine_grad's dy that "
           "nothing else reads gathers dy's rows itself: dy never stored "
           "(the same bits)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

//===----------------------------------------------------------------------===//
// The entry ABI of artifacts (what moe-compile runs around a pipeline)
//===----------------------------------------------------------------------===//
//
// An entry `@f(ins) -> (results)` of a compiled artifact is called as
// `void f_packed(void **args)`, args[i] pointing to the dense row-major
// buffer of input i, then of result i. moe-compile runs, in this order:
// moe-prepare-entries, moe-reserve-entry-names, a lowering pipeline with
// `out-params`, moe-restore-entry-names, moe-add-packed-wrappers.

def MoePrepareEntriesPass : Pass<"moe-prepare-entries", "::mlir::ModuleOp"> {
  let summary = "Give public functions the artifact's entry signature, on tensors";
  let description = [{
    For every public function with a body (an entry), before bufferization:

    * tensor arguments are marked read-only (`bufferization.writable =
      false`), so bufferization never writes into the caller's memory;
    * tensors without elements are passed as `memref<0xT>` (a memref with a
      zero in a non-leading dimension, e.g. `memref<4x0xf32>`, cannot take
      the bare-pointer convention): the body gets a `tensor.empty` of the
      original type instead of the argument, and a result without elements
      is returned as a `tensor<0xT>`;
    * a value returned twice is copied for its second result, since each
      result becomes its own out-parameter;
    * the `moe.name`/`moe.role` attributes (which the artifact metadata
      records before this step) are dropped;
    * an entry the module also calls keeps its value-returning form for
      those calls, as a private copy `@<entry>_callee`.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MoeReserveEntryNamesPass
    : Pass<"moe-reserve-entry-names", "::mlir::ModuleOp"> {
  let summary = "Rename entries to reserved names for the lowering";
  let description = [{
    Entries keep their C names in the artifact, but while lowering they go
    by reserved names (`__moe_entry_<n>`, no `.`: kernels outlined from an
    entry are named after it, and PTX identifiers cannot contain one), so
    that a name the lowering needs for itself (an entry called `@malloc` or
    `@expf`) is not mixed up with them. The module's `moe.entries`
    attribute records, per entry, its reserved name, its name and its
    number of arguments plus results (the pointers its packed wrapper will
    pass), for moe-restore-entry-names and moe-add-packed-wrappers.
  }];
}

def MoeRestoreEntryNamesPass
    : Pass<"moe-restore-entry-names", "::mlir::ModuleOp"> {
  let summary = "Give the lowered entries their names back";
  let description = [{
    After lowering to the LLVM dialect, renames every `llvm.func` that
    moe-reserve-entry-names renamed (the module's `moe.entries`) back to its
    entry name. Errors: an entry the lowering lost, and an entry whose name
    the lowered code took (it calls a C function of that name).
  }];
}

def MoeAddPackedWrappersPass
    : Pass<"moe-add-packed-wrappers", "::mlir::ModuleOp"> {
  let summary = "Add the `void <entry>_packed(void **args)` wrapper of every entry";
  let description = [{
    For every entry the module's `moe.entries` records (after
    moe-restore-entry-names), adds `llvm.func @<entry>_packed(!llvm.ptr)`,
    which loads one pointer per argument and result from the array and
    calls the entry; then drops `moe.entries`. Errors: an entry the lowering
    lost, an entry that does not take exactly one pointer per argument and
    result (bare-pointer memrefs and out-params are needed), and a module
    that has a symbol of the wrapper's name already.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertGroupedMatmulToNVGPUPass
    : Pass<"convert-grouped-matmul-to-nvgpu", "::mlir::ModuleOp"> {
  let summary = "Generate Hopper TMA + wgmma kernels for bf16 and FP8 grouped "
                "matmuls and bf16 weight gradients";
  let description = [{
    Rewrites each `moe.grouped_matmul` and `moe.grouped_weight_grad` on
    memrefs that it can generate a kernel for into a `gpu.launch` of a
    persistent, warp-specialized grouped GEMM kernel written with the
    upstream nvgpu/nvvm dialects and specialized to the op's static shapes:

    * a producer warpgroup (`setmaxnreg` down) issues TMA bulk tensor loads
      of both operands' tiles into a ring of shared-memory stages, each
      guarded by a "full" and an "empty" mbarrier;
    * one consumer warpgroup per 64 rows of the tile (`setmaxnreg` up) runs
      wgmma (m64n128k16 or m64n256k16, bf16 in, f32 accumulate; each
      operand K-major or transposed as it is stored) on its rows of each
      stage and releases the stage;
    * the tile scheduler reads the group sizes on the device: every CTA
      scans them in shared memory and walks a linear tile index with a grid
      stride, so no group size ever reaches the host. A grouped matmul's
      groups cut c's rows: tiles (group's m-tile, n-tile), then the zero
      rows past the last group. A weight gradient's groups cut the
      reduction: tiles (group, m-tile, n-tile), each reducing its group's
      rows in one CTA (the same order every run: bit-identical results);
      the rows of the next group that a last, partial k-step loads are
      zeroed in shared memory first, and an empty group's db is zero;
    * the epilogue stages the accumulator in shared memory (its register
      fragments, wgmma's layout) and stores the rows that belong to the
      tile (row mask at a group's end, column mask at N), as bf16 or f32.

    FP8 grouped matmuls (f8E4M3FN / f8E5M2 operands, mixed allowed, with
    `scales`): wgmma m64n128k32 on operands that are both K-major (FP8
    wgmma reads no transposed operand): a `kn` weight is first copied to
    [G, N, K] (linalg.transpose into a temporary). Tensor-wise scales
    multiply the accumulator by a_scale · b_scale in the epilogue; block
    scales (a [R, K/128], b per 128 x 128 block) are applied per 128-wide
    k-step: each k-step's product goes to a second set of registers, is
    waited for, and is added to the running sum times a_scale[row, k-step] ·
    b_scale[group, n-block, k-step] (BN = 128 then). K must be a multiple
    of 128.

    The host side encodes the TMA descriptors with
    `moert_entry_tensor_map_2d` (host-only work); each CTA copies them
    into its slot of a device scratch buffer and fences them for the tensor
    map proxy. Nothing in the entry waits for the device.

    Tile order: a group's tiles run in panels of `panel-tiles` column
    tiles, m-tile after m-tile within a panel, so that the CTAs running at
    once share a few of B's column tiles and a range of A's rows in L2;
    chosen (0) as one panel (m-tile after m-tile) where a group's B (a
    weight gradient: the group's rows of it) is below 24 MB, else about
    sqrt(num-ctas * BM / BN) tiles wide.

    Tile choice: BK = one 128-byte swizzle row (64 bf16, 128 FP8). Grouped matmul: BM = 128 (two consumer
    warpgroups) when the rows per group on average (R / G) are at least
    128, else 64 (one; small groups waste less of a tile). Weight gradient:
    BM = 128 where db's rows (Kd, or N for `nk`) are a multiple of 128, else
    64. BN (`block-n`): with `auto`, 256 (one m64n256k16 wgmma a consumer
    and k-slice) where c's N is a multiple of the tile's output width (256,
    or 128 for gate|up halves), at least 3 stages fit and the op does not
    `accumulate`; else 128 (m64n128k16). As many pipeline stages as shared
    memory holds next to the epilogue tile, at most 8 (BN = 128: 4 for
    BM = 128, 7 for BM = 64; BN = 256: 3 and 4).

    Supported: bf16 operands, both weight layouts, bf16 or f32 output;
    FP8 grouped matmuls as above; grouped matmul: K a multiple of 8 (a
    last, partial k-step covers the rest of 64; FP8: a multiple of 128),
    N of 8; weight gradient: db's rows need not fill 64-row tiles (a last,
    partial tile reads zeros past them and is stored by rows; FP8: a
    multiple of 64), Kd and N a multiple of 8. Other ops are left for
    convert-moe-to-runtime-calls (cuBLASLt); `require-all` makes them an
    error naming the dimension and the multiple it needs.
  }];
  let options = [
    Option<"numCtas", "num-ctas", "int64_t", /*default=*/"132",
           "CTAs of the persistent kernel (the SM count: 132 on H100/H200 "
           "SXM)">,
    Option<"blockNOption", "block-n", "std::string", /*default=*/"\"auto\"",
           "Columns of a tile (the wgmma's N): auto (256 for weight gradients "
           "and for grouped matmuls with N > 4096 where it fits with 3 "
           "stages and N is a multiple of it, else 128), 128 or 256 "
           "(wherever 2 stages fit)">,
    Option<"panelTiles", "panel-tiles", "int64_t", /*default=*/"0",
           "n-tiles of a panel of a group's tile order (0: chosen: one "
           "panel where a group's B is below 24 MB, else about "
           "sqrt(num-ctas * BM / BN); a value of at least N / BN runs the "
           "tiles m-tile after m-tile)">,
    Option<"maxStages", "max-stages", "int64_t", /*default=*/"0",
           "At most this many pipeline stages (0: as many as shared memory "
           "holds, up to 8; else 2 to 8). compute-sanitizer memcheck runs "
           "clean on 3-stage kernels, not on deeper ones that fill shared "
           "memory">,
    Option<"tmaStore", "tma-store", "bool", /*default=*/"true",
           "Store whole bf16 output tiles with TMA (false: every tile by "
           "threads, which compute-sanitizer initcheck can follow)">,
    Option<"racecheckLayout", "racecheck-layout", "bool", /*default=*/"false",
           "Start the operand stages 1 KB further into shared memory: "
           "compute-sanitizer racecheck takes stores to the first bytes of "
           "the stages for accesses to the kernel's mbarriers and reports "
           "races that are not there (racecheck builds; costs 1 KB of "
           "shared memory, a stage at the margin)">,
    Option<"pingpong", "pingpong", "bool", /*default=*/"true",
           "Grouped matmuls with 128 x 128 tiles: each consumer warpgroup "
           "runs whole tiles, the two taking turns in the main loop, so one "
           "stores while the other multiplies (bf16 operands and output, 4 "
           "or more k-steps; not with accumulate, gate|up pairs or a K tail "
           "of an N-major weight; false: both consumers share every tile, "
           "64 rows each)">,
    Option<"pairedPromotion", "paired-promotion", "bool", /*default=*/"true",
           "Blockwise FP8 weight gradients: issue two k-steps' wgmmas, each into its "
           "own product registers, before waiting for the first, so that "
           "its promotion (the product times its scales, added to the sum) "
           "runs while the second multiplies (false: each k-step's product "
           "is waited for and promoted before the next is issued)">,
    Option<"heaviestGroupsFirst", "heaviest-groups-first", "bool",
           /*default=*/"true",
           "Weight gradients: run the groups' tiles largest group first, "
           "each round of numCtas tiles dealt to the CTAs in alternating "
           "directions, so that skewed routing's hot groups do not pile up "
           "on a few CTAs (false: group after group, CTA i taking tiles i, "
           "i + num-ctas, ...)">,
    Option<"epilogueFastMath", "epilogue-fast-math", "bool",
           /*default=*/"true",
           "The epilogue region's arithmetic with fast-math flags (afn, "
           "arcp, contract): approximate f32 division and exp, a few ulp "
           "of f32 before the output's rounding (false: IEEE division, as "
           "the CPU reference computes)">,
    Option<"fp8Only", "fp8-only", "bool", /*default=*/"false",
           "Generate kernels for FP8 grouped matmuls only (the bf16 ones stay "
           "with cuBLASLt, which has no FP8 grouped path here)">,
    Option<"autoSelect", "auto-select", "bool", /*default=*/"false",
           "Generate kernels for the bf16/f32 grouped GEMMs only where "
           "gemm=auto's rule prefers them (32 or more groups, weight "
           "gradients with 128 or more rows a group on average; or 4096 or "
           "more rows a group on average); FP8 ones always (moe-lower-to-gpu "
           "with gemm=auto)">,
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
