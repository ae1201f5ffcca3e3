//===- ElementwiseToVectorRows.cpp - elementwise linalg as 16-byte chunks -===//
//
// An elementwise linalg op on buffers becomes loops over chunks of `width`
// consecutive elements of its last dimension (Passes.td says which ops):
//
//   scf.parallel (%row) = (0) to (rows) step (1) {          // block_x
//     scf.parallel (%col) = (0) to (N) step (width) {       // thread_x
//       %a = vector.load %in[%row, %col] : vector<width x elem>
//       %s = memref.load %per_row[%row]                       // broadcast
//       ... the body once per lane, on scalars ...
//       vector.store %lanes, %out[%row, %col]
//     }
//   }
//
// or, for short rows, one scf.parallel over (dims..., chunks). The block
// per row uses the mapping of RowSchedules.h (rowVectorFor), which
// gpu-launch-top-level-loops launches as a block per row.
//
//===----------------------------------------------------------------------===//
#include "../MoeToParallelLoops/RowSchedules.h"

#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::moe {
#define GEN_PASS_DEF_CONVERTELEMENTWISELINALGTOVECTORROWSPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

/// How a chunk reads one operand of the linalg op.
enum class Access {
  Lanes,     // `width` consecutive elements along the last loop dimension
  Broadcast, // one element, the same for every lane (map without that dim)
  Value,     // a scalar operand (linalg.fill's value), used as it is
};

/// What the rewrite of one op needs: the chunk width and each operand's
/// access, in operand order (inputs, then outputs).
struct ChunkPlan {
  int64_t width = 0;
  SmallVector<Access> accesses;
};

/// Whether the body only computes and reads memory (a gather's
/// memref.load): then running it per chunk instead of per element changes
/// nothing but the order of independent iterations.
bool bodyOnlyReads(linalg::LinalgOp op) {
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (isMemoryEffectFree(&inner))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(&inner);
    if (!effects || !effects.onlyHasEffect<MemoryEffects::Read>())
      return false;
  }
  return true;
}

/// Bytes of one element of a buffer that chunks may read or write whole;
/// 0 for element types with no byte size (i1, index).
int64_t elementBytes(MemRefType type) {
  Type elem = type.getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 != 0)
    return 0;
  return elem.getIntOrFloatBitWidth() / 8;
}

/// The chunk plan of `op`, or nothing when the op keeps its one thread per
/// element (the conditions of Passes.td).
std::optional<ChunkPlan> planChunks(linalg::LinalgOp op, int64_t accessBytes) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      op.getNumDpsInits() == 0 || !bodyOnlyReads(op))
    return std::nullopt;
  unsigned lastDim = op.getNumLoops() - 1;
  int64_t length = op.getStaticLoopRanges()[lastDim];
  if (ShapedType::isDynamic(length) || length <= 0)
    return std::nullopt;
  ChunkPlan plan;
  int64_t narrowest = accessBytes;
  for (OpOperand &operand : op->getOpOperands()) {
    bool isOutput = op.isDpsInit(&operand);
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type) {
      if (isOutput || isa<ShapedType>(operand.get().getType()))
        return std::nullopt;
      plan.accesses.push_back(Access::Value);
      continue;
    }
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type.getLayout().isIdentity() || !map.isProjectedPermutation() ||
        (isOutput && !map.isIdentity()))
      return std::nullopt;
    bool alongLastDim = map.isFunctionOfDim(lastDim);
    if (!alongLastDim) {
      plan.accesses.push_back(Access::Broadcast);
      continue;
    }
    // Contiguous lanes: the last dimension indexes the buffer's last one.
    if (map.getDimPosition(map.getNumResults() - 1) != lastDim)
      return std::nullopt;
    int64_t bytes = elementBytes(type);
    if (bytes == 0 || bytes > accessBytes)
      return std::nullopt;
    narrowest = std::min(narrowest, bytes);
    plan.accesses.push_back(Access::Lanes);
  }
  int64_t width = accessBytes / narrowest;
  while (width > 1 && length % width != 0)
    width /= 2;
  if (width < 2)
    return std::nullopt;
  plan.width = width;
  return plan;
}

