//===- MoePlugin.cpp - the moe dialect and passes as an mlir-opt plugin ----===//
//
// One shared library with both plugin entry points, as
// mlir/examples/standalone's standalone-plugin does:
//
//   mlir-opt --load-dialect-plugin=MoePlugin.so --load-pass-plugin=MoePlugin.so
//
// The dialect entry point adds the moe dialect, the upstream dialects moe
// programs use and moe's external interface models (bufferization, VJP) to
// mlir-opt's registry; the pass entry point registers every moe pass and
// pipeline. Both call the registration functions of InitMoe.h, so the plugin
// offers exactly what moe-opt offers on top of upstream.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/InitMoe.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MoeDialect", MOE_VERSION_STRING,
          [](DialectRegistry *registry) {
            moe::registerMoeDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MoePasses", MOE_VERSION_STRING,
          []() { moe::registerMoePasses(); }};
}
