//===- DType.cpp - element types and exact rounding -----------------------===//

#include "moe_runtime/DType.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace moert {

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F64: return "f64";
  case DType::F32: return "f32";
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F8E4M3: return "f8e4m3";
  case DType::F8E5M2: return "f8e5m2";
  case DType::F8E8M0: return "f8e8m0";
  case DType::I64: return "i64";
  case DType::I32: return "i32";
  case DType::I8: return "i8";
  case DType::I1: return "i1";
  }
  return "?";
}

const char *allDTypeNames() {
  return "f64, f32, f16, bf16, f8e4m3, f8e5m2, f8e8m0, i64, i32, i8, i1";
}

bool parseDType(const std::string &name, DType *out) {
  for (int i = 0; i < kNumDTypes; ++i) {
    DType t = static_cast<DType>(i);
    if (name == dtypeName(t)) {
      *out = t;
      return true;
    }
  }
  return false;
}

size_t dtypeSize(DType t) {
  switch (t) {
  case DType::F64: return 8;
  case DType::F32: return 4;
  case DType::F16: return 2;
  case DType::BF16: return 2;
  case DType::F8E4M3: return 1;
  case DType::F8E5M2: return 1;
  case DType::F8E8M0: return 1;
  case DType::I64: return 8;
  case DType::I32: return 4;
  case DType::I8: return 1;
  case DType::I1: return 1;
  }
  return 1;
}

bool isFloatDType(DType t) {
  switch (t) {
  case DType::F64:
  case DType::F32:
  case DType::F16:
  case DType::BF16:
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::F8E8M0:
    return true;
  case DType::I64:
  case DType::I32:
  case DType::I8:
  case DType::I1:
    return false;
  }
  return false;
}

bool isNarrowFloatDType(DType t) {
  return isFloatDType(t) && t != DType::F64 && t != DType::F32;
}

