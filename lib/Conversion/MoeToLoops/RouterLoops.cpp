//===- RouterLoops.cpp - router ops as loops: gate, route, topk, losses ---===//
//
// Literal implementations of DESIGN.md's router semantics. Ties always go to
// the lower index (strict comparisons in index order), every reduction runs
// in index order, so results are deterministic.
//
//===----------------------------------------------------------------------===//
#include "LoopBuilder.h"
#include "LoopEmitters.h"

#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::moe::loops {

namespace {
/// Shorthands for the arith ops the router math uses; the op math itself
/// (softmax pieces, score functions, normalization) is opmath's.
struct F32Math {
  OpBuilder &b;
  Location loc;
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value max(Value acc, Value x) { return opmath::buildMaxStep(b, loc, acc, x); }
  Value shiftedExp(Value x, Value max) {
    return opmath::buildShiftedExp(b, loc, x, max);
  }
  Value gt(Value x, Value y) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, y);
  }
  Value c(double v) { return f32Const(b, loc, v); }
};

Value idx(OpBuilder &b, Location loc, int64_t v) { return indexConst(b, loc, v); }

Value alloc1D(OpBuilder &b, Location loc, Type elem, Value size) {
  auto type = MemRefType::get({ShapedType::kDynamic}, elem);
  return memref::AllocOp::create(b, loc, type, ValueRange{size});
}

Value negInf(OpBuilder &b, Location loc) {
  return f32Const(b, loc, opmath::kMaxIdentity);
}

/// Index in [lb, ub) of the largest `value(i)` among `available(i)`; ties
/// to the lower index; -1 (as index) when none is available. A NaN ranks
/// below every number (and -inf): it is the result only when every
/// available value is NaN, and then the lowest such index. Without that
/// rule a NaN in the first available place would win, since nothing
/// compares greater than it, while a NaN anywhere else would never win.
Value argmax(OpBuilder &b, Location loc, Value lb, Value ub,
             llvm::function_ref<Value(OpBuilder &, Location, Value)> value,
             llvm::function_ref<Value(OpBuilder &, Location, Value)> available) {
  Value one = idx(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, one, ValueRange{negInf(b, loc), idx(b, loc, -1)},
      [&](OpBuilder &nb, Location nloc, Value i, ValueRange acc) {
        Value v = value(nb, nloc, i);
        Value none = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt,
                                           acc[1], idx(nb, nloc, 0));
        Value greater = arith::CmpFOp::create(
            nb, nloc, arith::CmpFPredicate::OGT, v, acc[0]);
        Value numberOverNan = arith::AndIOp::create(
            nb, nloc,
            arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::UNO, acc[0],
                                  acc[0]),
            arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::ORD, v, v));
        Value better = arith::OrIOp::create(
            nb, nloc, none,
            arith::OrIOp::create(nb, nloc, greater, numberOverNan));
        Value take =
            arith::AndIOp::create(nb, nloc, available(nb, nloc, i), better);
        scf::YieldOp::create(nb, nloc,
                             ValueRange{select(nb, nloc, take, v, acc[0]),
                                        select(nb, nloc, take, i, acc[1])});
      });
  return loop.getResult(1);
}

Value loadFlag(OpBuilder &b, Location loc, Value flags, Value i) {
  return memref::LoadOp::create(b, loc, flags, ValueRange{i});
}
void storeFlag(OpBuilder &b, Location loc, Value flags, Value i, bool v) {
  Value c = arith::ConstantOp::create(b, loc, b.getBoolAttr(v));
  memref::StoreOp::create(b, loc, c, flags, ValueRange{i});
}
Value notFlag(OpBuilder &b, Location loc, Value flags, Value i) {
  Value t = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return arith::XOrIOp::create(b, loc, loadFlag(b, loc, flags, i), t);
}

/// Converts a count element (i32, i64 or f32) to f32.
Value countAsF32(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isF32())
    return v;
  return arith::SIToFPOp::create(b, loc, b.getF32Type(), v);
}
} // namespace

/// Tokens per iteration of the gate's parallel loop.
constexpr int64_t kGateTokensPerIteration = 4;

