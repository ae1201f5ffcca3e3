//===- QuantSchedules.cpp - moe.quantize / moe.dequantize on the GPU ------===//
#include "QuantSchedules.h"
#include "ParallelSchedules.h"
#include "RowSchedules.h"
#include "WarpRouter.h"

#include "../MoeToLoops/LoopBuilder.h"
#include "../MoeToLoops/LoopEmitters.h"

#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::moe::loops;

namespace mlir::moe::gpu_schedules {
namespace {

/// Threads of a block in every schedule here.
constexpr int64_t kBlockThreads = 256;
/// Block recipes: lanes per 128 columns of a row, and columns per lane.
constexpr int64_t kSegmentLanes = 16;
constexpr int64_t kLaneColumns = 8;
/// Rows (block_128x128) or vectors (tensorwise) a thread loads before it
/// uses them: loads in flight per thread.
constexpr int64_t kUnroll = 4;
/// Tensorwise amax: at most this many blocks of kBlockThreads, so that at
/// most 8 · kMaxAmaxBlocks warp partials are left for one warp, whose lanes
/// load kPartialUnroll of them at a time (4096 partials: 8 rounds of
/// loads).
constexpr int64_t kMaxAmaxBlocks = 512;
constexpr int64_t kPartialUnroll = 16;

/// Whether `v` is a memref of rank ≥ 1 with the identity layout and a
/// static last dimension.
bool isRowMajor(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getRank() >= 1 && type.getLayout().isIdentity() &&
         !type.isDynamicDim(type.getRank() - 1);
}

int64_t lastDimOf(Value v) {
  auto type = cast<MemRefType>(v.getType());
  return type.getDimSize(type.getRank() - 1);
}

/// The largest finite value of the FP8 buffer `quantized`'s element type.
double fp8MaxOf(Value quantized) {
  return opmath::fp8MaxFinite(
      cast<MemRefType>(quantized.getType()).getElementType());
}

/// Elements per access of every buffer: the largest power of two w ≤
/// `maxWidth` with w · element bytes ≤ kRowAccessBytes for each buffer and
/// w dividing `cols`.
int64_t accessWidth(ArrayRef<Value> buffers, int64_t cols, int64_t maxWidth) {
  int64_t width = maxWidth;
  for (Value buffer : buffers) {
    int64_t bytes =
        cast<MemRefType>(buffer.getType()).getElementTypeBitWidth() / 8;
    width = std::min(width, kRowAccessBytes / std::max<int64_t>(bytes, 1));
  }
  while (width > 1 && cols % width != 0)
    width /= 2;
  return width;
}

/// `memref` [d0, ..., N] as [d0 · ... , N] (rank 1: [1, N]); a view.
Value asRows(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  int64_t rank = type.getRank();
  if (rank == 2)
    return memref;
  if (rank == 1)
    return memref::ExpandShapeOp::create(
        b, loc, ArrayRef<int64_t>{1, type.getDimSize(0)}, memref,
        ArrayRef<ReassociationIndices>{{0, 1}});
  ReassociationIndices leading;
  for (int64_t d = 0; d + 1 < rank; ++d)
    leading.push_back(d);
  return memref::CollapseShapeOp::create(
      b, loc, memref, ArrayRef<ReassociationIndices>{leading, {rank - 1}});
}

/// Small index arithmetic.
struct Idx {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return indexConst(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value rem(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return arith::MaxUIOp::create(b, loc, x, y); }
  Value ceilDiv(Value x, Value y) {
    return arith::CeilDivUIOp::create(b, loc, x, y);
  }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value eq(Value x, int64_t v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, c(v));
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
};

using BlockThreadBody =
    llvm::function_ref<void(OpBuilder &, Location, Value block, Value thread)>;
/// scf.parallel over `numBlocks` (block_x) holding one over `threads`
/// (thread_x, static): gpu-launch-top-level-loops launches numBlocks blocks
/// of `threads` threads.
void blockThreadsFor(OpBuilder &b, Location loc, Value numBlocks,
                     int64_t threads, BlockThreadBody body) {
  Value c0 = indexConst(b, loc, 0), c1 = indexConst(b, loc, 1);
  auto blocks = scf::ParallelOp::create(
      b, loc, ValueRange{c0}, ValueRange{numBlocks}, ValueRange{c1},
      [&](OpBuilder &bb, Location bloc, ValueRange blockIvs) {
        threadsFor(bb, bloc, threads,
                   [&](OpBuilder &tb, Location tloc, Value thread) {
                     body(tb, tloc, blockIvs[0], thread);
                   });
      });
  mapLoopTo(blocks, gpu::Processor::BlockX);
}

/// warpPerItemFor with blocks of kBlockThreads: `body` gets the warp's
/// index (numWarps or more past the last), the lane and whether the warp is
/// below numWarps.
void warpsFor(OpBuilder &b, Location loc, Value numWarps, WarpItemBody body) {
  warpPerItemFor(b, loc, numWarps, kBlockThreads / kWarpSize, body);
}

/// The maximum (arith.maxnumf) of `v` over groups of `lanes` lanes `stride`
/// apart, in every lane (warpButterfly).
Value butterflyMax(OpBuilder &b, Location loc, Value v, int64_t lanes,
                   int64_t stride = 1) {
  return warpButterfly(b, loc, v, lanes, stride,
                       [](OpBuilder &sb, Location sl, Value mine, Value other) {
                         return arith::MaxNumFOp::create(sb, sl, mine, other)
                             .getResult();
                       });
}

Value amaxOf(OpBuilder &b, Location loc, Value acc, ArrayRef<Value> lanes) {
  for (Value x : lanes)
    acc = accumulateAmax(b, loc, acc, x);
  return acc;
}

/// The scales whose quotients quotientsByReciprocal computes: normal
/// numbers in [2^-60, 2^120] (not NaN, inf, zero or subnormal).
constexpr double kReciprocalScaleMin = 0x1p-60, kReciprocalScaleMax = 0x1p120;

/// x / scale for each of `lanes`, by scale's correctly rounded reciprocal y
/// (one division for all of them) and two FMA corrections of q0 = x · y:
/// r = x - scale · q (exact), q' = q + r · y. After the first q is within an
/// ulp of x / scale, and the second gives RN(x / scale) (Markstein), the
/// division's result, where nothing underflows; x's sign bit keeps the sign
/// of a zero quotient. Checked against the division on 190 M pairs over the
/// whole range (every bf16 x, random f32): equal but where x is subnormal,
/// where both quotients are below 2^-40 and encode to the same signed FP8
/// zero (the smallest e5m2 is 2^-16). Five instructions a value and the
/// reciprocal once, instead of div.rn's ten and a branch a value (the
/// quantize kernels are bound by instructions: block_1x128's had SM 74 %
/// busy, DRAM 56 %, ncu, one H200). Only for scales in
/// [kReciprocalScaleMin, kReciprocalScaleMax]: the caller divides for the
/// others.
SmallVector<Value> quotientsByReciprocal(OpBuilder &b, Location loc,
                                         ArrayRef<Value> lanes, Value scale) {
  Value y = arith::DivFOp::create(b, loc, f32Const(b, loc, 1.0), scale);
  Value minusScale = arith::NegFOp::create(b, loc, scale);
  SmallVector<Value> q;
  for (Value x : lanes) {
    Value quotient = arith::MulFOp::create(b, loc, x, y);
    for (int step = 0; step < 2; ++step) {
      Value residual =
          math::FmaOp::create(b, loc, minusScale, quotient, x).getResult();
      quotient = math::FmaOp::create(b, loc, residual, y, quotient);
    }
    // copysign, in bits: math.copysign has no lowering on every target.
    Type i32 = b.getI32Type();
    Value magnitude = arith::AndIOp::create(
        b, loc, arith::BitcastOp::create(b, loc, i32, quotient),
        i32Const(b, loc, 0x7FFFFFFF));
    Value sign = arith::AndIOp::create(
        b, loc, arith::BitcastOp::create(b, loc, i32, x),
        i32Const(b, loc, static_cast<int32_t>(0x80000000u)));
    q.push_back(arith::BitcastOp::create(
        b, loc, b.getF32Type(), arith::OrIOp::create(b, loc, magnitude, sign)));
  }
  return q;
}

/// How storeQuantizedLanes computes x / scale: the division, or
/// quotientsByReciprocal where the scale allows it. The reciprocal pays
/// where a lane divides many values by one scale (the transposed schedules,
/// 16 values of a column: 0.276 -> 0.246 ms for [32768, 7168] bf16 on one
/// H200) and not with 8 (the row schedule: 0.134 -> 0.144 ms, tensor-wise
/// 0.165 -> 0.174; bench/results/2026-11-30-h200-fp8-dsv3-table run3).
enum class Quotients { Divide, ByReciprocal };

/// Stores fp8(x / scale) of `lanes` at quantized[row, col ...] (one vector).
/// Quotients::ByReciprocal needs a scale that came from an amax over these
/// values (|x / scale| <= the FP8 maximum: no quotient overflows, which
/// the corrections would turn into NaN): not delayed scaling's.
void storeQuantizedLanes(OpBuilder &b, Location loc, ArrayRef<Value> lanes,
                         Value scale, Value quantized, Value row, Value col,
                         Fp8Conversion conversion,
                         Quotients method = Quotients::Divide) {
  // `q`: the quotients, NaN canonical.
  auto store = [&](OpBuilder &sb, Location sl, ArrayRef<Value> q) {
    if (conversion == Fp8Conversion::Arithmetic)
      return storeRowVectorFromF32(sb, sl, q, quantized, row, col);
    Type fp8Type = cast<MemRefType>(quantized.getType()).getElementType();
    storeRowBits(sb, sl, encodeFp8ByInstructions(sb, sl, q, fp8Type),
                 quantized, row, col);
  };
  auto divided = [&](OpBuilder &db, Location dl) {
    SmallVector<Value> quotients;
    for (Value x : lanes)
      quotients.push_back(
          canonicalizeNaN(db, dl, arith::DivFOp::create(db, dl, x, scale)));
    return quotients;
  };
  if (method == Quotients::Divide)
    return store(b, loc, divided(b, loc));
  Value inRange = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, scale,
                            f32Const(b, loc, kReciprocalScaleMin)),
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, scale,
                            f32Const(b, loc, kReciprocalScaleMax)));
  scf::IfOp::create(
      b, loc, inRange,
      [&](OpBuilder &tb, Location tl) {
        SmallVector<Value> quotients;
        for (Value v : quotientsByReciprocal(tb, tl, lanes, scale))
          quotients.push_back(canonicalizeNaN(tb, tl, v));
        store(tb, tl, quotients);
        scf::YieldOp::create(tb, tl);
      },
      [&](OpBuilder &eb, Location el) {
        store(eb, el, divided(eb, el));
        scf::YieldOp::create(eb, el);
      });
}

