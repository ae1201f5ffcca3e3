//===- FP8Placement.cpp - moe-fp8-placement: FP8 expert GEMMs -------------===//
//
// Rewrites the expert GEMMs of each function (forward and dgrad
// moe.grouped_matmul, wgrad moe.grouped_weight_grad) to consume
// moe.quantize'd operands. Quantizations of the same value with the same
// recipe and format are shared (fc1's gate and up GEMMs read one quantized
// activation). Passes.td describes the recipes and options.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Dialect/Utils/OpMath.h"
#include "MoeDialect/Transforms/EntryNames.h"
#include "MoeDialect/Transforms/Passes.h"
#include "MoeDialect/Transforms/StraightLineBody.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::moe {
#define GEN_PASS_DEF_MOEFP8PLACEMENTPASS
#include "MoeDialect/Transforms/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;

namespace {

enum class Recipe { Tensorwise, Delayed, Blockwise, MXFP8 };
enum class Layer { Fc1, Fc2 };
enum class Kind { Forward, Dgrad, Wgrad };

StringRef layerName(Layer l) { return l == Layer::Fc1 ? "fc1" : "fc2"; }
StringRef kindName(Kind k) {
  switch (k) {
  case Kind::Forward:
    return "fwd";
  case Kind::Dgrad:
    return "dgrad";
  case Kind::Wgrad:
    return "wgrad";
  }
  llvm_unreachable("kind");
}

/// The parsed options.
struct Config {
  Recipe recipe = Recipe::Tensorwise;
  Type forwardType; ///< f8E4M3FN
  Type gradType;    ///< f8E5M2 or f8E4M3FN
  bool layers[2] = {false, false};
  bool kinds[3] = {false, false, false};
  bool beforeAllToAll = false;
  bool beforePermute = true;
  int64_t historyLength = 16;

  bool selected(Layer l, Kind k) const {
    return layers[int(l)] && kinds[int(k)];
  }
  /// The moe.quantize recipe of an activation or gradient (blocks along the
  /// last dimension) and of a weight.
  QuantRecipe rowRecipe() const {
    switch (recipe) {
    case Recipe::Tensorwise:
      return QuantRecipe::Tensorwise;
    case Recipe::Delayed:
      return QuantRecipe::Delayed;
    case Recipe::Blockwise:
      return QuantRecipe::Block1x128;
    case Recipe::MXFP8:
      return QuantRecipe::MX1x32;
    }
    llvm_unreachable("recipe");
  }
  QuantRecipe weightRecipe() const {
    return recipe == Recipe::Blockwise ? QuantRecipe::Block128x128
                                       : rowRecipe();
  }
};

struct Quantized {
  Value data, scale;
};

/// The FP8 placement of one function.
class FunctionPlacer {
public:
  FunctionPlacer(func::FuncOp func, const Config &config)
      : func(func), config(config),
        isBackward(func.getSymName().ends_with("_bwd")) {}

  LogicalResult run();

  /// A residual of `@f_fwd` now returned as FP8 data and its scale.
  struct FP8Residual {
    std::string name;
    Type dataType, scaleType;
  };
  /// Saves residuals in FP8 (call before run() on an `@f_fwd`): every
  /// residual result that a placed forward GEMM quantizes is returned
  /// quantized, followed by its scale (`<name>_scale`).
  void saveFP8Residuals() { fp8Residuals.emplace(); }
  ArrayRef<FP8Residual> getFP8Residuals() const { return *fp8Residuals; }
  /// Declares `q` the quantization of `value` (an FP8 residual of
  /// `@f_bwd`, dequantized): GEMMs that would quantize `value` the same way
  /// use `q` instead.
  void seed(Value value, Quantized q) {
    cache[std::make_tuple(value, unsigned(config.rowRecipe()),
                          config.forwardType)] = q;
  }

  /// An expert weight of `@f_fwd` returned in FP8 for `@f_bwd`, whose
  /// dgrad GEMM would quantize the same weight the same way.
  struct FP8Weight {
    std::string weightName;
    Type dataType, scaleType;
  };
  /// Returns the FP8 weights of the forward GEMMs (call before run() on an
  /// `@f_fwd`) whose weight argument `@f_bwd` also takes (`bwdArguments`)
  /// and quantizes for a placed dgrad: `<name>_fp8` and `<name>_fp8_scale`,
  /// role residual. Only recipes whose weight quantization depends on the
  /// weight alone (tensorwise, blockwise) share it.
  void saveFP8Weights(llvm::StringSet<> bwdArguments) {
    if (config.recipe == Recipe::Tensorwise ||
        config.recipe == Recipe::Blockwise)
      fp8Weights.emplace(FP8Weights{std::move(bwdArguments), {}, {}});
  }
  ArrayRef<FP8Weight> getFP8Weights() const {
    return fp8Weights ? ArrayRef<FP8Weight>(fp8Weights->saved)
                      : ArrayRef<FP8Weight>();
  }
  /// Declares `q` the weight quantization of `weight` (an argument of
  /// `@f_bwd`): its dgrad GEMMs read `q` instead of quantizing again.
  void seedWeight(Value weight, Quantized q) {
    cache[std::make_tuple(weight, unsigned(config.weightRecipe()),
                          config.forwardType)] = q;
  }

private:
  FailureOr<Layer> layerOfWeight(Operation *gemm, Value weight);
  FailureOr<Layer> layerOfWeightGrad(GroupedWeightGradOp op);
  LogicalResult placeMatmul(GroupedMatmulOp op, Layer layer, Kind kind);
  LogicalResult placeWeightGrad(GroupedWeightGradOp op, Layer layer);

