//===- EntryABI.h - the calling convention of artifact entries --*- C++ -*-===//
//
// An entry `@f(ins) -> (results)` is called as `void f_packed(void **args)`,
// args[i] pointing to the dense row-major buffer of input i, then of result
// i. Two steps make it so:
//  - before bufferization (prepareEntries), inputs are marked read-only so
//    bufferization never writes into caller memory, and tensors without
//    elements are passed as memref<0xT>; the pipelines' out-params option
//    then makes the results trailing memref parameters that the body
//    computes in place (upstream buffer-results-to-out-params with
//    hoist-static-allocs: no copy for a result the entry allocates);
//  - after lowering to the LLVM dialect with bare-pointer memrefs, a packed
//    wrapper unpacks the pointer array and calls the entry.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_TOOLS_MOECOMPILE_ENTRYABI_H
#define MOE_TOOLS_MOECOMPILE_ENTRYABI_H

#include "EntryMetadata.h"

namespace mlir::moe::compile {

void prepareEntries(mlir::ModuleOp module);

/// Entry functions keep their C names in the artifact, but while lowering
/// they go by reserved names, so that a name the lowering needs for itself
/// (an entry called @malloc or @expf) does not get mixed up with them.
/// Returns (reserved name, entry name) pairs for restoreEntryNames.
std::vector<std::pair<std::string, std::string>>
renameEntriesForLowering(mlir::ModuleOp module);

/// Gives the lowered entries their names back; a located error when the
/// lowered code took one of them (it calls a C function of that name).
mlir::LogicalResult restoreEntryNames(
    mlir::ModuleOp module,
    const std::vector<std::pair<std::string, std::string>> &renamed);

mlir::LogicalResult addPackedWrappers(mlir::ModuleOp module,
                                      const std::vector<EntryInfo> &entries);

} // namespace mlir::moe::compile

#endif // MOE_TOOLS_MOECOMPILE_ENTRYABI_H
