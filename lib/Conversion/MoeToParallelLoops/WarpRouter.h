//===- WarpRouter.h - the router ops as a warp per token --------*- C++ -*-===//
//
// moe.topk with one warp (32 lanes) per token: lane l holds the selection
// scores of experts l, l + 32, l + 64, ... (E/32 slots, coalesced loads),
// and each selection round is a lane-local arg-max followed by a butterfly
// of `gpu.shuffle xor` on (value, index) pairs. The pair order is the
// reference's (a larger value wins, NaN ranks below every number, equal
// values go to the lower index), a total order, so the butterfly finds the
// reference's choice whatever the reduction order, and every lane ends
// with it. Weights and their normalization are computed by every lane in
// the reference's order, so the results equal the reference's bit for bit.
// moe.route likewise: lane l computes experts l + 32 j; softmax's max is a
// butterfly and its sum adds every expert's value in the reference's order
// (index shuffles), bit for bit the reference's.
//
// The tokens are an scf.parallel mapped to block_x over blocks of
// kWarpsPerBlock tokens holding one over the block's threads mapped to
// thread_x; the shuffles stand at the top level of the thread loop, where
// convert-warp-shuffles-to-lane-loops can run the lanes in order on the
// CPU.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_WARPROUTER_H
#define MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_WARPROUTER_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::moe::gpu_schedules {

/// Warps (tokens) per block of the warp schedules (a warp is
/// RowSchedules.h's kWarpSize lanes).
constexpr int64_t kWarpsPerBlock = 4;

/// The warp-per-token schedules of moe.route (a static number of experts
/// that is a multiple of 32, at most 32 · 16) and moe.topk where they apply (a static
/// number of experts that is a multiple of 32 and at most 32 · 16, K ≤ 32,
/// groups, if any, of a multiple of 32 experts); other moe.topk ops keep
/// the thread-per-token schedule, as do other moe.route ops.
void populateWarpRouterPatterns(RewritePatternSet &patterns,
                                PatternBenefit benefit);

} // namespace mlir::moe::gpu_schedules

#endif // MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_WARPROUTER_H