  /// Quantizes `value` (blocks along its last dimension) into `fp8`; shared
  /// between GEMMs. `tag` names the amax history of recipe delayed.
  Quantized quantize(OpBuilder &b, Location loc, Value value, QuantRecipe r,
                     Type fp8, StringRef tag);
  /// As `quantize`, but above the moe.permute / moe.all_to_all chain that
  /// produced `value`, moving the FP8 rows and their scales through it.
  FailureOr<Quantized> quantizeAboveRowMovement(Operation *user, Value value,
                                                Type fp8, StringRef tag);
  Value dequantize(OpBuilder &b, Location loc, Quantized q, QuantRecipe r,
                   Type elem);
  /// A wgrad operand `value` [R, C] (or, `rowsLast`, already [C, R]) as
  /// FP8 [C, R], the rows contiguous, with the scales the transposed_operands
  /// form of moe.grouped_weight_grad takes: blockwise quantizes the
  /// transposed value in 1×128 blocks ([C, R/128] scales); tensorwise and
  /// delayed transpose the value's row quantization (one scale, whatever
  /// the layout: shared with the dgrad and the FP8 residuals).
  Quantized quantizeColumns(OpBuilder &b, Location loc, Value value,
                            bool rowsLast, Type fp8, StringRef tag);
  /// mxfp8: q/dq of `value` [R, C] in 32×1 blocks along the rows, back in
  /// f32 [R, C]: the row-contracted operand of a wgrad.
  Value fakeQuantizeColumns(OpBuilder &b, Location loc, Value value, Type fp8,
                            StringRef tag);
  Value transpose(OpBuilder &b, Location loc, Value value,
                  ArrayRef<int64_t> perm);
  /// `value` [R, C] transposed to [C, R], once per value.
  Value transposeRows(OpBuilder &b, Location loc, Value value);
  Value addAmaxHistory(StringRef tag, Location loc);
  void returnResidualsInFP8();
  void returnWeightsInFP8();
  std::string uniqueTag(const Twine &tag);

  func::FuncOp func;
  const Config &config;
  bool isBackward;
  llvm::DenseMap<std::tuple<Value, unsigned, Type>, Quantized> cache;
  /// Dequantizations by FP8 data and element type (a wgrad operand that
  /// another wgrad dequantized already).
  llvm::DenseMap<std::pair<Value, Type>, Value> dequantizations;
  /// [C, R] transposes of wgrad operands (fc1's x, read by the gate and up
  /// wgrads, is transposed once).
  llvm::DenseMap<Value, Value> rowTransposes;
  llvm::StringSet<> tags;
  SmallVector<Operation *> movedRowOps;
  /// Histories that recipe delayed rolls: returned as new results.
  SmallVector<std::pair<Value, std::string>> newHistories;
  std::optional<SmallVector<FP8Residual>> fp8Residuals;
  struct FP8Weights {
    llvm::StringSet<> bwdArguments;
    /// Weight arguments a placed forward GEMM quantized, in order.
    llvm::SetVector<Value> quantized;
    SmallVector<FP8Weight> saved;
  };
  std::optional<FP8Weights> fp8Weights;
};

/// The `moe.name` of `value` when it is an argument of `func`.
StringRef argumentName(func::FuncOp func, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &func.getBody().front())
    return {};
  auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), kNameAttr);
  return name ? name.getValue() : StringRef();
}

std::optional<Layer> layerOfName(StringRef name) {
  name.consume_front("d_");
  if (name == "w_down")
    return Layer::Fc2;
  if (name == "w_gate" || name == "w_up" || name == "w_gate_up")
    return Layer::Fc1;
  return std::nullopt;
}

FailureOr<Layer> FunctionPlacer::layerOfWeight(Operation *gemm, Value weight) {
  if (auto layer = layerOfName(argumentName(func, weight)))
    return *layer;
  if (auto mm = dyn_cast<GroupedMatmulOp>(gemm); mm && !isBackward) {
    if (mm.getA().getDefiningOp<GluOp>())
      return Layer::Fc2;
    for (Operation *user : mm->getResult(0).getUsers())
      if (isa<GluOp>(user))
        return Layer::Fc1;
  }
  return gemm->emitOpError(
      "moe-fp8-placement cannot tell whether this GEMM is fc1 or fc2: its "
      "weight is not a function argument named w_gate, w_up or w_down "
      "(moe.name) and the GEMM is not next to a moe.glu");
}

