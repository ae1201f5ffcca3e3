//===- ParallelSchedules.cpp - moe ops as parallel loops for the GPU ------===//
//
// The ops whose reference loops have a sequential step, rescheduled as
// phases of independent work items (each phase one kernel, phases ordered
// on the stream). Token chunks of kChunk tokens carry partial counts and
// sums; the integer results (permute's rows and group sizes) equal the
// reference's exactly, float reductions are reassociated by chunk.
//
//===----------------------------------------------------------------------===//
#include "ParallelSchedules.h"
#include "RowSchedules.h"

#include "../MoeToLoops/LoopBuilder.h"
#include "../MoeToLoops/LoopEmitters.h"

#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::moe;
using namespace mlir::moe::loops;

namespace mlir::moe::gpu_schedules {
namespace {

/// Tokens per chunk: a thread's share of a counting or summing phase.
constexpr int64_t kChunk = 64;
/// The aux loss's chunk partials: a thread per (sequence, chunk, expert)
/// runs over each of its tokens' K indices, so a shorter chunk gives more
/// threads and shorter loops (64 left 8 warps an SM on qwen3-30b-a3b,
/// 27 us of load latency for 2M scores).
constexpr int64_t kAuxChunk = 16;

Value indexToF32(OpBuilder &b, Location loc, Value v) {
  return arith::SIToFPOp::create(b, loc, b.getF32Type(), toI64(b, loc, v));
}
Value addF(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AddFOp::create(b, loc, x, y);
}
Value mulF(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MulFOp::create(b, loc, x, y);
}
Value minIdx(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::MinUIOp::create(b, loc, x, y);
}
Value allocBuffer(OpBuilder &b, Location loc, ArrayRef<Value> sizes,
                  Type elem) {
  SmallVector<int64_t> shape(sizes.size(), ShapedType::kDynamic);
  return memref::AllocOp::create(b, loc, MemRefType::get(shape, elem), sizes);
}

/// A sum over the pairs (t, k), t in [tLo, tHi), k in [0, K), in (t, k)
/// order: `body` returns the new value of the carried `acc`.
Value reducePairs(OpBuilder &b, Location loc, Value tLo, Value tHi, Value topK,
                  Value init,
                  llvm::function_ref<Value(OpBuilder &, Location, Value t,
                                           Value k, Value acc)>
                      body) {
  return forReduce(
      b, loc, tLo, tHi, init,
      [&](OpBuilder &tb, Location tloc, Value t, Value acc) -> Value {
        return forReduce(tb, tloc, indexConst(tb, tloc, 0), topK, acc,
                         [&](OpBuilder &kb, Location kloc, Value k, Value a) {
                           return body(kb, kloc, t, k, a);
                         });
      });
}
/// The tokens [lo, hi) of chunk `c` (of `chunk` tokens) within [begin, end).
std::pair<Value, Value> chunkRange(OpBuilder &b, Location loc, Value begin,
                                   Value end, Value c, int64_t chunk = kChunk) {
  Value lo = arith::AddIOp::create(
      b, loc, begin, arith::MulIOp::create(b, loc, c, indexConst(b, loc, chunk)));
  Value hi = minIdx(b, loc, arith::AddIOp::create(b, loc, lo,
                                                  indexConst(b, loc, chunk)),
                    end);
  return {minIdx(b, loc, lo, end), hi};
}

//===----------------------------------------------------------------------===//
// moe.permute
//===----------------------------------------------------------------------===//

/// The last phase of moe.permute, and all of moe.permute_rows: the rows of
/// `x` [T, C] moved to the rows `rows` [T, K] names in `permuted` [R, C],
/// every other row zero.
struct RowScatter {
  OpBuilder &b;
  Location loc;
  Value x, rows, permuted;
  Value numTokens, topK, hidden, numRows, numRows64, zero64;

  RowScatter(OpBuilder &b, Location loc, Value x, Value rows, Value permuted)
      : b(b), loc(loc), x(x), rows(rows), permuted(permuted) {
    numTokens = dimOf(b, loc, rows, 0);
    topK = dimOf(b, loc, rows, 1);
    hidden = dimOf(b, loc, x, 1);
    numRows = dimOf(b, loc, permuted, 0);
    numRows64 = toI64(b, loc, numRows);
    zero64 = i64Const(b, loc, 0);
  }

  /// Every row written once: the token's row of x, or zero.
  void write() {
    Value tokenOfRow = tokenOfEachRow();
    if (!writePermutedRows(tokenOfRow))
      writePermuted(tokenOfRow);
    memref::DeallocOp::create(b, loc, tokenOfRow);
  }

  /// 5a. Each row's token: -1 (a padding row or one past the groups), then
  ///     the token of the pair that landed there (rows of routed pairs are
  ///     distinct).
  Value tokenOfEachRow() {
    Type i32 = b.getI32Type();
    Value tokenOfRow = allocBuffer(b, loc, {numRows}, i32);
    parallelFor(b, loc, {numRows},
                [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                  memref::StoreOp::create(nb, nloc, i32Const(nb, nloc, -1),
                                          tokenOfRow, ivs);
                });
    parallelFor(
        b, loc, {numTokens, topK},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
          Value row =
              toI64(nb, nloc, memref::LoadOp::create(nb, nloc, rows, ivs));
          ifThen(nb, nloc, inHalfOpenRange(nb, nloc, row, zero64, numRows64),
                 [&](OpBuilder &ib, Location iloc) {
                   memref::StoreOp::create(
                       ib, iloc,
                       arith::IndexCastOp::create(ib, iloc, i32, ivs[0]),
                       tokenOfRow, ValueRange{toIndex(ib, iloc, row)});
                 });
        });
    return tokenOfRow;
  }

  /// 5b. Row by row with vector access (RowSchedules.h): each token's row
  ///     of x is read from memory once and stored to the rows of its routed
  ///     pairs (copyTokenRows), then the rows no pair landed on (padding,
  ///     rows past the groups) are zeroed (zeroUnroutedRows): every row is
  ///     written once. False where x and permuted have no common vector
  ///     width (writePermuted then).
  bool writePermutedRows(Value tokenOfRow) {
    int64_t width = rowVectorWidth({x, permuted});
    int64_t cols = cast<MemRefType>(permuted.getType()).getDimSize(1);
    if (width == 0 || cast<MemRefType>(x.getType()).getDimSize(1) != cols ||
        getElementTypeOrSelf(x.getType()) !=
            getElementTypeOrSelf(permuted.getType()))
      return false;
    copyTokenRows(cols, width);
    zeroUnroutedRows(tokenOfRow, cols, width);
    return true;
  }

  void copyTokenRows(int64_t cols, int64_t width) {
    rowVectorFor(
        b, loc, numTokens, cols, width,
        [&](OpBuilder &nb, Location nloc, Value t, Value col) {
          forRange(
              nb, nloc, indexConst(nb, nloc, 0), topK,
              [&](OpBuilder &kb, Location kloc, Value k) {
                Value row = toI64(
                    kb, kloc,
                    memref::LoadOp::create(kb, kloc, rows, ValueRange{t, k}));
                Value routed =
                    inHalfOpenRange(kb, kloc, row, zero64, numRows64);
                ifThen(kb, kloc, routed, [&](OpBuilder &ib, Location iloc) {
                  // Loaded where it is stored: a vector of bf16 live across
                  // blocks costs x86 conversions (the CPU runs these loops
                  // too); on the GPU the K loads of one row hit L1.
                  Value v = loadRowBits(ib, iloc, x, t, col, width);
                  storeRowBits(ib, iloc, v, permuted, toIndex(ib, iloc, row),
                               col);
                });
              });
        });
  }

  void zeroUnroutedRows(Value tokenOfRow, int64_t cols, int64_t width) {
    Type bits = b.getIntegerType(
        getElementTypeOrSelf(permuted.getType()).getIntOrFloatBitWidth());
    auto type = VectorType::get({width}, bits);
    selectedRowVectorFor(
        b, loc, numRows, cols, width,
        [&](OpBuilder &nb, Location nloc, Value r) -> Value {
          Value token =
              memref::LoadOp::create(nb, nloc, tokenOfRow, ValueRange{r});
          return arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt,
                                       token, i32Const(nb, nloc, 0));
        },
        [&](OpBuilder &ib, Location iloc, Value r, Value col) {
          Value zero = arith::ConstantOp::create(
              ib, iloc, type, DenseElementsAttr::get(type, ib.getZeroAttr(bits)));
          storeRowBits(ib, iloc, zero, permuted, r, col);
        });
  }

