//===- ExpandLayer.cpp - moe.layer → the moe op graph ----------------------===//
//
// The layer's meaning is exactly the graph built here (see the op's
// description), so every later pass — VJP, fusion, FP8 placement, lowering —
// works on the graph and none needs to know moe.layer.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Transforms/EntryNames.h"
#include "MoeDialect/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <numeric>

namespace mlir::moe {
#define GEN_PASS_DEF_MOEEXPANDLAYERPASS
#include "MoeDialect/Transforms/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;

namespace {
struct ExpandLayerPattern : OpRewritePattern<LayerOp> {
  ExpandLayerPattern(MLIRContext *ctx, int64_t align)
      : OpRewritePattern(ctx), align(align) {}

  LogicalResult matchAndRewrite(LayerOp layer,
                                PatternRewriter &rewriter) const override {
    // Checked before anything is built: a failing pattern changes nothing.
    int64_t layerAlign = int64_t(layer.getAlign());
    std::optional<int64_t> rowAlign = llvm::checkedMul(
        layerAlign / std::gcd(layerAlign, align), align);
    std::optional<int64_t> rows;
    if (!rowAlign || !(rows = permutedRows(layer, *rowAlign)))
      return rewriter.notifyMatchFailure(layer, "R overflows 64 bits");
    Location loc = layer.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto x = layer.getX();
    Type act = x.getType().getElementType();
    bool kn = layer.getWeightLayout() == WeightLayout::KN;
    int64_t f = layer.getWGate().getType().getDimSize(kn ? 2 : 1);
    int64_t h = x.getType().getDimSize(1);
    int64_t e = layer.getRouterWeight().getType().getDimSize(1);

    // Router: post-softmax selects on the raw logits and normalizes the k
    // chosen with a softmax.
    Value logits =
        GateOp::create(rewriter, loc, x, layer.getRouterWeight()).getLogits();
    bool post = layer.getPostSoftmax();
    ScoreFunction selectFn =
        post ? ScoreFunction::Identity : layer.getScoreFunction();
    auto selectFnAttr = ScoreFunctionAttr::get(ctx, selectFn);
    Value scores =
        RouteOp::create(rewriter, loc, logits, selectFnAttr).getScores();
    auto normalize = post ? NormalizeAttr::get(ctx, Normalize::Softmax)
                          : layer.getNormalizeAttr();
    auto topk = TopKOp::create(
        rewriter, loc, scores, layer.getBias(), layer.getKAttr(), selectFnAttr,
        layer.getNumGroupsAttr(), layer.getGroupTopkAttr(),
        layer.getGroupScoreAttr(), layer.getGroupScoreTopqAttr(), normalize,
        layer.getScalingFactorAttr());

    // Dispatch and expert FFNs.
    auto permute = PermuteOp::create(rewriter, loc, x, topk.getIndices(),
                                     rewriter.getI64IntegerAttr(e),
                                     rewriter.getI64IntegerAttr(*rowAlign),
                                     *rows);
    Value rowsIn = permute.getPermuted();
    int64_t r = permute.getPermuted().getType().getDimSize(0);
    Value sizes = permute.getGroupSizes();
    auto matmul = [&](Value a, Value b, int64_t n) -> Value {
      return GroupedMatmulOp::create(rewriter, loc,
                                     RankedTensorType::get({r, n}, act), a, b,
                                     sizes, /*a_scale=*/Value(),
                                     /*b_scale=*/Value(),
                                     layer.getWeightLayoutAttr())
          .getC();
    };
    Value gate = matmul(rowsIn, layer.getWGate(), f);
    Value up = matmul(rowsIn, layer.getWUp(), f);
    Value hidden =
        GluOp::create(rewriter, loc, layer.getActivationAttr(), gate, up)
            .getH();
    Value down = matmul(hidden, layer.getWDown(), h);
    Value out = CombineOp::create(rewriter, loc, down, permute.getRows(),
                                  topk.getWeights())
                    .getOut();

    // Balancing losses, summed; zero when both are off.
    SmallVector<Value, 2> losses;
    if (!layer.getAuxLossCoeff().isZero()) {
      Value denseScores =
          post ? RouteOp::create(
                     rewriter, loc, logits,
                     ScoreFunctionAttr::get(ctx, ScoreFunction::Softmax))
                     .getScores()
               : scores;
      losses.push_back(AuxLossOp::create(
          rewriter, loc, denseScores, topk.getIndices(),
          layer.getAuxLossVariantAttr(),
          ScoreFunctionAttr::get(ctx, layer.getScoreFunction()),
          layer.getAuxLossCoeffAttr(), layer.getSeqLengthAttr(),
          layer.getGridAttr(), layer.getGridAxesAttr())
          .getLoss());
    }
    if (!layer.getZLossCoeff().isZero())
      losses.push_back(
          ZLossOp::create(rewriter, loc, logits, layer.getZLossCoeffAttr())
              .getLoss());
    Value loss;
    if (losses.empty()) {
      auto type = RankedTensorType::get({}, rewriter.getF32Type());
      loss = arith::ConstantOp::create(
          rewriter, loc, type,
          DenseElementsAttr::get(type, rewriter.getF32FloatAttr(0.0f)));
    } else {
      loss = losses.front();
      for (Value term : ArrayRef(losses).drop_front())
        loss = arith::AddFOp::create(rewriter, loc, loss, term);
    }

    rewriter.replaceOp(layer, {out, loss});
    return success();
  }