FailureOr<Layer> FunctionPlacer::layerOfWeightGrad(GroupedWeightGradOp op) {
  // Follow the gradient to the return (through casts or layout ops).
  SmallVector<Value> work{op.getDb()};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<func::ReturnOp>(user)) {
        auto name = func.getResultAttrOfType<StringAttr>(use.getOperandNumber(),
                                                         kNameAttr);
        if (name)
          if (auto layer = layerOfName(name.getValue()))
            return *layer;
        continue;
      }
      llvm::append_range(work, user->getResults());
    }
  }
  return op.emitOpError(
      "moe-fp8-placement cannot tell whether this wgrad is fc1's or fc2's: "
      "its gradient reaches no result named d_w_gate, d_w_up or d_w_down "
      "(moe.name)");
}

std::string FunctionPlacer::uniqueTag(const Twine &tag) {
  std::string base = tag.str(), name = base;
  for (int i = 1; tags.contains(name); ++i)
    name = base + "_" + std::to_string(i);
  tags.insert(name);
  return name;
}

Value FunctionPlacer::addAmaxHistory(StringRef tag, Location loc) {
  MLIRContext *ctx = func.getContext();
  std::string name = uniqueTag("amax_" + tag);
  auto type =
      RankedTensorType::get({config.historyLength}, Float32Type::get(ctx));
  unsigned index = func.getNumArguments();
  DictionaryAttr attrs = nameAndRole(ctx, name, "input");
  (void)func.insertArgument(index, type, attrs, loc);
  return func.getArgument(index);
}

Quantized FunctionPlacer::quantize(OpBuilder &b, Location loc, Value value,
                                   QuantRecipe r, Type fp8, StringRef tag) {
  auto key = std::make_tuple(value, unsigned(r), fp8);
  if (auto it = cache.find(key); it != cache.end())
    return it->second;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> scaleShape;
  if (auto block = opmath::quantBlockShape(r)) {
    scaleShape.assign(type.getShape().begin(), type.getShape().end());
    int64_t rank = type.getRank();
    scaleShape[rank - 2] = llvm::divideCeil(scaleShape[rank - 2], block->rows);
    scaleShape[rank - 1] = llvm::divideCeil(scaleShape[rank - 1], block->cols);
  }
  Type scaleElem = opmath::quantScaleElementType(r, b.getContext());
  SmallVector<Value> outs{
      tensor::EmptyOp::create(b, loc, type.getShape(), fp8),
      tensor::EmptyOp::create(b, loc, scaleShape, scaleElem)};
  if (r == QuantRecipe::Delayed)
    outs.push_back(addAmaxHistory(tag, loc));
  auto op = QuantizeOp::create(b, loc, r, value, outs);
  if (r == QuantRecipe::Delayed)
    newHistories.push_back({op.getNewAmaxHistory(),
                            "new_" + argumentName(func, outs.back()).str()});
  Quantized q{op->getResult(0), op->getResult(1)};
  cache[key] = q;
  return q;
}

Value FunctionPlacer::dequantize(OpBuilder &b, Location loc, Quantized q,
                                 QuantRecipe r, Type elem) {
  Value &dequantized = dequantizations[{q.data, elem}];
  if (dequantized)
    return dequantized;
  auto type = cast<RankedTensorType>(q.data.getType());
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), elem);
  dequantized =
      DequantizeOp::create(b, loc, r, q.data, q.scale, ValueRange{init})
          ->getResult(0);
  return dequantized;
}

Value FunctionPlacer::transpose(OpBuilder &b, Location loc, Value value,
                                ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t d : perm)
    shape.push_back(type.getDimSize(d));
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, perm)->getResult(0);
}

