//===- SplitMatmul.cpp - f32 contractions on bf16 tensor cores ------------===//
#include "SplitMatmul.h"
#include "RuntimeAbi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <limits>

using namespace mlir;
using namespace mlir::moe;
using runtime_abi::i32Value;
using runtime_abi::i64Dim;

namespace {

Value f32Const(OpBuilder &b, Location loc, double x) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(x));
}

/// Whether the f32 `x` is neither infinite nor NaN.
Value isFinite(OpBuilder &b, Location loc, Value x) {
  Value below =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                            f32Const(b, loc, std::numeric_limits<double>::infinity()));
  Value above =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                            f32Const(b, loc, -std::numeric_limits<double>::infinity()));
  return arith::AndIOp::create(b, loc, below, above);
}

bool isBF16(Value memref) {
  return cast<MemRefType>(memref.getType()).getElementType().isBF16();
}

/// out += op(a)·op(b) (out = op(a)·op(b) unless `accumulate`), bf16 a and
/// b, k the contraction's length.
void callMatmulBf16(OpBuilder &b, Location loc, Value a, bool aTransposed,
                    Value bMat, bool bTransposed, Value out, bool accumulate,
                    Value k) {
  runtime_abi::moert_entry_matmul_bf16.call(
      b, loc,
      {runtime_abi::pointerArgument(b, loc, a), i32Value(b, loc, aTransposed),
       runtime_abi::pointerArgument(b, loc, bMat),
       i32Value(b, loc, bTransposed), runtime_abi::pointerArgument(b, loc, out),
       i32Value(b, loc, accumulate), i64Dim(b, loc, out, 0),
       i64Dim(b, loc, out, 1), k});
}

/// The three bf16 parts of the f32 `v` (SplitMatmul.h).
std::array<Value, 3> splitParts(OpBuilder &b, Location loc, Value v) {
  Type bf16 = b.getBF16Type(), f32 = b.getF32Type();
  Value vFinite = isFinite(b, loc, v);
  Value hi = arith::TruncFOp::create(b, loc, bf16, v);
  // |v| just below f32's largest value rounds to a bf16 infinity.
  Value largest = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(bf16, APFloat::getLargest(APFloat::BFloat())));
  Value negLargest = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(bf16, APFloat::getLargest(APFloat::BFloat(), true)));
  Value negative =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, v, f32Const(b, loc, 0.0));
  Value rounded = arith::SelectOp::create(b, loc, negative, negLargest, largest);
  Value overflowed = arith::AndIOp::create(
      b, loc, vFinite,
      arith::XOrIOp::create(b, loc, isFinite(b, loc, arith::ExtFOp::create(b, loc, f32, hi)),
                            arith::ConstantIntOp::create(b, loc, 1, 1)));
  hi = arith::SelectOp::create(b, loc, overflowed, rounded, hi);
  Value rest = arith::SubFOp::create(b, loc, v, arith::ExtFOp::create(b, loc, f32, hi));
  Value mid = arith::TruncFOp::create(b, loc, bf16, rest);
  rest = arith::SubFOp::create(b, loc, rest, arith::ExtFOp::create(b, loc, f32, mid));
  Value lo = arith::TruncFOp::create(b, loc, bf16, rest);
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(bf16, 0.0));
  mid = arith::SelectOp::create(b, loc, vFinite, mid, zero);
  lo = arith::SelectOp::create(b, loc, vFinite, lo, zero);
  return {hi, mid, lo};
}

MemRefType bf16Like(Value memref, ArrayRef<int64_t> shape) {
  return MemRefType::get(shape, BFloat16Type::get(memref.getContext()));
}

/// Which part of an operand the six blocks of the K' = 6K contraction read:
/// mid·mid, lo·hi, hi·lo, mid·hi, hi·mid, hi·hi, smallest first (the GEMM
/// accumulates along k: small terms added onto the large hi·hi sum would
/// lose their low bits; measured on an H200, dlogits·Wᵀ at T = 8192,
/// H = 2048, E = 128: rel_l2 1.25e-7 in this order, 1.44e-6 with hi·hi
/// first, 2.0e-7 for fp32 cuBLAS).
constexpr int kPartOfA[6] = {1, 2, 0, 1, 0, 0};
constexpr int kPartOfB[6] = {1, 0, 2, 0, 1, 0};

/// `buffer` ([n r, c] when `alongFirst`, else [r, n c]) as its n blocks of
/// [r, c]: the view [n, r, c] or [r, n, c].
Value blocksView(OpBuilder &b, Location loc, Value buffer, int64_t n,
                 bool alongFirst) {
  auto type = cast<MemRefType>(buffer.getType());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> blocks =
      alongFirst ? SmallVector<int64_t>{n, shape[0] / n, shape[1]}
                 : SmallVector<int64_t>{shape[0], n, shape[1] / n};
  SmallVector<ReassociationIndices> reassociation =
      alongFirst ? SmallVector<ReassociationIndices>{{0, 1}, {2}}
                 : SmallVector<ReassociationIndices>{{0}, {1, 2}};
  return memref::ExpandShapeOp::create(
      b, loc, MemRefType::get(blocks, type.getElementType()), buffer,
      reassociation);
}

