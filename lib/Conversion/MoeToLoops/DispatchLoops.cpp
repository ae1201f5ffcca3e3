//===- DispatchLoops.cpp - permute, combine, all_to_all, sort_chunks ------===//
//
// The CPU reference of the dispatch ops, written literally after DESIGN.md
// ("Exact semantics"). Row offsets are i64 (T·K·H overflows 32 bits at
// DeepSeek-V3 scale); memref indices are index values cast from them.
//
// Out-of-range expert indices. The verifier cannot check the values of
// `indices`, so the reference defines what happens to an (t, k) whose expert
// is outside [0, num_experts): it is dropped. It is not counted in any group,
// no row of `permuted` receives it, and `rows[t, k]` is -1. `moe.combine`
// skips every (t, k) whose row is negative or past the rows of `y`, so a
// dropped pair contributes nothing to its token. No buffer is ever read or
// written out of bounds, whatever the index values or the runtime dims.
//
//===----------------------------------------------------------------------===//
#include "LoopBuilder.h"
#include "LoopEmitters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::moe::loops {

namespace {

Type i64Type(OpBuilder &b) { return b.getI64Type(); }

Type elemType(Value memref) {
  return cast<MemRefType>(memref.getType()).getElementType();
}

/// The zero of a buffer's element type (FP8 has no LLVM constant: zero bits).
Value zeroOf(OpBuilder &b, Location loc, Type elem) {
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float8E8M0FNUType>(elem))
    return arith::BitcastOp::create(
        b, loc, elem,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(b.getI8Type(), 0)));
  if (auto f = dyn_cast<FloatType>(elem))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f, 0.0));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(elem, 0));
}

/// A static-shaped scratch buffer, allocated on the stack at the start of the
/// enclosing automatic allocation scope (the function), so that it is
/// allocated once even when the op sits inside a loop.
Value scratchBuffer(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                    Type elem) {
  OpBuilder::InsertionGuard guard(b);
  Operation *scope = b.getInsertionBlock()->getParentOp();
  while (scope && !scope->hasTrait<OpTrait::AutomaticAllocationScope>())
    scope = scope->getParentOp();
  if (scope && !scope->getRegion(0).empty())
    b.setInsertionPointToStart(&scope->getRegion(0).front());
  return memref::AllocaOp::create(b, loc, MemRefType::get(shape, elem));
}

/// Copies row `src` of `from` to row `dst` of `to` (same element type, same
/// number of columns `cols`), element by element, without conversion.
void copyRow(OpBuilder &b, Location loc, Value from, Value src, Value to,
             Value dst, Value cols) {
  forRange(
      b, loc, indexConst(b, loc, 0), cols,
      [&](OpBuilder &nb, Location nloc, Value h) {
        Value v = memref::LoadOp::create(nb, nloc, from, ValueRange{src, h});
        memref::StoreOp::create(nb, nloc, v, to, ValueRange{dst, h});
      });
}

/// Writes zero into rows [lo, hi) (index values) of a rank-2 buffer.
void zeroRows(OpBuilder &b, Location loc, Value buf, Value lo, Value hi) {
  Value cols = dimOf(b, loc, buf, 1);
  Value zero = zeroOf(b, loc, elemType(buf));
  forRange(b, loc, lo, hi, [&](OpBuilder &nb, Location nloc, Value r) {
    forRange(nb, nloc, indexConst(nb, nloc, 0), cols,
             [&](OpBuilder &ib, Location iloc, Value h) {
               memref::StoreOp::create(ib, iloc, zero, buf, ValueRange{r, h});
             });
  });
}

Value minI64(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MinSIOp::create(b, loc, x, y);
}

Value maxI64(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MaxSIOp::create(b, loc, x, y);
}

} // namespace

//===----------------------------------------------------------------------===//
// moe.permute
//===----------------------------------------------------------------------===//

