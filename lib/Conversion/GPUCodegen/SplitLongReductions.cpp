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

  /// Whether the reduction of `op` runs along the last dimension of every
  /// input that it indexes (a row reduction: a thread per row would read
  /// its row alone, a row apart from its neighbour).
  static bool reducesAlongRows(linalg::LinalgOp op) {
    unsigned last = op.getNumLoops() - 1;
    if (op.getIteratorTypesArray()[last] != utils::IteratorType::reduction)
      return false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!map.isFunctionOfDim(last))
        continue;
      if (!map.isProjectedPermutation() ||
          map.getDimPosition(map.getNumResults() - 1) != last)
        return false;
    }
    return true;
  }

  /// How `op` is split: `ratio` chunks (0: not split), and whether as a
  /// row reduction.
  struct Split {
    int64_t ratio = 0;
    bool rows = false;
  };

  /// The split of `op`, or ratio 0 to leave it:
  ///  - one static reduction dimension of length N ≥ minLength, fewer than
  ///    maxThreads outputs: a power of two of chunks dividing N, each of
  ///    about `chunk` iterations;
  ///  - else a row reduction (reducesAlongRows) of N ≥ minRowLength:
  ///    N / rowChunk chunks interleaved along the row, so that the threads
  ///    of a row read neighbouring elements in every iteration, then a
  ///    reduction over each row's chunks.
  Split splitFor(linalg::LinalgOp op) const {
    if (op.getNumReductionLoops() != 1 || op.hasIndexSemantics() ||
        op.getNumDpsInits() != 1)
      return {};
    // convert-moe-to-runtime-calls gives f32 contractions to cuBLASLt
    // whole.
    if (gpu_contraction::matchContraction(op))
      return {};
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    int64_t outputs = 1, length = 0;
    for (auto [range, iterator] : llvm::zip(ranges, iterators)) {
      if (ShapedType::isDynamic(range))
        return {};
      if (iterator == utils::IteratorType::reduction)
        length = range;
      else
        outputs *= range;
    }
    if (length < minLength || outputs >= maxThreads) {
      if (length >= minRowLength && rowChunk > 0 && length % rowChunk == 0 &&
          length / rowChunk > 1 && reducesAlongRows(op))
        return {length / rowChunk, /*rows=*/true};
      return {};
    }
    int64_t ratio = 1;
    while (length % (ratio * 2) == 0 && length / (ratio * 2) >= chunk &&
           outputs * ratio * 2 <= 16 * maxThreads)
      ratio *= 2;
    return {ratio > 1 ? ratio : 0, /*rows=*/false};
  }

  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, Split>> candidates;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (!op.hasPureTensorSemantics())
        return;
      if (Split split = splitFor(op); split.ratio > 1)
        candidates.push_back({op, split});
    });
    IRRewriter rewriter(&getContext());
    for (auto &candidate : candidates) {
      linalg::GenericOp op = candidate.first;
      Split split = candidate.second;
      rewriter.setInsertionPoint(op);
      auto control = [&](linalg::LinalgOp) {
        linalg::SplitReductionOptions options;
        options.ratio = split.ratio;
        if (split.rows) {
          // Element k of a row goes to chunk k mod ratio (the chunk
          // dimension the inner one) and the partial results are
          // [outputs..., chunk]: a row's threads are neighbours, and each
          // of their iterations reads `ratio` consecutive elements.
          options.index =
              cast<ShapedType>(op.getDpsInitOperand(0)->get().getType())
                  .getRank();
          options.innerParallel = true;
          return options;
        }
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