/// The `width` FP8 values x[row, col ...] (one vector) as f32.
SmallVector<Value> loadFp8RowVectorAsF32(OpBuilder &b, Location loc, Value x,
                                         Value row, Value col, int64_t width,
                                         Fp8Conversion conversion) {
  if (conversion == Fp8Conversion::Arithmetic)
    return loadRowVectorAsF32(b, loc, x, row, col, width);
  Type fp8Type = cast<MemRefType>(x.getType()).getElementType();
  return decodeFp8ByInstructions(
      b, loc, loadRowBits(b, loc, x, row, col, width), fp8Type);
}

/// The `width` FP8 values x[row, col ...] (one vector) dequantized by
/// `scale` as f32: decode(q) · scale, NaN canonical. The dequantize schedule
/// and the transposed quantize of a dequantized copy both compute it here,
/// so the second sees the bits the first would have written.
SmallVector<Value> loadDequantizedRowVector(OpBuilder &b, Location loc,
                                            Value x, Value row, Value col,
                                            int64_t width, Value scale,
                                            Fp8Conversion conversion) {
  SmallVector<Value> lanes;
  for (Value v : loadFp8RowVectorAsF32(b, loc, x, row, col, width, conversion))
    lanes.push_back(
        canonicalizeNaN(b, loc, arith::MulFOp::create(b, loc, v, scale)));
  return lanes;
}

//===----------------------------------------------------------------------===//
// tensorwise, delayed
//===----------------------------------------------------------------------===//

void emitTensorQuantize(OpBuilder &b, Location loc, QuantRecipe recipe,
                        Value input, Value amaxHistory, Value output,
                        Value scale, double fp8Max, Fp8Conversion conversion) {
  Idx ix{b, loc};
  int64_t cols = lastDimOf(input);
  int64_t width = accessWidth({input, output}, cols, kRowAccessBytes);
  int64_t vectorsPerRow = cols / width;
  Value x = asRows(b, loc, input), q = asRows(b, loc, output);
  Value rows = dimOf(b, loc, x, 0);
  Value numVectors = ix.mul(rows, ix.c(vectorsPerRow));
  Value numBlocks =
      ix.max(ix.min(ix.ceilDiv(numVectors, ix.c(kBlockThreads * kUnroll)),
                    ix.c(kMaxAmaxBlocks)),
             ix.c(1));
  int64_t warpsPerBlock = kBlockThreads / kWarpSize;
  Value numPartials = ix.mul(numBlocks, ix.c(warpsPerBlock));
  Value partials = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, b.getF32Type()),
      ValueRange{numPartials});

  // 1. A partial amax per warp: the threads stride over the vectors,
  //    kUnroll loads at a time (an index past the last vector reads the last
  //    one again, which leaves a maximum unchanged).
  blockThreadsFor(
      b, loc, numBlocks, kBlockThreads,
      [&](OpBuilder &tb, Location tl, Value block, Value thread) {
        Idx t{tb, tl};
        Value stride = t.mul(numBlocks, t.c(kBlockThreads));
        Value first = t.add(t.mul(block, t.c(kBlockThreads)), thread);
        Value lastVector = t.sub(numVectors, t.c(1));
        Value iters = t.ceilDiv(numVectors, t.mul(stride, t.c(kUnroll)));
        Value acc = forReduce(
            tb, tl, t.c(0), iters, f32Const(tb, tl, 0.0),
            [&](OpBuilder &lb, Location ll, Value i, Value acc) -> Value {
              Idx l{lb, ll};
              for (int64_t u = 0; u < kUnroll; ++u) {
                Value step = l.add(l.mul(i, l.c(kUnroll)), l.c(u));
                Value v = l.min(l.add(first, l.mul(step, stride)), lastVector);
                Value row = l.div(v, l.c(vectorsPerRow));
                Value col = l.mul(l.rem(v, l.c(vectorsPerRow)), l.c(width));
                acc = amaxOf(lb, ll, acc,
                             loadRowVectorAsF32(lb, ll, x, row, col, width));
              }
              return acc;
            });
        Value warpMax = butterflyMax(tb, tl, acc, kWarpSize);
        ifThen(tb, tl, t.eq(t.rem(thread, t.c(kWarpSize)), 0),
               [&](OpBuilder &sb, Location sl) {
                 Idx s{sb, sl};
                 Value slot = s.add(s.mul(block, s.c(warpsPerBlock)),
                                    s.div(thread, s.c(kWarpSize)));
                 memref::StoreOp::create(sb, sl, warpMax, partials,
                                         ValueRange{slot});
               });
      });

  // 2. One warp: the amax, the scale; delayed scaling's history is read
  //    and rolled by lane 0 alone (the buffers may be one).
  blockThreadsFor(
      b, loc, ix.c(1), kWarpSize,
      [&](OpBuilder &tb, Location tl, Value, Value lane) {
        Idx t{tb, tl};
        Value lastPartial = t.sub(numPartials, t.c(1));
        Value iters = t.ceilDiv(numPartials, t.c(kWarpSize * kPartialUnroll));
        Value acc = forReduce(
            tb, tl, t.c(0), iters, f32Const(tb, tl, 0.0),
            [&](OpBuilder &lb, Location ll, Value i, Value acc) -> Value {
              Idx l{lb, ll};
              for (int64_t u = 0; u < kPartialUnroll; ++u) {
                Value step = l.add(l.mul(i, l.c(kPartialUnroll)), l.c(u));
                Value j = l.min(l.add(lane, l.mul(step, l.c(kWarpSize))),
                                lastPartial);
                acc = arith::MaxNumFOp::create(
                    lb, ll, acc,
                    memref::LoadOp::create(lb, ll, partials, ValueRange{j}));
              }
              return acc;
            });
        Value amax = butterflyMax(tb, tl, acc, kWarpSize);
        ifThen(tb, tl, t.eq(lane, 0), [&](OpBuilder &sb, Location sl) {
          Value fromAmax = recipe == QuantRecipe::Delayed
                               ? amaxHistoryMax(sb, sl, amaxHistory)
                               : amax;
          storeFromF32(sb, sl, scaleFromAmax(sb, sl, fromAmax, fp8Max), scale,
                       {});
          if (recipe == QuantRecipe::Delayed)
            rollAmaxHistory(sb, sl, amaxHistory, amaxHistory, amax);
        });
      });

  // 3. The cast, a thread per vector.
  parallelFor(b, loc, {rows, ix.c(vectorsPerRow)},
              [&](OpBuilder &nb, Location nl, ValueRange ivs) {
                Idx n{nb, nl};
                Value s = loadAsF32(nb, nl, scale, {});
                Value col = n.mul(ivs[1], n.c(width));
                storeQuantizedLanes(
                    nb, nl, loadRowVectorAsF32(nb, nl, x, ivs[0], col, width),
                    s, q, ivs[0], col, conversion);
              });
  memref::DeallocOp::create(b, loc, partials);
}

//===----------------------------------------------------------------------===//
// Block recipes
//===----------------------------------------------------------------------===//

/// A lane's kLaneColumns columns of a 128-column block: `loads` accesses of
/// `width` elements from `first`. Where the last block is partial (N not a
/// multiple of 128) an access past N is `clamped` to the block's last
/// vector (re-reading it leaves the amax unchanged) and not `stored`.
/// The f32 values of columns col ... col + width - 1 of a row that a row
/// schedule quantizes.
using RowLanes = llvm::function_ref<SmallVector<Value>(
    OpBuilder &, Location, Value row, Value col, int64_t width)>;

struct LaneColumns {
  int64_t cols, width, loads;
  bool partialBlocks;
  Fp8Conversion conversion;
  SmallVector<Value> start;   ///< the column of each access
  SmallVector<Value> clamped; ///< where it loads from
  SmallVector<Value> inside;  ///< i1: whether it holds columns < N (or null)

  LaneColumns(OpBuilder &b, Location loc, Value first, int64_t cols,
              int64_t width, Fp8Conversion conversion)
      : cols(cols), width(width), loads(kLaneColumns / width),
        partialBlocks(cols % (kSegmentLanes * kLaneColumns) != 0),
        conversion(conversion) {
    Idx ix{b, loc};
    for (int64_t k = 0; k < loads; ++k) {
      Value c = ix.add(first, ix.c(k * width));
      start.push_back(c);
      clamped.push_back(partialBlocks ? ix.min(c, ix.c(cols - width)) : c);
      inside.push_back(partialBlocks ? ix.lt(c, ix.c(cols)) : Value());
    }
  }

  /// Each access's lanes as f32, of row `row` (RowLanes).
  SmallVector<SmallVector<Value>> load(OpBuilder &b, Location loc,
                                       RowLanes rowLanes, Value row) const {
    SmallVector<SmallVector<Value>> lanes;
    for (Value c : clamped)
      lanes.push_back(rowLanes(b, loc, row, c, width));
    return lanes;
  }
  /// Each access's lanes as f32, from row `row` of `x`.
  SmallVector<SmallVector<Value>> load(OpBuilder &b, Location loc, Value x,
                                       Value row) const {
    return load(
        b, loc,
        [&](OpBuilder &lb, Location ll, Value r, Value c, int64_t w) {
          return loadRowVectorAsF32(lb, ll, x, r, c, w);
        },
        row);
  }

  /// Stores each access (inside N) quantized with `scale`, where `valid`.
  void store(OpBuilder &b, Location loc, ArrayRef<SmallVector<Value>> lanes,
             Value scale, Value q, Value row, Value valid) const {
    for (int64_t k = 0; k < loads; ++k) {
      Value cond =
          inside[k] ? arith::AndIOp::create(b, loc, valid, inside[k]) : valid;
      ifThen(b, loc, cond, [&](OpBuilder &sb, Location sl) {
        storeQuantizedLanes(sb, sl, lanes[k], scale, q, row, start[k],
                            conversion);
      });
    }
  }
};

