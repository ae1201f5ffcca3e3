//===- Fuse.cpp - moe-fuse: fewer kernels for the same moe graph ----------===//
//
// Each fusion is a rewrite pattern behind its own pass option.
//
// gate-up-epilogue: glu(act, grouped_matmul(xs, w_gate|up)) with the [R, 2F]
// product read by the glu alone becomes one grouped_matmul whose epilogue
// region computes act(gate) · up (opmath::buildActivation, the formula the
// glu itself lowers to) from the accumulators of columns j and F + j.
//
// accumulate-matmuls: arith.addf of two grouped matmul products of the same
// rows (same group sizes, same c type; each product read by the add alone),
// e.g. the two halves of a gated FFN's input gradient, becomes the second
// grouped matmul accumulating into the first one's result, placed right
// after the first: no sum kernel, the sum is rounded once, and the generated
// GEMM computes both products in one kernel.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Dialect/Utils/OpMath.h"
#include "MoeDialect/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::moe {
#define GEN_PASS_DEF_MOEFUSEPASS
#include "MoeDialect/Transforms/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;

namespace {

struct GateUpEpilogue : OpRewritePattern<GluOp> {
  GateUpEpilogue(MLIRContext *ctx, bool generatedKernelsOnly)
      : OpRewritePattern(ctx), generatedKernelsOnly(generatedKernelsOnly) {}
  bool generatedKernelsOnly;

  LogicalResult matchAndRewrite(GluOp glu,
                                PatternRewriter &rewriter) const override {
    if (!glu.hasPureTensorSemantics() || glu.getUp())
      return rewriter.notifyMatchFailure(glu,
                                         "not a glu on one [R, 2F] tensor");
    auto product = glu.getGate().getDefiningOp<GroupedMatmulOp>();
    if (!product || !product.hasPureTensorSemantics() ||
        product.getEpilogueBlock() || product.getAScale())
      return rewriter.notifyMatchFailure(
          glu, "gate|up is not a bf16/f32 grouped matmul without an epilogue");
    if (generatedKernelsOnly && !autoPrefersGeneratedKernel(product))
      return rewriter.notifyMatchFailure(
          glu, "gemm=auto leaves this grouped matmul to cuBLASLt");
    if (!glu.getGate().hasOneUse())
      return rewriter.notifyMatchFailure(
          glu, "the [R, 2F] product has readers besides the glu");

    Location loc = rewriter.getFusedLoc({product.getLoc(), glu.getLoc()});
    auto fused = GroupedMatmulOp::create(
        rewriter, loc, glu.getH().getType(), product.getA(), product.getB(),
        product.getGroupSizes(), Value(), Value(), /*row_scale=*/Value(),
        product.getWeightLayoutAttr(), /*accumulate=*/UnitAttr(),
        glu.getHInit());
    Block *body = rewriter.createBlock(&fused.getEpilogue());
    Type f32 = rewriter.getF32Type();
    Value gate = body->addArgument(f32, loc);
    Value up = body->addArgument(f32, loc);
    Value activated =
        opmath::buildActivation(rewriter, loc, glu.getActivation(), gate);
    Value h = arith::MulFOp::create(rewriter, loc, activated, up);
    YieldOp::create(rewriter, loc, h);
    rewriter.replaceOp(glu, fused.getResults());
    rewriter.eraseOp(product);
    return success();
  }
};

struct AccumulateMatmuls : OpRewritePattern<arith::AddFOp> {
  AccumulateMatmuls(MLIRContext *ctx, bool generatedKernelsOnly)
      : OpRewritePattern(ctx), generatedKernelsOnly(generatedKernelsOnly) {}
  bool generatedKernelsOnly;

  /// `v` as the result of a plain grouped matmul (no epilogue, no FP8 scales,
  /// not accumulating already) on tensors that only the add reads.
  GroupedMatmulOp plainProduct(Value v) const {
    auto mm = v.getDefiningOp<GroupedMatmulOp>();
    if (!mm || !mm.hasPureTensorSemantics() || mm.getEpilogueBlock() ||
        mm.getAScale() || mm.getAccumulate() || !v.hasOneUse() ||
        (generatedKernelsOnly && !autoPrefersGeneratedKernel(mm)))
      return GroupedMatmulOp();
    return mm;
  }

  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    GroupedMatmulOp first = plainProduct(add.getLhs());
    GroupedMatmulOp second = plainProduct(add.getRhs());
    if (!first || !second || first == second)
      return rewriter.notifyMatchFailure(
          add, "not a sum of two plain grouped matmul products");
    if (first.getGroupSizes() != second.getGroupSizes() ||
        first.getC().getType() != add.getType() ||
        second.getC().getType() != add.getType())
      return rewriter.notifyMatchFailure(
          add, "the products cover different row groups or types");
    // The second product runs where the add was, accumulating into the
    // first, which dominates the add.
    Location loc = rewriter.getFusedLoc({second.getLoc(), add.getLoc()});
    auto fused = GroupedMatmulOp::create(
        rewriter, loc, add.getType(), second.getA(), second.getB(),
        second.getGroupSizes(), Value(), Value(), /*row_scale=*/Value(),
        second.getWeightLayoutAttr(), rewriter.getUnitAttr(), first.getC());
    rewriter.replaceOp(add, fused.getResults());
    rewriter.eraseOp(second);
    // The first product runs right before the second, which alone reads
    // it: after bufferization nothing lies between the two, and
    // convert-grouped-matmul-to-nvgpu makes them one kernel.
    if (first->getBlock() == fused->getBlock())
      rewriter.moveOpBefore(first, fused);
    return success();
  }
};

struct MoeFuse : public moe::impl::MoeFusePassBase<MoeFuse> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    if (gateUpEpilogue)
      patterns.add<GateUpEpilogue>(&getContext(), generatedKernelsOnly);
    if (accumulateMatmuls)
      patterns.add<AccumulateMatmuls>(&getContext(), generatedKernelsOnly);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
