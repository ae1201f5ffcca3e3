//===- NameKernelSources.cpp - kernels named after the ops they compute ---===//
//
// Its own pass, run before convert-grouped-matmul-to-nvgpu,
// convert-moe-to-runtime-calls and convert-moe-to-parallel-loops: they erase
// the ops whose names the kernels take (the widening kernels of a
// contraction are named after it too), so the names are recorded while
// every op is still there.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::moe {
#define GEN_PASS_DEF_MOENAMEKERNELSOURCESPASS
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

/// What a kernel lowered from `op` computes: the moe op's name,
/// "transpose" for linalg.transpose, or "elementwise" / "reduction" for
/// another linalg op; empty for other ops.
StringRef kernelSourceName(Operation *op) {
  if (isa<moe::MoeDialect>(op->getDialect()))
    return op->getName().stripDialect();
  if (isa<linalg::TransposeOp>(op))
    return "transpose";
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.getNumLoops() == linalgOp.getNumParallelLoops()
               ? "elementwise"
               : "reduction";
  return {};
}

struct MoeNameKernelSourcesPass
    : mlir::moe::impl::MoeNameKernelSourcesPassBase<MoeNameKernelSourcesPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    getOperation()->walk([&](Operation *op) {
      StringRef name = kernelSourceName(op);
      if (!name.empty() && !isa<NameLoc>(op->getLoc()))
        op->setLoc(NameLoc::get(StringAttr::get(ctx, name), op->getLoc()));
    });
  }
};

} // namespace
