//===- LoopBuilder.cpp - small helpers for writing loops on buffers -------===//
#include "LoopBuilder.h"
#include "Fp8Codec.h"

#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <functional>

namespace mlir::moe::loops {

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value canonicalizeNaN(OpBuilder &b, Location loc, Value v) {
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), v);
  Value quietNaN = arith::ConstantIntOp::create(b, loc, 0x7FC00000, 32);
  Value canonical = arith::SelectOp::create(b, loc, isNaN, quietNaN, bits);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), canonical);
}

Value f32Const(OpBuilder &b, Location loc, double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

Value i32Const(OpBuilder &b, Location loc, int32_t v) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
}

Value i64Const(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
}

Value dimOf(OpBuilder &b, Location loc, Value memref, int64_t i) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(i))
    return indexConst(b, loc, type.getDimSize(i));
  return memref::DimOp::create(b, loc, memref, i);
}

Value toI64(OpBuilder &b, Location loc, Value v) {
  Type i64 = b.getI64Type();
  if (v.getType() == i64)
    return v;
  if (v.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, i64, v);
  return arith::ExtSIOp::create(b, loc, i64, v);
}

Value fromI64(OpBuilder &b, Location loc, Value v, Type t) {
  if (t.isInteger(64))
    return v;
  return arith::TruncIOp::create(b, loc, t, v);
}

Value toIndex(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isIndex())
    return v;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

Value ceilDiv(OpBuilder &b, Location loc, Value x, int64_t d) {
  return arith::CeilDivUIOp::create(b, loc, x, indexConst(b, loc, d));
}

Value roundUpToMultiple(OpBuilder &b, Location loc, Value v, int64_t align) {
  if (align == 1)
    return v;
  Value a = i64Const(b, loc, align);
  Value bumped = arith::AddIOp::create(b, loc, v, i64Const(b, loc, align - 1));
  return arith::MulIOp::create(b, loc, arith::DivUIOp::create(b, loc, bumped, a),
                               a);
}

void ifThen(OpBuilder &b, Location loc, Value cond,
            llvm::function_ref<void(OpBuilder &, Location)> body) {
  scf::IfOp::create(b, loc, cond, [&](OpBuilder &nb, Location nloc) {
    body(nb, nloc);
    scf::YieldOp::create(nb, nloc);
  });
}

Value ifElse(OpBuilder &b, Location loc, Type t, Value cond,
             llvm::function_ref<Value(OpBuilder &, Location)> thenBody,
             llvm::function_ref<Value(OpBuilder &, Location)> elseBody) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{t}, cond,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, thenBody(b, loc));
  b.setInsertionPointToEnd(ifOp.elseBlock());
  scf::YieldOp::create(b, loc, elseBody(b, loc));
  return ifOp.getResult(0);
}

void parallelFor(OpBuilder &b, Location loc, ValueRange ubs,
                 ParallelBody body) {
  SmallVector<Value> lbs(ubs.size(), indexConst(b, loc, 0));
  SmallVector<Value> steps(ubs.size(), indexConst(b, loc, 1));
  scf::ParallelOp::create(b, loc, lbs, ubs, steps,
                          [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                            body(nb, nloc, ivs);
                          });
}

Value scratchAlloca(OpBuilder &b, Location loc, Type elem, Value size) {
  auto dynamicType = MemRefType::get({ShapedType::kDynamic}, elem);
  if (auto n = getConstantIntValue(size)) {
    Value fixed = memref::AllocaOp::create(b, loc, MemRefType::get({*n}, elem));
    return memref::CastOp::create(b, loc, dynamicType, fixed);
  }
  return memref::AllocaOp::create(b, loc, dynamicType, ValueRange{size});
}

void forRange(OpBuilder &b, Location loc, Value lb, Value ub, LoopBody body) {
  Value one = indexConst(b, loc, 1);
  scf::ForOp::create(b, loc, lb, ub, one, ValueRange{},
                     [&](OpBuilder &nb, Location nloc, Value iv, ValueRange) {
                       body(nb, nloc, iv);
                       scf::YieldOp::create(nb, nloc);
                     });
}

Value forReduce(OpBuilder &b, Location loc, Value lb, Value ub, Value init,
                ReduceBody body) {
  Value one = indexConst(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, one, ValueRange{init},
      [&](OpBuilder &nb, Location nloc, Value iv, ValueRange acc) {
        scf::YieldOp::create(nb, nloc, body(nb, nloc, iv, acc.front()));
      });
  return loop.getResult(0);
}

