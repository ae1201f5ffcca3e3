//===- Fp8Codec.cpp - FP8 encode/decode as integer arithmetic -------------===//
//
// f32 <-> FP8 as plain i32 arith ops (LLVM has no FP8 type), bit-exact, for
// f8E4M3FN and f8E5M2 (their layouts: opmath::Fp8Format) and
//
//   f8E8M0FNU EEEEEEEE    unsigned power of two 2^(E-127), 0xFF = NaN
//
// Encoding to e4m3/e5m2 rounds to nearest, ties to even, subnormals exactly,
// and saturates ("satfinite"): any magnitude whose rounded value lies above
// the largest finite one, infinities included, becomes ±max finite. NaN
// becomes NaN (S.1111111, the input's sign). -0 stays -0.
//
// Encoding to e8m0 (only used for MX block scales) rounds UP to the next
// power of two: a scale s ≥ amax / fp8_max then guarantees |x / s| ≤ fp8_max,
// so MX quantization never clips (the NVIDIA "round to +inf" scale rule). The
// sign is ignored (a scale is a magnitude); values at or below 2^-127, zero
// included, give 0x00 (2^-127, the smallest scale); values above 2^127,
// infinities included, saturate to 0xFE (2^127); NaN gives 0xFF.
//
//===----------------------------------------------------------------------===//
#include "Fp8Codec.h"
#include "LoopBuilder.h"

#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

namespace mlir::moe::loops {

namespace {

/// A small i32 arithmetic vocabulary to keep the algorithms readable.
struct I32 {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) { return i32Const(b, loc, static_cast<int32_t>(v)); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value band(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value bor(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value shr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value eq(Value x, Value y) { return cmp(arith::CmpIPredicate::eq, x, y); }
  Value ne(Value x, Value y) { return cmp(arith::CmpIPredicate::ne, x, y); }
  Value ugt(Value x, Value y) { return cmp(arith::CmpIPredicate::ugt, x, y); }
  Value ule(Value x, Value y) { return cmp(arith::CmpIPredicate::ule, x, y); }
  Value sge(Value x, Value y) { return cmp(arith::CmpIPredicate::sge, x, y); }
  Value sel(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value minu(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value mins(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value maxs(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  /// Zero-extends an i1 or i8 to i32.
  Value zext(Value x) {
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), x);
  }

  /// v >> s rounded to nearest, ties to even, for an unsigned v and a shift
  /// s in [1, 31].
  Value shiftRightRne(Value v, Value s) {
    Value one = c(1);
    Value q = shr(v, s);
    Value rem = band(v, sub(shl(one, s), one));
    Value half = shl(one, sub(s, one));
    Value above = ugt(rem, half);
    Value tieOdd = band(eq(rem, half), eq(band(q, one), one));
    return add(q, zext(bor(above, tieOdd)));
  }
};

Value encodeE8M0(OpBuilder &b, Location loc, Value v) {
  I32 i{b, loc};
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), v);
  Value abs = i.band(bits, i.c(0x7FFFFFFF));
  Value exp = i.shr(abs, i.c(23));
  Value man = i.band(abs, i.c(0x7FFFFF));
  // Normal f32 (exponent field 1..254, and 255 for inf): 2^(exp-127) times
  // 1.man rounds up to 2^(exp-127+1) unless man is zero; inf and results
  // above 2^127 saturate to 0xFE.
  Value normal = i.minu(i.add(exp, i.zext(i.ne(man, i.c(0)))), i.c(0xFE));
  // Exponent field 0 (zero or an f32 subnormal, < 2^-126): 2^-127 (0x00)
  // covers it when it is at most 2^-127 (man ≤ 0x400000), else 2^-126.
  Value sub = i.zext(i.ugt(man, i.c(0x400000)));
  Value code = i.sel(i.eq(exp, i.c(0)), sub, normal);
  Value isNan = i.ugt(abs, i.c(0x7F800000));
  code = i.sel(isNan, i.c(0xFF), code);
  return arith::TruncIOp::create(b, loc, b.getI8Type(), code);
}

Value decodeE8M0(OpBuilder &b, Location loc, Value bits8) {
  I32 i{b, loc};
  Value e = i.zext(bits8);
  // 2^(e-127): exponent field e for e ≥ 1; e = 0 is the f32 subnormal
  // 2^-127 = 0x00400000.
  Value mag = i.sel(i.eq(e, i.c(0)), i.c(0x00400000), i.shl(e, i.c(23)));
  mag = i.sel(i.eq(e, i.c(0xFF)), i.c(0x7FC00000), mag);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), mag);
}

} // namespace

Value encodeFp8(OpBuilder &b, Location loc, Value f32Value, Type fp8Type) {
  if (isa<Float8E8M0FNUType>(fp8Type))
    return encodeE8M0(b, loc, f32Value);
  opmath::Fp8Format fmt = opmath::fp8Format(fp8Type);
  I32 i{b, loc};
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), f32Value);
  Value sign = i.band(i.shr(bits, i.c(24)), i.c(0x80));
  Value abs = i.band(bits, i.c(0x7FFFFFFF));
  Value exp = i.shr(abs, i.c(23));
  // The biased exponent the value would have in the FP8 format.
  Value fp8Exp = i.sub(exp, i.c(127 - fmt.bias));

  // Normal result (fp8Exp ≥ 1): rebias the f32 bits and drop the low
  // mantissa bits with rounding; a mantissa carry bumps the exponent, as it
  // should. Overflow (inf included) lands above maxFiniteCode.
  Value rebased = i.sub(abs, i.c(int64_t(127 - fmt.bias) << 23));
  Value normal = i.shiftRightRne(rebased, i.c(23 - fmt.mantissaBits));

  // Subnormal result (fp8Exp ≤ 0): the code is the value in units of the
  // smallest subnormal 2^(1-bias-mantissaBits), i.e. 1.man · 2^23 shifted
  // right by 24 - mantissaBits - fp8Exp. Rounding up to 1 << mantissaBits
  // gives the smallest normal, which is right. Shifts of 25 and more leave
  // zero (1.man < 2^24 < half), so clamping to 31 changes nothing; the lower
  // clamp only keeps the unselected arm well defined.
  Value full = i.bor(i.band(abs, i.c(0x7FFFFF)), i.c(0x800000));
  Value shift = i.sub(i.c(24 - fmt.mantissaBits), fp8Exp);
  shift = i.maxs(i.mins(shift, i.c(31)), i.c(1));
  Value subnormal = i.shiftRightRne(full, shift);

  Value code = i.sel(i.sge(fp8Exp, i.c(1)), normal, subnormal);
  code = i.minu(code, i.c(fmt.maxFiniteCode)); // satfinite
  Value isNan = i.ugt(abs, i.c(0x7F800000));
  code = i.sel(isNan, i.c(0x7F), code);
  code = i.bor(code, sign);
  return arith::TruncIOp::create(b, loc, b.getI8Type(), code);
}

