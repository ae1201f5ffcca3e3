//===- MoeToParallelLoops.cpp - moe ops on memrefs → parallel loops -------===//
//
// The ops with a parallel schedule (ParallelScheduleOpInterface) get it:
// the chunked multi-phase schedules of ParallelSchedules.h, or reference
// loops that are parallel loops already; every other op gets its CPU
// reference loops, on the GPU target inside a single-thread kernel
// (correct, slow, and only for ops no benchmark layer uses).
//
//===----------------------------------------------------------------------===//
#include "ParallelSchedules.h"
#include "QuantSchedules.h"
#include "WarpRouter.h"

#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::moe {
#define GEN_PASS_DEF_CONVERTMOETOPARALLELLOOPSPASS
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;

namespace {

/// Whether `op` is a moe op on memrefs whose lowering is sequential loops.
bool lowersToSequentialLoops(Operation *op) {
  if (!isa<MoeDialect>(op->getDialect()) || op->getNumResults() != 0)
    return false;
  auto schedule = dyn_cast<ParallelScheduleOpInterface>(op);
  return !schedule || !schedule.hasParallelSchedule();
}

/// Puts every moe op under `root` that lowers to sequential loops in a
/// single-thread gpu.launch of its own, where they will run.
void wrapInSingleThreadKernels(Operation *root) {
  SmallVector<Operation *> sequential;
  root->walk([&](Operation *op) {
    if (lowersToSequentialLoops(op))
      sequential.push_back(op);
  });
  for (Operation *op : sequential) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto launch = gpu::LaunchOp::create(b, loc, one, one, one, one, one, one);
    b.setInsertionPointToEnd(&launch.getBody().front());
    auto terminator = gpu::TerminatorOp::create(b, loc);
    op->moveBefore(terminator);
  }
}

struct ConvertMoeToParallelLoopsPass
    : mlir::moe::impl::ConvertMoeToParallelLoopsPassBase<
          ConvertMoeToParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Targets that hoist scratch run the blocks in order: the tiles that
    // a block's threads share are plain memory there, workgroup memory on
    // the GPU.
    if (singleThreadKernels)
      wrapInSingleThreadKernels(getOperation());
    auto conversion = fp8Instructions
                          ? gpu_schedules::Fp8Conversion::Instructions
                          : gpu_schedules::Fp8Conversion::Arithmetic;
    gpu_schedules::fuseDequantizedTransposedQuantizes(
        getOperation(), conversion, /*workgroupTiles=*/!hoistScratch);
    if (fuseGluQuantize)
      gpu_schedules::fuseGluQuantizes(getOperation(), conversion);
    if (fuseCombineGradQuantize)
      gpu_schedules::fuseCombineGradQuantizes(getOperation(), conversion,
                                              /*workgroupTiles=*/!hoistScratch);
    // The parallel schedules first; the reference loops are the fallback
    // (and say why an op cannot be lowered at all).
    RewritePatternSet patterns(&getContext());
    gpu_schedules::populateParallelSchedulePatterns(patterns, /*benefit=*/2);
    gpu_schedules::populateQuantSchedulePatterns(
        patterns, /*benefit=*/2, conversion, /*workgroupTiles=*/!hoistScratch);
    if (warpRouter)
      gpu_schedules::populateWarpRouterPatterns(patterns, /*benefit=*/3);
    if (failed(lowerMoeOps(getOperation(), std::move(patterns))))
      return signalPassFailure();
    if (hoistScratch)
      hoistParallelScratch(getOperation());
  }
};

} // namespace
