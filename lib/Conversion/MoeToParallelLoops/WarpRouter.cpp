//===- WarpRouter.cpp - the router ops as a warp per token ----------------===//
#include "WarpRouter.h"
#include "RowSchedules.h"

#include "../MoeToLoops/LoopBuilder.h"
#include "../MoeToLoops/LoopEmitters.h"

#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::moe;
using namespace mlir::moe::loops;

namespace mlir::moe::gpu_schedules {
namespace {

/// Experts a lane holds at most: the selection rounds are unrolled over
/// them.
constexpr int64_t kMaxSlots = 16;

using WarpBody = llvm::function_ref<void(OpBuilder &, Location, Value token,
                                         Value lane, Value inRange)>;

/// A warp per token: blocks of kWarpsPerBlock tokens (block_x), each warp's
/// 32 threads (thread_x) one token's lanes. Past the last token a warp
/// computes on the last token (every lane of a warp takes part in its
/// shuffles) and `inRange` is false: it must not store.
void warpPerTokenFor(OpBuilder &b, Location loc, Value numTokens,
                     WarpBody body) {
  warpPerItemFor(
      b, loc, numTokens, kWarpsPerBlock,
      [&](OpBuilder &tb, Location tloc, Value token, Value lane,
          Value inRange) {
        Value last =
            arith::SubIOp::create(tb, tloc, numTokens, indexConst(tb, tloc, 1));
        Value clamped = arith::MinUIOp::create(tb, tloc, token, last);
        body(tb, tloc, clamped, lane, inRange);
      });
}

/// A selection candidate: a score and its expert (or group); index -1 when
/// there is none.
struct Candidate {
  Value value; ///< f32
  Value index; ///< i32
};

/// Warp-level arithmetic of one lane, in the reference's order relations.
struct LaneMath {
  OpBuilder &b;
  Location loc;

