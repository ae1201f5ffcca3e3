//===- Contraction.cpp - f32 contractions the GPU runtime computes --------===//
#include "Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::moe::gpu_contraction {

namespace {

/// The dimension positions of a map whose results are plain dimensions.
std::optional<SmallVector<unsigned, 2>> dimsOf(AffineMap map) {
  SmallVector<unsigned, 2> dims;
  for (AffineExpr e : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim)
      return std::nullopt;
    dims.push_back(dim.getPosition());
  }
  return dims;
}

/// `v` without an arith.extf from bf16 in front.
Value stripExtension(Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    if (ext.getIn().getType().isBF16())
      return ext.getIn();
  return v;
}

/// The body yields acc + x·y (either order) with {x, y} the two input block
/// arguments (possibly extended from bf16) and acc the output's.
bool isMultiplyAccumulate(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (body.getNumArguments() != 3)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || !add.getType().isF32())
    return false;
  Value acc = body.getArgument(2);
  Value other = add.getLhs() == acc ? add.getRhs()
                : add.getRhs() == acc ? add.getLhs()
                                      : Value();
  auto mul = other ? other.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  Value x = stripExtension(mul.getLhs()), y = stripExtension(mul.getRhs());
  Value in0 = body.getArgument(0), in1 = body.getArgument(1);
  return (x == in0 && y == in1) || (x == in1 && y == in0);
}

} // namespace

std::optional<Contraction> matchContraction(linalg::LinalgOp linalgOp) {
  auto op = dyn_cast<linalg::GenericOp>(linalgOp.getOperation());
  if (!op || op.getNumLoops() != 3 || op.getNumReductionLoops() != 1 ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.hasIndexSemantics())
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || type.getRank() != 2)
      return std::nullopt;
    Type elem = type.getElementType();
    bool isInit = op.isDpsInit(&operand);
    if (!elem.isF32() && (isInit || !elem.isBF16()))
      return std::nullopt;
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned reduction = 0;
  while (iterators[reduction] != utils::IteratorType::reduction)
    ++reduction;
  OpOperand *init = op.getDpsInitOperand(0);
  auto outDims = dimsOf(op.getMatchingIndexingMap(init));
  if (!outDims || (*outDims)[0] == (*outDims)[1] || (*outDims)[0] == reduction ||
      (*outDims)[1] == reduction)
    return std::nullopt;
  unsigned i = (*outDims)[0], j = (*outDims)[1];

  Contraction c;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto dims = dimsOf(op.getMatchingIndexingMap(input));
    if (!dims)
      return std::nullopt;
    unsigned first = (*dims)[0], second = (*dims)[1];
    if ((first == i && second == reduction) || (first == reduction && second == i)) {
      if (c.a)
        return std::nullopt;
      c.a = input;
      c.aTransposed = first == reduction; // stored [l, i]
    } else if ((first == reduction && second == j) || (first == j && second == reduction)) {
      if (c.b)
        return std::nullopt;
      c.b = input;
      c.bTransposed = first == j; // stored [j, l]
    } else {
      return std::nullopt;
    }
  }
  if (!c.a || !c.b || !isMultiplyAccumulate(op))
    return std::nullopt;
  return c;
}

} // namespace mlir::moe::gpu_contraction