  /// The permute's R: T·K + E·(A − 1), rounded up to a multiple of A when
  /// the pass's `align` asks for padding (0: dynamic, the op's own bound);
  /// none when it overflows 64 bits.
  std::optional<int64_t> permutedRows(LayerOp layer, int64_t rowAlign) const {
    int64_t t = layer.getX().getType().getDimSize(0);
    int64_t e = layer.getRouterWeight().getType().getDimSize(1);
    if (ShapedType::isDynamic(t) || ShapedType::isDynamic(e))
      return 0;
    auto tk = llvm::checkedMul(t, int64_t(layer.getK()));
    auto pad = llvm::checkedMul(e, rowAlign - 1);
    std::optional<int64_t> bound;
    if (!tk || !pad || !(bound = llvm::checkedAdd(*tk, *pad)))
      return std::nullopt;
    if (align == 1)
      return *bound;
    return llvm::checkedMul<int64_t>(llvm::divideCeil(*bound, rowAlign),
                                     rowAlign);
  }

private:
  int64_t align;
};

} // namespace

void mlir::moe::populateExpandLayerPatterns(RewritePatternSet &patterns,
                                            int64_t align) {
  patterns.add<ExpandLayerPattern>(patterns.getContext(), align);
}

namespace {
struct MoeExpandLayerPass
    : mlir::moe::impl::MoeExpandLayerPassBase<MoeExpandLayerPass> {
  using MoeExpandLayerPassBase::MoeExpandLayerPassBase;

  void runOnOperation() override {
    if (align < 1) {
      mlir::emitError(getOperation()->getLoc())
          << "moe-expand-layer: align = " << int64_t(align)
          << " must be at least 1";
      return signalPassFailure();
    }
    // A layer's operand names (x, w_gate, ...) are lost with it; later
    // passes (moe-generate-vjp, moe-fp8-placement) and the runner find the
    // entry's arguments by them, as when those passes expand it themselves.
    if (entryNames)
      getOperation()->walk([](func::FuncOp func) {
        if (!func.getOps<LayerOp>().empty())
          annotateEntryNames(func);
      });
    RewritePatternSet patterns(&getContext());
    populateExpandLayerPatterns(patterns, align);
    // Only moe.layer is rewritten; no folding of unrelated ops on the way.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
    WalkResult left = getOperation()->walk([&](LayerOp layer) {
      layer.emitOpError("moe-expand-layer: with align = ")
          << int64_t(align) << " the permuted row count R = T·K + E·(align "
          << "− 1) overflows 64 bits";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