  /// 5b. One pass over (row, column) writing the row's token's value or
  ///     zero: every row is written once and read from x contiguously.
  void writePermuted(Value tokenOfRow) {
    Type elem = cast<MemRefType>(permuted.getType()).getElementType();
    parallelFor(b, loc, {numRows, hidden},
                [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                  Value token = memref::LoadOp::create(nb, nloc, tokenOfRow,
                                                       ValueRange{ivs[0]});
                  Value routed =
                      arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::sge,
                                            token, i32Const(nb, nloc, 0));
                  Value v = ifElse(
                      nb, nloc, elem, routed,
                      [&](OpBuilder &ib, Location iloc) -> Value {
                        Value t = arith::IndexCastOp::create(
                            ib, iloc, ib.getIndexType(), token);
                        return memref::LoadOp::create(ib, iloc, x,
                                                      ValueRange{t, ivs[1]});
                      },
                      [&](OpBuilder &ib, Location iloc) -> Value {
                        return arith::ConstantOp::create(ib, iloc, elem,
                                                         ib.getZeroAttr(elem));
                      });
                  memref::StoreOp::create(nb, nloc, v, permuted, ivs);
                });
  }
};

/// The phases of the permute schedule over the buffers of one moe.permute.
/// The constructor creates the sizes and the scratch (counts[chunk,
/// expert], groupStart[expert]) that the phases share, in that order.
struct PermuteSchedule : RowScatter {
  int64_t align;
  Value indices, groupSizes;
  Value c0, c1, experts, experts64, minusOne64, numChunks, counts, groupStart;

  PermuteSchedule(OpBuilder &b, Location loc, int64_t numExperts, int64_t align,
                  Value x, Value indices, Value permuted, Value groupSizes,
                  Value rows)
      : RowScatter(b, loc, x, rows, permuted), align(align), indices(indices),
        groupSizes(groupSizes) {
    c0 = indexConst(b, loc, 0);
    c1 = indexConst(b, loc, 1);
    experts = indexConst(b, loc, numExperts);
    experts64 = i64Const(b, loc, numExperts);
    numChunks = ceilDiv(b, loc, numTokens, kChunk);
    counts = allocBuffer(b, loc, {numChunks, experts}, b.getI64Type());
    groupStart = allocBuffer(b, loc, {experts}, b.getI64Type());
  }

  Value expertOf(OpBuilder &nb, Location nloc, Value t, Value k) const {
    return toI64(nb, nloc,
                 memref::LoadOp::create(nb, nloc, indices, ValueRange{t, k}));
  }

  /// Visits the pairs of chunk c routed to expert e, in (t, k) order,
  /// carrying an i64 count.
  Value forEachPairOf(OpBuilder &nb, Location nloc, Value c, Value e,
                      Value init,
                      llvm::function_ref<void(OpBuilder &, Location, Value t,
                                              Value k, Value count)>
                          onPair) const {
    auto [lo, hi] = chunkRange(nb, nloc, c0, numTokens, c);
    Value e64 = toI64(nb, nloc, e);
    return reducePairs(
        nb, nloc, lo, hi, topK, init,
        [&](OpBuilder &kb, Location kloc, Value t, Value k, Value n) -> Value {
          Value hit = arith::CmpIOp::create(kb, kloc, arith::CmpIPredicate::eq,
                                            expertOf(kb, kloc, t, k), e64);
          if (onPair)
            ifThen(kb, kloc, hit, [&](OpBuilder &ib, Location iloc) {
              onPair(ib, iloc, t, k, n);
            });
          return arith::AddIOp::create(
              kb, kloc, n,
              arith::ExtUIOp::create(kb, kloc, kb.getI64Type(), hit));
        });
  }

  /// 1. Counts per (chunk, expert).
  void countPairs() {
    parallelFor(b, loc, {numChunks, experts},
                [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                  Value n = forEachPairOf(nb, nloc, ivs[0], ivs[1], zero64, {});
                  memref::StoreOp::create(nb, nloc, n, counts, ivs);
                });
  }

  /// An exclusive running sum over i in [0, n), kScanBatch at a time: each
  /// batch's values are loaded (`load`, i64) before any is used, then
  /// `store` gets each i with the sum of the values before it, in order;
  /// returns the sum of all. One thread walks these scans (their lengths
  /// are the chunks, or the experts), so a load waiting for the store
  /// before it made each step an L2 round trip: 30 us for qwen3-30b-a3b's
  /// 256 chunks on one H200, 14 us for its 128 experts.
  Value batchedExclusiveScan(
      OpBuilder &nb, Location nloc, Value n,
      llvm::function_ref<Value(OpBuilder &, Location, Value i)> load,
      llvm::function_ref<void(OpBuilder &, Location, Value i, Value before,
                              Value value)>
          store) {
    auto batches = scf::ForOp::create(
        nb, nloc, indexConst(nb, nloc, 0), n, indexConst(nb, nloc, kScanBatch),
        ValueRange{zero64});
    OpBuilder::InsertionGuard guard(nb);
    nb.setInsertionPointToStart(batches.getBody());
    Value first = batches.getInductionVar();
    SmallVector<Value> items, inRange, values;
    for (int64_t j = 0; j < kScanBatch; ++j) {
      Value i = arith::AddIOp::create(nb, nloc, first, indexConst(nb, nloc, j));
      Value valid =
          arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::ult, i, n);
      items.push_back(i);
      inRange.push_back(valid);
      values.push_back(ifElse(
          nb, nloc, nb.getI64Type(), valid,
          [&](OpBuilder &lb, Location lloc) { return load(lb, lloc, i); },
          [&](OpBuilder &lb, Location lloc) { return i64Const(lb, lloc, 0); }));
    }
    Value run = batches.getRegionIterArgs()[0];
    for (int64_t j = 0; j < kScanBatch; ++j) {
      Value before = run;
      ifThen(nb, nloc, inRange[j], [&](OpBuilder &sb, Location sloc) {
        store(sb, sloc, items[j], before, values[j]);
      });
      run = arith::AddIOp::create(nb, nloc, run, values[j]);
    }
    scf::YieldOp::create(nb, nloc, run);
    return batches.getResult(0);
  }
  static constexpr int64_t kScanBatch = 16;

  /// 2. Exclusive prefix over chunks, per expert; the total goes to
  ///    groupStart[e] for step 3.
  void prefixOverChunks() {
    parallelFor(
        b, loc, {experts}, [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
          Value e = ivs[0];
          Value total = batchedExclusiveScan(
              nb, nloc, numChunks,
              [&](OpBuilder &lb, Location lloc, Value c) -> Value {
                return memref::LoadOp::create(lb, lloc, counts,
                                              ValueRange{c, e});
              },
              [&](OpBuilder &sb, Location sloc, Value c, Value before, Value) {
                memref::StoreOp::create(sb, sloc, before, counts,
                                        ValueRange{c, e});
              });
          memref::StoreOp::create(nb, nloc, total, groupStart, ValueRange{e});
        });
  }

  /// 3. Padded sizes and offsets (exclusive prefix over experts, i64), in
  ///    one thread.
  void sizesAndOffsets() {
    Type sizeType = cast<MemRefType>(groupSizes.getType()).getElementType();
    parallelFor(b, loc, {c1}, [&](OpBuilder &nb, Location nloc, ValueRange) {
      batchedExclusiveScan(
          nb, nloc, experts,
          [&](OpBuilder &lb, Location lloc, Value e) -> Value {
            Value count =
                memref::LoadOp::create(lb, lloc, groupStart, ValueRange{e});
            return roundUpToMultiple(lb, lloc, count, align);
          },
          [&](OpBuilder &sb, Location sloc, Value e, Value offset,
              Value padded) {
            memref::StoreOp::create(sb, sloc,
                                    fromI64(sb, sloc, padded, sizeType),
                                    groupSizes, ValueRange{e});
            memref::StoreOp::create(sb, sloc, offset, groupStart,
                                    ValueRange{e});
          });
    });
  }

  /// 4. Rows of the routed pairs; -1 for pairs no expert takes (first, so
  ///    that the writes of valid pairs are the only others).
  void rowsOfPairs() {
    Type rowType = cast<MemRefType>(rows.getType()).getElementType();
    minusOne64 = i64Const(b, loc, -1);
    parallelFor(b, loc, {numTokens, topK},
                [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                  Value inRange = inHalfOpenRange(
                      nb, nloc, expertOf(nb, nloc, ivs[0], ivs[1]), zero64,
                      experts64);
                  ifThen(nb, nloc,
                         arith::XOrIOp::create(
                             nb, nloc, inRange,
                             arith::ConstantIntOp::create(nb, nloc, 1, 1)),
                         [&](OpBuilder &ib, Location iloc) {
                           memref::StoreOp::create(
                               ib, iloc, fromI64(ib, iloc, minusOne64, rowType),
                               rows, ivs);
                         });
                });
    parallelFor(
        b, loc, {numChunks, experts},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
          Value base = arith::AddIOp::create(
              nb, nloc,
              memref::LoadOp::create(nb, nloc, groupStart, ValueRange{ivs[1]}),
              memref::LoadOp::create(nb, nloc, counts, ivs));
          forEachPairOf(
              nb, nloc, ivs[0], ivs[1], zero64,
              [&](OpBuilder &ib, Location iloc, Value t, Value k, Value rank) {
                Value dest = arith::AddIOp::create(ib, iloc, base, rank);
                // dest < R holds for R = T·K + E·(A − 1); guard anyway.
                Value fits = arith::CmpIOp::create(
                    ib, iloc, arith::CmpIPredicate::slt, dest, numRows64);
                Value row =
                    arith::SelectOp::create(ib, iloc, fits, dest, minusOne64);
                memref::StoreOp::create(ib, iloc,
                                        fromI64(ib, iloc, row, rowType), rows,
                                        ValueRange{t, k});
              });
        });
  }
};

