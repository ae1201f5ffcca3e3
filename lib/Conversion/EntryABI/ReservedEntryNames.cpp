//===- ReservedEntryNames.cpp - reserved entry names while lowering -------===//
//
// An entry keeps its C name in the artifact, but the lowering may need a
// function of the same name for itself (an entry called @malloc or @expf):
// entries are renamed before the lowering and given their names back after
// it, where a clash is reported instead of silently calling the wrong
// function.
//
//===----------------------------------------------------------------------===//
#include "EntryRecords.h"

#include "MoeDialect/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::moe {
#define GEN_PASS_DEF_MOERESERVEENTRYNAMESPASS
#define GEN_PASS_DEF_MOERESTOREENTRYNAMESPASS
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe::entry_abi;

namespace {

struct MoeReserveEntryNamesPass
    : mlir::moe::impl::MoeReserveEntryNamesPassBase<MoeReserveEntryNamesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    SmallVector<EntryRecord> records;
    unsigned counter = 0;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isPrivate() || func.isExternal())
        continue;
      std::string reserved;
      do
        // No "." in it: kernels outlined from an entry are named after it,
        // and PTX identifiers cannot contain one.
        reserved = "__moe_entry_" + std::to_string(counter++);
      while (module.lookupSymbol(reserved));
      records.push_back(
          {func.getSymNameAttr(), StringAttr::get(ctx, reserved),
           int64_t(func.getNumArguments() + func.getNumResults())});
      func.setSymName(reserved);
    }
    writeEntryRecords(module, records);
  }
};

struct MoeRestoreEntryNamesPass
    : mlir::moe::impl::MoeRestoreEntryNamesPassBase<MoeRestoreEntryNamesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<SmallVector<EntryRecord>> records = readEntryRecords(module);
    if (failed(records))
      return signalPassFailure();
    for (const EntryRecord &entry : *records) {
      auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(entry.reserved);
      if (!func) {
        module.emitError("lowered module lost entry @")
            << entry.name.getValue();
        return signalPassFailure();
      }
      if (module.lookupSymbol(entry.name)) {
        func.emitError("entry @")
            << entry.name.getValue()
            << " has the name of a function that the lowered code "
            << "calls; rename the entry";
        return signalPassFailure();
      }
      func.setSymName(entry.name);
    }
  }
};

} // namespace
