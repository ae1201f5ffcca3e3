//===- MoeToLoops.cpp - moe ops on memrefs → loops (CPU reference) --------===//
//
// Each moe op on memrefs is replaced by the loops its emitter writes (one
// file per op family, see LoopEmitters.h). Any moe op left over — an op on
// tensors that was not bufferized, moe.layer that was not expanded, a global
// aux loss over more than one rank — fails legalization with its location.
// moe.all_to_all and moe.all_reduce over more than one rank become calls into
// libmoe_runtime's collectives (moert_coll_abi.def, through RuntimeAbi.h).
//
//===----------------------------------------------------------------------===//
#include "../MoeToRuntimeCalls/RuntimeAbi.h"
#include "LoopEmitters.h"
#include "moe_runtime/moe_runtime.h"

#include "MoeDialect/Conversion/Passes.h"
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
  int64_t k = op.getK(), groupTopk = op.getGroupTopk();
  TopKConfig config{k,
                    op.getScoreFunction(),
                    int64_t(op.getNumGroups()),
                    groupTopk,
                    op.getGroupScore(),
                    op.getGroupScoreTopq() ? int64_t(*op.getGroupScoreTopq())
                                           : k / groupTopk,
                    op.getNormalize(),
                    op.getScalingFactor().convertToDouble()};
  emitTopK(b, op.getLoc(), config, op.getScores(), op.getBias(),
           op.getWeightsInit(), op.getIndicesInit());
  return success();
}

/// Ranks on `axes` of `grid` (1 when no grid is named).
FailureOr<int64_t> ranksOn(Operation *op, FlatSymbolRefAttr grid,
                           ArrayRef<int64_t> axes) {
  if (!grid)
    return 1;
  auto gridOp = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(op, grid);
  if (!gridOp)
    return op->emitOpError("grid @") << grid.getValue() << " not found",
           failure();
  int64_t ranks = 1;
  for (int64_t axis : axes) {
    int64_t size = gridOp.getShape()[axis];
    if (ShapedType::isDynamic(size))
      return op->emitOpError("grid @")
                 << grid.getValue() << " axis " << axis
                 << " has a dynamic size; the CPU target runs a single rank",
             failure();
    ranks *= size;
  }
  return ranks;
}

/// The index of `grid` among the module's shard.grid ops: how a runtime call
/// names it (the artifact's "grids" list them in the same order).
FailureOr<int64_t> gridIndex(Operation *op, FlatSymbolRefAttr grid) {
  auto module = op->getParentOfType<ModuleOp>();
  int64_t index = 0;
  for (auto gridOp : module.getOps<shard::GridOp>()) {
    if (gridOp.getSymName() == grid.getValue())
      return index;
    ++index;
  }
  return op->emitOpError("grid @")
             << grid.getValue() << " is not a shard.grid of the module",
         failure();
}

/// Checks that a collective over several ranks can become a host runtime
/// call here: not inside a GPU kernel (the GPU target's collectives are
/// NCCL calls from the host) and on memrefs of the identity layout (the
/// runtime takes base pointers).
LogicalResult checkCollectiveCall(Operation *op, ValueRange buffers) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (parent->getName().getStringRef() == "gpu.launch")
      return op->emitOpError("over several ranks runs on the host; it cannot "
                             "be lowered inside a GPU kernel"),
             failure();
  for (Value buffer : buffers)
    if (!cast<MemRefType>(buffer.getType()).getLayout().isIdentity())
      return op->emitOpError("over several ranks needs buffers of the "
                             "identity layout, not ")
                 << buffer.getType(),
             failure();
  return success();
}

Value i64Value(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

/// dim(memref, d) as i64.
Value dimI64(OpBuilder &b, Location loc, Value memref, int64_t d) {
  Value dim = memref::DimOp::create(b, loc, memref, d);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), dim);
}

/// moert_coll_all_to_all (libmoe_runtime): send_sizes has P·C entries.
LogicalResult lowerAllToAllCall(AllToAllOp op, OpBuilder &b, int64_t ranks) {
  Location loc = op.getLoc();
  Value input = op.getInput(), sendSizes = op.getSendSizes();
  Value output = op.getOutputInit(), recvSizes = op.getRecvSizesInit();
  if (failed(checkCollectiveCall(op, {input, sendSizes, output, recvSizes})))
    return failure();
  auto grid = gridIndex(op, op.getGridAttr());
  if (failed(grid))
    return failure();
  auto outType = cast<MemRefType>(output.getType());
  if (outType.getRank() != 2)
    return op.emitOpError("over several ranks exchanges rank-2 row blocks");
  int64_t elementBytes =
      (outType.getElementType().getIntOrFloatBitWidth() + 7) / 8;
  Value rowBytes = arith::MulIOp::create(b, loc, dimI64(b, loc, output, 1),
                                         i64Value(b, loc, elementBytes));
  Value chunks = arith::DivSIOp::create(b, loc, dimI64(b, loc, sendSizes, 0),
                                        i64Value(b, loc, ranks));
  using runtime_abi::pointerArgument;
  runtime_abi::moert_coll_all_to_all.call(
      b, loc,
      {i64Value(b, loc, *grid), i64Value(b, loc, op.getGridAxis()),
       pointerArgument(b, loc, input), pointerArgument(b, loc, sendSizes),
       chunks, dimI64(b, loc, input, 0), pointerArgument(b, loc, output),
       pointerArgument(b, loc, recvSizes), dimI64(b, loc, output, 0),
       rowBytes});
  return success();
}