void emitGate(OpBuilder &b, Location loc, Value x, Value w, Value logits) {
  // One iteration (one GPU thread) computes the logits of a block of
  // tokens for one expert, so that each router-weight element it loads
  // serves every token of the block: with one token per thread the whole
  // [H, E] weight was read again for every token (the router kernel of a
  // 128- or 256-expert layer was bound by those reads). Each logit is the
  // same sum over h in order as before.
  Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
  Value t = dimOf(b, loc, x, 0), h = dimOf(b, loc, x, 1),
        e = dimOf(b, loc, w, 1);
  Value blocks = ceilDiv(b, loc, t, kGateTokensPerIteration);
  parallelFor(b, loc, {blocks, e}, [&](OpBuilder &b, Location loc,
                                       ValueRange ivs) {
    Value first = arith::MulIOp::create(
        b, loc, ivs[0], idx(b, loc, kGateTokensPerIteration));
    Value last = arith::SubIOp::create(b, loc, t, one);
    Value ei = ivs[1];
    // The block's tokens; past the last token the loads read the last one
    // and nothing is stored.
    SmallVector<Value> tokens, inits;
    for (int64_t j = 0; j < kGateTokensPerIteration; ++j) {
      Value tj = arith::AddIOp::create(b, loc, first, idx(b, loc, j));
      tokens.push_back(tj);
      inits.push_back(f32Const(b, loc, 0.0));
    }
    auto loop = scf::ForOp::create(
        b, loc, zero, h, one, inits,
        [&](OpBuilder &b, Location loc, Value hi, ValueRange accs) {
          Value wv = loadAsF32(b, loc, w, {hi, ei});
          SmallVector<Value> next;
          for (auto [tj, acc] : llvm::zip(tokens, accs)) {
            Value row = arith::MinUIOp::create(b, loc, tj, last);
            Value xv = loadAsF32(b, loc, x, {row, hi});
            next.push_back(arith::AddFOp::create(
                b, loc, acc, arith::MulFOp::create(b, loc, xv, wv)));
          }
          scf::YieldOp::create(b, loc, next);
        });
    for (int64_t j = 0; j < kGateTokensPerIteration; ++j) {
      Value token = tokens[j], sum = loop.getResult(j);
      Value inRange =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, token, t);
      ifThen(b, loc, inRange, [&](OpBuilder &b, Location loc) {
        storeFromF32(b, loc, sum, logits, {token, ei});
      });
    }
  });
}

void emitRoute(OpBuilder &b, Location loc, ScoreFunction fn, Value logits,
               Value scores) {
  Value zero = idx(b, loc, 0);
  Value t = dimOf(b, loc, logits, 0), e = dimOf(b, loc, logits, 1);
  parallelFor(b, loc, {t}, [&](OpBuilder &b, Location loc, ValueRange ivs) {
    Value ti = ivs[0];
    F32Math m{b, loc};
    auto at = [&](OpBuilder &b, Location loc, Value ei) {
      return loadAsF32(b, loc, logits, {ti, ei});
    };
    if (fn == ScoreFunction::Softmax) {
      Value mx = forReduce(b, loc, zero, e, negInf(b, loc),
                           [&](OpBuilder &b, Location loc, Value ei, Value acc) {
                             return F32Math{b, loc}.max(acc, at(b, loc, ei));
                           });
      Value sum = forReduce(
          b, loc, zero, e, m.c(0.0),
          [&](OpBuilder &b, Location loc, Value ei, Value acc) {
            F32Math n{b, loc};
            return n.add(acc, n.shiftedExp(at(b, loc, ei), mx));
          });
      forRange(b, loc, zero, e, [&](OpBuilder &b, Location loc, Value ei) {
        F32Math n{b, loc};
        storeFromF32(b, loc, n.div(n.shiftedExp(at(b, loc, ei), mx), sum),
                     scores, {ti, ei});
      });
      return;
    }
    forRange(b, loc, zero, e, [&](OpBuilder &b, Location loc, Value ei) {
      Value v = at(b, loc, ei);
      Value s = v;
      switch (fn) {
      case ScoreFunction::Sigmoid:
        s = opmath::buildSigmoid(b, loc, v);
        break;
      case ScoreFunction::SqrtSoftplus:
        s = opmath::buildSqrtSoftplus(b, loc, v);
        break;
      case ScoreFunction::Identity:
      case ScoreFunction::Softmax:
        break;
      }
      storeFromF32(b, loc, s, scores, {ti, ei});
    });
  });
}