Value inHalfOpenRange(OpBuilder &b, Location loc, Value v, Value lo,
                      Value hi) {
  return arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, v, lo),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, hi));
}

Value select(OpBuilder &b, Location loc, Value cond, Value ifTrue,
             Value ifFalse) {
  return arith::SelectOp::create(b, loc, cond, ifTrue, ifFalse);
}

Value f32ToBF16Bits(OpBuilder &b, Location loc, Value v) {
  // Round to nearest even on the upper 16 bits: bits + 0x7fff + lsb, then
  // shift; NaNs are kept quiet NaNs instead of rounding into infinity.
  Type i32 = b.getI32Type();
  Value bits = arith::BitcastOp::create(b, loc, i32, v);
  Value lsb = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, i32Const(b, loc, 16)),
      i32Const(b, loc, 1));
  Value rounded = arith::AddIOp::create(
      b, loc, bits,
      arith::AddIOp::create(b, loc, lsb, i32Const(b, loc, 0x7fff)));
  Value upper = arith::ShRUIOp::create(b, loc, rounded, i32Const(b, loc, 16));
  Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  Value quietNan = arith::OrIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, i32Const(b, loc, 16)),
      i32Const(b, loc, 0x40));
  Value result = select(b, loc, isNan, quietNan, upper);
  return arith::TruncIOp::create(b, loc, b.getI16Type(), result);
}

Value bf16BitsToF32(OpBuilder &b, Location loc, Value bits) {
  Type i32 = b.getI32Type();
  Value wide = arith::ExtUIOp::create(b, loc, i32, bits);
  Value shifted = arith::ShLIOp::create(b, loc, wide, i32Const(b, loc, 16));
  return arith::BitcastOp::create(b, loc, b.getF32Type(), shifted);
}

Value elementToF32(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (t.isF32())
    return v;
  if (t.isBF16())
    return bf16BitsToF32(
        b, loc, arith::BitcastOp::create(b, loc, b.getI16Type(), v));
  if (opmath::isFp8Type(t))
    return decodeFp8(b, loc,
                     arith::BitcastOp::create(b, loc, b.getI8Type(), v), t);
  return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
}

Value f32ToElement(OpBuilder &b, Location loc, Value v, Type t) {
  if (t.isBF16())
    return arith::BitcastOp::create(b, loc, t, f32ToBF16Bits(b, loc, v));
  if (opmath::isFp8Type(t))
    return arith::BitcastOp::create(b, loc, t, encodeFp8(b, loc, v, t));
  if (!t.isF32())
    return arith::TruncFOp::create(b, loc, t, v);
  return v;
}

Value loadAsF32(OpBuilder &b, Location loc, Value memref, ValueRange idx) {
  return elementToF32(b, loc, memref::LoadOp::create(b, loc, memref, idx));
}

void storeFromF32(OpBuilder &b, Location loc, Value v, Value memref,
                  ValueRange idx) {
  Type t = cast<MemRefType>(memref.getType()).getElementType();
  memref::StoreOp::create(b, loc, f32ToElement(b, loc, v, t), memref, idx);
}

void fillZero(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Type elem = type.getElementType();
  Value zero;
  if (opmath::isFp8Type(elem)) // no FP8 constants in LLVM: zero bits, reinterpreted
    zero = arith::BitcastOp::create(
        b, loc, elem,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(b.getI8Type(), 0)));
  else if (auto f = dyn_cast<FloatType>(elem))
    zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(f, 0.0));
  else
    zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(elem, 0));
  forEachIndex(b, loc, memref, type.getRank(),
               [&](OpBuilder &nb, Location nloc, ArrayRef<Value> ivs) {
                 memref::StoreOp::create(nb, nloc, zero, memref, ivs);
               });
}

void forEachIndex(OpBuilder &b, Location loc, Value memref, int64_t numDims,
                  IndexBody body) {
  SmallVector<Value> ivs;
  std::function<void(OpBuilder &, Location, int64_t)> nest =
      [&](OpBuilder &nb, Location nloc, int64_t d) {
        if (d == numDims) {
          body(nb, nloc, ivs);
          return;
        }
        forRange(nb, nloc, indexConst(nb, nloc, 0), dimOf(nb, nloc, memref, d),
                 [&](OpBuilder &ib, Location iloc, Value iv) {
                   ivs.push_back(iv);
                   nest(ib, iloc, d + 1);
                   ivs.pop_back();
                 });
      };
  nest(b, loc, 0);
}

} // namespace mlir::moe::loops