  Value i32(int64_t v) { return i32Const(b, loc, int32_t(v)); }
  Value cmpF(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value cmpI(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value pick(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Candidate none() { return {f32Const(b, loc, opmath::kMaxIdentity), i32(-1)}; }

  /// Whether `c` ranks above `a`: the reference arg-max's order (a larger
  /// value wins; a NaN ranks below every number; equal values, and two
  /// NaNs, go to the lower index; no candidate ranks below everything).
  Value ranksAbove(Candidate c, Candidate a) {
    using P = arith::CmpFPredicate;
    Value present = cmpI(arith::CmpIPredicate::sge, c.index, i32(0));
    Value aAbsent = cmpI(arith::CmpIPredicate::slt, a.index, i32(0));
    Value greater = cmpF(P::OGT, c.value, a.value);
    Value aNan = cmpF(P::UNO, a.value, a.value);
    Value cNan = cmpF(P::UNO, c.value, c.value);
    Value numberOverNan = andI(aNan, cmpF(P::ORD, c.value, c.value));
    Value equal = orI(cmpF(P::OEQ, c.value, a.value), andI(aNan, cNan));
    Value lower = cmpI(arith::CmpIPredicate::slt, c.index, a.index);
    Value wins =
        orI(orI(aAbsent, greater), orI(numberOverNan, andI(equal, lower)));
    return andI(present, wins);
  }
  Candidate better(Candidate c, Candidate a) {
    Value take = ranksAbove(c, a);
    return {pick(take, c.value, a.value), pick(take, c.index, a.index)};
  }

  /// The best candidate of the warp, in every lane: a butterfly of
  /// shuffles (xor 16, 8, 4, 2, 1) on (value, index).
  Candidate warpBest(Candidate mine) {
    for (int32_t offset = kWarpSize / 2; offset > 0; offset /= 2) {
      Candidate other{shuffleXor(mine.value, offset),
                      shuffleXor(mine.index, offset)};
      mine = better(other, mine);
    }
    return mine;
  }
  /// The maximum (arith.maximumf, as the reference's) over the warp.
  Value warpMax(Value mine) {
    return warpButterfly(
        b, loc, mine, kWarpSize, /*stride=*/1,
        [](OpBuilder &sb, Location sl, Value acc, Value other) {
          return opmath::buildMaxStep(sb, sl, acc, other);
        });
  }
  /// The sum of every expert's value in the reference's order (0, 1, ...,
  /// E - 1; expert l + 32 j is slot j of lane l): each value is broadcast
  /// from its lane (an index shuffle) and every lane adds them in turn, so
  /// the sum is the reference's bit for bit.
  Value orderedSum(ArrayRef<Value> slots) {
    Value sum = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    for (Value slot : slots) {
      // A slot's 32 broadcasts first, then their sum: one phase of shuffles
      // a slot for the lanes-in-order emulation, 32 values live at a time.
      SmallVector<Value> values;
      for (int32_t lane = 0; lane < kWarpSize; ++lane)
        values.push_back(shuffleIdx(slot, lane));
      for (Value v : values)
        sum = arith::AddFOp::create(b, loc, sum, v);
    }
    return sum;
  }
  Value shuffleIdx(Value v, int32_t lane) {
    return gpu::ShuffleOp::create(b, loc, v, lane, kWarpSize,
                                  gpu::ShuffleMode::IDX)
        .getShuffleResult();
  }
  Value shuffleXor(Value v, int32_t offset) {
    return gpu::ShuffleOp::create(b, loc, v, offset, kWarpSize,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  }
};

/// One token's top-k in one warp, in named steps. Slot j of lane l holds
/// expert l + 32 j; group g (when groups are limited) is slots
/// [g · slotsPerGroup, (g + 1) · slotsPerGroup) of every lane.
struct WarpTopK {
  const TopKConfig &config;
  Value scores, bias, weights, indices;
  int64_t slots, slotsPerGroup;
  Value token, lane, laneI32;
  SmallVector<Value> sel = {};    ///< f32 selection score per slot
  SmallVector<Value> expert = {}; ///< i32 expert per slot

  /// s = scores + bias for the lane's experts (coalesced: slot j of the
  /// warp's lanes is 32 consecutive experts).
  void loadSelection(OpBuilder &b, Location loc) {
    laneI32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), lane);
    for (int64_t j = 0; j < slots; ++j) {
      Value e = arith::AddIOp::create(b, loc, lane,
                                      indexConst(b, loc, j * kWarpSize));
      Value s = loadAsF32(b, loc, scores, {token, e});
      if (bias)
        s = arith::AddFOp::create(b, loc, s, loadAsF32(b, loc, bias, {e}));
      sel.push_back(s);
      expert.push_back(arith::IndexCastOp::create(b, loc, b.getI32Type(), e));
    }
  }

  /// The warp's best available expert among slots [lo, hi).
  Candidate bestOf(LaneMath &m, int64_t lo, int64_t hi,
                   ArrayRef<Value> available) {
    Candidate mine = m.none();
    for (int64_t j = lo; j < hi; ++j)
      mine =
          m.better({sel[j], m.pick(available[j], expert[j], m.i32(-1))}, mine);
    return m.warpBest(mine);
  }
  void markTaken(LaneMath &m, Value winner, int64_t lo, int64_t hi,
                 MutableArrayRef<Value> available) {
    for (int64_t j = lo; j < hi; ++j)
      available[j] = m.andI(
          available[j], m.cmpI(arith::CmpIPredicate::ne, expert[j], winner));
  }

  /// Group g's score: the max of its selection scores, or the sum of its
  /// top q in descending order (the reference's order of additions).
  Value groupScoreOf(LaneMath &m, int64_t g) {
    int64_t lo = g * slotsPerGroup, hi = lo + slotsPerGroup;
    if (config.groupScore == GroupScore::Max) {
      Value mine = f32Const(m.b, m.loc, opmath::kMaxIdentity);
      for (int64_t j = lo; j < hi; ++j)
        mine = opmath::buildMaxStep(m.b, m.loc, mine, sel[j]);
      return m.warpMax(mine);
    }
    SmallVector<Value> unused(
        slots, arith::ConstantOp::create(m.b, m.loc, m.b.getBoolAttr(true)));
    Value sum = f32Const(m.b, m.loc, 0.0);
    for (int64_t r = 0; r < config.groupScoreTopq; ++r) {
      Candidate best = bestOf(m, lo, hi, unused);
      markTaken(m, best.index, lo, hi, unused);
      sum = arith::AddFOp::create(m.b, m.loc, sum, best.value);
    }
    return sum;
  }

  /// Which slots stay available: all, or those of the group_topk best
  /// groups (ties to the lower group), as the reference chooses them.
  SmallVector<Value> availableSlots(LaneMath &m) {
    Value yes = arith::ConstantOp::create(m.b, m.loc, m.b.getBoolAttr(true));
    if (config.numGroups <= 1)
      return SmallVector<Value>(slots, yes);
    SmallVector<Value> groupScore, kept;
    Value no = arith::ConstantOp::create(m.b, m.loc, m.b.getBoolAttr(false));
    for (int64_t g = 0; g < config.numGroups; ++g) {
      groupScore.push_back(groupScoreOf(m, g));
      kept.push_back(no);
    }
    for (int64_t r = 0; r < config.groupTopk; ++r) {
      Candidate best = m.none();
      for (int64_t g = 0; g < config.numGroups; ++g)
        best = m.better({groupScore[g], m.pick(kept[g], m.i32(-1), m.i32(g))},
                        best);
      for (int64_t g = 0; g < config.numGroups; ++g)
        kept[g] = m.orI(kept[g],
                        m.cmpI(arith::CmpIPredicate::eq, best.index, m.i32(g)));
    }
    SmallVector<Value> available;
    for (int64_t j = 0; j < slots; ++j)
      available.push_back(kept[j / slotsPerGroup]);
    return available;
  }

  /// K rounds of the warp's best available expert, in descending order;
  /// weights are the unbiased scores (one broadcast load per round).
  void selectTopK(LaneMath &m, SmallVector<Value> available,
                  SmallVectorImpl<Value> &chosen, SmallVectorImpl<Value> &w) {
    for (int64_t k = 0; k < config.k; ++k) {
      Candidate best = bestOf(m, 0, slots, available);
      markTaken(m, best.index, 0, slots, available);
      chosen.push_back(best.index);
      Value e = arith::IndexCastOp::create(m.b, m.loc, m.b.getIndexType(),
                                           best.index);
      w.push_back(loadAsF32(m.b, m.loc, scores, {token, e}));
    }
  }

  /// The reference's normalization and scaling over the K weights, in
  /// its order, in every lane.
  void normalizeAndScale(LaneMath &m, MutableArrayRef<Value> w) {
    OpBuilder &b = m.b;
    Location loc = m.loc;
    bool softmax = config.normalize == Normalize::Softmax;
    bool sum = config.normalize == Normalize::Sum && config.k > 1;
    Value shift = f32Const(b, loc, 0.0), denom = f32Const(b, loc, 1.0);
    if (softmax) {
      shift = f32Const(b, loc, opmath::kMaxIdentity);
      for (Value wk : w)
        shift = opmath::buildMaxStep(b, loc, shift, wk);
    }
    if (softmax || sum) {
      denom = f32Const(b, loc, 0.0);
      for (Value wk : w)
        denom = arith::AddFOp::create(
            b, loc, denom,
            softmax ? opmath::buildShiftedExp(b, loc, wk, shift) : wk);
    }
    if (sum)
      denom = opmath::buildNormalizeDenominator(b, loc, denom);
    for (Value &wk : w) {
      if (softmax)
        wk = opmath::buildShiftedExp(b, loc, wk, shift);
      if (softmax || sum)
        wk = arith::DivFOp::create(b, loc, wk, denom);
      wk = arith::MulFOp::create(b, loc, wk,
                                 f32Const(b, loc, config.scalingFactor));
    }
  }

  /// Lane k < K stores the k-th choice: one coalesced store per output.
  void store(LaneMath &m, Value inRange, ArrayRef<Value> chosen,
             ArrayRef<Value> w) {
    Value myIndex = chosen[0], myWeight = w[0];
    for (int64_t k = 1; k < config.k; ++k) {
      Value mine = m.cmpI(arith::CmpIPredicate::eq, laneI32, m.i32(k));
      myIndex = m.pick(mine, chosen[k], myIndex);
      myWeight = m.pick(mine, w[k], myWeight);
    }
    Value stores = m.andI(
        inRange, m.cmpI(arith::CmpIPredicate::slt, laneI32, m.i32(config.k)));
    ifThen(m.b, m.loc, stores, [&](OpBuilder &b, Location loc) {
      memref::StoreOp::create(b, loc, myWeight, weights,
                              ValueRange{token, lane});
      memref::StoreOp::create(b, loc, myIndex, indices,
                              ValueRange{token, lane});
    });
  }

  void emit(OpBuilder &b, Location loc, Value inRange) {
    LaneMath m{b, loc};
    loadSelection(b, loc);
    SmallVector<Value> chosen, w;
    selectTopK(m, availableSlots(m), chosen, w);
    normalizeAndScale(m, w);
    store(m, inRange, chosen, w);
  }
};

/// The number of experts when the warp schedule applies to `op`, else 0.
int64_t warpTopKExperts(TopKOp op, const TopKConfig &config) {
  auto scores = dyn_cast<MemRefType>(op.getScores().getType());
  auto weights = dyn_cast<MemRefType>(op.getWeightsInit().getType());
  if (!scores || scores.getRank() != 2 || scores.isDynamicDim(1) || !weights ||
      !weights.getElementType().isF32())
    return 0;
  int64_t experts = scores.getDimSize(1);
  if (experts == 0 || experts % kWarpSize != 0 ||
      experts / kWarpSize > kMaxSlots || config.k > kWarpSize)
    return 0;
  if (config.numGroups > 1 && ((experts / config.numGroups) % kWarpSize != 0 ||
                               config.numGroups > kWarpSize))
    return 0;
  return experts;
}

struct WarpTopKPattern : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return failure();
    TopKConfig config = topKConfigOf(op);
    int64_t experts = warpTopKExperts(op, config);
    if (experts == 0)
      return rewriter.notifyMatchFailure(
          op, "needs a static number of experts, a multiple of 32 (groups "
              "too), K <= 32 and f32 weights");
    int64_t slots = experts / kWarpSize;
    int64_t slotsPerGroup = slots / std::max<int64_t>(config.numGroups, 1);
    Location loc = op.getLoc();
    Value numTokens = dimOf(rewriter, loc, op.getScores(), 0);
    warpPerTokenFor(rewriter, loc, numTokens,
                    [&](OpBuilder &b, Location tokenLoc, Value token,
                        Value lane, Value inRange) {
                      WarpTopK topk{config,
                                    op.getScores(),
                                    op.getBias(),
                                    op.getWeightsInit(),
                                    op.getIndicesInit(),
                                    slots,
                                    slotsPerGroup,
                                    token,
                                    lane,
                                    Value()};
                      topk.emit(b, tokenLoc, inRange);
                    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// moe.route, a warp per token: lane l loads and computes experts l + 32 j
/// (coalesced: the warp reads 32 consecutive logits at a time). Softmax
/// takes the warp's max (a butterfly; max is order-free) and the sum of the
/// exponentials in the reference's order (orderedSum), so the scores equal
/// the reference lowering's bit for bit.
void emitWarpRoute(OpBuilder &b, Location loc, ScoreFunction fn, Value logits,
                   Value scores, int64_t slots) {
  Value numTokens = dimOf(b, loc, logits, 0);
  warpPerTokenFor(b, loc, numTokens, [&](OpBuilder &b, Location loc,
                                         Value token, Value lane,
                                         Value inRange) {
    LaneMath m{b, loc};
    SmallVector<Value> expert, x;
    for (int64_t j = 0; j < slots; ++j) {
      expert.push_back(arith::AddIOp::create(
          b, loc, lane, indexConst(b, loc, j * kWarpSize)));
      x.push_back(loadAsF32(b, loc, logits, {token, expert.back()}));
    }
    SmallVector<Value> s(x);
    if (fn == ScoreFunction::Softmax) {
      Value max = f32Const(b, loc, opmath::kMaxIdentity);
      for (Value v : x)
        max = opmath::buildMaxStep(b, loc, max, v);
      max = m.warpMax(max);
      for (Value &v : s)
        v = opmath::buildShiftedExp(b, loc, v, max);
      Value sum = m.orderedSum(s);
      for (Value &v : s)
        v = arith::DivFOp::create(b, loc, v, sum);
    } else if (fn == ScoreFunction::Sigmoid) {
      for (Value &v : s)
        v = opmath::buildSigmoid(b, loc, v);
    } else if (fn == ScoreFunction::SqrtSoftplus) {
      for (Value &v : s)
        v = opmath::buildSqrtSoftplus(b, loc, v);
    }
    ifThen(b, loc, inRange, [&](OpBuilder &b, Location loc) {
      for (int64_t j = 0; j < slots; ++j)
        storeFromF32(b, loc, s[j], scores, {token, expert[j]});
    });
  });
}

struct WarpRoutePattern : OpConversionPattern<RouteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RouteOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto logits = dyn_cast<MemRefType>(op.getLogits().getType());
    if (!op.hasPureBufferSemantics() || !logits || logits.getRank() != 2 ||
        logits.isDynamicDim(1) || logits.getDimSize(1) == 0 ||
        logits.getDimSize(1) % kWarpSize != 0 ||
        logits.getDimSize(1) / kWarpSize > kMaxSlots)
      return rewriter.notifyMatchFailure(
          op, "needs a static number of experts, a multiple of 32");
    emitWarpRoute(rewriter, op.getLoc(), op.getScoreFunction(), op.getLogits(),
                  op.getScoresInit(), logits.getDimSize(1) / kWarpSize);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateWarpRouterPatterns(RewritePatternSet &patterns,
                                PatternBenefit benefit) {
  patterns.add<WarpTopKPattern, WarpRoutePattern>(patterns.getContext(), benefit);
}

} // namespace mlir::moe::gpu_schedules
