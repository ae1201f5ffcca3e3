//===- MoeToRuntimeCalls.h - moe ops as calls into the runtime --*- C++ -*-===//
//
// The patterns of convert-moe-to-runtime-calls that turn grouped matmuls and
// weight gradients on bf16 or f32 memrefs into moert_entry_* calls
// (cuBLASLt), for a pass that chooses between them and another lowering of
// those ops.
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_CONVERSION_MOETORUNTIMECALLS_H
#define MOEDIALECT_CONVERSION_MOETORUNTIMECALLS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::moe {

/// The unit attribute of a runtime function's declaration whose calls only
/// enqueue work on the runtime stream and never wait for the device
/// (MOERT_ABI_STREAM_ORDERED in moert_abi.def): gpu-defer-host-waits lets
/// host code call it while the stream still runs earlier kernels.
inline constexpr llvm::StringLiteral kStreamOrderedAttr =
    "moert.stream_ordered";

/// moe.grouped_matmul → moert_entry_grouped_gemm_{bf16,f32} and
/// moe.grouped_weight_grad → moert_entry_grouped_weight_grad_{bf16,f32} (by
/// the operands' element type), for ops
/// with pure buffer semantics (conversion patterns; the operands must be
/// what the runtime takes, which convert-moe-to-runtime-calls checks first).
void populateGroupedMatmulToRuntimeCallPatterns(RewritePatternSet &patterns,
                                                PatternBenefit benefit = 1);

} // namespace mlir::moe

#endif // MOEDIALECT_CONVERSION_MOETORUNTIMECALLS_H
