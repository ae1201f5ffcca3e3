//===- TransposeToTiles.cpp - transposes as tiles in shared memory --------===//
//
// A linalg.transpose of the last two dimensions ([..., A, B] -> [..., B, A])
// as a block per T x T tile (Passes.td says which ops and why):
//
//   scf.parallel (%tile) = (0) to (tiles) step (1) {          // block_x
//     %smem = memref.alloca() : memref<T x T x iN, workgroup>
//     scf.parallel (%t) = (0) to (256) step (1) {             // thread_x
//       %v = vector.load %in[..., a0 + r, b0 + V·c]           // clamped
//       vector.store %v, %smem[r, (c xor swizzle(r)) · V]
//     }
//     scf.parallel (%t) = (0) to (256) step (1) {             // thread_x
//       %e_k = memref.load %smem[V·c + k, column(j)]   k < V  // a column
//       scf.if (in range)                                     // masked
//         vector.store vector(%e_0 ... %e_V-1), %out[..., b0 + j, a0 + V·c]
//     }
//   }
//
// with V the elements of 16 bytes, c = t mod 8 and r, j = t / 8 + 32·pass.
//
//===----------------------------------------------------------------------===//
#include "../MoeToParallelLoops/RowSchedules.h"

#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

namespace mlir::moe {
#define GEN_PASS_DEF_CONVERTLINALGTRANSPOSETOTILESPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

/// Bytes of one tile row, and of one output row segment of a tile: a
/// 128-byte line, eight 16-byte chunks (the xor swizzle spans them).
constexpr int64_t kTileRowBytes = 128;
constexpr int64_t kChunkBytes = moe::gpu_schedules::kRowAccessBytes;
constexpr int64_t kChunksPerRow = kTileRowBytes / kChunkBytes;
/// Threads of a tile's block; a warp covers 32 / kChunksPerRow = 4 rows.
constexpr int64_t kThreads = 256;
constexpr int64_t kRowsPerPass = kThreads / kChunksPerRow;

/// How one transpose is tiled.
struct TilePlan {
  Type element;
  /// Integers of the element's width: what the tile holds.
  Type bits;
  int64_t tile = 0;  // T: elements per tile row and column
  int64_t chunk = 0; // V: elements per 16-byte chunk
  /// Elements per global access of an input row (dividing B) and of an
  /// output row (dividing A): a power of two, at most `chunk`.
  int64_t readWidth = 0;
  int64_t writeWidth = 0;
};

/// The largest power of two at most `limit` that divides `length` (1 for
/// dynamic lengths).
int64_t widthDividing(int64_t length, int64_t limit) {
  if (ShapedType::isDynamic(length))
    return 1;
  int64_t width = limit;
  while (width > 1 && length % width != 0)
    width /= 2;
  return width;
}

/// The plan of `op`, or nothing when it keeps the generic path.
std::optional<TilePlan> planTiles(linalg::TransposeOp op) {
  if (!op.hasPureBufferSemantics())
    return std::nullopt;
  auto input = dyn_cast<MemRefType>(op.getInput().getType());
  auto init = dyn_cast<MemRefType>(op.getInit().getType());
  if (!input || !init || !input.getLayout().isIdentity() ||
      !init.getLayout().isIdentity() || input.getRank() < 2)
    return std::nullopt;
  ArrayRef<int64_t> permutation = op.getPermutation();
  int64_t rank = input.getRank();
  for (int64_t d = 0; d < rank - 2; ++d)
    if (permutation[d] != d)
      return std::nullopt;
  if (permutation[rank - 2] != rank - 1 || permutation[rank - 1] != rank - 2)
    return std::nullopt;
  // With A or B of 1 the two layouts are the same bytes: the generic
  // path's thread per element reads and writes consecutive elements.
  if (input.getDimSize(rank - 2) == 1 || input.getDimSize(rank - 1) == 1)
    return std::nullopt;
  Type element = input.getElementType();
  if (!element.isIntOrFloat())
    return std::nullopt;
  unsigned bitWidth = element.getIntOrFloatBitWidth();
  if (bitWidth != 8 && bitWidth != 16 && bitWidth != 32)
    return std::nullopt;
  int64_t bytes = bitWidth / 8;
  TilePlan plan;
  plan.element = element;
  plan.bits = IntegerType::get(op.getContext(), bitWidth);
  plan.tile = kTileRowBytes / bytes;
  plan.chunk = kChunkBytes / bytes;
  plan.readWidth = widthDividing(input.getDimSize(rank - 1), plan.chunk);
  plan.writeWidth = widthDividing(input.getDimSize(rank - 2), plan.chunk);
  return plan;
}

Value index(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Alignment of an access of `width` elements of `plan.element` at an
/// element offset that is a multiple of `width` (buffers are aligned to 16
/// bytes).
llvm::MaybeAlign accessAlignment(const TilePlan &plan, int64_t width) {
  return llvm::MaybeAlign(width * plan.bits.getIntOrFloatBitWidth() / 8);
}

/// `x && y` where either may be null (true).
Value both(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x || !y)
    return x ? x : y;
  return arith::AndIOp::create(b, loc, x, y);
}

/// `value < bound`, or null (true) when `exact` says the tiles never cross
/// the bound.
Value below(OpBuilder &b, Location loc, Value value, Value bound, bool exact) {
  if (exact)
    return nullptr;
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, value, bound);
}

