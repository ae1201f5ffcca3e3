//===- QuantLoops.cpp - moe.quantize / moe.dequantize as loops ------------===//
//
// Literal semantics, in f32 (see moe.quantize in MoeOps.td). For every scaling
// block (the whole tensor, or a tile of the last two dims [..., M, N]):
//
//   amax   = max |x| over the block (NaN elements are skipped: arith.maxnumf
//            from 0, so one NaN does not poison its block's scale; the NaN
//            itself quantizes to NaN)
//   scale  = amax / fp8_max, and 1 where that is 0 (amax = 0, or so tiny that
//            the quotient underflows)
//   q      = fp8(x / scale), round to nearest even, saturating to ±fp8_max
//
// Recipes:
//   tensorwise     one block; scale is rank 0
//   delayed        scale = max(amax_history) / fp8_max (1 where 0); the
//                  current amax goes to new_amax_history[0] and the history
//                  moves up one slot (new[i] = old[i-1], the oldest entry
//                  drops out). Written back to front, so it is also right
//                  when the new history buffer aliases the old one.
//   block recipes  one scale per block of opmath::quantBlockShape:
//   block_1x128    blocks of 1 row × 128 columns, scale [..., M, ⌈N/128⌉]
//   block_128x128  blocks of 128 × 128, scale [..., ⌈M/128⌉, ⌈N/128⌉]
//   mx_1x32        blocks of 1 × 32, scale [..., M, ⌈N/32⌉] in f8E8M0FNU:
//                  amax / fp8_max rounded UP to a power of two (1 where
//                  amax = 0), so |x / scale| ≤ fp8_max and nothing clips.
//
// Partial edge blocks (N or M not a multiple of the block) take their amax
// over the elements they hold.
//
// Dequantize: y = decode(q) · scale of q's block.
//
// Every NaN that quantize or dequantize stores is the one quiet NaN
// (canonicalizeNaN; in FP8 the positive NaN code), whatever NaN the input
// held: the GPU's arithmetic does not keep a NaN's sign or payload.
//
//===----------------------------------------------------------------------===//
#include "Fp8Codec.h"
#include "LoopBuilder.h"
#include "LoopEmitters.h"

#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <functional>

namespace mlir::moe::loops {

namespace {

using IndexReduceBody = llvm::function_ref<Value(
    OpBuilder &, Location, ArrayRef<Value> ivs, Value acc)>;

/// Folds `body` over every index of `memref`.
Value reduceAll(OpBuilder &b, Location loc, Value memref, Value init,
                IndexReduceBody body) {
  int64_t rank = cast<MemRefType>(memref.getType()).getRank();
  SmallVector<Value> ivs;
  std::function<Value(OpBuilder &, Location, int64_t, Value)> nest =
      [&](OpBuilder &nb, Location nloc, int64_t d, Value acc) -> Value {
    if (d == rank)
      return body(nb, nloc, ivs, acc);
    return forReduce(nb, nloc, indexConst(nb, nloc, 0),
                     dimOf(nb, nloc, memref, d), acc,
                     [&](OpBuilder &ib, Location iloc, Value iv, Value a) {
                       ivs.push_back(iv);
                       Value r = nest(ib, iloc, d + 1, a);
                       ivs.pop_back();
                       return r;
                     });
  };
  return nest(b, loc, 0, init);
}

} // namespace

Value accumulateAmax(OpBuilder &b, Location loc, Value acc, Value x) {
  return arith::MaxNumFOp::create(b, loc, acc, math::AbsFOp::create(b, loc, x));
}

Value scaleFromAmax(OpBuilder &b, Location loc, Value amax, double fp8Max) {
  Value s = arith::DivFOp::create(b, loc, amax, f32Const(b, loc, fp8Max));
  Value isZero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, s,
                                       f32Const(b, loc, 0.0));
  return arith::SelectOp::create(b, loc, isZero, f32Const(b, loc, 1.0), s);
}

