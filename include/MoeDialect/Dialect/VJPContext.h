//===- VJPContext.h - what an adjoint may ask of moe-generate-vjp -*- C++ -*-===//
#ifndef MOEDIALECT_DIALECT_VJPCONTEXT_H
#define MOEDIALECT_DIALECT_VJPCONTEXT_H

#include "mlir/IR/Value.h"

namespace mlir::moe {

/// Gives adjoints access to forward values inside the backward function.
class VJPContext {
public:
  virtual ~VJPContext() = default;
  /// The backward-side value of the forward value `forwardValue` (an operand
  /// or result of the op being differentiated): a residual argument of the
  /// backward function, or a recomputation, per the residual policy.
  virtual Value forward(Value forwardValue) = 0;
};

} // namespace mlir::moe

#endif // MOEDIALECT_DIALECT_VJPCONTEXT_H