/// The f32 `v` [r, c] as bf16 blocks side by side along dimension 0
/// ([n r, c], when `alongFirst`) or 1 ([r, n c]), block p holding part
/// partOf[p] of v (n = partOf.size(); one split_bf16 kernel writes them).
Value concatenateParts(OpBuilder &b, Location loc, Value v, bool alongFirst,
                       ArrayRef<int> partOf) {
  ArrayRef<int64_t> shape = cast<MemRefType>(v.getType()).getShape();
  int64_t n = partOf.size();
  SmallVector<int64_t> wide = alongFirst
                                  ? SmallVector<int64_t>{n * shape[0], shape[1]}
                                  : SmallVector<int64_t>{shape[0], n * shape[1]};
  Value out = memref::AllocOp::create(b, loc, bf16Like(v, wide));
  Value view = blocksView(b, loc, out, n, alongFirst);
  // Iteration (block, i, j) or (i, block, j): the block dimension selects
  // the part.
  MLIRContext *ctx = b.getContext();
  unsigned blockDim = alongFirst ? 0 : 1;
  AffineMap read = alongFirst ? AffineMap::get(3, 0,
                                               {getAffineDimExpr(1, ctx),
                                                getAffineDimExpr(2, ctx)},
                                               ctx)
                              : AffineMap::get(3, 0,
                                               {getAffineDimExpr(0, ctx),
                                                getAffineDimExpr(2, ctx)},
                                               ctx);
  SmallVector<utils::IteratorType> parallel(3, utils::IteratorType::parallel);
  linalg::GenericOp::create(
      b, loc, ValueRange{v}, ValueRange{view},
      ArrayRef<AffineMap>{read, b.getMultiDimIdentityMap(3)}, parallel,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        std::array<Value, 3> p = splitParts(nb, l, args[0]);
        Value block = linalg::IndexOp::create(nb, l, blockDim);
        Value chosen = p[partOf.back()];
        for (int i = n - 2; i >= 0; --i) {
          Value here = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::eq, block,
              arith::ConstantIndexOp::create(nb, l, i));
          chosen = arith::SelectOp::create(nb, l, here, p[partOf[i]], chosen);
        }
        linalg::YieldOp::create(nb, l, chosen);
      });
  return out;
}

/// out += hi + (lo + mid) (out = hi + (lo + mid) unless `accumulate`)
/// from `wide`, the products of the three parts side by side along out's
/// dimension `partDim` (hi, mid, lo): the correction lo + mid is added
/// only where it is finite (an infinite element of the bf16 operand times
/// the smaller parts would make NaN, inf·0 or inf − inf, where fp32 gives
/// ±inf; x·hi alone has fp32's sign).
void addPartProducts(OpBuilder &b, Location loc, Value wide, unsigned partDim,
                     Value out, bool accumulate) {
  Value view = blocksView(b, loc, wide, 3, /*alongFirst=*/partDim == 0);
  MLIRContext *ctx = b.getContext();
  auto partMap = [&](int64_t part) {
    AffineExpr i = getAffineDimExpr(0, ctx), j = getAffineDimExpr(1, ctx);
    AffineExpr p = getAffineConstantExpr(part, ctx);
    return AffineMap::get(2, 0,
                          partDim == 0 ? ArrayRef<AffineExpr>{p, i, j}
                                       : ArrayRef<AffineExpr>{i, p, j},
                          ctx);
  };
  AffineMap id = b.getMultiDimIdentityMap(2);
  SmallVector<utils::IteratorType> parallel(2, utils::IteratorType::parallel);
  linalg::GenericOp::create(
      b, loc, ValueRange{view, view, view}, ValueRange{out},
      ArrayRef<AffineMap>{partMap(0), partMap(1), partMap(2), id}, parallel,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value withHi = accumulate
                           ? arith::AddFOp::create(nb, l, args[3], args[0])
                           : args[0];
        Value correction = arith::AddFOp::create(nb, l, args[2], args[1]);
        Value sum = arith::AddFOp::create(nb, l, withHi, correction);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(
                nb, l, isFinite(nb, l, correction), sum, withHi)});
      });
}