FailureOr<Quantized> FunctionPlacer::quantizeAboveRowMovement(Operation *user,
                                                              Value value,
                                                              Type fp8,
                                                              StringRef tag) {
  QuantRecipe r = config.rowRecipe();
  Operation *mover = value.getDefiningOp();
  bool isPermute =
      isa_and_nonnull<PermuteOp>(mover) && value == mover->getResult(0);
  bool isAllToAll =
      isa_and_nonnull<AllToAllOp>(mover) && value == mover->getResult(0);
  // moe-expert-parallel's local reorder of what arrived: rows only.
  bool isSortChunks =
      isa_and_nonnull<SortChunksOp>(mover) && value == mover->getResult(0);
  if (!isPermute && !isAllToAll && !isSortChunks) {
    OpBuilder b(user);
    return quantize(b, user->getLoc(), value, r, fp8, tag);
  }
  if (config.recipe == Recipe::MXFP8)
    return mover->emitOpError(
        "quantize-before-all-to-all: the e8m0 scales of recipe mxfp8 "
        "cannot move through this op (it moves bf16/f16/f32 or FP8 "
        "rows); place without the option");
  bool rowScales = config.recipe == Recipe::Blockwise;
  if (isAllToAll && !rowScales)
    return mover->emitOpError("quantize-before-all-to-all: recipe ")
           << (config.recipe == Recipe::Delayed ? "delayed" : "tensorwise")
           << " has one scale per tensor, and each rank would send rows "
              "under its own: use recipe blockwise, whose row scales travel "
              "with the rows";
  auto key = std::make_tuple(value, unsigned(r), fp8);
  if (auto it = cache.find(key); it != cache.end())
    return it->second;

  Value input = isPermute      ? cast<PermuteOp>(mover).getX()
                : isSortChunks ? cast<SortChunksOp>(mover).getX()
                               : cast<AllToAllOp>(mover).getInput();
  // quantize-before-permute alone moves the quantize above the permute only.
  FailureOr<Quantized> above;
  if (config.beforeAllToAll) {
    above = quantizeAboveRowMovement(mover, input, fp8, tag);
  } else {
    OpBuilder atMover(mover);
    above = quantize(atMover, mover->getLoc(), input, r, fp8, tag);
  }
  if (failed(above))
    return failure();
  OpBuilder b(mover);
  Location loc = mover->getLoc();
  auto moveRows = [&](Value rows) -> Value {
    auto rowsType = cast<RankedTensorType>(rows.getType());
    if (auto permute = dyn_cast<PermuteOp>(mover))
      return PermuteOp::create(
                 b, loc, rows, permute.getIndices(),
                 permute.getNumExpertsAttr(), permute.getAlignAttr(),
                 /*rows=*/permute.getPermuted().getType().getDimSize(0))
          ->getResult(0);
    if (auto sort = dyn_cast<SortChunksOp>(mover)) {
      int64_t numSizes =
          cast<RankedTensorType>(sort->getResult(1).getType()).getDimSize(0);
      return SortChunksOp::create(b, loc, rows, sort.getCounts(), numSizes,
                                  sort.getInverse())
          ->getResult(0);
    }
    auto exchange = cast<AllToAllOp>(mover);
    auto outType = cast<RankedTensorType>(exchange.getOutput().getType());
    SmallVector<Value> outs{
        tensor::EmptyOp::create(b, loc,
                                {outType.getDimSize(0), rowsType.getDimSize(1)},
                                rowsType.getElementType()),
        tensor::EmptyOp::create(
            b, loc,
            cast<RankedTensorType>(exchange.getRecvSizes().getType())
                .getShape(),
            b.getI32Type())};
    return AllToAllOp::create(
               b, loc, TypeRange{outs[0].getType(), outs[1].getType()}, rows,
               exchange.getSendSizes(), exchange.getGridAttr(),
               exchange.getGridAxisAttr(), outs)
        ->getResult(0);
  };
  Quantized moved{moveRows(above->data), above->scale};
  if (rowScales && isPermute) {
    // The scales go to the rows the data's permute chose: no second count.
    Value movedRows = moved.data.getDefiningOp<PermuteOp>().getRows();
    moved.scale = PermuteRowsOp::create(b, loc, above->scale, movedRows,
                                        tensor::getMixedSize(b, loc,
                                                             moved.data, 0))
                      .getPermuted();
  } else if (rowScales) {
    moved.scale = moveRows(above->scale);
  }
  movedRowOps.push_back(mover);
  cache[key] = moved;
  return moved;
}

Value FunctionPlacer::transposeRows(OpBuilder &b, Location loc, Value value) {
  Value &transposed = rowTransposes[value];
  if (!transposed)
    transposed = transpose(b, loc, value, {1, 0});
  return transposed;
}

Quantized FunctionPlacer::quantizeColumns(OpBuilder &b, Location loc,
                                          Value value, bool rowsLast, Type fp8,
                                          StringRef tag) {
  QuantRecipe r = config.rowRecipe();
  if (opmath::quantBlockShape(r)) {
    Value columns = rowsLast ? value : transposeRows(b, loc, value);
    return quantize(b, loc, columns, r, fp8, tag);
  }
  Quantized q = quantize(b, loc, value, r, fp8, tag);
  if (!rowsLast)
    q.data = transposeRows(b, loc, q.data);
  return q;
}

Value FunctionPlacer::fakeQuantizeColumns(OpBuilder &b, Location loc,
                                          Value value, Type fp8,
                                          StringRef tag) {
  Type f32 = b.getF32Type();
  QuantRecipe r = config.rowRecipe();
  Quantized q = quantize(b, loc, transposeRows(b, loc, value), r, fp8, tag);
  return transposeRows(b, loc, dequantize(b, loc, q, r, f32));
}

std::string dimStr(int64_t dim) {
  return ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
}

/// Whether `dim` is a static multiple of `block`.
bool isMultipleOf(int64_t dim, int64_t block) {
  return !ShapedType::isDynamic(dim) && dim % block == 0;
}