namespace {

/// Stores fp8(x / scale) into output[idx].
void storeQuantized(OpBuilder &b, Location loc, Value input, Value output,
                    ArrayRef<Value> idx, Value scale) {
  Value x = loadAsF32(b, loc, input, idx);
  Value q = arith::DivFOp::create(b, loc, x, scale);
  storeFromF32(b, loc, canonicalizeNaN(b, loc, q), output, idx);
}

/// Block recipes: one scale per tile of the last two dims.
void emitBlockQuantize(OpBuilder &b, Location loc, QuantRecipe recipe,
                       Value input, Value output, Value scale) {
  opmath::QuantBlockShape blk = *opmath::quantBlockShape(recipe);
  auto inputType = cast<MemRefType>(input.getType());
  int64_t rank = inputType.getRank();
  Type scaleElem = cast<MemRefType>(scale.getType()).getElementType();
  bool mx = recipe == QuantRecipe::MX1x32;
  double fp8Max =
      opmath::fp8MaxFinite(cast<MemRefType>(output.getType()).getElementType());

  forEachIndex(b, loc, input, rank - 2, [&](OpBuilder &bb, Location bl,
                                            ArrayRef<Value> batch) {
    Value zero = indexConst(bb, bl, 0);
    Value m = dimOf(bb, bl, input, rank - 2);
    Value n = dimOf(bb, bl, input, rank - 1);
    Value rowBlocks = ceilDiv(bb, bl, m, blk.rows);
    Value colBlocks = ceilDiv(bb, bl, n, blk.cols);
    auto span = [&](OpBuilder &sb, Location sl, Value blockIdx, int64_t size,
                    Value limit) -> std::pair<Value, Value> {
      Value lo = arith::MulIOp::create(sb, sl, blockIdx,
                                       indexConst(sb, sl, size));
      Value hi = arith::MinUIOp::create(
          sb, sl, arith::AddIOp::create(sb, sl, lo, indexConst(sb, sl, size)),
          limit);
      return {lo, hi};
    };
    forRange(bb, bl, zero, rowBlocks, [&](OpBuilder &rb, Location rl,
                                          Value mb) {
      std::pair<Value, Value> rowSpan = span(rb, rl, mb, blk.rows, m);
      Value r0 = rowSpan.first, r1 = rowSpan.second;
      forRange(rb, rl, zero, colBlocks, [&](OpBuilder &cb, Location cl,
                                            Value nb) {
        std::pair<Value, Value> colSpan = span(cb, cl, nb, blk.cols, n);
        Value c0 = colSpan.first, c1 = colSpan.second;
        auto idxOf = [&](Value r, Value c) {
          SmallVector<Value> idx(batch);
          idx.push_back(r);
          idx.push_back(c);
          return idx;
        };
        Value amax = forReduce(
            cb, cl, r0, r1, f32Const(cb, cl, 0.0),
            [&](OpBuilder &ob, Location ol, Value r, Value acc) {
              return forReduce(
                  ob, ol, c0, c1, acc,
                  [&](OpBuilder &ib, Location il, Value c, Value a) {
                    return accumulateAmax(
                        ib, il, a, loadAsF32(ib, il, input, idxOf(r, c)));
                  });
            });
        Value s = scaleFromAmax(cb, cl, amax, fp8Max);
        SmallVector<Value> scaleIdx = idxOf(mb, nb);
        if (mx) {
          // Round the scale up to a power of two (e8m0) and quantize with
          // exactly the scale that is stored.
          Value code = encodeFp8(cb, cl, s, scaleElem);
          memref::StoreOp::create(
              cb, cl, arith::BitcastOp::create(cb, cl, scaleElem, code), scale,
              scaleIdx);
          s = decodeFp8(cb, cl, code, scaleElem);
        } else {
          storeFromF32(cb, cl, s, scale, scaleIdx);
        }
        forRange(cb, cl, r0, r1, [&](OpBuilder &ob, Location ol, Value r) {
          forRange(ob, ol, c0, c1, [&](OpBuilder &ib, Location il, Value c) {
            storeQuantized(ib, il, input, output, idxOf(r, c), s);
          });
        });
      });
    });
  });
}

} // namespace