// 1. counts[c, e]: pairs (t, k) of token chunk c routed to e;
// 2. per expert, exclusive prefix over chunks (a chunk's first slot within
//    the expert's group) and the total;
// 3. one thread: padded group sizes and group offsets;
// 4. per (chunk, expert): rows[t, k] = offset + chunk prefix + rank within
//    the chunk, (t, k) in row-major order: expert ascending, stable in
//    (t, k), as the reference; pairs with an expert outside [0, E) get -1;
// 5. each row's token (-1 for padding), then every row of permuted written
//    once: the token's row of x, or zero.
void emitPermuteGpu(OpBuilder &b, Location loc, int64_t numExperts,
                    int64_t align, Value x, Value indices, Value permuted,
                    Value groupSizes, Value rows) {
  PermuteSchedule schedule(b, loc, numExperts, align, x, indices, permuted,
                           groupSizes, rows);
  schedule.countPairs();
  schedule.prefixOverChunks();
  schedule.sizesAndOffsets();
  schedule.rowsOfPairs();
  schedule.write();
  memref::DeallocOp::create(b, loc, schedule.counts);
  memref::DeallocOp::create(b, loc, schedule.groupStart);
}

//===----------------------------------------------------------------------===//
// moe.combine_grad
//===----------------------------------------------------------------------===//

/// dy[r, h] of a row that one pair (t, k) names: the reference's sum of
/// one term, 0 + weights[t, k] · dout[t, h] (a -0 product sums to +0).
Value onePairTerm(OpBuilder &b, Location loc, Value w, Value g) {
  return addF(b, loc, f32Const(b, loc, 0.0), mulF(b, loc, w, g));
}

/// dy[r, col ... col + width) as f32 where `count` pairs name row r and
/// count is not 1: zero for none (the scan's trip count is then 0), else
/// the reference's sum over all pairs (t, k) in row-major order (a scan over
/// every pair: slow, but only for such rows).
SmallVector<Value> sumOfPairsRowLanes(OpBuilder &ib, Location iloc, Value dout,
                                      Value rows, Value weights, Value count,
                                      Value r, Value col, int64_t width) {
  Value numTokens = dimOf(ib, iloc, dout, 0);
  Value topK = dimOf(ib, iloc, rows, 1);
  SmallVector<Value> zeros(width, f32Const(ib, iloc, 0.0));
  // Zero rows skip the scan (its trip count is 0).
  Value scanEnd = arith::SelectOp::create(
      ib, iloc,
      arith::CmpIOp::create(ib, iloc, arith::CmpIPredicate::eq, count,
                            i32Const(ib, iloc, 0)),
      indexConst(ib, iloc, 0), numTokens);
  SmallVector<Type> laneTypes(width, ib.getF32Type());
  Value r64 = toI64(ib, iloc, r);
  auto overT = scf::ForOp::create(
      ib, iloc, indexConst(ib, iloc, 0), scanEnd,
      indexConst(ib, iloc, 1), zeros,
      [&](OpBuilder &tb, Location tloc, Value t, ValueRange tAcc) {
        auto overK = scf::ForOp::create(
            tb, tloc, indexConst(tb, tloc, 0), topK,
            indexConst(tb, tloc, 1), tAcc,
            [&](OpBuilder &kb, Location kloc, Value k,
                ValueRange acc) {
              Value hit = arith::CmpIOp::create(
                  kb, kloc, arith::CmpIPredicate::eq,
                  toI64(kb, kloc,
                        memref::LoadOp::create(kb, kloc, rows,
                                               ValueRange{t, k})),
                  r64);
              auto ifHit =
                  scf::IfOp::create(kb, kloc, laneTypes, hit,
                                    /*withElseRegion=*/true);
              {
                OpBuilder::InsertionGuard guard(kb);
                kb.setInsertionPointToStart(ifHit.thenBlock());
                Value w = loadAsF32(kb, kloc, weights, {t, k});
                SmallVector<Value> g = loadRowVectorAsF32(
                    kb, kloc, dout, t, col, width);
                SmallVector<Value> sums;
                for (int64_t i = 0; i < width; ++i)
                  sums.push_back(addF(kb, kloc, acc[i],
                                      mulF(kb, kloc, w, g[i])));
                scf::YieldOp::create(kb, kloc, sums);
                kb.setInsertionPointToStart(ifHit.elseBlock());
                scf::YieldOp::create(kb, kloc, acc);
              }
              scf::YieldOp::create(kb, kloc, ifHit.getResults());
            });
        scf::YieldOp::create(tb, tloc, overK.getResults());
      });
  return SmallVector<Value>(overT.getResults());
}

