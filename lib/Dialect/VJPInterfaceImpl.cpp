//===- VJPInterfaceImpl.cpp - adjoints of the moe ops ---------------------===//
//
// One VJPOpInterface model per op. Where the adjoint is itself a moe op it is
// written as one (permute ← combine with unit weights, grouped_matmul ← the
// flipped-layout grouped_matmul and grouped_weight_grad, all_to_all ← the
// reverse exchange, sort_chunks ← sort_chunks with `inverse` flipped,
// all_reduce ← the identity, combine ← combine_grad), so that later passes
// and the
// GPU backend see the same ops in the backward; the router's elementwise and
// row-wise math is linalg.generic (TensorMath.h) around the scalar formulas of
// OpMath.h, which the forward lowerings use too.
//
// Conventions: the cotangent of a float tensor has its type; that of an FP8
// tensor is f32 of its shape. An adjoint runs only when some result has a
// cotangent, and integer results never have one: ops whose only float result
// is the first (topk, permute, all_to_all) always get it. Quantize/dequantize
// are straight-through (dequantize: dq = dy · scale; quantize: dx = dq / scale,
// so a pair passes the gradient unchanged), as FP8 training does.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/VJPInterfaceImpl.h"
#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "OperandChecks.h"
#include "TensorMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::moe;
using utils::IteratorType;

namespace {
constexpr IteratorType kPar = IteratorType::parallel;
constexpr IteratorType kRed = IteratorType::reduction;

RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}
Type elemOf(Value v) { return tensorType(v).getElementType(); }
/// The element type of a cotangent for a value with elements `t`.
Type cotangentElem(Type t, OpBuilder &b) {
  return opmath::isFp8Type(t) ? b.getF32Type() : t;
}

AffineMap mapOf(OpBuilder &b, unsigned dims, ArrayRef<unsigned> picks) {
  SmallVector<AffineExpr> exprs;
  for (unsigned d : picks)
    exprs.push_back(b.getAffineDimExpr(d));
  return AffineMap::get(dims, 0, exprs, b.getContext());
}

Value add(OpBuilder &b, Location l, Value x, Value y) {
  return arith::AddFOp::create(b, l, x, y);
}
Value sub(OpBuilder &b, Location l, Value x, Value y) {
  return arith::SubFOp::create(b, l, x, y);
}
Value mul(OpBuilder &b, Location l, Value x, Value y) {
  return arith::MulFOp::create(b, l, x, y);
}
Value div(OpBuilder &b, Location l, Value x, Value y) {
  return arith::DivFOp::create(b, l, x, y);
}

/// Row-wise Σ over the last dim of a [T, N] tensor of `fn(inputs)`.
Value rowSum(OpBuilder &b, Location loc, ValueRange inputs, int64_t t,
             int64_t n, tmath::ScalarFn fn) {
  SmallVector<AffineMap> maps(inputs.size(), b.getMultiDimIdentityMap(2));
  return tmath::reduce(b, loc, {t, n}, {kPar, kRed}, inputs, maps, {t},
                       mapOf(b, 2, {0}), 0.0,
                       [&](OpBuilder &nb, Location nl, ValueRange in,
                           Value acc) { return add(nb, nl, acc, fn(nb, nl, in)); });
}

/// Maps for "[T, N] inputs plus a per-row [T] input" elementwise ops.
SmallVector<AffineMap> rowMaps(OpBuilder &b, unsigned full, unsigned rows) {
  SmallVector<AffineMap> maps(full, b.getMultiDimIdentityMap(2));
  maps.append(rows, mapOf(b, 2, {0}));
  return maps;
}

/// The map from data indices to scale indices for a quantization recipe.
AffineMap scaleMap(OpBuilder &b, QuantRecipe recipe, unsigned rank) {
  SmallVector<AffineExpr> exprs;
  std::optional<opmath::QuantBlockShape> block = opmath::quantBlockShape(recipe);
  if (!block)
    return AffineMap::get(rank, 0, exprs, b.getContext());
  for (unsigned d = 0; d < rank; ++d)
    exprs.push_back(b.getAffineDimExpr(d));
  unsigned m = rank - 2, n = rank - 1;
  if (block->rows != 1)
    exprs[m] = exprs[m].floorDiv(block->rows);
  if (block->cols != 1)
    exprs[n] = exprs[n].floorDiv(block->cols);
  return AffineMap::get(rank, 0, exprs, b.getContext());
}

//===----------------------------------------------------------------------===//

