//===- ActivationLoops.cpp - moe.glu as scf/arith/math loops --------------===//
//
// h[r, f] = act(gate[r, f]) · up[r, f], in f32. In the fused form `gate` is
// [R, 2F]: gate[r, f] and up = gate[r, F + f].
//
//   silu       x · σ(x) = x / (1 + e^-x)
//   gelu       0.5 · x · (1 + erf(x / √2))                       (exact)
//   gelu_tanh  0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))
//   relu       max(x, 0)           (NaN stays NaN: arith.maximumf)
//   relu2      max(x, 0)²
//   identity   x                   (bilinear GLU)
//
// The two GELUs are evaluated in forms that are equal in exact arithmetic
// but avoid the cancellation of 1 + erf / 1 + tanh near -1 for negative x
// (in f32 that loses up to ~1e-5 relative at x = -3, more further out):
//   1 + erf(y)  = erfc(-y)                 → gelu      = 0.5 · x · erfc(-x/√2)
//   1 + tanh(u) = 2 / (1 + e^(-2u))        → gelu_tanh = x / (1 + e^(-2u))
//
//===----------------------------------------------------------------------===//
#include "LoopBuilder.h"
#include "LoopEmitters.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

namespace mlir::moe::loops {

static Value emitActivation(OpBuilder &b, Location loc, Activation act,
                            Value x) {
  auto mul = [&](Value l, Value r) -> Value {
    return arith::MulFOp::create(b, loc, l, r);
  };
  auto add = [&](Value l, Value r) -> Value {
    return arith::AddFOp::create(b, loc, l, r);
  };
  auto relu = [&]() -> Value {
    return arith::MaximumFOp::create(b, loc, x, f32Const(b, loc, 0.0));
  };
  switch (act) {
  case Activation::Silu: {
    Value negX = arith::NegFOp::create(b, loc, x);
    Value denom = add(f32Const(b, loc, 1.0), math::ExpOp::create(b, loc, negX));
    return arith::DivFOp::create(b, loc, x, denom);
  }
  case Activation::Gelu: {
    // 0.5 · x · (1 + erf(x/√2)) = 0.5 · x · erfc(-x/√2)
    Value c = math::ErfcOp::create(b, loc,
                                   mul(x, f32Const(b, loc, -M_SQRT1_2)));
    return mul(mul(f32Const(b, loc, 0.5), x), c);
  }
  case Activation::GeluTanh: {
    // 0.5 · x · (1 + tanh(u)) = x / (1 + e^(-2u)), u = √(2/π)(x + 0.044715x³)
    // with √(2/π) = M_2_SQRTPI · M_SQRT1_2 = (2/√π) · (1/√2).
    double k = M_2_SQRTPI * M_SQRT1_2;
    Value x3 = mul(mul(x, x), x);
    Value inner = add(x, mul(f32Const(b, loc, 0.044715), x3));
    Value e = math::ExpOp::create(b, loc, mul(f32Const(b, loc, -2.0 * k), inner));
    return arith::DivFOp::create(b, loc, x, add(f32Const(b, loc, 1.0), e));
  }
  case Activation::Relu:
    return relu();
  case Activation::Relu2: {
    Value r = relu();
    return mul(r, r);
  }
  case Activation::Identity:
    return x;
  }
  llvm_unreachable("unknown activation");
}

void emitGlu(OpBuilder &b, Location loc, Activation act, Value gate, Value up,
             Value h) {
  Value rows = dimOf(b, loc, h, 0);
  Value cols = dimOf(b, loc, h, 1); // F
  parallelFor(b, loc, {rows, cols}, [&](OpBuilder &cb, Location cl,
                                        ValueRange ivs) {
    Value r = ivs[0], f = ivs[1];
    {
      Value g = loadAsF32(cb, cl, gate, {r, f});
      Value u;
      if (up) {
        u = loadAsF32(cb, cl, up, {r, f});
      } else {
        Value upCol = arith::AddIOp::create(cb, cl, cols, f);
        u = loadAsF32(cb, cl, gate, {r, upCol});
      }
      Value a = emitActivation(cb, cl, act, g);
      storeFromF32(cb, cl, arith::MulFOp::create(cb, cl, a, u), h, {r, f});
    }
  });
}

} // namespace mlir::moe::loops