// 1. count[e] = number of (t, k) with indices[t, k] = e (i64);
// 2. with padded_e = ⌈count[e] / A⌉·A: group_sizes[e] = padded_e, and the
//    group starts at off_e = Σ_{e' < e} padded_e'; count[e] becomes the
//    cursor off_e;
// 3. (t, k) in row-major order (t, then k): e = indices[t, k] lands at row
//    cursor[e]++ — expert ascending, stable in (t, k); rows[t, k] = that row;
// 4. the padding rows [cursor[e], off_e + padded_e) of each group and the
//    rows past the last group [Σ padded, R) are zero.
void emitPermute(OpBuilder &b, Location loc, int64_t numExperts, int64_t align,
                 Value x, Value indices, Value permuted, Value groupSizes,
                 Value rows) {
  Value c0 = indexConst(b, loc, 0);
  Value numTokens = dimOf(b, loc, indices, 0);
  Value topK = dimOf(b, loc, indices, 1);
  Value hidden = dimOf(b, loc, x, 1);
  Value numRows = dimOf(b, loc, permuted, 0);
  Value numRows64 = toI64(b, loc, numRows);
  Value numExpertsIdx = indexConst(b, loc, numExperts);
  Value zero64 = i64Const(b, loc, 0);
  Value one64 = i64Const(b, loc, 1);
  Value experts64 = i64Const(b, loc, numExperts);
  Type sizeType = elemType(groupSizes);
  Type rowType = elemType(rows);

  Value cursor = scratchBuffer(b, loc, {numExperts}, i64Type(b));

  // 1. Counts.
  forRange(b, loc, c0, numExpertsIdx,
           [&](OpBuilder &nb, Location nloc, Value e) {
             memref::StoreOp::create(nb, nloc, zero64, cursor, ValueRange{e});
           });
  auto expertOf = [&](OpBuilder &nb, Location nloc, Value t, Value k,
                      Value &expert, Value &inRange) {
    expert = toI64(nb, nloc,
                   memref::LoadOp::create(nb, nloc, indices, ValueRange{t, k}));
    inRange = inHalfOpenRange(nb, nloc, expert, zero64, experts64);
  };
  forRange(b, loc, c0, numTokens, [&](OpBuilder &tb, Location tloc, Value t) {
    forRange(tb, tloc, indexConst(tb, tloc, 0), topK,
             [&](OpBuilder &kb, Location kloc, Value k) {
               Value expert, inRange;
               expertOf(kb, kloc, t, k, expert, inRange);
               ifThen(kb, kloc, inRange, [&](OpBuilder &ib, Location iloc) {
                 Value e = toIndex(ib, iloc, expert);
                 Value n =
                     memref::LoadOp::create(ib, iloc, cursor, ValueRange{e});
                 memref::StoreOp::create(
                     ib, iloc, arith::AddIOp::create(ib, iloc, n, one64),
                     cursor, ValueRange{e});
               });
             });
  });

  // 2. Padded sizes and group offsets (exclusive prefix sum, i64).
  auto padToAlign = [&](OpBuilder &nb, Location nloc, Value count) -> Value {
    return roundUpToMultiple(nb, nloc, count, align);
  };
  forReduce(
      b, loc, c0, numExpertsIdx, zero64,
      [&](OpBuilder &nb, Location nloc, Value e, Value off) -> Value {
        Value count = memref::LoadOp::create(nb, nloc, cursor, ValueRange{e});
        Value padded = padToAlign(nb, nloc, count);
        memref::StoreOp::create(nb, nloc, fromI64(nb, nloc, padded, sizeType),
                                groupSizes, ValueRange{e});
        memref::StoreOp::create(nb, nloc, off, cursor, ValueRange{e});
        return arith::AddIOp::create(nb, nloc, off, padded);
      });

  // 3. Scatter the token rows, in (t, k) order.
  Value minusOne = i64Const(b, loc, -1);
  forRange(b, loc, c0, numTokens, [&](OpBuilder &tb, Location tloc, Value t) {
    forRange(
        tb, tloc, indexConst(tb, tloc, 0), topK,
        [&](OpBuilder &kb, Location kloc, Value k) {
          Value expert, inRange;
          expertOf(kb, kloc, t, k, expert, inRange);
          Value row = ifElse(
              kb, kloc, i64Type(kb), inRange,
              [&](OpBuilder &ib, Location iloc) -> Value {
                Value e = toIndex(ib, iloc, expert);
                Value dest =
                    memref::LoadOp::create(ib, iloc, cursor, ValueRange{e});
                memref::StoreOp::create(
                    ib, iloc, arith::AddIOp::create(ib, iloc, dest, one64),
                    cursor, ValueRange{e});
                // dest < R always holds when R has its static value
                // T·K + E·(A − 1); guard anyway (dynamic dims).
                Value fits = arith::CmpIOp::create(
                    ib, iloc, arith::CmpIPredicate::slt, dest, numRows64);
                ifThen(ib, iloc, fits, [&](OpBuilder &cb, Location cloc) {
                  copyRow(cb, cloc, x, t, permuted, toIndex(cb, cloc, dest),
                          hidden);
                });
                return arith::SelectOp::create(ib, iloc, fits, dest, minusOne);
              },
              [&](OpBuilder &, Location) -> Value { return minusOne; });
          memref::StoreOp::create(kb, kloc, fromI64(kb, kloc, row, rowType),
                                  rows, ValueRange{t, k});
        });
  });

  // 4. Zero the padding rows of every group, then the rows past the last.
  //    cursor[e] is now off_e + count[e], the first padding row.
  Value total = forReduce(
      b, loc, c0, numExpertsIdx, zero64,
      [&](OpBuilder &nb, Location nloc, Value e, Value off) -> Value {
        Value filled = memref::LoadOp::create(nb, nloc, cursor, ValueRange{e});
        Value count = arith::SubIOp::create(nb, nloc, filled, off);
        Value end =
            arith::AddIOp::create(nb, nloc, off, padToAlign(nb, nloc, count));
        Value lo = minI64(nb, nloc, filled, numRows64);
        Value hi = minI64(nb, nloc, end, numRows64);
        zeroRows(nb, nloc, permuted, toIndex(nb, nloc, lo),
                 toIndex(nb, nloc, hi));
        return end;
      });
  zeroRows(b, loc, permuted, toIndex(b, loc, minI64(b, loc, total, numRows64)),
           numRows);
}

