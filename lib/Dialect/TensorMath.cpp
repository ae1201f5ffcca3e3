//===- TensorMath.cpp - small linalg builders for adjoints ----------------===//
#include "TensorMath.h"

#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::moe::tmath {

static Value toF32(OpBuilder &b, Location loc, Value v) {
  if (!isa<FloatType>(v.getType()) || v.getType().isF32())
    return v;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
}

static Value fromF32(OpBuilder &b, Location loc, Value v, Type elem) {
  if (v.getType() == elem)
    return v;
  return arith::TruncFOp::create(b, loc, elem, v);
}

Value cst(OpBuilder &b, Location loc, double v) {
  return opmath::floatConst(b, loc, b.getF32Type(), v);
}

/// The elementwise generic behind map and mapMany: `numResults` outputs of
/// `shape` (identity maps) and element type `elem`.
static SmallVector<Value> mapImpl(OpBuilder &b, Location loc,
                                  ArrayRef<int64_t> shape, Type elem,
                                  ValueRange inputs,
                                  ArrayRef<AffineMap> inputMaps,
                                  unsigned numResults, MultiScalarFn fn) {
  int64_t rank = shape.size();
  SmallVector<Value> inits;
  for (unsigned i = 0; i < numResults; ++i)
    inits.push_back(tensor::EmptyOp::create(b, loc, shape, elem));
  SmallVector<AffineMap> maps(inputMaps);
  maps.append(numResults, b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, ValueRange(inits).getTypes(), inputs, inits, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> scalars;
        for (Value arg : args.drop_back(numResults))
          scalars.push_back(toF32(nb, nloc, arg));
        SmallVector<Value> results;
        for (Value result : fn(nb, nloc, scalars))
          results.push_back(fromF32(nb, nloc, result, elem));
        linalg::YieldOp::create(nb, nloc, results);
      });
  return SmallVector<Value>(generic.getResults());
}

Value map(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type elem,
          ValueRange inputs, ArrayRef<AffineMap> inputMaps, ScalarFn fn) {
  return mapImpl(b, loc, shape, elem, inputs, inputMaps, 1,
                 [&](OpBuilder &nb, Location nloc, ValueRange scalars) {
                   return SmallVector<Value>{fn(nb, nloc, scalars)};
                 })
      .front();
}

Value map(OpBuilder &b, Location loc, Type elem, ValueRange inputs,
          ScalarFn fn) {
  auto shape = cast<RankedTensorType>(inputs.front().getType()).getShape();
  SmallVector<AffineMap> maps(inputs.size(),
                              b.getMultiDimIdentityMap(shape.size()));
  return map(b, loc, shape, elem, inputs, maps, fn);
}

SmallVector<Value> mapMany(OpBuilder &b, Location loc, Type elem,
                           ValueRange inputs, unsigned numResults,
                           MultiScalarFn fn) {
  auto shape = cast<RankedTensorType>(inputs.front().getType()).getShape();
  SmallVector<AffineMap> maps(inputs.size(),
                              b.getMultiDimIdentityMap(shape.size()));
  return mapImpl(b, loc, shape, elem, inputs, maps, numResults, fn);
}

Value reduce(OpBuilder &b, Location loc, ArrayRef<int64_t> loopShape,
             ArrayRef<utils::IteratorType> iterators, ValueRange inputs,
             ArrayRef<AffineMap> inputMaps, ArrayRef<int64_t> outShape,
             AffineMap outMap, double init, ReduceFn fn) {
  (void)loopShape;
  Type f32 = b.getF32Type();
  Value empty = tensor::EmptyOp::create(b, loc, outShape, f32);
  Value filled =
      linalg::FillOp::create(b, loc, ValueRange{cst(b, loc, init)},
                             ValueRange{empty})
          .getResult(0);
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(outMap);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{filled.getType()}, inputs, ValueRange{filled}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> scalars;
        for (Value arg : args.drop_back())
          scalars.push_back(toF32(nb, nloc, arg));
        linalg::YieldOp::create(nb, nloc,
                                fn(nb, nloc, scalars, args.back()));
      });
  return generic.getResult(0);
}

Value convert(OpBuilder &b, Location loc, Value tensor, Type elem) {
  if (cast<RankedTensorType>(tensor.getType()).getElementType() == elem)
    return tensor;
  return map(b, loc, elem, tensor,
             [](OpBuilder &, Location, ValueRange in) { return in[0]; });
}

} // namespace mlir::moe::tmath
