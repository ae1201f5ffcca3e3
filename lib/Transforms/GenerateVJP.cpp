//===- GenerateVJP.cpp - one backward function for a whole MoE block -------===//
//
// Reverse-mode differentiation of a forward function as ONE backward
// function: the forward ops are visited in reverse and each contributes its
// adjoint (VJPOpInterface) to the same body, so fusion, FP8 placement and
// recompute passes later see the whole backward. The pass knows ops only
// through that interface: the moe ops and the upstream ops moe programs use
// attach it as external models (lib/Dialect/VJPInterfaceImpl.cpp,
// UpstreamVJPInterfaceImpl.cpp). The forward values the adjoints ask for
// become residuals (returned by @f_fwd, taken by @f_bwd) or are recomputed in
// the backward, per the residual policy (each op's recompute class against
// the `recompute` option); the arguments of @f they ask for (weights, x) are
// taken by @f_bwd directly, under their own names, never copied out through
// @f_fwd.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Dialect/UpstreamVJPInterfaceImpl.h"
#include "MoeDialect/Transforms/EntryNames.h"
#include "MoeDialect/Transforms/Passes.h"
#include "MoeDialect/Transforms/StraightLineBody.h"
#include "MoeDialect/Transforms/ShardingAttrs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

#include <bitset>

namespace mlir::moe {
#define GEN_PASS_DEF_MOEGENERATEVJPPASS
#include "MoeDialect/Transforms/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;

namespace {

bool isFloatTensor(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && isa<FloatType>(type.getElementType());
}

/// The residual policy: the recompute classes the `recompute` option names
/// (by their strings: glu, permute, ...; `none` names no class).
class RecomputePolicy {
public:
  /// Parses the option; an unknown name is an error on `module`.
  static FailureOr<RecomputePolicy> parse(StringRef option, ModuleOp module) {
    RecomputePolicy policy;
    for (StringRef name : llvm::split(option, ',')) {
      name = name.trim();
      if (name.empty() || name == "none")
        continue;
      std::optional<RecomputeClass> named = symbolizeRecomputeClass(name);
      if (!named || !isNameable(*named)) {
        InFlightDiagnostic diag =
            module.emitError("moe-generate-vjp: unknown recompute kind '")
            << name << "' (known: ";
        for (RecomputeClass nameable : nameableClasses())
          diag << stringifyRecomputeClass(nameable) << ", ";
        diag << "none)";
        return diag;
      }
      policy.named.set(static_cast<uint32_t>(*named));
    }
    return policy;
  }

  /// Whether a result of `op` the backward needs is recomputed there rather
  /// than saved. Ops without VJPOpInterface are saved.
  bool recomputes(Operation *op) const {
    auto vjp = dyn_cast<VJPOpInterface>(op);
    if (!vjp)
      return false;
    RecomputeClass kind = vjp.getRecomputeClass();
    return kind == RecomputeClass::Always ||
           named.test(static_cast<uint32_t>(kind));
  }

private:
  /// The classes the option may name: all but `never` and `always`, which
  /// hold whatever it says.
  static bool isNameable(RecomputeClass kind) {
    return kind != RecomputeClass::Never && kind != RecomputeClass::Always;
  }
  static SmallVector<RecomputeClass> nameableClasses() {
    SmallVector<RecomputeClass> classes;
    for (uint32_t i = 0; i <= getMaxEnumValForRecomputeClass(); ++i)
      if (std::optional<RecomputeClass> kind = symbolizeRecomputeClass(i))
        if (isNameable(*kind))
          classes.push_back(*kind);
    return classes;
  }

  std::bitset<getMaxEnumValForRecomputeClass() + 1> named;
};

/// The backward function under construction: arguments are added (in front
/// of the cotangents) as adjoints ask for forward values: an argument of @f
/// itself (a weight, x) becomes an argument of @f_bwd directly; any other
/// value becomes a residual, which @f_fwd returns, unless the policy
/// recomputes it.
class BackwardBuilder : public VJPContext {
public:
  BackwardBuilder(func::FuncOp bwd, Block &primalBody,
                  const RecomputePolicy &policy)
      : bwd(bwd), primalBody(primalBody), builder(bwd.getContext()),
        policy(policy) {
    builder.setInsertionPointToEnd(&bwd.getBody().front());
  }