namespace {
/// One token's top-k selection (a thread on the GPU), in named steps. Its
/// scratch: selection scores, experts no longer available, and the
/// per-group bookkeeping of group-limited routing.
struct TopKOfToken {
  const TopKConfig &config;
  Value zero, e, k, groups, perGroup; ///< index values shared by all tokens
  Value scores, bias, weights, indices;
  Value ti;
  Value sel = {}, taken = {}, used = {}, groupScore = {}, groupKept = {};

  Value selAt(OpBuilder &b, Location loc, Value i) const {
    return memref::LoadOp::create(b, loc, sel, ValueRange{i});
  }

  void allocateScratch(OpBuilder &b, Location loc) {
    Type f32 = b.getF32Type(), i1 = b.getI1Type();
    sel = scratchAlloca(b, loc, f32, e);
    taken = scratchAlloca(b, loc, i1, e);
    used = scratchAlloca(b, loc, i1, e);
    groupScore = scratchAlloca(b, loc, f32, groups);
    groupKept = scratchAlloca(b, loc, i1, groups);
  }

  /// s = scores + bias; every expert available.
  void initSelection(OpBuilder &b, Location loc) {
    forRange(b, loc, zero, e, [&](OpBuilder &b, Location loc, Value ei) {
      Value s = loadAsF32(b, loc, scores, {ti, ei});
      if (bias)
        s = arith::AddFOp::create(b, loc, s, loadAsF32(b, loc, bias, {ei}));
      memref::StoreOp::create(b, loc, s, sel, ValueRange{ei});
      storeFlag(b, loc, taken, ei, false);
    });
  }

  /// The score of group g's experts [lb, ub): the max of their selection
  /// scores, or the sum of their top groupScoreTopq.
  Value groupScoreOf(OpBuilder &b, Location loc, Value lb, Value ub) {
    auto selOf = [&](OpBuilder &b, Location loc, Value i) {
      return selAt(b, loc, i);
    };
    if (config.groupScore == GroupScore::Max)
      return forReduce(b, loc, lb, ub, negInf(b, loc),
                       [&](OpBuilder &b, Location loc, Value i, Value acc) {
                         return F32Math{b, loc}.max(acc, selAt(b, loc, i));
                       });
    forRange(b, loc, lb, ub, [&](OpBuilder &b, Location loc, Value i) {
      storeFlag(b, loc, used, i, false);
    });
    return forReduce(
        b, loc, zero, idx(b, loc, config.groupScoreTopq), f32Const(b, loc, 0.0),
        [&](OpBuilder &b, Location loc, Value, Value acc) -> Value {
          Value best = argmax(b, loc, lb, ub, selOf,
                              [&](OpBuilder &b, Location loc, Value i) {
                                return notFlag(b, loc, used, i);
                              });
          storeFlag(b, loc, used, best, true);
          return arith::AddFOp::create(b, loc, acc, selAt(b, loc, best));
        });
  }

  /// Score each group, keep the group_topk best, mark the rest taken.
  void limitToBestGroups(OpBuilder &b, Location loc) {
    forRange(b, loc, zero, groups, [&](OpBuilder &b, Location loc, Value g) {
      Value lb = arith::MulIOp::create(b, loc, g, perGroup);
      Value ub = arith::AddIOp::create(b, loc, lb, perGroup);
      Value score = groupScoreOf(b, loc, lb, ub);
      memref::StoreOp::create(b, loc, score, groupScore, ValueRange{g});
      storeFlag(b, loc, groupKept, g, false);
    });
    forRange(b, loc, zero, idx(b, loc, config.groupTopk),
             [&](OpBuilder &b, Location loc, Value) {
               Value best = argmax(
                   b, loc, zero, groups,
                   [&](OpBuilder &b, Location loc, Value g) -> Value {
                     return memref::LoadOp::create(b, loc, groupScore,
                                                   ValueRange{g});
                   },
                   [&](OpBuilder &b, Location loc, Value g) {
                     return notFlag(b, loc, groupKept, g);
                   });
               storeFlag(b, loc, groupKept, best, true);
             });
    forRange(b, loc, zero, e, [&](OpBuilder &b, Location loc, Value ei) {
      Value g = arith::DivUIOp::create(b, loc, ei, perGroup);
      memref::StoreOp::create(b, loc, notFlag(b, loc, groupKept, g), taken,
                              ValueRange{ei});
    });
  }