/// The buffer indices `map` (a projected permutation) gives for the loop
/// indices `ivs`.
SmallVector<Value> indicesOf(AffineMap map, ValueRange ivs) {
  SmallVector<Value> indices;
  for (unsigned i = 0; i < map.getNumResults(); ++i)
    indices.push_back(ivs[map.getDimPosition(i)]);
  return indices;
}

/// An integer type of `type`'s width: lanes move in and out of vectors as
/// integers, so that no target needs arithmetic on vectors of bf16 or FP8
/// (as RowSchedules.cpp does).
Type bitsTypeOf(Type elem) {
  return IntegerType::get(elem.getContext(), elem.getIntOrFloatBitWidth());
}

/// Alignment of a chunk access: a chunk starts at an element offset that is
/// a multiple of `width` (the width divides the last dimension, layouts are
/// the identity), so at a multiple of its size in bytes; buffers are
/// aligned to at least kRowAccessBytes.
llvm::MaybeAlign chunkAlignment(Type elem, int64_t width) {
  int64_t bytes = width * elem.getIntOrFloatBitWidth() / 8;
  return llvm::MaybeAlign(
      std::min<int64_t>(bytes, moe::gpu_schedules::kRowAccessBytes));
}

/// The `width` elements of `memref` from `indices` on, one vector.load.
SmallVector<Value> loadLanes(OpBuilder &b, Location loc, Value memref,
                             ValueRange indices, int64_t width) {
  Type elem = cast<MemRefType>(memref.getType()).getElementType();
  Type bitsElem = bitsTypeOf(elem);
  Value chunk = vector::LoadOp::create(
      b, loc, VectorType::get({width}, elem), memref, indices,
      /*nontemporal=*/false, chunkAlignment(elem, width));
  if (bitsElem != elem)
    chunk = vector::BitCastOp::create(
        b, loc, VectorType::get({width}, bitsElem), chunk);
  SmallVector<Value> lanes;
  for (int64_t i = 0; i < width; ++i) {
    Value lane = vector::ExtractOp::create(b, loc, chunk, i);
    if (bitsElem != elem)
      lane = arith::BitcastOp::create(b, loc, elem, lane);
    lanes.push_back(lane);
  }
  return lanes;
}

/// Stores `lanes` at `memref[indices ...]` with one vector.store.
void storeLanes(OpBuilder &b, Location loc, ArrayRef<Value> lanes, Value memref,
                ValueRange indices) {
  Type elem = cast<MemRefType>(memref.getType()).getElementType();
  Type bitsElem = bitsTypeOf(elem);
  int64_t width = lanes.size();
  SmallVector<Value> bits;
  for (Value lane : lanes)
    bits.push_back(bitsElem == elem
                       ? lane
                       : arith::BitcastOp::create(b, loc, bitsElem, lane));
  Value chunk = vector::FromElementsOp::create(
      b, loc, VectorType::get({width}, bitsElem), bits);
  if (bitsElem != elem)
    chunk = vector::BitCastOp::create(b, loc, VectorType::get({width}, elem),
                                      chunk);
  vector::StoreOp::create(b, loc, chunk, memref, indices,
                          /*nontemporal=*/false, chunkAlignment(elem, width));
}

