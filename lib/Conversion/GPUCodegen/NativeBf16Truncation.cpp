//===- NativeBf16Truncation.cpp - f32 to bf16 as cvt.rn in kernels --------===//
//
// arith.truncf f32 -> bf16 in a gpu.module as the NVVM cvt.rn conversions
// plus the integer rounding's NaN (Passes.td says why): the float emulation
// that runs after this pass expands only arith ops, so these stay the
// chip's conversions.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// `in` (f32, or a 1-d vector of f32) rounded to bf16 by the chip's cvt.rn:
/// a pair of lanes one cvt.rn.bf16x2.f32 (nvvm.convert.f32x2.to.bf16x2), a
/// lone value cvt.rn.bf16.f32 (llvm.nvvm.f2bf16.rn). The NVVM conversions
/// rather than llvm.fptrunc: LLVM folds an fptrunc of a constant NaN (e.g.
/// x + NaN folded) to a bf16 NaN that keeps its sign, 0xFFC0, which the min
/// of TruncateF32ToBf16Natively would leave alone; LLVM does not fold the
/// intrinsics, so every NaN is the chip's.
Value convertToBf16(PatternRewriter &rewriter, Location loc, Value in) {
  Type bf16 = rewriter.getBF16Type();
  auto convertOne = [&](Value value) -> Value {
    return LLVM::CallIntrinsicOp::create(rewriter, loc, bf16,
                                         rewriter.getStringAttr(
                                             "llvm.nvvm.f2bf16.rn"),
                                         ValueRange{value})
        .getResult(0);
  };
  auto vector = dyn_cast<VectorType>(in.getType());
  if (!vector)
    return convertOne(in);
  auto position = [&](int64_t i) -> Value {
    return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), i);
  };
  auto lane = [&](Value v, int64_t i) -> Value {
    return LLVM::ExtractElementOp::create(rewriter, loc, v, position(i));
  };
  int64_t lanes = vector.getNumElements();
  auto pairType = VectorType::get({2}, bf16);
  Value result = LLVM::PoisonOp::create(rewriter, loc, vector.clone(bf16));
  auto insert = [&](Value value, int64_t i) {
    result = LLVM::InsertElementOp::create(rewriter, loc, result, value,
                                           position(i));
  };
  for (int64_t i = 0; i + 1 < lanes; i += 2) {
    // src_lo is the pair's low half, lane 0 of the bf16 vector.
    Value pair = NVVM::ConvertF32x2ToBF16x2Op::create(
        rewriter, loc, pairType, /*src_hi=*/lane(in, i + 1),
        /*src_lo=*/lane(in, i), /*random_bits=*/Value(),
        NVVM::FPRoundingMode::RN);
    insert(lane(pair, 0), i);
    insert(lane(pair, 1), i + 1);
  }
  if (lanes % 2)
    insert(convertOne(lane(in, lanes - 1)), lanes - 1);
  return result;
}

/// An f32 -> bf16 truncation that rounds to nearest even: what cvt.rn does.
bool roundsF32ToBf16Nearest(arith::TruncFOp op) {
  if (!getElementTypeOrSelf(op.getIn().getType()).isF32() ||
      !getElementTypeOrSelf(op.getType()).isBF16())
    return false;
  std::optional<arith::RoundingMode> mode = op.getRoundingmode();
  return !mode || *mode == arith::RoundingMode::to_nearest_even;
}

/// A row of scalar truncations gathered as bf16 bits (the elementwise
/// kernels' rows: truncf, arith.bitcast to i16, vector.from_elements) as
/// one vector truncation of the gathered f32 values, which
/// TruncateF32ToBf16Natively then converts in pairs rather than one value
/// at a time. The same values, the same bits.
struct GatherRowTruncations : OpRewritePattern<vector::FromElementsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::FromElementsOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getType();
    if (type.getRank() != 1 || type.getNumElements() < 2 ||
        !type.getElementType().isInteger(16))
      return rewriter.notifyMatchFailure(op, "not a row of 16-bit values");
    SmallVector<Value> sources;
    SmallVector<Operation *> gathered;
    for (Value element : op.getElements()) {
      auto bits = element.getDefiningOp<arith::BitcastOp>();
      auto truncation =
          bits ? bits.getIn().getDefiningOp<arith::TruncFOp>() : nullptr;
      if (!truncation || !roundsF32ToBf16Nearest(truncation))
        return rewriter.notifyMatchFailure(op, "not rounded f32 values");
      sources.push_back(truncation.getIn());
      gathered.append({bits, truncation});
    }
    Location loc = op.getLoc();
    Value values = vector::FromElementsOp::create(
        rewriter, loc, type.clone(rewriter.getF32Type()), sources);
    Value rounded = arith::TruncFOp::create(
        rewriter, loc, type.clone(rewriter.getBF16Type()), values);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, rounded);
    // The scalars' bitcasts, then their truncations, where nothing else
    // reads them.
    for (Operation *scalar : gathered)
      if (scalar->use_empty())
        rewriter.eraseOp(scalar);
    return success();
  }
};

/// cvt.rn (convertToBf16), then a signed 16-bit min with 0x7FC0. cvt.rn has
/// given every NaN the positive canonical NaN 0x7FFF on sm_90 (Passes.td
/// says how that was checked), the one result above 0x7FC0 as a signed
/// integer (finite values and infinities are at most 0x7F80, negative ones
/// below zero), so the min turns it into the CPU reference's NaN and leaves
/// every other value alone; on a vector, NVPTX makes it min.s16x2 (sm_90).
struct TruncateF32ToBf16Natively : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    // cvt.rn rounds to nearest even; other modes and types keep the
    // emulation.
    if (!roundsF32ToBf16Nearest(op))
      return rewriter.notifyMatchFailure(
          op, "not an f32 to bf16 truncation to nearest even");
    // Tensors never reach kernels; a vector of vectors is not an LLVM type.
    auto vector = dyn_cast<VectorType>(op.getType());
    if (!isa<FloatType>(op.getType()) &&
        !(vector && vector.getRank() == 1 && !vector.isScalable()))
      return rewriter.notifyMatchFailure(op, "not a scalar or 1-d vector");

    Location loc = op.getLoc();
    Type bitsType = withElementType(op.getType(), rewriter.getI16Type());
    Value rounded = convertToBf16(rewriter, loc, op.getIn());
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
    // Rows first: the scalars they gather must still be arith.truncf.
    RewritePatternSet rows(&getContext());
    rows.add<GatherRowTruncations>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(rows));
    RewritePatternSet patterns(&getContext());
    patterns.add<TruncateF32ToBf16Natively>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
