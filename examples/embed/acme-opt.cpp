//===- acme-opt.cpp - another compiler's opt tool that embeds moe ----------===//
//
// Shows the two calls an embedder needs: registerMoeDialects (the moe dialect
// and the upstream dialects moe programs use) and registerMoePasses.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/InitMoe.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::moe::registerMoePasses();
  mlir::DialectRegistry registry;
  mlir::moe::registerMoeDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "acme-opt: a downstream compiler embedding moe\n", registry));
}
