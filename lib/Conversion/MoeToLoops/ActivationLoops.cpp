//===- ActivationLoops.cpp - moe.glu as scf/arith/math loops --------------===//
//
// h[r, f] = act(gate[r, f]) · up[r, f], in f32, with act from
// opmath::buildActivation (the forms the adjoint recomputes too). In the
// fused form `gate` is [R, 2F]: gate[r, f] and up = gate[r, F + f].
//
//===----------------------------------------------------------------------===//
#include "LoopBuilder.h"
#include "LoopEmitters.h"

#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::moe::loops {

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
      Value a = opmath::buildActivation(cb, cl, act, g);
      storeFromF32(cb, cl, arith::MulFOp::create(cb, cl, a, u), h, {r, f});
    }
  });
}

} // namespace mlir::moe::loops
