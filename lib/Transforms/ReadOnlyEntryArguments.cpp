//===- ReadOnlyEntryArguments.cpp - entries never write their inputs ------===//
//
// One-shot-bufferize treats function arguments as writable unless they say
// otherwise, so a destination-style op whose destination is an argument
// (the amax history of delayed quantization) would update the caller's
// buffer in place. Marking public functions' tensor arguments read-only
// makes bufferization copy such an argument first.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::moe {
#define GEN_PASS_DEF_MOEREADONLYENTRYARGUMENTSPASS
#include "MoeDialect/Transforms/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {
struct ReadOnlyEntryArguments
    : public moe::impl::MoeReadOnlyEntryArgumentsPassBase<
          ReadOnlyEntryArguments> {
  void runOnOperation() override {
    StringRef writable =
        bufferization::BufferizationDialect::kWritableAttrName;
    BoolAttr readOnly = BoolAttr::get(&getContext(), false);
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (!fn.isPublic() || fn.isExternal())
        continue;
      for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
        if (isa<TensorType>(fn.getArgument(i).getType()) &&
            !fn.getArgAttr(i, writable))
          fn.setArgAttr(i, writable, readOnly);
    }
  }
};
} // namespace