//===----------------------------------------------------------------------===//
// moe.permute_rows
//===----------------------------------------------------------------------===//

// Every row zero, then x[t] copied to row rows[t, k] of each pair (t, k) in
// row-major order whose row is in [0, R).
void emitPermuteRows(OpBuilder &b, Location loc, Value x, Value rows,
                     Value permuted) {
  Value c0 = indexConst(b, loc, 0);
  Value numTokens = dimOf(b, loc, rows, 0);
  Value topK = dimOf(b, loc, rows, 1);
  Value width = dimOf(b, loc, x, 1);
  Value numRows = dimOf(b, loc, permuted, 0);
  Value numRows64 = toI64(b, loc, numRows);
  Value zero64 = i64Const(b, loc, 0);
  zeroRows(b, loc, permuted, c0, numRows);
  forRange(b, loc, c0, numTokens, [&](OpBuilder &tb, Location tloc, Value t) {
    forRange(tb, tloc, indexConst(tb, tloc, 0), topK,
             [&](OpBuilder &kb, Location kloc, Value k) {
               Value row = toI64(kb, kloc,
                                 memref::LoadOp::create(kb, kloc, rows,
                                                        ValueRange{t, k}));
               ifThen(kb, kloc,
                      inHalfOpenRange(kb, kloc, row, zero64, numRows64),
                      [&](OpBuilder &ib, Location iloc) {
                        copyRow(ib, iloc, x, t, permuted,
                                toIndex(ib, iloc, row), width);
                      });
             });
  });
}

//===----------------------------------------------------------------------===//
// moe.combine
//===----------------------------------------------------------------------===//