template <typename Derived, typename OpT>
struct Adjoint : public VJPOpInterface::ExternalModel<Derived, OpT> {
  bool isDifferentiableOperand(Operation *, unsigned) const { return true; }
};

struct GateAdjoint : Adjoint<GateAdjoint, GateOp> {
  RecomputeClass getRecomputeClass(Operation *) const {
    return RecomputeClass::RouterLogits;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto gate = cast<GateOp>(op);
    Location loc = op->getLoc();
    Value dl = dres[0];
    Value x = ctx.forward(gate.getX()), w = ctx.forward(gate.getWeight());
    int64_t t = tensorType(x).getDimSize(0), h = tensorType(x).getDimSize(1),
            e = tensorType(w).getDimSize(1);
    auto fma = [](OpBuilder &nb, Location nl, ValueRange in, Value acc) {
      return add(nb, nl, acc, mul(nb, nl, in[0], in[1]));
    };
    // dx[t, h] = Σ_e dl[t, e] · w[h, e];  dw[h, e] = Σ_t x[t, h] · dl[t, e]
    Value dx = tmath::reduce(b, loc, {t, h, e}, {kPar, kPar, kRed}, {dl, w},
                             {mapOf(b, 3, {0, 2}), mapOf(b, 3, {1, 2})}, {t, h},
                             mapOf(b, 3, {0, 1}), 0.0, fma);
    Value dw = tmath::reduce(b, loc, {h, e, t}, {kPar, kPar, kRed}, {x, dl},
                             {mapOf(b, 3, {2, 0}), mapOf(b, 3, {2, 1})}, {h, e},
                             mapOf(b, 3, {0, 1}), 0.0, fma);
    dops.push_back(tmath::convert(b, loc, dx, cotangentElem(elemOf(x), b)));
    dops.push_back(tmath::convert(b, loc, dw, cotangentElem(elemOf(w), b)));
    return success();
  }
};

struct RouteAdjoint : Adjoint<RouteAdjoint, RouteOp> {
  RecomputeClass getRecomputeClass(Operation *) const {
    return RecomputeClass::RouterScores;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto route = cast<RouteOp>(op);
    Location loc = op->getLoc();
    Value ds = dres[0];
    Type f32 = b.getF32Type();
    auto type = tensorType(ds);
    int64_t t = type.getDimSize(0), e = type.getDimSize(1);
    switch (route.getScoreFunction()) {
    case ScoreFunction::Identity:
      dops.push_back(ds);
      return success();
    case ScoreFunction::Softmax: {
      // dl = s ⊙ (ds − Σ_e s·ds)
      Value s = ctx.forward(route.getScores());
      Value dot = rowSum(b, loc, {s, ds}, t, e,
                         [](OpBuilder &nb, Location nl, ValueRange in) {
                           return mul(nb, nl, in[0], in[1]);
                         });
      dops.push_back(tmath::map(
          b, loc, {t, e}, f32, {s, ds, dot}, rowMaps(b, 2, 1),
          [](OpBuilder &nb, Location nl, ValueRange in) {
            return opmath::buildSoftmaxGrad(nb, nl, in[0], in[1], in[2]);
          }));
      return success();
    }
    case ScoreFunction::Sigmoid: {
      // dl = ds · s · (1 − s)
      Value s = ctx.forward(route.getScores());
      dops.push_back(tmath::map(
          b, loc, f32, {s, ds}, [](OpBuilder &nb, Location nl, ValueRange in) {
            Value one = tmath::cst(nb, nl, 1.0);
            return mul(nb, nl, in[1], mul(nb, nl, in[0], sub(nb, nl, one, in[0])));
          }));
      return success();
    }
    case ScoreFunction::SqrtSoftplus: {
      // s = √softplus(x): dl = ds · softplus'(x) / (2 s); 0 where s = 0
      // (softplus underflowed), NaN where s is NaN, as the forward's s.
      Value x = ctx.forward(route.getLogits()), s = ctx.forward(route.getScores());
      dops.push_back(tmath::map(
          b, loc, f32, {x, s, ds}, [](OpBuilder &nb, Location nl, ValueRange in) {
            Value zero = tmath::cst(nb, nl, 0.0);
            Value dsp = opmath::buildSoftplusDerivative(nb, nl, in[0]);
            Value underflow = arith::CmpFOp::create(
                nb, nl, arith::CmpFPredicate::OEQ, in[1], zero);
            Value g = div(nb, nl, mul(nb, nl, in[2], dsp),
                          mul(nb, nl, tmath::cst(nb, nl, 2.0), in[1]));
            return arith::SelectOp::create(nb, nl, underflow, zero, g);
          }));
      return success();
    }
    }
    llvm_unreachable("unknown score function");
  }
};

