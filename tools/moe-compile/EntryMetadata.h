//===- EntryMetadata.h - what an artifact's entry points take ---*- C++ -*-===//
//
// The artifact's JSON describes every entry: for each argument its name,
// role (input, weight, output, residual, cotangent, gradient), direction,
// shape and dtype, and the entry's expert-FFN FLOPs. moe-runner reads it;
// nothing else is needed to call the entry.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_TOOLS_MOECOMPILE_ENTRYMETADATA_H
#define MOE_TOOLS_MOECOMPILE_ENTRYMETADATA_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir::moe::compile {

struct ArgInfo {
  std::string name;
  std::string role; ///< input, weight, output, residual, cotangent, gradient
  bool isOutput;
  std::vector<int64_t> shape;
  std::string dtype; ///< f32, bf16, f16, f64, i64, i32, i8, i1, f8e4m3, ...
};

struct EntryInfo {
  std::string name;
  std::string symbol; ///< void symbol(void **args)
  int64_t flops = 0;
  std::vector<ArgInfo> args; ///< inputs, then outputs, in call order
};

/// Describes every public func.func with a body. Fails (with a diagnostic
/// at the offending location) on dynamic shapes or unsupported types.
mlir::FailureOr<std::vector<EntryInfo>> describeEntries(mlir::ModuleOp module);

void writeArtifactJson(llvm::raw_ostream &os, llvm::StringRef target,
                       llvm::StringRef source,
                       const std::vector<EntryInfo> &entries);

} // namespace mlir::moe::compile

#endif // MOE_TOOLS_MOECOMPILE_ENTRYMETADATA_H
