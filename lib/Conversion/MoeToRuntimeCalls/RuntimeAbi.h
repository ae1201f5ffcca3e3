//===- RuntimeAbi.h - calls into libmoe_runtime_gpu -------------*- C++ -*-===//
//
// One object per runtime function that compiled GPU code calls, built from
// runtime/gpu/include/moe_runtime/moert_abi.def, and per collective that
// compiled CPU code calls, from runtime/include/moe_runtime/moert_coll_abi.def:
// the lists the runtime declares its functions from: the compiler spells no
// runtime function name, argument count or argument type of its own. Each
// object knows its function's type, declares the function in a module and
// builds calls to it, as upstream's FunctionCallBuilder does for mgpu*
// (GPUToLLVMConversion.cpp):
//
//   runtime_abi::moert_entry_matmul_f32.call(b, loc, {a, aTrans, ...});
//
// A call with the wrong number of arguments does not compile; one with an
// argument of the wrong type is a compiler bug and stops with a fatal error.
// test/abi checks the declarations this emits against the runtime's C header.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_CONVERSION_MOETORUNTIMECALLS_RUNTIMEABI_H
#define MOE_CONVERSION_MOETORUNTIMECALLS_RUNTIMEABI_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <array>

// The argument codes (weight layouts, output element types) shared with the
// runtime: MOERT_WEIGHT_KN/NK, MOERT_GPU_OUT_BF16/F32.
#include "moe_runtime/moert_abi.h"

namespace mlir::moe::runtime_abi {

/// The LLVM-level type of a runtime function's argument or result: the
/// `kind` column of moert_abi.def (none: no result).
enum class AbiKind { none, ptr, i32, i64 };

/// The MLIR type compiled code passes for `kind` (null for none).
Type getAbiType(MLIRContext *ctx, AbiKind kind);

/// Declares the runtime function `name` of type `type` (private, external) in
/// `module` unless present.
func::FuncOp declareRuntimeFunction(OpBuilder &b, ModuleOp module,
                                    StringRef name, FunctionType type);

/// What compiled code passes for a `ptr` argument that is a buffer: the
/// address of the first element of `memref` (identity layout) as !llvm.ptr.
Value pointerArgument(OpBuilder &b, Location loc, Value memref);

/// An `i64` argument holding dimension `d` of `memref`.
Value i64Dim(OpBuilder &b, Location loc, Value memref, int64_t d);

/// `i32` and `i64` arguments holding `v`.
Value i32Value(OpBuilder &b, Location loc, int32_t v);
Value i64Value(OpBuilder &b, Location loc, int64_t v);

/// Calls `name`, declared as `type`, after checking that `args` have the
/// parameter types of `type` (fatal error otherwise). Inside a region that
/// is not in a module yet (a loop body being built) the function must have
/// been declared first (RuntimeFunction::declare).
func::CallOp callRuntimeFunction(OpBuilder &b, Location loc, StringRef name,
                                 FunctionType type, ValueRange args);

/// A runtime function whose result has kind `Result` and whose parameters have
/// kinds `Params`.
template <AbiKind Result, AbiKind... Params>
class RuntimeFunction {
  template <AbiKind>
  using ValueFor = Value;

public:
  explicit constexpr RuntimeFunction(const char *name) : name(name) {}

  StringRef getName() const { return name; }

  FunctionType getType(MLIRContext *ctx) const {
    SmallVector<Type> results;
    if (Type result = getAbiType(ctx, Result))
      results.push_back(result);
    return FunctionType::get(ctx, {getAbiType(ctx, Params)...}, results);
  }

  /// Declares the function in `module` unless present.
  func::FuncOp declare(OpBuilder &b, ModuleOp module) const {
    return declareRuntimeFunction(b, module, name, getType(b.getContext()));
  }

  /// One value per parameter, in the order of moert_abi.def. Built from a
  /// braced list, whose elements C++ evaluates in order: the ops that make
  /// the values are created in argument order.
  struct Arguments {
    Arguments(ValueFor<Params>... args) : values{args...} {}
    std::array<Value, sizeof...(Params)> values;
  };

  /// Calls the function (declared in the enclosing module first):
  ///   fn.call(b, loc, {a, b, ...});
  func::CallOp call(OpBuilder &b, Location loc, const Arguments &args) const {
    return callRuntimeFunction(b, loc, name, getType(b.getContext()),
                               args.values);
  }

private:
  const char *name;
};

#define MOERT_ABI_ARG(kind, ctype, name) AbiKind::kind
#define MOERT_ABI_FUNCTION(name, resultKind, resultCType, args)                \
  inline constexpr RuntimeFunction<AbiKind::resultKind, MOERT_ABI_UNPACK args> \
      name{#name};
#define MOERT_ABI_UNPACK(...) __VA_ARGS__
#include "moe_runtime/moert_abi.def"
// The collectives CPU code calls (libmoe_runtime, exported by moe-runner).
#define MOERT_ABI_ARG(kind, ctype, name) AbiKind::kind
#define MOERT_ABI_FUNCTION(name, resultKind, resultCType, args)                \
  inline constexpr RuntimeFunction<AbiKind::resultKind, MOERT_ABI_UNPACK args> \
      name{#name};
#include "moe_runtime/moert_coll_abi.def"
// Their GPU twins (libmoe_runtime_gpu, over NCCL).
#define MOERT_ABI_ARG(kind, ctype, name) AbiKind::kind
#define MOERT_ABI_FUNCTION(name, resultKind, resultCType, args)                \
  inline constexpr RuntimeFunction<AbiKind::resultKind, MOERT_ABI_UNPACK args> \
      name{#name};
#include "moe_runtime/moert_coll_gpu_abi.def"
#undef MOERT_ABI_UNPACK

} // namespace mlir::moe::runtime_abi

#endif // MOE_CONVERSION_MOETORUNTIMECALLS_RUNTIMEABI_H
