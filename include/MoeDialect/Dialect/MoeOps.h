//===- MoeOps.h - operations of the moe dialect -----------------*- C++ -*-===//
#ifndef MOEDIALECT_DIALECT_MOEOPS_H
#define MOEDIALECT_DIALECT_MOEOPS_H

#include "MoeDialect/Dialect/MoeDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "MoeDialect/Dialect/VJPContext.h"

#include "MoeDialect/Dialect/MoeEnums.h.inc"
#include "MoeDialect/Dialect/MoeInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "MoeDialect/Dialect/MoeAttrs.h.inc"

namespace mlir::moe {
/// Side-effect resource of collective communication: moe.all_to_all reads
/// and writes it, so collectives are neither removed nor reordered.
struct CommunicationResource
    : public SideEffects::Resource::Base<CommunicationResource> {
  StringRef getName() final { return "moe.communication"; }
};
} // namespace mlir::moe

#define GET_OP_CLASSES
#include "MoeDialect/Dialect/MoeOps.h.inc"

#endif // MOEDIALECT_DIALECT_MOEOPS_H
