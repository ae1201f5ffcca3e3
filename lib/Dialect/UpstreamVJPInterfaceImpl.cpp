//===- UpstreamVJPInterfaceImpl.cpp - adjoints of upstream ops ------------===//
//
// VJPOpInterface models for the upstream ops moe programs use around the moe
// ops: float arithmetic, float casts and reshapes are differentiated; the
// constants and empty tensors they start from carry no gradient and are
// always recomputed in the backward (there is nothing to save).
//
// They live in the dialect library, beside the interface and the moe ops'
// models, rather than with moe-generate-vjp: they depend only on the arith
// and tensor IR, and whoever registers the moe dialect's models (moe-opt,
// moe-compile, embedders through registerMoeDialects) gets them all.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/UpstreamVJPInterfaceImpl.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::moe;

namespace {

template <typename Derived, typename OpT>
using Adjoint = VJPOpInterface::ExternalModel<Derived, OpT>;

/// An op with no differentiable operand whose results are cheaper to make
/// again in the backward than to save: arith.constant, tensor.empty.
template <typename OpT>
struct NoGradientAdjoint : Adjoint<NoGradientAdjoint<OpT>, OpT> {
  bool isDifferentiableOperand(Operation *, unsigned) const { return false; }
  RecomputeClass getRecomputeClass(Operation *) const {
    return RecomputeClass::Always;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &, VJPContext &,
                         ArrayRef<Value>, SmallVectorImpl<Value> &dops) const {
    dops.append(op->getNumOperands(), Value());
    return success();
  }
};

/// The backward-side values of a binary op's operands (lhs asked for first).
std::pair<Value, Value> forwardOperands(Operation *op, VJPContext &ctx) {
  Value lhs = ctx.forward(op->getOperand(0));
  return {lhs, ctx.forward(op->getOperand(1))};
}

// The cotangents of an elementwise op's operands, in operand order, from the
// cotangent `d` of its result (one overload per op, used by
// ElementwiseAdjoint).

/// d(a + b) = d for a and for b.
void appendOperandCotangents(arith::AddFOp, OpBuilder &, VJPContext &, Value d,
                             SmallVectorImpl<Value> &dops) {
  dops.append({d, d});
}

/// d(a − b) = d for a, −d for b.
void appendOperandCotangents(arith::SubFOp op, OpBuilder &b, VJPContext &,
                             Value d, SmallVectorImpl<Value> &dops) {
  dops.append({d, arith::NegFOp::create(b, op.getLoc(), d)});
}

/// d(−a) = −d.
void appendOperandCotangents(arith::NegFOp op, OpBuilder &b, VJPContext &,
                             Value d, SmallVectorImpl<Value> &dops) {
  dops.push_back(arith::NegFOp::create(b, op.getLoc(), d));
}

/// d(a·b) = d·b for a, d·a for b.
void appendOperandCotangents(arith::MulFOp op, OpBuilder &b, VJPContext &ctx,
                             Value d, SmallVectorImpl<Value> &dops) {
  auto [lhs, rhs] = forwardOperands(op, ctx);
  dops.push_back(arith::MulFOp::create(b, op.getLoc(), d, rhs));
  dops.push_back(arith::MulFOp::create(b, op.getLoc(), d, lhs));
}

/// d(a/b) = d/b for a, −(d/b)·a/b for b.
void appendOperandCotangents(arith::DivFOp op, OpBuilder &b, VJPContext &ctx,
                             Value d, SmallVectorImpl<Value> &dops) {
  auto [lhs, rhs] = forwardOperands(op, ctx);
  Location loc = op.getLoc();
  Value da = arith::DivFOp::create(b, loc, d, rhs);
  Value db = arith::NegFOp::create(
      b, loc,
      arith::DivFOp::create(b, loc, arith::MulFOp::create(b, loc, da, lhs),
                            rhs));
  dops.append({da, db});
}

/// Float casts: the cotangent takes the opposite cast back to the operand's
/// type.
void appendOperandCotangents(arith::TruncFOp op, OpBuilder &b, VJPContext &,
                             Value d, SmallVectorImpl<Value> &dops) {
  dops.push_back(
      arith::ExtFOp::create(b, op.getLoc(), op.getIn().getType(), d));
}
void appendOperandCotangents(arith::ExtFOp op, OpBuilder &b, VJPContext &,
                             Value d, SmallVectorImpl<Value> &dops) {
  dops.push_back(
      arith::TruncFOp::create(b, op.getLoc(), op.getIn().getType(), d));
}

/// An elementwise float op (one result, every operand differentiable).
template <typename OpT>
struct ElementwiseAdjoint : Adjoint<ElementwiseAdjoint<OpT>, OpT> {
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    appendOperandCotangents(cast<OpT>(op), b, ctx, dres[0], dops);
    return success();
  }
};

/// A reshape: the cotangent takes the inverse reshape (collapse_shape ←
/// expand_shape and back, same reassociation); the dynamic output sizes of
/// expand_shape carry no gradient.
template <typename ReshapeOpT, typename InverseReshapeOpT>
struct ReshapeAdjoint
    : Adjoint<ReshapeAdjoint<ReshapeOpT, InverseReshapeOpT>, ReshapeOpT> {
  bool isDifferentiableOperand(Operation *, unsigned index) const {
    return index == 0;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto reshape = cast<ReshapeOpT>(op);
    dops.push_back(
        InverseReshapeOpT::create(b, op->getLoc(), reshape.getSrcType(),
                                  dres[0], reshape.getReassociationIndices()));
    dops.append(op->getNumOperands() - 1, Value());
    return success();
  }
};
} // namespace

void mlir::moe::registerUpstreamVJPInterfaceExternalModels(
    DialectRegistry &registry) {
  // describeUpstreamVJPOps names what is attached here.
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    arith::AddFOp::attachInterface<ElementwiseAdjoint<arith::AddFOp>>(*ctx);
    arith::SubFOp::attachInterface<ElementwiseAdjoint<arith::SubFOp>>(*ctx);
    arith::MulFOp::attachInterface<ElementwiseAdjoint<arith::MulFOp>>(*ctx);
    arith::DivFOp::attachInterface<ElementwiseAdjoint<arith::DivFOp>>(*ctx);
    arith::NegFOp::attachInterface<ElementwiseAdjoint<arith::NegFOp>>(*ctx);
    arith::TruncFOp::attachInterface<ElementwiseAdjoint<arith::TruncFOp>>(*ctx);
    arith::ExtFOp::attachInterface<ElementwiseAdjoint<arith::ExtFOp>>(*ctx);
    arith::ConstantOp::attachInterface<NoGradientAdjoint<arith::ConstantOp>>(
        *ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::EmptyOp::attachInterface<NoGradientAdjoint<tensor::EmptyOp>>(*ctx);
    tensor::ExpandShapeOp::attachInterface<
        ReshapeAdjoint<tensor::ExpandShapeOp, tensor::CollapseShapeOp>>(*ctx);
    tensor::CollapseShapeOp::attachInterface<
        ReshapeAdjoint<tensor::CollapseShapeOp, tensor::ExpandShapeOp>>(*ctx);
  });
}

llvm::StringRef mlir::moe::describeUpstreamVJPOps() {
  return "arith.addf/subf/mulf/divf/negf/truncf/extf/constant, tensor.empty "
         "and tensor.expand_shape/collapse_shape on tensors";
}
