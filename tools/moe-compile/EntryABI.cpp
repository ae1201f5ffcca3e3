//===- EntryABI.cpp - the calling convention of artifact entries ----------===//
#include "EntryABI.h"

#include "MoeDialect/Transforms/EntryNames.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace mlir::moe::compile {

/// Whether a tensor holds no element: it is passed as a pointer nobody reads
/// or writes (a memref with a zero in a non-leading dimension, e.g.
/// memref<4x0xf32>, cannot take the bare-pointer convention at all).
static bool isEmptyTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
}

static MemRefType emptyMemRef(Type type) {
  return MemRefType::get({0}, cast<RankedTensorType>(type).getElementType());
}

void prepareEntries(ModuleOp module) {
  SmallVector<func::FuncOp> entries;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isPrivate() && !func.isExternal())
      entries.push_back(func);

  // An entry that the module also calls (func.call @entry) keeps its
  // value-returning form for those calls, as a private copy.
  SymbolTable symbols(module);
  for (func::FuncOp func : entries) {
    if (SymbolTable::symbolKnownUseEmpty(func, module))
      continue;
    auto copy = func.clone();
    copy.setPrivate();
    for (unsigned i = 0, e = copy.getNumArguments(); i < e; ++i) {
      copy.removeArgAttr(i, moe::kNameAttr);
      copy.removeArgAttr(i, moe::kRoleAttr);
    }
    for (unsigned i = 0, e = copy.getNumResults(); i < e; ++i) {
      copy.removeResultAttr(i, StringAttr::get(copy.getContext(), moe::kNameAttr));
      copy.removeResultAttr(i, StringAttr::get(copy.getContext(), moe::kRoleAttr));
    }
    copy.setSymName((func.getSymName() + "_callee").str());
    symbols.insert(copy, std::next(Block::iterator(func)));
    (void)SymbolTable::replaceAllSymbolUses(func, copy.getSymNameAttr(),
                                            module);
  }

  for (func::FuncOp func : entries) {
    MLIRContext *ctx = func.getContext();
    Block &body = func.getBody().front();
    // Names and roles live in the metadata (written before this step);
    // nothing below needs them.
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      func.removeArgAttr(i, moe::kNameAttr);
      func.removeArgAttr(i, moe::kRoleAttr);
      BlockArgument arg = func.getArgument(i);
      if (isEmptyTensor(arg.getType())) {
        // No data: the body gets an empty tensor of that type instead.
        OpBuilder b = OpBuilder::atBlockBegin(&body);
        auto tensor = cast<RankedTensorType>(arg.getType());
        Value empty = tensor::EmptyOp::create(b, arg.getLoc(), tensor.getShape(),
                                              tensor.getElementType());
        arg.replaceAllUsesWith(empty);
        arg.setType(emptyMemRef(tensor));
        continue;
      }
      if (isa<TensorType>(arg.getType()))
        func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                        BoolAttr::get(ctx, false));
    }

    // A result without elements is returned as a memref<0xT> (its
    // out-param): e.g. memref<4x0xf32> cannot take the bare-pointer
    // convention.
    // A value returned twice gets a copy for the second out-param (each
    // out-param replaces the allocation of its own result).
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    OpBuilder b(ret);
    llvm::SmallPtrSet<Value, 8> returned;
    for (OpOperand &result : ret->getOpOperands()) {
      if (!isEmptyTensor(result.get().getType())) {
        if (!returned.insert(result.get()).second)
          result.set(bufferization::AllocTensorOp::create(
              b, ret.getLoc(), cast<RankedTensorType>(result.get().getType()),
              ValueRange{}, /*copy=*/result.get()));
        continue;
      }
      auto tensor = cast<RankedTensorType>(result.get().getType());
      result.set(tensor::EmptyOp::create(b, ret.getLoc(), ArrayRef<int64_t>{0},
                                         tensor.getElementType()));
    }
    SmallVector<DictionaryAttr> argAttrs;
    func.getAllArgAttrs(argAttrs);
    func.setFunctionType(FunctionType::get(ctx, body.getArgumentTypes(),
                                           ret.getOperandTypes()));
    func.setAllArgAttrs(argAttrs);
    func.setAllResultAttrs(ArrayRef<DictionaryAttr>{});
  }
}

std::vector<std::pair<std::string, std::string>>
renameEntriesForLowering(ModuleOp module) {
  std::vector<std::pair<std::string, std::string>> renamed;
  unsigned counter = 0;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    std::string reserved;
    do
      // No "." in it: kernels outlined from an entry are named after it, and
      // PTX identifiers cannot contain one.
      reserved = "__moe_entry_" + std::to_string(counter++);
    while (module.lookupSymbol(reserved));
    renamed.emplace_back(reserved, func.getSymName().str());
    func.setSymName(reserved);
  }
  return renamed;
}

LogicalResult
restoreEntryNames(ModuleOp module,
                  const std::vector<std::pair<std::string, std::string>> &renamed) {
  for (const auto &[reserved, name] : renamed) {
    auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(reserved);
    if (!func)
      return module.emitError("lowered module lost entry @") << name;
    if (module.lookupSymbol(name))
      return func.emitError("entry @")
             << name << " has the name of a function that the lowered code "
             << "calls; rename the entry";
    func.setSymName(name);
  }
  return success();
}

LogicalResult addPackedWrappers(ModuleOp module,
                                const std::vector<EntryInfo> &entries) {
  MLIRContext *ctx = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  for (const EntryInfo &entry : entries) {
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(entry.name);
    if (!callee)
      return module.emitError("lowered module lost entry @") << entry.name;
    auto params = callee.getFunctionType().getParams();
    if (params.size() != entry.args.size() ||
        !llvm::all_of(params, [&](Type t) { return t == ptr; }))
      return callee.emitError("entry @")
             << entry.name << " does not take one pointer per argument ("
             << entry.args.size() << ") after lowering";
    Location loc = callee.getLoc();
    auto wrapper = LLVM::LLVMFuncOp::create(
        b, loc, entry.symbol,
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr}));
    OpBuilder::InsertionGuard guard(b);
    Block *block = wrapper.addEntryBlock(b);
    b.setInsertionPointToStart(block);
    SmallVector<Value> args;
    for (size_t i = 0; i < entry.args.size(); ++i) {
      Value index = LLVM::ConstantOp::create(b, loc, i64, int64_t(i));
      Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, block->getArgument(0),
                                       ValueRange{index});
      args.push_back(LLVM::LoadOp::create(b, loc, ptr, slot));
    }
    LLVM::CallOp::create(b, loc, callee, args);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
  }
  return success();
}

} // namespace mlir::moe::compile