// out[t, h] = Σ_{k = 0..K-1} weights[t, k] · y[rows[t, k], h], accumulated in
// f32 in k order from 0, then stored in out's element type. A (t, k) whose
// row is outside [0, rows of y) (a dropped pair: -1) contributes nothing.
void emitCombine(OpBuilder &b, Location loc, Value y, Value rows, Value weights,
                 Value out) {
  Value numTokens = dimOf(b, loc, out, 0);
  Value hidden = dimOf(b, loc, out, 1);
  Value topK = dimOf(b, loc, rows, 1);
  Value yRows64 = toI64(b, loc, dimOf(b, loc, y, 0));
  Value zero64 = i64Const(b, loc, 0);
  Value zeroF = f32Const(b, loc, 0.0);
  parallelFor(
      b, loc, {numTokens, hidden},
      [&](OpBuilder &hb, Location hloc, ValueRange ivs) {
        Value t = ivs[0], h = ivs[1];
        {
          Value sum = forReduce(
              hb, hloc, indexConst(hb, hloc, 0), topK, zeroF,
              [&](OpBuilder &kb, Location kloc, Value k, Value acc) -> Value {
                Value row = toI64(
                    kb, kloc,
                    memref::LoadOp::create(kb, kloc, rows, ValueRange{t, k}));
                Value valid = inHalfOpenRange(kb, kloc, row, zero64, yRows64);
                return ifElse(
                    kb, kloc, kb.getF32Type(), valid,
                    [&](OpBuilder &ib, Location iloc) -> Value {
                      Value w = loadAsF32(ib, iloc, weights, ValueRange{t, k});
                      Value v = loadAsF32(
                          ib, iloc, y, ValueRange{toIndex(ib, iloc, row), h});
                      return arith::AddFOp::create(
                          ib, iloc, acc, arith::MulFOp::create(ib, iloc, w, v));
                    },
                    [&](OpBuilder &, Location) -> Value { return acc; });
              });
          storeFromF32(hb, hloc, sum, out, ValueRange{t, h});
        }
      });
}

//===----------------------------------------------------------------------===//
// moe.all_to_all on a one-rank axis
//===----------------------------------------------------------------------===//

// The only rank sends all its chunks to itself: they land in output rows
// [0, n) with n = Σ_j send_sizes[j] (each clamped at 0), clamped to
// [0, min(rows of input, rows of output)]; the rest of output is zero;
// recv_sizes = send_sizes.
void emitAllToAllOneRank(OpBuilder &b, Location loc, Value input,
                         Value sendSizes, Value output, Value recvSizes) {
  Value c0 = indexConst(b, loc, 0);
  Value zero64 = i64Const(b, loc, 0);
  Value inRows64 = toI64(b, loc, dimOf(b, loc, input, 0));
  Value outRows = dimOf(b, loc, output, 0);
  Value outRows64 = toI64(b, loc, outRows);
  Value cols = dimOf(b, loc, output, 1);
  Value numChunks = dimOf(b, loc, sendSizes, 0);

  Value sent = forReduce(
      b, loc, c0, numChunks, zero64,
      [&](OpBuilder &nb, Location nloc, Value j, Value acc) {
        Value rows =
            toI64(nb, nloc,
                  memref::LoadOp::create(nb, nloc, sendSizes, ValueRange{j}));
        return arith::AddIOp::create(nb, nloc, acc,
                                     maxI64(nb, nloc, rows, zero64))
            .getResult();
      });
  Value n = minI64(b, loc, minI64(b, loc, sent, inRows64), outRows64);
  Value nIdx = toIndex(b, loc, n);
  forRange(b, loc, c0, nIdx, [&](OpBuilder &nb, Location nloc, Value r) {
    copyRow(nb, nloc, input, r, output, r, cols);
  });
  zeroRows(b, loc, output, nIdx, outRows);

  forRange(b, loc, c0, numChunks, [&](OpBuilder &nb, Location nloc, Value j) {
    Value v = memref::LoadOp::create(nb, nloc, sendSizes, ValueRange{j});
    memref::StoreOp::create(nb, nloc, v, recvSizes, ValueRange{j});
  });
}

//===----------------------------------------------------------------------===//
// moe.sort_chunks
//===----------------------------------------------------------------------===//

