//===- MoeOps.cpp - type inference and verifiers of moe ops ---------------===//
//
// Each op with inferable results has one `infer<Op>` function that checks
// the operands and computes the result types. Type inference calls it with a
// sink that reports at the op's location; the verifier calls it with
// emitOpError, then compares the actual results and checks the attributes.
// The InferTypeOpInterface comparison itself is kept coarse (same count and
// ranks) so that shape mismatches are reported here, by name and number.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "OperandChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::moe;
using namespace mlir::moe::checks;

using TypeList = SmallVector<Type, 3>;

namespace {
/// A sink that reports through an op's emitOpError.
struct OpErrorSink {
  Operation *op;
  LogicalResult operator()(const Twine &message) const {
    return op->emitOpError(message);
  }
};

/// A sink for type inference: reports at `loc` when there is one, with the
/// op name in front as emitOpError would put it.
struct InferErrorSink {
  std::optional<Location> loc;
  StringRef opName;
  LogicalResult operator()(const Twine &message) const {
    return emitOptionalError(loc, "'", opName, "' op ", message);
  }
};
} // namespace

/// How every inferReturnTypes ends: appends the types its infer<Op>
/// computed.
static LogicalResult appendInferred(FailureOr<TypeList> types,
                                    SmallVectorImpl<Type> &inferred) {
  if (failed(types))
    return failure();
  inferred.append(types->begin(), types->end());
  return success();
}

/// Compares each actual result with the inferred one (see expectResult).
static LogicalResult checkResults(ErrorSink err, TypeRange actual,
                                  ArrayRef<Type> inferred,
                                  ArrayRef<StringRef> names,
                                  ArrayRef<StringRef> rules) {
  for (auto [i, type] : llvm::enumerate(inferred)) {
    auto want = cast<RankedTensorType>(type);
    if (failed(expectResult(err, names[i], actual[i], want.getShape(),
                            want.getElementType(), rules[i])))
      return failure();
  }
  return success();
}

static RankedTensorType tensorOf(ArrayRef<int64_t> shape, Type elem) {
  return RankedTensorType::get(shape, elem);
}

/// The tensor type a value stands for: itself for tensors, the tensor of the
/// same shape and elements for buffers. This lets one verifier serve an op on
/// tensors and on memrefs.
static RankedTensorType typeOf(Value value) {
  if (auto memref = dyn_cast<MemRefType>(value.getType()))
    return RankedTensorType::get(memref.getShape(), memref.getElementType());
  return cast<RankedTensorType>(value.getType());
}

/// The outputs of an op as tensor types: those of its destinations.
template <typename OpT>
static SmallVector<Type, 3> outputTypes(OpT op) {
  SmallVector<Type, 3> types;
  for (Value init : op.getOuts())
    types.push_back(typeOf(init));
  return types;
}

static Type f32(MLIRContext *ctx) { return Float32Type::get(ctx); }
static Type i32(MLIRContext *ctx) { return IntegerType::get(ctx, 32); }

/// The first static size among `dims` (sizes that all stand for the same
/// symbol and were checked to agree where static), else dynamic.
static int64_t firstStatic(std::initializer_list<int64_t> dims) {
  for (int64_t d : dims)
    if (!ShapedType::isDynamic(d))
      return d;
  return ShapedType::kDynamic;
}

static bool isPositiveFinite(double v) { return std::isfinite(v) && v > 0; }
static bool isNonNegativeFinite(double v) { return std::isfinite(v) && v >= 0; }

//===----------------------------------------------------------------------===//
// Destination-passing style
//===----------------------------------------------------------------------===//

LogicalResult mlir::moe::verifyDestinations(Operation *op,
                                            unsigned numDestinations,
                                            unsigned numOptional) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  if (!dps.hasPureTensorSemantics() && !dps.hasPureBufferSemantics())
    return op->emitOpError("operands must be all tensors (value semantics) "
                           "or all memrefs (buffer semantics)");
  unsigned count = dps.getNumDpsInits();
  if (count < numDestinations || count > numDestinations + numOptional) {
    std::string expected = std::to_string(numDestinations);
    if (numOptional)
      expected += " to " + std::to_string(numDestinations + numOptional);
    bool one = numDestinations + numOptional == 1;
    return op->emitOpError("expects ")
           << expected << (one ? " destination" : " destinations")
           << " in 'outs', got " << count;
  }
  if (dps.hasPureBufferSemantics()) {
    if (op->getNumResults() != 0)
      return op->emitOpError("on memrefs has no results, got ")
             << op->getNumResults();
    return success();
  }
  if (op->getNumResults() != count)
    return op->emitOpError("on tensors has one result per destination (")
           << count << "), got " << op->getNumResults();
  for (auto [i, result, init] :
       llvm::enumerate(op->getResults(), dps.getDpsInits()))
    if (result.getType() != init.getType())
      return op->emitOpError("result #")
             << i << " has type " << result.getType()
             << " but its destination has type " << init.getType();
  return success();
}

LogicalResult mlir::moe::inferDestinationTypes(
    ValueRange outs, SmallVectorImpl<Type> &inferred) {
  for (Value init : outs)
    if (isa<RankedTensorType>(init.getType()))
      inferred.push_back(init.getType());
  return success();
}

void mlir::moe::getDestinationStyleEffects(
    Operation *op, function_ref<bool(OpOperand &)> isInitRead,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<BaseMemRefType>(operand.get().getType()))
      continue;
    bool isInit = dps.isDpsInit(&operand);
    if (!isInit || isInitRead(operand))
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
    if (isInit)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

SmallVector<Value> mlir::moe::createEmptyDestinations(
    OpBuilder &b, Location loc, TypeRange types,
    function_ref<Value(unsigned, unsigned)> dynamicSize) {
  SmallVector<Value> inits;
  for (auto [i, type] : llvm::enumerate(types)) {
    auto tensor = cast<RankedTensorType>(type);
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < tensor.getRank(); ++d)
      if (tensor.isDynamicDim(d))
        sizes.push_back(dynamicSize(i, d));
    inits.push_back(tensor::EmptyOp::create(b, loc, tensor, sizes));
  }
  return inits;
}

void mlir::moe::setResultNames(Operation *op, ArrayRef<StringLiteral> names,
                               OpAsmSetValueNameFn setNameFn) {
  if (op->getNumResults() < 2)
    return;
  for (auto [result, name] : llvm::zip(op->getResults(), names)) {
    std::string snake;
    for (char c : name) {
      if (llvm::isUpper(c) && !snake.empty())
        snake += '_';
      snake += llvm::toLower(c);
    }
    setNameFn(result, snake);
  }
}

/// The size of dim `dim` of a tensor operand, for dynamic destinations.
static Value dimOf(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  return tensor::DimOp::create(b, loc, tensor, dim);
}

/// An error sink for builders: a failed inference builds the op without
/// destinations, and its verifier reports why.
static LogicalResult silentSink(const Twine &) { return failure(); }

//===----------------------------------------------------------------------===//
// Shared rules: router configuration, aux-loss configuration, grid axes.
//===----------------------------------------------------------------------===//

namespace {
struct RouterConfig {
  int64_t numExperts; // may be dynamic
  int64_t k;
  ScoreFunction scoreFunction;
  bool hasBias;
  int64_t numGroups;
  int64_t groupTopk;
  GroupScore groupScore;
  std::optional<int64_t> groupScoreTopq;
  double scalingFactor;
};
} // namespace

/// k has to be checked before it becomes a tensor dimension.
static LogicalResult verifyTopK(ErrorSink err, int64_t k) {
  if (k < 1)
    return err("k = " + Twine(k) + " must be at least 1");
  return success();
}

static LogicalResult verifyRouterConfig(ErrorSink err, const RouterConfig &c) {
  if (failed(verifyTopK(err, c.k)))
    return failure();
  bool staticE = !ShapedType::isDynamic(c.numExperts);
  if (staticE && c.k > c.numExperts)
    return err("k = " + Twine(c.k) + " exceeds the number of experts E = " +
               Twine(c.numExperts));
  if (c.numGroups < 1)
    return err("num_groups = " + Twine(c.numGroups) + " must be at least 1");
  if (staticE && c.numExperts % c.numGroups != 0)
    return err("E = " + Twine(c.numExperts) +
               " experts are not divisible by num_groups = " +
               Twine(c.numGroups));
  if (c.groupTopk < 1)
    return err("group_topk = " + Twine(c.groupTopk) + " must be at least 1");
  if (c.groupTopk > c.numGroups)
    return err("group_topk = " + Twine(c.groupTopk) +
               " exceeds num_groups = " + Twine(c.numGroups));
  if (c.numGroups > 1) {
    if (c.k % c.groupTopk != 0)
      return err("k = " + Twine(c.k) + " is not divisible by group_topk = " +
                 Twine(c.groupTopk));
    if (staticE) {
      int64_t perGroup = c.numExperts / c.numGroups;
      if (c.k > c.groupTopk * perGroup)
        return err("k = " + Twine(c.k) + " exceeds the " +
                   Twine(c.groupTopk * perGroup) +
                   " experts left after group selection (group_topk = " +
                   Twine(c.groupTopk) + " groups of " + Twine(perGroup) + ")");
      if (c.groupScoreTopq &&
          (*c.groupScoreTopq < 1 || *c.groupScoreTopq > perGroup))
        return err("group_score_topq = " + Twine(*c.groupScoreTopq) +
                   " must be in [1, " + Twine(perGroup) +
                   "], the experts of one group");
    }
  }
  if (c.groupScoreTopq) {
    if (c.numGroups == 1)
      return err("group_score_topq applies only to group-limited routing "
                 "(num_groups > 1)");
    if (c.groupScore != GroupScore::TopSum)
      return err("group_score_topq applies only to group_score top_sum, not " +
                 stringifyGroupScore(c.groupScore));
  }
  if (c.hasBias && c.scoreFunction != ScoreFunction::Sigmoid &&
      c.scoreFunction != ScoreFunction::SqrtSoftplus)
    return err("an expert bias is allowed only with sigmoid or sqrtsoftplus "
               "scores, not " +
               stringifyScoreFunction(c.scoreFunction));
  if (!isPositiveFinite(c.scalingFactor))
    return err("scaling_factor = " + num(c.scalingFactor) +
               " must be positive and finite");
  return success();
}