struct TopKAdjoint : Adjoint<TopKAdjoint, TopKOp> {
  bool isDifferentiableOperand(Operation *, unsigned index) const {
    return index == 0; // the bias only steers selection
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto topk = cast<TopKOp>(op);
    Location loc = op->getLoc();
    Value dw = dres[0];
    Type f32 = b.getF32Type();
    Value s = ctx.forward(topk.getScores());
    Value idx = ctx.forward(topk.getIndices());
    int64_t t = tensorType(s).getDimSize(0), e = tensorType(s).getDimSize(1),
            k = topk.getK();
    double scale = topk.getScalingFactor().convertToDouble();
    auto id2 = b.getMultiDimIdentityMap(2);

    // g = dw · scale: the gradient of the normalized weights.
    Value g = tmath::map(b, loc, f32, {dw},
                         [&](OpBuilder &nb, Location nl, ValueRange in) {
                           return mul(nb, nl, in[0], tmath::cst(nb, nl, scale));
                         });
    Value dr = g;
    Normalize norm = topk.getNormalize();
    if (norm == Normalize::Sum && k > 1) {
      // w = r / (Σr + ε): dr_j = g_j / Z − (Σ_i g_i r_i) / Z².
      // r[t, j] = s[t, idx[t, j]]; an index outside [0, E) (a corrupt
      // residual: the backward entry takes the indices as an input) selects
      // no score, r = 0, as moe.permute drops such a pair; the gather never
      // reads outside s.
      Value r = tmath::map(
          b, loc, {t, k}, f32, {idx}, {id2},
          [&](OpBuilder &nb, Location nl, ValueRange in) -> Value {
            Value row = linalg::IndexOp::create(nb, nl, 0);
            Value col =
                arith::IndexCastOp::create(nb, nl, nb.getIndexType(), in[0]);
            Value inRange = arith::CmpIOp::create(
                nb, nl, arith::CmpIPredicate::ult, col,
                arith::ConstantIndexOp::create(nb, nl, e));
            Value safeCol = arith::SelectOp::create(
                nb, nl, inRange, col,
                arith::ConstantIndexOp::create(nb, nl, 0));
            Value score =
                tensor::ExtractOp::create(nb, nl, s, ValueRange{row, safeCol});
            return arith::SelectOp::create(nb, nl, inRange, score,
                                           tmath::cst(nb, nl, 0.0));
          });
      Value z = rowSum(b, loc, {r}, t, k,
                       [](OpBuilder &, Location, ValueRange in) { return in[0]; });
      Value dot = rowSum(b, loc, {g, r}, t, k,
                         [](OpBuilder &nb, Location nl, ValueRange in) {
                           return mul(nb, nl, in[0], in[1]);
                         });
      dr = tmath::map(b, loc, {t, k}, f32, {g, z, dot}, rowMaps(b, 1, 2),
                      [](OpBuilder &nb, Location nl, ValueRange in) {
                        return opmath::buildNormalizeGrad(nb, nl, in[0], in[1],
                                                          in[2]);
                      });
    } else if (norm == Normalize::Softmax) {
      // p = softmax over the k chosen = weights / scale: dr = p ⊙ (g − Σ p·g).
      Value wf = ctx.forward(topk.getWeights());
      Value p = tmath::map(b, loc, f32, {wf},
                           [&](OpBuilder &nb, Location nl, ValueRange in) {
                             return div(nb, nl, in[0], tmath::cst(nb, nl, scale));
                           });
      Value dot = rowSum(b, loc, {p, g}, t, k,
                         [](OpBuilder &nb, Location nl, ValueRange in) {
                           return mul(nb, nl, in[0], in[1]);
                         });
      dr = tmath::map(b, loc, {t, k}, f32, {p, g, dot}, rowMaps(b, 2, 1),
                      [](OpBuilder &nb, Location nl, ValueRange in) {
                        return opmath::buildSoftmaxGrad(nb, nl, in[0], in[1],
                                                        in[2]);
                      });
    }
    // dscores[t, e] = Σ_k [indices[t, k] = e] · dr[t, k]
    Value dscores = tmath::reduce(
        b, loc, {t, e, k}, {kPar, kPar, kRed}, {idx, dr},
        {mapOf(b, 3, {0, 2}), mapOf(b, 3, {0, 2})}, {t, e}, mapOf(b, 3, {0, 1}),
        0.0, [](OpBuilder &nb, Location nl, ValueRange in, Value acc) {
          Value col = linalg::IndexOp::create(nb, nl, 1);
          Value chosen = arith::CmpIOp::create(
              nb, nl, arith::CmpIPredicate::eq,
              arith::IndexCastOp::create(nb, nl, nb.getIndexType(), in[0]), col);
          return add(nb, nl, acc,
                     arith::SelectOp::create(nb, nl, chosen, in[1],
                                             tmath::cst(nb, nl, 0.0)));
        });
    dops.push_back(dscores);
    dops.push_back(Value());
    return success();
  }
};

