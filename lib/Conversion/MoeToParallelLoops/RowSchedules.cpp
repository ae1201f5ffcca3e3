//===- RowSchedules.cpp - block-per-row schedules with vector access ------===//
#include "RowSchedules.h"

#include "../MoeToLoops/LoopBuilder.h"

#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::moe::loops;

namespace mlir::moe::gpu_schedules {

int64_t rowVectorWidth(ArrayRef<Value> buffers) {
  int64_t width = kRowAccessBytes;
  for (Value buffer : buffers) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type || type.getRank() != 2 || !type.getLayout().isIdentity() ||
        type.isDynamicDim(1))
      return 0;
    unsigned bits = type.getElementTypeBitWidth();
    if (bits % 8 != 0)
      return 0;
    width = std::min<int64_t>(width, kRowAccessBytes / (bits / 8));
    while (width > 1 && type.getDimSize(1) % width != 0)
      width /= 2;
  }
  return width;
}

void mapLoopTo(scf::ParallelOp loop, gpu::Processor processor) {
  MLIRContext *ctx = loop.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  auto mapping =
      gpu::ParallelLoopDimMappingAttr::get(ctx, processor, identity, identity);
  // One loop dimension, one processor: always a valid mapping.
  (void)gpu::setMappingAttr(loop, mapping);
}

void threadsFor(OpBuilder &b, Location loc, int64_t threads, ThreadBody body) {
  auto loop = scf::ParallelOp::create(
      b, loc, ValueRange{indexConst(b, loc, 0)},
      ValueRange{indexConst(b, loc, threads)},
      ValueRange{indexConst(b, loc, 1)},
      [&](OpBuilder &tb, Location tloc, ValueRange ivs) {
        body(tb, tloc, ivs[0]);
      });
  mapLoopTo(loop, gpu::Processor::ThreadX);
}

void rowVectorFor(OpBuilder &b, Location loc, Value numRows, int64_t numCols,
                  int64_t width, RowVectorBody body) {
  Value c0 = indexConst(b, loc, 0);
  auto rows = scf::ParallelOp::create(
      b, loc, ValueRange{c0}, ValueRange{numRows},
      ValueRange{indexConst(b, loc, 1)},
      [&](OpBuilder &rb, Location rloc, ValueRange rowIvs) {
        auto cols = scf::ParallelOp::create(
            rb, rloc, ValueRange{indexConst(rb, rloc, 0)},
            ValueRange{indexConst(rb, rloc, numCols)},
            ValueRange{indexConst(rb, rloc, width)},
            [&](OpBuilder &cb, Location cloc, ValueRange colIvs) {
              body(cb, cloc, rowIvs[0], colIvs[0]);
            });
        mapLoopTo(cols, gpu::Processor::ThreadX);
      });
  mapLoopTo(rows, gpu::Processor::BlockX);
}

void warpPerItemFor(OpBuilder &b, Location loc, Value numItems,
                    int64_t warpsPerBlock, WarpItemBody body) {
  Value c0 = indexConst(b, loc, 0), c1 = indexConst(b, loc, 1);
  Value blocks = ceilDiv(b, loc, numItems, warpsPerBlock);
  auto itemBlocks = scf::ParallelOp::create(
      b, loc, ValueRange{c0}, ValueRange{blocks}, ValueRange{c1},
      [&](OpBuilder &bb, Location bloc, ValueRange blockIvs) {
        threadsFor(
            bb, bloc, warpsPerBlock * kWarpSize,
            [&](OpBuilder &tb, Location tloc, Value thread) {
              Value lanes = indexConst(tb, tloc, kWarpSize);
              Value warp = arith::DivUIOp::create(tb, tloc, thread, lanes);
              Value lane = arith::RemUIOp::create(tb, tloc, thread, lanes);
              Value item = arith::AddIOp::create(
                  tb, tloc,
                  arith::MulIOp::create(tb, tloc, blockIvs[0],
                                        indexConst(tb, tloc, warpsPerBlock)),
                  warp);
              Value inRange = arith::CmpIOp::create(
                  tb, tloc, arith::CmpIPredicate::ult, item, numItems);
              body(tb, tloc, item, lane, inRange);
            });
      });
  mapLoopTo(itemBlocks, gpu::Processor::BlockX);
}