LogicalResult FunctionPlacer::placeMatmul(GroupedMatmulOp op, Layer layer,
                                          Kind kind) {
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  bool kn = op.getWeightLayout() == WeightLayout::KN;
  int64_t kd = aType.getDimSize(1);
  std::string gemm = (layerName(layer) + " " + kindName(kind)).str();
  if (op.getBUp())
    return op.emitOpError("moe-fp8-placement: the ")
           << gemm << " GEMM pairs gate and up weights ('up_weight', made by "
              "moe-fuse); place FP8 before fusing";
  if (config.recipe == Recipe::Blockwise && !isMultipleOf(kd, 128))
    return op.emitOpError("moe-fp8-placement recipe blockwise: the ")
           << gemm << " GEMM contracts over Kd = " << dimStr(kd)
           << ", not a multiple of 128 (1×128 activation blocks, 128×128 "
              "weight blocks)";

  Location loc = op.getLoc();
  StringRef weightName = argumentName(func, op.getB());
  // The forward's x is shared by fc1's GEMMs; a dgrad's gradient is its own
  // (named after the weight).
  std::string tagA = (layerName(layer) + "_" + kindName(kind) +
                      (kind == Kind::Forward ? "_x"
                       : weightName.empty()  ? "_dy"
                                             : "_dy_" + weightName.str()))
                         .str();
  std::string tagB = (layerName(layer) + "_" + kindName(kind) + "_" +
                      (weightName.empty() ? StringRef("w") : weightName))
                         .str();
  Type aFp8 = kind == Kind::Forward ? config.forwardType : config.gradType;

  // 1×128 blocks lie within rows, so quantizing the tokens before the
  // permute copies them gives the same FP8 rows and scales: the permute then
  // moves FP8 rows and the bf16 ones are never written.
  // Only where forward GEMMs and FP8 residuals (returnResidualsInFP8) alone
  // read the permuted rows: a bf16 reader (a bf16 residual with
  // fp8-residuals=false) would keep the bf16 permute too.
  bool aboveRowMovement =
      kind == Kind::Forward &&
      (config.beforeAllToAll ||
       (config.beforePermute && config.recipe == Recipe::Blockwise &&
        isa_and_nonnull<PermuteOp>(op.getA().getDefiningOp()) &&
        llvm::all_of(op.getA().getUsers(), [&](Operation *user) {
          return isa<GroupedMatmulOp>(user) ||
                 (fp8Residuals && isa<func::ReturnOp>(user));
        })));
  FailureOr<Quantized> qa =
      aboveRowMovement
          ? quantizeAboveRowMovement(op, op.getA(), aFp8, tagA)
          : FailureOr<Quantized>(Quantized{});
  if (failed(qa))
    return failure();
  OpBuilder b(op);
  if (!qa->data)
    qa = quantize(b, loc, op.getA(), config.rowRecipe(), aFp8, tagA);

  Value a, weights, aScale, bScale;
  WeightLayout layout = op.getWeightLayout();
  if (config.recipe == Recipe::MXFP8) {
    // MX blocks run along the contraction dimension: the last one of an nk
    // weight; a kn weight is transposed to nk.
    Value w = op.getB();
    if (kn) {
      w = transpose(b, loc, w, {0, 2, 1});
      layout = WeightLayout::NK;
    }
    QuantRecipe r = config.rowRecipe();
    Type elem = aType.getElementType();
    a = dequantize(b, loc, *qa, r, elem);
    weights =
        dequantize(b, loc, quantize(b, loc, w, r, config.forwardType, tagB), r,
                   bType.getElementType());
  } else {
    Quantized qb = quantize(b, loc, op.getB(), config.weightRecipe(),
                            config.forwardType, tagB);
    if (fp8Weights && kind == Kind::Forward &&
        config.selected(layer, Kind::Dgrad) &&
        fp8Weights->bwdArguments.contains(weightName))
      fp8Weights->quantized.insert(op.getB());
    a = qa->data;
    aScale = qa->scale;
    weights = qb.data;
    bScale = qb.scale;
  }
  auto placed = GroupedMatmulOp::create(
      b, loc, op->getResultTypes(), a, weights, /*b_up=*/Value(),
      op.getGroupSizes(), aScale,
      bScale, op.getRowScale(), op.getEpilogueInputs(),
      WeightLayoutAttr::get(b.getContext(), layout), op.getAccumulateAttr(),
      op.getOuts());
  placed->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  placed.getEpilogue().takeBody(op.getEpilogue());
  op->replaceAllUsesWith(placed);
  op->erase();
  return success();
}