/// dy by rows of `width`-element vectors, given the number of pairs naming
/// each row: a block per token reads the token's dout row once (a thread
/// per vector) and stores 0 + weights[t, k] · dout[t] (onePairTerm) to
/// each row only pair (t, k) names; a warp per 32 rows
/// (selectedRowVectorFor) writes the others: zero where no pair names the
/// row, else the reference's sum over all pairs (t, k) in row-major order
/// (a scan over every pair: slow, but only for such rows). Every element of
/// dy is written once, each value the reference's.
void writeCombineGradRows(OpBuilder &b, Location loc, Value dout, Value rows,
                          Value weights, Value dy, Value pairsPerRow,
                          Value yRows64, int64_t width) {
  Value numTokens = dimOf(b, loc, dout, 0);
  Value topK = dimOf(b, loc, rows, 1);
  Value numRows = dimOf(b, loc, dy, 0);
  int64_t hidden = cast<MemRefType>(dy.getType()).getDimSize(1);
  Value zero64 = i64Const(b, loc, 0);
  auto countIs = [&](OpBuilder &cb, Location cloc, arith::CmpIPredicate pred,
                     Value count, int32_t v) {
    return arith::CmpIOp::create(cb, cloc, pred, count, i32Const(cb, cloc, v));
  };
  rowVectorFor(
      b, loc, numTokens, hidden, width,
      [&](OpBuilder &nb, Location nloc, Value t, Value col) {
        SmallVector<Value> g =
            loadRowVectorAsF32(nb, nloc, dout, t, col, width);
        forRange(
            nb, nloc, indexConst(nb, nloc, 0), topK,
            [&](OpBuilder &kb, Location kloc, Value k) {
              Value row = toI64(
                  kb, kloc,
                  memref::LoadOp::create(kb, kloc, rows, ValueRange{t, k}));
              ifThen(
                  kb, kloc, inHalfOpenRange(kb, kloc, row, zero64, yRows64),
                  [&](OpBuilder &ib, Location iloc) {
                    Value r = toIndex(ib, iloc, row);
                    Value count = memref::LoadOp::create(ib, iloc, pairsPerRow,
                                                         ValueRange{r});
                    ifThen(
                        ib, iloc,
                        countIs(ib, iloc, arith::CmpIPredicate::eq, count, 1),
                        [&](OpBuilder &sb, Location sloc) {
                          Value w = loadAsF32(sb, sloc, weights, {t, k});
                          SmallVector<Value> lanes;
                          for (Value gi : g)
                            lanes.push_back(onePairTerm(sb, sloc, w, gi));
                          storeRowVectorFromF32(sb, sloc, lanes, dy, r, col);
                        });
                  });
            });
      });
  auto pairsOf = [&](OpBuilder &nb, Location nloc, Value r) -> Value {
    return memref::LoadOp::create(nb, nloc, pairsPerRow, ValueRange{r});
  };
  selectedRowVectorFor(
      b, loc, numRows, hidden, width,
      [&](OpBuilder &nb, Location nloc, Value r) {
        return countIs(nb, nloc, arith::CmpIPredicate::ne,
                       pairsOf(nb, nloc, r), 1);
      },
      [&](OpBuilder &ib, Location iloc, Value r, Value col) {
        SmallVector<Value> sums = sumOfPairsRowLanes(
            ib, iloc, dout, rows, weights, pairsOf(ib, iloc, r), r, col, width);
        storeRowVectorFromF32(ib, iloc, sums, dy, r, col);
      });
}

// dweights[t, k] = Σ_h dout[t, h] · y[row, h] as a warp per pair
// (warpPerItemFor): lane l reads the vectors l, l + 32, ... of both rows
// (each warp-wide load 512 contiguous bytes of a row), sums its products
// in order, and a butterfly of gpu.shuffle xor adds the 32 partial sums;
// lane 0 stores. A thread per pair, reading a row each, left every warp's
// loads 32 rows apart. The sum runs in another order than the reference's
// (h ascending), deterministically. A pair whose row is outside y
// (dropped) reads nothing and stores 0, as the reference does.
void emitCombineWeightGradWarps(OpBuilder &b, Location loc, Value dout,
                                Value y, Value rows, Value dweights,
                                int64_t width) {
  constexpr int64_t pairsPerBlock = 8;
  int64_t vectors = cast<MemRefType>(dout.getType()).getDimSize(1) / width;
  Value numTokens = dimOf(b, loc, dweights, 0);
  Value topK = dimOf(b, loc, dweights, 1);
  Value numPairs = arith::MulIOp::create(b, loc, numTokens, topK);
  Value lastPair =
      arith::SubIOp::create(b, loc, numPairs, indexConst(b, loc, 1));
  Value yRows64 = toI64(b, loc, dimOf(b, loc, y, 0));
  warpPerItemFor(
      b, loc, numPairs, pairsPerBlock,
      [&](OpBuilder &wb, Location wloc, Value item, Value lane,
          Value inRange) {
        // Past the last pair a warp reads the last pair's rows (every lane
        // takes part in the shuffles) and does not store.
        Value pair = arith::MinUIOp::create(wb, wloc, item, lastPair);
        Value t = arith::DivUIOp::create(wb, wloc, pair, topK);
        Value k = arith::RemUIOp::create(wb, wloc, pair, topK);
        Value row = toI64(
            wb, wloc, memref::LoadOp::create(wb, wloc, rows, ValueRange{t, k}));
        Value valid =
            inHalfOpenRange(wb, wloc, row, i64Const(wb, wloc, 0), yRows64);
        // A dropped pair's lanes run no iteration (no load of its row).
        Value end = arith::SelectOp::create(wb, wloc, valid,
                                            indexConst(wb, wloc, vectors),
                                            indexConst(wb, wloc, 0));
        Value safeRow = arith::SelectOp::create(
            wb, wloc, valid, toIndex(wb, wloc, row), indexConst(wb, wloc, 0));
        auto lanePartial = scf::ForOp::create(
            wb, wloc, lane, end, indexConst(wb, wloc, kWarpSize),
            ValueRange{f32Const(wb, wloc, 0.0)},
            [&](OpBuilder &hb, Location hloc, Value v, ValueRange iter) {
              Value col = arith::MulIOp::create(hb, hloc, v,
                                                indexConst(hb, hloc, width));
              SmallVector<Value> g =
                  loadRowVectorAsF32(hb, hloc, dout, t, col, width);
              SmallVector<Value> yv =
                  loadRowVectorAsF32(hb, hloc, y, safeRow, col, width);
              Value acc = iter[0];
              for (int64_t i = 0; i < width; ++i)
                acc = arith::AddFOp::create(
                    hb, hloc, acc,
                    arith::MulFOp::create(hb, hloc, g[i], yv[i]));
              scf::YieldOp::create(hb, hloc, acc);
            });
        Value sum = warpSum(wb, wloc, lanePartial.getResult(0));
        Value dw = arith::SelectOp::create(wb, wloc, valid, sum,
                                           f32Const(wb, wloc, 0.0));
        ifThen(wb, wloc, storingLane(wb, wloc, lane, inRange),
               [&](OpBuilder &sb, Location sloc) {
          memref::StoreOp::create(sb, sloc, dw, dweights, ValueRange{t, k});
        });
      });
}