struct AuxLossAdjoint : Adjoint<AuxLossAdjoint, AuxLossOp> {
  bool isDifferentiableOperand(Operation *, unsigned index) const {
    return index == 0; // counts carry no gradient
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto aux = cast<AuxLossOp>(op);
    Location loc = op->getLoc();
    Value dloss = dres[0];
    Type f32 = b.getF32Type();
    Value s = ctx.forward(aux.getScores());
    Value idx = ctx.forward(aux.getIndices());
    int64_t t = tensorType(s).getDimSize(0), e = tensorType(s).getDimSize(1),
            k = tensorType(idx).getDimSize(1);
    int64_t len = aux.getVariant() == AuxLossVariant::Sequence
                      ? int64_t(*aux.getSeqLength())
                      : t;
    // No tokens: the scores' gradient has no elements (and the formula's
    // sequence count below would divide by zero).
    if (t == 0 || len == 0) {
      dops.push_back(tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{t, e},
                                             elemOf(s)));
      dops.push_back(Value());
      return success();
    }
    int64_t seqs = t / len;
    // The global variant's share: counts c^g and tokens T_g = T · ranks
    // summed over the ranks of its grid axes.
    bool global = aux.getVariant() == AuxLossVariant::Global;
    int64_t ranks = 1;
    if (global) {
      auto grid = SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(
          op, aux.getGridAttr());
      if (!grid)
        return op->emitOpError("grid @")
               << aux.getGridAttr().getValue() << " not found for the adjoint";
      for (int64_t axis : aux.getGridAxes().value_or(ArrayRef<int64_t>{})) {
        int64_t size = grid.getShape()[axis];
        if (ShapedType::isDynamic(size))
          return op->emitOpError("adjoint of the global aux loss needs the "
                                 "size of axis ")
                 << axis << " of grid @" << aux.getGridAttr().getValue()
                 << ", which is dynamic";
        ranks *= size;
      }
    }
    double tokens = double(len) * double(ranks);
    double factor = double(e) * aux.getCoeff().convertToDouble() /
                    (double(k) * tokens * tokens) / double(seqs);

