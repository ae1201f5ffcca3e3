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
      then a short combine. `gpu-launch-top-level-loops` turns each top-level
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

#endif // MOE_CONVERSION_PASSES_TD