static LogicalResult
verifyAuxLossConfig(ErrorSink err, AuxLossVariant variant, double coeff,
                    std::optional<int64_t> seqLength, FlatSymbolRefAttr grid,
                    std::optional<ArrayRef<int64_t>> gridAxes,
                    int64_t numTokens, StringRef coeffName) {
  if (!isNonNegativeFinite(coeff))
    return err(coeffName + " = " + num(coeff) +
               " must be non-negative and finite");
  if (variant == AuxLossVariant::Sequence) {
    if (!seqLength)
      return err("aux-loss variant sequence needs seq_length");
    if (*seqLength < 1)
      return err("seq_length = " + Twine(*seqLength) + " must be at least 1");
    if (!ShapedType::isDynamic(numTokens) && numTokens % *seqLength != 0)
      return err("T = " + Twine(numTokens) +
                 " tokens are not divisible by seq_length = " +
                 Twine(*seqLength));
  } else if (seqLength) {
    return err("seq_length applies only to aux-loss variant sequence, not " +
               stringifyAuxLossVariant(variant));
  }
  if (variant == AuxLossVariant::Global) {
    if (!grid || !gridAxes)
      return err("aux-loss variant global needs grid and grid_axes (the "
                 "ranks that counts and tokens are summed over)");
  } else if (grid || gridAxes) {
    return err("grid and grid_axes apply only to aux-loss variant global, "
               "not " +
               stringifyAuxLossVariant(variant));
  }
  return success();
}

/// `grid` must name a shard.grid and `axes` must be distinct axes of it.
static FailureOr<shard::GridOp>
verifyGridAxes(Operation *op, SymbolTableCollection &symbolTable,
               FlatSymbolRefAttr grid, ArrayRef<int64_t> axes) {
  shard::GridOp gridOp = shard::getGridOrNull(op, grid, symbolTable);
  if (!gridOp) {
    op->emitOpError("grid @") << grid.getValue()
                              << " does not name a shard.grid";
    return failure();
  }
  int64_t rank = gridOp.getShape().size();
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t axis : axes) {
    if (axis < 0 || axis >= rank) {
      op->emitOpError("grid axis ")
          << axis << " is out of range for grid @" << grid.getValue()
          << " of rank " << rank;
      return failure();
    }
    if (!seen.insert(axis).second) {
      op->emitOpError("grid axis ") << axis << " is listed twice";
      return failure();
    }
  }
  return gridOp;
}

//===----------------------------------------------------------------------===//
// moe.gate
//===----------------------------------------------------------------------===//

static FailureOr<TypeList> inferGate(ErrorSink err, MLIRContext *ctx, Type xT,
                                     Type wT) {
  auto x = expectTensor(err, "x", xT, 2, "[T, H]", Elem::Activation);
  if (failed(x))
    return failure();
  auto w = expectTensor(err, "weight", wT, 2, "[H, E]", Elem::Activation);
  if (failed(w) || failed(expectSameDim(err, "H", "x", *x, 1, "weight", *w, 0)))
    return failure();
  return TypeList{tensorOf({x->getDimSize(0), w->getDimSize(1)}, f32(ctx))};
}

template <typename OpT> static LogicalResult verifyGate(OpT op) {
  OpErrorSink err{op};
  auto types = inferGate(err, op.getContext(), typeOf(op.getX()),
                         typeOf(op.getWeight()));
  if (failed(types))
    return failure();
  return checkResults(err, outputTypes(op), *types,
                      {"logits"}, {"[T, E] in f32"});
}

LogicalResult GateOp::verify() {
  return verifyGate(*this);
}

//===----------------------------------------------------------------------===//
// moe.route
//===----------------------------------------------------------------------===//

template <typename OpT> static LogicalResult verifyRoute(OpT op) {
  OpErrorSink err{op};
  if (failed(expectTensor(err, "logits", typeOf(op.getLogits()), 2, "[T, E]",
                          Elem::F32)))
    return failure();
  return expectResult(err, "scores", outputTypes(op)[0],
                      typeOf(op.getLogits()).getShape(), f32(op.getContext()),
                      "the type of 'logits'");
}

LogicalResult RouteOp::verify() {
  return verifyRoute(*this);
}

//===----------------------------------------------------------------------===//
// moe.topk
//===----------------------------------------------------------------------===//

static FailureOr<TypeList> inferTopK(ErrorSink err, MLIRContext *ctx,
                                     Type scoresT, Type biasT, int64_t k) {
  auto scores =
      expectTensor(err, "scores", scoresT, 2, "[T, E]", Elem::F32);
  if (failed(scores))
    return failure();
  if (biasT) {
    auto bias = expectTensor(err, "bias", biasT, 1, "[E]", Elem::F32);
    if (failed(bias) ||
        failed(expectSameDim(err, "E", "scores", *scores, 1, "bias", *bias, 0)))
      return failure();
  }
  if (failed(verifyTopK(err, k)))
    return failure();
  int64_t t = scores->getDimSize(0);
  return TypeList{tensorOf({t, k}, f32(ctx)), tensorOf({t, k}, i32(ctx))};
}

int64_t TopKOp::getEffectiveGroupScoreTopQ() {
  if (auto q = getGroupScoreTopq())
    return *q;
  return int64_t(getK()) / int64_t(getGroupTopk());
}

/// The router attributes of moe.topk or moe.layer, for E experts.
template <typename OpTy>
static RouterConfig routerConfigOf(OpTy op, int64_t numExperts) {
  return RouterConfig{numExperts,
                      int64_t(op.getK()),
                      op.getScoreFunction(),
                      static_cast<bool>(op.getBias()),
                      int64_t(op.getNumGroups()),
                      int64_t(op.getGroupTopk()),
                      op.getGroupScore(),
                      op.getGroupScoreTopq(),
                      op.getScalingFactor().convertToDouble()};
}

template <typename OpT> static LogicalResult verifyTopKOp(OpT op) {
  OpErrorSink err{op};
  auto types = inferTopK(err, op.getContext(), typeOf(op.getScores()),
                         op.getBias() ? typeOf(op.getBias()) : Type(), int64_t(op.getK()));
  if (failed(types) ||
      failed(checkResults(err, outputTypes(op), *types,
                          {"weights", "indices"},
                          {"[T, k] in f32", "[T, k] in i32"})))
    return failure();
  int64_t e = typeOf(op.getScores()).getDimSize(1);
  if (op.getBias())
    e = firstStatic({e, typeOf(op.getBias()).getDimSize(0)});
  RouterConfig config = routerConfigOf(op, e);
  if (failed(verifyRouterConfig(err, config)))
    return failure();
  if (auto route = op.getScores().template getDefiningOp<RouteOp>())
    if (route.getScoreFunction() != op.getScoreFunction())
      return err("score_function " +
                 stringifyScoreFunction(op.getScoreFunction()) +
                 " does not match the producing moe.route (" +
                 stringifyScoreFunction(route.getScoreFunction()) + ")");
  return success();
}

LogicalResult TopKOp::verify() {
  return verifyTopKOp(*this);
}

//===----------------------------------------------------------------------===//
// moe.aux_loss
//===----------------------------------------------------------------------===//

static FailureOr<TypeList> inferAuxLoss(ErrorSink err, MLIRContext *ctx,
                                        Type scoresT, Type indicesT) {
  auto scores = expectTensor(err, "scores", scoresT, 2, "[T, E]", Elem::F32);
  if (failed(scores))
    return failure();
  auto indices =
      expectTensor(err, "indices", indicesT, 2, "[T, K]", Elem::I32);
  if (failed(indices) || failed(expectSameDim(err, "T", "scores", *scores, 0,
                                              "indices", *indices, 0)))
    return failure();
  return TypeList{tensorOf({}, f32(ctx))};
}

template <typename OpT> static LogicalResult verifyAuxLoss(OpT op) {
  OpErrorSink err{op};
  auto types =
      inferAuxLoss(err, op.getContext(), typeOf(op.getScores()), typeOf(op.getIndices()));
  if (failed(types) ||
      failed(checkResults(err, outputTypes(op), *types,
                          {"loss"}, {"a 0-d f32 tensor"})))
    return failure();
  if (op.getScoreFunction() == ScoreFunction::Identity)
    return err("the aux loss needs dense scores from softmax, sigmoid or "
               "sqrtsoftplus, not identity");
  auto scores = typeOf(op.getScores());
  auto indices = typeOf(op.getIndices());
  int64_t e = scores.getDimSize(1), k = indices.getDimSize(1);
  if (!ShapedType::isDynamic(e) && !ShapedType::isDynamic(k) && k > e)
    return err("'indices' selects K = " + Twine(k) +
               " experts per token but 'scores' has only E = " + Twine(e));
  std::optional<ArrayRef<int64_t>> axes;
  if (auto a = op.getGridAxes())
    axes = *a;
  return verifyAuxLossConfig(err, op.getVariant(), op.getCoeff().convertToDouble(),
                             op.getSeqLength(), op.getGridAttr(), axes,
                             scores.getDimSize(0), "coeff");
}

LogicalResult AuxLossOp::verify() {
  return verifyAuxLoss(*this);
}

template <typename OpT> static LogicalResult verifyAuxLossSymbols(OpT op, SymbolTableCollection &symbolTable) {
  if (!op.getGridAttr())
    return success();
  return verifyGridAxes(op, symbolTable, op.getGridAttr(),
                        op.getGridAxes().value_or(ArrayRef<int64_t>{}));
}

/// The global variant over more than one rank (or a grid axis of unknown
/// size) has no parallel schedule of its own: the CPU's reference loops sum
/// its counts by a runtime call inside them (or report the unknown size),
/// and the GPU target lowers it before the schedules
/// (convert-moe-to-runtime-calls). Over one rank it is the batch loss and
/// has its schedule.
bool AuxLossOp::hasParallelSchedule() {
  if (getVariant() != AuxLossVariant::Global || !getGridAttr())
    return true;
  auto grid =
      SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(*this, getGridAttr());
  if (!grid)
    return false;
  ArrayRef<int64_t> shape = grid.getShape();
  return llvm::all_of(
      getGridAxes().value_or(ArrayRef<int64_t>{}), [&](int64_t axis) {
        return axis >= 0 && axis < (int64_t)shape.size() && shape[axis] == 1;
      });
}

/// Whether the FP8 GPU schedules (QuantSchedules.h) take `input`: rows of a
/// static length; mx_1x32 keeps its reference loops.
static bool hasQuantSchedule(QuantRecipe recipe, Value input) {
  auto type = dyn_cast<ShapedType>(input.getType());
  return recipe != QuantRecipe::MX1x32 && type && type.hasRank() &&
         type.getRank() >= 1 && !type.isDynamicDim(type.getRank() - 1);
}
bool QuantizeOp::hasParallelSchedule() {
  return hasQuantSchedule(getRecipe(), getInput());
}
bool DequantizeOp::hasParallelSchedule() {
  return hasQuantSchedule(getRecipe(), getInput());
}
/// The GPU schedule takes whole 128 x 128 tiles of a static input.
bool QuantizeWithTransposeOp::hasParallelSchedule() {
  auto type = dyn_cast<ShapedType>(getInput().getType());
  return type && type.hasStaticShape() && type.getRank() == 2 &&
         type.getDimSize(0) % 128 == 0 && type.getDimSize(1) % 128 == 0;
}

