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

void populateParallelSchedulePatterns(RewritePatternSet &patterns,
                                      PatternBenefit benefit);

} // namespace mlir::moe::gpu_schedules

#endif // MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_PARALLELSCHEDULES_H