/// block_1x128: 16 lanes per (row, column block), kBlockThreads / 16 such
/// units per block; a unit past the last computes on the last one and
/// stores nothing (every lane takes part in the shuffles).
/// The rows [numRows, cols] come from `rowLanes`, `width` elements an
/// access (emitRowBlockQuantize: from the input buffer).
void emitRowBlockQuantizeOf(OpBuilder &b, Location loc, Value numRows,
                            int64_t cols, int64_t width, RowLanes rowLanes,
                            Value output, Value scale, double fp8Max,
                            Fp8Conversion conversion) {
  Idx ix{b, loc};
  int64_t blockCols = kSegmentLanes * kLaneColumns;
  int64_t colBlocks = llvm::divideCeil(cols, blockCols);
  int64_t unitsPerBlock = kBlockThreads / kSegmentLanes;
  Value q = asRows(b, loc, output), sv = asRows(b, loc, scale);
  Value units = ix.mul(numRows, ix.c(colBlocks));
  blockThreadsFor(b, loc, ix.ceilDiv(units, ix.c(unitsPerBlock)), kBlockThreads,
                  [&](OpBuilder &tb, Location tl, Value block, Value thread) {
                    Idx t{tb, tl};
                    Value unit = t.add(t.mul(block, t.c(unitsPerBlock)),
                                       t.div(thread, t.c(kSegmentLanes)));
                    Value sub = t.rem(thread, t.c(kSegmentLanes));
                    Value valid = t.lt(unit, units);
                    Value u = t.min(unit, t.sub(units, t.c(1)));
                    Value row = t.div(u, t.c(colBlocks));
                    Value colBlock = t.rem(u, t.c(colBlocks));
                    Value first = t.add(t.mul(colBlock, t.c(blockCols)),
                                        t.mul(sub, t.c(kLaneColumns)));
                    LaneColumns lane(tb, tl, first, cols, width, conversion);
                    SmallVector<SmallVector<Value>> lanes =
                        lane.load(tb, tl, rowLanes, row);
                    Value acc = f32Const(tb, tl, 0.0);
                    for (ArrayRef<Value> access : lanes)
                      acc = amaxOf(tb, tl, acc, access);
                    Value amax = butterflyMax(tb, tl, acc, kSegmentLanes);
                    Value s = scaleFromAmax(tb, tl, amax, fp8Max);
                    ifThen(tb, tl, t.both(valid, t.eq(sub, 0)),
                           [&](OpBuilder &sb, Location sl) {
                             storeFromF32(sb, sl, s, sv, {row, colBlock});
                           });
                    lane.store(tb, tl, lanes, s, q, row, valid);
                  });
}

void emitRowBlockQuantize(OpBuilder &b, Location loc, Value input, Value output,
                          Value scale, double fp8Max,
                          Fp8Conversion conversion) {
  int64_t cols = lastDimOf(input);
  int64_t width = accessWidth({input, output}, cols, kLaneColumns);
  Value x = asRows(b, loc, input);
  emitRowBlockQuantizeOf(
      b, loc, dimOf(b, loc, x, 0), cols, width,
      [&](OpBuilder &lb, Location ll, Value row, Value col, int64_t w) {
        return loadRowVectorAsF32(lb, ll, x, row, col, w);
      },
      output, scale, fp8Max, conversion);
}

/// block_128x128: a warp per tile, kBlockThreads / 32 tiles per block;
/// half-warp h takes rows r0 + h, r0 + h + 2, ... (kUnroll at a time; a
/// row past the tile reads its last row again and stores nothing); a tile
/// past the last computes on the last one and stores nothing.
void emitTileQuantize(OpBuilder &b, Location loc, Value input, Value output,
                      Value scale, double fp8Max, Fp8Conversion conversion) {
  Idx ix{b, loc};
  auto inputType = cast<MemRefType>(input.getType());
  int64_t rank = inputType.getRank();
  int64_t cols = lastDimOf(input);
  int64_t width = accessWidth({input, output}, cols, kLaneColumns);
  opmath::QuantBlockShape blk =
      *opmath::quantBlockShape(QuantRecipe::Block128x128);
  int64_t colBlocks = llvm::divideCeil(cols, blk.cols);
  Value x = asRows(b, loc, input), q = asRows(b, loc, output),
        sv = asRows(b, loc, scale);
  Value m = dimOf(b, loc, input, rank - 2);
  Value batches = ix.c(1);
  for (int64_t d = 0; d + 2 < rank; ++d)
    batches = ix.mul(batches, dimOf(b, loc, input, d));
  Value rowBlocks = ix.ceilDiv(m, ix.c(blk.rows));
  Value tilesPerBatch = ix.mul(rowBlocks, ix.c(colBlocks));
  Value tiles = ix.mul(batches, tilesPerBatch);
  warpsFor(
      b, loc, tiles,
      [&](OpBuilder &tb, Location tl, Value tile, Value lane, Value valid) {
        Idx t{tb, tl};
        Value half = t.div(lane, t.c(kSegmentLanes));
        Value sub = t.rem(lane, t.c(kSegmentLanes));
        Value tc = t.min(tile, t.sub(tiles, t.c(1)));
        Value batch = t.div(tc, tilesPerBatch);
        Value inBatch = t.rem(tc, tilesPerBatch);
        Value rowBlock = t.div(inBatch, t.c(colBlocks));
        Value colBlock = t.rem(inBatch, t.c(colBlocks));
        Value r0 = t.mul(rowBlock, t.c(blk.rows));
        Value r1 = t.min(t.add(r0, t.c(blk.rows)), m);
        Value lastRow = t.sub(r1, t.c(1));
        Value batchRow0 = t.mul(batch, m);
        // Rows of this half-warp: r0 + half + 2 i, i < ⌈(r1 - r0) / 2⌉.
        Value rowSteps = t.ceilDiv(t.sub(r1, r0), t.c(2));
        Value iters = t.ceilDiv(rowSteps, t.c(kUnroll));
        auto rowOf = [&](Idx &l, Value i, int64_t u) {
          Value step = l.add(l.mul(i, l.c(kUnroll)), l.c(u));
          return l.add(l.add(r0, half), l.mul(step, l.c(2)));
        };
        Value first = t.add(t.mul(colBlock, t.c(blk.cols)),
                            t.mul(sub, t.c(kLaneColumns)));
        LaneColumns columns(tb, tl, first, cols, width, conversion);
        Value acc = forReduce(
            tb, tl, t.c(0), iters, f32Const(tb, tl, 0.0),
            [&](OpBuilder &lb, Location ll, Value i, Value acc) -> Value {
              Idx l{lb, ll};
              for (int64_t u = 0; u < kUnroll; ++u) {
                Value r = l.min(rowOf(l, i, u), lastRow);
                for (ArrayRef<Value> access :
                     columns.load(lb, ll, x, l.add(batchRow0, r)))
                  acc = amaxOf(lb, ll, acc, access);
              }
              return acc;
            });
        Value amax = butterflyMax(tb, tl, acc, kWarpSize);
        Value s = scaleFromAmax(tb, tl, amax, fp8Max);
        ifThen(tb, tl, t.both(valid, t.eq(lane, 0)),
               [&](OpBuilder &sb, Location sl) {
                 Idx st{sb, sl};
                 Value scaleRow = st.add(st.mul(batch, rowBlocks), rowBlock);
                 storeFromF32(sb, sl, s, sv, {scaleRow, colBlock});
               });
        forRange(
            tb, tl, t.c(0), iters, [&](OpBuilder &lb, Location ll, Value i) {
              Idx l{lb, ll};
              SmallVector<std::pair<Value, SmallVector<SmallVector<Value>>>>
                  rows;
              for (int64_t u = 0; u < kUnroll; ++u) {
                Value r = rowOf(l, i, u);
                Value row = l.add(batchRow0, l.min(r, lastRow));
                rows.push_back({r, columns.load(lb, ll, x, row)});
              }
              for (auto &[r, lanes] : rows)
                columns.store(lb, ll, lanes, s, q, l.add(batchRow0, r),
                              l.both(valid, l.lt(r, r1)));
            });
      });
}

//===----------------------------------------------------------------------===//
// block_1x128 of a transpose, read through it
//===----------------------------------------------------------------------===//

/// Bytes of a source row a lane loads at once, rows of its part of a
/// 128-row block, and lanes sharing a block. 16 bytes of 16 rows: a warp
/// load reads 64 contiguous bytes of 8 rows, and a lane's part of an output
/// row is one 16-byte store. (4 bytes of 32 rows, a warp load of 32 bytes
/// of 4 rows, ran at 1.83 TB/s against 2.52 on one H200:
/// bench/results/2026-11-28-h200-auto-fp8.)
constexpr int64_t kTransposedLaneBytes = 16;
constexpr int64_t kTransposedLaneRows = 16;
constexpr int64_t kTransposedBlockLanes = 128 / kTransposedLaneRows;
/// Column groups (of kTransposedLaneBytes of a source row) of a warp.
constexpr int64_t kTransposedWarpGroups = kWarpSize / kTransposedBlockLanes;

/// The columns of `source` a lane holds.
int64_t transposedLaneColumns(MemRefType source) {
  return kTransposedLaneBytes / (source.getElementTypeBitWidth() / 8);
}

/// Where a lane's part of a 128-row block lies: its first column and row,
/// the block, which of the block's lanes it is (`part`), and whether it
/// stores.
struct ColumnBlockLane {
  Value firstColumn, firstRow, rowBlock, part, valid;
  /// Rows a lane holds: 128 / laneRows lanes (its part) go down a block,
  /// kWarpSize / those column groups lie side by side in a warp.
  int64_t laneRows;
  int64_t blockLanes() const { return 128 / laneRows; }
  int64_t groups() const { return kWarpSize / blockLanes(); }
};

