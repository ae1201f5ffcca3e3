//===- PrepareEntries.cpp - entries take the artifact's signature ---------===//
//
// Before bufferization: entries never write their inputs, tensors without
// elements are passed as memref<0xT>, each result can become an
// out-parameter of its own, and an entry the module calls keeps a
// value-returning copy for those calls.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Transforms/EntryNames.h"
#include "MoeDialect/Transforms/ShardingAttrs.h"
#include "MoeDialect/Transforms/StraightLineBody.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::moe {
#define GEN_PASS_DEF_MOEPREPAREENTRIESPASS
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

/// The argument and result attributes the artifact's metadata records
/// (names, roles, the expert-parallel layout), which this step drops.
constexpr llvm::StringLiteral kMetadataAttrs[] = {
    moe::kNameAttr,        moe::kRoleAttr,        moe::kSplitDimAttr,
    moe::kSplitAxesAttr,   moe::kPartialSumAttr,  moe::kPartialAxesAttr};

/// Whether a tensor holds no element: it is passed as a pointer nobody reads
/// or writes (a memref with a zero in a non-leading dimension, e.g.
/// memref<4x0xf32>, cannot take the bare-pointer convention at all).
bool isEmptyTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
}

MemRefType emptyMemRef(Type type) {
  return MemRefType::get({0}, cast<RankedTensorType>(type).getElementType());
}

/// An entry that the module also calls (func.call @entry) keeps its
/// value-returning form for those calls, as a private copy.
void keepCalledEntriesAsCallees(ModuleOp module,
                                ArrayRef<func::FuncOp> entries) {
  SymbolTable symbols(module);
  for (func::FuncOp func : entries) {
    if (SymbolTable::symbolKnownUseEmpty(func, module))
      continue;
    auto copy = func.clone();
    copy.setPrivate();
    for (StringRef name : kMetadataAttrs) {
      for (unsigned i = 0, e = copy.getNumArguments(); i < e; ++i)
        copy.removeArgAttr(i, name);
      for (unsigned i = 0, e = copy.getNumResults(); i < e; ++i)
        copy.removeResultAttr(i, StringAttr::get(copy.getContext(), name));
    }
    copy.setSymName((func.getSymName() + "_callee").str());
    symbols.insert(copy, std::next(Block::iterator(func)));
    (void)SymbolTable::replaceAllSymbolUses(func, copy.getSymNameAttr(),
                                            module);
  }
}

/// Tensor arguments read-only, arguments without elements memref<0xT>
/// (the body gets an empty tensor of the original type instead); names,
/// roles and layouts, which the metadata records before this step, dropped.
void prepareArguments(func::FuncOp func) {
  MLIRContext *ctx = func.getContext();
  Block &body = func.getBody().front();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    for (StringRef name : kMetadataAttrs)
      func.removeArgAttr(i, name);
    BlockArgument arg = func.getArgument(i);
    if (isEmptyTensor(arg.getType())) {
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
}

/// A result without elements is returned as a tensor<0xT> (its out-param
/// a memref<0xT>: e.g. memref<4x0xf32> cannot take the bare-pointer
/// convention); a value returned twice gets a copy for the second result
/// (each out-param replaces the allocation of its own result).
void prepareResults(func::ReturnOp ret) {
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
}

void prepareEntry(func::FuncOp func) {
  prepareArguments(func);
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  prepareResults(ret);
  SmallVector<DictionaryAttr> argAttrs;
  func.getAllArgAttrs(argAttrs);
  func.setFunctionType(FunctionType::get(
      func.getContext(), body.getArgumentTypes(), ret.getOperandTypes()));
  func.setAllArgAttrs(argAttrs);
  // The results' metadata attributes, recorded before this step, dropped
  // (setAllResultAttrs would need one entry per result).
  func.removeResAttrsAttr();
}

struct MoePrepareEntriesPass
    : mlir::moe::impl::MoePrepareEntriesPassBase<MoePrepareEntriesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> entries;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isPrivate() && !func.isExternal())
        entries.push_back(func);
    for (func::FuncOp func : entries)
      if (failed(moe::requireStraightLineBody(func, "moe-prepare-entries")))
        return signalPassFailure();
    keepCalledEntriesAsCallees(module, entries);
    for (func::FuncOp func : entries)
      prepareEntry(func);
  }
};

} // namespace
