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

#include "mlir/IR/PatternMatch.h"

namespace mlir::moe::gpu_schedules {

void populateParallelSchedulePatterns(RewritePatternSet &patterns,
                                      PatternBenefit benefit);

} // namespace mlir::moe::gpu_schedules

#endif // MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_PARALLELSCHEDULES_H