/// The transposed schedules' per-column work on a lane's `values` (values[j]
/// holds column firstColumn + j of its laneRows rows, as f32): each
/// column's amax over its 128-row block (the lane's rows, then a butterfly
/// over the block's lanes, `groups` apart), the scale (stored by the block's
/// first lane) and the lane's laneRows FP8 bytes of that column's output
/// row.
void storeColumnBlocks(OpBuilder &b, Location loc,
                       ArrayRef<SmallVector<Value>> values,
                       const ColumnBlockLane &lane, Value output, Value scale,
                       double fp8Max, Fp8Conversion conversion) {
  Idx t{b, loc};
  for (auto [j, columnValues] : llvm::enumerate(values)) {
    ArrayRef<Value> column = columnValues;
    Value amax = butterflyMax(b, loc,
                              amaxOf(b, loc, f32Const(b, loc, 0.0), column),
                              lane.blockLanes(), lane.groups());
    Value s = scaleFromAmax(b, loc, amax, fp8Max);
    Value outRow = t.add(lane.firstColumn, t.c(j));
    ifThen(b, loc, t.both(lane.valid, t.eq(lane.part, 0)),
           [&](OpBuilder &sb, Location sl) {
             storeFromF32(sb, sl, s, scale, {outRow, lane.rowBlock});
           });
    ifThen(b, loc, lane.valid, [&](OpBuilder &sb, Location sl) {
      Idx st{sb, sl};
      int64_t perStore = std::min(lane.laneRows, kRowAccessBytes);
      for (int64_t k = 0; k < lane.laneRows; k += perStore)
        storeQuantizedLanes(sb, sl, column.slice(k, perStore), s, output,
                            outRow, st.add(lane.firstRow, st.c(k)),
                            conversion, Quotients::ByReciprocal);
    });
  }
}

/// The f32 `v` rounded to `type` and back to f32: what storing it in a
/// buffer of `type` and loading it again gives a quantize. With the FP8
/// instructions (sm_89+), bf16 and f16 round by arith.truncf, round to
/// nearest even like the reference's integer rounding (f16 becomes cvt.rn;
/// the GPU pipeline's arith-expand turns a bf16 truncf into that integer
/// rounding itself); the two differ only in a NaN's payload, which the
/// quantize turns into the one FP8 NaN either way.
Value roundThroughType(OpBuilder &b, Location loc, Value v, Type type,
                       Fp8Conversion conversion) {
  if (type.isF32())
    return v;
  if (conversion == Fp8Conversion::Instructions &&
      isa<BFloat16Type, Float16Type>(type))
    return arith::ExtFOp::create(
        b, loc, b.getF32Type(),
        arith::TruncFOp::create(b, loc, type, v).getResult());
  return elementToF32(b, loc, f32ToElement(b, loc, v, type));
}

/// What the transposed schedule reads: the rows of `values` [R, C] as they
/// are, or, where `scales` is set, the rows of an FP8 `values` that a
/// moe.dequantize block_1x128 by `scales` [R, ⌈C/128⌉] would have written
/// into a copy of element type `copyType` (the copy is not made: each value
/// is dequantized, rounded to copyType and back, as writing and reading the
/// copy would).
struct TransposedSource {
  Value values;
  Value scales;
  Type copyType;

  /// The source as the transpose sees it: values, or the copy.
  MemRefType rowsType() const {
    auto type = cast<MemRefType>(values.getType());
    return scales ? MemRefType::get(type.getShape(), copyType) : type;
  }

  /// Columns col ... col + width - 1 of `row` as f32 (width divides 128, so
  /// they lie in one block of the scales).
  SmallVector<Value> loadRow(OpBuilder &b, Location loc, Value row, Value col,
                             int64_t width, Fp8Conversion conversion) const {
    if (!scales)
      return loadRowVectorAsF32(b, loc, values, row, col, width);
    Idx ix{b, loc};
    // The dequantize schedule's values, then the copy's rounding.
    Value s = loadAsF32(b, loc, scales, {row, ix.div(col, ix.c(128))});
    SmallVector<Value> lanes;
    for (Value v : loadDequantizedRowVector(b, loc, values, row, col, width, s,
                                            conversion))
      lanes.push_back(roundToCopy(b, loc, v, conversion));
    return lanes;
  }

  Value roundToCopy(OpBuilder &b, Location loc, Value v,
                    Fp8Conversion conversion) const {
    return roundThroughType(b, loc, v, copyType, conversion);
  }
};

/// moe.quantize block_1x128 of the transpose of `source` [R, C] (R a
/// multiple of 128): output [C, R] and scales [C, R/128], read from
/// `source` directly instead of from a transposed copy. A warp per (128-row
/// block, kTransposedWarpGroups = 4 groups of w columns, 16 bytes of a
/// copy's row): lane (eighth e, group g) loads rows r0 + 16 e ... r0 + 16 e
/// + 15 of its w columns (one load a row: 16 bytes, or 8 of a dequantized
/// FP8 source, and its scale) and keeps them in registers; each column's
/// amax is the maximum over the lane's rows, then over the block's eight
/// lanes (a butterfly of xor 4, 8 and 16); each column is a row of the
/// output, of which the lane stores its 16 bytes. Every element's
/// arithmetic is the reference's, so the result equals quantizing the
/// transposed copy bit for bit.
void emitTransposedRowBlockQuantize(OpBuilder &b, Location loc,
                                    const TransposedSource &source,
                                    Value output, Value scale, double fp8Max,
                                    Fp8Conversion conversion) {
  Idx ix{b, loc};
  MemRefType type = source.rowsType();
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  int64_t width = transposedLaneColumns(type);
  int64_t groups = cols / width;
  int64_t warpsPerRowBlock = groups / kTransposedWarpGroups;
  int64_t warps = warpsPerRowBlock * (rows / 128);
  warpsFor(
      b, loc, ix.c(warps),
      [&](OpBuilder &tb, Location tl, Value warp, Value lane, Value valid) {
        Idx t{tb, tl};
        // A warp past the last computes on the last one and stores nothing.
        Value w = t.min(warp, t.c(warps - 1));
        Value rowBlock = t.div(w, t.c(warpsPerRowBlock));
        Value group = t.add(
            t.mul(t.rem(w, t.c(warpsPerRowBlock)), t.c(kTransposedWarpGroups)),
            t.rem(lane, t.c(kTransposedWarpGroups)));
        Value part = t.div(lane, t.c(kTransposedWarpGroups));
        Value c0 = t.mul(group, t.c(width));
        Value r0 = t.add(t.mul(rowBlock, t.c(128)),
                         t.mul(part, t.c(kTransposedLaneRows)));
        // values[j][i]: column c0 + j of row r0 + i, as f32.
        SmallVector<SmallVector<Value>> values(width);
        for (int64_t i = 0; i < kTransposedLaneRows; ++i)
          for (auto [j, v] : llvm::enumerate(
                   source.loadRow(tb, tl, t.add(r0, t.c(i)), c0, width,
                                  conversion)))
            values[j].push_back(v);
        storeColumnBlocks(tb, tl, values,
                          {c0, r0, rowBlock, part, valid, kTransposedLaneRows},
                          output, scale, fp8Max, conversion);
      });
}

//===----------------------------------------------------------------------===//
// Transposed block_1x128 through a 128 x 128 tile in shared memory
//===----------------------------------------------------------------------===//

/// The staged schedule's geometry: a block of kStagedThreads per 128 x 128
/// tile of 16-bit values; in step 1 kStagedRowLanes lanes of 8 columns (16
/// bytes) a tile row, in step 2 kStagedColumnLanes lanes of 32 rows a pair
/// of tile columns.
constexpr int64_t kStagedTile = 128;
constexpr int64_t kStagedThreads = 256;
constexpr int64_t kStagedChunk = kRowAccessBytes / 2;
constexpr int64_t kStagedRowLanes = kStagedTile / kStagedChunk;
constexpr int64_t kStagedRowsPerPass = kStagedThreads / kStagedRowLanes;
constexpr int64_t kStagedColumnLanes = 4;
constexpr int64_t kStagedQuarterRows = kStagedTile / kStagedColumnLanes;

/// Whether the staged schedule takes a source whose tile holds `element`
/// values, [rows, cols] (static multiples of the tile).
bool stagedScheduleTakes(Type element, int64_t rows, int64_t cols) {
  return isa<BFloat16Type, Float16Type>(element) &&
         !ShapedType::isDynamic(rows) && !ShapedType::isDynamic(cols) &&
         rows % kStagedTile == 0 && cols % kStagedTile == 0;
}

/// Where the tile's rows come from, and the rowwise output if any.
struct StagedSource {
  TransposedSource rows;
  /// moe.quantize_with_transpose: block_1x128 of the rows too (else null).
  Value rowOutput, rowScale;
  /// Rows computed rather than read (moe.combine_grad's dy, which is then
  /// never stored): the 16-bit patterns (f32AsBits) of columns col ... col +
  /// 7 of each of a thread's rows, their values as the producer's schedule
  /// computes them rounded as its store would; rows.values then only gives
  /// their type. Null: rows are read from rows.values.
  using RowsBits = function_ref<SmallVector<Value>(
      OpBuilder &, Location, ArrayRef<Value> rows, Value col)>;
  RowsBits computed = nullptr;
  /// With `computed`: redoes a row whose value the common path could not
  /// make (rare), calling `store` with its bits; run for each of a thread's
  /// rows in one loop after the tile holds them, so that its code is there
  /// once, not once a row.
  using RowFixUp = function_ref<void(OpBuilder &, Location, Value row,
                                     Value col, RowStore store)>;
  RowFixUp fixUp = nullptr;

  Type tileElement() const { return rows.rowsType().getElementType(); }

  /// The 16-bit patterns of columns col ... col + 7 of each of `rs` (what
  /// the tile holds): f32 values are made from them where they are used,
  /// so that a thread keeps 32 registers of loads in flight, not 64 values.
  SmallVector<Value> loadBits(OpBuilder &b, Location loc, ArrayRef<Value> rs,
                              Value col, Fp8Conversion conversion) const {
    if (computed)
      return computed(b, loc, rs, col);
    SmallVector<Value> bits;
    for (Value row : rs) {
      if (!rows.scales) {
        bits.push_back(
            loadRowBits(b, loc, rows.values, row, col, kStagedChunk));
        continue;
      }
      // Dequantized and rounded to the copy's type (exact in that type; with
      // the FP8 instructions by cvt, as roundThroughType).
      SmallVector<Value> lanes;
      for (Value v :
           rows.loadRow(b, loc, row, col, kStagedChunk, conversion)) {
        Value e = conversion == Fp8Conversion::Instructions
                      ? arith::TruncFOp::create(b, loc, tileElement(), v)
                            .getResult()
                      : f32ToElement(b, loc, v, tileElement());
        lanes.push_back(
            arith::BitcastOp::create(b, loc, b.getIntegerType(16), e));
      }
      bits.push_back(vector::FromElementsOp::create(
          b, loc, VectorType::get({kStagedChunk}, b.getIntegerType(16)),
          lanes));
    }
    return bits;
  }
};

