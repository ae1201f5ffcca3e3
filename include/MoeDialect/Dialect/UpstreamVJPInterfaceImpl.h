//===- UpstreamVJPInterfaceImpl.h - adjoints of upstream ops ----*- C++ -*-===//
#ifndef MOEDIALECT_DIALECT_UPSTREAMVJPINTERFACEIMPL_H
#define MOEDIALECT_DIALECT_UPSTREAMVJPINTERFACEIMPL_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class DialectRegistry;
namespace moe {
/// Attaches VJPOpInterface to the arith and tensor ops moe programs use
/// around the moe ops, when those dialects are loaded.
void registerUpstreamVJPInterfaceExternalModels(DialectRegistry &registry);

/// The ops registerUpstreamVJPInterfaceExternalModels covers, as a phrase for
/// diagnostics ("arith.addf/subf/..., tensor.empty and ...").
llvm::StringRef describeUpstreamVJPOps();
} // namespace moe
} // namespace mlir

#endif // MOEDIALECT_DIALECT_UPSTREAMVJPINTERFACEIMPL_H
