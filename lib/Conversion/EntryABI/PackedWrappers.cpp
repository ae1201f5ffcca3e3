//===- PackedWrappers.cpp - void <entry>_packed(void **args) --------------===//
//
// The one signature every artifact entry is called by, whatever its
// arguments: an array of pointers to the dense row-major buffers of its
// inputs, then of its results (out-params after the lowering).
//
//===----------------------------------------------------------------------===//
#include "EntryRecords.h"

#include "MoeDialect/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::moe {
#define GEN_PASS_DEF_MOEADDPACKEDWRAPPERSPASS
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe::entry_abi;

namespace {

/// The lowered entry `entry` names, checked to take one pointer per
/// argument and result and to leave its wrapper's name free.
FailureOr<LLVM::LLVMFuncOp> wrappableEntry(ModuleOp module,
                                           const EntryRecord &entry,
                                           StringRef wrapperName) {
  auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(entry.name);
  if (!callee)
    return module.emitError("lowered module lost entry @")
           << entry.name.getValue();
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  auto params = callee.getFunctionType().getParams();
  if (int64_t(params.size()) != entry.pointers ||
      !llvm::all_of(params, [&](Type t) { return t == ptr; }))
    return callee.emitError("entry @")
           << entry.name.getValue()
           << " does not take one pointer per argument (" << entry.pointers
           << ") after lowering";
  if (Operation *clash = module.lookupSymbol(wrapperName))
    return clash->emitError("@")
           << wrapperName << " is the name of entry @" << entry.name.getValue()
           << "'s packed wrapper";
  return callee;
}

/// llvm.func @<name>_packed(%args: !llvm.ptr): loads args[i] for every
/// parameter of `callee` and calls it.
void addPackedWrapper(OpBuilder &b, LLVM::LLVMFuncOp callee,
                      StringRef wrapperName) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  Location loc = callee.getLoc();
  auto wrapper = LLVM::LLVMFuncOp::create(
      b, loc, wrapperName,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr}));
  OpBuilder::InsertionGuard guard(b);
  Block *block = wrapper.addEntryBlock(b);
  b.setInsertionPointToStart(block);
  SmallVector<Value> args;
  for (size_t i = 0, e = callee.getNumArguments(); i < e; ++i) {
    Value index = LLVM::ConstantOp::create(b, loc, i64, int64_t(i));
    Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, block->getArgument(0),
                                     ValueRange{index});
    args.push_back(LLVM::LoadOp::create(b, loc, ptr, slot));
  }
  LLVM::CallOp::create(b, loc, callee, args);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

struct MoeAddPackedWrappersPass
    : mlir::moe::impl::MoeAddPackedWrappersPassBase<MoeAddPackedWrappersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<SmallVector<EntryRecord>> records = readEntryRecords(module);
    if (failed(records))
      return signalPassFailure();
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getBody());
    for (const EntryRecord &entry : *records) {
      std::string wrapperName = (entry.name.getValue() + "_packed").str();
      FailureOr<LLVM::LLVMFuncOp> callee =
          wrappableEntry(module, entry, wrapperName);
      if (failed(callee))
        return signalPassFailure();
      addPackedWrapper(b, *callee, wrapperName);
    }
    module->removeAttr(kEntriesAttr);
  }
};

} // namespace
