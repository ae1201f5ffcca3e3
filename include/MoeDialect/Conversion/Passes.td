//===- Passes.td - lowerings out of the moe dialect --------*- tablegen -*-===//
#ifndef MOE_CONVERSION_PASSES_TD
#define MOE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMoeToLoopsPass : Pass<"convert-moe-to-loops"> {
  let summary = "Lower buffer-form moe ops to scf/arith/math/memref loops";
  let description = [{
    The CPU reference semantics: every `moe.buffer.*` op (what
    one-shot-bufferize makes of the tensor ops) becomes loops that implement
    DESIGN.md literally: tie-breaking and ordering of top-k, group-limited
    routing, every normalize mode, permute padding and 64-bit offsets, empty
    groups, f32 accumulation, FP8 rounding with saturation. A
    `moe.buffer.all_to_all` is lowered only on a one-rank grid axis; more
    ranks on the CPU is an error. Tensor-form moe ops must be bufferized
    first (`moe.layer` expanded first).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // MOE_CONVERSION_PASSES_TD