// dweights as a warp per pair where dout and y have rows of vectors
// (emitCombineWeightGradWarps), else as the reference (a thread per pair).
// dy: the pairs naming
// each row are counted (an integer atomic add), then every element of dy is
// written once: zero, the one pair's weighted cotangent (rows made by
// moe.permute are distinct: the reference's sum of one term), or for a row
// several pairs name the reference's sum over all pairs (t, k) in row-major
// order. Where dout and dy have rows of a static length with the identity
// layout, dy is written by rows of vectors (writeCombineGradRows);
// otherwise element by element, the one pair found through a kept pair
// index per row.
void emitCombineGradGpu(OpBuilder &b, Location loc, Value dout, Value y,
                        Value rows, Value weights, Value dy, Value dweights) {
  emitCombineGradWeights(b, loc, dout, y, rows, dweights);
  Value numTokens = dimOf(b, loc, dweights, 0);
  Value topK = dimOf(b, loc, dweights, 1);
  Value numRows = dimOf(b, loc, dy, 0);
  Value hidden = dimOf(b, loc, dy, 1);
  int64_t width = rowVectorWidth({dout, dy});
  if (width != 0 && cast<MemRefType>(dout.getType()).getDimSize(1) !=
                        cast<MemRefType>(dy.getType()).getDimSize(1))
    width = 0;
  // The element-wise schedule finds a row's one pair through pairOfRow.
  CombineGradRowPairs pairs =
      emitCombineGradRowPairs(b, loc, rows, y, dy, /*keepPair=*/width == 0);
  Value pairsPerRow = pairs.pairsPerRow, pairOfRow = pairs.pairOfRow;
  auto rowOf = [&](OpBuilder &nb, Location nloc, Value t, Value k) {
    return toI64(nb, nloc,
                 memref::LoadOp::create(nb, nloc, rows, ValueRange{t, k}));
  };
  if (width != 0) {
    writeCombineGradRows(b, loc, dout, rows, weights, dy, pairsPerRow,
                         pairs.yRows64, width);
    memref::DeallocOp::create(b, loc, pairsPerRow);
    return;
  }
  // Every element of dy once: 0 for a row no pair names, its pair's
  // weighted cotangent for a row one pair names (the reference's sum of one
  // term), and for a row several pairs name the reference's sum over all
  // pairs (t, k) in row-major order (a scan over every pair: slow, but only
  // for such rows).
  parallelFor(b, loc, {numRows, hidden}, [&](OpBuilder &nb, Location nloc,
                                             ValueRange ivs) {
    Value r = ivs[0], h = ivs[1];
    Type f32 = nb.getF32Type();
    Value count = memref::LoadOp::create(nb, nloc, pairsPerRow, ValueRange{r});
    auto countIs = [&](OpBuilder &cb, Location cloc, arith::CmpIPredicate pred,
                       int32_t v) {
      return arith::CmpIOp::create(cb, cloc, pred, count, i32Const(cb, cloc, v));
    };
    auto onePair = [&](OpBuilder &ib, Location iloc) -> Value {
      Value pair = arith::IndexCastOp::create(
          ib, iloc, ib.getIndexType(),
          memref::LoadOp::create(ib, iloc, pairOfRow, ValueRange{r}));
      Value t = arith::DivUIOp::create(ib, iloc, pair, topK);
      Value k = arith::RemUIOp::create(ib, iloc, pair, topK);
      return onePairTerm(ib, iloc, loadAsF32(ib, iloc, weights, {t, k}),
                         loadAsF32(ib, iloc, dout, {t, h}));
    };
    auto allPairs = [&](OpBuilder &ib, Location iloc) -> Value {
      Value r64 = toI64(ib, iloc, r);
      return reducePairs(
          ib, iloc, indexConst(ib, iloc, 0), numTokens, topK,
          f32Const(ib, iloc, 0.0),
          [&](OpBuilder &kb, Location kloc, Value t, Value k, Value a) -> Value {
            Value hit = arith::CmpIOp::create(kb, kloc, arith::CmpIPredicate::eq,
                                              rowOf(kb, kloc, t, k), r64);
            Value term = mulF(kb, kloc, loadAsF32(kb, kloc, weights, {t, k}),
                              loadAsF32(kb, kloc, dout, {t, h}));
            return arith::SelectOp::create(kb, kloc, hit,
                                           addF(kb, kloc, a, term), a);
          });
    };
    Value v = ifElse(
        nb, nloc, f32, countIs(nb, nloc, arith::CmpIPredicate::eq, 0),
        [&](OpBuilder &ib, Location iloc) { return f32Const(ib, iloc, 0.0); },
        [&](OpBuilder &ib, Location iloc) -> Value {
          return ifElse(ib, iloc, f32,
                        countIs(ib, iloc, arith::CmpIPredicate::eq, 1), onePair,
                        allPairs);
        });
    storeFromF32(nb, nloc, v, dy, {r, h});
  });
  memref::DeallocOp::create(b, loc, pairOfRow);
  memref::DeallocOp::create(b, loc, pairsPerRow);
}

} // namespace

CombineGradRowPairs emitCombineGradRowPairs(OpBuilder &b, Location loc,
                                            Value rows, Value y, Value dy,
                                            bool keepPair) {
  Value numTokens = dimOf(b, loc, rows, 0);
  Value topK = dimOf(b, loc, rows, 1);
  Value numRows = dimOf(b, loc, dy, 0);
  Value yRows64 = arith::MinSIOp::create(
      b, loc, toI64(b, loc, dimOf(b, loc, y, 0)), toI64(b, loc, numRows));
  Value zero64 = i64Const(b, loc, 0);
  Type i32 = b.getI32Type();
  // Per row: how many pairs name it (an integer atomic count) and, where
  // kept, one of them (t·K + k; the last writer wins where several do).
  Value pairsPerRow = allocBuffer(b, loc, {numRows}, i32);
  Value pairOfRow = keepPair ? allocBuffer(b, loc, {numRows}, i32) : Value();
  parallelFor(b, loc, {numRows},
              [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                memref::StoreOp::create(nb, nloc, i32Const(nb, nloc, 0),
                                        pairsPerRow, ivs);
                if (pairOfRow)
                  memref::StoreOp::create(nb, nloc, i32Const(nb, nloc, -1),
                                          pairOfRow, ivs);
              });
  parallelFor(
      b, loc, {numTokens, topK},
      [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
        Value t = ivs[0], k = ivs[1];
        Value row = toI64(
            nb, nloc, memref::LoadOp::create(nb, nloc, rows, ValueRange{t, k}));
        ifThen(nb, nloc, inHalfOpenRange(nb, nloc, row, zero64, yRows64),
               [&](OpBuilder &ib, Location iloc) {
                 Value r = toIndex(ib, iloc, row);
                 memref::AtomicRMWOp::create(
                     ib, iloc, arith::AtomicRMWKind::addi,
                     i32Const(ib, iloc, 1), pairsPerRow, ValueRange{r});
                 if (!pairOfRow)
                   return;
                 Value pair = arith::AddIOp::create(
                     ib, iloc, arith::MulIOp::create(ib, iloc, t, topK), k);
                 memref::StoreOp::create(
                     ib, iloc, arith::IndexCastOp::create(ib, iloc, i32, pair),
                     pairOfRow, ValueRange{r});
               });
      });
  return {pairsPerRow, pairOfRow, yRows64};
}

void emitCombineGradWeights(OpBuilder &b, Location loc, Value dout, Value y,
                            Value rows, Value dweights) {
  if (int64_t dwWidth = rowVectorWidth({dout, y}))
    emitCombineWeightGradWarps(b, loc, dout, y, rows, dweights, dwWidth);
  else
    emitCombineWeightGrad(b, loc, dout, y, rows, dweights);
}

void combineGradFixUpRow(OpBuilder &b, Location loc, Value dout, Value rows,
                         Value weights, const CombineGradRowPairs &pairs,
                         Value r, Value col, int64_t width, RowPack pack,
                         RowStore store) {
  Value count =
      memref::LoadOp::create(b, loc, pairs.pairsPerRow, ValueRange{r});
  ifThen(b, loc,
         arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, count,
                               i32Const(b, loc, 1)),
         [&](OpBuilder &sb, Location sl) {
           store(sb, sl,
                 pack(sb, sl,
                      sumOfPairsRowLanes(sb, sl, dout, rows, weights, count, r,
                                         col, width)));
         });
}

SmallVector<Value> combineGradRowsPacked(OpBuilder &b, Location loc,
                                         Value dout, Value rows, Value weights,
                                         const CombineGradRowPairs &pairs,
                                         ArrayRef<Value> rs, Value col,
                                         int64_t width, RowPack pack) {
  // Every row's loads first, with no branch at all, so that they are in
  // flight together: its count, its pair (0 where none: an address in
  // range, whose product is then not taken), the pair's weight and dout
  // columns. A row that several pairs name gets 0 here
  // (combineGradFixUpRow redoes it).
  Value topK = dimOf(b, loc, rows, 1);
  SmallVector<Value> counts, pairIndices;
  for (Value r : rs)
    counts.push_back(
        memref::LoadOp::create(b, loc, pairs.pairsPerRow, ValueRange{r}));
  for (Value r : rs) {
    Value pair =
        memref::LoadOp::create(b, loc, pairs.pairOfRow, ValueRange{r});
    pair = arith::MaxSIOp::create(b, loc, pair, i32Const(b, loc, 0));
    pairIndices.push_back(
        arith::IndexCastOp::create(b, loc, b.getIndexType(), pair));
  }
  // Each row packed as soon as it is made: a row's 16 bytes live across
  // the other rows' work, not its 8 f32 values.
  SmallVector<Value> ones;
  for (auto [count, pair] : llvm::zip(counts, pairIndices)) {
    Value t = arith::DivUIOp::create(b, loc, pair, topK);
    Value k = arith::RemUIOp::create(b, loc, pair, topK);
    Value w = loadAsF32(b, loc, weights, {t, k});
    Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        count, i32Const(b, loc, 1));
    // One pair: its weighted cotangent, as writeCombineGradRows stores it;
    // none: zero.
    SmallVector<Value> lanes;
    for (Value g : loadRowVectorAsF32(b, loc, dout, t, col, width))
      lanes.push_back(arith::SelectOp::create(b, loc, isOne,
                                              onePairTerm(b, loc, w, g),
                                              f32Const(b, loc, 0.0)));
    ones.push_back(pack(b, loc, lanes));
  }
  return ones;
}