ChunkGrid chunkGridOf(OpBuilder &b, Location loc, Value counts, Value sizes,
                      bool inverse) {
  Value n = dimOf(b, loc, counts, 0);
  // The verifier rejects an empty `sizes` where it is static; a dynamic one
  // that is empty at run time gives no chunks instead of a division by zero.
  Value m = dimOf(b, loc, sizes, 0);
  Value other = arith::DivUIOp::create(
      b, loc, n, arith::MaxUIOp::create(b, loc, m, indexConst(b, loc, 1)));
  Value sized = arith::SelectOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, m,
                            indexConst(b, loc, 0)),
      indexConst(b, loc, 0), m);
  return inverse ? ChunkGrid{sized, other} : ChunkGrid{other, sized};
}

Value chunkRowCount(OpBuilder &b, Location loc, Value counts, Value k) {
  Value rows =
      toI64(b, loc, memref::LoadOp::create(b, loc, counts, ValueRange{k}));
  return maxI64(b, loc, rows, i64Const(b, loc, 0));
}

/// The index p·C + c of chunk (p, c) in `counts`.
static Value chunkIndex(OpBuilder &b, Location loc, const ChunkGrid &grid,
                        Value p, Value c) {
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, p, grid.chunksPerRank), c);
}

Value foldChunks(OpBuilder &b, Location loc, const ChunkGrid &grid,
                 bool chunkMajor, Value init, ChunkBody body) {
  Value c0 = indexConst(b, loc, 0);
  Value outerEnd = chunkMajor ? grid.chunksPerRank : grid.ranks;
  Value innerEnd = chunkMajor ? grid.ranks : grid.chunksPerRank;
  return forReduce(
      b, loc, c0, outerEnd, init,
      [&](OpBuilder &ob, Location oloc, Value outer, Value acc) {
        return forReduce(
            ob, oloc, indexConst(ob, oloc, 0), innerEnd, acc,
            [&](OpBuilder &ib, Location iloc, Value inner, Value a) {
              Value p = chunkMajor ? inner : outer;
              Value c = chunkMajor ? outer : inner;
              return body(ib, iloc, chunkIndex(ib, iloc, grid, p, c), a);
            });
      });
}

Value emitChunkStarts(OpBuilder &b, Location loc, const ChunkGrid &grid,
                      Value counts, bool chunkMajor, Value starts) {
  return foldChunks(
      b, loc, grid, chunkMajor, i64Const(b, loc, 0),
      [&](OpBuilder &nb, Location nloc, Value k, Value start) -> Value {
        memref::StoreOp::create(nb, nloc, start, starts, ValueRange{k});
        return arith::AddIOp::create(nb, nloc, start,
                                     chunkRowCount(nb, nloc, counts, k));
      });
}

void emitSortChunksSizes(OpBuilder &b, Location loc, const ChunkGrid &grid,
                         bool inverse, Value counts, Value sizes) {
  // Forward: sizes[c] sums over p; inverse: sizes[p] sums over c.
  Value numSizes = inverse ? grid.ranks : grid.chunksPerRank;
  Value summed = inverse ? grid.chunksPerRank : grid.ranks;
  Type elem = cast<MemRefType>(sizes.getType()).getElementType();
  forRange(
      b, loc, indexConst(b, loc, 0), numSizes,
      [&](OpBuilder &nb, Location nloc, Value j) {
        Value total = forReduce(
            nb, nloc, indexConst(nb, nloc, 0), summed, i64Const(nb, nloc, 0),
            [&](OpBuilder &ib, Location iloc, Value i, Value acc) {
              Value p = inverse ? j : i;
              Value c = inverse ? i : j;
              Value rows = chunkRowCount(ib, iloc, counts,
                                         chunkIndex(ib, iloc, grid, p, c));
              return arith::AddIOp::create(ib, iloc, acc, rows).getResult();
            });
        memref::StoreOp::create(nb, nloc, fromI64(nb, nloc, total, elem), sizes,
                                ValueRange{j});
      });
}

