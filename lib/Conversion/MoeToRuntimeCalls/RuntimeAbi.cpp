//===- RuntimeAbi.cpp - calls into libmoe_runtime_gpu ---------------------===//
#include "RuntimeAbi.h"

#include "MoeDialect/Conversion/MoeToRuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::moe::runtime_abi {

Type getAbiType(MLIRContext *ctx, AbiKind kind) {
  switch (kind) {
  case AbiKind::none:
    return {};
  case AbiKind::ptr:
    return LLVM::LLVMPointerType::get(ctx);
  case AbiKind::i32:
    return IntegerType::get(ctx, 32);
  case AbiKind::i64:
    return IntegerType::get(ctx, 64);
  }
  llvm_unreachable("unknown AbiKind");
}

/// Whether moert_abi.def lists `name` as stream-ordered: it never waits for
/// the device.
static bool isStreamOrdered(StringRef name) {
  static constexpr const char *kStreamOrdered[] = {
#define MOERT_ABI_FUNCTION(name, resultKind, resultCType, args)
#define MOERT_ABI_ARG(kind, ctype, name)
#define MOERT_ABI_STREAM_ORDERED(name) #name,
#include "moe_runtime/moert_abi.def"
  };
  return llvm::is_contained(kStreamOrdered, name);
}

func::FuncOp declareRuntimeFunction(OpBuilder &b, ModuleOp module,
                                    StringRef name, FunctionType type) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  if (isStreamOrdered(name))
    fn->setAttr(kStreamOrderedAttr, b.getUnitAttr());
  return fn;
}

Value i64Dim(OpBuilder &b, Location loc, Value memref, int64_t d) {
  Value dim = memref::DimOp::create(b, loc, memref, d);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), dim);
}

Value i32Value(OpBuilder &b, Location loc, int32_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

Value i64Value(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

Value pointerArgument(OpBuilder &b, Location loc, Value memref) {
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), asInt);
}

func::CallOp callRuntimeFunction(OpBuilder &b, Location loc, StringRef name,
                                 FunctionType type, ValueRange args) {
  for (auto [index, arg, expected] : llvm::enumerate(args, type.getInputs()))
    if (arg.getType() != expected) {
      std::string message;
      llvm::raw_string_ostream os(message);
      os << "runtime call " << name << ": argument " << index << " is "
         << arg.getType() << ", moert_abi.def declares " << expected;
      llvm::report_fatal_error(llvm::StringRef(message));
    }
  Operation *parent = b.getInsertionBlock()->getParentOp();
  auto module = dyn_cast_or_null<ModuleOp>(parent);
  if (!module && parent)
    module = parent->getParentOfType<ModuleOp>();
  // A region still being built (the body of a loop under construction) is
  // in no module yet: the caller declared the function first.
  if (!module)
    return func::CallOp::create(b, loc, name, type.getResults(), args);
  func::FuncOp callee = declareRuntimeFunction(b, module, name, type);
  return func::CallOp::create(b, loc, callee, args);
}

} // namespace mlir::moe::runtime_abi