/// block_1x128 of the transpose of `source`'s rows [M, N] (and of the rows
/// themselves where source.rowOutput is set: moe.quantize_with_transpose),
/// a block of 256 threads per 128 x 128 tile staged once in a tile buffer:
///   1. Thread t loads 16 bytes (8 columns, chunk t mod 16; 8 of an FP8
///      source, dequantized and rounded as its copy would hold them) of tile
///      rows 16 p + t / 16, p < 8, all eight before it uses them (a
///      half-warp reads a whole 256-byte row), and stores them into the
///      tile; with a rowwise output it also quantizes them, reading each
///      row back from the tile: a row's amax over its 16 lanes (xor 8 ...
///      1), its scale, 8 FP8 bytes a lane.
///   2. Thread t takes column 2 (t / 4), then 2 (t / 4) + 1, of tile rows
///      32 (t mod 4) ... + 31 from the tile, the column's amax over them
///      and over its 4 lanes (xor 2, 1), and stores 32 FP8 bytes of the
///      column's transposed row (two 16-byte stores; the 4 lanes of a
///      column write 128 contiguous bytes).
/// A thread holds 8 loads (32 registers) and at most 32 values: 63
/// registers, 4 blocks an SM. (Keeping a thread's 64 values in registers
/// took 99, 2 blocks an SM, and moe.quantize_with_transpose ran no faster
/// than the two quantizes it replaces: 0.578 against 0.275 + 0.279 ms for
/// qwen3-30b-a3b's dy on one H200.)
/// The tile's 16-byte chunks are xor-swizzled by 2 · (row / 32 mod 4): the
/// 4 rows x 16 columns a warp reads at once in step 2 fall in distinct
/// banks, and a quarter-warp's chunk stores in step 1 still do. Every element's
/// arithmetic is the quantizes' own, so the outputs equal theirs bit for
/// bit. `workgroupTile`: the tile in workgroup memory (the GPU); otherwise
/// a plain alloca that hoist-scratch moves out of the loops (the CPU, where
/// the blocks run one after the other).
void emitStagedTransposedQuantize(OpBuilder &b, Location loc,
                                  const StagedSource &source,
                                  Value transposedOutput, Value transposedScale,
                                  Fp8Conversion conversion,
                                  bool workgroupTile) {
  Idx ix{b, loc};
  MemRefType type = source.rows.rowsType();
  Type element = type.getElementType();
  int64_t colTiles = type.getDimSize(1) / kStagedTile;
  int64_t tiles = type.getDimSize(0) / kStagedTile * colTiles;
  double colFp8Max = fp8MaxOf(transposedOutput);
  auto tileType = MemRefType::get(
      {kStagedTile, kStagedTile}, b.getIntegerType(16), AffineMap(),
      workgroupTile ? gpu::AddressSpaceAttr::get(b.getContext(),
                                                 gpu::AddressSpace::Workgroup)
                    : Attribute());
  // The first tile column of chunk `chunk` of tile row `row`: the chunk
  // index xor-swizzled by the row.
  auto chunkColumn = [](Idx &t, Value chunk, Value row) -> Value {
    Value key =
        t.mul(t.rem(t.div(row, t.c(kStagedQuarterRows)),
                    t.c(kStagedColumnLanes)),
              t.c(2));
    return t.mul(arith::XOrIOp::create(t.b, t.loc, chunk, key),
                 t.c(kStagedChunk));
  };
  auto blocks = scf::ParallelOp::create(
      b, loc, ValueRange{ix.c(0)}, ValueRange{ix.c(tiles)},
      ValueRange{ix.c(1)},
      [&](OpBuilder &bb, Location bl, ValueRange blockIvs) {
        Idx k{bb, bl};
        // Tile (row block, column tile), column tiles fastest: neighbouring
        // blocks read neighbouring pieces of the same rows.
        Value rowBlock = k.div(blockIvs[0], k.c(colTiles));
        Value colTile = k.rem(blockIvs[0], k.c(colTiles));
        Value r0 = k.mul(rowBlock, k.c(kStagedTile));
        Value col0 = k.mul(colTile, k.c(kStagedTile));
        Value tile = memref::AllocaOp::create(
            bb, bl, tileType, ValueRange{},
            bb.getI64IntegerAttr(kRowAccessBytes));
        threadsFor(bb, bl, kStagedThreads, [&](OpBuilder &tb, Location tl,
                                               Value t) {
          Idx th{tb, tl};
          Value chunk = th.rem(t, th.c(kStagedRowLanes));
          Value firstRow = th.div(t, th.c(kStagedRowLanes));
          Value col = th.add(col0, th.mul(chunk, th.c(kStagedChunk)));
          SmallVector<Value> tileRows, sourceRows;
          for (int64_t p = 0; p < kStagedTile / kStagedRowsPerPass; ++p) {
            tileRows.push_back(th.add(firstRow, th.c(p * kStagedRowsPerPass)));
            sourceRows.push_back(th.add(r0, tileRows.back()));
          }
          SmallVector<Value> rowBits =
              source.loadBits(tb, tl, sourceRows, col, conversion);
          for (auto [r, bits] : llvm::zip(tileRows, rowBits))
            storeRowBits(tb, tl, bits, tile, r, chunkColumn(th, chunk, r));
          if (source.fixUp)
            forRange(tb, tl, th.c(0), th.c(tileRows.size()),
                     [&](OpBuilder &fb, Location fl, Value p) {
                       Idx f{fb, fl};
                       Value r = f.add(firstRow,
                                       f.mul(p, f.c(kStagedRowsPerPass)));
                       source.fixUp(
                           fb, fl, f.add(r0, r), col,
                           [&](OpBuilder &sb, Location sl, Value bits) {
                             Idx st{sb, sl};
                             storeRowBits(sb, sl, bits, tile, r,
                                          chunkColumn(st, chunk, r));
                           });
                     });
          if (!source.rowOutput)
            return;
          // Each row's values read back from the tile: the loads' vectors
          // do not live across the shuffles (the CPU's lanes-in-order
          // emulation keeps only scalars across one).
          for (Value r : tileRows) {
            SmallVector<Value> values = bitsAsF32(
                tb, tl,
                loadRowBits(tb, tl, tile, r, chunkColumn(th, chunk, r),
                            kStagedChunk),
                element);
            Value amax = butterflyMax(
                tb, tl, amaxOf(tb, tl, f32Const(tb, tl, 0.0), values),
                kStagedRowLanes);
            Value s = scaleFromAmax(tb, tl, amax, fp8MaxOf(source.rowOutput));
            Value row = th.add(r0, r);
            ifThen(tb, tl, th.eq(chunk, 0), [&](OpBuilder &sb, Location sl) {
              storeFromF32(sb, sl, s, source.rowScale, {row, colTile});
            });
            storeQuantizedLanes(tb, tl, values, s, source.rowOutput, row, col,
                                conversion);
          }
        });
        threadsFor(bb, bl, kStagedThreads, [&](OpBuilder &tb, Location tl,
                                               Value t) {
          Idx th{tb, tl};
          Value quarter = th.rem(t, th.c(kStagedColumnLanes));
          Value pair = th.div(t, th.c(kStagedColumnLanes));
          Value firstRow = th.mul(quarter, th.c(kStagedQuarterRows));
          // Every row of this thread's quarter has the same swizzle.
          int64_t pairsPerChunk = kStagedChunk / 2;
          Value pairColumn = th.add(
              chunkColumn(th, th.div(pair, th.c(pairsPerChunk)), firstRow),
              th.mul(th.rem(pair, th.c(pairsPerChunk)), th.c(2)));
          // One column after the other: 32 values live, not 64.
          for (int64_t j = 0; j < 2; ++j) {
            Value physical = th.add(pairColumn, th.c(j));
            SmallVector<Value> column;
            for (int64_t i = 0; i < kStagedQuarterRows; ++i) {
              Value bits = memref::LoadOp::create(
                  tb, tl, tile, ValueRange{th.add(firstRow, th.c(i)), physical});
              column.push_back(elementToF32(
                  tb, tl, arith::BitcastOp::create(tb, tl, element, bits)));
            }
            Value amax = butterflyMax(
                tb, tl, amaxOf(tb, tl, f32Const(tb, tl, 0.0), column),
                kStagedColumnLanes);
            Value s = scaleFromAmax(tb, tl, amax, colFp8Max);
            Value outRow =
                th.add(col0, th.add(th.mul(pair, th.c(2)), th.c(j)));
            ifThen(tb, tl, th.eq(quarter, 0), [&](OpBuilder &sb, Location sl) {
              storeFromF32(sb, sl, s, transposedScale, {outRow, rowBlock});
            });
            for (int64_t h = 0; h < kStagedQuarterRows; h += kRowAccessBytes)
              storeQuantizedLanes(
                  tb, tl, ArrayRef<Value>(column).slice(h, kRowAccessBytes), s,
                  transposedOutput, outRow,
                  th.add(r0, th.add(firstRow, th.c(h))), conversion,
                  Quotients::ByReciprocal);
          }
        });
      });
  mapLoopTo(blocks, gpu::Processor::BlockX);
}

/// block_1x128 of the transpose of `source`'s rows: the staged schedule
/// where it takes them (16-bit rows, whole tiles), else the warp schedule.
void emitTransposedQuantize(OpBuilder &b, Location loc,
                            const TransposedSource &source, Value output,
                            Value scale, Fp8Conversion conversion,
                            bool workgroupTiles) {
  MemRefType rows = source.rowsType();
  if (stagedScheduleTakes(rows.getElementType(), rows.getDimSize(0),
                          rows.getDimSize(1)))
    return emitStagedTransposedQuantize(b, loc, StagedSource{source, {}, {}},
                                        output, scale, conversion,
                                        workgroupTiles);
  emitTransposedRowBlockQuantize(b, loc, source, output, scale,
                                 fp8MaxOf(output), conversion);
}

