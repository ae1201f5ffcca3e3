//===- moe-opt.cpp - mlir-opt with the moe dialect and passes --------------===//
//
// Every upstream dialect and pass is registered too, so moe programs can be
// run through any upstream pipeline (bufferization, lowering, GPU) as well.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/InitMoe.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::moe::registerMoePasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary (moe-lower-to-gpu) translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::moe::registerMoeDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "moe-opt: optimizer driver for Mixture-of-Experts layers in the moe "
      "dialect\n\nRuns moe and upstream MLIR passes on .mlir files; see "
      "--help for every pass (moe passes start with 'moe-').\n",
      registry));
}