/// Runs `body` where `condition` holds (always when it is null).
void guarded(OpBuilder &b, Location loc, Value condition,
             llvm::function_ref<void(OpBuilder &)> body) {
  if (!condition) {
    body(b);
    return;
  }
  auto guard = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
  OpBuilder inner = OpBuilder::atBlockBegin(guard.thenBlock());
  body(inner);
}

/// Where a block's tile lies: the batch indices, the tile's first input
/// row a0 and column b0, the input's A × B, and which bounds partial tiles
/// can cross (only those are tested).
struct TileFrame {
  SmallVector<Value> batch;
  Value a0, b0;
  Value rowsA, colsB;
  bool exactA = false, exactB = false;

  /// The indices of (row, col) in a buffer of rank batch + 2.
  SmallVector<Value> at(Value row, Value col) const {
    SmallVector<Value> indices(batch);
    indices.push_back(row);
    indices.push_back(col);
    return indices;
  }
};

/// The physical column of the chunk `chunkIndex` of tile row `row`: the
/// chunk index xor'ed with (row / chunk) mod 8, times the chunk.
Value swizzledChunkColumn(OpBuilder &b, Location loc, const TilePlan &plan,
                          Value row, Value chunkIndex) {
  Value group = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, row, index(b, loc, plan.chunk)),
      index(b, loc, kChunksPerRow));
  Value physical = arith::XOrIOp::create(b, loc, chunkIndex, group);
  return arith::MulIOp::create(b, loc, physical, index(b, loc, plan.chunk));
}