    // Tokens as [sequences, len]: counts per sequence are then projections.
    SmallVector<ReassociationIndices> split = {{0, 1}, {2}};
    // The (t, k) pairs of a sequence as one dimension (a single reduction:
    // GPU pipelines can split it), and the expert ids as a constant input
    // rather than linalg.index (which such rewrites do not renumber).
    Type idxElem = elemOf(idx);
    Value flat = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({t * k}, idxElem), idx,
        SmallVector<ReassociationIndices>{{0, 1}});
    Value pairs = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({seqs, len * k}, idxElem), flat,
        SmallVector<ReassociationIndices>{{0, 1}});
    SmallVector<APInt> ids;
    unsigned width = idxElem.getIntOrFloatBitWidth();
    for (int64_t i = 0; i < e; ++i)
      ids.push_back(APInt(width, i));
    auto idsType = RankedTensorType::get({e}, idxElem);
    Value expertIds = arith::ConstantOp::create(
        b, loc, idsType, DenseElementsAttr::get(idsType, ids));
    Value counts = tmath::reduce(
        b, loc, {seqs, e, len * k}, {kPar, kPar, kRed}, {pairs, expertIds},
        {mapOf(b, 3, {0, 2}), mapOf(b, 3, {1})}, {seqs, e}, mapOf(b, 3, {0, 1}),
        0.0, [](OpBuilder &nb, Location nl, ValueRange in, Value acc) {
          Value hit = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                            in[0], in[1]);
          return add(nb, nl, acc,
                     arith::SelectOp::create(nb, nl, hit, tmath::cst(nb, nl, 1.0),
                                             tmath::cst(nb, nl, 0.0)));
        });
    if (global)
      counts = AllReduceOp::create(b, loc, counts, aux.getGridAttr(),
                                   *aux.getGridAxes())
                   .getOutput();
    // dp[t, e] = factor · c[seq(t), e] · dloss
    Value dp3 = tmath::map(
        b, loc, {seqs, len, e}, f32, {counts, dloss},
        {mapOf(b, 3, {0, 2}), AffineMap::get(3, 0, {}, b.getContext())},
        [&](OpBuilder &nb, Location nl, ValueRange in) {
          return mul(nb, nl, tmath::cst(nb, nl, factor), mul(nb, nl, in[0], in[1]));
        });
    Value dp = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({t, e}, f32), dp3, split);
    if (aux.getScoreFunction() == ScoreFunction::Softmax) {
      dops.append({dp, Value()});
      return success();
    }
    // p = s / Z with Z = Σ_e s + ε: ds = dp / Z − (Σ_j dp_j s_j) / Z².
    Value z = rowSum(b, loc, {s}, t, e,
                     [](OpBuilder &, Location, ValueRange in) { return in[0]; });
    Value dot = rowSum(b, loc, {dp, s}, t, e,
                       [](OpBuilder &nb, Location nl, ValueRange in) {
                         return mul(nb, nl, in[0], in[1]);
                       });
    Value ds = tmath::map(b, loc, {t, e}, f32, {dp, z, dot}, rowMaps(b, 1, 2),
                          [](OpBuilder &nb, Location nl, ValueRange in) {
                            return opmath::buildNormalizeGrad(nb, nl, in[0],
                                                              in[1], in[2]);
                          });
    dops.append({ds, Value()});
    return success();
  }
};

struct ZLossAdjoint : Adjoint<ZLossAdjoint, ZLossOp> {
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto z = cast<ZLossOp>(op);
    Location loc = op->getLoc();
    Value dloss = dres[0];
    Value l = ctx.forward(z.getLogits());
    int64_t t = tensorType(l).getDimSize(0), e = tensorType(l).getDimSize(1);
    auto id2 = b.getMultiDimIdentityMap(2);
    Value mx = tmath::reduce(
        b, loc, {t, e}, {kPar, kRed}, {l}, {id2}, {t}, mapOf(b, 2, {0}),
        opmath::kMaxIdentity,
        [](OpBuilder &nb, Location nl, ValueRange in, Value acc) -> Value {
          return opmath::buildMaxStep(nb, nl, acc, in[0]);
        });
    Value sum = tmath::reduce(
        b, loc, {t, e}, {kPar, kRed}, {l, mx}, {id2, mapOf(b, 2, {0})}, {t},
        mapOf(b, 2, {0}), 0.0,
        [](OpBuilder &nb, Location nl, ValueRange in, Value acc) {
          return add(nb, nl, acc, opmath::buildShiftedExp(nb, nl, in[0], in[1]));
        });
    // dl = dloss · (2·coeff/T) · lse_t · softmax(l)[t, e]
    double factor = 2.0 * z.getCoeff().convertToDouble() / double(t);
    SmallVector<AffineMap> maps = rowMaps(b, 1, 2);
    maps.push_back(AffineMap::get(2, 0, {}, b.getContext()));
    dops.push_back(tmath::map(
        b, loc, {t, e}, b.getF32Type(), {l, mx, sum, dloss}, maps,
        [&](OpBuilder &nb, Location nl, ValueRange in) {
          Value lse = opmath::buildLogSumExp(nb, nl, in[1], in[2]);
          Value p = div(nb, nl, opmath::buildShiftedExp(nb, nl, in[0], in[1]),
                        in[2]);
          return mul(nb, nl, mul(nb, nl, in[3], tmath::cst(nb, nl, factor)),
                     mul(nb, nl, lse, p));
        }));
    return success();
  }
};

/// The aux-loss-free bias step is an optimizer update, not differentiated.
struct ExpertBiasUpdateAdjoint
    : Adjoint<ExpertBiasUpdateAdjoint, ExpertBiasUpdateOp> {
  bool isDifferentiableOperand(Operation *, unsigned) const { return false; }
  LogicalResult buildVJP(Operation *op, OpBuilder &, VJPContext &,
                         ArrayRef<Value>, SmallVectorImpl<Value> &dops) const {
    dops.append(op->getNumOperands(), Value());
    return success();
  }
};

