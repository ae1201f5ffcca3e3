//===- EntryMetadata.h - what an artifact's entry points take ---*- C++ -*-===//
//
// The artifact's JSON describes every entry: for each argument its name,
// role (input, weight, output, residual, cotangent, gradient), direction,
// shape and dtype, and the entry's expert-FFN FLOPs; for expert
// parallelism, the module's grids ("grids": name, shape, in module order; a
// collective names its grid by its index there) and how each argument is
// laid out over the ranks, from the func argument and result attributes
// `moe.split_dim = D : i64` ("split_dim": D), `moe.partial_sum`
// ("partial": "sum") and the axes they are over, `moe.split_axes` /
// `moe.partial_axes` ("split_axes", "partial_axes": every axis of the grid
// when absent); none means replicated. moe-runner reads it; nothing
// else is needed to call the entry.
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
  bool isOutput = false;
  std::vector<int64_t> shape;
  std::string dtype; ///< f32, bf16, f16, f64, i64, i32, i8, i1, f8e4m3, ...
  int64_t splitDim = -1;   ///< moe.split_dim, -1 when not split
  bool partialSum = false; ///< moe.partial_sum
  /// moe.split_axes / moe.partial_axes; empty: every axis of the grid.
  std::vector<int64_t> splitAxes, partialAxes;
};

struct GridInfo {
  std::string name;
  std::vector<int64_t> shape;
};

struct EntryInfo {
  std::string name;
  std::string symbol; ///< void symbol(void **args)
  int64_t flops = 0;
  /// Whether the entry computes through FP8 values (a moe-fp8-placement
  /// quantization): its outputs are then checked at the FP8 tolerance.
  bool fp8 = false;
  std::vector<ArgInfo> args; ///< inputs, then outputs, in call order
};

/// Describes every public func.func with a body. Fails (with a diagnostic
/// at the offending location) on dynamic shapes or unsupported types.
mlir::FailureOr<std::vector<EntryInfo>> describeEntries(mlir::ModuleOp module);

/// The module's top-level shard.grid ops, in order. Fails on a grid with a
/// dynamic size (an artifact runs on a fixed number of ranks).
mlir::FailureOr<std::vector<GridInfo>> describeGrids(mlir::ModuleOp module);

void writeArtifactJson(llvm::raw_ostream &os, llvm::StringRef target,
                       llvm::StringRef source,
                       const std::vector<GridInfo> &grids,
                       const std::vector<EntryInfo> &entries);

} // namespace mlir::moe::compile

#endif // MOE_TOOLS_MOECOMPILE_ENTRYMETADATA_H
