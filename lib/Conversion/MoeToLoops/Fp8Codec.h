//===- Fp8Codec.h - FP8 encode/decode as integer arithmetic -----*- C++ -*-===//
//
// Bit-exact conversions between f32 and the FP8 formats, emitted as integer
// arith ops so that they lower on any target (LLVM has no FP8 type).
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_CONVERSION_MOETOLOOPS_FP8CODEC_H
#define MOE_LIB_CONVERSION_MOETOLOOPS_FP8CODEC_H

#include "mlir/IR/Builders.h"

namespace mlir::moe::loops {

/// f32 → FP8 bits (i8) of `fp8Type` (f8E4M3FN, f8E5M2, f8E8M0FNU), round to
/// nearest even, saturating to the largest finite magnitude
/// (opmath::fp8MaxFinite); NaN → NaN. For f8E8M0FNU (a power-of-two scale) the
/// value is rounded up to the next power of two.
Value encodeFp8(OpBuilder &b, Location loc, Value f32Value, Type fp8Type);
/// FP8 bits (i8) of `fp8Type` → f32, exact.
Value decodeFp8(OpBuilder &b, Location loc, Value bits, Type fp8Type);

} // namespace mlir::moe::loops

#endif // MOE_LIB_CONVERSION_MOETOLOOPS_FP8CODEC_H