LogicalResult AuxLossOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyAuxLossSymbols(*this, symbolTable);
}

//===----------------------------------------------------------------------===//
// moe.z_loss
//===----------------------------------------------------------------------===//

template <typename OpT> static LogicalResult verifyZLoss(OpT op) {
  OpErrorSink err{op};
  if (failed(expectTensor(err, "logits", typeOf(op.getLogits()), 2, "[T, E]",
                          Elem::F32)) ||
      failed(expectResult(err, "loss", outputTypes(op)[0], {}, f32(op.getContext()),
                          "a 0-d f32 tensor")))
    return failure();
  double coeff = op.getCoeff().convertToDouble();
  if (!isNonNegativeFinite(coeff))
    return err("coeff = " + num(coeff) + " must be non-negative and finite");
  return success();
}

LogicalResult ZLossOp::verify() {
  return verifyZLoss(*this);
}

//===----------------------------------------------------------------------===//
// moe.expert_bias_update
//===----------------------------------------------------------------------===//

static FailureOr<TypeList> inferBiasUpdate(ErrorSink err, Type biasT,
                                           Type countsT) {
  auto bias = expectTensor(err, "bias", biasT, 1, "[E]", Elem::F32);
  if (failed(bias))
    return failure();
  auto counts = expectTensor(err, "counts", countsT, 1, "[E]", Elem::Count);
  if (failed(counts) ||
      failed(expectSameDim(err, "E", "bias", *bias, 0, "counts", *counts, 0)))
    return failure();
  return TypeList{*bias};
}

template <typename OpT> static LogicalResult verifyExpertBiasUpdate(OpT op) {
  OpErrorSink err{op};
  auto types = inferBiasUpdate(err, typeOf(op.getBias()), typeOf(op.getCounts()));
  if (failed(types) ||
      failed(checkResults(err, outputTypes(op), *types,
                          {"updated_bias"}, {"the type of 'bias'"})))
    return failure();
  double rate = op.getRate().convertToDouble();
  if (!isNonNegativeFinite(rate))
    return err("rate = " + num(rate) + " must be non-negative and finite");
  return success();
}

LogicalResult ExpertBiasUpdateOp::verify() {
  return verifyExpertBiasUpdate(*this);
}

//===----------------------------------------------------------------------===//
// moe.permute
//===----------------------------------------------------------------------===//

/// R = T·K + E·(align − 1): the row capacity when every group is padded.
/// Dynamic when T or K is, or when E is and there is padding. A term that is
/// static and overflows is an error even when R itself is dynamic: it would
/// overflow for every T.
static FailureOr<int64_t> permutedRows(ErrorSink err, int64_t t, int64_t k,
                                       int64_t e, int64_t align) {
  auto overflow = [&] {
    return err("R = T·K + E·(align − 1) overflows 64 bits (T = " + dimStr(t) +
               ", K = " + dimStr(k) + ", E = " + dimStr(e) +
               ", align = " + Twine(align) + ")");
  };
  std::optional<int64_t> pad = 0;
  if (!ShapedType::isDynamic(e) && !(pad = llvm::checkedMul(e, align - 1)))
    return overflow();
  std::optional<int64_t> tk = 0;
  bool dynamicTK = ShapedType::isDynamic(t) || ShapedType::isDynamic(k);
  if (!dynamicTK && !(tk = llvm::checkedMul(t, k)))
    return overflow();
  if (dynamicTK || (ShapedType::isDynamic(e) && align != 1))
    return ShapedType::kDynamic;
  std::optional<int64_t> r = llvm::checkedAdd(*tk, *pad);
  if (!r)
    return overflow();
  return *r;
}

static FailureOr<TypeList> inferPermute(ErrorSink err, MLIRContext *ctx,
                                        Type xT, Type indicesT,
                                        int64_t numExperts, int64_t align) {
  auto x = expectTensor(err, "x", xT, 2, "[T, H]", Elem::ActivationOrFp8);
  if (failed(x))
    return failure();
  auto indices =
      expectTensor(err, "indices", indicesT, 2, "[T, K]", Elem::I32);
  if (failed(indices) ||
      failed(expectSameDim(err, "T", "x", *x, 0, "indices", *indices, 0)))
    return failure();
  if (numExperts < 1)
    return err("num_experts = " + Twine(numExperts) + " must be at least 1");
  if (align < 1)
    return err("align = " + Twine(align) + " must be at least 1");
  int64_t t = x->getDimSize(0), k = indices->getDimSize(1);
  auto r = permutedRows(err, t, k, numExperts, align);
  if (failed(r))
    return failure();
  return TypeList{tensorOf({*r, x->getDimSize(1)}, x->getElementType()),
                  tensorOf({numExperts}, i32(ctx)),
                  tensorOf({t, k}, i32(ctx))};
}

template <typename OpT> static LogicalResult verifyPermute(OpT op) {
  OpErrorSink err{op};
  auto types = inferPermute(err, op.getContext(), typeOf(op.getX()),
                            typeOf(op.getIndices()), int64_t(op.getNumExperts()), int64_t(op.getAlign()));
  if (failed(types))
    return failure();
  int64_t k = typeOf(op.getIndices()).getDimSize(1);
  if (!ShapedType::isDynamic(k) && k > int64_t(op.getNumExperts()))
    return err("'indices' selects K = " + Twine(k) +
               " experts per token but num_experts = " +
               Twine(int64_t(op.getNumExperts())));
  std::string rowsRule =
      "R = T·K + E·(align − 1) with E = " + std::to_string(int64_t(op.getNumExperts())) +
      ", align = " + std::to_string(int64_t(op.getAlign()));
  // A static R above a static bound only adds zero rows past the last group.
  SmallVector<Type, 3> outputs = outputTypes(op);
  auto bound = cast<RankedTensorType>((*types)[0]);
  auto permuted = outputs.empty() ? RankedTensorType()
                                  : cast<RankedTensorType>(outputs[0]);
  if (permuted && permuted.getRank() == 2 && bound.hasStaticShape() &&
      !ShapedType::isDynamic(permuted.getDimSize(0)) &&
      permuted.getDimSize(0) > bound.getDimSize(0)) {
    (*types)[0] = tensorOf({permuted.getDimSize(0), bound.getDimSize(1)},
                           bound.getElementType());
    rowsRule = "R ≥ T·K + E·(align − 1) = " +
               std::to_string(bound.getDimSize(0));
  }
  return checkResults(err, outputs, *types,
                      {"permuted", "group_sizes", "rows"},
                      {rowsRule, "[E] in i32", "[T, K] in i32"});
}

LogicalResult PermuteOp::verify() {
  return verifyPermute(*this);
}

//===----------------------------------------------------------------------===//
// moe.permute_rows
//===----------------------------------------------------------------------===//

template <typename OpT> static LogicalResult verifyPermuteRows(OpT op) {
  OpErrorSink err{op};
  auto x = expectTensor(err, "x", typeOf(op.getX()), 2, "[T, C]",
                        Elem::ActivationOrFp8);
  if (failed(x))
    return failure();
  auto rows = expectTensor(err, "rows", typeOf(op.getRows()), 2, "[T, K]",
                           Elem::I32);
  if (failed(rows) ||
      failed(expectSameDim(err, "T", "x", *x, 0, "rows", *rows, 0)))
    return failure();
  RankedTensorType permuted = typeOf(op.getPermutedInit());
  int64_t numRows =
      permuted.getRank() == 2 ? permuted.getDimSize(0) : ShapedType::kDynamic;
  return expectResult(err, "permuted", permuted,
                      {numRows, x->getDimSize(1)}, x->getElementType(),
                      "[R, C] with the element type of 'x'");
}

LogicalResult PermuteRowsOp::verify() { return verifyPermuteRows(*this); }

//===----------------------------------------------------------------------===//
// FP8 scale layouts (moe.quantize, moe.dequantize, moe.grouped_matmul)
//===----------------------------------------------------------------------===//

/// The shape of the scale tensor of `recipe` for data of `shape`.
static FailureOr<SmallVector<int64_t>>
scaleShapeFor(ErrorSink err, QuantRecipe recipe, StringRef name,
              ArrayRef<int64_t> shape) {
  std::optional<opmath::QuantBlockShape> block = opmath::quantBlockShape(recipe);
  if (!block)
    return SmallVector<int64_t>{};
  if (shape.size() < 2) {
    (void)err("recipe " + stringifyQuantRecipe(recipe) + " needs '" + name +
              "' of rank ≥ 2 ([..., M, N]), got rank " + Twine(shape.size()));
    return failure();
  }
  SmallVector<int64_t> scale(shape);
  int64_t m = shape.size() - 2, n = shape.size() - 1;
  scale[m] = ceilDivDim(shape[m], block->rows);
  scale[n] = ceilDivDim(shape[n], block->cols);
  return scale;
}

static LogicalResult checkScale(ErrorSink err, QuantRecipe recipe,
                                StringRef dataName, RankedTensorType data,
                                StringRef scaleName, Type scaleT,
                                bool isResult) {
  auto shape = scaleShapeFor(err, recipe, dataName, data.getShape());
  if (failed(shape))
    return failure();
  Type elem = opmath::quantScaleElementType(recipe, data.getContext());
  std::string rule = "the scales of recipe " +
                     stringifyQuantRecipe(recipe).str() + " for '" +
                     dataName.str() + "' " + shapeStr(data.getShape());
  if (isResult)
    return expectResult(err, scaleName, scaleT, *shape, elem, rule);
  auto scale = dyn_cast<RankedTensorType>(scaleT);
  if (scale && scale.getElementType() == elem &&
      succeeded(verifyCompatibleShape(scale.getShape(), *shape)))
    return success();
  return err("'" + scaleName + "' must be " + shapeStr(*shape) + " of " +
             str(elem) + " (" + rule + "), got " + str(scaleT));
}

//===----------------------------------------------------------------------===//
// moe.grouped_matmul
//===----------------------------------------------------------------------===//

/// A tensor-wise scale (0-d f32) or the block scales of `recipe`.
static LogicalResult checkMatmulScale(ErrorSink err, StringRef name, Type type,
                                      QuantRecipe blockRecipe,
                                      StringRef dataName,
                                      RankedTensorType data) {
  auto scale = dyn_cast<RankedTensorType>(type);
  if (scale && scale.getRank() == 0 && scale.getElementType().isF32())
    return success();
  if (scale && scale.getRank() != 0)
    return checkScale(err, blockRecipe, dataName, data, name, type,
                      /*isResult=*/false);
  return err("'" + name + "' must be a 0-d f32 tensor (tensor-wise) or block "
             "scales, got " + str(type));
}