/// One chunk of `op`: `ivs` are the loop indices of its first element (the
/// last one a multiple of the width).
void emitChunk(OpBuilder &b, Location loc, linalg::LinalgOp op,
               const ChunkPlan &plan, ValueRange ivs) {
  Block *body = op.getBlock();
  int64_t width = plan.width;
  unsigned lastDim = op.getNumLoops() - 1;
  // Per lane, the value of each block argument (unused ones stay unread).
  SmallVector<IRMapping> lanes(width);
  for (auto [operand, access] : llvm::zip(op->getOpOperands(), plan.accesses)) {
    BlockArgument arg = body->getArgument(operand.getOperandNumber());
    if (arg.use_empty())
      continue;
    Value value = operand.get();
    if (access == Access::Value) {
      for (IRMapping &lane : lanes)
        lane.map(arg, value);
      continue;
    }
    SmallVector<Value> indices =
        indicesOf(op.getMatchingIndexingMap(&operand), ivs);
    if (access == Access::Broadcast) {
      Value element = memref::LoadOp::create(b, loc, value, indices);
      for (IRMapping &lane : lanes)
        lane.map(arg, element);
      continue;
    }
    for (auto [lane, element] :
         llvm::zip(lanes, loadLanes(b, loc, value, indices, width)))
      lane.map(arg, element);
  }
  // The body once per lane; linalg.index of the last dimension is the
  // chunk's column plus the lane.
  SmallVector<SmallVector<Value>> results(op.getNumDpsInits());
  for (int64_t i = 0; i < width; ++i) {
    IRMapping &lane = lanes[i];
    for (Operation &inner : body->without_terminator()) {
      auto index = dyn_cast<linalg::IndexOp>(inner);
      if (!index) {
        b.clone(inner, lane);
        continue;
      }
      Value position = ivs[index.getDim()];
      if (index.getDim() == lastDim && i != 0)
        position = arith::AddIOp::create(
            b, loc, position, arith::ConstantIndexOp::create(b, loc, i));
      lane.map(index.getResult(), position);
    }
    for (auto [j, yielded] :
         llvm::enumerate(body->getTerminator()->getOperands()))
      results[j].push_back(lane.lookupOrDefault(yielded));
  }
  for (auto [init, lanesOfInit] : llvm::zip(op.getDpsInits(), results))
    storeLanes(b, loc, lanesOfInit, init, ivs);
}

/// `row` (a linear index over `dims`, last fastest) as one index per dim.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value row,
                               ArrayRef<Value> dims) {
  SmallVector<Value> indices(dims.size());
  for (int64_t d = dims.size() - 1; d >= 0; --d) {
    if (d == 0) {
      indices[d] = row;
      break;
    }
    indices[d] = b.createOrFold<arith::RemUIOp>(loc, row, dims[d]);
    row = b.createOrFold<arith::DivUIOp>(loc, row, dims[d]);
  }
  return indices;
}

struct ElementwiseToVectorRowsPass
    : mlir::moe::impl::ConvertElementwiseLinalgToVectorRowsPassBase<
          ElementwiseToVectorRowsPass> {
  using Base::Base;

  void rewrite(linalg::LinalgOp op, const ChunkPlan &plan) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    // Every output is indexed by the identity: the first one's shape is the
    // iteration space.
    Value shape = op.getDpsInits()[0];
    unsigned rank = op.getNumLoops();
    SmallVector<Value> dims;
    for (unsigned d = 0; d < rank; ++d)
      dims.push_back(b.createOrFold<memref::DimOp>(loc, shape, d));
    int64_t length = op.getStaticLoopRanges()[rank - 1];
    if (rank >= 2 && length / plan.width >= minRowVectors) {
      ArrayRef<Value> outer = ArrayRef<Value>(dims).drop_back();
      Value rows = outer.front();
      for (Value dim : outer.drop_front())
        rows = b.createOrFold<arith::MulIOp>(loc, rows, dim);
      moe::gpu_schedules::rowVectorFor(
          b, loc, rows, length, plan.width,
          [&](OpBuilder &nb, Location nloc, Value row, Value col) {
            SmallVector<Value> ivs = delinearize(nb, nloc, row, outer);
            ivs.push_back(col);
            emitChunk(nb, nloc, op, plan, ivs);
          });
    } else {
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      SmallVector<Value> lbs(rank, zero), steps(rank, one);
      steps.back() = arith::ConstantIndexOp::create(b, loc, plan.width);
      scf::ParallelOp::create(
          b, loc, lbs, dims, steps,
          [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
            emitChunk(nb, nloc, op, plan, ivs);
          });
    }
    op->erase();
  }

  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, ChunkPlan>> rewrites;
    // Top-level ops only: they become kernels of their own.
    for (Block &block : getOperation().getBody())
      for (auto op : block.getOps<linalg::LinalgOp>())
        if (std::optional<ChunkPlan> plan = planChunks(op, accessBytes))
          rewrites.emplace_back(op, std::move(*plan));
    for (auto &[op, plan] : rewrites)
      rewrite(op, plan);
  }
};

} // namespace