  OpBuilder &getBuilder() { return builder; }
  /// The forward values @f_bwd takes, in its argument order (before the
  /// cotangents): arguments of @f and residuals, as first asked for.
  ArrayRef<Value> getSaved() const { return saved; }
  /// Whether a saved value is an argument of @f (taken by @f_bwd under its
  /// own name) rather than a residual (returned by @f_fwd).
  bool isPrimalArgument(Value v) const {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &primalBody;
  }

  Value forward(Value v) override {
    if (Value known = mapping.lookupOrNull(v))
      return known;
    Operation *def = v.getDefiningOp();
    if (def && policy.recomputes(def)) {
      for (Value operand : def->getOperands())
        (void)forward(operand);
      builder.clone(*def, mapping);
      return mapping.lookup(v);
    }
    Block &body = bwd.getBody().front();
    BlockArgument arg =
        body.insertArgument(saved.size(), v.getType(), v.getLoc());
    saved.push_back(v);
    mapping.map(v, arg);
    return arg;
  }

private:
  func::FuncOp bwd;
  Block &primalBody;
  OpBuilder builder;
  const RecomputePolicy &policy;
  IRMapping mapping;
  SmallVector<Value> saved;
};

/// Cotangents of forward values, summed where a value is used twice.
class Cotangents {
public:
  explicit Cotangents(OpBuilder &b) : b(b) {}
  Value lookup(Value v) const { return map.lookup(v); }
  void add(Value v, Value cotangent, Location loc) {
    auto [it, inserted] = map.try_emplace(v, cotangent);
    if (!inserted)
      it->second = arith::AddFOp::create(b, loc, it->second, cotangent);
  }

private:
  OpBuilder &b;
  DenseMap<Value, Value> map;
};

//===----------------------------------------------------------------------===//
// Checks and preparation of @f
//===----------------------------------------------------------------------===//

/// moe.name and moe.role, where set, must be strings (annotateEntryNames and
/// the artifact metadata read them as such).
LogicalResult checkNameAttrs(func::FuncOp f) {
  auto check = [&](DictionaryAttr attrs, StringRef what,
                   unsigned index) -> LogicalResult {
    if (!attrs)
      return success();
    for (StringRef key : {kNameAttr, kRoleAttr}) {
      Attribute value = attrs.get(key);
      if (value && !isa<StringAttr>(value))
        return f.emitError() << what << " " << index << " of @"
                             << f.getSymName() << " has " << key << " = "
                             << value << "; expected a string";
    }
    return success();
  };
  for (unsigned i = 0, e = f.getNumArguments(); i < e; ++i)
    if (failed(check(f.getArgAttrDict(i), "argument", i)))
      return failure();
  for (unsigned i = 0, e = f.getNumResults(); i < e; ++i)
    if (failed(check(f.getResultAttrDict(i), "result", i)))
      return failure();
  return success();
}

/// @f_fwd and @f_bwd must be new symbols of the module.
LogicalResult checkEntryNamesFree(func::FuncOp f) {
  auto module = f->getParentOfType<ModuleOp>();
  for (StringRef suffix : {"_fwd", "_bwd"}) {
    std::string name = (f.getSymName() + suffix).str();
    if (Operation *existing = module.lookupSymbol(name)) {
      InFlightDiagnostic diag = f.emitError("moe-generate-vjp: cannot "
                                            "differentiate @")
                                << f.getSymName() << ": the module already "
                                << "has a symbol @" << name;
      diag.attachNote(existing->getLoc()) << "@" << name << " is here";
      return diag;
    }
  }
  return success();
}

/// Names every argument and result of @f (the names of @f_fwd and @f_bwd's
/// entries derive from them) and expands moe.layer into the ops with
/// adjoints.
LogicalResult prepareForward(func::FuncOp f) {
  annotateEntryNames(f);
  RewritePatternSet patterns(f.getContext());
  populateExpandLayerPatterns(patterns);
  if (failed(applyPatternsGreedily(f, std::move(patterns))))
    return f.emitError("moe-generate-vjp: could not expand moe.layer");
  return success();
}

//===----------------------------------------------------------------------===//
// The backward @f_bwd
//===----------------------------------------------------------------------===//

/// An argument or result of @f_bwd derived from a result or argument of @f
/// (a cotangent d_<result>, a gradient d_<argument>): its name and the
/// index of the result or argument.
struct Derived {
  std::string name;
  unsigned index;
};

/// Adds one cotangent argument to @f_bwd per float result of @f, seeding
/// `cots`; returns their names, d_<result>, and results.
SmallVector<Derived> addCotangentArguments(func::FuncOp f, Block &bwdBody,
                                           Cotangents &cots) {
  auto ret = cast<func::ReturnOp>(f.getBody().front().getTerminator());
  SmallVector<Derived> names;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    if (!isFloatTensor(value))
      continue;
    BlockArgument dres = bwdBody.addArgument(value.getType(), value.getLoc());
    cots.add(value, dres, value.getLoc());
    auto name = f.getResultAttrOfType<StringAttr>(i, kNameAttr);
    names.push_back({"d_" + name.str(), static_cast<unsigned>(i)});
  }
  return names;
}

/// Adds the cotangents of `op`'s operands from those of its results, if any
/// result has one. An op without an adjoint is an error naming it.
LogicalResult applyAdjoint(Operation &op, BackwardBuilder &bb,
                           Cotangents &cots) {
  SmallVector<Value> dres;
  for (Value r : op.getResults())
    dres.push_back(cots.lookup(r));
  if (llvm::none_of(dres, [](Value d) { return static_cast<bool>(d); }))
    return success();
  auto vjp = dyn_cast<VJPOpInterface>(&op);
  if (!vjp)
    return op.emitOpError("has no adjoint: moe-generate-vjp supports the moe "
                          "ops, ")
           << describeUpstreamVJPOps();
  // The moe adjoints build their tensors from the op's static extents.
  if (isa<MoeDialect>(op.getDialect()))
    for (auto [kind, values] : {std::pair<StringRef, ValueRange>{
                                    "operand", op.getOperands()},
                                {"result", op.getResults()}})
      for (auto [i, v] : llvm::enumerate(values))
        if (auto t = dyn_cast<RankedTensorType>(v.getType());
            t && !t.hasStaticShape())
          return op.emitOpError("adjoint needs static shapes, but ")
                 << kind << " #" << i << " is " << t;
  SmallVector<Value> dops;
  if (failed(vjp.buildVJP(bb.getBuilder(), bb, dres, dops)))
    return failure();
  for (auto [i, d] : llvm::enumerate(dops))
    if (d && vjp.isDifferentiableOperand(i) && isFloatTensor(op.getOperand(i)))
      cots.add(op.getOperand(i), d, op.getLoc());
  return success();
}

/// Returns from @f_bwd the gradients of the arguments of @f that a cotangent
/// reaches and fixes @f_bwd's type; returns their names, d_<argument>, and
/// arguments.
SmallVector<Derived> returnGradients(func::FuncOp f, func::FuncOp bwd,
                                     OpBuilder &b, const Cotangents &cots) {
  SmallVector<Value> grads;
  SmallVector<Derived> names;
  for (BlockArgument arg : f.getArguments()) {
    Value g = cots.lookup(arg);
    if (!g)
      continue;
    grads.push_back(g);
    auto name = f.getArgAttrOfType<StringAttr>(arg.getArgNumber(), kNameAttr);
    names.push_back({"d_" + name.str(), arg.getArgNumber()});
  }
  func::ReturnOp::create(b, f.getLoc(), grads);
  bwd.setFunctionType(FunctionType::get(
      f.getContext(), bwd.getBody().front().getArgumentTypes(),
      ValueRange(grads).getTypes()));
  return names;
}

//===----------------------------------------------------------------------===//
// The forward @f_fwd
//===----------------------------------------------------------------------===//

/// @f_fwd, before @f_bwd: @f that also returns the residuals (not the
/// arguments of @f the backward takes: the caller has those already).
func::FuncOp createForwardWithResiduals(func::FuncOp f, func::FuncOp bwd,
                                        const BackwardBuilder &bb) {
  IRMapping fwdMap;
  OpBuilder moduleBuilder(bwd);
  auto fwd = cast<func::FuncOp>(moduleBuilder.clone(*f, fwdMap));
  fwd.setSymName((f.getSymName() + "_fwd").str());
  auto fwdRet = cast<func::ReturnOp>(fwd.getBody().front().getTerminator());
  SmallVector<Value> fwdResults(fwdRet.getOperands());
  for (Value v : bb.getSaved())
    if (!bb.isPrimalArgument(v))
      fwdResults.push_back(fwdMap.lookup(v));
  OpBuilder retBuilder(fwdRet);
  func::ReturnOp::create(retBuilder, fwdRet.getLoc(), fwdResults);
  fwdRet.erase();
  fwd.setFunctionType(FunctionType::get(f.getContext(), fwd.getArgumentTypes(),
                                        ValueRange(fwdResults).getTypes()));
  return fwd;
}

//===----------------------------------------------------------------------===//
// Names and roles of the entries (artifact metadata)
//===----------------------------------------------------------------------===//

/// `attrs` with `key` set to `value`.
DictionaryAttr withAttr(DictionaryAttr attrs, StringRef key, Attribute value) {
  NamedAttrList list(attrs);
  list.set(key, value);
  return list.getDictionary(attrs.getContext());
}

/// Whether @f is a per-rank function (moe-expert-parallel's): an argument or
/// result says how it is spread over the ranks.
bool isSharded(func::FuncOp f) {
  auto annotated = [](DictionaryAttr attrs) {
    return attrs && (attrs.get(kSplitDimAttr) || attrs.get(kPartialSumAttr));
  };
  for (unsigned i = 0, e = f.getNumArguments(); i < e; ++i)
    if (annotated(f.getArgAttrDict(i)))
      return true;
  for (unsigned i = 0, e = f.getNumResults(); i < e; ++i)
    if (annotated(f.getResultAttrDict(i)))
      return true;
  return false;
}

/// `attrs` with the sharding annotation of `source` (an argument or result
/// of @f), if it has one: a primal argument keeps its own, the cotangent
/// of a result has the result's.
DictionaryAttr withShardingOf(DictionaryAttr attrs, DictionaryAttr source) {
  if (!source)
    return attrs;
  for (StringRef key :
       {kSplitDimAttr, kSplitAxesAttr, kPartialSumAttr, kPartialAxesAttr})
    if (Attribute value = source.get(key))
      attrs = withAttr(attrs, key, value);
  return attrs;
}

/// `attrs` of the gradient of an argument of a per-rank @f: split on the
/// argument's dim and axes where the argument is split; a partial sum over
/// the axes @f's tokens are split over and the argument is not (all of
/// them for a replicated argument: the caller sums its gradient over the
/// ranks, as data-parallel training does). Without `moe.batch_axes` the
/// tokens are split over every axis.
DictionaryAttr withGradientSharding(func::FuncOp f, DictionaryAttr attrs,
                                    DictionaryAttr argAttrs) {
  MLIRContext *ctx = attrs.getContext();
  Attribute dim = argAttrs ? argAttrs.get(kSplitDimAttr) : nullptr;
  auto splitAxes = argAttrs ? argAttrs.getAs<DenseI64ArrayAttr>(kSplitAxesAttr)
                            : nullptr;
  auto batchAxes = f->getAttrOfType<DenseI64ArrayAttr>(kBatchAxesAttr);
  if (dim) {
    attrs = withAttr(attrs, kSplitDimAttr, dim);
    if (splitAxes)
      attrs = withAttr(attrs, kSplitAxesAttr, splitAxes);
  }
  if (!batchAxes)
    return dim ? attrs : withAttr(attrs, kPartialSumAttr, UnitAttr::get(ctx));
  SmallVector<int64_t> partialAxes;
  for (int64_t axis : batchAxes.asArrayRef())
    if (!dim || (splitAxes && !llvm::is_contained(splitAxes.asArrayRef(), axis)))
      partialAxes.push_back(axis);
  if (partialAxes.empty())
    return attrs;
  attrs = withAttr(attrs, kPartialSumAttr, UnitAttr::get(ctx));
  return withAttr(attrs, kPartialAxesAttr,
                  DenseI64ArrayAttr::get(ctx, partialAxes));
}

/// Names the forward values @f_bwd takes: an argument of @f keeps its
/// moe.name/moe.role (annotateEntryNames set both); a residual is res<i>
/// (among residuals), made distinct from every name of @f, which @f_fwd keeps,
/// and is also appended to @f_fwd's results.
void nameSavedValues(func::FuncOp f, const BackwardBuilder &bb,
                     SmallVectorImpl<DictionaryAttr> &bwdArgAttrs,
                     SmallVectorImpl<DictionaryAttr> &fwdResultAttrs) {
  MLIRContext *ctx = f.getContext();
  llvm::StringSet<> taken;
  for (unsigned i = 0, e = f.getNumArguments(); i < e; ++i)
    taken.insert(f.getArgAttrOfType<StringAttr>(i, kNameAttr).getValue());
  for (unsigned i = 0, e = f.getNumResults(); i < e; ++i)
    taken.insert(f.getResultAttrOfType<StringAttr>(i, kNameAttr).getValue());
  unsigned numResiduals = 0;
  for (Value v : bb.getSaved()) {
    if (bb.isPrimalArgument(v)) {
      unsigned i = cast<BlockArgument>(v).getArgNumber();
      bwdArgAttrs.push_back(withShardingOf(
          nameAndRole(ctx,
                      f.getArgAttrOfType<StringAttr>(i, kNameAttr).getValue(),
                      f.getArgAttrOfType<StringAttr>(i, kRoleAttr).getValue()),
          f.getArgAttrDict(i)));
      continue;
    }
    std::string name = "res" + std::to_string(numResiduals++);
    while (taken.contains(name))
      name += "_";
    taken.insert(name);
    fwdResultAttrs.push_back(nameAndRole(ctx, name, "residual"));
    bwdArgAttrs.push_back(nameAndRole(ctx, name, "residual"));
  }
}

/// @f_bwd's names must be distinct (the artifact metadata requires it); the
/// arguments of @f it takes could clash with d_<result> / d_<argument>.
LogicalResult checkDistinctNames(func::FuncOp f, func::FuncOp bwd,
                                 ArrayRef<DictionaryAttr> argAttrs,
                                 ArrayRef<DictionaryAttr> resultAttrs) {
  llvm::StringSet<> names;
  auto check = [&](ArrayRef<DictionaryAttr> list,
                   StringRef what) -> LogicalResult {
    for (DictionaryAttr attrs : list) {
      StringRef name = cast<StringAttr>(attrs.get(kNameAttr)).getValue();
      if (!names.insert(name).second)
        return f.emitError("moe-generate-vjp: cannot differentiate @")
               << f.getSymName() << ": " << what << " '" << name << "' of @"
               << bwd.getSymName() << " has the name of another of its "
               << "arguments or results (rename an argument or result of @"
               << f.getSymName() << " with " << kNameAttr << ")";
    }
    return success();
  };
  return success(succeeded(check(argAttrs, "argument")) &&
                 succeeded(check(resultAttrs, "result")));
}

/// Sets moe.name/moe.role on @f_fwd's results (@f's, then the residuals) and
/// on @f_bwd's arguments (saved values, then cotangents) and results
/// (gradients). For a per-rank @f, the arguments of @f keep their sharding
/// annotations, a cotangent has its result's, a gradient its argument's
/// split or moe.partial_sum; residuals are rank-local and carry none.
LogicalResult nameEntries(func::FuncOp f, func::FuncOp fwd, func::FuncOp bwd,
                          const BackwardBuilder &bb,
                          ArrayRef<Derived> cotangents,
                          ArrayRef<Derived> gradients) {
  MLIRContext *ctx = f.getContext();
  SmallVector<DictionaryAttr> fwdResultAttrs;
  f.getAllResultAttrs(fwdResultAttrs);
  SmallVector<DictionaryAttr> bwdArgAttrs;
  nameSavedValues(f, bb, bwdArgAttrs, fwdResultAttrs);
  bool sharded = isSharded(f);
  for (const Derived &cotangent : cotangents)
    bwdArgAttrs.push_back(
        withShardingOf(nameAndRole(ctx, cotangent.name, "cotangent"),
                       f.getResultAttrDict(cotangent.index)));
  SmallVector<DictionaryAttr> bwdResultAttrs;
  for (const Derived &gradient : gradients) {
    DictionaryAttr attrs = nameAndRole(ctx, gradient.name, "gradient");
    bwdResultAttrs.push_back(
        sharded ? withGradientSharding(f, attrs, f.getArgAttrDict(gradient.index))
                : attrs);
  }
  if (failed(checkDistinctNames(f, bwd, bwdArgAttrs, bwdResultAttrs)))
    return failure();
  fwd.setAllResultAttrs(fwdResultAttrs);
  bwd.setAllArgAttrs(bwdArgAttrs);
  bwd.setAllResultAttrs(bwdResultAttrs);
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Adds @f_fwd and @f_bwd after @f.
LogicalResult differentiate(func::FuncOp f, const RecomputePolicy &policy) {
  // The adjoints run backward through one block, from its func.return.
  if (failed(requireStraightLineBody(f, "moe-generate-vjp")))
    return failure();
  if (failed(checkEntryNamesFree(f)) || failed(checkNameAttrs(f)) ||
      failed(prepareForward(f)))
    return failure();

  // The backward: cotangent arguments first; the forward values the
  // adjoints ask for (arguments of @f and residuals) get inserted before
  // them.
  OpBuilder moduleBuilder(f.getContext());
  moduleBuilder.setInsertionPointAfter(f);
  auto bwd = func::FuncOp::create(
      moduleBuilder, f.getLoc(), (f.getSymName() + "_bwd").str(),
      FunctionType::get(f.getContext(), {}, {}));
  Block *bwdBody = bwd.addEntryBlock();
  Block &primalBody = f.getBody().front();
  BackwardBuilder bb(bwd, primalBody, policy);
  Cotangents cots(bb.getBuilder());
  SmallVector<Derived> cotangents = addCotangentArguments(f, *bwdBody, cots);
  for (Operation &op : llvm::reverse(primalBody.without_terminator()))
    if (failed(applyAdjoint(op, bb, cots)))
      return failure();
  SmallVector<Derived> gradients =
      returnGradients(f, bwd, bb.getBuilder(), cots);

  func::FuncOp fwd = createForwardWithResiduals(f, bwd, bb);
  return nameEntries(f, fwd, bwd, bb, cotangents, gradients);
}

struct MoeGenerateVJPPass
    : mlir::moe::impl::MoeGenerateVJPPassBase<MoeGenerateVJPPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<RecomputePolicy> policy =
        RecomputePolicy::parse(recompute, getOperation());
    if (failed(policy))
      return signalPassFailure();
    FailureOr<SmallVector<func::FuncOp>> targets = collectTargets();
    if (failed(targets))
      return signalPassFailure();
    for (func::FuncOp func : *targets)
      if (failed(differentiate(func, *policy)))
        return signalPassFailure();
  }

  /// The functions to differentiate: @`function` if the option names one,
  /// else every public function with a body that is no _fwd/_bwd and has no
  /// _bwd yet.
  FailureOr<SmallVector<func::FuncOp>> collectTargets() {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> targets;
    for (auto func : module.getOps<func::FuncOp>()) {
      StringRef name = func.getSymName();
      if (func.isExternal() || func.isPrivate())
        continue;
      if (!function.empty()
              ? name != function
              : (name.ends_with("_fwd") || name.ends_with("_bwd") ||
                 module.lookupSymbol((name + "_bwd").str())))
        continue;
      targets.push_back(func);
    }
    if (function.empty() || !targets.empty())
      return targets;
    if (auto func = module.lookupSymbol<func::FuncOp>(function))
      return func.emitError("moe-generate-vjp: @")
             << function << " is "
             << (func.isExternal() ? "a declaration without a body"
                                   : "private")
             << "; only public functions with a body are differentiated";
    return module.emitError("moe-generate-vjp: no public function @")
           << function;
  }
};
} // namespace