// 1. sizes (emitSortChunksSizes);
// 2. each chunk's first row in x: chunks in (p, c) order, or (c, p) order
//    with `inverse` (emitChunkStarts, into an i64 scratch buffer);
// 3. the chunks in output order ((c, p), or (p, c) with `inverse`), a running
//    i64 row offset as the destination: output row dst + i gets x row
//    src + i, or zero where that is past the rows of x; rows past the end of
//    output are dropped;
// 4. output rows from Σ counts on are zero.
// Negative counts count as 0 rows.
void emitSortChunks(OpBuilder &b, Location loc, bool inverse, Value x,
                    Value counts, Value output, Value sizes) {
  ChunkGrid grid = chunkGridOf(b, loc, counts, sizes, inverse);
  emitSortChunksSizes(b, loc, grid, inverse, counts, sizes);

  Value numChunks = dimOf(b, loc, counts, 0);
  auto startsType = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  Value srcStarts =
      memref::AllocOp::create(b, loc, startsType, ValueRange{numChunks});
  emitChunkStarts(b, loc, grid, counts, /*chunkMajor=*/inverse, srcStarts);

  Value zero64 = i64Const(b, loc, 0);
  Value inRows64 = toI64(b, loc, dimOf(b, loc, x, 0));
  Value outRows = dimOf(b, loc, output, 0);
  Value outRows64 = toI64(b, loc, outRows);
  Value cols = dimOf(b, loc, output, 1);
  Value total = foldChunks(
      b, loc, grid, /*chunkMajor=*/!inverse, zero64,
      [&](OpBuilder &nb, Location nloc, Value k, Value dst) -> Value {
        Value rows = chunkRowCount(nb, nloc, counts, k);
        Value src = memref::LoadOp::create(nb, nloc, srcStarts, ValueRange{k});
        // Rows i with dst + i inside output.
        Value room = maxI64(
            nb, nloc, arith::SubIOp::create(nb, nloc, outRows64, dst), zero64);
        Value written = minI64(nb, nloc, rows, room);
        // Of those, the rows whose source src + i is a row of x.
        Value readable = minI64(
            nb, nloc, written,
            maxI64(nb, nloc, arith::SubIOp::create(nb, nloc, inRows64, src),
                   zero64));
        Value readableIdx = toIndex(nb, nloc, readable);
        forRange(nb, nloc, indexConst(nb, nloc, 0), readableIdx,
                 [&](OpBuilder &rb, Location rloc, Value i) {
                   Value i64 = toI64(rb, rloc, i);
                   Value d = arith::AddIOp::create(rb, rloc, dst, i64);
                   Value s = arith::AddIOp::create(rb, rloc, src, i64);
                   copyRow(rb, rloc, x, toIndex(rb, rloc, s), output,
                           toIndex(rb, rloc, d), cols);
                 });
        Value dstIdx = toIndex(nb, nloc, dst);
        zeroRows(nb, nloc, output,
                 arith::AddIOp::create(nb, nloc, dstIdx, readableIdx),
                 arith::AddIOp::create(nb, nloc, dstIdx,
                                       toIndex(nb, nloc, written)));
        return arith::AddIOp::create(nb, nloc, dst, rows);
      });
  memref::DeallocOp::create(b, loc, srcStarts);
  zeroRows(b, loc, output, toIndex(b, loc, minI64(b, loc, total, outRows64)),
           outRows);
}

//===----------------------------------------------------------------------===//
// moe.all_reduce on one rank
//===----------------------------------------------------------------------===//

void emitAllReduceOneRank(OpBuilder &b, Location loc, Value input,
                          Value output) {
  int64_t rank = cast<MemRefType>(input.getType()).getRank();
  forEachIndex(b, loc, input, rank,
               [&](OpBuilder &nb, Location nloc, ArrayRef<Value> ivs) {
                 Value v = memref::LoadOp::create(nb, nloc, input, ivs);
                 memref::StoreOp::create(nb, nloc, v, output, ivs);
               });
}

} // namespace mlir::moe::loops
