//===- MoeToLoops.cpp - moe ops on memrefs → loops (CPU reference) --------===//
//
// Each moe op on memrefs is replaced by the loops its emitter writes (one
// file per op family, see LoopEmitters.h). Any moe op left over — an op on
// tensors that was not bufferized, moe.layer that was not expanded — fails
// legalization with its location. moe.all_to_all, moe.all_reduce and the
// counts of a global aux loss over more than one rank become calls into
// libmoe_runtime's collectives (moert_coll_abi.def, through CollectiveCalls.h).
//
//===----------------------------------------------------------------------===//
#include "../MoeToRuntimeCalls/CollectiveCalls.h"
#include "LoopEmitters.h"

#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Dialect/Grids.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::moe {
#define GEN_PASS_DEF_CONVERTMOETOLOOPSPASS
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;
using namespace mlir::moe::loops;

namespace {

LogicalResult lower(GateOp op, OpBuilder &b) {
  emitGate(b, op.getLoc(), op.getX(), op.getWeight(), op.getLogitsInit());
  return success();
}

LogicalResult lower(RouteOp op, OpBuilder &b) {
  emitRoute(b, op.getLoc(), op.getScoreFunction(), op.getLogits(),
            op.getScoresInit());
  return success();
}

LogicalResult lower(TopKOp op, OpBuilder &b) {
  emitTopK(b, op.getLoc(), topKConfigOf(op), op.getScores(), op.getBias(),
           op.getWeightsInit(), op.getIndicesInit());
  return success();
}

LogicalResult lower(AuxLossOp op, OpBuilder &b) {
  AuxLossConfig config;
  config.variant = op.getVariant();
  config.scoreFunction = op.getScoreFunction();
  config.coeff = op.getCoeff().convertToDouble();
  config.seqLength = op.getSeqLength() ? int64_t(*op.getSeqLength()) : 0;
  if (op.getVariant() == AuxLossVariant::Global) {
    ArrayRef<int64_t> axes = op.getGridAxes().value_or(ArrayRef<int64_t>{});
    auto ranks = ranksOn(op, op.getGridAttr(), axes);
    if (failed(ranks))
      return failure();
    if (*ranks != 1) {
      // This rank's share with the counts summed over the ranks
      // (libmoe_runtime's all-reduce of the i64 counts) and T_g = T · ranks.
      auto sum = runtime_abi::sumCountsOverRanks(
          op, b, runtime_abi::CollectiveRuntime::host);
      if (failed(sum))
        return failure();
      config.ranks = *ranks;
      config.sumCountsOverRanks = *sum;
    }
  }
  emitAuxLoss(b, op.getLoc(), config, op.getScores(), op.getIndices(),
              op.getLossInit());
  return success();
}

LogicalResult lower(ZLossOp op, OpBuilder &b) {
  emitZLoss(b, op.getLoc(), op.getCoeff().convertToDouble(), op.getLogits(),
            op.getLossInit());
  return success();
}

LogicalResult lower(ExpertBiasUpdateOp op, OpBuilder &b) {
  emitExpertBiasUpdate(b, op.getLoc(), op.getRate().convertToDouble(),
                       op.getBias(), op.getCounts(), op.getUpdatedBiasInit());
  return success();
}

LogicalResult lower(PermuteOp op, OpBuilder &b) {
  emitPermute(b, op.getLoc(), op.getNumExperts(), op.getAlign(), op.getX(),
              op.getIndices(), op.getPermutedInit(), op.getGroupSizesInit(),
              op.getRowsInit());
  return success();
}

LogicalResult lower(PermuteRowsOp op, OpBuilder &b) {
  emitPermuteRows(b, op.getLoc(), op.getX(), op.getRows(),
                  op.getPermutedInit());
  return success();
}

LogicalResult lower(GroupedMatmulOp op, OpBuilder &b) {
  // Gate and up weights apart: the loops read the halves from one weight.
  Value weight = op.getBUp() ? op.concatenateUpWeight(b) : op.getB();
  emitGroupedMatmul(
      b, op.getLoc(), op.getWeightLayout(), op.getA(), weight,
      op.getGroupSizes(), op.getAScale(), op.getBScale(), op.getCInit(),
      op.getEpilogueBlock() ? op : GroupedMatmulOp(), op.getAccumulate());
  if (op.getBUp())
    memref::DeallocOp::create(b, op.getLoc(), weight);
  return success();
}

LogicalResult lower(GroupedWeightGradOp op, OpBuilder &b) {
  emitGroupedWeightGrad(b, op.getLoc(), op.getWeightLayout(),
                        op.getTransposedOperands(), op.getA(), op.getDc(),
                        op.getGroupSizes(), op.getAScale(), op.getDcScale(),
                        op.getDbInit());
  return success();
}

LogicalResult lower(GluOp op, OpBuilder &b) {
  emitGlu(b, op.getLoc(), op.getActivation(), op.getGate(), op.getUp(),
          op.getHInit());
  return success();
}

LogicalResult lower(AllToAllOp op, OpBuilder &b) {
  auto ranks = ranksOn(op, op.getGridAttr(), {int64_t(op.getGridAxis())});
  if (failed(ranks))
    return failure();
  if (*ranks != 1)
    return runtime_abi::buildAllToAllCall(op, b, *ranks,
                                          runtime_abi::CollectiveRuntime::host);
  emitAllToAllOneRank(b, op.getLoc(), op.getInput(), op.getSendSizes(),
                      op.getOutputInit(), op.getRecvSizesInit());
  return success();
}

LogicalResult lower(SortChunksOp op, OpBuilder &b) {
  emitSortChunks(b, op.getLoc(), op.getInverse(), op.getX(), op.getCounts(),
                 op.getOutputInit(), op.getSizesInit());
  return success();
}

LogicalResult lower(AllReduceOp op, OpBuilder &b) {
  auto ranks = ranksOn(op, op.getGridAttr(), op.getGridAxes());
  if (failed(ranks))
    return failure();
  if (*ranks != 1)
    return runtime_abi::buildAllReduceCall(
        op, b, runtime_abi::CollectiveRuntime::host);
  emitAllReduceOneRank(b, op.getLoc(), op.getInput(), op.getOutputInit());
  return success();
}

LogicalResult lower(CombineOp op, OpBuilder &b) {
  emitCombine(b, op.getLoc(), op.getY(), op.getRows(), op.getWeights(),
              op.getOutInit());
  return success();
}

LogicalResult lower(CombineGradOp op, OpBuilder &b) {
  emitCombineGrad(b, op.getLoc(), op.getDout(), op.getY(), op.getRows(),
                  op.getWeights(), op.getDyInit(), op.getDweightsInit());
  return success();
}

LogicalResult lower(QuantizeOp op, OpBuilder &b) {
  Value history = op.getAmaxHistory();
  emitQuantize(b, op.getLoc(), op.getRecipe(), op.getInput(), history,
               op.getOutputInit(), op.getScaleInit(), history);
  return success();
}

LogicalResult lower(QuantizeWithTransposeOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  emitQuantize(b, loc, QuantRecipe::Block1x128, op.getInput(), Value(),
               op.getOutputInit(), op.getScaleInit(), Value());
  // The transpose as a strided view: the reference loops index it.
  Value transposed = memref::TransposeOp::create(
      b, loc, op.getInput(),
      AffineMapAttr::get(AffineMap::getPermutationMap(
          ArrayRef<unsigned>{1, 0}, b.getContext())));
  emitQuantize(b, loc, QuantRecipe::Block1x128, transposed, Value(),
               op.getTransposedOutputInit(), op.getTransposedScaleInit(),
               Value());
  return success();
}

LogicalResult lower(DequantizeOp op, OpBuilder &b) {
  emitDequantize(b, op.getLoc(), op.getRecipe(), op.getInput(), op.getScale(),
                 op.getOutputInit());
  return success();
}

/// Emits the loops of a moe op on memrefs in its place. Such an op has no
/// results and its operands are already memrefs, so the original operands
/// are used.
template <typename OpTy>
struct LowerToLoops : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics() || failed(lower(op, rewriter)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

template <typename... OpTys>
void addLoweringPatterns(RewritePatternSet &patterns, PatternBenefit benefit) {
  (patterns.add<LowerToLoops<OpTys>>(patterns.getContext(), benefit), ...);
}

} // namespace

void mlir::moe::hoistParallelScratch(Operation *root) {
  // Per-iteration scratch of parallel loops (scratchAlloca) is hoisted out
  // of them: the CPU runs the iterations one after the other, so one
  // buffer serves all, and an alloca in a loop would grow the stack.
  SmallVector<memref::AllocaOp> scratch;
  root->walk([&](memref::AllocaOp alloca) {
    if (isa_and_nonnull<scf::ParallelOp>(alloca->getParentOp()))
      scratch.push_back(alloca);
  });
  for (memref::AllocaOp alloca : scratch) {
    Operation *outermost = alloca->getParentOp();
    while (isa_and_nonnull<scf::ParallelOp>(outermost->getParentOp()))
      outermost = outermost->getParentOp();
    if (llvm::all_of(alloca->getOperands(), [&](Value v) {
          return !outermost->isAncestor(v.getParentBlock()->getParentOp());
        }))
      alloca->moveBefore(outermost);
  }
}

void mlir::moe::eraseUnusedGrids(Operation *root) {
  // Grids are compile-time descriptions of the device mesh: once no op
  // names one, nothing below the moe level needs it.
  SmallVector<shard::GridOp> grids;
  root->walk([&](shard::GridOp grid) { grids.push_back(grid); });
  for (shard::GridOp grid : grids)
    if (SymbolTable::symbolKnownUseEmpty(grid, grid->getParentOp()))
      grid.erase();
}

void mlir::moe::populateMoeToLoopsPatterns(RewritePatternSet &patterns,
                                           PatternBenefit benefit) {
  addLoweringPatterns<GateOp, RouteOp, TopKOp, AuxLossOp, ZLossOp,
                      ExpertBiasUpdateOp, PermuteOp, PermuteRowsOp,
                      GroupedMatmulOp,
                      GroupedWeightGradOp, GluOp, AllToAllOp, SortChunksOp,
                      AllReduceOp, CombineOp, CombineGradOp, QuantizeOp,
                      QuantizeWithTransposeOp, DequantizeOp>(patterns,
                                                             benefit);
}

LogicalResult mlir::moe::lowerMoeOps(Operation *root,
                                     RewritePatternSet &&preferred) {
  ConversionTarget target(*root->getContext());
  target.addIllegalDialect<MoeDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  populateMoeToLoopsPatterns(preferred, /*benefit=*/1);
  if (failed(applyPartialConversion(root, target, std::move(preferred))))
    return failure();
  eraseUnusedGrids(root);
  return success();
}

namespace {
struct ConvertMoeToLoopsPass
    : mlir::moe::impl::ConvertMoeToLoopsPassBase<ConvertMoeToLoopsPass> {
  void runOnOperation() override {
    if (failed(lowerMoeOps(getOperation(), RewritePatternSet(&getContext()))))
      return signalPassFailure();
    hoistParallelScratch(getOperation());
  }
};
} // namespace