LogicalResult FunctionPlacer::placeWeightGrad(GroupedWeightGradOp op,
                                              Layer layer) {
  bool rowsLast = op.getTransposedOperands();
  auto aType = cast<RankedTensorType>(op.getA().getType());
  int64_t rows = aType.getDimSize(rowsLast ? 1 : 0);
  std::string gemm = (layerName(layer) + " wgrad").str();
  if (config.recipe == Recipe::Blockwise && !isMultipleOf(rows, 128))
    return op.emitOpError("moe-fp8-placement recipe blockwise: the ")
           << gemm << " GEMM contracts over R = " << dimStr(rows)
           << " rows, not a multiple of 128 (its operands are quantized in "
              "128×1 blocks along the rows)";
  OpBuilder b(op);
  Location loc = op.getLoc();
  std::string prefix = (layerName(layer) + "_wgrad_").str();
  GroupedWeightGradOp placed;
  if (config.recipe == Recipe::MXFP8) {
    // No MX form of the weight gradient: it runs on the dequantized values.
    if (rowsLast)
      return op.emitOpError("moe-fp8-placement recipe mxfp8 places weight "
                            "gradients of [R, Kd] and [R, N] operands, not "
                            "transposed_operands");
    Value a = fakeQuantizeColumns(b, loc, op.getA(), config.forwardType,
                                  prefix + "x");
    Value dc =
        fakeQuantizeColumns(b, loc, op.getDc(), config.gradType, prefix + "dy");
    placed = GroupedWeightGradOp::create(
        b, loc, op->getResultTypes(), a, dc, op.getGroupSizes(),
        /*a_scale=*/Value(), /*dc_scale=*/Value(), op.getWeightLayoutAttr(),
        /*transposed_operands=*/UnitAttr(), op.getOuts());
  } else {
    Quantized a = quantizeColumns(b, loc, op.getA(), rowsLast,
                                  config.forwardType, prefix + "x");
    Quantized dc = quantizeColumns(b, loc, op.getDc(), rowsLast,
                                   config.gradType, prefix + "dy");
    placed = GroupedWeightGradOp::create(b, loc, op->getResultTypes(), a.data,
                                         dc.data, op.getGroupSizes(), a.scale,
                                         dc.scale, op.getWeightLayoutAttr(),
                                         b.getUnitAttr(), op.getOuts());
  }
  placed->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  op->replaceAllUsesWith(placed);
  op->erase();
  return success();
}

void FunctionPlacer::returnResidualsInFP8() {
  MLIRContext *ctx = func.getContext();
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (unsigned i = 0; i < ret.getNumOperands(); ++i) {
    auto role = func.getResultAttrOfType<StringAttr>(i, kRoleAttr);
    auto name = func.getResultAttrOfType<StringAttr>(i, kNameAttr);
    if (!role || role.getValue() != "residual" || !name)
      continue;
    auto key = std::make_tuple(ret.getOperand(i), unsigned(config.rowRecipe()),
                               config.forwardType);
    auto it = cache.find(key);
    if (it == cache.end())
      continue;
    Quantized q = it->second;
    std::string scaleName = name.getValue().str() + "_scale";
    ret->setOperand(i, q.data);
    DictionaryAttr attrs = nameAndRole(ctx, scaleName, "residual");
    (void)func.insertResult(i + 1, q.scale.getType(), attrs);
    ret->insertOperands(i + 1, q.scale);
    fp8Residuals->push_back(
        {name.getValue().str(), q.data.getType(), q.scale.getType()});
    ++i;
  }
  func.setType(
      FunctionType::get(ctx, func.getArgumentTypes(), ret.getOperandTypes()));
}

void FunctionPlacer::returnWeightsInFP8() {
  MLIRContext *ctx = func.getContext();
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (Value weight : fp8Weights->quantized) {
    Quantized q = cache.lookup(std::make_tuple(
        weight, unsigned(config.weightRecipe()), config.forwardType));
    std::string name = argumentName(func, weight).str();
    for (auto [value, suffix] :
         {std::pair(q.data, "_fp8"), std::pair(q.scale, "_fp8_scale")}) {
      unsigned index = ret.getNumOperands();
      DictionaryAttr attrs = nameAndRole(ctx, name + suffix, "residual");
      (void)func.insertResult(index, value.getType(), attrs);
      ret->insertOperands(index, value);
    }
    fp8Weights->saved.push_back({name, q.data.getType(), q.scale.getType()});
  }
  func.setType(
      FunctionType::get(ctx, func.getArgumentTypes(), ret.getOperandTypes()));
}

LogicalResult FunctionPlacer::run() {
  SmallVector<Operation *> gemms;
  func.walk([&](Operation *op) {
    if (auto mm = dyn_cast<GroupedMatmulOp>(op)) {
      if (!opmath::isFp8Type(
              cast<ShapedType>(mm.getA().getType()).getElementType()))
        gemms.push_back(op);
    } else if (auto wg = dyn_cast<GroupedWeightGradOp>(op)) {
      if (!opmath::isFp8Type(
              cast<ShapedType>(wg.getA().getType()).getElementType()))
        gemms.push_back(op);
    }
  });
  for (Operation *op : gemms) {
    if (!cast<DestinationStyleOpInterface>(op).hasPureTensorSemantics())
      return op->emitOpError("moe-fp8-placement runs on tensors, before "
                             "bufferization");
    if (auto mm = dyn_cast<GroupedMatmulOp>(op)) {
      FailureOr<Layer> layer = layerOfWeight(op, mm.getB());
      if (failed(layer))
        return failure();
      Kind kind = isBackward ? Kind::Dgrad : Kind::Forward;
      if (config.selected(*layer, kind) &&
          failed(placeMatmul(mm, *layer, kind)))
        return failure();
      continue;
    }
    auto wg = cast<GroupedWeightGradOp>(op);
    FailureOr<Layer> layer = layerOfWeightGrad(wg);
    if (failed(layer))
      return failure();
    if (config.selected(*layer, Kind::Wgrad) &&
        failed(placeWeightGrad(wg, *layer)))
      return failure();
  }

  if (fp8Residuals)
    returnResidualsInFP8();
  if (fp8Weights)
    returnWeightsInFP8();

  // A row movement whose bf16 rows no longer have a reader is replaced by
  // the FP8 one (for its other results: group sizes, rows, receive counts).
  for (Operation *mover : llvm::reverse(movedRowOps)) {
    if (!mover->getResult(0).use_empty())
      continue;
    auto key = std::make_tuple(
        mover->getResult(0), unsigned(config.rowRecipe()), config.forwardType);
    Value fp8Rows = cache.lookup(key).data;
    Operation *replacement = fp8Rows ? fp8Rows.getDefiningOp() : nullptr;
    if (!replacement)
      continue;
    for (unsigned i = 1; i < mover->getNumResults(); ++i)
      mover->getResult(i).replaceAllUsesWith(replacement->getResult(i));
    mover->erase();
  }

  if (!newHistories.empty()) {
    MLIRContext *ctx = func.getContext();
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    for (auto &[history, name] : newHistories) {
      unsigned index = func.getNumResults();
      DictionaryAttr attrs = nameAndRole(ctx, name, "output");
      (void)func.insertResult(index, history.getType(), attrs);
      ret->insertOperands(ret->getNumOperands(), history);
    }
  }
  return success();
}

