//===- EntryMetadata.cpp - what an artifact's entry points take -----------===//
#include "EntryMetadata.h"

#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Transforms/EntryNames.h"
#include "MoeDialect/Transforms/ShardingAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;

namespace mlir::moe::compile {

/// The dtype name moe-runner understands, or "" when unsupported.
static std::string dtypeName(Type t) {
  if (t.isF32())
    return "f32";
  if (t.isBF16())
    return "bf16";
  if (t.isF16())
    return "f16";
  if (t.isF64())
    return "f64";
  if (isa<Float8E4M3FNType>(t))
    return "f8e4m3";
  if (isa<Float8E5M2Type>(t))
    return "f8e5m2";
  if (isa<Float8E8M0FNUType>(t))
    return "f8e8m0";
  for (unsigned width : {1u, 8u, 32u, 64u})
    if (t.isSignlessInteger(width))
      return "i" + std::to_string(width);
  return "";
}

/// The product of the sizes in `factors`, saturated at INT64_MAX; 0 when a
/// size is dynamic. Shapes of any size reach here before the entry's static
/// shapes are checked.
static int64_t sizeProduct(std::initializer_list<int64_t> factors) {
  uint64_t product = 1;
  for (int64_t f : factors) {
    if (ShapedType::isDynamic(f) || f < 0)
      return 0;
    product = llvm::SaturatingMultiply(product, static_cast<uint64_t>(f));
  }
  return static_cast<int64_t>(
      std::min<uint64_t>(product, std::numeric_limits<int64_t>::max()));
}

/// Rows that really carry tokens: T·K when `a` traces back (through the
/// expert FFN chain) to a moe.permute, else all rows of `a`.
static int64_t tokenRows(Value a) {
  while (Operation *def = a.getDefiningOp()) {
    if (auto permute = dyn_cast<moe::PermuteOp>(def)) {
      auto indices = permute.getIndices().getType();
      return sizeProduct({indices.getDimSize(0), indices.getDimSize(1)});
    }
    if (auto glu = dyn_cast<moe::GluOp>(def))
      a = glu.getGate();
    else if (auto matmul = dyn_cast<moe::GroupedMatmulOp>(def))
      a = matmul.getA();
    else
      break;
  }
  return sizeProduct({cast<ShapedType>(a.getType()).getDimSize(0)});
}

/// Rows of a weight gradient that really carry tokens (tokenRows). A
/// transposed_operands `a` ([Kd, R]) is traced through its moe.quantize and
/// linalg.transpose back to the [R, Kd] tensor it was made from.
static int64_t weightGradRows(moe::GroupedWeightGradOp wg) {
  if (!wg.getTransposedOperands())
    return tokenRows(wg.getA());
  Value a = wg.getA();
  while (Operation *def = a.getDefiningOp()) {
    if (auto quantize = dyn_cast<moe::QuantizeOp>(def)) {
      a = quantize.getInput();
    } else if (auto transpose = dyn_cast<linalg::TransposeOp>(def)) {
      if (transpose.getPermutation() == ArrayRef<int64_t>{1, 0})
        return tokenRows(transpose.getInput());
      break;
    } else {
      break;
    }
  }
  return sizeProduct({wg.getA().getType().getDimSize(1)});
}

/// Expert-FFN FLOPs: 6·T·K·H·F per moe.layer, 2·rows·Kd·N per grouped
/// matmul (N of its product: 2F for gate|up halves) and per grouped weight
/// gradient (saturated at INT64_MAX; dynamic
/// sizes count 0).
static int64_t expertFlops(func::FuncOp func) {
  uint64_t flops = 0;
  func.walk([&](Operation *op) {
    int64_t opFlops = 0;
    if (auto layer = dyn_cast<moe::LayerOp>(op)) {
      auto x = layer.getX().getType();
      bool kn = layer.getWeightLayout() == moe::WeightLayout::KN;
      int64_t f = layer.getWGate().getType().getDimSize(kn ? 2 : 1);
      opFlops = sizeProduct(
          {6, x.getDimSize(0), int64_t(layer.getK()), x.getDimSize(1), f});
    } else if (auto mm = dyn_cast<moe::GroupedMatmulOp>(op)) {
      auto a = mm.getA().getType();
      // The product's N: c's, twice over for gate|up halves (an epilogue
      // pairing two accumulators per output).
      opFlops = sizeProduct({2, tokenRows(mm.getA()), a.getDimSize(1),
                             mm.getC().getType().getDimSize(1),
                             int64_t(mm.getAccumulatorsPerOutput())});
    } else if (auto wg = dyn_cast<moe::GroupedWeightGradOp>(op)) {
      // Kd and N: the non-row dimension of a and dc.
      int64_t col = wg.getTransposedOperands() ? 0 : 1;
      opFlops = sizeProduct({2, weightGradRows(wg),
                             wg.getA().getType().getDimSize(col),
                             wg.getDc().getType().getDimSize(col)});
    }
    flops = llvm::SaturatingAdd(flops, static_cast<uint64_t>(opFlops));
  });
  return static_cast<int64_t>(
      std::min<uint64_t>(flops, std::numeric_limits<int64_t>::max()));
}

/// Whether any value in `func` (an argument, a result or an op's result)
/// has an FP8 element type.
static bool computesThroughFp8(func::FuncOp func) {
  auto isFp8 = [](Type type) {
    Type element = getElementTypeOrSelf(type);
    return isa<Float8E4M3FNType, Float8E5M2Type>(element);
  };
  if (llvm::any_of(func.getArgumentTypes(), isFp8))
    return true;
  return func
      .walk([&](Operation *op) {
        return llvm::any_of(op->getResultTypes(), isFp8)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Reads moe.split_dim / moe.partial_sum of one argument or result into
/// `info` (its shape already set).
static LogicalResult readSharding(Location loc, DictionaryAttr attrs,
                                  ArgInfo &info) {
  if (!attrs)
    return success();
  std::string what = std::string(info.isOutput ? "result" : "argument") + " '" +
                     info.name + "'";
  if (Attribute split = attrs.get(moe::kSplitDimAttr)) {
    auto dim = dyn_cast<IntegerAttr>(split);
    int64_t rank = static_cast<int64_t>(info.shape.size());
    if (!dim || !dim.getType().isInteger(64))
      return emitError(loc) << "entry " << what << " has " << moe::kSplitDimAttr
                            << " = " << split << "; expected an i64 dimension";
    if (dim.getInt() < 0 || dim.getInt() >= rank)
      return emitError(loc)
             << "entry " << what << " has " << moe::kSplitDimAttr << " = "
             << dim.getInt() << ", but its tensor has rank " << rank;
    info.splitDim = dim.getInt();
  }
  if (Attribute partial = attrs.get(moe::kPartialSumAttr)) {
    if (!isa<UnitAttr>(partial))
      return emitError(loc)
             << "entry " << what << " has " << moe::kPartialSumAttr << " = "
             << partial << "; expected a unit attribute";
    info.partialSum = true;
  }
  auto readAxes = [&](StringRef key, StringRef owner, bool present,
                      std::vector<int64_t> &axes) -> LogicalResult {
    Attribute attr = attrs.get(key);
    if (!attr)
      return success();
    auto list = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!list || list.empty())
      return emitError(loc) << "entry " << what << " has " << key << " = "
                            << attr << "; expected a non-empty array<i64>";
    if (!present)
      return emitError(loc) << "entry " << what << " has " << key
                            << " without " << owner;
    axes.assign(list.asArrayRef().begin(), list.asArrayRef().end());
    return success();
  };
  if (failed(readAxes(moe::kSplitAxesAttr, moe::kSplitDimAttr,
                      info.splitDim >= 0, info.splitAxes)) ||
      failed(readAxes(moe::kPartialAxesAttr, moe::kPartialSumAttr,
                      info.partialSum, info.partialAxes)))
    return failure();
  // Split and a partial sum at once only on named, disjoint axes: an
  // expert weight's gradient, split over the expert axis and summed over
  // the data axes.
  if (info.splitDim >= 0 && info.partialSum) {
    bool disjoint = !info.splitAxes.empty() && !info.partialAxes.empty();
    for (int64_t axis : info.splitAxes)
      disjoint &= !llvm::is_contained(info.partialAxes, axis);
    if (!disjoint)
      return emitError(loc)
             << "entry " << what << " has both " << moe::kSplitDimAttr
             << " and " << moe::kPartialSumAttr
             << " on the same axes; a value is split or a partial sum over "
                "an axis, not both";
  }
  return success();
}

static FailureOr<ArgInfo> describeValue(Location loc, Type type,
                                        std::string name, std::string role,
                                        bool isOutput) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped) {
    emitError(loc) << "entry " << (isOutput ? "result" : "argument") << " '"
                   << name << "' has type " << type
                   << "; artifacts take ranked tensors";
    return failure();
  }
  if (!shaped.hasStaticShape()) {
    emitError(loc) << "entry " << (isOutput ? "result" : "argument") << " '"
                   << name << "' has the dynamic shape " << type
                   << "; artifacts need static shapes";
    return failure();
  }
  std::string dtype = dtypeName(shaped.getElementType());
  if (dtype.empty()) {
    emitError(loc) << "entry " << (isOutput ? "result" : "argument") << " '"
                   << name << "' has the unsupported element type "
                   << shaped.getElementType();
    return failure();
  }
  ArgInfo info;
  info.name = std::move(name);
  info.role = std::move(role);
  info.isOutput = isOutput;
  info.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  info.dtype = std::move(dtype);
  return info;
}

FailureOr<std::vector<EntryInfo>> describeEntries(ModuleOp module) {
  std::vector<EntryInfo> entries;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    EntryInfo entry;
    entry.name = func.getSymName().str();
    entry.symbol = entry.name + "_packed";
    // LLVM's code generator calls these for its memory intrinsics: an entry
    // of that name in the artifact would take their calls.
    if (llvm::is_contained({"memcpy", "memmove", "memset", "malloc", "free",
                            "calloc", "realloc", "aligned_alloc"},
                           entry.name))
      return func.emitError("entry @")
             << entry.name
             << " has the name of a C library function that compiled code "
                "calls; rename the entry",
             failure();
    if (Operation *clash = module.lookupSymbol(entry.symbol)) {
      InFlightDiagnostic diag = func.emitError("entry @")
                                << entry.name << " needs the symbol @"
                                << entry.symbol
                                << " for its packed wrapper, but the module "
                                   "already defines it; rename one of them";
      diag.attachNote(clash->getLoc()) << "@" << entry.symbol << " is here";
      return failure();
    }
    entry.flops = expertFlops(func);
    entry.fp8 = computesThroughFp8(func);
    // annotateEntryNames keeps what is set; it must be a string.
    for (unsigned i = 0, e = func.getNumArguments() + func.getNumResults();
         i < e; ++i) {
      bool isResult = i >= func.getNumArguments();
      unsigned index = isResult ? i - func.getNumArguments() : i;
      DictionaryAttr attrs = isResult ? func.getResultAttrDict(index)
                                      : func.getArgAttrDict(index);
      if (!attrs)
        continue;
      for (StringRef key : {kNameAttr, kRoleAttr}) {
        Attribute value = attrs.get(key);
        if (value && !isa<StringAttr>(value))
          return func.emitError("entry @")
                 << entry.name << ": " << (isResult ? "result " : "argument ")
                 << index << " has " << key << " = " << value
                 << "; expected a string",
                 failure();
      }
    }
    annotateEntryNames(func);
    for (BlockArgument arg : func.getArguments()) {
      unsigned i = arg.getArgNumber();
      auto info = describeValue(
          arg.getLoc(), arg.getType(),
          func.getArgAttrOfType<StringAttr>(i, kNameAttr).str(),
          func.getArgAttrOfType<StringAttr>(i, kRoleAttr).str(),
          /*isOutput=*/false);
      if (failed(info) ||
          failed(readSharding(arg.getLoc(), func.getArgAttrDict(i), *info)))
        return failure();
      entry.args.push_back(std::move(*info));
    }
    // The results by the function's type: its body may have several blocks.
    for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
      auto info = describeValue(
          func.getLoc(), type,
          func.getResultAttrOfType<StringAttr>(i, kNameAttr).str(),
          func.getResultAttrOfType<StringAttr>(i, kRoleAttr).str(),
          /*isOutput=*/true);
      if (failed(info) ||
          failed(readSharding(func.getLoc(), func.getResultAttrDict(i), *info)))
        return failure();
      entry.args.push_back(std::move(*info));
    }
    llvm::StringSet<> seen;
    for (const ArgInfo &arg : entry.args)
      if (!seen.insert(arg.name).second)
        return func.emitError("entry @")
               << entry.name << " has two arguments named '" << arg.name
               << "'; set distinct moe.name attributes",
               failure();
    entries.push_back(std::move(entry));
  }
  if (entries.empty()) {
    emitError(module.getLoc())
        << "no entry point: the module has no public func.func with a body";
    return failure();
  }
  return entries;
}