namespace {

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

/// log Σ_e exp(logits[t, e]) with max subtraction, as the reference.
Value logSumExp(OpBuilder &b, Location loc, Value logits, Value t, Value e) {
  Value zero = indexConst(b, loc, 0);
  Value mx = forReduce(
      b, loc, zero, e, f32Const(b, loc, opmath::kMaxIdentity),
      [&](OpBuilder &nb, Location nloc, Value ei, Value acc) -> Value {
        return opmath::buildMaxStep(nb, nloc, acc,
                                    loadAsF32(nb, nloc, logits, {t, ei}));
      });
  Value sum = forReduce(
      b, loc, zero, e, f32Const(b, loc, 0.0),
      [&](OpBuilder &nb, Location nloc, Value ei, Value acc) -> Value {
        return addF(nb, nloc, acc,
                    opmath::buildShiftedExp(
                        nb, nloc, loadAsF32(nb, nloc, logits, {t, ei}), mx));
      });
  return opmath::buildLogSumExp(b, loc, mx, sum);
}

// Per chunk of kAuxChunk tokens the sum of lse², then one warp sums the
// chunks (lane l: chunks l, l + 32, ..., then a butterfly) and stores the
// mean. Short chunks because a token's exponentials are a dependent chain
// and E is small (8 at seed-test): the parallelism is in the tokens.
void emitZLossGpu(OpBuilder &b, Location loc, double coeff, Value logits,
               Value loss) {
  Value t = dimOf(b, loc, logits, 0), e = dimOf(b, loc, logits, 1);
  Value numChunks = ceilDiv(b, loc, t, kAuxChunk);
  Value partial = allocBuffer(b, loc, {numChunks}, b.getF32Type());
  parallelFor(b, loc, {numChunks}, [&](OpBuilder &nb, Location nloc,
                                       ValueRange ivs) {
    auto [lo, hi] = chunkRange(nb, nloc, indexConst(nb, nloc, 0), t, ivs[0],
                               kAuxChunk);
    Value sum = forReduce(
        nb, nloc, lo, hi, f32Const(nb, nloc, 0.0),
        [&](OpBuilder &tb, Location tloc, Value ti, Value acc) -> Value {
          Value lse = logSumExp(tb, tloc, logits, ti, e);
          return addF(tb, tloc, acc, mulF(tb, tloc, lse, lse));
        });
    memref::StoreOp::create(nb, nloc, sum, partial, ivs);
  });
  warpPerItemFor(
      b, loc, indexConst(b, loc, 1), /*warpsPerBlock=*/1,
      [&](OpBuilder &wb, Location wloc, Value, Value lane, Value inRange) {
        auto lanesChunks = scf::ForOp::create(
            wb, wloc, lane, numChunks, indexConst(wb, wloc, kWarpSize),
            ValueRange{f32Const(wb, wloc, 0.0)},
            [&](OpBuilder &cb, Location cloc, Value c, ValueRange acc) {
              scf::YieldOp::create(
                  cb, cloc,
                  ValueRange{addF(cb, cloc, acc[0],
                                  memref::LoadOp::create(cb, cloc, partial,
                                                         ValueRange{c}))});
            });
        Value total = warpSum(wb, wloc, lanesChunks.getResult(0));
        ifThen(wb, wloc, storingLane(wb, wloc, lane, inRange),
               [&](OpBuilder &sb, Location sloc) {
          Value mean = arith::DivFOp::create(
              sb, sloc, mulF(sb, sloc, f32Const(sb, sloc, coeff), total),
              indexToF32(sb, sloc, t));
          memref::StoreOp::create(sb, sloc, mean, loss, ValueRange{});
        });
      });
  memref::DeallocOp::create(b, loc, partial);
}

} // namespace