struct MoeFP8Placement : moe::impl::MoeFP8PlacementPassBase<MoeFP8Placement> {
  using Base::Base;

  LogicalResult parseConfig(Config &config) {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto recipes = llvm::StringSwitch<std::optional<Recipe>>(recipe)
                       .Case("tensorwise", Recipe::Tensorwise)
                       .Case("delayed", Recipe::Delayed)
                       .Case("blockwise", Recipe::Blockwise)
                       .Case("mxfp8", Recipe::MXFP8)
                       .Default(std::nullopt);
    if (!recipes)
      return module.emitError("moe-fp8-placement: unknown recipe '")
             << recipe
             << "' (expected tensorwise, delayed, blockwise or "
                "mxfp8)";
    config.recipe = *recipes;
    config.forwardType = Float8E4M3FNType::get(ctx);
    if (gradFormat == "e5m2")
      config.gradType = Float8E5M2Type::get(ctx);
    else if (gradFormat == "e4m3")
      config.gradType = Float8E4M3FNType::get(ctx);
    else
      return module.emitError("moe-fp8-placement: unknown grad-format '")
             << gradFormat << "' (expected e5m2 or e4m3)";
    bool anyLayer = false, anyKind = false;
    for (StringRef name : gemms) {
      if (name == "fc1" || name == "fc2") {
        config.layers[name == "fc1" ? 0 : 1] = anyLayer = true;
        continue;
      }
      auto kind = llvm::StringSwitch<std::optional<Kind>>(name)
                      .Case("forward", Kind::Forward)
                      .Case("dgrad", Kind::Dgrad)
                      .Case("wgrad", Kind::Wgrad)
                      .Default(std::nullopt);
      if (!kind)
        return module.emitError("moe-fp8-placement: unknown GEMM '")
               << name
               << "' in gemms (expected fc1, fc2, forward, dgrad, "
                  "wgrad)";
      config.kinds[int(*kind)] = anyKind = true;
    }
    if (!anyLayer)
      config.layers[0] = config.layers[1] = true;
    if (!anyKind)
      config.kinds[0] = config.kinds[1] = config.kinds[2] = true;
    if (amaxHistoryLength < 1)
      return module.emitError("moe-fp8-placement: amax-history-length = ")
             << amaxHistoryLength.getValue() << " must be at least 1";
    config.historyLength = amaxHistoryLength;
    config.beforeAllToAll = quantizeBeforeAllToAll;
    config.beforePermute = quantizeBeforePermute;
    return success();
  }

  /// Takes the FP8 residuals of `@f_fwd` in `@f_bwd`: each such argument
  /// gets its FP8 type and a scale argument after it, and is dequantized at
  /// the top of the function for its readers. Returns the dequantized
  /// values with their quantization (to seed the placement of `@f_bwd`).
  FailureOr<SmallVector<std::pair<Value, Quantized>>>
  takeFP8Residuals(func::FuncOp bwd,
                   ArrayRef<FunctionPlacer::FP8Residual> residuals,
                   const Config &config) {
    MLIRContext *ctx = &getContext();
    SmallVector<std::pair<Value, Quantized>> seeds;
    Block &body = bwd.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    for (const FunctionPlacer::FP8Residual &residual : residuals) {
      std::optional<unsigned> index = argumentNamed(bwd, residual.name);
      if (!index)
        return bwd.emitOpError("moe-fp8-placement: the FP8 residual ")
               << residual.name << " of the forward is not an argument here";
      BlockArgument data = bwd.getArgument(*index);
      auto bf16Type = cast<RankedTensorType>(data.getType());
      data.setType(residual.dataType);
      DictionaryAttr attrs =
          nameAndRole(ctx, residual.name + "_scale", "residual");
      (void)bwd.insertArgument(*index + 1, residual.scaleType,
                               attrs, data.getLoc());
      BlockArgument scale = bwd.getArgument(*index + 1);
      Value init = tensor::EmptyOp::create(
          b, data.getLoc(), bf16Type.getShape(), bf16Type.getElementType());
      auto dequantized = DequantizeOp::create(
          b, data.getLoc(), config.rowRecipe(), data, scale, ValueRange{init});
      data.replaceAllUsesExcept(dequantized->getResult(0), dequantized);
      seeds.push_back({dequantized->getResult(0), Quantized{data, scale}});
    }
    bwd.setType(
        FunctionType::get(ctx, body.getArgumentTypes(), bwd.getResultTypes()));
    return seeds;
  }