/// The adjoint of an op that copies row t of its first operand to rows
/// rows[t, k] of its result (moe.permute, moe.permute_rows): dx[t] =
/// Σ_k dxs[rows[t, k]], a moe.combine with unit weights (padding rows are
/// never gathered); no gradient for the second operand.
LogicalResult gatherRowsAdjoint(Operation *op, OpBuilder &b, Value dxs,
                                Value rows, SmallVectorImpl<Value> &dops) {
  Location loc = op->getLoc();
  // moe.combine's rows are bf16, f16 or f32 (FP8 tensors get f32
  // cotangents from moe.dequantize's adjoint).
  if (!checks::isActivationType(tensorType(dxs).getElementType()))
    return op->emitOpError("adjoint needs a bf16, f16 or f32 cotangent of "
                           "the permuted rows, got ")
           << tensorType(dxs)
           << " (moe-fp8-placement runs after moe-generate-vjp)";
  auto rowsType = tensorType(rows);
  Value empty =
      tensor::EmptyOp::create(b, loc, rowsType.getShape(), b.getF32Type());
  Value ones =
      linalg::FillOp::create(b, loc, ValueRange{tmath::cst(b, loc, 1.0)},
                             ValueRange{empty})
          .getResult(0);
  dops.push_back(CombineOp::create(b, loc, dxs, rows, ones).getOut());
  dops.push_back(Value());
  return success();
}

/// moe.permute and moe.permute_rows (their `rows`: a result, an operand).
template <typename RowCopyOp>
struct RowCopyAdjoint : Adjoint<RowCopyAdjoint<RowCopyOp>, RowCopyOp> {
  RecomputeClass getRecomputeClass(Operation *) const {
    return RecomputeClass::Dispatch;
  }
  bool isDifferentiableOperand(Operation *, unsigned index) const {
    return index == 0;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    return gatherRowsAdjoint(
        op, b, dres[0], ctx.forward(cast<RowCopyOp>(op).getRows()), dops);
  }
};

struct GroupedMatmulAdjoint : Adjoint<GroupedMatmulAdjoint, GroupedMatmulOp> {
  bool isDifferentiableOperand(Operation *, unsigned index) const {
    return index < 2;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto mm = cast<GroupedMatmulOp>(op);
    Location loc = op->getLoc();
    Value dc = dres[0];
    if (opmath::isFp8Type(elemOf(mm.getA())))
      return op->emitOpError("adjoint of an FP8 grouped_matmul is not "
                             "supported yet: differentiate the bf16 graph, then "
                             "place FP8 in forward and backward");
    if (mm.getEpilogueBlock())
      return op->emitOpError("with an epilogue region has no adjoint: run "
                             "moe-generate-vjp on the unfused graph, then "
                             "fuse forward and backward");
    if (mm.getAccumulate())
      return op->emitOpError("with 'accumulate' has no adjoint: run "
                             "moe-generate-vjp on the unfused graph, then "
                             "fuse forward and backward");
    Value a = ctx.forward(mm.getA()), w = ctx.forward(mm.getB()),
          sizes = ctx.forward(mm.getGroupSizes());
    Type wElem = elemOf(w), aElem = elemOf(a);
    bool kn = mm.getWeightLayout() == WeightLayout::KN;
    // da = dc · b[g]ᵀ: the same weights read with the other layout.
    auto flipped =
        WeightLayoutAttr::get(b.getContext(), kn ? WeightLayout::NK : WeightLayout::KN);
    auto aType = tensorType(a);
    Value da = GroupedMatmulOp::create(
        b, loc, RankedTensorType::get(aType.getShape(), aElem),
        tmath::convert(b, loc, dc, wElem), w, sizes, Value(), Value(), flipped)
        .getC();
    // db[g] = a[g]ᵀ · dc[g], in b's layout; empty groups exactly zero.
    Value db = GroupedWeightGradOp::create(b, loc, w.getType(), a,
                                           tmath::convert(b, loc, dc, aElem),
                                           sizes, mm.getWeightLayoutAttr())
                   .getDb();
    dops.append({da, db});
    dops.append(op->getNumOperands() - 2, Value());
    return success();
  }
};