/// The moert_dtype code of a summed element type, or -1.
int32_t dtypeCode(Type t) {
  if (t.isF64())
    return MOERT_F64;
  if (t.isF32())
    return MOERT_F32;
  if (t.isSignlessInteger(64))
    return MOERT_I64;
  if (t.isSignlessInteger(32))
    return MOERT_I32;
  return -1;
}

/// moert_coll_all_reduce: `count` elements of `buffer` summed in place over
/// the ranks of `axis` of grid number `grid`.
void callAllReduce(OpBuilder &b, Location loc, int64_t grid, int64_t axis,
                   Value buffer, Value count, int32_t code) {
  runtime_abi::moert_coll_all_reduce.call(
      b, loc,
      {i64Value(b, loc, grid), i64Value(b, loc, axis),
       runtime_abi::pointerArgument(b, loc, buffer), count,
       arith::ConstantIntOp::create(b, loc, b.getI32Type(), code)});
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
      if (axes.size() != 1)
        return op.emitOpError("global aux loss over several ranks sums over "
                              "one grid axis, not ")
               << axes.size();
      if (failed(checkCollectiveCall(op, {})))
        return failure();
      auto grid = gridIndex(op, op.getGridAttr());
      if (failed(grid))
        return failure();
      int64_t axis = axes.front();
      // Declared here: the call is built inside the loss's loops.
      runtime_abi::moert_coll_all_reduce.declare(
          b, op->getParentOfType<ModuleOp>());
      config.ranks = *ranks;
      config.sumCountsOverRanks = [grid = *grid, axis](OpBuilder &nb,
                                                       Location nloc,
                                                       Value counts) {
        callAllReduce(nb, nloc, grid, axis, counts, dimI64(nb, nloc, counts, 0),
                      /*code=*/dtypeCode(nb.getI64Type()));
      };
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

LogicalResult lower(GroupedMatmulOp op, OpBuilder &b) {
  emitGroupedMatmul(
      b, op.getLoc(), op.getWeightLayout(), op.getA(), op.getB(),
      op.getGroupSizes(), op.getAScale(), op.getBScale(), op.getCInit(),
      op.getEpilogueBlock() ? op : GroupedMatmulOp(), op.getAccumulate());
  return success();
}

LogicalResult lower(GroupedWeightGradOp op, OpBuilder &b) {
  emitGroupedWeightGrad(b, op.getLoc(), op.getWeightLayout(), op.getA(),
                        op.getDc(), op.getGroupSizes(), op.getDbInit());
  return success();
}

LogicalResult lower(GluOp op, OpBuilder &b) {
  emitGlu(b, op.getLoc(), op.getActivation(), op.getGate(), op.getUp(),
          op.getHInit());
  return success();
}

/// output = input, then moert_coll_all_reduce in place.
LogicalResult lowerAllReduceCall(AllReduceOp op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value input = op.getInput(), output = op.getOutputInit();
  if (failed(checkCollectiveCall(op, {output})))
    return failure();
  if (op.getGridAxes().size() != 1)
    return op.emitOpError("over several ranks sums over one grid axis, not ")
           << op.getGridAxes().size();
  auto grid = gridIndex(op, op.getGridAttr());
  if (failed(grid))
    return failure();
  auto type = cast<MemRefType>(output.getType());
  int32_t code = dtypeCode(type.getElementType());
  if (code < 0)
    return op.emitOpError("over several ranks sums f32, f64, i32 or i64, not ")
           << type.getElementType();
  if (input != output)
    memref::CopyOp::create(b, loc, input, output);
  Value count = i64Value(b, loc, 1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    count = arith::MulIOp::create(b, loc, count, dimI64(b, loc, output, d));
  callAllReduce(b, loc, *grid, op.getGridAxes()[0], output, count, code);
  return success();
}

LogicalResult lower(AllToAllOp op, OpBuilder &b) {
  auto ranks = ranksOn(op, op.getGridAttr(), {int64_t(op.getGridAxis())});
  if (failed(ranks))
    return failure();
  if (*ranks != 1)
    return lowerAllToAllCall(op, b, *ranks);
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
    return lowerAllReduceCall(op, b);
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
                      ExpertBiasUpdateOp, PermuteOp, GroupedMatmulOp,
                      GroupedWeightGradOp, GluOp, AllToAllOp, SortChunksOp,
                      AllReduceOp, CombineOp, CombineGradOp, QuantizeOp,
                      DequantizeOp>(patterns, benefit);
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
