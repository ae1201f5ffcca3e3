//===- EntryNames.h - names and roles of entry arguments --------*- C++ -*-===//
//
// Entry points describe their arguments by `moe.name` / `moe.role`
// attributes (roles: input, weight, output, residual, cotangent, gradient).
// Arguments and results of a moe.layer are named after its operands (x,
// router_weight, bias, w_gate, w_up, w_down) and results (out, aux_loss);
// anything else is arg<i> / result<i>. Attributes already present win.
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_TRANSFORMS_ENTRYNAMES_H
#define MOEDIALECT_TRANSFORMS_ENTRYNAMES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::moe {

inline constexpr llvm::StringLiteral kNameAttr = "moe.name";
inline constexpr llvm::StringLiteral kRoleAttr = "moe.role";

/// Sets `moe.name` and `moe.role` on every argument and result of `func`
/// that lacks them.
void annotateEntryNames(func::FuncOp func);

/// The attribute dictionary {moe.name = name, moe.role = role}.
DictionaryAttr nameAndRole(MLIRContext *ctx, StringRef name, StringRef role);

/// The index of the argument of `func` whose `moe.name` is `name` (the
/// last, were there several).
std::optional<unsigned> argumentNamed(func::FuncOp func, StringRef name);

/// The index of the result of `func` whose `moe.name` is `name` (the last,
/// were there several).
std::optional<unsigned> resultNamed(func::FuncOp func, StringRef name);

} // namespace mlir::moe

#endif // MOEDIALECT_TRANSFORMS_ENTRYNAMES_H