struct GluAdjoint : Adjoint<GluAdjoint, GluOp> {
  RecomputeClass getRecomputeClass(Operation *) const {
    return RecomputeClass::ExpertActivation;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto glu = cast<GluOp>(op);
    Location loc = op->getLoc();
    Value dh = dres[0];
    Activation act = glu.getActivation();
    Value gate = ctx.forward(glu.getGate());
    Type elem = elemOf(gate);
    if (glu.getUp()) {
      Value up = ctx.forward(glu.getUp());
      // dgate = dh · up · act'(gate);  dup = dh · act(gate): one pass over
      // gate, up and dh for both.
      SmallVector<Value> grads = tmath::mapMany(
          b, loc, elem, {gate, up, dh}, 2,
          [&](OpBuilder &nb, Location nl, ValueRange in) {
            Value f = opmath::buildActivation(nb, nl, act, in[0]);
            Value df = opmath::buildActivationDerivative(nb, nl, act, in[0]);
            return SmallVector<Value>{mul(nb, nl, in[2], mul(nb, nl, in[1], df)),
                                      mul(nb, nl, in[2], f)};
          });
      dops.append(grads.begin(), grads.end());
      return success();
    }
    // Fused [R, 2F]: columns [0, F) are the gate, [F, 2F) the up.
    auto type = tensorType(gate);
    int64_t r = type.getDimSize(0), f2 = type.getDimSize(1), f = f2 / 2;
    dops.push_back(tmath::map(
        b, loc, {r, f2}, elem, {}, {}, [&](OpBuilder &nb, Location nl, ValueRange) {
          Value row = linalg::IndexOp::create(nb, nl, 0);
          Value col = linalg::IndexOp::create(nb, nl, 1);
          Value fIdx = arith::ConstantIndexOp::create(nb, nl, f);
          Value isGate = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::ult, col, fIdx);
          Value j = arith::SelectOp::create(nb, nl, isGate, col,
                                            arith::SubIOp::create(nb, nl, col, fIdx));
          auto load = [&](Value tensor, Value c) -> Value {
            Value v = tensor::ExtractOp::create(nb, nl, tensor, ValueRange{row, c});
            return v.getType().isF32() ? v
                                       : arith::ExtFOp::create(nb, nl, nb.getF32Type(), v)
                                             .getResult();
          };
          Value g = load(gate, j);
          Value u = load(gate, arith::AddIOp::create(nb, nl, j, fIdx));
          Value d = load(dh, j);
          Value fv = opmath::buildActivation(nb, nl, act, g);
          Value df = opmath::buildActivationDerivative(nb, nl, act, g);
          return arith::SelectOp::create(nb, nl, isGate, mul(nb, nl, d, mul(nb, nl, u, df)),
                                         mul(nb, nl, d, fv))
              .getResult();
        }));
    return success();
  }
};

struct AllToAllAdjoint : Adjoint<AllToAllAdjoint, AllToAllOp> {
  bool isDifferentiableOperand(Operation *, unsigned index) const {
    return index == 0;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto a2a = cast<AllToAllOp>(op);
    Location loc = op->getLoc();
    Value dy = dres[0];
    // The reverse exchange with the same counts: what came from rank q goes
    // back to rank q.
    Value recv = ctx.forward(a2a.getRecvSizes());
    auto inType = tensorType(a2a.getInput());
    auto dxType = RankedTensorType::get(inType.getShape(), elemOf(dy));
    auto back = AllToAllOp::create(b, loc, TypeRange{dxType, recv.getType()}, dy,
                                   recv, a2a.getGridAttr(), a2a.getGridAxisAttr());
    dops.append({back.getOutput(), Value()});
    return success();
  }
};

/// Undoing a reorder of chunks is the reverse reorder; the sizes carry no
/// gradient.
struct SortChunksAdjoint : Adjoint<SortChunksAdjoint, SortChunksOp> {
  bool isDifferentiableOperand(Operation *, unsigned index) const {
    return index == 0;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto sort = cast<SortChunksOp>(op);
    // The reverse reorder's sizes have the length of the other chunk axis:
    // N / (this op's sizes' length).
    int64_t n = tensorType(sort.getCounts()).getDimSize(0);
    int64_t m = tensorType(sort.getSizes()).getDimSize(0);
    if (ShapedType::isDynamic(n) || ShapedType::isDynamic(m) || m == 0)
      return op->emitOpError("adjoint needs static lengths of 'counts' and "
                             "'sizes', got ")
             << tensorType(sort.getCounts()) << " and "
             << tensorType(sort.getSizes());
    auto back = SortChunksOp::create(b, op->getLoc(), dres[0],
                                     ctx.forward(sort.getCounts()), n / m,
                                     !sort.getInverse());
    dops.append({back.getOutput(), Value()});
    return success();
  }
};

