//===- MoeOpFolders.cpp - folds of moe ops ---------------------------------===//
//
// Only folds that are exactly right live here. A quantize/dequantize pair is
// deliberately not folded: the round trip through FP8 changes values.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"

using namespace mlir;
using namespace mlir::moe;

/// An exchange over a one-rank axis sends everything to itself: the contract
/// defines it as the identity, so it folds to its operands when the types
/// agree (a different output capacity would need a resize, not a fold).
LogicalResult AllToAllOp::fold(FoldAdaptor,
                               SmallVectorImpl<OpFoldResult> &results) {
  // On memrefs there is no result to fold to.
  if (!hasPureTensorSemantics() ||
      getInput().getType() != getOutput().getType() ||
      getSendSizes().getType() != getRecvSizes().getType())
    return failure();
  auto grid =
      SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(*this, getGridAttr());
  if (!grid)
    return failure();
  ArrayRef<int64_t> shape = grid.getShape();
  int64_t axis = getGridAxis();
  if (axis < 0 || axis >= (int64_t)shape.size() || shape[axis] != 1)
    return failure();
  results.push_back(getInput());
  results.push_back(getSendSizes());
  return success();
}

/// A sum over one rank is its input: folds when the types agree (on
/// tensors; on memrefs there is no result to fold to).
LogicalResult AllReduceOp::fold(FoldAdaptor,
                                SmallVectorImpl<OpFoldResult> &results) {
  if (!hasPureTensorSemantics() ||
      getInput().getType() != getOutput().getType())
    return failure();
  auto grid =
      SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(*this, getGridAttr());
  if (!grid)
    return failure();
  ArrayRef<int64_t> shape = grid.getShape();
  for (int64_t axis : getGridAxes())
    if (axis < 0 || axis >= (int64_t)shape.size() || shape[axis] != 1)
      return failure();
  results.push_back(getInput());
  return success();
}
