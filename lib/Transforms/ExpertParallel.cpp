//===- ExpertParallel.cpp - partition MoE layers over the ranks of an axis ===//
//
// Expert parallelism as EP = DP training runs it: each of the P ranks of a
// grid axis holds T/P tokens and E/P experts. The function is rewritten op
// by op in program order. Every value gets a placement (how the per-rank
// value relates to the one-rank value) and each op kind says, from its own
// semantics, which placements its operands may have, what its results'
// types and placements are, and which exchanges go in front of it: the
// rows of moe.permute travel to their experts' ranks before the first
// grouped matmul and come back before moe.combine; losses are summed over
// the ranks. No dim is recognised by its size (T may equal E).
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Transforms/EntryNames.h"
#include "MoeDialect/Transforms/Passes.h"
#include "MoeDialect/Transforms/ShardingAttrs.h"
#include "MoeDialect/Transforms/StraightLineBody.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::moe {
#define GEN_PASS_DEF_MOEEXPERTPARALLELPASS
#include "MoeDialect/Transforms/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;

namespace {

/// How a value of the per-rank function relates to the one-rank value.
enum class Placement {
  /// Equal to the one-rank value on every rank.
  Replicated,
  /// Dim 0 split over the ranks: this rank's T/P tokens.
  Tokens,
  /// Dim 0 split over the ranks: this rank's E/P experts.
  Experts,
  /// Per-expert row counts of this rank's tokens (`[E]`); the one-rank
  /// counts are their sum over the ranks.
  Counts,
  /// This rank's tokens' rows grouped by (global) expert: rank-local.
  PermutedRows,
  /// The rows every rank routed to this rank's experts, local-expert-major:
  /// rank-local.
  LocalRows,
};

StringRef describe(Placement placement) {
  switch (placement) {
  case Placement::Replicated:
    return "replicated";
  case Placement::Tokens:
    return "split by tokens";
  case Placement::Experts:
    return "split by experts (an expert weight)";
  case Placement::Counts:
    return "per-expert counts of this rank's tokens";
  case Placement::PermutedRows:
    return "rows grouped by expert (moe.permute's)";
  case Placement::LocalRows:
    return "rows of the local experts";
  }
  llvm_unreachable("unknown placement");
}

/// A value of the per-rank function and its placement.
struct Placed {
  Value value;
  Placement placement = Placement::Replicated;
  /// For Counts, PermutedRows and LocalRows: the moe.permute (of the input
  /// function) whose groups they follow.
  Operation *permute = nullptr;
};

/// The exchange that took one moe.permute's rows to their experts' ranks.
struct Dispatch {
  /// `[P·R, H]`: the rows received, local-expert-major.
  Value localRows;
  /// `[E]` = `[P·E/P]`: rows received per (source rank, local expert).
  Value recvSizes;
  /// `[E/P]`: rows per local expert.
  Value localSizes;
  /// R: the permute's rows on this rank (the size of the way back).
  int64_t sentRows;
};

RankedTensorType withRows(Type type, int64_t rows) {
  auto ranked = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(ranked.getShape());
  shape[0] = rows;
  return ranked.clone(shape);
}

int64_t rowsOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getDimSize(0);
}

/// The placement an argument must have for `use`; none where the use says
/// nothing (the argument is then replicated unless another use says so).
std::optional<Placement> demandOf(OpOperand &use) {
  Value v = use.get();
  using P = std::optional<Placement>;
  return TypeSwitch<Operation *, P>(use.getOwner())
      .Case([&](GateOp op) -> P {
        return v == op.getX() ? Placement::Tokens : Placement::Replicated;
      })
      .Case([&](TopKOp op) -> P {
        return v == op.getScores() ? Placement::Tokens : Placement::Replicated;
      })
      .Case<RouteOp, PermuteOp, AuxLossOp, ZLossOp>(
          [&](auto) -> P { return Placement::Tokens; })
      .Case([&](GroupedMatmulOp op) -> P {
        if (v == op.getB())
          return Placement::Experts;
        return v == op.getA() ? Placement::PermutedRows : Placement::Counts;
      })
      .Case([&](GluOp) -> P { return Placement::LocalRows; })
      .Case([&](CombineOp op) -> P {
        return v == op.getY() ? Placement::LocalRows : Placement::Tokens;
      })
      .Case([&](ExpertBiasUpdateOp) -> P { return Placement::Replicated; })
      .Default([](Operation *) -> P { return std::nullopt; });
}

