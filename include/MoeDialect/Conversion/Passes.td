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

def MoeNameKernelSourcesPass
    : Pass<"moe-name-kernel-sources", "::mlir::ModuleOp"> {
  let summary = "Name the location of every op that becomes a kernel after the op";
  let description = [{
    Wraps the location of every moe op and every linalg op in a `NameLoc`
    saying what it computes (`permute`, `combine_grad`, and `elementwise` or
    `reduction` for linalg ops); a location that is a `NameLoc` already
    stays. The loops lowered from an op inherit its location, and
    `gpu-launch-top-level-loops` names each kernel after it, so profiles and
    runtime errors show which op a kernel came from.

    A pass of its own because it must run before both GPU lowerings of the
    moe ops (`convert-moe-to-runtime-calls` names the kernels that widen
    bf16 operands after the contraction's location,
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
      `!llvm.ptr`, group sizes read from device memory);
    * linalg contractions with f32 accumulation (what autodiff writes for
      the router adjoints, dlogits·Wᵀ and xᵀ·dlogits) become
      `func.call @moert_entry_matmul_f32` (one dense cuBLASLt f32 GEMM,
      accumulating into the output), bf16 operands widened to an f32
      temporary first; contractions on buffers with a non-identity layout
      stay.

    The call signatures come from the runtime's ABI list (moert_abi.def).
    What the runtime cannot do is an error, located at the op, not a
    fallback to loops: grouped matmuls with FP8 scales, operands other than
    bf16, group sizes other than i32, outputs other than bf16/f32,
    non-contiguous buffers. The other moe ops are left for
    `convert-moe-to-parallel-loops`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
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
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // MOE_CONVERSION_PASSES_TD