//===----------------------------------------------------------------------===//
// moe.quantize_with_transpose: block_1x128 both ways in one pass
//===----------------------------------------------------------------------===//

/// Rows of a 128-row block a lane holds in moe.quantize_with_transpose's
/// schedule: 16 lanes down a block, 2 column groups a warp. Half the
/// transposed schedule's 16 rows keeps a lane's values to 64 registers.
constexpr int64_t kBothWaysLaneRows = 8;

/// moe.quantize_with_transpose of an f32 `source` [M, N] (16-bit sources
/// take the staged schedule; M and N multiples of 128; identity layouts):
/// a warp per 128 x 128 tile, in chunks of 2 groups
/// of w columns (w: 16 bytes of a row). In a chunk, lane (part, group) loads
/// rows r0 + 8 part ... + 7 of its w columns; the chunk finishes those
/// columns' 128-row blocks (storeColumnBlocks: a butterfly over 16 lanes,
/// xor 2 ... 16; 8 FP8 bytes of an output row a lane) and the lane keeps
/// the running amax of each of its 8 rows. After the last chunk a
/// butterfly over the 2 groups (xor 1) gives each row's amax over the
/// tile's 128 columns, and a second pass reloads the tile (from cache) for
/// the rowwise output. For bf16 it was slower than the two quantizes (one
/// H200: 1.45 ms for a [131072, 2048] gradient where the two take 0.28 +
/// 0.30; its loads are 32 bytes of a row and the second pass misses L2),
/// which the staged schedule replaced; an f32 tile does not fit in static
/// shared memory. The chunks are scf.for loops: unrolled, with 16 rows a
/// lane, the kernel was a 440 KB cubin and took 3.2 ms.
void emitQuantizeWithTranspose(OpBuilder &b, Location loc, Value source,
                               Value output, Value scale,
                               Value transposedOutput, Value transposedScale,
                               Fp8Conversion conversion) {
  Idx ix{b, loc};
  auto type = cast<MemRefType>(source.getType());
  int64_t cols = type.getDimSize(1);
  int64_t width = transposedLaneColumns(type);
  constexpr int64_t laneRows = kBothWaysLaneRows;
  constexpr int64_t groups = kWarpSize / (128 / laneRows);
  int64_t chunkCols = width * groups;
  int64_t colTiles = cols / 128;
  int64_t tiles = type.getDimSize(0) / 128 * colTiles;
  double rowFp8Max = fp8MaxOf(output), colFp8Max = fp8MaxOf(transposedOutput);
  warpsFor(
      b, loc, ix.c(tiles),
      [&](OpBuilder &tb, Location tl, Value warp, Value lane, Value valid) {
        Idx t{tb, tl};
        // A warp past the last computes on the last tile and stores nothing.
        Value tile = t.min(warp, t.c(tiles - 1));
        Value rowBlock = t.div(tile, t.c(colTiles));
        Value colTile = t.rem(tile, t.c(colTiles));
        Value group = t.rem(lane, t.c(groups));
        Value part = t.div(lane, t.c(groups));
        Value r0 = t.add(t.mul(rowBlock, t.c(128)), t.mul(part, t.c(laneRows)));
        Value laneColumn0 =
            t.add(t.mul(colTile, t.c(128)), t.mul(group, t.c(width)));
        // scf.for over the tile's chunks; `body` gets the lane's first
        // column in the chunk and the loop-carried values.
        auto forChunks =
            [&](OpBuilder &fb, Location fl, ValueRange carried,
                function_ref<SmallVector<Value>(OpBuilder &, Location, Value,
                                                ValueRange)>
                    body) {
              Idx f{fb, fl};
              auto loop = scf::ForOp::create(
                  fb, fl, f.c(0), f.c(128), f.c(chunkCols), carried,
                  [&](OpBuilder &lb, Location ll, Value offset,
                      ValueRange args) {
                    Idx l{lb, ll};
                    scf::YieldOp::create(
                        lb, ll,
                        body(lb, ll, l.add(laneColumn0, offset), args));
                  });
              return loop.getResults();
            };
        SmallVector<Value> zeros(laneRows, f32Const(tb, tl, 0.0));
        ValueRange rowAmax = forChunks(
            tb, tl, zeros,
            [&](OpBuilder &lb, Location ll, Value c0, ValueRange running) {
              Idx l{lb, ll};
              SmallVector<Value> amax(running);
              // values[j][i]: column c0 + j of row r0 + i, as f32.
              SmallVector<SmallVector<Value>> values(width);
              for (int64_t i = 0; i < laneRows; ++i) {
                SmallVector<Value> row = loadRowVectorAsF32(
                    lb, ll, source, l.add(r0, l.c(i)), c0, width);
                amax[i] = amaxOf(lb, ll, amax[i], row);
                for (auto [j, v] : llvm::enumerate(row))
                  values[j].push_back(v);
              }
              storeColumnBlocks(lb, ll, values,
                                {c0, r0, rowBlock, part, valid, laneRows},
                                transposedOutput, transposedScale, colFp8Max,
                                conversion);
              return amax;
            });
        SmallVector<Value> rowScales;
        for (Value amax : rowAmax)
          rowScales.push_back(scaleFromAmax(
              tb, tl, butterflyMax(tb, tl, amax, groups),
              rowFp8Max));
        ifThen(tb, tl, valid, [&](OpBuilder &sb, Location sl) {
          Idx st{sb, sl};
          ifThen(sb, sl, st.eq(group, 0), [&](OpBuilder &gb, Location gl) {
            Idx g{gb, gl};
            for (auto [i, rowScale] : llvm::enumerate(rowScales))
              storeFromF32(gb, gl, rowScale, scale,
                           {g.add(r0, g.c(i)), colTile});
          });
          forChunks(sb, sl, {},
                    [&](OpBuilder &lb, Location ll, Value c0, ValueRange) {
                      Idx l{lb, ll};
                      for (auto [i, rowScale] : llvm::enumerate(rowScales)) {
                        Value row = l.add(r0, l.c(i));
                        storeQuantizedLanes(
                            lb, ll,
                            loadRowVectorAsF32(lb, ll, source, row, c0, width),
                            rowScale, output, row, c0, conversion);
                      }
                      return SmallVector<Value>();
                    });
        });
      });
}

/// Whether emitQuantizeWithTranspose takes `op`'s buffers.
bool takesQuantizeWithTranspose(QuantizeWithTransposeOp op) {
  if (!op.hasParallelSchedule())
    return false;
  for (Value v : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || !type.getLayout().isIdentity())
      return false;
  }
  auto source = cast<MemRefType>(op.getInput().getType());
  return isa<BFloat16Type, Float16Type, Float32Type>(source.getElementType());
}

/// The one op of type OpT among `buffer`'s users, one that writes it
/// (initOf(op) == buffer), where every other user is `reader` or a
/// deallocation; null otherwise.
template <typename OpT>
OpT soleWriterOf(Value buffer, Operation *reader,
                 llvm::function_ref<Value(OpT)> initOf) {
  OpT writer;
  for (Operation *user : buffer.getUsers()) {
    if (user == reader || isa<memref::DeallocOp>(user))
      continue;
    auto op = dyn_cast<OpT>(user);
    if (!op || writer || initOf(op) != buffer)
      return {};
    writer = op;
  }
  return writer;
}

/// The source of `quantize`'s input when the input is a buffer that a
/// 2-D linalg.transpose (permutation [1, 0]) writes and only this quantize
/// reads (its other users: the transpose and deallocations), with nothing
/// but allocations and effect-free ops between the two, and the shapes the
/// fused schedule takes (block_1x128; R a multiple of 128; column groups of
/// kTransposedLaneBytes filling whole warps); with the transpose. Null
/// otherwise.
std::pair<Value, linalg::TransposeOp> transposedSourceOf(QuantizeOp quantize) {
  Value input = quantize.getInput();
  if (quantize.getRecipe() != QuantRecipe::Block1x128 ||
      !input.getDefiningOp<memref::AllocOp>())
    return {};
  auto transpose = soleWriterOf<linalg::TransposeOp>(
      input, quantize, [](linalg::TransposeOp t) { return t.getInit(); });
  if (!transpose || transpose->getBlock() != quantize->getBlock() ||
      !transpose->isBeforeInBlock(quantize) ||
      transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
    return {};
  for (Operation *op = transpose->getNextNode(); op != quantize.getOperation();
       op = op->getNextNode()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return {};
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (auto &instance : instances)
      if (!isa<MemoryEffects::Allocate, MemoryEffects::Free>(
              instance.getEffect()))
        return {};
  }
  Value source = transpose.getInput();
  auto type = dyn_cast<MemRefType>(source.getType());
  if (!type || type.getRank() != 2 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() ||
      !isa<BFloat16Type, Float16Type, Float32Type>(type.getElementType()))
    return {};
  for (Value v : {quantize.getOutputInit(), quantize.getScaleInit()}) {
    auto t = dyn_cast<MemRefType>(v.getType());
    if (!t || !t.getLayout().isIdentity())
      return {};
  }
  int64_t groups = type.getDimSize(1) / transposedLaneColumns(type);
  if (type.getDimSize(0) % 128 != 0 ||
      type.getDimSize(1) % transposedLaneColumns(type) != 0 ||
      groups % kTransposedWarpGroups != 0)
    return {};
  return {source, transpose};
}

/// Whether `buffer` is a block argument or an allocation, not a view of
/// another buffer (which could be written, or overlap, through that one).
/// An entry's argument buffers are taken to be distinct (moe-runner
/// allocates each; an input passed again as an output would race in other
/// kernels too).
bool isWholeBuffer(Value buffer) {
  return isa<BlockArgument>(buffer) || buffer.getDefiningOp<memref::AllocOp>();
}

/// Whether every user of `buffer` but `dq` lies before `dq` in its block
/// (and lets it escape nowhere) or is a deallocation after `quantize`:
/// nothing writes or frees it while the fused schedule, which takes dq's
/// reads to quantize's place, has yet to read it. `buffer` must be a whole
/// buffer (isWholeBuffer).
bool untouchedUntil(Value buffer, DequantizeOp dq, QuantizeOp quantize) {
  if (!isWholeBuffer(buffer))
    return false;
  Block *block = dq->getBlock();
  for (Operation *user : buffer.getUsers()) {
    if (user == dq.getOperation())
      continue;
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (!inBlock)
      return false;
    // Before dq: fine where it cannot let the buffer escape (through which
    // it could be written later): an op with known effects and no results
    // (no view, no extracted pointer) that does not pass it on to a region's
    // results (no terminator), not a call.
    if (inBlock->isBeforeInBlock(dq) && user->getNumResults() == 0 &&
        isa<MemoryEffectOpInterface>(user) &&
        !user->hasTrait<OpTrait::IsTerminator>())
      continue;
    if (isa<memref::DeallocOp>(user) && quantize->isBeforeInBlock(inBlock))
      continue;
    return false;
  }
  return true;
}

/// The moe.dequantize block_1x128 whose output `copy` (the source of a
/// transposed quantize, transposedSourceOf) exists only for `transpose`:
/// `copy` is an allocation written by the dequantize alone and read by the
/// transpose alone (else deallocated), the dequantize comes before the
/// transpose in its block, its FP8 input [R, C] and scales are 2-D
/// row-major buffers that nothing writes until `quantize`
/// (untouchedUntil). Null otherwise.
DequantizeOp dequantizeFeeding(Value copy, linalg::TransposeOp transpose,
                               QuantizeOp quantize) {
  // An allocation of this function: a buffer from outside (an argument, an
  // entry's result) is read there, whatever its users here.
  if (!copy.getDefiningOp<memref::AllocOp>())
    return {};
  auto dq = soleWriterOf<DequantizeOp>(
      copy, transpose, [](DequantizeOp d) { return d.getOutputInit(); });
  if (!dq || !dq.hasPureBufferSemantics() ||
      dq.getRecipe() != QuantRecipe::Block1x128 ||
      dq->getBlock() != transpose->getBlock() ||
      !dq->isBeforeInBlock(transpose))
    return {};
  for (Value v : {dq.getInput(), dq.getScale()}) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || type.getRank() != 2 || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() || !untouchedUntil(v, dq, quantize))
      return {};
  }
  return dq;
}