static LogicalResult verifyEpilogue(GroupedMatmulOp op);

/// a's and b's element types agree: both FP8 (at least one e4m3, with
/// block scales) or both the same activation type (no scales).
template <typename OpT>
static LogicalResult verifyGroupedMatmulElements(ErrorSink err, OpT op,
                                                 RankedTensorType a,
                                                 RankedTensorType b) {
  Type aElem = a.getElementType(), bElem = b.getElementType();
  bool aFp8 = isFp8Type(aElem), bFp8 = isFp8Type(bElem);
  if (aFp8 != bFp8)
    return err("'a' (" + str(aElem) + ") and 'b' (" + str(bElem) +
               ") must both be FP8 or both not");
  if (aFp8) {
    if (isa<Float8E5M2Type>(aElem) && isa<Float8E5M2Type>(bElem))
      return err("FP8 grouped matmul needs at least one e4m3 operand; "
                 "e5m2 × e5m2 is not supported");
    if (!op.getAScale() || !op.getBScale())
      return err("FP8 operands need the scales: 'a_scale' and 'b_scale'");
    if (failed(checkMatmulScale(err, "a_scale", typeOf(op.getAScale()),
                                QuantRecipe::Block1x128, "a", a)) ||
        failed(checkMatmulScale(err, "b_scale", typeOf(op.getBScale()),
                                QuantRecipe::Block128x128, "b", b)))
      return failure();
  } else {
    if (op.getAScale() || op.getBScale())
      return err("'a_scale' and 'b_scale' apply only to FP8 operands, got " +
                 str(aElem));
    if (aElem != bElem)
      return err("'a' has " + str(aElem) + " elements but 'b' has " +
                 str(bElem));
  }
  return success();
}

/// With an epilogue region: row_scale [R], the epilogue inputs and the
/// destinations past c, all of c's shape.
template <typename OpT>
static LogicalResult verifyEpilogueOperands(ErrorSink err, OpT op,
                                            RankedTensorType a,
                                            RankedTensorType c) {
  if (Value rowScale = op.getRowScale()) {
    auto scale =
        expectTensor(err, "row_scale", typeOf(rowScale), 1, "[R]", Elem::F32);
    if (failed(scale) ||
        failed(expectSameDim(err, "R", "a", a, 0, "row_scale", *scale, 0)))
      return failure();
  }
  // Epilogue inputs and the extra destinations have c's shape.
  for (auto [i, input] : llvm::enumerate(op.getEpilogueInputs())) {
    std::string name = "epilogue_inputs #" + std::to_string(i);
    auto in = expectTensor(err, name, typeOf(input), 2, "[R, N_c]",
                           Elem::Activation);
    if (failed(in) ||
        failed(expectSameDim(err, "R", "c", c, 0, name, *in, 0)) ||
        failed(expectSameDim(err, "N_c", "c", c, 1, name, *in, 1)))
      return failure();
  }
  for (unsigned i = 1; i < op.getOuts().size(); ++i) {
    std::string name = "c" + std::to_string(i);
    auto extra = dyn_cast<RankedTensorType>(typeOf(op.getOuts()[i]));
    if (!extra || !isActivationType(extra.getElementType()))
      return err("result '" + name + "' must be a tensor of bf16, f16 or f32, "
                 "got " + str(typeOf(op.getOuts()[i])));
    if (failed(expectResult(err, name, extra, c.getShape(),
                            extra.getElementType(), "[R, N_c] (c's shape)")))
      return failure();
  }
  return success();
}

template <typename OpT> static LogicalResult verifyGroupedMatmul(OpT op) {
  OpErrorSink err{op};
  auto a = expectTensor(err, "a", typeOf(op.getA()), 2, "[R, Kd]",
                        Elem::ActivationOrFp8);
  if (failed(a))
    return failure();
  bool kn = op.getWeightLayout() == WeightLayout::KN;
  auto b = expectTensor(err, "b", typeOf(op.getB()), 3,
                        kn ? "[G, Kd, N] (weight_layout kn)"
                           : "[G, N, Kd] (weight_layout nk)",
                        Elem::ActivationOrFp8);
  if (failed(b))
    return failure();
  auto sizes = expectTensor(err, "group_sizes", typeOf(op.getGroupSizes()), 1,
                            "[G]", Elem::I32);
  if (failed(sizes) ||
      failed(expectSameDim(err, "G", "group_sizes", *sizes, 0, "b", *b, 0)) ||
      failed(expectSameDim(err, "Kd (weight_layout " +
                                    stringifyWeightLayout(op.getWeightLayout()) +
                                    ")",
                           "a", *a, 1, "b", *b, kn ? 1 : 2)))
    return failure();

  if (failed(verifyGroupedMatmulElements(err, op, *a, *b)))
    return failure();
  if (Value bUp = op.getBUp()) {
    if (typeOf(bUp) != *b)
      return err("'up_weight' must have b's type " + str(*b) + ", got " +
                 str(typeOf(bUp)));
    if (!op.getEpilogueBlock())
      return err("'up_weight' pairs its product with b's for the epilogue, "
                 "but the op has no epilogue region");
    if (op.getAScale())
      return err("'up_weight' is not supported with FP8 operands (scales)");
  }

  auto c = dyn_cast<RankedTensorType>(typeOf(op.getCInit()));
  if (!c || !isActivationType(c.getElementType()))
    return err("result 'c' must be a tensor of bf16, f16 or f32, got " +
               str(typeOf(op.getCInit())));
  int64_t n = b->getDimSize(kn ? 2 : 1);
  if (op.getAccumulate() && op.getEpilogueBlock())
    return err("'accumulate' adds the product to c's destination and cannot "
               "be combined with an epilogue region");
  if (!op.getEpilogueBlock()) {
    if (op.getRowScale())
      return err("'row_scale' is read by the epilogue, but the op has no "
                 "epilogue region");
    if (!op.getEpilogueInputs().empty())
      return err("'epilogue_inputs' are read by the epilogue, but the op has "
                 "no epilogue region");
    if (op.getOuts().size() > 1)
      return err("destinations past 'c' are written by the epilogue, but the "
                 "op has no epilogue region");
    return expectResult(err, "c", c, {a->getDimSize(0), n}, c.getElementType(),
                        "[R, N]");
  }
  // With an epilogue c is [R, N] or, for gate|up halves of one weight,
  // [R, N / 2].
  bool halves = !op.getBUp() && c.getRank() == 2 && c.getDimSize(1) * 2 == n;
  if (halves && n != 0)
    n /= 2;
  if (failed(expectResult(err, "c", c, {a->getDimSize(0), n},
                          c.getElementType(),
                          op.getBUp()
                              ? "[R, N]: gate and up weights of N columns each"
                              : "[R, N], or [R, N / 2] for gate|up halves")))
    return failure();
  if (failed(verifyEpilogueOperands(err, op, *a, c)))
    return failure();
  return verifyEpilogue(op);
}

bool GroupedMatmulOp::isEpilogueOp(Operation &op) {
  auto scalar = [](Type t) { return !isa<ShapedType>(t); };
  return isMemoryEffectFree(&op) && op.getNumRegions() == 0 &&
         llvm::all_of(op.getOperandTypes(), scalar) &&
         llvm::all_of(op.getResultTypes(), scalar);
}

unsigned GroupedMatmulOp::getAccumulatorsPerOutput() {
  if (getBUp())
    return 2;
  auto b = cast<ShapedType>(getB().getType());
  int64_t n = b.getDimSize(getWeightLayout() == WeightLayout::KN ? 2 : 1);
  int64_t cn = cast<ShapedType>(getCInit().getType()).getDimSize(1);
  return cn * 2 == n && n != 0 ? 2 : 1;
}

