//===- Passes.cpp - C API of the moe passes --------------------------------===//
#include "MoeDialect-c/Passes.h"

#include "MoeDialect/InitMoe.h"
#include "MoeDialect/Transforms/Passes.h"

#include "mlir/CAPI/Pass.h"

// The generated definitions name the passes' create/register functions
// unqualified.
using namespace mlir::moe;

#include "MoeDialect-c/Transforms.capi.cpp.inc"

void mlirRegisterMoePasses(void) { mlir::moe::registerMoePasses(); }