/// Erases `buffer`'s allocation where nothing but deallocations use it.
void eraseIfOnlyDeallocated(RewriterBase &rewriter, Value buffer) {
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc || !llvm::all_of(buffer.getUsers(), [](Operation *user) {
        return isa<memref::DeallocOp>(user);
      }))
    return;
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
    rewriter.eraseOp(user);
  rewriter.eraseOp(alloc);
}

/// Whether every op strictly between `first` and `last` (one block, first
/// before last) has known memory effects and none of them writes or frees:
/// whatever buffer, view or pointer they touch, what `first` read is
/// unchanged at `last`.
bool nothingWrittenBetween(Operation *first, Operation *last) {
  for (Operation *op = first->getNextNode(); op != last;
       op = op->getNextNode()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return false;
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (auto &instance : instances)
      if (!isa<MemoryEffects::Allocate, MemoryEffects::Read>(
              instance.getEffect()))
        return false;
  }
  return true;
}

/// The moe.glu whose output `h` (the input of `quantize`, block_1x128)
/// exists only for that quantize: `h` is a 2-D row-major allocation that
/// the glu writes, the quantize reads and nothing else uses but
/// deallocations; the glu precedes the quantize in its block, its gate and
/// up are 2-D row-major, and nothing between the two writes
/// (nothingWrittenBetween), so gate and up hold at the quantize what the
/// glu read; gate, up and the quantize's outputs are allocations or
/// arguments (no view of one another). Null otherwise.
GluOp gluFeeding(QuantizeOp quantize) {
  Value h = quantize.getInput();
  auto hType = dyn_cast<MemRefType>(h.getType());
  if (quantize.getRecipe() != QuantRecipe::Block1x128 || !hType ||
      hType.getRank() != 2 || !isRowMajor(h) ||
      !h.getDefiningOp<memref::AllocOp>() ||
      !isRowMajor(quantize.getOutputInit()))
    return {};
  auto scaleType = dyn_cast<MemRefType>(quantize.getScaleInit().getType());
  if (!scaleType || !scaleType.getLayout().isIdentity())
    return {};
  auto glu = soleWriterOf<GluOp>(h, quantize,
                                [](GluOp g) { return g.getHInit(); });
  if (!glu || !glu.hasPureBufferSemantics() ||
      glu->getBlock() != quantize->getBlock() ||
      !glu->isBeforeInBlock(quantize) ||
      !nothingWrittenBetween(glu, quantize))
    return {};
  // The fused kernel writes the outputs while other blocks still read gate
  // and up: all of them whole buffers, none a view that could overlap.
  if (!isWholeBuffer(quantize.getOutputInit()) ||
      !isWholeBuffer(quantize.getScaleInit()))
    return {};
  for (Value v : {glu.getGate(), glu.getUp()}) {
    if (!v)
      continue;
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || type.getRank() != 2 || !isRowMajor(v) || !isWholeBuffer(v))
      return {};
  }
  return glu;
}

/// The moe.quantize ops on buffers under `root`, in walk order (collected
/// first: the fusions erase ops as they go).
SmallVector<QuantizeOp> bufferQuantizes(Operation *root) {
  SmallVector<QuantizeOp> quantizes;
  root->walk([&](QuantizeOp op) {
    if (op.hasPureBufferSemantics())
      quantizes.push_back(op);
  });
  return quantizes;
}

} // namespace

void fuseGluQuantizes(Operation *root, Fp8Conversion conversion) {
  IRRewriter rewriter(root->getContext());
  for (QuantizeOp quantize : bufferQuantizes(root)) {
    GluOp glu = gluFeeding(quantize);
    if (!glu)
      continue;
    Value h = quantize.getInput(), gate = glu.getGate(), up = glu.getUp();
    Type hElement = cast<MemRefType>(h.getType()).getElementType();
    int64_t cols = lastDimOf(h);
    SmallVector<Value> reads{gate, quantize.getOutputInit()};
    if (up)
      reads.push_back(up);
    int64_t width = accessWidth(reads, cols, kLaneColumns);
    Activation act = glu.getActivation();
    Location loc = quantize.getLoc();
    rewriter.setInsertionPoint(quantize);
    // The glu schedule's values (emitGluRows), rounded as storing them in h
    // and loading them again would.
    emitRowBlockQuantizeOf(
        // The rows from the output: h goes, and no memref.dim may keep it.
        rewriter, loc, dimOf(rewriter, loc, quantize.getOutputInit(), 0), cols,
        width,
        [&](OpBuilder &b, Location l, Value row, Value col, int64_t w) {
          SmallVector<Value> g = loadRowVectorAsF32(b, l, gate, row, col, w);
          SmallVector<Value> u =
              up ? loadRowVectorAsF32(b, l, up, row, col, w)
                 : loadRowVectorAsF32(
                       b, l, gate, row,
                       arith::AddIOp::create(b, l, col, indexConst(b, l, cols)),
                       w);
          SmallVector<Value> lanes;
          for (int64_t i = 0; i < w; ++i)
            lanes.push_back(roundThroughType(
                b, l,
                arith::MulFOp::create(
                    b, l, opmath::buildActivation(b, l, act, g[i]), u[i]),
                hElement, conversion));
          return lanes;
        },
        quantize.getOutputInit(), quantize.getScaleInit(),
        fp8MaxOf(quantize.getOutputInit()), conversion);
    rewriter.eraseOp(quantize);
    rewriter.eraseOp(glu);
    eraseIfOnlyDeallocated(rewriter, h);
  }
}

/// The moe.combine_grad whose dy (the input of `quantize`) exists only for
/// that moe.quantize_with_transpose (the blockwise backward's fc2 output
/// gradient, quantized both ways): dy is a 16-bit allocation of whole
/// tiles (the staged schedule's) that the combine_grad writes, the
/// quantize reads and nothing else uses but deallocations; the combine_grad
/// precedes the quantize in its block and nothing between them writes
/// (nothingWrittenBetween), so dout, rows and weights hold at the quantize
/// what the combine_grad read; dout has rows of dy's length; the quantize's
/// outputs and the combine_grad's inputs are allocations or arguments. Null
/// otherwise.
CombineGradOp combineGradFeeding(QuantizeWithTransposeOp quantize) {
  Value dy = quantize.getInput();
  auto dyType = dyn_cast<MemRefType>(dy.getType());
  if (!dyType || !dy.getDefiningOp<memref::AllocOp>() ||
      !takesQuantizeWithTranspose(quantize) ||
      !stagedScheduleTakes(dyType.getElementType(), dyType.getDimSize(0),
                           dyType.getDimSize(1)))
    return {};
  auto combineGrad = soleWriterOf<CombineGradOp>(
      dy, quantize, [](CombineGradOp c) { return c.getDyInit(); });
  if (!combineGrad || !combineGrad.hasPureBufferSemantics() ||
      combineGrad->getBlock() != quantize->getBlock() ||
      !combineGrad->isBeforeInBlock(quantize) ||
      !nothingWrittenBetween(combineGrad, quantize))
    return {};
  Value dout = combineGrad.getDout();
  auto doutType = dyn_cast<MemRefType>(dout.getType());
  if (!doutType || doutType.getRank() != 2 || !isRowMajor(dout) ||
      lastDimOf(dout) != dyType.getDimSize(1))
    return {};
  for (Value v : SmallVector<Value>{
           quantize.getOutputInit(), quantize.getScaleInit(),
           quantize.getTransposedOutputInit(),
           quantize.getTransposedScaleInit(), dout, combineGrad.getRows(),
           combineGrad.getWeights()})
    if (!isWholeBuffer(v))
      return {};
  return combineGrad;
}

