//===- Passes.h - C API of the moe passes -------------------------*- C -*-===//
//
// mlirRegisterMoePasses() makes every moe pass and pipeline known by name
// (for mlirParsePassPipeline); Transforms.capi.h.inc, generated from
// MoeDialect/Transforms/Passes.td, creates and registers the moe → moe passes
// one by one (mlirCreateMoeTransformsMoeExpandLayerPass, ...), as upstream's
// mlir-c/Transforms.h does for its passes.
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_C_PASSES_H
#define MOEDIALECT_C_PASSES_H

#include "mlir-c/Pass.h"

#include "MoeDialect-c/Transforms.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every moe pass (transforms and conversions) and pipeline:
/// what mlir::moe::registerMoePasses registers.
MLIR_CAPI_EXPORTED void mlirRegisterMoePasses(void);

#ifdef __cplusplus
}
#endif

#endif // MOEDIALECT_C_PASSES_H