void emitQuantize(OpBuilder &b, Location loc, QuantRecipe recipe, Value input,
                  Value amaxHistory, Value output, Value scale,
                  Value newAmaxHistory) {
  if (opmath::quantBlockShape(recipe)) {
    emitBlockQuantize(b, loc, recipe, input, output, scale);
    return;
  }
  double fp8Max =
      opmath::fp8MaxFinite(cast<MemRefType>(output.getType()).getElementType());
  int64_t rank = cast<MemRefType>(input.getType()).getRank();
  Value zeroF = f32Const(b, loc, 0.0);

  // The scale of delayed scaling comes from the history, read before the
  // new history is written (the two may share a buffer).
  Value historyMax;
  if (recipe == QuantRecipe::Delayed)
    historyMax = amaxHistoryMax(b, loc, amaxHistory);

  Value amax = reduceAll(
      b, loc, input, zeroF,
      [&](OpBuilder &nb, Location nl, ArrayRef<Value> ivs, Value acc) {
        return accumulateAmax(nb, nl, acc, loadAsF32(nb, nl, input, ivs));
      });
  Value s = scaleFromAmax(
      b, loc, recipe == QuantRecipe::Delayed ? historyMax : amax, fp8Max);
  storeFromF32(b, loc, s, scale, {});
  forEachIndex(b, loc, input, rank,
               [&](OpBuilder &nb, Location nl, ArrayRef<Value> ivs) {
                 storeQuantized(nb, nl, input, output, ivs, s);
               });

  if (recipe == QuantRecipe::Delayed)
    rollAmaxHistory(b, loc, amaxHistory, newAmaxHistory, amax);
}

Value amaxHistoryMax(OpBuilder &b, Location loc, Value amaxHistory) {
  return forReduce(
      b, loc, indexConst(b, loc, 0), dimOf(b, loc, amaxHistory, 0),
      f32Const(b, loc, 0.0),
      [&](OpBuilder &nb, Location nl, Value i, Value acc) -> Value {
        Value h = memref::LoadOp::create(nb, nl, amaxHistory, i);
        return arith::MaxNumFOp::create(nb, nl, acc, h);
      });
}

void rollAmaxHistory(OpBuilder &b, Location loc, Value amaxHistory,
                     Value newAmaxHistory, Value amax) {
  // new[i] = old[i - 1] for i = L-1 down to 1, then new[0] = amax.
  Value zero = indexConst(b, loc, 0);
  Value one = indexConst(b, loc, 1);
  Value last =
      arith::SubIOp::create(b, loc, dimOf(b, loc, amaxHistory, 0), one);
  forRange(b, loc, zero, last, [&](OpBuilder &nb, Location nl, Value j) {
    Value i = arith::SubIOp::create(nb, nl, last, j);
    Value prev = arith::SubIOp::create(nb, nl, i, indexConst(nb, nl, 1));
    Value h = memref::LoadOp::create(nb, nl, amaxHistory, prev);
    memref::StoreOp::create(nb, nl, h, newAmaxHistory, i);
  });
  memref::StoreOp::create(b, loc, amax, newAmaxHistory, zero);
}

void emitDequantize(OpBuilder &b, Location loc, QuantRecipe recipe,
                    Value input, Value scale, Value output) {
  int64_t rank = cast<MemRefType>(input.getType()).getRank();
  if (!opmath::quantBlockShape(recipe)) {
    Value s = loadAsF32(b, loc, scale, {});
    forEachIndex(b, loc, input, rank,
                 [&](OpBuilder &nb, Location nl, ArrayRef<Value> ivs) {
                   Value q = loadAsF32(nb, nl, input, ivs);
                   storeFromF32(nb, nl,
                                canonicalizeNaN(nb, nl,
                                                arith::MulFOp::create(nb, nl, q, s)),
                                output, ivs);
                 });
    return;
  }
  opmath::QuantBlockShape blk = *opmath::quantBlockShape(recipe);
  forEachIndex(b, loc, input, rank,
               [&](OpBuilder &nb, Location nl, ArrayRef<Value> ivs) {
                 SmallVector<Value> scaleIdx(ivs);
                 auto blockOf = [&](Value iv, int64_t size) -> Value {
                   if (size == 1)
                     return iv;
                   return arith::DivUIOp::create(nb, nl, iv,
                                                 indexConst(nb, nl, size));
                 };
                 scaleIdx[rank - 2] = blockOf(ivs[rank - 2], blk.rows);
                 scaleIdx[rank - 1] = blockOf(ivs[rank - 1], blk.cols);
                 Value q = loadAsF32(nb, nl, input, ivs);
                 Value s = loadAsF32(nb, nl, scale, scaleIdx);
                 storeFromF32(nb, nl,
                                canonicalizeNaN(nb, nl,
                                                arith::MulFOp::create(nb, nl, q, s)),
                              output, ivs);
               });
}

} // namespace mlir::moe::loops