namespace {

/// A binary floating-point format with a sign bit, `ebits` exponent bits and
/// `mbits` stored mantissa bits.
struct SmallFloat {
  int ebits;
  int mbits;
  int bias;
  /// IEEE-style: the all-ones exponent encodes inf/NaN. Otherwise (E4M3FN)
  /// only S.1111.111 is NaN and there is no infinity.
  bool ieeeSpecials;
  /// Overflow (and infinity) saturates to the largest finite value.
  bool saturate;
};

constexpr SmallFloat kF16{5, 10, 15, true, false};
constexpr SmallFloat kBF16{8, 7, 127, true, false};
constexpr SmallFloat kE4M3{4, 3, 7, false, true};
constexpr SmallFloat kE5M2{5, 2, 15, true, true};

uint32_t expAllOnes(const SmallFloat &f) { return (1u << f.ebits) - 1; }

/// Bits (without sign) of the largest finite value.
uint32_t maxFiniteBits(const SmallFloat &f) {
  if (f.ieeeSpecials)
    return ((expAllOnes(f) - 1) << f.mbits) | ((1u << f.mbits) - 1);
  return (expAllOnes(f) << f.mbits) | ((1u << f.mbits) - 2);
}

double decode(uint32_t bits, const SmallFloat &f) {
  uint32_t mantMask = (1u << f.mbits) - 1;
  uint32_t mant = bits & mantMask;
  uint32_t exp = (bits >> f.mbits) & expAllOnes(f);
  bool neg = (bits >> (f.ebits + f.mbits)) & 1u;
  double v;
  if (f.ieeeSpecials && exp == expAllOnes(f)) {
    v = mant ? std::numeric_limits<double>::quiet_NaN()
             : std::numeric_limits<double>::infinity();
  } else if (!f.ieeeSpecials && exp == expAllOnes(f) && mant == mantMask) {
    v = std::numeric_limits<double>::quiet_NaN();
  } else if (exp == 0) {
    v = std::ldexp(static_cast<double>(mant), 1 - f.bias - f.mbits);
  } else {
    v = std::ldexp(static_cast<double>(mant | (1u << f.mbits)),
                   static_cast<int>(exp) - f.bias - f.mbits);
  }
  return neg ? -v : v;
}

uint32_t encode(double v, const SmallFloat &f) {
  uint32_t signBit = (std::signbit(v) ? 1u : 0u) << (f.ebits + f.mbits);
  if (std::isnan(v)) {
    uint32_t nan = f.ieeeSpecials
                       ? (expAllOnes(f) << f.mbits) | (1u << (f.mbits - 1))
                       : (expAllOnes(f) << f.mbits) | ((1u << f.mbits) - 1);
    return signBit | nan;
  }
  uint32_t maxBits = maxFiniteBits(f);
  double maxFinite = decode(maxBits, f);
  uint32_t overflowBits = f.saturate ? maxBits : (expAllOnes(f) << f.mbits);
  double a = std::fabs(v);
  if (std::isinf(a))
    return signBit | overflowBits;

  const int emin = 1 - f.bias; // exponent of the smallest normal
  double r = 0.0;              // |v| rounded to the format's precision
  if (a != 0.0) {
    int e;
    std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
    int exponent = e - 1;
    int quantumExp = (exponent < emin ? emin : exponent) - f.mbits;
    double q = std::ldexp(a, -quantumExp); // exact: scaling by a power of 2
    double fl = std::floor(q);
    double diff = q - fl; // exact
    if (diff > 0.5 || (diff == 0.5 && std::fmod(fl, 2.0) != 0.0))
      fl += 1.0;
    r = std::ldexp(fl, quantumExp);
  }
  if (r > maxFinite)
    return signBit | overflowBits;
  if (r == 0.0)
    return signBit;
  int e;
  std::frexp(r, &e);
  int exponent = e - 1;
  if (exponent < emin) {
    uint32_t mant =
        static_cast<uint32_t>(std::ldexp(r, -(emin - f.mbits))); // subnormal
    return signBit | mant;
  }
  uint32_t mant = static_cast<uint32_t>(std::ldexp(r, f.mbits - exponent)) -
                  (1u << f.mbits);
  uint32_t biased = static_cast<uint32_t>(exponent + f.bias);
  return signBit | (biased << f.mbits) | mant;
}

/// double -> int64 without undefined behaviour: truncates, saturates out of
/// range, NaN -> 0.
int64_t toInt64(double v) {
  if (std::isnan(v))
    return 0;
  if (v >= 9223372036854775807.0)
    return std::numeric_limits<int64_t>::max();
  if (v <= -9223372036854775808.0)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

/// One element's bytes, copied (a buffer need not be aligned for T).
template <typename T> void storeBits(void *dst, T v) { std::memcpy(dst, &v, sizeof(T)); }
template <typename T> T loadBits(const void *src) {
  T v;
  std::memcpy(&v, src, sizeof(T));
  return v;
}

} // namespace

uint16_t roundToBF16(double v) {
  // Normal results (the common case, e.g. every random input): round the
  // double's 52-bit mantissa to bf16's 7 bits, to nearest even, in the bits
  // themselves; a carry into the exponent is the correctly rounded result.
  // The rest (subnormal, overflow, inf, NaN) takes the general path.
  double a = std::fabs(v);
  if (a >= 0x1p-126 && a < 0x1p128) {
    uint64_t bits;
    std::memcpy(&bits, &a, sizeof bits);
    bits += (uint64_t(1) << 44) - 1 + ((bits >> 45) & 1);
    int exponent = static_cast<int>(bits >> 52) - 1023;
    if (exponent <= 127)
      return static_cast<uint16_t>((std::signbit(v) ? 0x8000u : 0u) |
                                   static_cast<uint32_t>(exponent + 127) << 7 |
                                   static_cast<uint32_t>((bits >> 45) & 0x7F));
  }
  return static_cast<uint16_t>(encode(v, kBF16));
}
uint16_t roundToF16(double v) { return static_cast<uint16_t>(encode(v, kF16)); }
uint8_t roundToF8E4M3(double v) { return static_cast<uint8_t>(encode(v, kE4M3)); }
uint8_t roundToF8E5M2(double v) { return static_cast<uint8_t>(encode(v, kE5M2)); }

uint8_t roundToF8E8M0(double v) {
  if (std::isnan(v))
    return 0xFF;
  double a = std::fabs(v);
  if (a == 0.0)
    return 0x00; // clamp to the smallest value, 2^-127
  if (std::isinf(a))
    return 0xFE;
  int e;
  double m = std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  int exponent = e - 1;         // a = (2m) * 2^exponent, 2m in [1, 2)
  if (2.0 * m >= 1.5)           // nearest power of two, ties up
    exponent += 1;
  if (exponent < -127)
    exponent = -127;
  if (exponent > 127)
    exponent = 127;
  return static_cast<uint8_t>(exponent + 127);
}

double bf16ToDouble(uint16_t bits) {
  // bf16 is the upper half of an f32 (subnormals, infinities and NaN too).
  uint32_t f32Bits = static_cast<uint32_t>(bits) << 16;
  return loadBits<float>(&f32Bits);
}
double f16ToDouble(uint16_t bits) { return decode(bits, kF16); }
double f8e4m3ToDouble(uint8_t bits) { return decode(bits, kE4M3); }
double f8e5m2ToDouble(uint8_t bits) { return decode(bits, kE5M2); }
double f8e8m0ToDouble(uint8_t bits) {
  if (bits == 0xFF)
    return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, static_cast<int>(bits) - 127);
}

