//===- Fp8Instructions.h - FP8 conversions by cvt instructions --*- C++ -*-===//
//
// f32 <-> e4m3 / e5m2 by the conversion instructions of sm_89 and newer,
// two values per instruction: the GPU schedules' alternative to the integer
// arithmetic of MoeToLoops/Fp8Codec.h, with the same results for the values
// the schedules convert (see encodeFp8ByInstructions).
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_FP8INSTRUCTIONS_H
#define MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_FP8INSTRUCTIONS_H

#include "mlir/IR/Builders.h"

namespace mlir::moe::gpu_schedules {

/// How the GPU schedules convert between f32 and FP8 codes.
enum class Fp8Conversion {
  /// Integer arithmetic (encodeFp8 / decodeFp8): runs on any target,
  /// the CPU included.
  Arithmetic,
  /// cvt.rn.satfinite.{e4m3,e5m2}x2.f32 and cvt.rn.f16x2.{e4m3,e5m2}x2
  /// (NVVM ops; sm_89 and newer).
  Instructions,
};

/// The FP8 codes (a vector<N x i8>) of the f32 `lanes` in `fp8Type`
/// (f8E4M3FN or f8E5M2), two lanes per cvt.rn.satfinite: rounded to
/// nearest even, subnormals exact, magnitudes above the largest finite
/// value (infinities included) saturated to it, as encodeFp8 does. A NaN
/// lane gives the positive NaN code, which is encodeFp8's for the canonical
/// NaN (canonicalizeNaN) that the schedules convert.
Value encodeFp8ByInstructions(OpBuilder &b, Location loc, ArrayRef<Value> lanes,
                              Type fp8Type);

/// The f32 values of FP8 codes (a vector<N x i8> of `fp8Type`), two per
/// cvt.rn.f16x2 (exact: every e4m3 and e5m2 value is an f16 value), then
/// widened exactly to f32. NaN codes give a NaN (its sign and payload are
/// not decodeFp8's; the schedules canonicalize what they store).
SmallVector<Value> decodeFp8ByInstructions(OpBuilder &b, Location loc,
                                           Value codes, Type fp8Type);

} // namespace mlir::moe::gpu_schedules

#endif // MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_FP8INSTRUCTIONS_H
