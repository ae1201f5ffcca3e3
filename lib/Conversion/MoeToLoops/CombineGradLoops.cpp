//===- CombineGradLoops.cpp - moe.combine_grad, the adjoint of combine ----===//
//
// The CPU reference of moe.combine_grad, written literally after its ODS
// description:
//
//   dy[r, h]       = Σ_{(t, k) : rows[t, k] = r} weights[t, k] · dout[t, h]
//   dweights[t, k] = Σ_h dout[t, h] · y[rows[t, k], h]
//
// Both sums run in f32 from 0.0 in a fixed order ((t, k) row-major for dy,
// h ascending for dweights) and are rounded once when stored, so the result
// is deterministic. A (t, k) whose row is outside [0, rows of y) — a pair
// moe.permute dropped (-1) — is skipped exactly as moe.combine skips it: it
// adds nothing to dy and its dweights is 0. Rows no pair maps to are zero.
//
// dy is a scatter of (t, k) pairs onto rows. Rather than accumulate into an
// f32 copy of dy ([R, H], as large as the activations), the pairs are sorted
// by row first (a counting sort, stable in (t, k)): `cursor` [R] and `pairs`
// [T·K] (i64, t·K + k), the same size as `rows`. Each dy[r, h] is then one
// f32 reduction over r's pairs in (t, k) order. No buffer is read or written
// out of bounds whatever the values of `rows`.
//
//===----------------------------------------------------------------------===//
#include "LoopBuilder.h"
#include "LoopEmitters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::moe::loops {

namespace {

/// A 1-D i64 heap buffer of `size` elements (freed by the caller).
Value allocI64(OpBuilder &b, Location loc, Value size) {
  auto type = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  return memref::AllocOp::create(b, loc, type, ValueRange{size});
}

} // namespace

void emitCombineWeightGrad(OpBuilder &b, Location loc, Value dout, Value y,
                           Value rows, Value dweights, RowDotProduct dot) {
  Value numTokens = dimOf(b, loc, dweights, 0);
  Value topK = dimOf(b, loc, dweights, 1);
  Value hidden = dimOf(b, loc, dout, 1);
  Value yRows64 = toI64(b, loc, dimOf(b, loc, y, 0));
  Value zero64 = i64Const(b, loc, 0);
  Value zeroF = f32Const(b, loc, 0.0);
  // dweights[t, k] = Σ_h dout[t, h] · y[row, h] (h in order), or 0 for a
  // pair whose row is outside y. Pairs are independent.
  parallelFor(b, loc, {numTokens, topK}, [&](OpBuilder &kb, Location kloc,
                                             ValueRange ivs) {
    Value t = ivs[0], k = ivs[1];
    Value row = toI64(kb, kloc,
                      memref::LoadOp::create(kb, kloc, rows, ValueRange{t, k}));
    Value valid = inHalfOpenRange(kb, kloc, row, zero64, yRows64);
    Value dw = ifElse(
        kb, kloc, kb.getF32Type(), valid,
        [&](OpBuilder &ib, Location iloc) -> Value {
          Value r = toIndex(ib, iloc, row);
          if (dot)
            return dot(ib, iloc, t, r);
          return forReduce(
              ib, iloc, indexConst(ib, iloc, 0), hidden, zeroF,
              [&](OpBuilder &hb, Location hloc, Value h, Value acc) -> Value {
                Value g = loadAsF32(hb, hloc, dout, ValueRange{t, h});
                Value v = loadAsF32(hb, hloc, y, ValueRange{r, h});
                return arith::AddFOp::create(
                    hb, hloc, acc, arith::MulFOp::create(hb, hloc, g, v));
              });
        },
        [&](OpBuilder &, Location) { return zeroF; });
    memref::StoreOp::create(kb, kloc, dw, dweights, ValueRange{t, k});
  });
}