// Per (sequence, chunk, expert): Σ_t p[t, e] and the count of pairs routed
// to e; per (sequence, expert): the chunk sums (a warp each: lane l sums
// chunks l, l + 32, ..., a butterfly the lanes); over several ranks the
// counts summed over them (config.sumCountsOverRanks, on the host between
// the kernels); one thread: Σ_e p·count, the factor E·coeff/(K·S²) per
// sequence (S·ranks for the global variant) and the mean over sequences.
void emitAuxLossGpu(OpBuilder &b, Location loc, const AuxLossConfig &config,
                    Value scores, Value indices, Value loss) {
  Type f32 = b.getF32Type(), i64 = b.getI64Type();
  Value c0 = indexConst(b, loc, 0);
  Value t = dimOf(b, loc, scores, 0), e = dimOf(b, loc, scores, 1);
  Value k = dimOf(b, loc, indices, 1);
  Value seqLen = config.variant == AuxLossVariant::Sequence
                     ? indexConst(b, loc, config.seqLength)
                     : t;
  Value numSeq = arith::DivUIOp::create(
      b, loc, t, arith::MaxUIOp::create(b, loc, seqLen, indexConst(b, loc, 1)));
  Value chunksPerSeq = ceilDiv(b, loc, seqLen, kAuxChunk);
  bool normalizePerToken = config.scoreFunction != ScoreFunction::Softmax;

  // 0. Per-token normalizer (sigmoid/sqrtsoftplus: Σ_e scores + ε).
  Value norm;
  if (normalizePerToken) {
    norm = allocBuffer(b, loc, {t}, f32);
    parallelFor(b, loc, {t}, [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
      Value sum = forReduce(
          nb, nloc, indexConst(nb, nloc, 0), e, f32Const(nb, nloc, 0.0),
          [&](OpBuilder &eb, Location eloc, Value ei, Value acc) -> Value {
            return addF(eb, eloc, acc, loadAsF32(eb, eloc, scores, {ivs[0], ei}));
          });
      memref::StoreOp::create(
          nb, nloc, opmath::buildNormalizeDenominator(nb, nloc, sum), norm, ivs);
    });
  }
  // 1. Chunk partials.
  Value probPart = allocBuffer(b, loc, {numSeq, chunksPerSeq, e}, f32);
  Value countPart = allocBuffer(b, loc, {numSeq, chunksPerSeq, e}, i64);
  parallelFor(
      b, loc, {numSeq, chunksPerSeq, e},
      [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
        Value s = ivs[0], c = ivs[1], ei = ivs[2];
        Value begin = arith::MulIOp::create(nb, nloc, s, seqLen);
        Value end = arith::AddIOp::create(nb, nloc, begin, seqLen);
        auto [lo, hi] = chunkRange(nb, nloc, begin, end, c, kAuxChunk);
        Value e64 = toI64(nb, nloc, ei);
        auto loop = scf::ForOp::create(
            nb, nloc, lo, hi, indexConst(nb, nloc, 1),
            ValueRange{f32Const(nb, nloc, 0.0), i64Const(nb, nloc, 0)},
            [&](OpBuilder &tb, Location tloc, Value ti, ValueRange acc) {
              Value p = loadAsF32(tb, tloc, scores, {ti, ei});
              if (normalizePerToken)
                p = arith::DivFOp::create(
                    tb, tloc, p,
                    memref::LoadOp::create(tb, tloc, norm, ValueRange{ti}));
              Value n = forReduce(
                  tb, tloc, indexConst(tb, tloc, 0), k, acc[1],
                  [&](OpBuilder &kb, Location kloc, Value ki, Value n) -> Value {
                    Value raw = toI64(kb, kloc,
                                      memref::LoadOp::create(kb, kloc, indices,
                                                             ValueRange{ti, ki}));
                    Value hit = arith::CmpIOp::create(
                        kb, kloc, arith::CmpIPredicate::eq, raw, e64);
                    return arith::AddIOp::create(
                        kb, kloc, n, arith::ExtUIOp::create(kb, kloc, i64, hit));
                  });
              scf::YieldOp::create(tb, tloc,
                                   ValueRange{addF(tb, tloc, acc[0], p), n});
            });
        memref::StoreOp::create(nb, nloc, loop.getResult(0), probPart, ivs);
        memref::StoreOp::create(nb, nloc, loop.getResult(1), countPart, ivs);
      });
  // 2. Per (sequence, expert): Σ_c prob and Σ_c count, a warp each (a
  // thread each ran 1024 dependent loads on qwen3-30b-a3b: 28 us). Counts
  // travel the shuffles as i32: they are below T·K, which moe.permute's i32
  // rows bound.
  Value probSum = allocBuffer(b, loc, {numSeq, e}, f32);
  Value counts = allocBuffer(b, loc, {numSeq, e}, i64);
  Value numItems = arith::MulIOp::create(b, loc, numSeq, e);
  Value lastItem = arith::SubIOp::create(b, loc, numItems, indexConst(b, loc, 1));
  warpPerItemFor(
      b, loc, numItems, /*warpsPerBlock=*/4,
      [&](OpBuilder &wb, Location wloc, Value rawItem, Value lane,
          Value inRange) {
        // Past the last item a warp sums the last item's chunks (every lane
        // takes part in the shuffles) and does not store.
        Value item = arith::MinUIOp::create(wb, wloc, rawItem, lastItem);
        Value s = arith::DivUIOp::create(wb, wloc, item, e);
        Value ei = arith::RemUIOp::create(wb, wloc, item, e);
        auto loop = scf::ForOp::create(
            wb, wloc, lane, chunksPerSeq, indexConst(wb, wloc, kWarpSize),
            ValueRange{f32Const(wb, wloc, 0.0), i64Const(wb, wloc, 0)},
            [&](OpBuilder &cb, Location cloc, Value c, ValueRange acc) {
              SmallVector<Value> at{s, c, ei};
              Value p = memref::LoadOp::create(cb, cloc, probPart, at);
              Value n = memref::LoadOp::create(cb, cloc, countPart, at);
              scf::YieldOp::create(
                  cb, cloc,
                  ValueRange{addF(cb, cloc, acc[0], p),
                             arith::AddIOp::create(cb, cloc, acc[1], n)});
            });
        auto add = [](OpBuilder &sb, Location sl, Value mine, Value other) {
          if (isa<FloatType>(mine.getType()))
            return arith::AddFOp::create(sb, sl, mine, other).getResult();
          return arith::AddIOp::create(sb, sl, mine, other).getResult();
        };
        Value prob = warpButterfly(wb, wloc, loop.getResult(0), kWarpSize,
                                   /*stride=*/1, add);
        Value count = warpButterfly(
            wb, wloc,
            arith::TruncIOp::create(wb, wloc, wb.getI32Type(), loop.getResult(1)),
            kWarpSize, /*stride=*/1, add);
        ifThen(wb, wloc, storingLane(wb, wloc, lane, inRange),
               [&](OpBuilder &sb, Location sloc) {
          memref::StoreOp::create(sb, sloc, prob, probSum, ValueRange{s, ei});
          memref::StoreOp::create(sb, sloc,
                                  arith::ExtSIOp::create(sb, sloc, i64, count),
                                  counts, ValueRange{s, ei});
        });
      });
  // 2b. The global variant over several ranks: c^g, the counts of every rank.
  if (config.sumCountsOverRanks)
    config.sumCountsOverRanks(b, loc, counts);
  // 3. One thread: Σ_s factor · Σ_e prob · count, mean over sequences.
  parallelFor(b, loc, {indexConst(b, loc, 1)}, [&](OpBuilder &nb, Location nloc,
                                                   ValueRange) {
    Value sF = indexToF32(nb, nloc, seqLen);
    if (config.ranks > 1)
      sF = mulF(nb, nloc, sF, f32Const(nb, nloc, double(config.ranks)));
    Value factor = arith::DivFOp::create(
        nb, nloc, mulF(nb, nloc, indexToF32(nb, nloc, e),
                       f32Const(nb, nloc, config.coeff)),
        mulF(nb, nloc, indexToF32(nb, nloc, k), mulF(nb, nloc, sF, sF)));
    Value total = forReduce(
        nb, nloc, indexConst(nb, nloc, 0), numSeq, f32Const(nb, nloc, 0.0),
        [&](OpBuilder &sb, Location sloc, Value s, Value acc) -> Value {
          Value dot = forReduce(
              sb, sloc, indexConst(sb, sloc, 0), e, f32Const(sb, sloc, 0.0),
              [&](OpBuilder &eb, Location eloc, Value ei, Value d) -> Value {
                Value p = memref::LoadOp::create(eb, eloc, probSum,
                                                 ValueRange{s, ei});
                Value n = arith::SIToFPOp::create(
                    eb, eloc, eb.getF32Type(),
                    memref::LoadOp::create(eb, eloc, counts,
                                           ValueRange{s, ei}));
                return addF(eb, eloc, d, mulF(eb, eloc, p, n));
              });
          return addF(sb, sloc, acc, mulF(sb, sloc, factor, dot));
        });
    memref::StoreOp::create(
        nb, nloc,
        arith::DivFOp::create(nb, nloc, total, indexToF32(nb, nloc, numSeq)),
        loss, ValueRange{});
  });
  (void)c0;
  for (Value buffer : {probPart, countPart, probSum, counts})
    memref::DeallocOp::create(b, loc, buffer);
  if (norm)
    memref::DeallocOp::create(b, loc, norm);
}