/// The grid axes of the per-rank functions.
struct GridAxes {
  FlatSymbolRefAttr grid;
  /// The expert-parallel axis: experts are split and rows exchanged over it.
  int64_t axis = 0;
  /// P, the ranks of `axis`.
  int64_t ranks = 1;
  /// The axes tokens are split over (`axis` and the data axes), ascending.
  SmallVector<int64_t> tokenAxes;
  /// D, the token shards: the product of the token axes' sizes.
  int64_t tokenShards = 1;
  /// Whether the annotations name their axes (a grid of several axes).
  bool nameAxes = false;
};

/// Rewrites one function into its per-rank form.
class Partitioner {
public:
  Partitioner(func::FuncOp func, const GridAxes &axes)
      : func(func), grid(axes.grid), axis(axes.axis), ranks(axes.ranks),
        axes(axes), builder(func.getContext()) {}

  LogicalResult run() {
    SmallVector<Operation *> oldOps;
    for (Operation &op : func.getBody().front().without_terminator())
      oldOps.push_back(&op);
    if (failed(placeArguments()))
      return failure();
    for (Operation *op : oldOps) {
      builder.setInsertionPoint(op);
      if (failed(partition(op)))
        return failure();
    }
    if (failed(placeResults()))
      return failure();
    if (axes.nameAxes)
      func->setAttr(kBatchAxesAttr,
                    builder.getDenseI64ArrayAttr(axes.tokenAxes));
    for (Operation *op : llvm::reverse(oldOps))
      op->erase();
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    func.setFunctionType(FunctionType::get(
        func.getContext(), func.getBody().front().getArgumentTypes(),
        ret.getOperandTypes()));
    return success();
  }

private:
  //===--------------------------------------------------------------------===//
  // Arguments and results
  //===--------------------------------------------------------------------===//

  /// Places every argument by its uses and gives the split ones their
  /// per-rank types and `moe.split_dim`.
  LogicalResult placeArguments() {
    for (BlockArgument arg : func.getArguments()) {
      std::optional<Placement> placement;
      for (OpOperand &use : arg.getUses()) {
        std::optional<Placement> demand = demandOf(use);
        if (!demand || demand == placement)
          continue;
        if (placement)
          return func.emitError("moe-expert-parallel: argument ")
                 << arg.getArgNumber() << " (" << argName(arg)
                 << ") is used both " << describe(*placement) << " and "
                 << describe(*demand) << " by " << use.getOwner()->getName();
        placement = demand;
      }
      Placement p = placement.value_or(Placement::Replicated);
      if (p != Placement::Replicated && p != Placement::Tokens &&
          p != Placement::Experts)
        return func.emitError("moe-expert-parallel: argument ")
               << arg.getArgNumber() << " (" << argName(arg) << ") is taken as "
               << describe(p)
               << ", which moe-expert-parallel only knows as computed by "
                  "moe.permute in the function";
      if (p != Placement::Replicated && failed(splitArgument(arg, p)))
        return failure();
      setPlaced(arg, {arg, p});
    }
    return success();
  }