void emitCombineGrad(OpBuilder &b, Location loc, Value dout, Value y,
                     Value rows, Value weights, Value dy, Value dweights) {
  Value c0 = indexConst(b, loc, 0);
  Value numTokens = dimOf(b, loc, dweights, 0);
  Value topK = dimOf(b, loc, dweights, 1);
  Value numRows = dimOf(b, loc, dy, 0);
  Value hidden = dimOf(b, loc, dy, 1);
  // y and dy have the same rows R (verified where static); taking the
  // smaller keeps every access in bounds if dynamic sizes disagree.
  Value yRows64 = arith::MinSIOp::create(
      b, loc, toI64(b, loc, dimOf(b, loc, y, 0)),
      toI64(b, loc, numRows));
  Value zero64 = i64Const(b, loc, 0);
  Value one64 = i64Const(b, loc, 1);
  Value zeroF = f32Const(b, loc, 0.0);

  // Visits every (t, k) in row-major order with its row (i64) and whether
  // that row is inside y.
  auto forEachPair = [&](llvm::function_ref<void(OpBuilder &, Location, Value,
                                                 Value, Value, Value)>
                             body) {
    forRange(b, loc, c0, numTokens, [&](OpBuilder &tb, Location tloc, Value t) {
      forRange(tb, tloc, indexConst(tb, tloc, 0), topK,
               [&](OpBuilder &kb, Location kloc, Value k) {
                 Value row = toI64(kb, kloc,
                                   memref::LoadOp::create(kb, kloc, rows,
                                                          ValueRange{t, k}));
                 Value valid =
                     inHalfOpenRange(kb, kloc, row, zero64, yRows64);
                 body(kb, kloc, t, k, row, valid);
               });
    });
  };

  // 1. dweights.
  emitCombineWeightGrad(b, loc, dout, y, rows, dweights);

  // 2. Counting sort of the valid pairs by row, stable in (t, k).
  //    cursor[r] = number of pairs on row r ...
  Value cursor = allocI64(b, loc, numRows);
  Value pairs = allocI64(b, loc, arith::MulIOp::create(b, loc, numTokens, topK));
  forRange(b, loc, c0, numRows, [&](OpBuilder &nb, Location nloc, Value r) {
    memref::StoreOp::create(nb, nloc, zero64, cursor, ValueRange{r});
  });
  forEachPair([&](OpBuilder &kb, Location kloc, Value, Value, Value row,
                  Value valid) {
    ifThen(kb, kloc, valid, [&](OpBuilder &ib, Location iloc) {
      Value r = toIndex(ib, iloc, row);
      Value n = memref::LoadOp::create(ib, iloc, cursor, ValueRange{r});
      memref::StoreOp::create(ib, iloc,
                              arith::AddIOp::create(ib, iloc, n, one64), cursor,
                              ValueRange{r});
    });
  });
  //    ... then the first slot of row r in `pairs` (exclusive prefix sum) ...
  forReduce(b, loc, c0, numRows, zero64,
            [&](OpBuilder &nb, Location nloc, Value r, Value off) -> Value {
              Value n = memref::LoadOp::create(nb, nloc, cursor, ValueRange{r});
              memref::StoreOp::create(nb, nloc, off, cursor, ValueRange{r});
              return arith::AddIOp::create(nb, nloc, off, n);
            });
  //    ... and each pair t·K + k goes to its row's next slot; afterwards
  //    cursor[r] is the end of row r's slots (and the start of row r + 1's).
  Value topK64 = toI64(b, loc, topK);
  forEachPair([&](OpBuilder &kb, Location kloc, Value t, Value k, Value row,
                  Value valid) {
    ifThen(kb, kloc, valid, [&](OpBuilder &ib, Location iloc) {
      Value r = toIndex(ib, iloc, row);
      Value slot = memref::LoadOp::create(ib, iloc, cursor, ValueRange{r});
      Value pair = arith::AddIOp::create(
          ib, iloc,
          arith::MulIOp::create(ib, iloc, toI64(ib, iloc, t), topK64),
          toI64(ib, iloc, k));
      memref::StoreOp::create(ib, iloc, pair, pairs,
                              ValueRange{toIndex(ib, iloc, slot)});
      memref::StoreOp::create(ib, iloc,
                              arith::AddIOp::create(ib, iloc, slot, one64),
                              cursor, ValueRange{r});
    });
  });

  // 3. dy[r, h] = Σ over row r's pairs, in (t, k) order, of
  //    weights[t, k] · dout[t, h]; an empty row sums to exactly zero.
  forReduce(
      b, loc, c0, numRows, zero64,
      [&](OpBuilder &rb, Location rloc, Value r, Value begin) -> Value {
        Value end = memref::LoadOp::create(rb, rloc, cursor, ValueRange{r});
        Value lo = toIndex(rb, rloc, begin), hi = toIndex(rb, rloc, end);
        forRange(
            rb, rloc, indexConst(rb, rloc, 0), hidden,
            [&](OpBuilder &hb, Location hloc, Value h) {
              Value sum = forReduce(
                  hb, hloc, lo, hi, zeroF,
                  [&](OpBuilder &pb, Location ploc, Value p,
                      Value acc) -> Value {
                    Value pair = toIndex(
                        pb, ploc,
                        memref::LoadOp::create(pb, ploc, pairs, ValueRange{p}));
                    Value t = arith::DivUIOp::create(pb, ploc, pair, topK);
                    Value k = arith::RemUIOp::create(pb, ploc, pair, topK);
                    Value w = loadAsF32(pb, ploc, weights, ValueRange{t, k});
                    Value g = loadAsF32(pb, ploc, dout, ValueRange{t, h});
                    return arith::AddFOp::create(
                        pb, ploc, acc, arith::MulFOp::create(pb, ploc, w, g));
                  });
              storeFromF32(hb, hloc, sum, dy, ValueRange{r, h});
            });
        return end;
      });

  memref::DeallocOp::create(b, loc, pairs);
  memref::DeallocOp::create(b, loc, cursor);
}

} // namespace mlir::moe::loops
