//===- Dialects.cpp - C API of the moe dialect -----------------------------===//
#include "MoeDialect-c/Dialects.h"

#include "MoeDialect/Dialect/MoeDialect.h"
#include "MoeDialect/InitMoe.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Moe, moe, mlir::moe::MoeDialect)

void mlirRegisterMoeDialects(MlirDialectRegistry registry) {
  mlir::moe::registerMoeDialects(*unwrap(registry));
}