  StringRef argName(BlockArgument arg) {
    auto name =
        func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), kNameAttr);
    return name ? name.getValue() : StringRef("unnamed");
  }

  LogicalResult splitArgument(BlockArgument arg, Placement placement) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    bool tokens = placement == Placement::Tokens;
    StringRef what = tokens ? "T" : "E";
    StringRef unit = tokens ? "tokens" : "experts";
    int64_t shards = tokens ? axes.tokenShards : ranks;
    if (!type || type.getRank() < 1)
      return func.emitError("moe-expert-parallel: argument ")
             << arg.getArgNumber() << " (" << argName(arg) << ") of type "
             << arg.getType() << " is " << describe(placement)
             << " but has no dim 0";
    int64_t size = type.getDimSize(0);
    if (ShapedType::isDynamic(size))
      return func.emitError("moe-expert-parallel: argument ")
             << arg.getArgNumber() << " (" << argName(arg) << ") has a "
             << "dynamic dim 0 (" << what << "); the pass needs static " << unit
             << " counts";
    if (size % shards != 0)
      return func.emitError("moe-expert-parallel: ")
             << what << " = " << size << " " << unit << " (dim 0 of argument "
             << arg.getArgNumber() << ", " << argName(arg)
             << ") is not divisible by "
             << (tokens ? tokenShardsText() : "P = " + std::to_string(ranks) +
                                                  " ranks");
    arg.setType(withRows(type, size / shards));
    for (NamedAttribute a : splitAttrs(placement))
      func.setArgAttr(arg.getArgNumber(), a.getName(), a.getValue());
    return success();
  }

  /// "P = 4 ranks" when the tokens are split over the expert axis only,
  /// else "D = 8 token shards".
  std::string tokenShardsText() const {
    return axes.tokenAxes.size() == 1
               ? "P = " + std::to_string(ranks) + " ranks"
               : "D = " + std::to_string(axes.tokenShards) + " token shards";
  }

  /// The annotation of a value split along dim 0 by `placement` (tokens or
  /// experts).
  SmallVector<NamedAttribute> splitAttrs(Placement placement) {
    SmallVector<NamedAttribute> attrs = {
        builder.getNamedAttr(kSplitDimAttr, builder.getI64IntegerAttr(0))};
    if (axes.nameAxes)
      attrs.push_back(builder.getNamedAttr(
          kSplitAxesAttr, builder.getDenseI64ArrayAttr(
                              placement == Placement::Tokens
                                  ? ArrayRef<int64_t>(axes.tokenAxes)
                                  : ArrayRef<int64_t>{axis})));
    return attrs;
  }

  /// Returns the new values and annotates the results by their placement.
  LogicalResult placeResults() {
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    SmallVector<Value> results;
    for (auto [i, old] : llvm::enumerate(ret.getOperands())) {
      FailureOr<Placed> p = get(ret, old, "result " + std::to_string(i),
                                {Placement::Replicated, Placement::Tokens,
                                 Placement::Experts, Placement::Counts});
      if (failed(p) ||
          failed(checkSummableCounts(ret, *p, "result " + std::to_string(i))))
        return failure();
      results.push_back(p->value);
      if (p->placement == Placement::Tokens ||
          p->placement == Placement::Experts) {
        for (NamedAttribute a : splitAttrs(p->placement))
          func.setResultAttr(i, a.getName(), a.getValue());
      } else if (p->placement == Placement::Counts) {
        func.setResultAttr(i, kPartialSumAttr, builder.getUnitAttr());
        if (axes.nameAxes)
          func.setResultAttr(i, kPartialAxesAttr,
                             builder.getDenseI64ArrayAttr(axes.tokenAxes));
      }
    }
    ret->setOperands(results);
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Values
  //===--------------------------------------------------------------------===//

  void setPlaced(Value old, Placed p) {
    placed[old] = p;
    mapping.map(old, p.value);
  }

  /// The per-rank value of `old`, operand `what` of `user`, which must have
  /// one of the `allowed` placements.
  FailureOr<Placed> get(Operation *user, Value old, const Twine &what,
                        std::initializer_list<Placement> allowed) {
    auto it = placed.find(old);
    if (it == placed.end())
      return user->emitOpError("moe-expert-parallel: ")
             << what
             << " is not a value the pass knows how to place (a "
                "tensor.empty is only supported as a destination, outs)";
    if (!llvm::is_contained(allowed, it->second.placement)) {
      InFlightDiagnostic diag =
          user->emitOpError("moe-expert-parallel: ")
          << what << " is " << describe(it->second.placement) << "; expected ";
      llvm::interleave(
          allowed, diag, [&](Placement p) { diag << describe(p); }, " or ");
      return diag;
    }
    return it->second;
  }

  /// Clones `op` (a destination-style moe op) with its inputs replaced by
  /// `input(old operand)` and fresh destinations of `resultTypes`.
  Operation *rebuild(Operation *op, TypeRange resultTypes,
                     function_ref<Value(Value)> input = nullptr) {
    auto dps = cast<DestinationStyleOpInterface>(op);
    SmallVector<Value> operands;
    for (OpOperand &operand : op->getOpOperands()) {
      if (dps.isDpsInit(&operand)) {
        auto type = cast<RankedTensorType>(
            resultTypes[dps.getTiedOpResult(&operand).getResultNumber()]);
        operands.push_back(tensor::EmptyOp::create(
            builder, op->getLoc(), type.getShape(), type.getElementType()));
        continue;
      }
      Value replaced = input ? input(operand.get()) : Value();
      operands.push_back(replaced ? replaced
                                  : placed.lookup(operand.get()).value);
    }
    Operation *clone = builder.clone(*op, mapping);
    clone->setOperands(operands);
    for (auto [result, type] : llvm::zip(clone->getResults(), resultTypes))
      result.setType(type);
    return clone;
  }

  /// Per-expert counts of this rank's tokens sum over the ranks to the
  /// one-rank counts only without padding: each rank rounds its own groups
  /// up to the permute's align.
  LogicalResult checkSummableCounts(Operation *user, const Placed &counts,
                                    const Twine &what) {
    if (counts.placement != Placement::Counts)
      return success();
    int64_t align =
        static_cast<int64_t>(cast<PermuteOp>(counts.permute).getAlign());
    if (align == 1)
      return success();
    return user->emitOpError("moe-expert-parallel: ")
           << what << " are group sizes padded to align = " << align
           << ", whose sum over the ranks is not the one-rank value";
  }

  /// The element-wise sum of `value` over the ranks of the token axes.
  Value allReduce(Value value, Location loc) {
    return AllReduceOp::create(builder, loc, value, grid, axes.tokenAxes)
        .getOutput();
  }

  //===--------------------------------------------------------------------===//
  // The exchange of rows between the ranks
  //===--------------------------------------------------------------------===//

  /// Sends the rows of `permute` (of the input function) to the ranks of
  /// their experts and orders them by local expert; once per permute.
  Dispatch &dispatch(PermuteOp permute, Location loc) {
    auto [it, inserted] = dispatches.try_emplace(permute.getOperation());
    if (!inserted)
      return it->second;
    Value rows = placed.lookup(permute.getPermuted()).value;
    Value sizes = placed.lookup(permute.getGroupSizes()).value;
    int64_t sent = rowsOf(rows);
    // Experts are spread in order: rank q holds experts q·E/P .. , so the
    // group sizes are the send sizes with E/P chunks per destination.
    auto exchange = AllToAllOp::create(
        builder, loc,
        TypeRange{withRows(rows.getType(), ranks * sent), sizes.getType()},
        rows, sizes, grid, builder.getI64IntegerAttr(axis));
    int64_t localExperts =
        static_cast<int64_t>(permute.getNumExperts()) / ranks;
    auto sorted = SortChunksOp::create(builder, loc, exchange.getOutput(),
                                       exchange.getRecvSizes(), localExperts,
                                       /*inverse=*/false);
    it->second = Dispatch{sorted.getOutput(), exchange.getRecvSizes(),
                          sorted.getSizes(), sent};
    return it->second;
  }

  /// The way back: rows of the local experts to the ranks and the order
  /// they came from.
  Value undispatch(Value localRows, const Dispatch &d, Location loc) {
    auto bySource = SortChunksOp::create(builder, loc, localRows, d.recvSizes,
                                         ranks, /*inverse=*/true);
    auto exchange =
        AllToAllOp::create(builder, loc,
                           TypeRange{withRows(localRows.getType(), d.sentRows),
                                     d.recvSizes.getType()},
                           bySource.getOutput(), d.recvSizes, grid,
                           builder.getI64IntegerAttr(axis));
    return exchange.getOutput();
  }

  //===--------------------------------------------------------------------===//
  // Ops
  //===--------------------------------------------------------------------===//

  LogicalResult partition(Operation *op) {
    return TypeSwitch<Operation *, LogicalResult>(op)
        .Case<GateOp, RouteOp, TopKOp, PermuteOp, GroupedMatmulOp, GluOp,
              CombineOp, AuxLossOp, ZLossOp, ExpertBiasUpdateOp,
              arith::ConstantOp>([&](auto op) { return visit(op); })
        // Destinations are made anew by the ops that write them.
        .Case<tensor::EmptyOp>([](auto) { return success(); })
        .Default([&](Operation *op) -> LogicalResult {
          if (isElementwise(op))
            return visitElementwise(op);
          return op->emitOpError(
              "is not supported by moe-expert-parallel (it partitions "
              "moe.gate, moe.route, moe.topk, moe.permute, "
              "moe.grouped_matmul, moe.glu, moe.combine, moe.aux_loss, "
              "moe.z_loss, moe.expert_bias_update, arith.constant and "
              "element-wise arith/math ops on tensors)");
        });
  }

  LogicalResult visit(GateOp op) {
    FailureOr<Placed> x = get(op, op.getX(), "x", {Placement::Tokens});
    if (failed(x) ||
        failed(get(op, op.getWeight(), "weight", {Placement::Replicated})))
      return failure();
    Operation *n =
        rebuild(op, {withRows(op.getLogits().getType(), rowsOf(x->value))});
    setPlaced(op.getLogits(), {n->getResult(0), Placement::Tokens});
    return success();
  }

  LogicalResult visit(RouteOp op) {
    FailureOr<Placed> logits =
        get(op, op.getLogits(), "logits", {Placement::Tokens});
    if (failed(logits))
      return failure();
    Operation *n = rebuild(
        op, {withRows(op.getScores().getType(), rowsOf(logits->value))});
    setPlaced(op.getScores(), {n->getResult(0), Placement::Tokens});
    return success();
  }

  LogicalResult visit(TopKOp op) {
    FailureOr<Placed> scores =
        get(op, op.getScores(), "scores", {Placement::Tokens});
    if (failed(scores) ||
        (op.getBias() &&
         failed(get(op, op.getBias(), "bias", {Placement::Replicated}))))
      return failure();
    int64_t tokens = rowsOf(scores->value);
    Operation *n = rebuild(op, {withRows(op.getWeights().getType(), tokens),
                                withRows(op.getIndices().getType(), tokens)});
    setPlaced(op.getWeights(), {n->getResult(0), Placement::Tokens});
    setPlaced(op.getIndices(), {n->getResult(1), Placement::Tokens});
    return success();
  }

  LogicalResult visit(PermuteOp op) {
    int64_t experts = static_cast<int64_t>(op.getNumExperts());
    if (experts % ranks != 0)
      return op.emitOpError("moe-expert-parallel: E = ")
             << experts << " experts are not divisible by P = " << ranks
             << " ranks";
    FailureOr<Placed> x = get(op, op.getX(), "x", {Placement::Tokens});
    FailureOr<Placed> indices =
        failed(x) ? FailureOr<Placed>(failure())
                  : get(op, op.getIndices(), "indices", {Placement::Tokens});
    if (failed(indices))
      return failure();
    // R = T·K + E·(align − 1) for this rank's T.
    int64_t tokens = rowsOf(x->value);
    int64_t k = cast<RankedTensorType>(indices->value.getType()).getDimSize(1);
    int64_t align = static_cast<int64_t>(op.getAlign());
    Operation *n = rebuild(op, {withRows(op.getPermuted().getType(),
                                         tokens * k + experts * (align - 1)),
                                op.getGroupSizes().getType(),
                                withRows(op.getRows().getType(), tokens)});
    setPlaced(op.getPermuted(), {n->getResult(0), Placement::PermutedRows, op});
    setPlaced(op.getGroupSizes(), {n->getResult(1), Placement::Counts, op});
    setPlaced(op.getRows(), {n->getResult(2), Placement::Tokens});
    return success();
  }

  LogicalResult visit(GroupedMatmulOp op) {
    if (op.getAScale() || op.getBScale() || op.getRowScale())
      return op.emitOpError("moe-expert-parallel: FP8 scales and row_scale "
                            "are not supported yet");
    FailureOr<Placed> a = get(op, op.getA(), "a",
                              {Placement::PermutedRows, Placement::LocalRows});
    FailureOr<Placed> sizes =
        failed(a)
            ? FailureOr<Placed>(failure())
            : get(op, op.getGroupSizes(), "group_sizes", {Placement::Counts});
    if (failed(sizes) || failed(get(op, op.getB(), "b", {Placement::Experts})))
      return failure();
    if (a->permute != sizes->permute)
      return op.emitOpError("moe-expert-parallel: a and group_sizes follow "
                            "the groups of different moe.permute ops");
    Dispatch &d = dispatch(cast<PermuteOp>(a->permute), op.getLoc());
    Value rows = a->placement == Placement::LocalRows ? a->value : d.localRows;
    Operation *n = rebuild(op, {withRows(op.getC().getType(), rowsOf(rows))},
                           [&](Value old) -> Value {
                             if (old == op.getA())
                               return rows;
                             if (old == op.getGroupSizes())
                               return d.localSizes;
                             return {};
                           });
    setPlaced(op.getC(), {n->getResult(0), Placement::LocalRows, a->permute});
    return success();
  }

  LogicalResult visit(GluOp op) {
    FailureOr<Placed> gate =
        get(op, op.getGate(), "gate", {Placement::LocalRows});
    if (failed(gate))
      return failure();
    if (op.getUp()) {
      FailureOr<Placed> up = get(op, op.getUp(), "up", {Placement::LocalRows});
      if (failed(up))
        return failure();
      if (up->permute != gate->permute)
        return op.emitOpError("moe-expert-parallel: gate and up follow the "
                              "groups of different moe.permute ops");
    }
    Operation *n =
        rebuild(op, {withRows(op.getH().getType(), rowsOf(gate->value))});
    setPlaced(op.getH(),
              {n->getResult(0), Placement::LocalRows, gate->permute});
    return success();
  }

  LogicalResult visit(CombineOp op) {
    FailureOr<Placed> y = get(op, op.getY(), "y",
                              {Placement::LocalRows, Placement::PermutedRows});
    FailureOr<Placed> rows =
        failed(y) ? FailureOr<Placed>(failure())
                  : get(op, op.getRows(), "rows", {Placement::Tokens});
    if (failed(rows) ||
        failed(get(op, op.getWeights(), "weights", {Placement::Tokens})))
      return failure();
    auto permute = cast<PermuteOp>(y->permute);
    if (op.getRows() != permute.getRows())
      return op.emitOpError("moe-expert-parallel: rows do not come from the "
                            "moe.permute whose groups y follows");
    Value yRows = y->value;
    if (y->placement == Placement::LocalRows)
      yRows = undispatch(yRows, dispatch(permute, op.getLoc()), op.getLoc());
    Operation *n = rebuild(
        op, {withRows(op.getOut().getType(), rowsOf(rows->value))},
        [&](Value old) -> Value { return old == op.getY() ? yRows : Value(); });
    setPlaced(op.getOut(), {n->getResult(0), Placement::Tokens});
    return success();
  }

  LogicalResult visit(AuxLossOp op) {
    FailureOr<Placed> scores =
        get(op, op.getScores(), "scores", {Placement::Tokens});
    if (failed(scores) ||
        failed(get(op, op.getIndices(), "indices", {Placement::Tokens})))
      return failure();
    int64_t tokens = rowsOf(op.getScores());
    int64_t localTokens = rowsOf(scores->value);
    bool global = false;
    switch (op.getVariant()) {
    case AuxLossVariant::Batch:
      global = true;
      break;
    case AuxLossVariant::Sequence: {
      int64_t seqLength = static_cast<int64_t>(*op.getSeqLength());
      if (localTokens % seqLength == 0)
        break;
      if (seqLength == tokens) {
        global = true;
        break;
      }
      bool oneAxis = axes.tokenAxes.size() == 1;
      return op.emitOpError("moe-expert-parallel: seq_length = ")
             << seqLength << " neither divides T/" << (oneAxis ? "P" : "D")
             << " = " << localTokens << " (T = " << tokens << ", "
             << tokenShardsText() << ") nor equals T: a sequence would span "
             << "ranks";
    }
    case AuxLossVariant::Global:
      return op.emitOpError("moe-expert-parallel: aux-loss variant global "
                            "is already per rank; partition a batch or "
                            "sequence loss instead");
    }
    auto loss = cast<AuxLossOp>(rebuild(op, {op.getLoss().getType()}));
    if (global) {
      // This rank's share of the batch loss over all T tokens.
      loss.setVariant(AuxLossVariant::Global);
      loss.setSeqLengthAttr(nullptr);
      loss.setGridAttr(grid);
      loss.setGridAxesAttr(builder.getDenseI64ArrayAttr(axes.tokenAxes));
    } else {
      // The mean over this rank's sequences, 1/D of the mean over all.
      loss.setCoeffAttr(
          builder.getF64FloatAttr(op.getCoeff().convertToDouble() /
                                  static_cast<double>(axes.tokenShards)));
    }
    setPlaced(op.getLoss(),
              {allReduce(loss.getLoss(), op.getLoc()), Placement::Replicated});
    return success();
  }

  LogicalResult visit(ZLossOp op) {
    if (failed(get(op, op.getLogits(), "logits", {Placement::Tokens})))
      return failure();
    // coeff/D · mean over T/D tokens is this rank's share of the mean over T.
    auto loss = cast<ZLossOp>(rebuild(op, {op.getLoss().getType()}));
    loss.setCoeffAttr(
        builder.getF64FloatAttr(op.getCoeff().convertToDouble() /
                                static_cast<double>(axes.tokenShards)));
    setPlaced(op.getLoss(),
              {allReduce(loss.getLoss(), op.getLoc()), Placement::Replicated});
    return success();
  }

  LogicalResult visit(ExpertBiasUpdateOp op) {
    FailureOr<Placed> counts = get(op, op.getCounts(), "counts",
                                   {Placement::Counts, Placement::Replicated});
    if (failed(counts) || failed(checkSummableCounts(op, *counts, "counts")) ||
        failed(get(op, op.getBias(), "bias", {Placement::Replicated})))
      return failure();
    // The update needs every rank's tokens: the counts summed over ranks.
    Value global = counts->placement == Placement::Counts
                       ? allReduce(counts->value, op.getLoc())
                       : counts->value;
    Operation *n =
        rebuild(op, {op.getUpdatedBias().getType()}, [&](Value old) -> Value {
          return old == op.getCounts() ? global : Value();
        });
    setPlaced(op.getUpdatedBias(), {n->getResult(0), Placement::Replicated});
    return success();
  }

  LogicalResult visit(arith::ConstantOp op) {
    Operation *n = builder.clone(*op);
    setPlaced(op.getResult(), {n->getResult(0), Placement::Replicated});
    return success();
  }

  /// arith and math ops applied element by element to tensors.
  static bool isElementwise(Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    return (dialect == "arith" || dialect == "math") &&
           op->hasTrait<OpTrait::Elementwise>() && op->getNumOperands() > 0 &&
           llvm::all_of(op->getOperandTypes(), llvm::IsaPred<RankedTensorType>);
  }

  /// Element-wise ops commute with slicing and reordering rows: the result
  /// has its operands' placement, provided they all share it (counts are
  /// not, as a sum over ranks is not preserved by non-linear ops).
  LogicalResult visitElementwise(Operation *op) {
    std::optional<Placed> first;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      FailureOr<Placed> p =
          get(op, operand, "operand " + std::to_string(i),
              {Placement::Replicated, Placement::Tokens, Placement::Experts,
               Placement::PermutedRows, Placement::LocalRows});
      if (failed(p))
        return failure();
      if (first &&
          (p->placement != first->placement || p->permute != first->permute))
        return op->emitOpError("moe-expert-parallel: operand ")
               << i << " is " << describe(p->placement) << " but operand 0 is "
               << describe(first->placement);
      if (!first)
        first = *p;
    }
    Operation *n = builder.clone(*op, mapping);
    auto shape = cast<RankedTensorType>(first->value.getType()).getShape();
    for (auto [old, result] : llvm::zip(op->getResults(), n->getResults())) {
      result.setType(cast<RankedTensorType>(old.getType()).clone(shape));
      setPlaced(old, {result, first->placement, first->permute});
    }
    return success();
  }

  func::FuncOp func;
  FlatSymbolRefAttr grid;
  int64_t axis;
  int64_t ranks;
  const GridAxes &axes;
  OpBuilder builder;
  DenseMap<Value, Placed> placed;
  /// Old values to new ones, for the regions of cloned ops.
  IRMapping mapping;
  DenseMap<Operation *, Dispatch> dispatches;
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct MoeExpertParallelPass
    : mlir::moe::impl::MoeExpertParallelPassBase<MoeExpertParallelPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<GridAxes> axes = prepareGrid(getOperation());
    if (failed(axes))
      return signalPassFailure();
    SmallVector<func::FuncOp> funcs;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic())
        funcs.push_back(func);
    for (func::FuncOp func : funcs) {
      if (failed(requireStraightLineBody(func, "moe-expert-parallel")))
        return signalPassFailure();
      // Names first: the entry names come from moe.layer's operands.
      annotateEntryNames(func);
      if (failed(expandLayers(func)) || failed(Partitioner(func, *axes).run()))
        return signalPassFailure();
    }
  }

  LogicalResult expandLayers(func::FuncOp func) {
    RewritePatternSet patterns(func.getContext());
    populateExpandLayerPatterns(patterns);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(func, std::move(patterns), config)))
      return func.emitError("moe-expert-parallel: could not expand moe.layer");
    return success();
  }

  /// Finds or creates the grid and checks the axes the options name.
  FailureOr<GridAxes> prepareGrid(ModuleOp module) {
    if (axis < 0)
      return module.emitError("moe-expert-parallel: axis = ")
             << static_cast<int64_t>(axis) << " must be at least 0";
    if (ranks < 0)
      return module.emitError("moe-expert-parallel: ranks = ")
             << static_cast<int64_t>(ranks)
             << " must be at least 1 (or 0: the grid's axis size)";
    FailureOr<Operation *> symbol = findOrCreateShapedGrid(module);
    if (failed(symbol))
      return failure();
    if (!*symbol)
      return createOneAxisGrid(module);
    auto gridOp = dyn_cast<shard::GridOp>(*symbol);
    if (!gridOp)
      return (*symbol)->emitError("moe-expert-parallel: @")
             << grid << " is a " << (*symbol)->getName()
             << ", not a shard.grid";
    return axesOf(gridOp);
  }