Value GroupedMatmulOp::concatenateUpWeight(OpBuilder &builder) {
  Location loc = getLoc();
  Value gate = getB(), up = getBUp();
  auto type = cast<MemRefType>(gate.getType());
  unsigned nDim = getWeightLayout() == WeightLayout::KN ? 2 : 1;
  SmallVector<OpFoldResult> sizes = memref::getMixedSizes(builder, loc, gate);
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<Value> dynamicSizes;
  for (auto [d, size] : llvm::enumerate(sizes)) {
    if (d == nDim && !ShapedType::isDynamic(shape[d]))
      shape[d] *= 2;
    if (!ShapedType::isDynamic(shape[d]))
      continue;
    Value extent = getValueOrCreateConstantIndexOp(builder, loc, size);
    if (d == nDim)
      extent = arith::AddIOp::create(builder, loc, extent, extent);
    dynamicSizes.push_back(extent);
  }
  Value both = memref::AllocOp::create(
      builder, loc, MemRefType::get(shape, type.getElementType()),
      dynamicSizes);
  SmallVector<OpFoldResult> offsets(3, builder.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(3, builder.getIndexAttr(1));
  for (Value half : {gate, up}) {
    Value view = memref::SubViewOp::create(builder, loc, both, offsets, sizes,
                                           strides);
    // A loop nest on every target (memref.copy of a strided view is a
    // call into MLIR's C runner utilities, which artifacts do not link).
    linalg::CopyOp::create(builder, loc, half, view);
    offsets[nDim] = sizes[nDim];
  }
  return both;
}

SmallVector<Value, 3>
GroupedMatmulOp::cloneEpilogueAt(OpBuilder &b, ValueRange arguments,
                                 function_ref<void(Operation *)> onClone) {
  Block *body = getEpilogueBlock();
  IRMapping mapping;
  mapping.map(body->getArguments(), arguments);
  for (Operation &inner : body->without_terminator()) {
    Operation *clone = b.clone(inner, mapping);
    if (onClone)
      onClone(clone);
  }
  // A yielded value may be defined outside the region: canonicalization
  // hoists a constant the epilogue yields to the enclosing function.
  SmallVector<Value, 3> values;
  for (Value yielded : body->getTerminator()->getOperands())
    values.push_back(mapping.lookupOrDefault(yielded));
  return values;
}

/// The epilogue region: one block taking the accumulators, the row's scale
/// and the inputs' elements as f32, side-effect-free scalar ops, and a
/// moe.yield of one f32 per destination.
static LogicalResult verifyEpilogue(GroupedMatmulOp op) {
  Region &region = op.getEpilogue();
  if (!region.hasOneBlock())
    return op.emitOpError("epilogue must have exactly one block, got ")
           << region.getBlocks().size();
  Block &block = region.front();
  unsigned accumulators = op.getAccumulatorsPerOutput();
  unsigned inputs = op.getEpilogueInputs().size();
  unsigned expected = accumulators + (op.getRowScale() ? 1 : 0) + inputs;
  if (block.getNumArguments() != expected)
    return op.emitOpError("epilogue takes ")
           << expected << " f32 argument(s) (" << accumulators
           << (accumulators == 2 ? " accumulators: gate and up halves"
                                 : " accumulator")
           << (op.getRowScale() ? ", then the row's scale" : "")
           << (inputs ? ", then one per epilogue input" : "") << "), got "
           << block.getNumArguments();
  for (BlockArgument arg : block.getArguments())
    if (!arg.getType().isF32())
      return op.emitOpError("epilogue argument #")
             << arg.getArgNumber() << " must be f32, got " << arg.getType();
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op.emitOpError("epilogue must end with moe.yield");
  if (yield.getValues().size() != op.getOuts().size())
    return op.emitOpError("epilogue yields ")
           << yield.getValues().size() << " value(s) but the op has "
           << op.getOuts().size() << " destination(s); it yields one each";
  for (Operation &inner : block.without_terminator()) {
    if (!GroupedMatmulOp::isEpilogueOp(inner))
      return op.emitOpError("epilogue may only hold side-effect-free scalar "
                            "ops without regions; '")
             << inner.getName() << "' is not one";
  }
  return success();
}

LogicalResult GroupedMatmulOp::verify() {
  return verifyGroupedMatmul(*this);
}

//===----------------------------------------------------------------------===//
// moe.grouped_weight_grad
//===----------------------------------------------------------------------===//

/// The scales of FP8 weight-gradient operands: both present, both 0-d
/// (tensor-wise) or both the block_1x128 scales of the transposed operands
/// `a` [Kd, R] and `dc` [N, R].
static LogicalResult checkWeightGradScales(ErrorSink err, Value aScale,
                                           Value dcScale, RankedTensorType a,
                                           RankedTensorType dc) {
  if (!aScale || !dcScale) {
    StringRef got = aScale    ? "only 'a_scale'"
                    : dcScale ? "only 'dc_scale'"
                              : "neither";
    return err("FP8 operands need the scales: 'a_scale' and 'dc_scale', got " +
               got);
  }
  if (failed(checkMatmulScale(err, "a_scale", typeOf(aScale),
                              QuantRecipe::Block1x128, "a", a)) ||
      failed(checkMatmulScale(err, "dc_scale", typeOf(dcScale),
                              QuantRecipe::Block1x128, "dc", dc)))
    return failure();
  bool aTensorwise = typeOf(aScale).getRank() == 0;
  bool dcTensorwise = typeOf(dcScale).getRank() == 0;
  if (aTensorwise != dcTensorwise)
    return err("'a_scale' (" + str(typeOf(aScale)) + ") and 'dc_scale' (" +
               str(typeOf(dcScale)) +
               ") must both be 0-d (tensor-wise) or both block scales");
  return success();
}

template <typename OpT> static LogicalResult verifyGroupedWeightGrad(OpT op) {
  OpErrorSink err{op};
  bool transposed = op.getTransposedOperands();
  // Dimensions of R, Kd (in a) and N (in dc).
  int64_t rowDim = transposed ? 1 : 0, colDim = transposed ? 0 : 1;
  auto a =
      expectTensor(err, "a", typeOf(op.getA()), 2,
                   transposed ? "[Kd, R] (transposed_operands)" : "[R, Kd]",
                   Elem::ActivationOrFp8);
  if (failed(a))
    return failure();
  auto dc = expectTensor(err, "dc", typeOf(op.getDc()), 2,
                         transposed ? "[N, R] (transposed_operands)" : "[R, N]",
                         Elem::ActivationOrFp8);
  if (failed(dc) ||
      failed(expectSameDim(err, "R", "a", *a, rowDim, "dc", *dc, rowDim)))
    return failure();
  auto sizes = expectTensor(err, "group_sizes", typeOf(op.getGroupSizes()), 1,
                            "[G]", Elem::I32);
  if (failed(sizes))
    return failure();

  Type aElem = a->getElementType(), dcElem = dc->getElementType();
  bool aFp8 = isFp8Type(aElem), dcFp8 = isFp8Type(dcElem);
  if (aFp8 != dcFp8)
    return err("'a' (" + str(aElem) + ") and 'dc' (" + str(dcElem) +
               ") must both be FP8 or both not");
  if (aFp8) {
    if (!transposed)
      return err("FP8 operands need 'transposed_operands' (a [Kd, R], dc "
                 "[N, R], as columnwise quantization writes them); got a " +
                 shapeStr(a->getShape()) + " of " + str(aElem) + ", dc " +
                 shapeStr(dc->getShape()) + " of " + str(dcElem));
    if (failed(checkWeightGradScales(err, op.getAScale(), op.getDcScale(), *a,
                                     *dc)))
      return failure();
  } else {
    if (op.getAScale() || op.getDcScale())
      return err("'a_scale' and 'dc_scale' apply only to FP8 operands, got " +
                 str(aElem));
    if (aElem != dcElem)
      return err("'a' has " + str(aElem) + " elements but 'dc' has " +
                 str(dcElem));
  }

  auto db = dyn_cast<RankedTensorType>(typeOf(op.getDbInit()));
  if (!db || !isActivationType(db.getElementType()))
    return err("result 'db' must be a tensor of bf16, f16 or f32, got " +
               str(typeOf(op.getDbInit())));
  bool kn = op.getWeightLayout() == WeightLayout::KN;
  int64_t g = sizes->getDimSize(0), kd = a->getDimSize(colDim),
          n = dc->getDimSize(colDim);
  SmallVector<int64_t> expected =
      kn ? SmallVector<int64_t>{g, kd, n} : SmallVector<int64_t>{g, n, kd};
  return expectResult(err, "db", db, expected, db.getElementType(),
                      kn ? "[G, Kd, N] for weight_layout kn"
                         : "[G, N, Kd] for weight_layout nk");
}

LogicalResult GroupedWeightGradOp::verify() {
  return verifyGroupedWeightGrad(*this);
}

//===----------------------------------------------------------------------===//
// moe.glu
//===----------------------------------------------------------------------===//

static FailureOr<TypeList> inferGlu(ErrorSink err, Type gateT, Type upT) {
  if (!upT) {
    auto fused = expectTensor(err, "gate", gateT, 2, "[R, 2F] (gate and up)",
                              Elem::Activation);
    if (failed(fused))
      return failure();
    int64_t twoF = fused->getDimSize(1);
    if (!ShapedType::isDynamic(twoF) && twoF % 2 != 0)
      return err("'gate' holds gate and up side by side and needs an even "
                 "last dim (2F), got " + Twine(twoF));
    return TypeList{tensorOf({fused->getDimSize(0), ShapedType::isDynamic(twoF)
                                                        ? twoF
                                                        : twoF / 2},
                             fused->getElementType())};
  }
  auto gate = expectTensor(err, "gate", gateT, 2, "[R, F]", Elem::Activation);
  if (failed(gate))
    return failure();
  auto up = expectTensor(err, "up", upT, 2, "[R, F]", Elem::Activation);
  if (failed(up) ||
      failed(expectSameDim(err, "R", "gate", *gate, 0, "up", *up, 0)) ||
      failed(expectSameDim(err, "F", "gate", *gate, 1, "up", *up, 1)))
    return failure();
  if (gate->getElementType() != up->getElementType())
    return err("'gate' has " + str(gate->getElementType()) +
               " elements but 'up' has " + str(up->getElementType()));
  return TypeList{tensorOf({gate->getDimSize(0), gate->getDimSize(1)},
                           gate->getElementType())};
}

template <typename OpT> static LogicalResult verifyGlu(OpT op) {
  OpErrorSink err{op};
  auto types = inferGlu(err, typeOf(op.getGate()),
                        op.getUp() ? typeOf(op.getUp()) : Type());
  if (failed(types))
    return failure();
  return checkResults(err, outputTypes(op), *types, {"h"},
                      {"[R, F] with the element type of 'gate'"});
}

LogicalResult GluOp::verify() {
  return verifyGlu(*this);
}

//===----------------------------------------------------------------------===//
// moe.all_to_all
//===----------------------------------------------------------------------===//

template <typename OpT> static LogicalResult verifyAllToAll(OpT op) {
  OpErrorSink err{op};
  auto input = expectTensor(err, "input", typeOf(op.getInput()), 2, "[R, H]",
                            Elem::ActivationOrFp8);
  if (failed(input))
    return failure();
  auto send = expectTensor(err, "send_sizes", typeOf(op.getSendSizes()), 1,
                           "[P·C]", Elem::I32);
  if (failed(send))
    return failure();
  if (int64_t(op.getGridAxis()) < 0)
    return err("grid_axis = " + Twine(int64_t(op.getGridAxis())) + " must be ≥ 0");
  auto output = dyn_cast<RankedTensorType>(typeOf(op.getOutputInit()));
  if (!output || output.getRank() != 2 ||
      output.getElementType() != input->getElementType())
    return err("result 'output' must be a rank-2 tensor [R', H] of " +
               str(input->getElementType()) + ", got " +
               str(typeOf(op.getOutputInit())));
  if (failed(expectSameDim(err, "H", "input", *input, 1, "output", output, 1)))
    return failure();
  return expectResult(err, "recv_sizes", typeOf(op.getRecvSizesInit()),
                      send->getShape(), send->getElementType(),
                      "one count per chunk, like 'send_sizes'");
}

LogicalResult AllToAllOp::verify() {
  return verifyAllToAll(*this);
}

template <typename OpT> static LogicalResult verifyAllToAllSymbols(OpT op, SymbolTableCollection &symbolTable) {
  auto grid = verifyGridAxes(op, symbolTable, op.getGridAttr(), {int64_t(op.getGridAxis())});
  if (failed(grid))
    return failure();
  int64_t ranks = grid->getShape()[int64_t(op.getGridAxis())];
  // verify() has checked the rank unless it failed; do not rely on it.
  RankedTensorType send = typeOf(op.getSendSizes());
  int64_t chunks =
      send.getRank() == 1 ? send.getDimSize(0) : ShapedType::kDynamic;
  if (!ShapedType::isDynamic(ranks) && !ShapedType::isDynamic(chunks) &&
      (ranks < 1 || chunks % ranks != 0 || chunks == 0))
    return op.emitOpError("'send_sizes' has ")
           << chunks << " entries, not a positive multiple of the " << ranks
           << " ranks of axis " << int64_t(op.getGridAxis()) << " of grid @"
           << op.getGrid() << " (C chunks per rank)";
  return success();
}

LogicalResult AllToAllOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyAllToAllSymbols(*this, symbolTable);
}

