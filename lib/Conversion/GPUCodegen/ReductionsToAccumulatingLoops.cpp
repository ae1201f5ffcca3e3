//===- ReductionsToAccumulatingLoops.cpp - register accumulators ---------===//
//
// A buffer-form linalg reduction becomes
//   scf.parallel (parallel dims) {
//     %init = memref.load %out[...]
//     %sum = scf.for (reduction dims) iter_args(%acc = %init) { body }
//     memref.store %sum, %out[...]
//   }
// (the pass description in Passes.td says why).
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::moe {
#define GEN_PASS_DEF_CONVERTLINALGREDUCTIONSTOACCUMULATINGLOOPSPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

/// The indices `map` gives for the loop induction variables `ivs` (one per
/// loop dimension, in dimension order).
SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(ivs[dim.getPosition()]);
      continue;
    }
    indices.push_back(affine::AffineApplyOp::create(
        b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  }
  return indices;
}

struct ReductionToAccumulatorLoops
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() == 0 ||
        op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "not a one-output reduction");
    OpOperand *init = op.getDpsInitOperand(0);
    AffineMap outMap = op.getMatchingIndexingMap(init);
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    // The output must be indexed by parallel dimensions only, each once:
    // then every (parallel point) owns its output element.
    if (!outMap.isProjectedPermutation())
      return rewriter.notifyMatchFailure(op, "output map not a projection");
    for (AffineExpr expr : outMap.getResults())
      if (iterators[cast<AffineDimExpr>(expr).getPosition()] !=
          utils::IteratorType::parallel)
        return rewriter.notifyMatchFailure(op, "output indexed by a reduction");
    if (op.getNumParallelLoops() != outMap.getNumResults())
      return rewriter.notifyMatchFailure(op, "parallel dim not in the output");
    Block *body = op.getBlock();
    for (Operation &inner : body->without_terminator())
      if (!isMemoryEffectFree(&inner))
        return rewriter.notifyMatchFailure(op, "body has side effects");

    Location loc = op.getLoc();
    SmallVector<Range> ranges = op.createLoopRanges(rewriter, loc);
    auto value = [&](OpFoldResult ofr) {
      return getValueOrCreateConstantIndexOp(rewriter, loc, ofr);
    };
    SmallVector<Value> parLbs, parUbs, parSteps, redLbs, redUbs, redSteps;
    SmallVector<unsigned> parDims, redDims;
    for (auto [dim, range] : llvm::enumerate(ranges)) {
      // Loop ranges are (0, size, 1) for linalg ops on buffers.
      bool parallel = iterators[dim] == utils::IteratorType::parallel;
      (parallel ? parLbs : redLbs).push_back(value(range.offset));
      (parallel ? parUbs : redUbs).push_back(value(range.size));
      (parallel ? parSteps : redSteps).push_back(value(range.stride));
      (parallel ? parDims : redDims).push_back(dim);
    }

    // Inputs read with a stride across neighbouring threads get a
    // transposed copy first (see coalescedCopy).
    DenseMap<OpOperand *, std::pair<Value, AffineMap>> copies;
    for (OpOperand *input : op.getDpsInputOperands())
      if (auto copy = coalescedCopy(rewriter, op, input))
        copies[input] = *copy;

    Value out = init->get();
    // A fill that only feeds this op: the accumulators start from its value
    // and the fill (a kernel over the whole output) goes.
    linalg::FillOp feedingFill = fillOnlyFeeding(op, out);
    auto loop = scf::ParallelOp::create(rewriter, loc, parLbs, parUbs, parSteps);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> ivs(ranges.size());
    for (auto [dim, iv] : llvm::zip(parDims, loop.getInductionVars()))
      ivs[dim] = iv;
    // The output indices use parallel dimensions only.
    SmallVector<Value> outIndices = applyMap(rewriter, loc, outMap, ivs);
    Value start =
        feedingFill
            ? feedingFill.getDpsInputOperand(0)->get()
            : memref::LoadOp::create(rewriter, loc, out, outIndices).getResult();
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, redLbs, redUbs, redSteps, ValueRange{start},
        [&](OpBuilder &b, Location nestedLoc, ValueRange redIvs,
            ValueRange acc) -> scf::ValueVector {
          for (auto [dim, iv] : llvm::zip(redDims, redIvs))
            ivs[dim] = iv;
          IRMapping mapping;
          for (OpOperand *input : op.getDpsInputOperands()) {
            BlockArgument arg = op.getMatchingBlockArgument(input);
            Value operand = input->get();
            if (!isa<MemRefType>(operand.getType())) {
              mapping.map(arg, operand);
              continue;
            }
            AffineMap map = op.getMatchingIndexingMap(input);
            if (auto it = copies.find(input); it != copies.end())
              std::tie(operand, map) = it->second;
            SmallVector<Value> indices = applyMap(b, nestedLoc, map, ivs);
            mapping.map(arg,
                        memref::LoadOp::create(b, nestedLoc, operand, indices));
          }
          mapping.map(op.getMatchingBlockArgument(init), acc.front());
          for (Operation &inner : body->without_terminator()) {
            if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
              mapping.map(index.getResult(), ivs[index.getDim()]);
              continue;
            }
            b.clone(inner, mapping);
          }
          Value next = mapping.lookupOrDefault(
              cast<linalg::YieldOp>(body->getTerminator()).getOperand(0));
          return {next};
        });
    memref::StoreOp::create(rewriter, loc, nest.results.front(), out,
                            outIndices);
    rewriter.setInsertionPointAfter(loop);
    for (auto &[input, copy] : copies)
      memref::DeallocOp::create(rewriter, loc, copy.first);
    rewriter.eraseOp(op);
    if (feedingFill)
      rewriter.eraseOp(feedingFill);
    return success();
  }

  /// The linalg.fill of `out` (a buffer that `op`, a reduction writing every
  /// element of it, accumulates into) whose value `op` reads and nothing
  /// else does: `out` is a fresh allocation in `op`'s block, not an input of
  /// `op`, filled (with a value of its element type) before `op`, and every
  /// other use comes after `op`. Null when there is none.
  static linalg::FillOp fillOnlyFeeding(linalg::LinalgOp op, Value out) {
    if (!out.getDefiningOp<memref::AllocOp>() ||
        out.getParentBlock() != op->getBlock())
      return {};
    for (OpOperand *input : op.getDpsInputOperands())
      if (input->get() == out)
        return {};
    Block *block = op->getBlock();
    linalg::FillOp fill;
    for (Operation *user : out.getUsers()) {
      if (user == op.getOperation() || user == out.getDefiningOp())
        continue;
      Operation *here = block->findAncestorOpInBlock(*user);
      if (!here)
        return {};
      if (op->isBeforeInBlock(here))
        continue;
      auto candidate = dyn_cast<linalg::FillOp>(user);
      if (fill || !candidate || here != user ||
          !candidate.hasPureBufferSemantics() ||
          candidate.getDpsInitOperand(0)->get() != out ||
          candidate.getDpsInputOperand(0)->get().getType() !=
              cast<MemRefType>(out.getType()).getElementType())
        return {};
      fill = candidate;
    }
    return fill;
  }

  /// Threads of a launch walk the output's last dimension fastest
  /// (gpu-launch-top-level-loops). An input indexed by that dimension at some
  /// position p but by a reduction dimension last (dx[t, h] = Σ_e
  /// dlogits[t, e]·w[h, e]) is then read with a stride of a whole row
  /// between neighbouring threads: every load of a warp touches as many
  /// cache lines as it has threads. When the input is small next to the
  /// output (re-read by every output row), a transposed copy (p and the
  /// last position swapped) makes those reads contiguous. Returns the copy
  /// and the indexing map to read it with.
  static std::optional<std::pair<Value, AffineMap>>
  coalescedCopy(PatternRewriter &rewriter, linalg::LinalgOp op,
                OpOperand *input) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    auto outType = dyn_cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
    if (!type || !outType || type.getRank() < 2 || !type.hasStaticShape() ||
        !outType.hasStaticShape() || outType.getRank() == 0 ||
        !type.getLayout().isIdentity())
      return std::nullopt;
    AffineMap map = op.getMatchingIndexingMap(input);
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (!map.isProjectedPermutation())
      return std::nullopt;
    unsigned fastest =
        cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
    unsigned last = map.getNumResults() - 1;
    std::optional<unsigned> position = map.getResultPosition(
        getAffineDimExpr(fastest, op.getContext()));
    auto lastDim = cast<AffineDimExpr>(map.getResult(last)).getPosition();
    if (!position || *position == last ||
        op.getIteratorTypesArray()[lastDim] != utils::IteratorType::reduction ||
        type.getNumElements() * 4 > outType.getNumElements())
      return std::nullopt;
    SmallVector<int64_t> permutation =
        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    std::swap(permutation[*position], permutation[last]);
    SmallVector<int64_t> shape;
    SmallVector<AffineExpr> exprs;
    for (int64_t from : permutation) {
      shape.push_back(type.getDimSize(from));
      exprs.push_back(map.getResult(from));
    }
    Location loc = op.getLoc();
    Value copy = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(shape, type.getElementType()));
    linalg::TransposeOp::create(rewriter, loc, input->get(), copy, permutation);
    return std::make_pair(
        copy, AffineMap::get(map.getNumDims(), 0, exprs, op.getContext()));
  }
};

struct AccumulateReductionsPass
    : mlir::moe::impl::ConvertLinalgReductionsToAccumulatingLoopsPassBase<
          AccumulateReductionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ReductionToAccumulatorLoops>(&getContext());
    // Every match is rewritten once; the loops it creates are no linalg ops.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
