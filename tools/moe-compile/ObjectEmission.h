//===- ObjectEmission.h - LLVM dialect → object → shared library -*- C++ -*-===//
#ifndef MOE_TOOLS_MOECOMPILE_OBJECTEMISSION_H
#define MOE_TOOLS_MOECOMPILE_OBJECTEMISSION_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <string>

namespace mlir::moe::compile {

/// Translates `module` (LLVM dialect only) to LLVM IR for the host and runs
/// the O3 pipeline on it.
mlir::FailureOr<std::unique_ptr<llvm::Module>>
translateAndOptimize(mlir::ModuleOp module, llvm::LLVMContext &context);

/// Adds `metadata` (the artifact's .json text) to `module` as the exported,
/// NUL-terminated constant `moe_artifact_metadata` (moert's
/// kEmbeddedMetadataSymbol), which moe-runner compares with the .json it
/// reads next to the .so. Fails when the program defines that symbol itself.
mlir::LogicalResult embedArtifactMetadata(llvm::Module &module,
                                          llvm::StringRef metadata);

/// Writes `module` as a position-independent host object file.
mlir::LogicalResult emitObject(llvm::Module &module, llvm::StringRef path);

/// Links `object` into the shared library `output` with lld. On failure the
/// linker's command line and output are reported.
mlir::LogicalResult linkSharedLibrary(llvm::StringRef object,
                                      llvm::StringRef output);

} // namespace mlir::moe::compile

#endif // MOE_TOOLS_MOECOMPILE_OBJECTEMISSION_H
