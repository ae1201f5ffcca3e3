//===- StraightLineBody.h - functions of one block ----------------*- C++ -*-===//
//
// The moe passes that rewrite a function's signature from its return (the
// VJP, expert parallelism, FP8 placement, the entry ABI) expect straight-line
// code: one block ending in func.return. Anything else is a diagnostic at the
// function, never a cast of another terminator (fuzz-found crashes).
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_TRANSFORMS_STRAIGHTLINEBODY_H
#define MOEDIALECT_TRANSFORMS_STRAIGHTLINEBODY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::moe {

/// Succeeds when `func`'s body is one block ending in func.return; else
/// emits "<pass>: expects a function body of one block ending in
/// func.return (straight-line code); @f has N blocks" at `func`.
inline LogicalResult requireStraightLineBody(func::FuncOp func,
                                             StringRef pass) {
  Region &body = func.getBody();
  if (body.hasOneBlock() && body.front().mightHaveTerminator() &&
      isa<func::ReturnOp>(body.front().getTerminator()))
    return success();
  return func.emitOpError(pass)
         << ": expects a function body of one block ending in func.return "
            "(straight-line code); @"
         << func.getSymName() << " has " << body.getBlocks().size()
         << " blocks";
}

} // namespace mlir::moe

#endif // MOEDIALECT_TRANSFORMS_STRAIGHTLINEBODY_H