Value storingLane(OpBuilder &b, Location loc, Value lane, Value inRange) {
  return arith::AndIOp::create(
      b, loc, inRange,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                            indexConst(b, loc, 0)));
}

Value warpButterfly(OpBuilder &b, Location loc, Value v, int64_t lanes,
                    int64_t stride, ButterflyStep step) {
  for (int32_t offset = stride * lanes / 2; offset >= stride; offset /= 2) {
    Value other = gpu::ShuffleOp::create(b, loc, v, offset, kWarpSize,
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    v = step(b, loc, v, other);
  }
  return v;
}

Value warpSum(OpBuilder &b, Location loc, Value v) {
  return warpButterfly(b, loc, v, kWarpSize, /*stride=*/1,
                       [](OpBuilder &sb, Location sl, Value mine, Value other) {
                         return arith::AddFOp::create(sb, sl, mine, other)
                             .getResult();
                       });
}

void selectedRowVectorFor(OpBuilder &b, Location loc, Value numRows,
                          int64_t numCols, int64_t width, RowPredicate selected,
                          RowVectorBody body) {
  Value numGroups = ceilDiv(b, loc, numRows, kWarpSize);
  warpPerItemFor(
      b, loc, numGroups, kSelectedRowGroupsPerBlock,
      [&](OpBuilder &tb, Location tloc, Value group, Value lane,
          Value inRange) {
        Value firstRow = arith::MulIOp::create(tb, tloc, group,
                                               indexConst(tb, tloc, kWarpSize));
        Value myRow = arith::AddIOp::create(tb, tloc, firstRow, lane);
        Value tested = arith::AndIOp::create(
            tb, tloc, inRange,
            arith::CmpIOp::create(tb, tloc, arith::CmpIPredicate::ult, myRow,
                                  numRows));
        // This lane's bit of the warp's mask: 1 << lane where its row is
        // selected.
        Type i32 = tb.getI32Type();
        Value bit = ifElse(
            tb, tloc, i32, tested,
            [&](OpBuilder &ib, Location iloc) -> Value {
              Value one = arith::ShLIOp::create(
                  ib, iloc, i32Const(ib, iloc, 1),
                  arith::IndexCastOp::create(ib, iloc, i32, lane));
              return arith::SelectOp::create(ib, iloc,
                                             selected(ib, iloc, myRow), one,
                                             i32Const(ib, iloc, 0));
            },
            [&](OpBuilder &ib, Location iloc) -> Value {
              return i32Const(ib, iloc, 0);
            });
        Value mask = warpButterfly(
            tb, tloc, bit, kWarpSize, 1,
            [](OpBuilder &sb, Location sloc, Value mine, Value other) {
              return arith::OrIOp::create(sb, sloc, mine, other).getResult();
            });
        forRange(
            tb, tloc, indexConst(tb, tloc, 0), indexConst(tb, tloc, kWarpSize),
            [&](OpBuilder &jb, Location jloc, Value j) {
              Value shifted = arith::ShRUIOp::create(
                  jb, jloc, mask, arith::IndexCastOp::create(jb, jloc, i32, j));
              Value isSelected = arith::CmpIOp::create(
                  jb, jloc, arith::CmpIPredicate::ne,
                  arith::AndIOp::create(jb, jloc, shifted, i32Const(jb, jloc, 1)),
                  i32Const(jb, jloc, 0));
              ifThen(jb, jloc, isSelected, [&](OpBuilder &sb, Location sloc) {
                Value row = arith::AddIOp::create(sb, sloc, firstRow, j);
                Value first = arith::MulIOp::create(
                    sb, sloc, lane, indexConst(sb, sloc, width));
                auto cols = scf::ForOp::create(
                    sb, sloc, first, indexConst(sb, sloc, numCols),
                    indexConst(sb, sloc, kWarpSize * width));
                OpBuilder::InsertionGuard guard(sb);
                sb.setInsertionPointToStart(cols.getBody());
                body(sb, sloc, row, cols.getInductionVar());
              });
            });
      });
}

/// The vector type of `width` elements of `memref`, and the alignment of an
/// access (its size: rows start at multiples of it, see rowVectorWidth).
static std::pair<VectorType, llvm::MaybeAlign> accessOf(Value memref,
                                                        int64_t width) {
  Type elem = cast<MemRefType>(memref.getType()).getElementType();
  auto type = VectorType::get({width}, elem);
  return {type, llvm::MaybeAlign(width * elem.getIntOrFloatBitWidth() / 8)};
}

/// `type` with its elements as integers of their width: lanes are moved
/// in and out of vectors as integers, so that no target needs arithmetic
/// (or runtime helpers) on vectors of bf16 or FP8 to assemble them.
static VectorType asIntegerLanes(VectorType type) {
  Type elem = type.getElementType();
  return VectorType::get(
      type.getShape(),
      IntegerType::get(type.getContext(), elem.getIntOrFloatBitWidth()));
}

Value loadRowBits(OpBuilder &b, Location loc, Value memref, Value row,
                  Value col, int64_t width) {
  auto [type, align] = accessOf(memref, width);
  Value v = vector::LoadOp::create(b, loc, type, memref, ValueRange{row, col},
                                   /*nontemporal=*/false, align);
  return vector::BitCastOp::create(b, loc, asIntegerLanes(type), v);
}

void storeRowBits(OpBuilder &b, Location loc, Value bits, Value memref,
                  Value row, Value col) {
  int64_t width = cast<VectorType>(bits.getType()).getNumElements();
  auto [type, align] = accessOf(memref, width);
  Value v = vector::BitCastOp::create(b, loc, type, bits);
  vector::StoreOp::create(b, loc, v, memref, ValueRange{row, col},
                          /*nontemporal=*/false, align);
}

SmallVector<Value> bitsAsF32(OpBuilder &b, Location loc, Value bits,
                             Type element) {
  SmallVector<Value> lanes;
  int64_t width = cast<VectorType>(bits.getType()).getNumElements();
  for (int64_t i = 0; i < width; ++i) {
    Value lane = arith::BitcastOp::create(
        b, loc, element, vector::ExtractOp::create(b, loc, bits, i));
    lanes.push_back(elementToF32(b, loc, lane));
  }
  return lanes;
}

Value f32AsBits(OpBuilder &b, Location loc, ArrayRef<Value> lanes,
                Type element) {
  VectorType intType = asIntegerLanes(
      VectorType::get({static_cast<int64_t>(lanes.size())}, element));
  SmallVector<Value> elems;
  for (Value lane : lanes)
    elems.push_back(arith::BitcastOp::create(b, loc, intType.getElementType(),
                                             f32ToElement(b, loc, lane,
                                                          element)));
  return vector::FromElementsOp::create(b, loc, intType, elems);
}

SmallVector<Value> loadRowVectorAsF32(OpBuilder &b, Location loc, Value memref,
                                      Value row, Value col, int64_t width) {
  return bitsAsF32(b, loc, loadRowBits(b, loc, memref, row, col, width),
                   cast<MemRefType>(memref.getType()).getElementType());
}

void storeRowVectorFromF32(OpBuilder &b, Location loc, ArrayRef<Value> lanes,
                           Value memref, Value row, Value col) {
  storeRowBits(
      b, loc,
      f32AsBits(b, loc, lanes,
                cast<MemRefType>(memref.getType()).getElementType()),
      memref, row, col);
}

LogicalResult emitCombineRows(OpBuilder &b, Location loc, Value y, Value rows,
                              Value weights, Value out) {
  int64_t width = rowVectorWidth({y, out});
  int64_t hidden = cast<MemRefType>(out.getType()).getDimSize(1);
  if (width == 0 || cast<MemRefType>(y.getType()).getDimSize(1) != hidden)
    return failure();
  Value numTokens = dimOf(b, loc, out, 0);
  Value topK = dimOf(b, loc, rows, 1);
  Value yRows64 = toI64(b, loc, dimOf(b, loc, y, 0));
  Value zero64 = i64Const(b, loc, 0);
  rowVectorFor(
      b, loc, numTokens, hidden, width,
      [&](OpBuilder &nb, Location nloc, Value t, Value col) {
        SmallVector<Value> zeros(width, f32Const(nb, nloc, 0.0));
        SmallVector<Type> laneTypes(width, nb.getF32Type());
        auto overK = scf::ForOp::create(
            nb, nloc, indexConst(nb, nloc, 0), topK, indexConst(nb, nloc, 1),
            zeros, [&](OpBuilder &kb, Location kloc, Value k, ValueRange acc) {
              Value row = toI64(
                  kb, kloc,
                  memref::LoadOp::create(kb, kloc, rows, ValueRange{t, k}));
              Value valid = inHalfOpenRange(kb, kloc, row, zero64, yRows64);
              // A dropped pair (row outside y) adds nothing, as in the
              // reference.
              auto ifValid = scf::IfOp::create(kb, kloc, laneTypes, valid,
                                               /*withElseRegion=*/true);
              {
                OpBuilder::InsertionGuard guard(kb);
                kb.setInsertionPointToStart(ifValid.thenBlock());
                Value w = loadAsF32(kb, kloc, weights, ValueRange{t, k});
                SmallVector<Value> v = loadRowVectorAsF32(
                    kb, kloc, y, toIndex(kb, kloc, row), col, width);
                SmallVector<Value> sums;
                for (int64_t i = 0; i < width; ++i)
                  sums.push_back(arith::AddFOp::create(
                      kb, kloc, acc[i],
                      arith::MulFOp::create(kb, kloc, w, v[i])));
                scf::YieldOp::create(kb, kloc, sums);
                kb.setInsertionPointToStart(ifValid.elseBlock());
                scf::YieldOp::create(kb, kloc, acc);
              }
              scf::YieldOp::create(kb, kloc, ifValid.getResults());
            });
        SmallVector<Value> sums(overK.getResults());
        storeRowVectorFromF32(nb, nloc, sums, out, t, col);
      });
  return success();
}

LogicalResult emitGluRows(OpBuilder &b, Location loc, Activation act,
                          Value gate, Value up, Value h) {
  SmallVector<Value> buffers{gate, h};
  if (up)
    buffers.push_back(up);
  int64_t width = rowVectorWidth(buffers);
  if (width == 0)
    return failure();
  int64_t cols = cast<MemRefType>(h.getType()).getDimSize(1); // F
  rowVectorFor(
      b, loc, dimOf(b, loc, h, 0), cols, width,
      [&](OpBuilder &nb, Location nloc, Value r, Value col) {
        SmallVector<Value> g =
            loadRowVectorAsF32(nb, nloc, gate, r, col, width);
        SmallVector<Value> u =
            up ? loadRowVectorAsF32(nb, nloc, up, r, col, width)
               : loadRowVectorAsF32(
                     nb, nloc, gate, r,
                     arith::AddIOp::create(nb, nloc, col,
                                           indexConst(nb, nloc, cols)),
                     width);
        SmallVector<Value> lanes;
        for (int64_t i = 0; i < width; ++i)
          lanes.push_back(arith::MulFOp::create(
              nb, nloc, opmath::buildActivation(nb, nloc, act, g[i]), u[i]));
        storeRowVectorFromF32(nb, nloc, lanes, h, r, col);
      });
  return success();
}

} // namespace mlir::moe::gpu_schedules