  /// Top-k in descending selection score; weights from unbiased scores.
  void selectTopK(OpBuilder &b, Location loc) {
    auto selOf = [&](OpBuilder &b, Location loc, Value i) {
      return selAt(b, loc, i);
    };
    forRange(b, loc, zero, k, [&](OpBuilder &b, Location loc, Value ki) {
      Value best = argmax(b, loc, zero, e, selOf,
                          [&](OpBuilder &b, Location loc, Value i) {
                            return notFlag(b, loc, taken, i);
                          });
      storeFlag(b, loc, taken, best, true);
      memref::StoreOp::create(
          b, loc, arith::IndexCastOp::create(b, loc, b.getI32Type(), best),
          indices, ValueRange{ti, ki});
      memref::StoreOp::create(b, loc, loadAsF32(b, loc, scores, {ti, best}),
                              weights, ValueRange{ti, ki});
    });
  }

  /// Normalize over the k chosen, then scale.
  void normalizeAndScale(OpBuilder &b, Location loc) {
    auto wAt = [&](OpBuilder &b, Location loc, Value ki) -> Value {
      return memref::LoadOp::create(b, loc, weights, ValueRange{ti, ki});
    };
    F32Math m{b, loc};
    Value shift = m.c(0.0), denom = m.c(1.0);
    bool softmax = config.normalize == Normalize::Softmax;
    bool sum = config.normalize == Normalize::Sum && config.k > 1;
    if (softmax)
      shift = forReduce(b, loc, zero, k, negInf(b, loc),
                        [&](OpBuilder &b, Location loc, Value ki, Value acc) {
                          return F32Math{b, loc}.max(acc, wAt(b, loc, ki));
                        });
    if (softmax || sum)
      denom =
          forReduce(b, loc, zero, k, m.c(0.0),
                    [&](OpBuilder &b, Location loc, Value ki, Value acc) {
                      F32Math n{b, loc};
                      Value w = wAt(b, loc, ki);
                      return n.add(acc, softmax ? n.shiftedExp(w, shift) : w);
                    });
    if (sum)
      denom = opmath::buildNormalizeDenominator(b, loc, denom);
    forRange(b, loc, zero, k, [&](OpBuilder &b, Location loc, Value ki) {
      F32Math n{b, loc};
      Value w = wAt(b, loc, ki);
      if (softmax)
        w = n.shiftedExp(w, shift);
      if (softmax || sum)
        w = n.div(w, denom);
      w = n.mul(w, n.c(config.scalingFactor));
      memref::StoreOp::create(b, loc, w, weights, ValueRange{ti, ki});
    });
  }
};
} // namespace

TopKConfig topKConfigOf(TopKOp op) {
  int64_t k = op.getK(), groupTopk = op.getGroupTopk();
  return TopKConfig{k,
                    op.getScoreFunction(),
                    int64_t(op.getNumGroups()),
                    groupTopk,
                    op.getGroupScore(),
                    op.getGroupScoreTopq() ? int64_t(*op.getGroupScoreTopq())
                                           : k / groupTopk,
                    op.getNormalize(),
                    op.getScalingFactor().convertToDouble()};
}

void emitTopK(OpBuilder &b, Location loc, const TopKConfig &config,
              Value scores, Value bias, Value weights, Value indices) {
  Value zero = idx(b, loc, 0);
  Value t = dimOf(b, loc, scores, 0), e = dimOf(b, loc, scores, 1);
  Value k = idx(b, loc, config.k);
  Value groups = idx(b, loc, config.numGroups);
  Value perGroup = arith::DivUIOp::create(b, loc, e, groups);
  // Tokens are independent: one iteration (thread) each.
  parallelFor(b, loc, {t}, [&](OpBuilder &b, Location loc, ValueRange ivs) {
    TopKOfToken token{config, zero, e,       k,       groups, perGroup,
                      scores, bias, weights, indices, ivs[0]};
    token.allocateScratch(b, loc);
    token.initSelection(b, loc);
    if (config.numGroups > 1)
      token.limitToBestGroups(b, loc);
    token.selectTopK(b, loc);
    token.normalizeAndScale(b, loc);
  });
}

