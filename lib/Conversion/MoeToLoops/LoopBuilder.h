//===- LoopBuilder.h - small helpers for writing loops on buffers -*- C++ -*-===//
#ifndef MOE_LIB_CONVERSION_MOETOLOOPS_LOOPBUILDER_H
#define MOE_LIB_CONVERSION_MOETOLOOPS_LOOPBUILDER_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::moe::loops {

using LoopBody = llvm::function_ref<void(OpBuilder &, Location, Value iv)>;
using ReduceBody =
    llvm::function_ref<Value(OpBuilder &, Location, Value iv, Value acc)>;

Value indexConst(OpBuilder &b, Location loc, int64_t v);
Value f32Const(OpBuilder &b, Location loc, double v);

/// `v` (f32) with every NaN replaced by the one quiet NaN 0x7FC00000, in the
/// bits (an integer select: no optimizer may take it for a no-op). The FP8
/// casts use it so that both targets store the same bits for NaN: x86
/// arithmetic keeps a NaN's sign and payload, the GPU's returns 0x7FFFFFFF.
Value canonicalizeNaN(OpBuilder &b, Location loc, Value v);
Value i32Const(OpBuilder &b, Location loc, int32_t v);
Value i64Const(OpBuilder &b, Location loc, int64_t v);
/// Dim `i` of a memref as an index (a constant when static).
Value dimOf(OpBuilder &b, Location loc, Value memref, int64_t i);

/// A signed integer of any width, or an index, as i64.
Value toI64(OpBuilder &b, Location loc, Value v);
/// An i64 as an integer of type `t` (truncating when narrower).
Value fromI64(OpBuilder &b, Location loc, Value v, Type t);
/// An integer as an index (unchanged when it is one).
Value toIndex(OpBuilder &b, Location loc, Value v);
/// ⌈x / d⌉ for a non-negative index x.
Value ceilDiv(OpBuilder &b, Location loc, Value x, int64_t d);
/// v rounded up to a multiple of `align` (i64; v itself when align is 1).
Value roundUpToMultiple(OpBuilder &b, Location loc, Value v, int64_t align);

/// scf.if without results; `body` builds the then-region (no terminator).
void ifThen(OpBuilder &b, Location loc, Value cond,
            llvm::function_ref<void(OpBuilder &, Location)> body);

/// scf.if with one result of type `t`; each builder returns the yielded value
/// (only the taken branch runs, unlike `select` below).
Value ifElse(OpBuilder &b, Location loc, Type t, Value cond,
             llvm::function_ref<Value(OpBuilder &, Location)> thenBody,
             llvm::function_ref<Value(OpBuilder &, Location)> elseBody);

/// scf.for iv in [lb, ub) step 1.
void forRange(OpBuilder &b, Location loc, Value lb, Value ub, LoopBody body);
using ParallelBody =
    llvm::function_ref<void(OpBuilder &, Location, ValueRange ivs)>;
/// scf.parallel over [0, ubs[0]) × [0, ubs[1]) × ...: for iterations that
/// are independent (each writes its own elements). The CPU runs them in
/// order; the GPU target runs each in its own thread (gpu-launch-top-level-loops).
void parallelFor(OpBuilder &b, Location loc, ValueRange ubs, ParallelBody body);
/// Per-iteration scratch of a parallel body: a memref.alloca of `size`
/// elements (static when `size` is a constant: GPU threads get it in local
/// memory), typed memref<?xelem>. The iteration must write every element
/// before reading it: convert-moe-to-loops hoists these allocas out of the
/// loop (one buffer reused by the sequential CPU iterations, no stack growth).
Value scratchAlloca(OpBuilder &b, Location loc, Type elem, Value size);
/// scf.for with one loop-carried value; returns its final value.
Value forReduce(OpBuilder &b, Location loc, Value lb, Value ub, Value init,
                ReduceBody body);
/// lo ≤ v < hi (signed), for index or integer values: the guard every
/// emitter applies to indices and rows read from buffers.
Value inHalfOpenRange(OpBuilder &b, Location loc, Value v, Value lo, Value hi);
/// scf.if with one result.
Value select(OpBuilder &b, Location loc, Value cond, Value ifTrue,
             Value ifFalse);

/// A bf16/f16/f32/FP8 scalar as f32 (exact).
Value elementToF32(OpBuilder &b, Location loc, Value v);
/// An f32 as a bf16/f16/f32/FP8 scalar of type `t`, rounding as
/// storeFromF32 does.
Value f32ToElement(OpBuilder &b, Location loc, Value v, Type t);
/// Loads an element of a bf16/f16/f32/FP8 buffer as f32.
Value loadAsF32(OpBuilder &b, Location loc, Value memref, ValueRange idx);
/// Stores an f32 into a bf16/f16/f32/FP8 buffer, rounding to nearest even
/// (FP8: with saturation to the largest finite value).
void storeFromF32(OpBuilder &b, Location loc, Value v, Value memref,
                  ValueRange idx);

using IndexBody =
    llvm::function_ref<void(OpBuilder &, Location, ArrayRef<Value> ivs)>;
/// Loops over dims [0, numDims) of `memref` (outermost first), calling
/// `body` with the induction variables.
void forEachIndex(OpBuilder &b, Location loc, Value memref, int64_t numDims,
                  IndexBody body);

/// Writes zero (of the element type) into every element of `memref`.
void fillZero(OpBuilder &b, Location loc, Value memref);

/// f32 → bf16 bits, round to nearest even (NaN stays NaN), as i16.
Value f32ToBF16Bits(OpBuilder &b, Location loc, Value v);
/// bf16 bits (i16) → f32.
Value bf16BitsToF32(OpBuilder &b, Location loc, Value bits);

} // namespace mlir::moe::loops

#endif // MOE_LIB_CONVERSION_MOETOLOOPS_LOOPBUILDER_H