//===----------------------------------------------------------------------===//
// moe.sort_chunks
//===----------------------------------------------------------------------===//

template <typename OpT> static LogicalResult verifySortChunks(OpT op) {
  OpErrorSink err{op};
  auto x = expectTensor(err, "x", typeOf(op.getX()), 2, "[R, H]",
                        Elem::ActivationOrFp8);
  if (failed(x))
    return failure();
  auto counts = expectTensor(err, "counts", typeOf(op.getCounts()), 1,
                             "[N] (N = P·C)", Elem::I32);
  if (failed(counts))
    return failure();
  if (failed(expectResult(err, "output", typeOf(op.getOutputInit()),
                          x->getShape(), x->getElementType(),
                          "the shape and element type of 'x'")))
    return failure();
  StringRef sizesMeaning =
      op.getInverse() ? "P: rows per rank" : "C: rows per local chunk";
  auto sizes = dyn_cast<RankedTensorType>(typeOf(op.getSizesInit()));
  if (!sizes || sizes.getRank() != 1 || !sizes.getElementType().isInteger(32))
    return err("result 'sizes' must be a 1-D tensor of i32 (" + sizesMeaning +
               "), got " + str(typeOf(op.getSizesInit())));
  int64_t n = counts->getDimSize(0), m = sizes.getDimSize(0);
  if (m == 0)
    return err("result 'sizes' must have at least one entry (" + sizesMeaning +
               ")");
  if (!ShapedType::isDynamic(n) && !ShapedType::isDynamic(m) && n % m != 0)
    return err("'counts' has N = " + Twine(n) +
               " entries, not divisible by the " + Twine(m) +
               " entries of result 'sizes' (" + sizesMeaning + ")");
  return success();
}

LogicalResult SortChunksOp::verify() { return verifySortChunks(*this); }

//===----------------------------------------------------------------------===//
// moe.all_reduce
//===----------------------------------------------------------------------===//

template <typename OpT> static LogicalResult verifyAllReduce(OpT op) {
  OpErrorSink err{op};
  RankedTensorType input = typeOf(op.getInput());
  Type elem = input.getElementType();
  if (!(elem.isF32() || elem.isF64() || elem.isInteger(32) ||
        elem.isInteger(64)))
    return err("'input' must have f32, f64, i32 or i64 elements, got " +
               str(elem));
  if (failed(expectResult(err, "output", typeOf(op.getOutputInit()),
                          input.getShape(), elem,
                          "the shape and element type of 'input'")))
    return failure();
  if (op.getGridAxes().empty())
    return err("needs at least one grid axis to sum over");
  return success();
}

LogicalResult AllReduceOp::verify() { return verifyAllReduce(*this); }

LogicalResult
AllReduceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyGridAxes(*this, symbolTable, getGridAttr(), getGridAxes());
}

//===----------------------------------------------------------------------===//
// moe.combine
//===----------------------------------------------------------------------===//

static FailureOr<TypeList> inferCombine(ErrorSink err, Type yT, Type rowsT,
                                        Type weightsT) {
  auto y = expectTensor(err, "y", yT, 2, "[R, H]", Elem::Activation);
  if (failed(y))
    return failure();
  auto rows = expectTensor(err, "rows", rowsT, 2, "[T, K]", Elem::I32);
  if (failed(rows))
    return failure();
  auto weights = expectTensor(err, "weights", weightsT, 2, "[T, K]", Elem::F32);
  if (failed(weights) ||
      failed(expectSameDim(err, "T", "rows", *rows, 0, "weights", *weights, 0)) ||
      failed(expectSameDim(err, "K", "rows", *rows, 1, "weights", *weights, 1)))
    return failure();
  return TypeList{
      tensorOf({rows->getDimSize(0), y->getDimSize(1)}, y->getElementType())};
}

template <typename OpT> static LogicalResult verifyCombine(OpT op) {
  OpErrorSink err{op};
  auto types = inferCombine(err, typeOf(op.getY()), typeOf(op.getRows()),
                            typeOf(op.getWeights()));
  if (failed(types))
    return failure();
  return checkResults(err, outputTypes(op), *types, {"out"},
                      {"[T, H] with the element type of 'y'"});
}

LogicalResult CombineOp::verify() {
  return verifyCombine(*this);
}

//===----------------------------------------------------------------------===//
// moe.combine_grad
//===----------------------------------------------------------------------===//

static FailureOr<TypeList> inferCombineGrad(ErrorSink err, MLIRContext *ctx,
                                            Type doutT, Type yT, Type rowsT,
                                            Type weightsT) {
  auto dout = expectTensor(err, "dout", doutT, 2, "[T, H]", Elem::Activation);
  if (failed(dout))
    return failure();
  auto y = expectTensor(err, "y", yT, 2, "[R, H]", Elem::Activation);
  if (failed(y) || failed(expectSameDim(err, "H", "dout", *dout, 1, "y", *y, 1)))
    return failure();
  if (dout->getElementType() != y->getElementType())
    return err("'dout' has " + str(dout->getElementType()) +
               " elements but 'y' has " + str(y->getElementType()));
  auto rows = expectTensor(err, "rows", rowsT, 2, "[T, K]", Elem::I32);
  if (failed(rows) ||
      failed(expectSameDim(err, "T", "dout", *dout, 0, "rows", *rows, 0)))
    return failure();
  auto weights = expectTensor(err, "weights", weightsT, 2, "[T, K]", Elem::F32);
  if (failed(weights) ||
      failed(expectSameDim(err, "T", "rows", *rows, 0, "weights", *weights, 0)) ||
      failed(expectSameDim(err, "T", "dout", *dout, 0, "weights", *weights, 0)) ||
      failed(expectSameDim(err, "K", "rows", *rows, 1, "weights", *weights, 1)))
    return failure();
  int64_t t = firstStatic({dout->getDimSize(0), rows->getDimSize(0),
                           weights->getDimSize(0)});
  int64_t h = firstStatic({y->getDimSize(1), dout->getDimSize(1)});
  int64_t k = firstStatic({rows->getDimSize(1), weights->getDimSize(1)});
  return TypeList{tensorOf({y->getDimSize(0), h}, y->getElementType()),
                  tensorOf({t, k}, f32(ctx))};
}

template <typename OpT> static LogicalResult verifyCombineGrad(OpT op) {
  OpErrorSink err{op};
  auto types = inferCombineGrad(err, op.getContext(), typeOf(op.getDout()),
                                typeOf(op.getY()), typeOf(op.getRows()),
                                typeOf(op.getWeights()));
  if (failed(types))
    return failure();
  return checkResults(err, outputTypes(op), *types, {"dy", "dweights"},
                      {"[R, H] with the element type of 'y'", "[T, K] in f32"});
}

LogicalResult CombineGradOp::verify() {
  return verifyCombineGrad(*this);
}

//===----------------------------------------------------------------------===//
// moe.quantize / moe.dequantize
//===----------------------------------------------------------------------===//

static FailureOr<RankedTensorType> expectAnyRank(ErrorSink err, StringRef name,
                                                 Type type, Elem kind) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() < 1) {
    (void)err("'" + name + "' must be a ranked tensor of rank ≥ 1, got " +
              str(type));
    return failure();
  }
  return expectTensor(err, name, type, tensor.getRank(), "", kind);
}

/// A quantization's FP8 result `name` (destination `init`) of `data`
/// (called `dataName`) and its scales `scaleName` (`scaleInit`) by `recipe`.
static LogicalResult checkQuantized(ErrorSink err, QuantRecipe recipe,
                                    StringRef name, Value init,
                                    RankedTensorType data, StringRef dataName,
                                    StringRef scaleName, Value scaleInit) {
  auto output = dyn_cast<RankedTensorType>(typeOf(init));
  if (!output || !isFp8Type(output.getElementType()))
    return err("result '" + name +
               "' must be a tensor of f8E4M3FN or f8E5M2, got " +
               str(typeOf(init)));
  if (failed(expectResult(err, name, output, data.getShape(),
                          output.getElementType(),
                          "the shape of '" + dataName.str() + "'")))
    return failure();
  return checkScale(err, recipe, dataName, data, scaleName, typeOf(scaleInit),
                    /*isResult=*/true);
}

template <typename OpT> static LogicalResult verifyQuantize(OpT op) {
  OpErrorSink err{op};
  auto input = expectAnyRank(err, "input", typeOf(op.getInput()), Elem::Activation);
  if (failed(input) ||
      failed(checkQuantized(err, op.getRecipe(), "output", op.getOutputInit(),
                            *input, "input", "scale", op.getScaleInit())))
    return failure();

  bool delayed = op.getRecipe() == QuantRecipe::Delayed;
  if (delayed != static_cast<bool>(op.getAmaxHistory()))
    return err(delayed ? "recipe delayed needs the 'amax_history' operand"
                       : "'amax_history' applies only to recipe delayed");
  if (delayed) {
    auto history = expectTensor(err, "amax_history", typeOf(op.getAmaxHistory()),
                                1, "[L]", Elem::F32);
    if (failed(history))
      return failure();
    if (history->getDimSize(0) == 0)
      return err("'amax_history' must hold at least one entry");
  }
  return success();
}

LogicalResult QuantizeOp::verify() {
  return verifyQuantize(*this);
}

LogicalResult QuantizeWithTransposeOp::verify() {
  OpErrorSink err{*this};
  auto input = expectTensor(err, "input", typeOf(getInput()), 2, "[M, N]",
                            Elem::Activation);
  if (failed(input))
    return failure();
  auto transposed = RankedTensorType::get(
      {input->getDimSize(1), input->getDimSize(0)}, input->getElementType());
  if (failed(checkQuantized(err, QuantRecipe::Block1x128, "output",
                            getOutputInit(), *input, "input", "scale",
                            getScaleInit())) ||
      failed(checkQuantized(err, QuantRecipe::Block1x128, "transposed_output",
                            getTransposedOutputInit(), transposed,
                            "transpose(input)", "transposed_scale",
                            getTransposedScaleInit())))
    return failure();
  return success();
}

template <typename OpT> static LogicalResult verifyDequantize(OpT op) {
  OpErrorSink err{op};
  auto input = expectAnyRank(err, "input", typeOf(op.getInput()), Elem::Fp8);
  if (failed(input) ||
      failed(checkScale(err, op.getRecipe(), "input", *input, "scale",
                        typeOf(op.getScale()), /*isResult=*/false)))
    return failure();
  auto output = dyn_cast<RankedTensorType>(typeOf(op.getOutputInit()));
  if (!output || !isActivationType(output.getElementType()))
    return err("result 'output' must be a tensor of bf16, f16 or f32, got " +
               str(typeOf(op.getOutputInit())));
  return expectResult(err, "output", output, input->getShape(),
                      output.getElementType(), "the shape of 'input'");
}