Value decodeFp8(OpBuilder &b, Location loc, Value bits, Type fp8Type) {
  if (isa<Float8E8M0FNUType>(fp8Type))
    return decodeE8M0(b, loc, bits);
  opmath::Fp8Format fmt = opmath::fp8Format(fp8Type);
  I32 i{b, loc};
  Value v = i.zext(bits);
  Value sign = i.shl(i.band(v, i.c(0x80)), i.c(24));
  Value magBits = i.band(v, i.c(0x7F));
  int expMask = (1 << (7 - fmt.mantissaBits)) - 1;
  Value exp = i.shr(magBits, i.c(fmt.mantissaBits));
  Value man = i.band(magBits, i.c((1 << fmt.mantissaBits) - 1));

  // Normal: rebias the exponent, widen the mantissa.
  Value normal =
      i.bor(i.shl(i.add(exp, i.c(127 - fmt.bias)), i.c(23)),
            i.shl(man, i.c(23 - fmt.mantissaBits)));
  // Subnormal (and zero): man · 2^(1 - bias - mantissaBits), exact in f32.
  Value subF = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, b.getF32Type(), man),
      f32Const(b, loc, std::ldexp(1.0, 1 - fmt.bias - fmt.mantissaBits)));
  Value subnormal = arith::BitcastOp::create(b, loc, b.getI32Type(), subF);
  Value mag = i.sel(i.eq(exp, i.c(0)), subnormal, normal);

  Value nan = i.c(0x7FC00000);
  if (fmt.ieeeSpecials) {
    Value special = i.sel(i.eq(man, i.c(0)), i.c(0x7F800000), nan);
    mag = i.sel(i.eq(exp, i.c(expMask)), special, mag);
  } else {
    mag = i.sel(i.eq(magBits, i.c(0x7F)), nan, mag);
  }
  return arith::BitcastOp::create(b, loc, b.getF32Type(), i.bor(mag, sign));
}

} // namespace mlir::moe::loops