/// A zero vector of `type`.
Value zeros(OpBuilder &b, Location loc, VectorType type) {
  return arith::ConstantOp::create(
      b, loc, type,
      DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
}

/// One piece of an input row, `pieceType` (a vector of the element type)
/// as `pieceBits` (the same of integers). A single element is read with a
/// scalar load: a vector of one bf16 would reach the CPU's code generator
/// as one, which it promotes to f32 and back (a libgcc call).
Value loadPiece(OpBuilder &b, Location loc, const TilePlan &plan, Value input,
                ValueRange indices, VectorType pieceType,
                VectorType pieceBits) {
  if (pieceType.getNumElements() == 1) {
    Value element = memref::LoadOp::create(b, loc, input, indices);
    if (plan.element != plan.bits)
      element = arith::BitcastOp::create(b, loc, plan.bits, element);
    return vector::BroadcastOp::create(b, loc, pieceBits, element);
  }
  Value v = vector::LoadOp::create(
      b, loc, pieceType, input, indices,
      /*nontemporal=*/false, accessAlignment(plan, pieceType.getNumElements()));
  if (pieceType != pieceBits)
    v = vector::BitCastOp::create(b, loc, pieceBits, v);
  return v;
}

/// Stores `bits` (a vector of integers) into `output` at `indices` as
/// `pieceType`; a single element with a scalar store (see loadPiece).
void storePiece(OpBuilder &b, Location loc, const TilePlan &plan, Value bits,
                Value output, ValueRange indices, VectorType pieceType) {
  if (pieceType.getNumElements() == 1) {
    Value element = vector::ExtractOp::create(b, loc, bits, 0);
    if (plan.element != plan.bits)
      element = arith::BitcastOp::create(b, loc, plan.element, element);
    memref::StoreOp::create(b, loc, element, output, indices);
    return;
  }
  if (pieceType.getElementType() != plan.bits)
    bits = vector::BitCastOp::create(b, loc, pieceType, bits);
  vector::StoreOp::create(b, loc, bits, output, indices,
                          /*nontemporal=*/false,
                          accessAlignment(plan, pieceType.getNumElements()));
}

/// `value`, or at most `last` where `exact` does not say the tiles never
/// cross the bound.
Value clamped(OpBuilder &b, Location loc, Value value, Value last, bool exact) {
  return exact ? value : arith::MinUIOp::create(b, loc, value, last);
}

/// Phase 1 for thread `t`: in pass p it reads chunk (t mod 8) of tile row
/// 32·p + t / 8 from `input` (one load per piece of `readWidth`) and stores
/// it into the tile, swizzled. Past the edges of a partial tile the reads
/// are clamped to the last row and the last piece of a row (in bounds,
/// without branches; phase 2 never writes what they hold). All passes'
/// loads come before their stores, so that they are in flight together.
void emitLoadPhase(OpBuilder &b, Location loc, const TilePlan &plan,
                   const TileFrame &frame, Value t, Value input, Value tile) {
  Value chunkIndex =
      arith::RemUIOp::create(b, loc, t, index(b, loc, kChunksPerRow));
  Value rowInPass =
      arith::DivUIOp::create(b, loc, t, index(b, loc, kChunksPerRow));
  Value firstCol =
      arith::MulIOp::create(b, loc, chunkIndex, index(b, loc, plan.chunk));
  Value col = arith::AddIOp::create(b, loc, frame.b0, firstCol);
  // readWidth divides B: the last piece of a row starts at B - readWidth.
  Value lastRow =
      b.createOrFold<arith::SubIOp>(loc, frame.rowsA, index(b, loc, 1));
  Value lastPiece = b.createOrFold<arith::SubIOp>(
      loc, frame.colsB, index(b, loc, plan.readWidth));
  auto chunkType = VectorType::get({plan.chunk}, plan.bits);
  auto pieceType = VectorType::get({plan.readWidth}, plan.element);
  auto pieceBits = VectorType::get({plan.readWidth}, plan.bits);
  SmallVector<std::pair<Value, Value>> loaded; // (tile row, chunk)
  for (int64_t pass = 0; pass < plan.tile / kRowsPerPass; ++pass) {
    Value r = arith::AddIOp::create(b, loc, rowInPass,
                                    index(b, loc, pass * kRowsPerPass));
    Value row = clamped(b, loc, arith::AddIOp::create(b, loc, frame.a0, r),
                        lastRow, frame.exactA);
    Value chunk =
        plan.readWidth == plan.chunk ? Value() : zeros(b, loc, chunkType);
    for (int64_t piece = 0; piece < plan.chunk / plan.readWidth; ++piece) {
      Value pieceCol =
          piece == 0 ? col
                     : arith::AddIOp::create(
                           b, loc, col, index(b, loc, piece * plan.readWidth));
      pieceCol = clamped(b, loc, pieceCol, lastPiece, frame.exactB);
      Value bits = loadPiece(b, loc, plan, input, frame.at(row, pieceCol),
                             pieceType, pieceBits);
      chunk = plan.readWidth == plan.chunk
                  ? bits
                  : vector::InsertStridedSliceOp::create(
                        b, loc, bits, chunk,
                        ArrayRef<int64_t>{piece * plan.readWidth},
                        ArrayRef<int64_t>{1})
                        .getResult();
    }
    loaded.emplace_back(r, chunk);
  }
  for (auto [r, chunk] : loaded) {
    Value column = swizzledChunkColumn(b, loc, plan, r, chunkIndex);
    vector::StoreOp::create(b, loc, chunk, tile, ValueRange{r, column},
                            /*nontemporal=*/false,
                            llvm::MaybeAlign(kChunkBytes));
  }
}

/// Phase 2 for thread `t`: in pass p it gathers tile column
/// j = 32·p + t / 8 over the tile rows [c·chunk, (c + 1)·chunk) with
/// c = t mod 8 (one element per row; these rows' swizzle group is c), which
/// is chunk c of output row b0 + j, and stores it into `output`: a piece of
/// `writeWidth` elements at a time, each read from the tile and stored
/// under its own mask (none past the edges), so that a piece's reads and
/// its store stay together.
void emitStorePhase(OpBuilder &b, Location loc, const TilePlan &plan,
                    const TileFrame &frame, Value t, Value tile, Value output) {
  Value chunkIndex =
      arith::RemUIOp::create(b, loc, t, index(b, loc, kChunksPerRow));
  Value columnInPass =
      arith::DivUIOp::create(b, loc, t, index(b, loc, kChunksPerRow));
  Value chunkElems = index(b, loc, plan.chunk);
  Value firstRow = arith::MulIOp::create(b, loc, chunkIndex, chunkElems);
  Value col = arith::AddIOp::create(b, loc, frame.a0, firstRow);
  auto pieceType = VectorType::get({plan.writeWidth}, plan.element);
  auto pieceBits = VectorType::get({plan.writeWidth}, plan.bits);
  for (int64_t pass = 0; pass < plan.tile / kRowsPerPass; ++pass) {
    Value j = arith::AddIOp::create(b, loc, columnInPass,
                                    index(b, loc, pass * kRowsPerPass));
    // Element j of chunk row firstRow + k: chunk (j / chunk) xor c, element
    // j mod chunk.
    Value physical = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc,
            arith::XOrIOp::create(b, loc,
                                  arith::DivUIOp::create(b, loc, j, chunkElems),
                                  chunkIndex),
            chunkElems),
        arith::RemUIOp::create(b, loc, j, chunkElems));
    Value row = arith::AddIOp::create(b, loc, frame.b0, j);
    Value rowInRange = below(b, loc, row, frame.colsB, frame.exactB);
    for (int64_t piece = 0; piece < plan.chunk / plan.writeWidth; ++piece) {
      int64_t first = piece * plan.writeWidth;
      Value pieceCol =
          piece == 0 ? col
                     : arith::AddIOp::create(b, loc, col, index(b, loc, first));
      // writeWidth divides A: a piece lies wholly inside or past the edge.
      Value inRange = both(b, loc, rowInRange,
                           below(b, loc, pieceCol, frame.rowsA, frame.exactA));
      guarded(b, loc, inRange, [&](OpBuilder &sb) {
        SmallVector<Value> elements;
        for (int64_t k = first; k < first + plan.writeWidth; ++k) {
          Value tileRow = k == 0 ? firstRow
                                 : arith::AddIOp::create(sb, loc, firstRow,
                                                         index(sb, loc, k));
          elements.push_back(memref::LoadOp::create(
              sb, loc, tile, ValueRange{tileRow, physical}));
        }
        Value bits =
            vector::FromElementsOp::create(sb, loc, pieceBits, elements);
        storePiece(sb, loc, plan, bits, output, frame.at(row, pieceCol),
                   pieceType);
      });
    }
  }
}

