//===- OpMath.cpp - the numeric semantics of the moe ops ------------------===//
#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>

namespace mlir::moe::opmath {

namespace {
/// The float arithmetic the formulas use, with constants of the operands'
/// type.
struct FloatMath {
  OpBuilder &b;
  Location loc;
  Type type;

  Value c(double v) { return floatConst(b, loc, type, v); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value exp(Value x) { return math::ExpOp::create(b, loc, x); }
  Value relu(Value x) { return arith::MaximumFOp::create(b, loc, x, c(0.0)); }
  Value gt(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  /// x where x is NaN, v elsewhere: a value that does not depend on x
  /// arithmetically still propagates a NaN x.
  Value nanOr(Value x, Value v) {
    Value isNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    return select(isNan, x, v);
  }
};

FloatMath mathFor(OpBuilder &b, Location loc, Value x) {
  return FloatMath{b, loc, x.getType()};
}

/// √(2/π) = (2/√π) · (1/√2), the gelu_tanh inner scale.
constexpr double kSqrt2OverPi = M_2_SQRTPI * M_SQRT1_2;
/// The cubic coefficient of gelu_tanh's inner polynomial.
constexpr double kGeluTanhCubic = 0.044715;
/// 1/√(2π), the standard normal density at 0.
constexpr double kInvSqrt2Pi = 0.5 * M_2_SQRTPI * M_SQRT1_2;

/// gelu_tanh's e^(-2u), u = √(2/π)(x + 0.044715 x³).
Value geluTanhExp(FloatMath &m, Value x) {
  Value x3 = m.mul(m.mul(x, x), x);
  Value inner = m.add(x, m.mul(m.c(kGeluTanhCubic), x3));
  return m.exp(m.mul(m.c(-2.0 * kSqrt2OverPi), inner));
}

/// erfc(-x/√2) = 1 + erf(x/√2) = 2 Φ(x).
Value twiceNormalCdf(FloatMath &m, Value x) {
  return math::ErfcOp::create(m.b, m.loc, m.mul(x, m.c(-M_SQRT1_2)));
}
} // namespace

Value floatConst(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

//===----------------------------------------------------------------------===//
// GLU activations
//===----------------------------------------------------------------------===//

Value buildActivation(OpBuilder &b, Location loc, Activation act, Value x) {
  FloatMath m = mathFor(b, loc, x);
  switch (act) {
  case Activation::Silu:
    return m.div(x, m.add(m.c(1.0), m.exp(m.neg(x))));
  case Activation::Gelu: {
    Value cdf2 = twiceNormalCdf(m, x);
    return m.mul(m.mul(m.c(0.5), x), cdf2);
  }
  case Activation::GeluTanh:
    return m.div(x, m.add(m.c(1.0), geluTanhExp(m, x)));
  case Activation::Relu:
    return m.relu(x);
  case Activation::Relu2: {
    Value r = m.relu(x);
    return m.mul(r, r);
  }
  case Activation::Identity:
    return x;
  }
  llvm_unreachable("unknown activation");
}

Value buildActivationDerivative(OpBuilder &b, Location loc, Activation act,
                                Value x) {
  FloatMath m = mathFor(b, loc, x);
  switch (act) {
  case Activation::Silu: {
    Value one = m.c(1.0);
    Value s = buildSigmoid(b, loc, x);
    return m.mul(s, m.add(one, m.mul(x, m.sub(one, s))));
  }
  case Activation::Gelu: {
    Value cdf = m.mul(m.c(0.5), twiceNormalCdf(m, x));
    Value pdf =
        m.mul(m.c(kInvSqrt2Pi), m.exp(m.mul(m.c(-0.5), m.mul(x, x))));
    return m.add(cdf, m.mul(x, pdf));
  }
  case Activation::GeluTanh: {
    // With s = 1/(1 + e^(-2u)) = (1 + tanh u)/2: d/dx x·s = s + x·2s(1-s)·u'.
    Value one = m.c(1.0);
    Value s = m.div(one, m.add(one, geluTanhExp(m, x)));
    Value du = m.mul(m.c(kSqrt2OverPi),
                     m.add(one, m.mul(m.c(3.0 * kGeluTanhCubic), m.mul(x, x))));
    Value slope = m.mul(m.mul(m.c(2.0), m.mul(s, m.sub(one, s))), du);
    return m.add(s, m.mul(x, slope));
  }
  case Activation::Relu: {
    Value zero = m.c(0.0);
    return m.nanOr(x, m.select(m.gt(x, zero), m.c(1.0), zero));
  }
  case Activation::Relu2:
    return m.mul(m.c(2.0), m.relu(x));
  case Activation::Identity:
    return m.nanOr(x, m.c(1.0));
  }
  llvm_unreachable("unknown activation");
}

//===----------------------------------------------------------------------===//
// Score functions and softmax pieces
//===----------------------------------------------------------------------===//

Value buildSigmoid(OpBuilder &b, Location loc, Value x) {
  FloatMath m = mathFor(b, loc, x);
  Value one = m.c(1.0);
  return m.div(one, m.add(one, m.exp(m.neg(x))));
}

Value buildSoftplus(OpBuilder &b, Location loc, Value x) {
  FloatMath m = mathFor(b, loc, x);
  return m.select(m.gt(x, m.c(kSoftplusThreshold)), x,
                  math::Log1pOp::create(b, loc, m.exp(x)));
}

Value buildSoftplusDerivative(OpBuilder &b, Location loc, Value x) {
  FloatMath m = mathFor(b, loc, x);
  return m.select(m.gt(x, m.c(kSoftplusThreshold)), m.c(1.0),
                  buildSigmoid(b, loc, x));
}

Value buildSqrtSoftplus(OpBuilder &b, Location loc, Value x) {
  return math::SqrtOp::create(b, loc, buildSoftplus(b, loc, x));
}

Value buildMaxStep(OpBuilder &b, Location loc, Value acc, Value x) {
  return arith::MaximumFOp::create(b, loc, acc, x);
}

Value buildShiftedExp(OpBuilder &b, Location loc, Value x, Value max) {
  FloatMath m = mathFor(b, loc, x);
  return m.exp(m.sub(x, max));
}

Value buildLogSumExp(OpBuilder &b, Location loc, Value max, Value sumExp) {
  FloatMath m = mathFor(b, loc, max);
  return m.add(max, math::LogOp::create(b, loc, sumExp));
}

Value buildSoftmaxGrad(OpBuilder &b, Location loc, Value p, Value dp,
                       Value dot) {
  FloatMath m = mathFor(b, loc, p);
  return m.mul(p, m.sub(dp, dot));
}

Value buildNormalizeDenominator(OpBuilder &b, Location loc, Value sum) {
  FloatMath m = mathFor(b, loc, sum);
  return m.add(sum, m.c(kNormalizeEpsilon));
}

Value buildNormalizeGrad(OpBuilder &b, Location loc, Value dw, Value sum,
                         Value dot) {
  FloatMath m = mathFor(b, loc, dw);
  Value z = buildNormalizeDenominator(b, loc, sum);
  return m.sub(m.div(dw, z), m.div(dot, m.mul(z, z)));
}

//===----------------------------------------------------------------------===//
// FP8 formats and quantization blocks
//===----------------------------------------------------------------------===//

bool isFp8DataType(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

bool isFp8Type(Type type) {
  return isFp8DataType(type) || isa<Float8E8M0FNUType>(type);
}

Fp8Format fp8Format(Type fp8DataType) {
  if (isa<Float8E4M3FNType>(fp8DataType))
    return {/*mantissaBits=*/3, /*bias=*/7, /*maxFiniteCode=*/0x7E,
            /*ieeeSpecials=*/false};
  if (isa<Float8E5M2Type>(fp8DataType))
    return {/*mantissaBits=*/2, /*bias=*/15, /*maxFiniteCode=*/0x7B,
            /*ieeeSpecials=*/true};
  llvm_unreachable("not a sign/exponent/mantissa FP8 type");
}

double fp8MaxFinite(Type fp8Type) {
  if (isFp8DataType(fp8Type)) {
    // The largest finite code, 0.EEEE.MMM: (1 + man/2^m) · 2^(exp - bias).
    Fp8Format fmt = fp8Format(fp8Type);
    int32_t code = fmt.maxFiniteCode;
    int32_t man = code & ((1 << fmt.mantissaBits) - 1);
    int32_t exp = code >> fmt.mantissaBits;
    return std::ldexp(double((1 << fmt.mantissaBits) + man),
                      exp - fmt.bias - fmt.mantissaBits);
  }
  if (isa<Float8E8M0FNUType>(fp8Type))
    return std::ldexp(1.0, 127);
  llvm_unreachable("not an FP8 type");
}

std::optional<QuantBlockShape> quantBlockShape(QuantRecipe recipe) {
  switch (recipe) {
  case QuantRecipe::Tensorwise:
  case QuantRecipe::Delayed:
    return std::nullopt;
  case QuantRecipe::Block1x128:
    return QuantBlockShape{1, 128};
  case QuantRecipe::Block128x128:
    return QuantBlockShape{128, 128};
  case QuantRecipe::MX1x32:
    return QuantBlockShape{1, 32};
  }
  llvm_unreachable("unknown quantization recipe");
}

Type quantScaleElementType(QuantRecipe recipe, MLIRContext *ctx) {
  if (recipe == QuantRecipe::MX1x32)
    return Float8E8M0FNUType::get(ctx);
  return Float32Type::get(ctx);
}

bool autoPrefersGeneratedGroupedGemm(int64_t groups, int64_t rows,
                                     bool weightGrad) {
  if (groups > 0 && rows >= kAutoGeneratedMinRowsPerGroup * groups)
    return true;
  if (groups < kAutoGeneratedMinGroups)
    return false;
  return !weightGrad ||
         rows >= kAutoGeneratedWeightGradMinRowsPerGroup * groups;
}

} // namespace mlir::moe::opmath