namespace {

//===----------------------------------------------------------------------===//
// moe.sort_chunks
//===----------------------------------------------------------------------===//

/// Threads per chunk writing the chunk's row map (phase 2).
constexpr int64_t kChunkLanes = 64;

// 1. one thread: sizes, each chunk's first row in x and in output (in the
//    two orders of emitChunkStarts) and the total rows;
// 2. a thread per (chunk, lane): srcOfRow[dst + i] = src + i for the rows i
//    = lane, lane + kChunkLanes, ... of the chunk that fall inside output;
// 3. a block per output row (rowVectorFor, or a thread per element where no
//    vector width fits) copying the row of x it takes;
// 4. the same blocks zeroing the rows past the total and the rows whose
//    source is past the rows of x.
// Every output row is written once; srcOfRow is read only for rows below
// the total, all of which phase 2 wrote (the chunks' destination ranges tile
// them).
void emitSortChunksGpu(OpBuilder &b, Location loc, bool inverse, Value x,
                       Value counts, Value output, Value sizes) {
  Type i64 = b.getI64Type();
  ChunkGrid grid = chunkGridOf(b, loc, counts, sizes, inverse);
  Value numChunks =
      arith::MulIOp::create(b, loc, grid.ranks, grid.chunksPerRank);
  Value outRows = dimOf(b, loc, output, 0);
  Value srcStart = allocBuffer(b, loc, {numChunks}, i64);
  Value dstStart = allocBuffer(b, loc, {numChunks}, i64);
  Value total = allocBuffer(b, loc, {indexConst(b, loc, 1)}, i64);
  Value srcOfRow = allocBuffer(b, loc, {outRows}, i64);

  parallelFor(b, loc, {indexConst(b, loc, 1)},
              [&](OpBuilder &nb, Location nloc, ValueRange) {
                emitSortChunksSizes(nb, nloc, grid, inverse, counts, sizes);
                emitChunkStarts(nb, nloc, grid, counts,
                                /*chunkMajor=*/inverse, srcStart);
                Value rows = emitChunkStarts(nb, nloc, grid, counts,
                                             /*chunkMajor=*/!inverse, dstStart);
                memref::StoreOp::create(nb, nloc, rows, total,
                                        ValueRange{indexConst(nb, nloc, 0)});
              });

  Value outRows64 = toI64(b, loc, outRows);
  parallelFor(
      b, loc, {numChunks, indexConst(b, loc, kChunkLanes)},
      [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
        Value k = ivs[0];
        Value rows = chunkRowCount(nb, nloc, counts, k);
        Value src = memref::LoadOp::create(nb, nloc, srcStart, ValueRange{k});
        Value dst = memref::LoadOp::create(nb, nloc, dstStart, ValueRange{k});
        Value room = arith::MaxSIOp::create(
            nb, nloc, arith::SubIOp::create(nb, nloc, outRows64, dst),
            i64Const(nb, nloc, 0));
        Value written =
            toIndex(nb, nloc, arith::MinSIOp::create(nb, nloc, rows, room));
        scf::ForOp::create(
            nb, nloc, ivs[1], written, indexConst(nb, nloc, kChunkLanes),
            ValueRange{},
            [&](OpBuilder &fb, Location floc, Value i, ValueRange) {
              Value i64v = toI64(fb, floc, i);
              Value d = arith::AddIOp::create(fb, floc, dst, i64v);
              memref::StoreOp::create(
                  fb, floc, arith::AddIOp::create(fb, floc, src, i64v),
                  srcOfRow, ValueRange{toIndex(fb, floc, d)});
              scf::YieldOp::create(fb, floc);
            });
      });

  Value inRows64 = toI64(b, loc, dimOf(b, loc, x, 0));
  // The row of x that output row `r` takes, or -1 for a zero row.
  auto sourceRow = [&](OpBuilder &nb, Location nloc, Value r) -> Value {
    Value rows = memref::LoadOp::create(nb, nloc, total,
                                        ValueRange{indexConst(nb, nloc, 0)});
    Value covered = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt,
                                          toI64(nb, nloc, r), rows);
    return ifElse(
        nb, nloc, i64, covered,
        [&](OpBuilder &ib, Location iloc) -> Value {
          Value s = memref::LoadOp::create(ib, iloc, srcOfRow, ValueRange{r});
          Value inside = arith::CmpIOp::create(
              ib, iloc, arith::CmpIPredicate::slt, s, inRows64);
          return arith::SelectOp::create(ib, iloc, inside, s,
                                         i64Const(ib, iloc, -1));
        },
        [&](OpBuilder &ib, Location iloc) { return i64Const(ib, iloc, -1); });
  };
  auto isRow = [](OpBuilder &nb, Location nloc, Value s) -> Value {
    return arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::sge, s,
                                 i64Const(nb, nloc, 0));
  };

  // The copies and the zero rows are two passes with a one-sided branch
  // each: stores of a value chosen by a branch would be merged into one
  // store of a phi, and x86 keeps a bf16 phi in f32 registers, rounding back
  // through a runtime helper.
  auto copyOrZero = [&](OpBuilder &nb, Location nloc, Value s, bool copying,
                        function_ref<void(OpBuilder &, Location, Value)> copy,
                        function_ref<void(OpBuilder &, Location)> zero) {
    Value isSource = isRow(nb, nloc, s);
    if (!copying)
      isSource = arith::XOrIOp::create(
          nb, nloc, isSource,
          arith::ConstantOp::create(nb, nloc, nb.getBoolAttr(true)));
    ifThen(nb, nloc, isSource, [&](OpBuilder &ib, Location iloc) {
      if (copying)
        copy(ib, iloc, toIndex(ib, iloc, s));
      else
        zero(ib, iloc);
    });
  };

  int64_t width = rowVectorWidth({x, output});
  int64_t cols = cast<MemRefType>(output.getType()).getDimSize(1);
  Type elem = getElementTypeOrSelf(output.getType());
  Type elemBits = b.getIntegerType(elem.getIntOrFloatBitWidth());
  if (width > 0 && cast<MemRefType>(x.getType()).getDimSize(1) == cols) {
    auto bitsType = VectorType::get({width}, elemBits);
    for (bool copying : {true, false})
      rowVectorFor(
          b, loc, outRows, cols, width,
          [&](OpBuilder &nb, Location nloc, Value r, Value col) {
            copyOrZero(
                nb, nloc, sourceRow(nb, nloc, r), copying,
                [&](OpBuilder &ib, Location iloc, Value src) {
                  storeRowBits(ib, iloc,
                               loadRowBits(ib, iloc, x, src, col, width),
                               output, r, col);
                },
                [&](OpBuilder &ib, Location iloc) {
                  Value zero = arith::ConstantOp::create(
                      ib, iloc, bitsType,
                      DenseElementsAttr::get(bitsType,
                                             ib.getZeroAttr(elemBits)));
                  storeRowBits(ib, iloc, zero, output, r, col);
                });
          });
  } else {
    for (bool copying : {true, false})
      parallelFor(b, loc, {outRows, dimOf(b, loc, output, 1)},
                  [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                    copyOrZero(
                        nb, nloc, sourceRow(nb, nloc, ivs[0]), copying,
                        [&](OpBuilder &ib, Location iloc, Value src) {
                          Value v = memref::LoadOp::create(
                              ib, iloc, x, ValueRange{src, ivs[1]});
                          memref::StoreOp::create(ib, iloc, v, output, ivs);
                        },
                        [&](OpBuilder &ib, Location iloc) {
                          Value zero = arith::BitcastOp::create(
                              ib, iloc, elem,
                              arith::ConstantOp::create(
                                  ib, iloc, ib.getIntegerAttr(elemBits, 0)));
                          memref::StoreOp::create(ib, iloc, zero, output, ivs);
                        });
                  });
  }
  for (Value buffer : {srcStart, dstStart, total, srcOfRow})
    memref::DeallocOp::create(b, loc, buffer);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

LogicalResult schedule(SortChunksOp op, OpBuilder &b) {
  emitSortChunksGpu(b, op.getLoc(), op.getInverse(), op.getX(), op.getCounts(),
                    op.getOutputInit(), op.getSizesInit());
  return success();
}
LogicalResult schedule(PermuteOp op, OpBuilder &b) {
  emitPermuteGpu(b, op.getLoc(), op.getNumExperts(), op.getAlign(), op.getX(),
              op.getIndices(), op.getPermutedInit(), op.getGroupSizesInit(),
              op.getRowsInit());
  return success();
}
LogicalResult schedule(PermuteRowsOp op, OpBuilder &b) {
  RowScatter(b, op.getLoc(), op.getX(), op.getRows(), op.getPermutedInit())
      .write();
  return success();
}
LogicalResult schedule(CombineOp op, OpBuilder &b) {
  return emitCombineRows(b, op.getLoc(), op.getY(), op.getRows(),
                         op.getWeights(), op.getOutInit());
}
LogicalResult schedule(GluOp op, OpBuilder &b) {
  return emitGluRows(b, op.getLoc(), op.getActivation(), op.getGate(),
                     op.getUp(), op.getHInit());
}
LogicalResult schedule(CombineGradOp op, OpBuilder &b) {
  emitCombineGradGpu(b, op.getLoc(), op.getDout(), op.getY(), op.getRows(),
                  op.getWeights(), op.getDyInit(), op.getDweightsInit());
  return success();
}
LogicalResult schedule(ZLossOp op, OpBuilder &b) {
  emitZLossGpu(b, op.getLoc(), op.getCoeff().convertToDouble(), op.getLogits(),
            op.getLossInit());
  return success();
}
LogicalResult schedule(AuxLossOp op, OpBuilder &b) {
  // The global variant over more than one rank is left to the reference
  // pattern, which reports it; over one rank it is the batch loss.
  if (!op.hasParallelSchedule())
    return failure();
  AuxLossConfig config;
  config.variant = op.getVariant();
  config.scoreFunction = op.getScoreFunction();
  config.coeff = op.getCoeff().convertToDouble();
  config.seqLength = op.getSeqLength() ? int64_t(*op.getSeqLength()) : 0;
  emitAuxLossGpu(b, op.getLoc(), config, op.getScores(), op.getIndices(),
              op.getLossInit());
  return success();
}

template <typename OpTy>
struct ParallelSchedule : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics() || failed(schedule(op, rewriter)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateParallelSchedulePatterns(RewritePatternSet &patterns,
                                      PatternBenefit benefit) {
  patterns.add<ParallelSchedule<PermuteOp>, ParallelSchedule<PermuteRowsOp>,
               ParallelSchedule<CombineOp>,
               ParallelSchedule<GluOp>, ParallelSchedule<CombineGradOp>,
               ParallelSchedule<ZLossOp>, ParallelSchedule<AuxLossOp>,
               ParallelSchedule<SortChunksOp>>(patterns.getContext(), benefit);
}

} // namespace mlir::moe::gpu_schedules