void emitAuxLoss(OpBuilder &b, Location loc, const AuxLossConfig &config,
                 Value scores, Value indices, Value loss) {
  Value zero = idx(b, loc, 0);
  Value t = dimOf(b, loc, scores, 0), e = dimOf(b, loc, scores, 1);
  Value k = dimOf(b, loc, indices, 1);
  Value seqLen = config.variant == AuxLossVariant::Sequence
                     ? idx(b, loc, config.seqLength)
                     : t;
  // T = 0 (batch variant: S = T) must not divide by zero: that is UB in the
  // compiled code, not a NaN. No sequences then; the mean is 0/0 = NaN, as
  // z_loss's is.
  Value numSeq = arith::DivUIOp::create(
      b, loc, t, arith::MaxUIOp::create(b, loc, seqLen, idx(b, loc, 1)));
  Type i64 = b.getI64Type(), f32 = b.getF32Type();
  Value counts = alloc1D(b, loc, i64, e);
  Value probSum = alloc1D(b, loc, f32, e);
  bool normalizePerToken = config.scoreFunction != ScoreFunction::Softmax;
  auto toF32 = [&](OpBuilder &b, Location loc, Value index) -> Value {
    Value i = arith::IndexCastOp::create(b, loc, i64, index);
    return arith::SIToFPOp::create(b, loc, f32, i);
  };

  Value total = forReduce(
      b, loc, zero, numSeq, f32Const(b, loc, 0.0),
      [&](OpBuilder &b, Location loc, Value s, Value total) -> Value {
        forRange(b, loc, zero, e, [&](OpBuilder &b, Location loc, Value ei) {
          memref::StoreOp::create(b, loc, i64Const(b, loc, 0), counts,
                                  ValueRange{ei});
          memref::StoreOp::create(b, loc, f32Const(b, loc, 0.0), probSum,
                                  ValueRange{ei});
        });
        Value lb = arith::MulIOp::create(b, loc, s, seqLen);
        Value ub = arith::AddIOp::create(b, loc, lb, seqLen);
        forRange(b, loc, lb, ub, [&](OpBuilder &b, Location loc, Value ti) {
          // c_e: the (t, k) routed to e; indices outside [0, E) count nowhere.
          forRange(b, loc, zero, k, [&](OpBuilder &b, Location loc, Value ki) {
            Value raw = memref::LoadOp::create(b, loc, indices,
                                               ValueRange{ti, ki});
            Value ei = arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
            Value inRange = inHalfOpenRange(b, loc, ei, zero, e);
            scf::IfOp::create(b, loc, inRange, [&](OpBuilder &b, Location loc) {
              Value c = memref::LoadOp::create(b, loc, counts, ValueRange{ei});
              memref::StoreOp::create(
                  b, loc, arith::AddIOp::create(b, loc, c, i64Const(b, loc, 1)),
                  counts, ValueRange{ei});
              scf::YieldOp::create(b, loc);
            });
          });
          // Dense scores, normalized per token for sigmoid/sqrtsoftplus.
          F32Math m{b, loc};
          Value norm = m.c(1.0);
          if (normalizePerToken)
            norm = opmath::buildNormalizeDenominator(
                b, loc,
                forReduce(b, loc, zero, e, m.c(0.0),
                          [&](OpBuilder &b, Location loc, Value ei, Value acc) {
                            return F32Math{b, loc}.add(
                                acc, loadAsF32(b, loc, scores, {ti, ei}));
                          }));
          forRange(b, loc, zero, e, [&](OpBuilder &b, Location loc, Value ei) {
            F32Math n{b, loc};
            Value p = loadAsF32(b, loc, scores, {ti, ei});
            if (normalizePerToken)
              p = n.div(p, norm);
            Value acc = memref::LoadOp::create(b, loc, probSum, ValueRange{ei});
            memref::StoreOp::create(b, loc, n.add(acc, p), probSum,
                                    ValueRange{ei});
          });
        });
        if (config.sumCountsOverRanks)
          config.sumCountsOverRanks(b, loc, counts);
        Value dot = forReduce(
            b, loc, zero, e, f32Const(b, loc, 0.0),
            [&](OpBuilder &b, Location loc, Value ei, Value acc) -> Value {
              F32Math n{b, loc};
              Value c = arith::SIToFPOp::create(
                  b, loc, f32,
                  memref::LoadOp::create(b, loc, counts, ValueRange{ei}));
              Value p = memref::LoadOp::create(b, loc, probSum, ValueRange{ei});
              return n.add(acc, n.mul(p, c));
            });
        // E · coeff / (K · S²) for a sequence of S tokens.
        F32Math m{b, loc};
        Value sF = toF32(b, loc, seqLen);
        if (config.ranks > 1)
          sF = m.mul(sF, m.c(double(config.ranks)));
        Value factor = m.div(m.mul(toF32(b, loc, e), m.c(config.coeff)),
                             m.mul(toF32(b, loc, k), m.mul(sF, sF)));
        return m.add(total, m.mul(factor, dot));
      });
  F32Math m{b, loc};
  Value mean = m.div(total, toF32(b, loc, numSeq));
  memref::StoreOp::create(b, loc, mean, loss, ValueRange{});
  memref::DeallocOp::create(b, loc, counts);
  memref::DeallocOp::create(b, loc, probSum);
}

