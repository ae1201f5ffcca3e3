//===- FP8WeightInputs.cpp - moe-fp8-weight-inputs ------------------------===//
//
// Moves the quantization of expert weights out of a layer's functions into
// one function of its own, `@<f>_quantize_weights`, and makes the layer's
// functions take the FP8 weights and their scales as arguments: weights
// change once per optimizer step, the layer runs once per micro-batch.
// Passes.td describes the rewrite.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Transforms/EntryNames.h"
#include "MoeDialect/Transforms/Passes.h"
#include "MoeDialect/Transforms/ShardingAttrs.h"
#include "MoeDialect/Transforms/StraightLineBody.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::moe {
#define GEN_PASS_DEF_MOEFP8WEIGHTINPUTSPASS
#include "MoeDialect/Transforms/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;

namespace {

constexpr StringLiteral kQuantizeFunctionSuffix = "_quantize_weights";
constexpr StringLiteral kDataSuffix = "_fp8";
constexpr StringLiteral kScaleSuffix = "_fp8_scale";
// The K-major copy of an FP8 weight (kmajor-copies) and its block scales.
constexpr StringLiteral kKMajorDataSuffix = "_fp8_t";
constexpr StringLiteral kKMajorScaleSuffix = "_fp8_t_scale";

StringRef stringAttrOf(func::FuncOp func, unsigned arg, StringRef attr) {
  auto value = func.getArgAttrOfType<StringAttr>(arg, attr);
  return value ? value.getValue() : StringRef();
}

/// A weight argument's quantization that depends on the weight alone: every
/// recipe but delayed, whose amax history is read and rolled each call.
/// Returns the weight's name, or an empty string.
StringRef hoistableWeightName(func::FuncOp func, QuantizeOp quantize) {
  if (quantize.getAmaxHistoryOperand() ||
      !isa<RankedTensorType>(quantize.getInput().getType()))
    return {};
  auto arg = dyn_cast<BlockArgument>(quantize.getInput());
  if (!arg || arg.getOwner() != &func.getBody().front())
    return {};
  if (stringAttrOf(func, arg.getArgNumber(), kRoleAttr) != "weight")
    return {};
  return stringAttrOf(func, arg.getArgNumber(), kNameAttr);
}

/// One weight's quantization, as the first function of the layer that
/// quantizes it does it (`prototype` is erased once the functions take the
/// FP8 weights; the types stay).
struct WeightQuantization {
  QuantizeOp prototype;
  Type weightType, dataType, scaleType;
  /// The bf16 weight argument's split over ranks (moe-expert-parallel:
  /// its expert dimension 0), which its FP8 forms keep; null: replicated.
  Attribute splitDim, splitAxes;
};

/// `name` and `role`, and `q`'s split over ranks where `type` has that
/// dimension: the FP8 data, its block scales and its [G, N, K] copy are
/// split along the experts as the weight is; a tensor-wise 0-d scale is
/// each rank's own.
DictionaryAttr weightFormAttrs(MLIRContext *ctx, StringRef name,
                               StringRef role, const WeightQuantization &q,
                               Type type) {
  NamedAttrList attrs(nameAndRole(ctx, name, role));
  auto shaped = dyn_cast<ShapedType>(type);
  if (q.splitDim && shaped && shaped.getRank() > 0) {
    attrs.set(kSplitDimAttr, q.splitDim);
    if (q.splitAxes)
      attrs.set(kSplitAxesAttr, q.splitAxes);
  }
  return attrs.getDictionary(ctx);
}

/// Whether two quantizations of one weight give the same values.
bool sameQuantization(QuantizeOp a, QuantizeOp b) {
  return a.getRecipe() == b.getRecipe() &&
         a.getInput().getType() == b.getInput().getType() &&
         a->getResultTypes() == b->getResultTypes();
}

struct MoeFP8WeightInputsPass
    : mlir::moe::impl::MoeFP8WeightInputsPassBase<MoeFP8WeightInputsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A layer's functions: @f, @f_fwd and @f_bwd share the name <f>.
    llvm::MapVector<StringRef, SmallVector<func::FuncOp>> layers;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      StringRef name = func.getSymName();
      // A quantize function this pass made earlier is not a layer.
      if (name.ends_with(kQuantizeFunctionSuffix))
        continue;
      if (name.ends_with("_fwd") || name.ends_with("_bwd"))
        name = name.drop_back(4);
      layers[name].push_back(func);
    }
    for (auto &[layer, funcs] : layers)
      if (failed(rewriteLayer(module, layer, funcs)))
        return signalPassFailure();
  }

  LogicalResult rewriteLayer(ModuleOp module, StringRef layer,
                             ArrayRef<func::FuncOp> funcs) {
    llvm::MapVector<StringRef, WeightQuantization> weights;
    DenseMap<func::FuncOp, SmallVector<QuantizeOp>> hoisted;
    for (func::FuncOp func : funcs) {
      WalkResult walk = func.walk([&](QuantizeOp quantize) {
        StringRef name = hoistableWeightName(func, quantize);
        if (name.empty())
          return WalkResult::advance();
        unsigned weightArg =
            cast<BlockArgument>(quantize.getInput()).getArgNumber();
        Attribute splitDim = func.getArgAttr(weightArg, kSplitDimAttr);
        if (auto dim = dyn_cast_or_null<IntegerAttr>(splitDim);
            splitDim && (!dim || dim.getInt() != 0)) {
          quantize.emitOpError("moe-fp8-weight-inputs: weight '")
              << name << "' is split over ranks along " << splitDim
              << "; only a split along the experts (dimension 0) keeps its "
                 "FP8 forms and block scales split the same way";
          return WalkResult::interrupt();
        }
        if (splitDim && cast<ShapedType>(quantize.getScale().getType())
                                .getRank() == 0) {
          quantize.emitOpError("moe-fp8-weight-inputs: weight '")
              << name
              << "' is split over ranks and quantized with one scale: each "
                 "rank's scale would come from its own experts' amax, which "
                 "no argument can say (a 128x128 block recipe splits its "
                 "scales with the experts)";
          return WalkResult::interrupt();
        }
        auto [it, inserted] = weights.try_emplace(
            name, WeightQuantization{quantize, quantize.getInput().getType(),
                                     quantize.getOutput().getType(),
                                     quantize.getScale().getType(), splitDim,
                                     func.getArgAttr(weightArg,
                                                     kSplitAxesAttr)});
        if (!inserted && !sameQuantization(it->second.prototype, quantize)) {
          InFlightDiagnostic diag =
              quantize.emitOpError("moe-fp8-weight-inputs: weight '")
              << name
              << "' is quantized differently here than in another function "
                 "of layer '"
              << layer << "'; one FP8 weight input cannot serve both";
          diag.attachNote(it->second.prototype.getLoc())
              << "the other quantization";
          return WalkResult::interrupt();
        }
        hoisted[func].push_back(quantize);
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return failure();
    }
    if (weights.empty())
      return success();
    // Their signatures change at the one return of the entry block, and a
    // call would no longer match.
    for (func::FuncOp func : funcs)
      if (failed(requireStraightLineBody(func, "moe-fp8-weight-inputs")))
        return failure();
    for (func::FuncOp func : funcs)
      if (!SymbolTable::symbolKnownUseEmpty(func, module))
        return func.emitOpError("moe-fp8-weight-inputs: @")
               << func.getSymName()
               << " is called in this module; its arguments are about to "
                  "change (run the pass on the layer's functions alone)";
    FailureOr<func::FuncOp> quantizeFunc =
        buildQuantizeFunction(module, layer, funcs, weights);
    if (failed(quantizeFunc))
      return failure();
    for (func::FuncOp func : funcs)
      if (failed(takeFP8Weights(func, hoisted.lookup(func), weights)))
        return failure();
    if (kmajorCopies)
      return giveKMajorCopies(*quantizeFunc, funcs, weights);
    return success();
  }

  /// A grouped matmul that reads FP8 weight `weight` (argument
  /// <weight>_fp8 with its <weight>_fp8_scale) kn.
  struct KnRead {
    func::FuncOp func;
    GroupedMatmulOp matmul;
    StringRef weight;
  };

  /// kmajor-copies: every GEMM that reads an FP8 weight argument kn reads
  /// its [G, N, K] copy nk, which @<layer>_quantize_weights returns too;
  /// FP8 weights (and scales) that no function takes any more are neither
  /// arguments nor results.
  LogicalResult giveKMajorCopies(
      func::FuncOp quantizeFunc, ArrayRef<func::FuncOp> funcs,
      const llvm::MapVector<StringRef, WeightQuantization> &weights) {
    SmallVector<KnRead> reads;
    llvm::SetVector<StringRef> copied;
    for (func::FuncOp func : funcs)
      func.walk([&](GroupedMatmulOp matmul) {
        if (matmul.getWeightLayout() != WeightLayout::KN ||
            !matmul.getBScale())
          return;
        auto data = dyn_cast<BlockArgument>(matmul.getB());
        auto scale = dyn_cast<BlockArgument>(matmul.getBScale());
        if (!data || !scale || data.getOwner() != &func.getBody().front() ||
            scale.getOwner() != data.getOwner())
          return;
        StringRef weight = stringAttrOf(func, data.getArgNumber(), kNameAttr);
        if (!weight.consume_back(kDataSuffix) || !weights.contains(weight) ||
            stringAttrOf(func, scale.getArgNumber(), kNameAttr) !=
                (weight + kScaleSuffix).str())
          return;
        reads.push_back({func, matmul, weight});
        copied.insert(weight);
      });
    if (reads.empty())
      return success();
    // The copies' names must be free: an argument of that name that this
    // pass did not make would be read in the copy's place.
    for (func::FuncOp func : funcs)
      for (StringRef weight : copied)
        for (StringRef suffix : {kKMajorDataSuffix, kKMajorScaleSuffix})
          if (std::optional<unsigned> index =
                  argumentNamed(func, (weight + suffix).str()))
            return func.emitOpError("moe-fp8-weight-inputs: argument '")
                   << weight << suffix
                   << "' exists already, but kmajor-copies gives that name "
                      "to the [G, N, K] copy of FP8 weight '"
                   << weight << "' (rename it, or kmajor-copies=false)";
    DenseMap<StringRef, std::pair<Type, Type>> copyTypes;
    for (StringRef weight : copied)
      copyTypes[weight] =
          addKMajorCopy(quantizeFunc, weight, weights.find(weight)->second);
    MLIRContext *ctx = &getContext();
    for (KnRead &read : reads) {
      func::FuncOp func = read.func;
      const WeightQuantization &q = weights.find(read.weight)->second;
      auto [dataType, scaleType] = copyTypes.lookup(read.weight);
      // The copy's arguments, made by the first read in `func`.
      FailureOr<BlockArgument> data = fp8WeightArgument(
          func, (read.weight + kKMajorDataSuffix).str(), dataType,
          cast<BlockArgument>(read.matmul.getBScale()).getArgNumber(), q);
      if (failed(data))
        return failure();
      // A tensor-wise scale serves both layouts.
      Value scale = read.matmul.getBScale();
      if (scaleType) {
        FailureOr<BlockArgument> copy = fp8WeightArgument(
            func, (read.weight + kKMajorScaleSuffix).str(), scaleType,
            data->getArgNumber(), q);
        if (failed(copy))
          return failure();
        scale = *copy;
      }
      read.matmul.getBMutable().assign(*data);
      read.matmul.getBScaleMutable().assign(scale);
      read.matmul.setWeightLayoutAttr(
          WeightLayoutAttr::get(ctx, WeightLayout::NK));
    }
    // The kn FP8 weights that nothing reads any more (the forward's, whose
    // backward takes them as inputs of its own).
    llvm::StringSet<> taken;
    for (func::FuncOp func : funcs) {
      llvm::BitVector unread(func.getNumArguments());
      for (StringRef weight : copied)
        for (StringRef suffix : {kDataSuffix, kScaleSuffix}) {
          std::string name = (weight + suffix).str();
          std::optional<unsigned> index = argumentNamed(func, name);
          if (!index)
            continue;
          if (func.getArgument(*index).use_empty())
            unread.set(*index);
          else
            taken.insert(name);
        }
      if (failed(func.eraseArguments(unread)))
        return failure();
    }
    // ... nor results of the quantize function (a layer without a backward).
    auto ret =
        cast<func::ReturnOp>(quantizeFunc.getBody().front().getTerminator());
    llvm::BitVector unused(quantizeFunc.getNumResults());
    for (StringRef weight : copied)
      for (StringRef suffix : {kDataSuffix, kScaleSuffix})
        if (std::string name = (weight + suffix).str(); !taken.contains(name))
          if (std::optional<unsigned> index = resultNamed(quantizeFunc, name))
            unused.set(*index);
    ret->eraseOperands(unused);
    return quantizeFunc.eraseResults(unused);
  }

  /// Appends to @<layer>_quantize_weights the [G, N, K] copy of FP8 weight
  /// `weight` (<weight>_fp8_t) and, for block scales, theirs with the last
  /// two dimensions swapped (<weight>_fp8_t_scale). Returns their types
  /// (a null scale type: the tensor-wise scale is shared).
  std::pair<Type, Type> addKMajorCopy(func::FuncOp quantizeFunc,
                                      StringRef weight,
                                      const WeightQuantization &q) {
    MLIRContext *ctx = &getContext();
    auto ret =
        cast<func::ReturnOp>(quantizeFunc.getBody().front().getTerminator());
    OpBuilder b(ret);
    Location loc = quantizeFunc.getLoc();
    // The quantize function returns every weight's data and scale.
    auto returned = [&](StringRef name) -> Value {
      return ret.getOperand(*resultNamed(quantizeFunc, name));
    };
    // Swaps the last two dimensions of a rank-3 tensor.
    auto swapLastTwo = [&](Value value) -> Value {
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> shape(type.getShape());
      std::swap(shape[1], shape[2]);
      Value init =
          tensor::EmptyOp::create(b, loc, shape, type.getElementType());
      return linalg::TransposeOp::create(b, loc, value, init,
                                         ArrayRef<int64_t>{0, 2, 1})
          ->getResult(0);
    };
    auto addResult = [&](StringRef suffix, Value value) {
      unsigned index = quantizeFunc.getNumResults();
      (void)quantizeFunc.insertResult(
          index, value.getType(),
          weightFormAttrs(ctx, (weight + suffix).str(), "output", q,
                          value.getType()));
      ret->insertOperands(index, value);
    };
    Value data = swapLastTwo(returned((weight + kDataSuffix).str()));
    addResult(kKMajorDataSuffix, data);
    Value scale = returned((weight + kScaleSuffix).str());
    if (cast<RankedTensorType>(scale.getType()).getRank() != 3)
      return {data.getType(), Type()};
    Value scaleCopy = swapLastTwo(scale);
    addResult(kKMajorScaleSuffix, scaleCopy);
    return {data.getType(), scaleCopy.getType()};
  }

  /// @<layer>_quantize_weights(bf16 weights) -> (<name>_fp8,
  /// <name>_fp8_scale)..., after the layer's last function.
  FailureOr<func::FuncOp>
  buildQuantizeFunction(ModuleOp module, StringRef layer,
                        ArrayRef<func::FuncOp> funcs,
                        llvm::MapVector<StringRef, WeightQuantization>
                            &weights) {
    MLIRContext *ctx = &getContext();
    std::string name = (layer + kQuantizeFunctionSuffix).str();
    if (Operation *clash = module.lookupSymbol(name)) {
      return clash->emitOpError("moe-fp8-weight-inputs: @")
             << name << " is needed for the weights of layer '" << layer
             << "' but already defined";
    }
    SmallVector<Type> argTypes, resultTypes;
    SmallVector<DictionaryAttr> argAttrs, resultAttrs;
    for (auto &[weight, q] : weights) {
      argTypes.push_back(q.weightType);
      argAttrs.push_back(
          weightFormAttrs(ctx, weight, "weight", q, q.weightType));
      resultTypes.push_back(q.dataType);
      resultAttrs.push_back(weightFormAttrs(
          ctx, (weight + kDataSuffix).str(), "output", q, q.dataType));
      resultTypes.push_back(q.scaleType);
      resultAttrs.push_back(weightFormAttrs(
          ctx, (weight + kScaleSuffix).str(), "output", q, q.scaleType));
    }
    OpBuilder b(ctx);
    func::FuncOp first = funcs.front(), last = funcs.back();
    b.setInsertionPointAfter(last);
    Location loc = first.getLoc();
    auto func = func::FuncOp::create(
        b, loc, name, FunctionType::get(ctx, argTypes, resultTypes));
    func.setAllArgAttrs(argAttrs);
    func.setAllResultAttrs(resultAttrs);
    Block *body = func.addEntryBlock();
    b.setInsertionPointToStart(body);
    SmallVector<Value> results;
    for (auto [i, entry] : llvm::enumerate(weights)) {
      QuantizeOp prototype = entry.second.prototype;
      IRMapping mapping;
      mapping.map(prototype.getInput(), body->getArgument(i));
      for (Value init : prototype.getOuts()) {
        auto type = dyn_cast<RankedTensorType>(init.getType());
        if (!type || !type.hasStaticShape())
          return prototype.emitOpError("moe-fp8-weight-inputs: the FP8 "
                                       "weight needs a static shape");
        mapping.map(init, tensor::EmptyOp::create(b, prototype.getLoc(),
                                                  type.getShape(),
                                                  type.getElementType()));
      }
      Operation *clone = b.clone(*prototype, mapping);
      llvm::append_range(results, clone->getResults());
    }
    func::ReturnOp::create(b, loc, results);
    return func;
  }

  /// The argument `name` of `func`, of type `type`, role weight, with
  /// `q`'s split: an existing one (an FP8 weight residual of @f_bwd, which
  /// becomes an input shared with @f_fwd, or one made before) keeps its
  /// other attributes; else a new argument after argument `after`.
  FailureOr<BlockArgument> fp8WeightArgument(func::FuncOp func, StringRef name,
                                             Type type, unsigned after,
                                             const WeightQuantization &q) {
    MLIRContext *ctx = &getContext();
    if (std::optional<unsigned> index = argumentNamed(func, name)) {
      if (func.getArgument(*index).getType() != type)
        return func.emitOpError("moe-fp8-weight-inputs: argument '")
               << name << "' has type " << func.getArgument(*index).getType()
               << ", but the layer's FP8 weight is " << type;
      NamedAttrList attrs(func.getArgAttrDict(*index));
      for (NamedAttribute attr : weightFormAttrs(ctx, name, "weight", q, type))
        attrs.set(attr.getName(), attr.getValue());
      func.setArgAttrs(*index, attrs.getDictionary(ctx));
      return func.getArgument(*index);
    }
    if (failed(func.insertArgument(
            after + 1, type, weightFormAttrs(ctx, name, "weight", q, type),
            func.getLoc())))
      return failure();
    return func.getArgument(after + 1);
  }

  /// `func` reads <name>_fp8 / <name>_fp8_scale arguments (role weight)
  /// instead of quantizing, returns no FP8 weight residual, and takes no
  /// bf16 weight that nothing reads.
  LogicalResult takeFP8Weights(
      func::FuncOp func, ArrayRef<QuantizeOp> quantizations,
      llvm::MapVector<StringRef, WeightQuantization> &weights) {
    MLIRContext *ctx = &getContext();
    for (QuantizeOp quantize : quantizations) {
      auto weight = cast<BlockArgument>(quantize.getInput());
      StringRef name = stringAttrOf(func, weight.getArgNumber(), kNameAttr);
      const WeightQuantization &q = weights.find(name)->second;
      auto data = fp8WeightArgument(func, (name + kDataSuffix).str(),
                                    quantize.getOutput().getType(),
                                    weight.getArgNumber(), q);
      if (failed(data))
        return failure();
      auto scale = fp8WeightArgument(func, (name + kScaleSuffix).str(),
                                     quantize.getScale().getType(),
                                     data->getArgNumber(), q);
      if (failed(scale))
        return failure();
      quantize.getOutput().replaceAllUsesWith(*data);
      quantize.getScale().replaceAllUsesWith(*scale);
      SmallVector<Value> inits(quantize.getOuts());
      quantize.erase();
      for (Value init : inits)
        if (Operation *def = init.getDefiningOp();
            def && isa<tensor::EmptyOp>(def) && def->use_empty())
          def->erase();
    }
    // @f_bwd quantizes nothing itself when the forward's FP8 weights are
    // its residuals: those arguments become the layer's weight inputs.
    for (auto &[name, q] : weights) {
      for (auto [suffix, type] :
           {std::pair<StringRef, Type>{kDataSuffix, q.dataType},
            {kScaleSuffix, q.scaleType}})
        if (argumentNamed(func, (name + suffix).str()))
          if (failed(fp8WeightArgument(func, (name + suffix).str(), type, 0,
                                       q)))
            return failure();
    }
    // A residual that is now an argument returned as it is (the FP8 weight
    // residuals of @f_fwd) is not a result any more: the caller has it.
    llvm::StringSet<> fp8Names;
    for (auto &entry : weights) {
      fp8Names.insert((entry.first + kDataSuffix).str());
      fp8Names.insert((entry.first + kScaleSuffix).str());
    }
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    llvm::BitVector returnedArguments(func.getNumResults());
    for (auto [i, value] : llvm::enumerate(ret.getOperands()))
      if (auto arg = dyn_cast<BlockArgument>(value);
          arg && arg.getOwner() == &func.getBody().front() &&
          func.getResultAttrOfType<StringAttr>(i, kRoleAttr) ==
              StringAttr::get(ctx, "residual") &&
          fp8Names.contains(
              stringAttrOf(func, arg.getArgNumber(), kNameAttr)))
        returnedArguments.set(i);
    ret->eraseOperands(returnedArguments);
    if (failed(func.eraseResults(returnedArguments)))
      return failure();
    // bf16 weights that nothing reads any more.
    llvm::BitVector unread(func.getNumArguments());
    for (auto &[name, q] : weights)
      if (std::optional<unsigned> index = argumentNamed(func, name);
          index && func.getArgument(*index).use_empty())
        unread.set(*index);
    return func.eraseArguments(unread);
  }
};

} // namespace