LogicalResult DequantizeOp::verify() {
  return verifyDequantize(*this);
}

//===----------------------------------------------------------------------===//
// moe.layer
//===----------------------------------------------------------------------===//

static FailureOr<TypeList> inferLayer(ErrorSink err, MLIRContext *ctx,
                                      LayerOp::Adaptor adaptor) {
  auto x = expectTensor(err, "x", adaptor.getX().getType(), 2, "[T, H]",
                        Elem::Activation);
  if (failed(x))
    return failure();
  return TypeList{*x, tensorOf({}, f32(ctx))};
}

LogicalResult LayerOp::inferReturnTypes(MLIRContext *ctx,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  return appendInferred(
      inferLayer(InferErrorSink{loc, getOperationName()}, ctx, adaptor),
      inferred);
}

bool LayerOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return sameRankedTensorKinds(l, r);
}

/// The router weight [H, E] (E static: moe.permute in the expansion needs it
/// as an attribute) and the optional bias [E]; returns the router weight's type.
static FailureOr<RankedTensorType> verifyLayerRouterWeights(ErrorSink err,
                                                            LayerOp op) {
  auto x = op.getX().getType();
  auto router = expectTensor(err, "router_weight",
                             op.getRouterWeight().getType(), 2, "[H, E]",
                             Elem::Activation);
  if (failed(router) ||
      failed(expectSameDim(err, "H", "x", x, 1, "router_weight", *router, 0)))
    return failure();
  if (ShapedType::isDynamic(router->getDimSize(1)))
    return err("the number of experts E must be static, but 'router_weight' "
               "dim 1 is dynamic (" + str(*router) + ")");
  if (op.getBias()) {
    auto bias =
        expectTensor(err, "bias", op.getBias().getType(), 1, "[E]", Elem::F32);
    if (failed(bias) || failed(expectSameDim(err, "E", "router_weight", *router,
                                             1, "bias", *bias, 0)))
      return failure();
  }
  return *router;
}

/// Expert weights: [E, H, F], [E, H, F], [E, F, H] for kn; each expert's
/// matrix transposed for nk; the element type of x.
static LogicalResult verifyLayerExpertWeights(ErrorSink err, LayerOp op,
                                              RankedTensorType router) {
  auto x = op.getX().getType();
  bool kn = op.getWeightLayout() == WeightLayout::KN;
  StringRef upDims = kn ? "[E, H, F]" : "[E, F, H]";
  StringRef downDims = kn ? "[E, F, H]" : "[E, H, F]";
  int64_t hIn = kn ? 1 : 2, fIn = kn ? 2 : 1;
  auto wGate = expectTensor(err, "w_gate", op.getWGate().getType(), 3, upDims,
                            Elem::Activation);
  if (failed(wGate))
    return failure();
  auto wUp = expectTensor(err, "w_up", op.getWUp().getType(), 3, upDims,
                          Elem::Activation);
  if (failed(wUp))
    return failure();
  auto wDown = expectTensor(err, "w_down", op.getWDown().getType(), 3, downDims,
                            Elem::Activation);
  if (failed(wDown))
    return failure();
  if (failed(expectSameDim(err, "E", "router_weight", router, 1, "w_gate",
                           *wGate, 0)) ||
      failed(expectSameDim(err, "E", "w_gate", *wGate, 0, "w_up", *wUp, 0)) ||
      failed(expectSameDim(err, "E", "w_gate", *wGate, 0, "w_down", *wDown, 0)) ||
      failed(expectSameDim(err, "H", "x", x, 1, "w_gate", *wGate, hIn)) ||
      failed(expectSameDim(err, "H", "x", x, 1, "w_up", *wUp, hIn)) ||
      failed(expectSameDim(err, "H", "x", x, 1, "w_down", *wDown, fIn)) ||
      failed(expectSameDim(err, "F", "w_gate", *wGate, fIn, "w_up", *wUp, fIn)) ||
      failed(expectSameDim(err, "F", "w_gate", *wGate, fIn, "w_down", *wDown,
                           hIn)))
    return failure();
  for (auto [name, w] : {std::pair<StringRef, RankedTensorType>{"w_gate", *wGate},
                         {"w_up", *wUp},
                         {"w_down", *wDown}})
    if (w.getElementType() != x.getElementType())
      return err("'" + name + "' has " + str(w.getElementType()) +
                 " elements but 'x' has " + str(x.getElementType()));
  return success();
}

/// Score function, top-k, group-limited routing, post-softmax and the
/// dispatch alignment of E experts.
static LogicalResult verifyLayerRouting(ErrorSink err, LayerOp op,
                                        int64_t numExperts) {
  RouterConfig config = routerConfigOf(op, numExperts);
  if (op.getScoreFunction() == ScoreFunction::Identity)
    return err("score_function identity is for moe.route; a layer's router "
               "uses softmax, sigmoid or sqrtsoftplus (post_softmax for "
               "softmax after top-k)");
  if (op.getPostSoftmax() && (op.getScoreFunction() != ScoreFunction::Softmax ||
                              op.getNormalize() != Normalize::None))
    return err("post_softmax needs score_function softmax and normalize none "
               "(the softmax over the k chosen is the normalization), got " +
               stringifyScoreFunction(op.getScoreFunction()) + " and " +
               stringifyNormalize(op.getNormalize()));
  if (failed(verifyRouterConfig(err, config)))
    return failure();
  int64_t align = int64_t(op.getAlign());
  if (align < 1)
    return err("align = " + Twine(align) + " must be at least 1");
  if (failed(permutedRows(err, op.getX().getType().getDimSize(0),
                          int64_t(op.getK()), numExperts, align)))
    return failure();
  return success();
}

/// The aux-loss variant and coefficient, and the z-loss coefficient.
static LogicalResult verifyLayerLosses(ErrorSink err, LayerOp op) {
  std::optional<ArrayRef<int64_t>> axes;
  if (auto a = op.getGridAxes())
    axes = *a;
  if (failed(verifyAuxLossConfig(err, op.getAuxLossVariant(),
                                 op.getAuxLossCoeff().convertToDouble(),
                                 op.getSeqLength(), op.getGridAttr(), axes,
                                 op.getX().getType().getDimSize(0),
                                 "aux_loss_coeff")))
    return failure();
  double z = op.getZLossCoeff().convertToDouble();
  if (!isNonNegativeFinite(z))
    return err("z_loss_coeff = " + num(z) + " must be non-negative and finite");
  return success();
}

LogicalResult LayerOp::verify() {
  OpErrorSink err{*this};
  auto types = inferLayer(err, getContext(), Adaptor(*this));
  if (failed(types) ||
      failed(checkResults(err, getOperation()->getResultTypes(), *types,
                          {"out", "aux_loss"},
                          {"the type of 'x'", "a 0-d f32 tensor"})))
    return failure();
  FailureOr<RankedTensorType> router = verifyLayerRouterWeights(err, *this);
  if (failed(router) || failed(verifyLayerExpertWeights(err, *this, *router)) ||
      failed(verifyLayerRouting(err, *this, router->getDimSize(1))))
    return failure();
  return verifyLayerLosses(err, *this);
}

LogicalResult LayerOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (!getGridAttr())
    return success();
  return verifyGridAxes(*this, symbolTable, getGridAttr(),
                        getGridAxes().value_or(ArrayRef<int64_t>{}));
}

//===----------------------------------------------------------------------===//
// Builders without destinations: tensor.empty destinations of the inferred
// (or given) result types, sized from the operands where dims are dynamic.
// A failed inference builds the op without destinations; its verifier then
// says what is wrong with the operands.
//===----------------------------------------------------------------------===//

/// tensor.empty destinations of inferred result types (sized by
/// `dynamicSize` where dims are dynamic), or none when the inference failed:
/// the op is then built without destinations and its verifier says why.
static SmallVector<Value> emptyDestinationsOfInferred(
    OpBuilder &b, Location loc, FailureOr<TypeList> types,
    function_ref<Value(unsigned, unsigned)> dynamicSize) {
  if (failed(types))
    return {};
  return createEmptyDestinations(b, loc, *types, dynamicSize);
}

void GateOp::build(OpBuilder &b, OperationState &state, Value x, Value weight) {
  Location loc = state.location;
  SmallVector<Value> inits = emptyDestinationsOfInferred(
      b, loc,
      inferGate(silentSink, b.getContext(), x.getType(), weight.getType()),
      [&](unsigned, unsigned d) {
        return d == 0 ? dimOf(b, loc, x, 0) : dimOf(b, loc, weight, 1);
      });
  build(b, state, x, weight, inits);
}

void RouteOp::build(OpBuilder &b, OperationState &state, Value logits,
                    ScoreFunctionAttr scoreFunction) {
  Location loc = state.location;
  SmallVector<Value> inits = createEmptyDestinations(
      b, loc, logits.getType(),
      [&](unsigned, unsigned d) { return dimOf(b, loc, logits, d); });
  build(b, state, logits, scoreFunction, inits);
}

void TopKOp::build(OpBuilder &b, OperationState &state, Value scores,
                   Value bias, IntegerAttr k, ScoreFunctionAttr scoreFunction,
                   IntegerAttr numGroups, IntegerAttr groupTopk,
                   GroupScoreAttr groupScore, IntegerAttr groupScoreTopq,
                   NormalizeAttr normalize, FloatAttr scalingFactor) {
  Location loc = state.location;
  SmallVector<Value> inits = emptyDestinationsOfInferred(
      b, loc,
      inferTopK(silentSink, b.getContext(), scores.getType(),
                bias ? bias.getType() : Type(), k.getInt()),
      [&](unsigned, unsigned) { return dimOf(b, loc, scores, 0); });
  build(b, state, scores, bias, k, scoreFunction, numGroups, groupTopk,
        groupScore, groupScoreTopq, normalize, scalingFactor, inits);
}

void AuxLossOp::build(OpBuilder &b, OperationState &state, Value scores,
                      Value indices, AuxLossVariantAttr variant,
                      ScoreFunctionAttr scoreFunction, FloatAttr coeff,
                      IntegerAttr seqLength, FlatSymbolRefAttr grid,
                      DenseI64ArrayAttr gridAxes) {
  SmallVector<Value> inits = createEmptyDestinations(
      b, state.location, tensorOf({}, f32(b.getContext())), nullptr);
  build(b, state, scores, indices, variant, scoreFunction, coeff, seqLength,
        grid, gridAxes, inits);
}