void fuseCombineGradQuantizes(Operation *root, Fp8Conversion conversion,
                              bool workgroupTiles) {
  SmallVector<QuantizeWithTransposeOp> quantizes;
  root->walk([&](QuantizeWithTransposeOp q) {
    if (q.hasPureBufferSemantics())
      quantizes.push_back(q);
  });
  IRRewriter rewriter(root->getContext());
  for (QuantizeWithTransposeOp quantize : quantizes) {
    CombineGradOp combineGrad = combineGradFeeding(quantize);
    if (!combineGrad)
      continue;
    Value dy = quantize.getInput(), dout = combineGrad.getDout(),
          rows = combineGrad.getRows(), weights = combineGrad.getWeights();
    Type dyElement = cast<MemRefType>(dy.getType()).getElementType();
    // dy's values rounded as its store would, packed as the tile holds them.
    auto pack = [&](OpBuilder &b, Location l, ArrayRef<Value> lanes) {
      return f32AsBits(b, l, lanes, dyElement);
    };
    // At the combine_grad: its dweights and each row's pair; dy is left to
    // the quantize, whose tiles gather it from dout.
    Location cgLoc = combineGrad.getLoc();
    rewriter.setInsertionPoint(combineGrad);
    emitCombineGradWeights(rewriter, cgLoc, dout, combineGrad.getY(), rows,
                           combineGrad.getDweightsInit());
    CombineGradRowPairs pairs = emitCombineGradRowPairs(
        rewriter, cgLoc, rows, combineGrad.getY(), dy, /*keepPair=*/true);
    rewriter.setInsertionPoint(quantize);
    emitStagedTransposedQuantize(
        rewriter, quantize.getLoc(),
        StagedSource{TransposedSource{dy, {}, {}}, quantize.getOutputInit(),
                     quantize.getScaleInit(),
                     [&](OpBuilder &b, Location l, ArrayRef<Value> rs,
                         Value col) {
                       return combineGradRowsPacked(b, l, dout, rows, weights,
                                                    pairs, rs, col,
                                                    kStagedChunk, pack);
                     },
                     [&](OpBuilder &b, Location l, Value row, Value col,
                         RowStore store) {
                       combineGradFixUpRow(b, l, dout, rows, weights, pairs,
                                           row, col, kStagedChunk, pack,
                                           store);
                     }},
        quantize.getTransposedOutputInit(), quantize.getTransposedScaleInit(),
        conversion, workgroupTiles);
    memref::DeallocOp::create(rewriter, quantize.getLoc(), pairs.pairsPerRow);
    memref::DeallocOp::create(rewriter, quantize.getLoc(), pairs.pairOfRow);
    rewriter.eraseOp(quantize);
    rewriter.eraseOp(combineGrad);
    eraseIfOnlyDeallocated(rewriter, dy);
  }
}

void fuseDequantizedTransposedQuantizes(Operation *root,
                                        Fp8Conversion conversion,
                                        bool workgroupTiles) {
  IRRewriter rewriter(root->getContext());
  for (QuantizeOp quantize : bufferQuantizes(root)) {
    auto [copy, transpose] = transposedSourceOf(quantize);
    if (!copy)
      continue;
    DequantizeOp dq = dequantizeFeeding(copy, transpose, quantize);
    if (!dq)
      continue;
    Value transposed = quantize.getInput();
    rewriter.setInsertionPoint(quantize);
    emitTransposedQuantize(
        rewriter, quantize.getLoc(),
        TransposedSource{dq.getInput(), dq.getScale(),
                         cast<MemRefType>(copy.getType()).getElementType()},
        quantize.getOutputInit(), quantize.getScaleInit(), conversion,
        workgroupTiles);
    rewriter.eraseOp(quantize);
    rewriter.eraseOp(transpose);
    rewriter.eraseOp(dq);
    eraseIfOnlyDeallocated(rewriter, transposed);
    eraseIfOnlyDeallocated(rewriter, copy);
  }
}

LogicalResult emitQuantizeGpu(OpBuilder &b, Location loc, QuantRecipe recipe,
                              Value input, Value amaxHistory, Value output,
                              Value scale, Fp8Conversion conversion) {
  if (recipe == QuantRecipe::MX1x32 || !isRowMajor(input) ||
      !isRowMajor(output) || lastDimOf(input) == 0)
    return failure();
  auto scaleType = dyn_cast<MemRefType>(scale.getType());
  if (!scaleType || !scaleType.getLayout().isIdentity())
    return failure();
  double fp8Max = fp8MaxOf(output);
  switch (recipe) {
  case QuantRecipe::Tensorwise:
  case QuantRecipe::Delayed:
    emitTensorQuantize(b, loc, recipe, input, amaxHistory, output, scale,
                       fp8Max, conversion);
    return success();
  case QuantRecipe::Block1x128:
    emitRowBlockQuantize(b, loc, input, output, scale, fp8Max, conversion);
    return success();
  case QuantRecipe::Block128x128:
    if (cast<MemRefType>(input.getType()).getRank() < 2)
      return failure();
    emitTileQuantize(b, loc, input, output, scale, fp8Max, conversion);
    return success();
  case QuantRecipe::MX1x32:
    break;
  }
  return failure();
}

LogicalResult emitDequantizeGpu(OpBuilder &b, Location loc, QuantRecipe recipe,
                                Value input, Value scale, Value output,
                                Fp8Conversion conversion) {
  if (recipe == QuantRecipe::MX1x32 || !isRowMajor(input) ||
      !isRowMajor(output) || lastDimOf(input) == 0)
    return failure();
  auto scaleType = dyn_cast<MemRefType>(scale.getType());
  if (!scaleType || !scaleType.getLayout().isIdentity())
    return failure();
  int64_t rank = cast<MemRefType>(input.getType()).getRank();
  std::optional<opmath::QuantBlockShape> blk = opmath::quantBlockShape(recipe);
  if (blk && blk->rows > 1 && rank < 2)
    return failure();
  Idx ix{b, loc};
  int64_t cols = lastDimOf(input);
  int64_t width = accessWidth({input, output}, cols, kRowAccessBytes);
  Value x = asRows(b, loc, input), y = asRows(b, loc, output);
  Value sv = blk ? asRows(b, loc, scale) : scale;
  Value m = blk && blk->rows > 1 ? dimOf(b, loc, input, rank - 2) : Value();
  Value rowBlocks = m ? ix.ceilDiv(m, ix.c(blk->rows)) : Value();
  // A vector of `width` (a divisor of 128) elements lies in one block.
  parallelFor(
      b, loc, {dimOf(b, loc, x, 0), ix.c(cols / width)},
      [&](OpBuilder &nb, Location nl, ValueRange ivs) {
        Idx n{nb, nl};
        Value row = ivs[0], col = n.mul(ivs[1], n.c(width));
        Value s;
        if (!blk) {
          s = loadAsF32(nb, nl, sv, {});
        } else {
          Value scaleRow = row;
          if (m) // [batch · M + r] → [batch · ⌈M/128⌉ + r / 128]
            scaleRow = n.add(n.mul(n.div(row, m), rowBlocks),
                             n.div(n.rem(row, m), n.c(blk->rows)));
          s = loadAsF32(nb, nl, sv, {scaleRow, n.div(col, n.c(blk->cols))});
        }
        storeRowVectorFromF32(
            nb, nl,
            loadDequantizedRowVector(nb, nl, x, row, col, width, s, conversion),
            y, row, col);
      });
  return success();
}

namespace {

template <typename OpTy> struct QuantSchedule : OpConversionPattern<OpTy> {
  QuantSchedule(MLIRContext *context, PatternBenefit benefit,
                Fp8Conversion conversion, bool workgroupTiles)
      : OpConversionPattern<OpTy>(context, benefit), conversion(conversion),
        workgroupTiles(workgroupTiles) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics() || failed(schedule(op, rewriter)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }

  LogicalResult schedule(QuantizeOp op,
                         ConversionPatternRewriter &rewriter) const {
    // block_1x128 of a transposed copy that nothing else reads: the copy
    // goes, the schedule reads its source (one pass over it instead of
    // three: the transpose's read and write and the quantize's read).
    if (auto [source, transpose] = transposedSourceOf(op); source) {
      emitTransposedQuantize(rewriter, op.getLoc(),
                             TransposedSource{source, {}, {}},
                             op.getOutputInit(), op.getScaleInit(), conversion,
                             workgroupTiles);
      rewriter.eraseOp(transpose);
      return success();
    }
    return emitQuantizeGpu(rewriter, op.getLoc(), op.getRecipe(),
                           op.getInput(), op.getAmaxHistory(),
                           op.getOutputInit(), op.getScaleInit(), conversion);
  }
  LogicalResult schedule(QuantizeWithTransposeOp op,
                         ConversionPatternRewriter &b) const {
    if (!takesQuantizeWithTranspose(op))
      return failure();
    // A 16-bit tile fits in workgroup memory (32 KB); f32 sources keep the
    // warp-per-tile schedule.
    auto input = cast<MemRefType>(op.getInput().getType());
    if (stagedScheduleTakes(input.getElementType(), input.getDimSize(0),
                            input.getDimSize(1))) {
      emitStagedTransposedQuantize(
          b, op.getLoc(),
          StagedSource{TransposedSource{op.getInput(), {}, {}},
                       op.getOutputInit(), op.getScaleInit()},
          op.getTransposedOutputInit(), op.getTransposedScaleInit(),
          conversion, workgroupTiles);
      return success();
    }
    emitQuantizeWithTranspose(b, op.getLoc(), op.getInput(), op.getOutputInit(),
                              op.getScaleInit(), op.getTransposedOutputInit(),
                              op.getTransposedScaleInit(), conversion);
    return success();
  }
  LogicalResult schedule(DequantizeOp op,
                         ConversionPatternRewriter &b) const {
    return emitDequantizeGpu(b, op.getLoc(), op.getRecipe(), op.getInput(),
                             op.getScale(), op.getOutputInit(), conversion);
  }

  Fp8Conversion conversion;
  bool workgroupTiles;
};

} // namespace

void populateQuantSchedulePatterns(RewritePatternSet &patterns,
                                   PatternBenefit benefit,
                                   Fp8Conversion conversion,
                                   bool workgroupTiles) {
  patterns.add<QuantSchedule<QuantizeOp>,
               QuantSchedule<QuantizeWithTransposeOp>,
               QuantSchedule<DequantizeOp>>(patterns.getContext(), benefit,
                                            conversion, workgroupTiles);
}

} // namespace mlir::moe::gpu_schedules