FailureOr<std::vector<GridInfo>> describeGrids(ModuleOp module) {
  std::vector<GridInfo> grids;
  for (auto grid : module.getOps<shard::GridOp>()) {
    GridInfo info{grid.getSymName().str(), {}};
    for (int64_t size : grid.getShape()) {
      if (ShapedType::isDynamic(size) || size < 1)
        return grid.emitError("grid @")
                   << info.name
                   << " has a dynamic size; an artifact runs on a fixed "
                      "number of ranks",
               failure();
      info.shape.push_back(size);
    }
    grids.push_back(std::move(info));
  }
  return grids;
}

void writeArtifactJson(llvm::raw_ostream &os, StringRef target,
                       StringRef source, const std::vector<GridInfo> &grids,
                       const std::vector<EntryInfo> &entries) {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("format", "moe-artifact-1");
    json.attribute("target", target);
    json.attribute("source", source);
    if (!grids.empty())
      json.attributeArray("grids", [&] {
        for (const GridInfo &grid : grids)
          json.object([&] {
            json.attribute("name", grid.name);
            json.attributeArray("shape", [&] {
              for (int64_t d : grid.shape)
                json.value(d);
            });
          });
      });
    json.attributeArray("entries", [&] {
      for (const EntryInfo &entry : entries)
        json.object([&] {
          json.attribute("name", entry.name);
          json.attribute("symbol", entry.symbol);
          json.attribute("flops", entry.flops);
          if (entry.fp8)
            json.attribute("fp8", true);
          json.attributeArray("args", [&] {
            for (const ArgInfo &arg : entry.args)
              json.object([&] {
                json.attribute("name", arg.name);
                json.attribute("role", arg.role);
                json.attribute("io", arg.isOutput ? "out" : "in");
                json.attributeArray("shape", [&] {
                  for (int64_t d : arg.shape)
                    json.value(d);
                });
                json.attribute("dtype", arg.dtype);
                auto axesAttribute = [&](StringRef key,
                                         const std::vector<int64_t> &axes) {
                  if (!axes.empty())
                    json.attributeArray(key, [&] {
                      for (int64_t axis : axes)
                        json.value(axis);
                    });
                };
                if (arg.splitDim >= 0)
                  json.attribute("split_dim", arg.splitDim);
                axesAttribute("split_axes", arg.splitAxes);
                if (arg.partialSum)
                  json.attribute("partial", "sum");
                axesAttribute("partial_axes", arg.partialAxes);
              });
          });
        });
    });
  });
  os << "\n";
}

} // namespace mlir::moe::compile