  /// Takes the FP8 weights of `@f_fwd` in `@f_bwd`: two residual arguments
  /// `<name>_fp8`, `<name>_fp8_scale` after the last residual, declared the
  /// quantization of the weight argument `<name>` (to seed `@f_bwd`'s
  /// placement).
  SmallVector<std::pair<Value, Quantized>>
  takeFP8Weights(func::FuncOp bwd,
                 ArrayRef<FunctionPlacer::FP8Weight> weights) {
    MLIRContext *ctx = &getContext();
    SmallVector<std::pair<Value, Quantized>> seeds;
    Block &body = bwd.getBody().front();
    for (const FunctionPlacer::FP8Weight &weight : weights) {
      std::optional<unsigned> weightIndex =
          argumentNamed(bwd, weight.weightName);
      assert(weightIndex && "saved only for weights @f_bwd takes");
      // Stays valid (and this weight's) when arguments are inserted.
      BlockArgument weightArgument = bwd.getArgument(*weightIndex);
      unsigned index = 0;
      for (unsigned i = 0; i < bwd.getNumArguments(); ++i)
        if (auto role = bwd.getArgAttrOfType<StringAttr>(i, kRoleAttr);
            role && role.getValue() == "residual")
          index = i + 1;
      Location loc = weightArgument.getLoc();
      Value parts[2];
      const std::pair<Type, StringRef> partTypes[2] = {
          {weight.dataType, "_fp8"}, {weight.scaleType, "_fp8_scale"}};
      for (unsigned i = 0; i < 2; ++i) {
        DictionaryAttr attrs = nameAndRole(
            ctx, (weight.weightName + partTypes[i].second).str(), "residual");
        (void)bwd.insertArgument(index + i, partTypes[i].first, attrs, loc);
        parts[i] = bwd.getArgument(index + i);
      }
      seeds.push_back({weightArgument, Quantized{parts[0], parts[1]}});
    }
    bwd.setType(
        FunctionType::get(ctx, body.getArgumentTypes(), bwd.getResultTypes()));
    return seeds;
  }

  void runOnOperation() override {
    Config config;
    if (failed(parseConfig(config)))
      return signalPassFailure();
    ModuleOp module = getOperation();
    auto backwardOf = [&](func::FuncOp func) -> func::FuncOp {
      StringRef name = func.getSymName();
      if (!name.ends_with("_fwd"))
        return nullptr;
      auto bwd =
          module.lookupSymbol<func::FuncOp>((name.drop_back(4) + "_bwd").str());
      return bwd && !bwd.isExternal() ? bwd : nullptr;
    };
    llvm::DenseSet<Operation *> pairedBackward;
    for (auto func : module.getOps<func::FuncOp>())
      if (func::FuncOp bwd = backwardOf(func))
        pairedBackward.insert(bwd);

    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal() || pairedBackward.contains(func))
        continue;
      func::FuncOp bwd = backwardOf(func);
      if (failed(requireStraightLineBody(func, "moe-fp8-placement")) ||
          (bwd && failed(requireStraightLineBody(bwd, "moe-fp8-placement"))))
        return signalPassFailure();
      FunctionPlacer placer(func, config);
      if (bwd && fp8Residuals)
        placer.saveFP8Residuals();
      if (bwd && fp8WeightResiduals) {
        llvm::StringSet<> bwdArguments;
        for (unsigned i = 0; i < bwd.getNumArguments(); ++i)
          if (auto name = bwd.getArgAttrOfType<StringAttr>(i, kNameAttr))
            bwdArguments.insert(name.getValue());
        placer.saveFP8Weights(std::move(bwdArguments));
      }
      if (failed(placer.run()))
        return signalPassFailure();
      if (!bwd)
        continue;
      FunctionPlacer bwdPlacer(bwd, config);
      SmallVector<Operation *> dequantizations;
      if (fp8Residuals) {
        auto seeds = takeFP8Residuals(bwd, placer.getFP8Residuals(), config);
        if (failed(seeds))
          return signalPassFailure();
        for (auto &[value, q] : *seeds) {
          bwdPlacer.seed(value, q);
          dequantizations.push_back(value.getDefiningOp());
        }
      }
      for (auto &[weight, q] : takeFP8Weights(bwd, placer.getFP8Weights()))
        bwdPlacer.seedWeight(weight, q);
      if (failed(bwdPlacer.run()))
        return signalPassFailure();
      // A residual whose readers all took its FP8 form needs no
      // dequantization.
      for (Operation *op : dequantizations)
        if (op->use_empty())
          op->erase();
    }
  }
};

} // namespace
