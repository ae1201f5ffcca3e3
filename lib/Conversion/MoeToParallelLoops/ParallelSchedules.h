//===- ParallelSchedules.h - moe ops as parallel loops for the GPU -*- C++ -*-===//
//
// The GPU schedules of the non-GEMM moe ops: scf.parallel loops over
// independent work items (gpu-launch-top-level-loops makes each a kernel)
// whose per-item arithmetic is the CPU reference's (LoopEmitters.h), so results
// agree bit for bit where no reduction is reassociated. Ops with a
// sequential step get chunked multi-phase schedules.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_PARALLELSCHEDULES_H
#define MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_PARALLELSCHEDULES_H

#include "../MoeToLoops/LoopEmitters.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::moe::gpu_schedules {

/// moe.aux_loss's schedule: chunked partial sums and counts, then one
/// thread for the loss into the rank-0 f32 buffer `loss`. The global
/// variant over several ranks (`config.ranks` > 1) calls
/// `config.sumCountsOverRanks` on the host, between the kernels, with the
/// i64 counts [sequences = 1, E] in device memory.
void emitAuxLossGpu(OpBuilder &b, Location loc,
                    const loops::AuxLossConfig &config, Value scores,
                    Value indices, Value loss);

/// moe.combine_grad's rows of dy: pairsPerRow[r], how many pairs (t, k)
/// name row r (pairs whose row lies outside [0, yRows64), yRows64 = min(y's
/// rows, dy's rows), count nowhere), and where kept pairOfRow[r] = t·K + k
/// of one of them (-1 for none; the last writer's where several do): i32
/// allocations the caller deallocates.
struct CombineGradRowPairs {
  Value pairsPerRow, pairOfRow, yRows64;
};
CombineGradRowPairs emitCombineGradRowPairs(OpBuilder &b, Location loc,
                                            Value rows, Value y, Value dy,
                                            bool keepPair);
/// moe.combine_grad's dweights: a warp per pair where dout and y have rows
/// of vectors, else a thread per pair.
void emitCombineGradWeights(OpBuilder &b, Location loc, Value dout, Value y,
                            Value rows, Value dweights);
/// dy[r, col ... col + width) of moe.combine_grad as f32 for each r of
/// `rs`, what its row schedule stores (before rounding to dy's type): 0 +
/// weights[t, k] · dout[t] where one pair (pairs.pairOfRow kept) names row
/// r, zero where none does and, for now, where several do
/// (combineGradFixUpRow has those); each row's values handed to `pack`
/// (e.g. rounded and packed into a vector), whose results come back, one a
/// row. No branch: all rows' loads are in flight together.
using RowPack = llvm::function_ref<Value(OpBuilder &, Location,
                                         ArrayRef<Value> lanes)>;
SmallVector<Value> combineGradRowsPacked(OpBuilder &b, Location loc,
                                         Value dout, Value rows, Value weights,
                                         const CombineGradRowPairs &pairs,
                                         ArrayRef<Value> rs, Value col,
                                         int64_t width, RowPack pack);
/// Where several pairs name row r (rare; rows moe.permute makes are
/// distinct): `store` the packed reference sum over all pairs (t, k) in
/// row-major order, the values combineGradRowsPacked left at zero.
using RowStore =
    llvm::function_ref<void(OpBuilder &, Location, Value packed)>;
void combineGradFixUpRow(OpBuilder &b, Location loc, Value dout, Value rows,
                         Value weights, const CombineGradRowPairs &pairs,
                         Value r, Value col, int64_t width, RowPack pack,
                         RowStore store);

void populateParallelSchedulePatterns(RewritePatternSet &patterns,
                                      PatternBenefit benefit);

} // namespace mlir::moe::gpu_schedules

#endif // MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_PARALLELSCHEDULES_H