private:
  /// The module's symbol named by the grid option, created as a shard.grid
  /// of grid-shape where that is given and the symbol is missing; null when
  /// it is missing and no grid-shape is given.
  FailureOr<Operation *> findOrCreateShapedGrid(ModuleOp module) {
    Operation *symbol = SymbolTable::lookupSymbolIn(module, grid);
    if (gridShape.empty())
      return symbol;
    if (symbol) {
      auto existing = dyn_cast<shard::GridOp>(symbol);
      if (!existing || existing.getShape() != ArrayRef<int64_t>(gridShape))
        return symbol->emitError("moe-expert-parallel: grid-shape is the "
                                 "shape of a grid the pass creates, but @")
               << grid << " exists";
      return symbol;
    }
    for (int64_t size : gridShape)
      if (size < 1)
        return module.emitError("moe-expert-parallel: grid-shape size ")
               << size << " must be at least 1";
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    return shard::GridOp::create(b, module.getLoc(), grid,
                                 ArrayRef<int64_t>(gridShape))
        .getOperation();
  }

  /// No grid and no grid-shape: a 1-D grid of `ranks`, expert and token
  /// shards on its one axis.
  FailureOr<GridAxes> createOneAxisGrid(ModuleOp module) {
    if (ranks == 0)
      return module.emitError("moe-expert-parallel: the module has no "
                              "shard.grid @")
             << grid << "; give ranks=P (or grid-shape) to create one";
    if (!dataAxes.empty())
      return module.emitError("moe-expert-parallel: data-axes needs a "
                              "shard.grid @")
             << grid << " of several axes: declare one in the module or "
             << "give grid-shape";
    if (axis != 0)
      return module.emitError("moe-expert-parallel: grid axis ")
             << static_cast<int64_t>(axis)
             << " does not exist in the 1-D shard.grid @" << grid
             << " the pass creates";
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    shard::GridOp::create(b, module.getLoc(), grid,
                          ArrayRef<int64_t>{static_cast<int64_t>(ranks)});
    GridAxes axes = newAxes(module.getContext());
    axes.ranks = axes.tokenShards = ranks;
    axes.tokenAxes = {0};
    return axes;
  }

  /// The expert-parallel axis and the data axes of `gridOp`, checked.
  FailureOr<GridAxes> axesOf(shard::GridOp gridOp) {
    ArrayRef<int64_t> shape = gridOp.getShape();
    auto checkAxis = [&](int64_t a, StringRef what) -> LogicalResult {
      if (a < 0 || a >= static_cast<int64_t>(shape.size()))
        return gridOp.emitError("moe-expert-parallel: ")
               << what << " " << a << " does not exist in shard.grid @" << grid
               << " of rank " << shape.size();
      if (ShapedType::isDynamic(shape[a]))
        return gridOp.emitError("moe-expert-parallel: axis ")
               << a << " of shard.grid @" << grid
               << " has a dynamic size; the pass needs static rank counts";
      return success();
    };
    if (failed(checkAxis(axis, "grid axis")))
      return failure();
    int64_t size = shape[axis];
    if (ranks != 0 && ranks != size)
      return gridOp.emitError("moe-expert-parallel: ranks = ")
             << static_cast<int64_t>(ranks) << " but axis "
             << static_cast<int64_t>(axis) << " of shard.grid @" << grid
             << " has " << size << " ranks";
    GridAxes axes = newAxes(gridOp.getContext());
    axes.ranks = size;
    axes.tokenAxes = {axis};
    for (int64_t a : dataAxes) {
      if (failed(checkAxis(a, "data axis")))
        return failure();
      if (llvm::is_contained(axes.tokenAxes, a))
        return gridOp.emitError("moe-expert-parallel: data axis ")
               << a << " is "
               << (a == axis ? "the expert-parallel axis" : "named twice");
      axes.tokenAxes.push_back(a);
    }
    llvm::sort(axes.tokenAxes);
    for (int64_t a : axes.tokenAxes)
      axes.tokenShards *= shape[a];
    axes.nameAxes = shape.size() > 1;
    return axes;
  }

  GridAxes newAxes(MLIRContext *ctx) {
    GridAxes axes;
    axes.grid = FlatSymbolRefAttr::get(ctx, grid);
    axes.axis = axis;
    return axes;
  }
};
} // namespace
