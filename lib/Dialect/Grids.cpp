//===- Grids.cpp - the shard.grid a collective moe op names ---------------===//
#include "MoeDialect/Dialect/Grids.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

FailureOr<int64_t> moe::ranksOn(Operation *op, FlatSymbolRefAttr grid,
                                ArrayRef<int64_t> axes) {
  if (!grid)
    return 1;
  auto gridOp = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(op, grid);
  if (!gridOp)
    return op->emitOpError("grid @") << grid.getValue() << " not found",
           failure();
  ArrayRef<int64_t> shape = gridOp.getShape();
  int64_t ranks = 1;
  for (int64_t axis : axes) {
    if (axis < 0 || axis >= int64_t(shape.size()))
      return op->emitOpError("grid axis ")
                 << axis << " is out of range for grid @" << grid.getValue()
                 << " of rank " << shape.size(),
             failure();
    if (ShapedType::isDynamic(shape[axis]))
      return op->emitOpError("grid @")
                 << grid.getValue() << " axis " << axis
                 << " has a dynamic size; a compiled layer runs on a known "
                    "number of ranks",
             failure();
    ranks *= shape[axis];
  }
  return ranks;
}

FailureOr<int64_t> moe::gridIndex(Operation *op, FlatSymbolRefAttr grid) {
  auto module = op->getParentOfType<ModuleOp>();
  int64_t index = 0;
  if (module)
    for (auto gridOp : module.getOps<shard::GridOp>()) {
      if (gridOp.getSymName() == grid.getValue())
        return index;
      ++index;
    }
  return op->emitOpError("grid @")
             << grid.getValue() << " is not a shard.grid of the module",
         failure();
}