/// The sum is replicated over the axes and so is its cotangent: dx = dy (as
/// JAX's shard_map transposes a psum of an invariant value).
struct AllReduceAdjoint : Adjoint<AllReduceAdjoint, AllReduceOp> {
  LogicalResult buildVJP(Operation *, OpBuilder &, VJPContext &,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    dops.push_back(dres[0]);
    return success();
  }
};

struct CombineAdjoint : Adjoint<CombineAdjoint, CombineOp> {
  bool isDifferentiableOperand(Operation *, unsigned index) const {
    return index != 1;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto combine = cast<CombineOp>(op);
    auto grad = CombineGradOp::create(
        b, op->getLoc(), dres[0], ctx.forward(combine.getY()),
        ctx.forward(combine.getRows()), ctx.forward(combine.getWeights()));
    dops.append({grad.getDy(), Value(), grad.getDweights()});
    return success();
  }
};

struct QuantizeAdjoint : Adjoint<QuantizeAdjoint, QuantizeOp> {
  bool isDifferentiableOperand(Operation *, unsigned index) const {
    return index == 0;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto q = cast<QuantizeOp>(op);
    Value dq = dres[0];
    if (!dq) {
      dops.append(op->getNumOperands(), Value());
      return success();
    }
    // Straight-through: dx = dq / scale (so quantize → dequantize passes the
    // gradient unchanged).
    auto type = tensorType(q.getInput());
    Value scale = ctx.forward(q.getScale());
    unsigned rank = type.getRank();
    dops.push_back(tmath::map(
        b, op->getLoc(), type.getShape(), type.getElementType(), {dq, scale},
        {b.getMultiDimIdentityMap(rank), scaleMap(b, q.getRecipe(), rank)},
        [](OpBuilder &nb, Location nl, ValueRange in) {
          return div(nb, nl, in[0], in[1]);
        }));
    dops.append(op->getNumOperands() - 1, Value());
    return success();
  }
};

struct DequantizeAdjoint : Adjoint<DequantizeAdjoint, DequantizeOp> {
  bool isDifferentiableOperand(Operation *, unsigned index) const {
    return index == 0;
  }
  LogicalResult buildVJP(Operation *op, OpBuilder &b, VJPContext &ctx,
                         ArrayRef<Value> dres,
                         SmallVectorImpl<Value> &dops) const {
    auto dq = cast<DequantizeOp>(op);
    auto type = tensorType(dq.getInput());
    Value scale = ctx.forward(dq.getScale());
    unsigned rank = type.getRank();
    // dq = dy · scale, as f32 (the cotangent of an FP8 tensor).
    dops.push_back(tmath::map(
        b, op->getLoc(), type.getShape(), b.getF32Type(), {dres[0], scale},
        {b.getMultiDimIdentityMap(rank), scaleMap(b, dq.getRecipe(), rank)},
        [](OpBuilder &nb, Location nl, ValueRange in) {
          return mul(nb, nl, in[0], in[1]);
        }));
    dops.push_back(Value());
    return success();
  }
};
} // namespace

void mlir::moe::registerVJPInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, MoeDialect *) {
    GateOp::attachInterface<GateAdjoint>(*ctx);
    RouteOp::attachInterface<RouteAdjoint>(*ctx);
    TopKOp::attachInterface<TopKAdjoint>(*ctx);
    AuxLossOp::attachInterface<AuxLossAdjoint>(*ctx);
    ZLossOp::attachInterface<ZLossAdjoint>(*ctx);
    ExpertBiasUpdateOp::attachInterface<ExpertBiasUpdateAdjoint>(*ctx);
    PermuteOp::attachInterface<RowCopyAdjoint<PermuteOp>>(*ctx);
    PermuteRowsOp::attachInterface<RowCopyAdjoint<PermuteRowsOp>>(*ctx);
    GroupedMatmulOp::attachInterface<GroupedMatmulAdjoint>(*ctx);
    GluOp::attachInterface<GluAdjoint>(*ctx);
    AllToAllOp::attachInterface<AllToAllAdjoint>(*ctx);
    SortChunksOp::attachInterface<SortChunksAdjoint>(*ctx);
    AllReduceOp::attachInterface<AllReduceAdjoint>(*ctx);
    CombineOp::attachInterface<CombineAdjoint>(*ctx);
    QuantizeOp::attachInterface<QuantizeAdjoint>(*ctx);
    DequantizeOp::attachInterface<DequantizeAdjoint>(*ctx);
  });
}
