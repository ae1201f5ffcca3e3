//===- OperandChecks.h - diagnostics helpers for moe verifiers --*- C++ -*-===//
//
// Every check reports through an ErrorSink so that the same code serves op
// verifiers (emitOpError) and type inference (emitOptionalError at a
// location). Messages name the operand or result and the numbers involved.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_DIALECT_OPERANDCHECKS_H
#define MOE_LIB_DIALECT_OPERANDCHECKS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeRange.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace mlir::moe::checks {

using ErrorSink = llvm::function_ref<LogicalResult(const Twine &)>;

/// Element classes the moe ops accept.
enum class Elem {
  Activation, ///< bf16, f16 or f32
  F32,
  I32,
  Fp8,          ///< f8E4M3FN or f8E5M2
  ActivationOrFp8,
  Count,        ///< i32, i64 or f32
};

std::string str(Type type);
std::string dimStr(int64_t dim);
std::string shapeStr(ArrayRef<int64_t> shape);
/// A floating-point attribute value as text (Twine has no double).
std::string num(double value);

bool isActivationType(Type type);
/// f8E4M3FN or f8E5M2 (opmath::isFp8DataType).
bool isFp8Type(Type type);

/// `type` must be a ranked tensor of `rank` (its dims described by `dims`,
/// e.g. "[T, H]") with elements of `kind`.
FailureOr<RankedTensorType> expectTensor(ErrorSink err, StringRef name,
                                         Type type, int64_t rank,
                                         StringRef dims, Elem kind);

/// Dim `dimA` of `a` and dim `dimB` of `b` both stand for `symbol`; they must
/// agree when static.
LogicalResult expectSameDim(ErrorSink err, const Twine &symbol, StringRef nameA,
                            RankedTensorType a, int64_t dimA, StringRef nameB,
                            RankedTensorType b, int64_t dimB);

/// Result `name` must have shape `expected` (dynamic entries match anything)
/// and element type `elem`; `rule` explains where the shape comes from.
LogicalResult expectResult(ErrorSink err, StringRef name, Type actual,
                           ArrayRef<int64_t> expected, Type elem,
                           StringRef rule);

/// Ranked tensors of equal count and rank: the detailed comparison is left to
/// the op verifiers, which name what differs.
bool sameRankedTensorKinds(TypeRange inferred, TypeRange actual);

/// a * b that stays dynamic when either is dynamic.
int64_t mulDims(int64_t a, int64_t b);
/// ceil(a / b) that stays dynamic when a is dynamic.
int64_t ceilDivDim(int64_t a, int64_t b);

} // namespace mlir::moe::checks

#endif // MOE_LIB_DIALECT_OPERANDCHECKS_H
