//===- NativeBf16Truncation.cpp - f32 to bf16 as cvt.rn in kernels --------===//
//
// arith.truncf f32 -> bf16 in a gpu.module as llvm.fptrunc plus the integer
// rounding's NaN (Passes.td says why): the float emulation that runs after
// this pass expands only arith ops, so these stay the chip's conversions.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::moe {
#define GEN_PASS_DEF_GPUNATIVEBF16TRUNCATIONPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

/// The quiet NaN that arith-expand's bf16 rounding gives every NaN (and the
/// CPU reference therefore stores).
constexpr uint16_t kCanonicalBf16NaN = 0x7FC0;

/// `type` with its element type replaced (scalars and vectors).
Type withElementType(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(element);
  return element;
}

/// fptrunc, then a signed 16-bit min with 0x7FC0. cvt.rn gives every NaN
/// the positive canonical NaN 0x7FFF, the one result above 0x7FC0 as a
/// signed integer (finite and infinite values are at most 0x7F80, negative
/// ones below zero), so the min turns it into the CPU reference's NaN and
/// leaves every other value alone. Vectors stay vectors: NVPTX pairs the
/// lanes into cvt.rn.bf16x2.f32 and min.s16x2 (sm_90), two instructions
/// for two values.
struct TruncateF32ToBf16Natively : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type source = getElementTypeOrSelf(op.getIn().getType());
    Type result = getElementTypeOrSelf(op.getType());
    if (!source.isF32() || !result.isBF16())
      return rewriter.notifyMatchFailure(op, "not an f32 to bf16 truncation");
    // fptrunc rounds to nearest even; other modes keep the emulation.
    if (std::optional<arith::RoundingMode> mode = op.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "not rounding to nearest even");
    // Tensors never reach kernels; a vector of vectors is not an LLVM type.
    auto vector = dyn_cast<VectorType>(op.getType());
    if (!isa<FloatType>(op.getType()) &&
        !(vector && vector.getRank() == 1 && !vector.isScalable()))
      return rewriter.notifyMatchFailure(op, "not a scalar or 1-d vector");

    Location loc = op.getLoc();
    Type bitsType = withElementType(op.getType(), rewriter.getI16Type());
    Value rounded =
        LLVM::FPTruncOp::create(rewriter, loc, op.getType(), op.getIn());
    Value bits = LLVM::BitcastOp::create(rewriter, loc, bitsType, rounded);
    Attribute nanBits =
        rewriter.getIntegerAttr(rewriter.getI16Type(), kCanonicalBf16NaN);
    if (vector)
      nanBits = SplatElementsAttr::get(cast<ShapedType>(bitsType), nanBits);
    Value canonicalNaN = LLVM::ConstantOp::create(rewriter, loc, bitsType,
                                                  cast<TypedAttr>(nanBits));
    Value chosen = LLVM::SMinOp::create(rewriter, loc, bits, canonicalNaN);
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, op.getType(), chosen);
    return success();
  }
};

struct NativeBf16TruncationPass
    : mlir::moe::impl::GpuNativeBf16TruncationPassBase<
          NativeBf16TruncationPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<TruncateF32ToBf16Natively>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