void ZLossOp::build(OpBuilder &b, OperationState &state, Value logits,
                    FloatAttr coeff) {
  SmallVector<Value> inits = createEmptyDestinations(
      b, state.location, tensorOf({}, f32(b.getContext())), nullptr);
  build(b, state, logits, coeff, inits);
}

void PermuteOp::build(OpBuilder &b, OperationState &state, Value x,
                      Value indices, IntegerAttr numExperts,
                      IntegerAttr align, int64_t rows) {
  Location loc = state.location;
  FailureOr<TypeList> types =
      inferPermute(silentSink, b.getContext(), x.getType(), indices.getType(),
                   numExperts.getInt(), align.getInt());
  // A static R above the bound where the caller asks for one.
  auto permuted = succeeded(types) ? dyn_cast<RankedTensorType>((*types)[0])
                                   : RankedTensorType();
  if (permuted && rows > 0 && permuted.hasStaticShape())
    (*types)[0] = tensorOf({std::max(rows, permuted.getDimSize(0)),
                            permuted.getDimSize(1)},
                           permuted.getElementType());
  SmallVector<Value> inits = emptyDestinationsOfInferred(
      b, loc, types, [&](unsigned result, unsigned d) -> Value {
        if (result == 0 && d == 1)
          return dimOf(b, loc, x, 1);
        if (result == 2)
          return dimOf(b, loc, indices, d);
        // R = T·K + E·(align − 1).
        Value tk = arith::MulIOp::create(b, loc, dimOf(b, loc, x, 0),
                                         dimOf(b, loc, indices, 1));
        Value pad = arith::ConstantIndexOp::create(
            b, loc, numExperts.getInt() * (align.getInt() - 1));
        return arith::AddIOp::create(b, loc, tk, pad);
      });
  build(b, state, x, indices, numExperts, align, inits);
}

void GroupedMatmulOp::build(OpBuilder &b, OperationState &state, Type c,
                            Value a, Value weights, Value groupSizes,
                            Value aScale, Value bScale,
                            WeightLayoutAttr weightLayout) {
  Location loc = state.location;
  bool kn = weightLayout.getValue() == WeightLayout::KN;
  SmallVector<Value> inits =
      createEmptyDestinations(b, loc, c, [&](unsigned, unsigned d) {
        return d == 0 ? dimOf(b, loc, a, 0)
                      : dimOf(b, loc, weights, kn ? 2 : 1);
      });
  build(b, state, a, weights, /*b_up=*/Value(), groupSizes, aScale, bScale,
        /*row_scale=*/Value(),
        /*epilogue_inputs=*/ValueRange(), weightLayout,
        /*accumulate=*/UnitAttr(), inits);
}

void GroupedWeightGradOp::build(OpBuilder &b, OperationState &state, Type db,
                                Value a, Value dc, Value groupSizes,
                                WeightLayoutAttr weightLayout, Value aScale,
                                Value dcScale, bool transposedOperands) {
  Location loc = state.location;
  bool kn = weightLayout.getValue() == WeightLayout::KN;
  // Kd is a's and N dc's non-row dimension.
  int64_t colDim = transposedOperands ? 0 : 1;
  SmallVector<Value> inits =
      createEmptyDestinations(b, loc, db, [&](unsigned, unsigned d) {
        if (d == 0)
          return dimOf(b, loc, groupSizes, 0);
        return (d == 1) == kn ? dimOf(b, loc, a, colDim)
                              : dimOf(b, loc, dc, colDim);
      });
  build(b, state, a, dc, groupSizes, aScale, dcScale, weightLayout,
        transposedOperands ? b.getUnitAttr() : UnitAttr(), inits);
}

void GluOp::build(OpBuilder &b, OperationState &state,
                  ActivationAttr activation, Value gate, Value up) {
  Location loc = state.location;
  SmallVector<Value> inits = emptyDestinationsOfInferred(
      b, loc, inferGlu(silentSink, gate.getType(), up ? up.getType() : Type()),
      [&](unsigned, unsigned d) -> Value {
        Value size = dimOf(b, loc, gate, d);
        if (d == 0 || up)
          return size;
        // Gate and up side by side: F is half the columns.
        return arith::DivUIOp::create(
            b, loc, size, arith::ConstantIndexOp::create(b, loc, 2));
      });
  build(b, state, activation, gate, up, inits);
}

void AllToAllOp::build(OpBuilder &b, OperationState &state,
                       TypeRange resultTypes, Value input, Value sendSizes,
                       FlatSymbolRefAttr grid, IntegerAttr gridAxis) {
  Location loc = state.location;
  SmallVector<Value> inits = createEmptyDestinations(
      b, loc, resultTypes, [&](unsigned result, unsigned d) {
        return dimOf(b, loc, result == 0 ? input : sendSizes, d);
      });
  build(b, state, input, sendSizes, grid, gridAxis, inits);
}

void PermuteRowsOp::build(OpBuilder &b, OperationState &state, Value x,
                          Value rows, OpFoldResult numRows) {
  Location loc = state.location;
  auto xType = cast<RankedTensorType>(x.getType());
  std::optional<int64_t> staticRows = getConstantIntValue(numRows);
  SmallVector<Value> inits = createEmptyDestinations(
      b, loc,
      TypeRange{tensorOf({staticRows ? *staticRows : ShapedType::kDynamic,
                          xType.getDimSize(1)},
                         xType.getElementType())},
      [&](unsigned, unsigned d) {
        return d == 0 ? getValueOrCreateConstantIndexOp(b, loc, numRows)
                      : dimOf(b, loc, x, 1);
      });
  build(b, state, x, rows, inits);
}

void SortChunksOp::build(OpBuilder &b, OperationState &state, Value x,
                         Value counts, int64_t numSizes, bool inverse) {
  Location loc = state.location;
  auto xType = cast<RankedTensorType>(x.getType());
  SmallVector<Value> inits = createEmptyDestinations(
      b, loc, TypeRange{xType, tensorOf({numSizes}, i32(b.getContext()))},
      [&](unsigned, unsigned d) { return dimOf(b, loc, x, d); });
  build(b, state, x, counts, inverse, inits);
}

void AllReduceOp::build(OpBuilder &b, OperationState &state, Value input,
                        FlatSymbolRefAttr grid, ArrayRef<int64_t> gridAxes) {
  Location loc = state.location;
  SmallVector<Value> inits = createEmptyDestinations(
      b, loc, input.getType(),
      [&](unsigned, unsigned d) { return dimOf(b, loc, input, d); });
  build(b, state, input, grid, b.getDenseI64ArrayAttr(gridAxes), inits);
}

void CombineOp::build(OpBuilder &b, OperationState &state, Value y, Value rows,
                      Value weights) {
  Location loc = state.location;
  SmallVector<Value> inits = emptyDestinationsOfInferred(
      b, loc,
      inferCombine(silentSink, y.getType(), rows.getType(), weights.getType()),
      [&](unsigned, unsigned d) {
        return d == 0 ? dimOf(b, loc, rows, 0) : dimOf(b, loc, y, 1);
      });
  build(b, state, y, rows, weights, inits);
}

void CombineGradOp::build(OpBuilder &b, OperationState &state, Value dout,
                          Value y, Value rows, Value weights) {
  Location loc = state.location;
  SmallVector<Value> inits = emptyDestinationsOfInferred(
      b, loc,
      inferCombineGrad(silentSink, b.getContext(), dout.getType(), y.getType(),
                       rows.getType(), weights.getType()),
      [&](unsigned result, unsigned d) {
        return dimOf(b, loc, result == 0 ? y : rows, d);
      });
  build(b, state, dout, y, rows, weights, inits);
}

//===----------------------------------------------------------------------===//
// custom<EnumKeyword>: an enum attribute written as its bare keyword
//===----------------------------------------------------------------------===//

// The largest value of each enum that appears as a keyword (for the list of
// expected keywords in parse errors).
static unsigned maxEnumValue(ScoreFunction) {
  return getMaxEnumValForScoreFunction();
}
static unsigned maxEnumValue(AuxLossVariant) {
  return getMaxEnumValForAuxLossVariant();
}
static unsigned maxEnumValue(Activation) { return getMaxEnumValForActivation(); }
static unsigned maxEnumValue(QuantRecipe) {
  return getMaxEnumValForQuantRecipe();
}

template <typename EnumAttrT>
static ParseResult parseEnumKeyword(OpAsmParser &parser, EnumAttrT &attr) {
  using EnumT = decltype(std::declval<EnumAttrT>().getValue());
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<EnumT> value = symbolizeEnum<EnumT>(keyword);
  if (!value) {
    std::string expected;
    for (unsigned i = 0, e = maxEnumValue(EnumT{}); i <= e; ++i)
      expected += (i ? ", " : "") + stringifyEnum(static_cast<EnumT>(i)).str();
    return parser.emitError(loc, "unknown keyword '")
           << keyword << "', expected one of: " << expected;
  }
  attr = EnumAttrT::get(parser.getContext(), *value);
  return success();
}

template <typename EnumAttrT>
static void printEnumKeyword(OpAsmPrinter &printer, Operation *,
                             EnumAttrT attr) {
  printer << stringifyEnum(attr.getValue());
}

#define GET_OP_CLASSES
#include "MoeDialect/Dialect/MoeOps.cpp.inc"

bool mlir::moe::autoPrefersGeneratedKernel(Operation *groupedGemm) {
  auto dimOf = [](Value v, unsigned d) {
    return cast<ShapedType>(v.getType()).getDimSize(d);
  };
  // FP8 products have no cuBLASLt grouped path: always generated.
  if (auto matmul = dyn_cast<GroupedMatmulOp>(groupedGemm);
      matmul && matmul.getAScale())
    return true;
  if (auto weightGrad = dyn_cast<GroupedWeightGradOp>(groupedGemm);
      weightGrad && weightGrad.getAScale())
    return true;
  if (auto matmul = dyn_cast<GroupedMatmulOp>(groupedGemm))
    return opmath::autoPrefersGeneratedGroupedGemm(
        dimOf(matmul.getGroupSizes(), 0), dimOf(matmul.getA(), 0),
        /*weightGrad=*/false);
  if (auto weightGrad = dyn_cast<GroupedWeightGradOp>(groupedGemm))
    return opmath::autoPrefersGeneratedGroupedGemm(
        dimOf(weightGrad.getGroupSizes(), 0),
        dimOf(weightGrad.getA(), weightGrad.getTransposedOperands() ? 1 : 0),
        /*weightGrad=*/true);
  return false;
}
