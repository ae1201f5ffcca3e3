//===- Grids.h - the shard.grid a collective moe op names -------*- C++ -*-===//
//
// What the lowerings of the collective moe ops (moe.all_to_all,
// moe.all_reduce, moe.aux_loss global) ask of the shard.grid they name: how
// many ranks communicate, and the grid's number in a runtime call.
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_DIALECT_GRIDS_H
#define MOEDIALECT_DIALECT_GRIDS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::moe {

/// The ranks on `axes` of the shard.grid `grid` that `op` names (1 when it
/// names none): the product of the axes' sizes. Reports at `op` a grid that
/// is not found, an axis out of range and an axis of dynamic size.
FailureOr<int64_t> ranksOn(Operation *op, FlatSymbolRefAttr grid,
                           ArrayRef<int64_t> axes);

/// The index of `grid` among the shard.grid ops of `op`'s module: how a
/// runtime call names it (an artifact's "grids" lists them in this order).
/// Reports at `op` a grid that is not a shard.grid of the module.
FailureOr<int64_t> gridIndex(Operation *op, FlatSymbolRefAttr grid);

} // namespace mlir::moe

#endif // MOEDIALECT_DIALECT_GRIDS_H