struct TransposeToTilesPass
    : mlir::moe::impl::ConvertLinalgTransposeToTilesPassBase<
          TransposeToTilesPass> {
  using Base::Base;

  /// The tile buffer: at the start of the function (hoistTiles), else in
  /// workgroup memory at `b` (the block's body).
  Value allocateTile(OpBuilder &b, Location loc, const TilePlan &plan) {
    SmallVector<int64_t> shape = {plan.tile, plan.tile};
    auto alignment = b.getI64IntegerAttr(kChunkBytes);
    if (hoistTiles) {
      OpBuilder entry =
          OpBuilder::atBlockBegin(&getOperation().getBody().front());
      return memref::AllocaOp::create(entry, loc,
                                      MemRefType::get(shape, plan.bits),
                                      ValueRange{}, alignment);
    }
    auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                                gpu::AddressSpace::Workgroup);
    return memref::AllocaOp::create(
        b, loc, MemRefType::get(shape, plan.bits, AffineMap(), workgroup),
        ValueRange{}, alignment);
  }

  void rewrite(linalg::TransposeOp op, const TilePlan &plan) {
    OpBuilder b(op);
    // Kernel names say what they compute (gpu-launch-top-level-loops takes
    // the outermost NameLoc), also for transposes other passes create.
    Location loc = NameLoc::get(b.getStringAttr("transpose"), op.getLoc());
    Value input = op.getInput(), output = op.getInit();
    auto inputType = cast<MemRefType>(input.getType());
    int64_t rank = inputType.getRank();
    SmallVector<Value> batchDims;
    for (int64_t d = 0; d < rank - 2; ++d)
      batchDims.push_back(b.createOrFold<memref::DimOp>(loc, input, d));
    TileFrame frame;
    frame.rowsA = b.createOrFold<memref::DimOp>(loc, input, rank - 2);
    frame.colsB = b.createOrFold<memref::DimOp>(loc, input, rank - 1);
    auto multipleOfTile = [&](int64_t d) {
      int64_t size = inputType.getDimSize(d);
      return !ShapedType::isDynamic(size) && size % plan.tile == 0;
    };
    frame.exactA = multipleOfTile(rank - 2);
    frame.exactB = multipleOfTile(rank - 1);

    Value tileSize = index(b, loc, plan.tile);
    Value tilesA =
        b.createOrFold<arith::CeilDivUIOp>(loc, frame.rowsA, tileSize);
    Value tilesB =
        b.createOrFold<arith::CeilDivUIOp>(loc, frame.colsB, tileSize);
    Value numTiles = b.createOrFold<arith::MulIOp>(loc, tilesA, tilesB);
    for (Value dim : batchDims)
      numTiles = b.createOrFold<arith::MulIOp>(loc, numTiles, dim);

    auto tiles = scf::ParallelOp::create(
        b, loc, ValueRange{index(b, loc, 0)}, ValueRange{numTiles},
        ValueRange{index(b, loc, 1)},
        [&](OpBuilder &bb, Location bloc, ValueRange ivs) {
          // Tile (batch..., ta, tb), tb fastest: neighbouring blocks read
          // neighbouring 128-byte pieces of the same input rows.
          Value rest = ivs[0];
          Value tileB = arith::RemUIOp::create(bb, bloc, rest, tilesB);
          rest = arith::DivUIOp::create(bb, bloc, rest, tilesB);
          Value tileA = arith::RemUIOp::create(bb, bloc, rest, tilesA);
          rest = arith::DivUIOp::create(bb, bloc, rest, tilesA);
          TileFrame blockFrame = frame;
          blockFrame.batch.resize(batchDims.size());
          for (int64_t d = batchDims.size() - 1; d >= 0; --d) {
            if (d == 0) {
              blockFrame.batch[d] = rest;
              break;
            }
            blockFrame.batch[d] =
                arith::RemUIOp::create(bb, bloc, rest, batchDims[d]);
            rest = arith::DivUIOp::create(bb, bloc, rest, batchDims[d]);
          }
          blockFrame.a0 = arith::MulIOp::create(bb, bloc, tileA, tileSize);
          blockFrame.b0 = arith::MulIOp::create(bb, bloc, tileB, tileSize);
          Value tile = allocateTile(bb, bloc, plan);
          moe::gpu_schedules::threadsFor(
              bb, bloc, kThreads, [&](OpBuilder &tb, Location tloc, Value t) {
                emitLoadPhase(tb, tloc, plan, blockFrame, t, input, tile);
              });
          moe::gpu_schedules::threadsFor(
              bb, bloc, kThreads, [&](OpBuilder &tb, Location tloc, Value t) {
                emitStorePhase(tb, tloc, plan, blockFrame, t, tile, output);
              });
        });
    moe::gpu_schedules::mapLoopTo(tiles, gpu::Processor::BlockX);
    op->erase();
  }

  void runOnOperation() override {
    SmallVector<std::pair<linalg::TransposeOp, TilePlan>> rewrites;
    // Top-level ops only: they become kernels of their own.
    for (Block &block : getOperation().getBody())
      for (auto op : block.getOps<linalg::TransposeOp>())
        if (std::optional<TilePlan> plan = planTiles(op))
          rewrites.emplace_back(op, *plan);
    for (auto &[op, plan] : rewrites)
      rewrite(op, plan);
  }
};

} // namespace
