//===- Dialects.h - C API of the moe dialect ----------------------*- C -*-===//
//
// The moe dialect for the MLIR C API, as upstream dialects expose theirs
// (mlir-c/Dialect/*.h): a dialect handle, and one call that adds what a moe
// program needs to a registry.
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_C_DIALECTS_H
#define MOEDIALECT_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__moe__(): the moe dialect alone, for
/// mlirDialectHandleInsertDialect / RegisterDialect / LoadDialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Moe, moe);

/// Adds to `registry` the moe dialect, the upstream dialects moe programs use
/// (arith, func, linalg, math, shard, tensor) and moe's external interface
/// models (bufferization, VJP): what mlir::moe::registerMoeDialects adds.
MLIR_CAPI_EXPORTED void mlirRegisterMoeDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // MOEDIALECT_C_DIALECTS_H
