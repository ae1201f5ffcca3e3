//===- EntryABI.cpp - the calling convention of artifact entries ----------===//
#include "EntryABI.h"

#include "MoeDialect/Transforms/EntryNames.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace mlir::moe::compile {

void rewriteEntriesToDestinations(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    MLIRContext *ctx = func.getContext();
    // Names and roles are in the metadata now; nothing below needs them.
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      func.removeArgAttr(i, moe::kNameAttr);
      func.removeArgAttr(i, moe::kRoleAttr);
      if (isa<TensorType>(func.getArgument(i).getType()))
        func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                        BoolAttr::get(ctx, false));
    }

    Block &body = func.getBody().front();
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    OpBuilder b(ret);
    SmallVector<Type> argTypes(func.getArgumentTypes());
    for (Value result : ret.getOperands()) {
      auto tensor = cast<RankedTensorType>(result.getType());
      auto memref = MemRefType::get(tensor.getShape(), tensor.getElementType());
      BlockArgument dest = body.addArgument(memref, ret.getLoc());
      argTypes.push_back(memref);
      bufferization::MaterializeInDestinationOp::create(
          b, ret.getLoc(), TypeRange{}, result, dest, /*restrict=*/true,
          /*writable=*/true);
    }
    func::ReturnOp::create(b, ret.getLoc());
    ret.erase();
    SmallVector<DictionaryAttr> argAttrs;
    func.getAllArgAttrs(argAttrs);
    argAttrs.resize(argTypes.size(), DictionaryAttr::get(ctx));
    func.setFunctionType(FunctionType::get(ctx, argTypes, {}));
    func.setAllArgAttrs(argAttrs);
    func.setAllResultAttrs(ArrayRef<DictionaryAttr>{});
  }
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