void emitZLoss(OpBuilder &b, Location loc, double coeff, Value logits,
               Value loss) {
  Value zero = idx(b, loc, 0);
  Value t = dimOf(b, loc, logits, 0), e = dimOf(b, loc, logits, 1);
  Value total = forReduce(
      b, loc, zero, t, f32Const(b, loc, 0.0),
      [&](OpBuilder &b, Location loc, Value ti, Value total) -> Value {
        auto at = [&](OpBuilder &b, Location loc, Value ei) {
          return loadAsF32(b, loc, logits, {ti, ei});
        };
        Value mx = forReduce(b, loc, zero, e, negInf(b, loc),
                             [&](OpBuilder &b, Location loc, Value ei, Value acc) {
                               return F32Math{b, loc}.max(acc, at(b, loc, ei));
                             });
        Value sum = forReduce(
            b, loc, zero, e, f32Const(b, loc, 0.0),
            [&](OpBuilder &b, Location loc, Value ei, Value acc) {
              F32Math n{b, loc};
              return n.add(acc, n.shiftedExp(at(b, loc, ei), mx));
            });
        F32Math m{b, loc};
        Value lse = opmath::buildLogSumExp(b, loc, mx, sum);
        return m.add(total, m.mul(lse, lse));
      });
  F32Math m{b, loc};
  Value tF = arith::SIToFPOp::create(
      b, loc, b.getF32Type(),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), t));
  memref::StoreOp::create(b, loc, m.div(m.mul(m.c(coeff), total), tF), loss,
                          ValueRange{});
}

void emitExpertBiasUpdate(OpBuilder &b, Location loc, double rate, Value bias,
                          Value counts, Value updatedBias) {
  Value zero = idx(b, loc, 0);
  Value e = dimOf(b, loc, bias, 0);
  Value total = forReduce(
      b, loc, zero, e, f32Const(b, loc, 0.0),
      [&](OpBuilder &b, Location loc, Value ei, Value acc) -> Value {
        Value c = memref::LoadOp::create(b, loc, counts, ValueRange{ei});
        return arith::AddFOp::create(b, loc, acc, countAsF32(b, loc, c));
      });
  F32Math m{b, loc};
  Value eF = arith::SIToFPOp::create(
      b, loc, b.getF32Type(),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), e));
  Value mean = m.div(total, eF);
  forRange(b, loc, zero, e, [&](OpBuilder &b, Location loc, Value ei) {
    F32Math n{b, loc};
    Value c = countAsF32(
        b, loc, memref::LoadOp::create(b, loc, counts, ValueRange{ei}));
    Value d = n.sub(mean, c);
    // sign(d): 1, -1 or 0.
    Value pos = select(b, loc, n.gt(d, n.c(0.0)), n.c(1.0), n.c(0.0));
    Value sign = select(b, loc, n.gt(n.c(0.0), d), n.c(-1.0), pos);
    Value updated = n.add(loadAsF32(b, loc, bias, {ei}), n.mul(n.c(rate), sign));
    storeFromF32(b, loc, updated, updatedBias, {ei});
  });
}

} // namespace mlir::moe::loops