/// out += op(a)·op(b) in true fp32 (dynamic shapes): bf16 operands widened
/// into f32 temporaries (kernels named to_f32), then moert_entry_matmul_f32.
void buildTrueF32Matmul(RewriterBase &rewriter, Location loc, Value a,
                        bool aTransposed, Value b, bool bTransposed, Value out) {
  MLIRContext *ctx = rewriter.getContext();
  Location widenLoc = NameLoc::get(StringAttr::get(ctx, "to_f32"), loc);
  SmallVector<Value> temporaries;
  auto asF32 = [&](Value v) -> Value {
    auto type = cast<MemRefType>(v.getType());
    if (type.getElementType().isF32())
      return v;
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dynamicSizes.push_back(memref::DimOp::create(rewriter, loc, v, d));
    Value wide = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), rewriter.getF32Type()),
        dynamicSizes);
    AffineMap id = rewriter.getMultiDimIdentityMap(type.getRank());
    SmallVector<utils::IteratorType> parallel(type.getRank(),
                                              utils::IteratorType::parallel);
    linalg::GenericOp::create(
        rewriter, widenLoc, ValueRange{v}, ValueRange{wide},
        ArrayRef<AffineMap>{id, id}, parallel,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value f = arith::ExtFOp::create(b, l, b.getF32Type(), args[0]);
          linalg::YieldOp::create(b, l, f);
        });
    temporaries.push_back(wide);
    return wide;
  };
  a = asF32(a);
  b = asF32(b);
  runtime_abi::moert_entry_matmul_f32.call(
      rewriter, loc,
      {runtime_abi::pointerArgument(rewriter, loc, a),
       i32Value(rewriter, loc, aTransposed),
       runtime_abi::pointerArgument(rewriter, loc, b),
       i32Value(rewriter, loc, bTransposed),
       runtime_abi::pointerArgument(rewriter, loc, out),
       i64Dim(rewriter, loc, out, 0), i64Dim(rewriter, loc, out, 1),
       i64Dim(rewriter, loc, a, aTransposed ? 0 : 1)});
  for (Value t : temporaries)
    memref::DeallocOp::create(rewriter, loc, t);
}

} // namespace

void split_matmul::buildMatmul(RewriterBase &rewriter, Location loc, Value a,
                               bool aTransposed, Value b, bool bTransposed,
                               Value out, bool accumulate) {
  auto isStatic = [](Value v) {
    return cast<MemRefType>(v.getType()).hasStaticShape();
  };
  Location splitLoc =
      NameLoc::get(StringAttr::get(rewriter.getContext(), "split_bf16"), loc);
  auto zeros = [&](Value buffer) {
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getF32FloatAttr(0.0f));
    linalg::FillOp::create(rewriter, splitLoc, ValueRange{zero},
                           ValueRange{buffer});
  };
  if (!isStatic(a) || !isStatic(b) || !isStatic(out)) {
    if (!accumulate) // moert_entry_matmul_f32 accumulates
      zeros(out);
    return buildTrueF32Matmul(rewriter, loc, a, aTransposed, b, bTransposed,
                              out);
  }
  Value k = i64Dim(rewriter, loc, a, aTransposed ? 0 : 1);
  SmallVector<Value> temporaries;
  if (isBF16(a) && isBF16(b)) {
    callMatmulBf16(rewriter, loc, a, aTransposed, b, bTransposed, out,
                   accumulate, k);
  } else if (isBF16(a) || isBF16(b)) {
    // One GEMM over the f32 operand's three parts laid side by side along
    // its dimension that the output keeps (hi, mid, lo), into an f32
    // temporary of three output blocks; one kernel then adds them to out.
    // Three GEMMs, one per part, each read the bf16 operand again (x:
    // 64 MB of qwen3-30b-a3b's router projection) with a third of the
    // tiles each.
    bool splitA = !isBF16(a);
    // a [m, k] keeps dimension 0 ([k, m]: 1); b [k, n] keeps 1 ([n, k]: 0).
    bool alongFirst = splitA ? !aTransposed : bTransposed;
    const int hiMidLo[3] = {0, 1, 2};
    Value wideOperand = concatenateParts(rewriter, splitLoc, splitA ? a : b,
                                         alongFirst, hiMidLo);
    ArrayRef<int64_t> outShape = cast<MemRefType>(out.getType()).getShape();
    unsigned partDim = splitA ? 0 : 1;
    SmallVector<int64_t> wideShape(outShape);
    wideShape[partDim] *= 3;
    Value wide = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(wideShape, rewriter.getF32Type()));
    callMatmulBf16(rewriter, loc, splitA ? wideOperand : a, aTransposed,
                   splitA ? b : wideOperand, bTransposed, wide,
                   /*accumulate=*/false, k);
    addPartProducts(rewriter, splitLoc, wide, partDim, out, accumulate);
    temporaries = {wideOperand, wide};
  } else {
    // a [m, k] has k inner, [k, m] outer; b [k, n] outer, [n, k] inner.
    Value wideA = concatenateParts(rewriter, splitLoc, a, aTransposed, kPartOfA);
    Value wideB = concatenateParts(rewriter, splitLoc, b, !bTransposed, kPartOfB);
    Value wideK = arith::MulIOp::create(
        rewriter, loc, k,
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 6));
    callMatmulBf16(rewriter, loc, wideA, aTransposed, wideB, bTransposed, out,
                   accumulate, wideK);
    temporaries = {wideA, wideB};
  }
  for (Value t : temporaries)
    memref::DeallocOp::create(rewriter, loc, t);
}
