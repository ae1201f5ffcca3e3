//===- TensorMath.h - small linalg builders for adjoints --------*- C++ -*-===//
//
// The router adjoints are elementwise and row-wise tensor math; they are
// written as upstream linalg.generic ops (which bufferize and lower with the
// rest) through these few builders, so each adjoint reads as its formula.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_DIALECT_TENSORMATH_H
#define MOE_LIB_DIALECT_TENSORMATH_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::moe::tmath {

/// Body of a generic: the scalar inputs (one per input tensor, in f32 unless
/// the element is an integer) → the scalar result (f32 or integer).
using ScalarFn =
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange inputs)>;
/// Body of a reduction: the scalar inputs and the accumulator → new value.
using ReduceFn = llvm::function_ref<Value(OpBuilder &, Location,
                                          ValueRange inputs, Value acc)>;

/// out[i...] = fn(inputs[maps_k(i...)]) over the iteration space of `out`'s
/// shape (identity map for `out`); float inputs reach `fn` as f32, the
/// result is converted from f32 to `elem` (round to nearest even).
Value map(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type elem,
          ValueRange inputs, ArrayRef<AffineMap> inputMaps, ScalarFn fn);
/// Elementwise over inputs of one shape (identity maps).
Value map(OpBuilder &b, Location loc, Type elem, ValueRange inputs,
          ScalarFn fn);

/// Body of an elementwise map with several results (f32 or integer each).
using MultiScalarFn = llvm::function_ref<SmallVector<Value>(
    OpBuilder &, Location, ValueRange inputs)>;
/// Elementwise over inputs of one shape with `numResults` results of
/// element type `elem`, computed in one op: one pass over the inputs
/// instead of one per result (one kernel on the GPU).
SmallVector<Value> mapMany(OpBuilder &b, Location loc, Type elem,
                           ValueRange inputs, unsigned numResults,
                           MultiScalarFn fn);

/// A reduction to an f32 tensor of `outShape`: iterates the loop space
/// `loopShape` (`iterators` marks reduction dims), out indexed by `outMap`,
/// starting from `init`.
Value reduce(OpBuilder &b, Location loc, ArrayRef<int64_t> loopShape,
             ArrayRef<utils::IteratorType> iterators, ValueRange inputs,
             ArrayRef<AffineMap> inputMaps, ArrayRef<int64_t> outShape,
             AffineMap outMap, double init, ReduceFn fn);

/// Converts a float tensor's elements to `elem` (no-op if already).
Value convert(OpBuilder &b, Location loc, Value tensor, Type elem);

/// f32 scalar helpers.
Value cst(OpBuilder &b, Location loc, double v);

} // namespace mlir::moe::tmath

#endif // MOE_LIB_DIALECT_TENSORMATH_H
