//===- DType.h - element types of artifact buffers --------------*- C++ -*-===//
//
// The element types an artifact argument may have, their storage, and exact
// conversions between them and double:
//   * double -> bf16 / f16 / f32: IEEE round-to-nearest-even, overflow to inf.
//   * double -> f8e4m3 (OCP E4M3FN) / f8e5m2: round-to-nearest-even with
//     saturation to the largest finite value (inf saturates too; NaN stays NaN).
//   * double -> f8e8m0 (OCP E8M0, unsigned power of two, bias 127): the
//     magnitude is rounded to nearest (ties up) and clamped to [2^-127, 2^127];
//     NaN -> 0xFF.
// All rounding is done directly from double (never via float), so there is no
// double rounding. Decoding to double is exact for every type.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_DTYPE_H
#define MOE_RUNTIME_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace moert {

enum class DType : int {
  F64 = 0,
  F32,
  F16,
  BF16,
  F8E4M3,
  F8E5M2,
  F8E8M0,
  I64,
  I32,
  I8,
  I1, // stored as one byte, 0 or 1
};

constexpr int kNumDTypes = 11;

/// "f64", "bf16", ... as used in artifact metadata.
const char *dtypeName(DType t);
/// Parse an artifact dtype name; false if unknown.
bool parseDType(const std::string &name, DType *out);
/// Storage size of one element in bytes.
size_t dtypeSize(DType t);
/// True for the floating-point types (f64 ... f8e8m0).
bool isFloatDType(DType t);
/// True for the floating-point types narrower than f32 (f16, bf16, fp8).
bool isNarrowFloatDType(DType t);
/// Comma-separated list of every dtype name (for messages).
const char *allDTypeNames();

// Rounding from double (see the file comment for the rules).
uint16_t roundToBF16(double v);
uint16_t roundToF16(double v);
uint8_t roundToF8E4M3(double v);
uint8_t roundToF8E5M2(double v);
uint8_t roundToF8E8M0(double v);

// Exact decoding to double.
double bf16ToDouble(uint16_t bits);
double f16ToDouble(uint16_t bits);
double f8e4m3ToDouble(uint8_t bits);
double f8e5m2ToDouble(uint8_t bits);
double f8e8m0ToDouble(uint8_t bits);

/// Round `v` to float type `t` and store one element at `dst`.
/// Precondition: isFloatDType(t).
void storeFloat(DType t, double v, void *dst);
/// Store an integer into integer type `t` (I64/I32/I8/I1), truncating.
void storeInt(DType t, int64_t v, void *dst);
/// Load one element of any type as double (exact for every type but i64
/// values beyond 2^53).
double loadAsDouble(DType t, const void *src);
/// Load one element of an integer type (I64/I32/I8/I1).
int64_t loadAsInt(DType t, const void *src);

} // namespace moert

#endif // MOE_RUNTIME_DTYPE_H
