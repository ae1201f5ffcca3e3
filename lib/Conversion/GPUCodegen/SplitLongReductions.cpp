//===- SplitLongReductions.cpp - chunk long reductions for the GPU --------===//
#include "../MoeToRuntimeCalls/Contraction.h"

#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::moe {
#define GEN_PASS_DEF_SPLITLONGREDUCTIONSPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;

namespace {

struct SplitReductionsPass
    : mlir::moe::impl::SplitLongReductionsPassBase<SplitReductionsPass> {
  using Base::Base;

  /// Chunks for `op`, or 0 to leave it: one static reduction dimension of
  /// length N ≥ minLength, fewer than maxThreads outputs; the chunk count
  /// is a power of two dividing N with chunks of about `chunk` iterations.
  int64_t ratioFor(linalg::LinalgOp op) const {
    if (op.getNumReductionLoops() != 1 || op.hasIndexSemantics() ||
        op.getNumDpsInits() != 1)
      return 0;
    // convert-moe-to-runtime-calls gives f32 contractions to cuBLASLt
    // whole.
    if (gpu_contraction::matchContraction(op))
      return 0;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    int64_t outputs = 1, length = 0;
    for (auto [range, iterator] : llvm::zip(ranges, iterators)) {
      if (ShapedType::isDynamic(range))
        return 0;
      if (iterator == utils::IteratorType::reduction)
        length = range;
      else
        outputs *= range;
    }
    if (length < minLength || outputs >= maxThreads)
      return 0;
    int64_t ratio = 1;
    while (length % (ratio * 2) == 0 && length / (ratio * 2) >= chunk &&
           outputs * ratio * 2 <= 16 * maxThreads)
      ratio *= 2;
    return ratio > 1 ? ratio : 0;
  }

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics() && ratioFor(op) > 1)
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : candidates) {
      rewriter.setInsertionPoint(op);
      int64_t ratio = ratioFor(op);
      auto control = [&](linalg::LinalgOp) {
        linalg::SplitReductionOptions options;
        options.ratio = ratio;
        // The chunk dimension first: the partial results keep the output's
        // layout in their innermost dimensions, so the threads of both ops
        // (one per partial / final output, the last dimension fastest) read
        // neighbouring elements;
        // convert-linalg-reductions-to-accumulating-loops gives the final
        // reduction over chunks one thread per output wherever its reduction
        // dimension stands.
        options.index = 0;
        options.innerParallel = false;
        return options;
      };
      // Ops it cannot split (no recognizable combiner, an operand that does
      // not index the reduction by a plain dimension) stay as they are.
      (void)linalg::splitReduction(rewriter, op, control);
    }
  }
};

} // namespace