void storeFloat(DType t, double v, void *dst) {
  switch (t) {
  case DType::F64: return storeBits(dst, v);
  case DType::F32: return storeBits(dst, static_cast<float>(v)); // IEEE RNE
  case DType::F16: return storeBits(dst, roundToF16(v));
  case DType::BF16: return storeBits(dst, roundToBF16(v));
  case DType::F8E4M3: return storeBits(dst, roundToF8E4M3(v));
  case DType::F8E5M2: return storeBits(dst, roundToF8E5M2(v));
  case DType::F8E8M0: return storeBits(dst, roundToF8E8M0(v));
  case DType::I64:
  case DType::I32:
  case DType::I8:
  case DType::I1:
    return storeInt(t, toInt64(v), dst);
  }
}

void storeInt(DType t, int64_t v, void *dst) {
  switch (t) {
  case DType::I64: return storeBits(dst, v);
  case DType::I32: return storeBits(dst, static_cast<int32_t>(v));
  case DType::I8: return storeBits(dst, static_cast<int8_t>(v));
  case DType::I1: return storeBits(dst, static_cast<uint8_t>(v != 0 ? 1 : 0));
  case DType::F64:
  case DType::F32:
  case DType::F16:
  case DType::BF16:
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::F8E8M0:
    return storeFloat(t, static_cast<double>(v), dst);
  }
}

double loadAsDouble(DType t, const void *src) {
  switch (t) {
  case DType::F64: return loadBits<double>(src);
  case DType::F32: return loadBits<float>(src);
  case DType::F16: return f16ToDouble(loadBits<uint16_t>(src));
  case DType::BF16: return bf16ToDouble(loadBits<uint16_t>(src));
  case DType::F8E4M3: return f8e4m3ToDouble(loadBits<uint8_t>(src));
  case DType::F8E5M2: return f8e5m2ToDouble(loadBits<uint8_t>(src));
  case DType::F8E8M0: return f8e8m0ToDouble(loadBits<uint8_t>(src));
  case DType::I64:
  case DType::I32:
  case DType::I8:
  case DType::I1:
    return static_cast<double>(loadAsInt(t, src));
  }
  return 0.0;
}

int64_t loadAsInt(DType t, const void *src) {
  switch (t) {
  case DType::I64: return loadBits<int64_t>(src);
  case DType::I32: return loadBits<int32_t>(src);
  case DType::I8: return loadBits<int8_t>(src);
  case DType::I1: return loadBits<uint8_t>(src) != 0 ? 1 : 0;
  case DType::F64:
  case DType::F32:
  case DType::F16:
  case DType::BF16:
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::F8E8M0:
    return toInt64(loadAsDouble(t, src));
  }
  return 0;
}

} // namespace moert
