//===- Fuse.cpp - moe-fuse: fewer kernels for the same moe graph ----------===//
//
// Each fusion is a rewrite pattern behind its own pass option.
//
// gate-up-epilogue: glu(act, grouped_matmul(xs, w_gate|up)) with the [R, 2F]
// product read by the glu alone becomes one grouped_matmul whose epilogue
// region computes act(gate) · up (opmath::buildActivation, the formula the
// glu itself lowers to) from the accumulators of columns j and F + j.
//
// gate-up-weights: glu(act, grouped_matmul(xs, w_gate), grouped_matmul(xs,
// w_up)) becomes one grouped_matmul on both weights (up_weight) with the
// same epilogue; with gate-up-weights-residuals, products the backward saves
// become extra destinations of it.
//
// accumulate-matmuls: arith.addf of two grouped matmul products of the same
// rows (same group sizes, same c type; each product read by the add alone),
// e.g. the two halves of a gated FFN's input gradient, becomes the second
// grouped matmul accumulating into the first one's result, placed right
// after the first: no sum kernel, the sum is rounded once, and the generated
// GEMM computes both products in one kernel.
//
// elementwise-epilogue: an elementwise linalg.generic that reads a grouped
// matmul's product (read by nothing else) and other [R, N] tensors becomes
// that matmul's epilogue: the other tensors its epilogue inputs, the
// generic's results its destinations (at most three). The backward's
// activation adjoint (d_gate, d_up from gate, up and dh = dy · W_downᵀ) is
// one: dh is never stored.
//
// recompute-in-epilogue: a glu over two epilogue inputs of one grouped
// matmul (the saved gate and up, where the backward recomputes the
// activation) becomes one more destination of that epilogue.
//
// quantize-with-transpose: quantize block_1x128 of x and of transpose(x)
// (an FP8 gradient's dgrad and wgrad operands) become one
// moe.quantize_with_transpose where the first of the two was.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Dialect/Utils/OpMath.h"
#include "MoeDialect/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::moe {
#define GEN_PASS_DEF_MOEFUSEPASS
#include "MoeDialect/Transforms/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;

namespace {

/// The epilogue region of a gate|up grouped matmul: `fused`'s block taking
/// the gate and up accumulators, and act(gate) · up built in it at
/// `rewriter` (opmath::buildActivation, the formula the glu itself lowers
/// to); the caller yields.
struct GluEpilogue {
  Value gate, up, h;
};
GluEpilogue buildGluEpilogue(PatternRewriter &rewriter, Location loc,
                             GroupedMatmulOp fused, Activation activation) {
  Block *body = rewriter.createBlock(&fused.getEpilogue());
  Type f32 = rewriter.getF32Type();
  GluEpilogue epilogue;
  epilogue.gate = body->addArgument(f32, loc);
  epilogue.up = body->addArgument(f32, loc);
  Value activated =
      opmath::buildActivation(rewriter, loc, activation, epilogue.gate);
  epilogue.h = arith::MulFOp::create(rewriter, loc, activated, epilogue.up);
  return epilogue;
}

/// `v` as the product of a plain grouped matmul (no epilogue, FP8 scales or
/// accumulate) on tensors, one that gemm=auto generates where
/// `generatedKernelsOnly`; else null.
GroupedMatmulOp plainProduct(Value v, bool generatedKernelsOnly) {
  auto mm = v.getDefiningOp<GroupedMatmulOp>();
  if (!mm || !mm.hasPureTensorSemantics() || mm.getEpilogueBlock() ||
      mm.getAScale() || mm.getAccumulate() || mm->getNumResults() != 1 ||
      (generatedKernelsOnly && !autoPrefersGeneratedKernel(mm)))
    return GroupedMatmulOp();
  return mm;
}

struct GateUpEpilogue : OpRewritePattern<GluOp> {
  GateUpEpilogue(MLIRContext *ctx, bool generatedKernelsOnly)
      : OpRewritePattern(ctx), generatedKernelsOnly(generatedKernelsOnly) {}
  bool generatedKernelsOnly;

  LogicalResult matchAndRewrite(GluOp glu,
                                PatternRewriter &rewriter) const override {
    if (!glu.hasPureTensorSemantics() || glu.getUp())
      return rewriter.notifyMatchFailure(glu,
                                         "not a glu on one [R, 2F] tensor");
    GroupedMatmulOp product = plainProduct(glu.getGate(), generatedKernelsOnly);
    if (!product)
      return rewriter.notifyMatchFailure(
          glu, "gate|up is not a plain bf16/f32 grouped matmul product (or "
               "gemm=auto leaves it to cuBLASLt)");
    if (!glu.getGate().hasOneUse())
      return rewriter.notifyMatchFailure(
          glu, "the [R, 2F] product has readers besides the glu");

    Location loc = rewriter.getFusedLoc({product.getLoc(), glu.getLoc()});
    auto fused = GroupedMatmulOp::create(
        rewriter, loc, glu.getH().getType(), product.getA(), product.getB(),
        /*b_up=*/Value(), product.getGroupSizes(), Value(), Value(),
        /*row_scale=*/Value(), /*epilogue_inputs=*/ValueRange(),
        product.getWeightLayoutAttr(),
        /*accumulate=*/UnitAttr(), glu.getHInit());
    GluEpilogue epilogue =
        buildGluEpilogue(rewriter, loc, fused, glu.getActivation());
    YieldOp::create(rewriter, loc, epilogue.h);
    rewriter.replaceOp(glu, fused.getResults());
    rewriter.eraseOp(product);
    return success();
  }
};

struct GateUpWeights : OpRewritePattern<GluOp> {
  GateUpWeights(MLIRContext *ctx, bool generatedKernelsOnly, bool residuals)
      : OpRewritePattern(ctx), generatedKernelsOnly(generatedKernelsOnly),
        residuals(residuals) {}
  bool generatedKernelsOnly;
  /// Whether products with other readers are fused too (as extra
  /// destinations).
  bool residuals;

  LogicalResult matchAndRewrite(GluOp glu,
                                PatternRewriter &rewriter) const override {
    if (!glu.hasPureTensorSemantics() || !glu.getUp())
      return rewriter.notifyMatchFailure(glu, "not a glu on gate and up apart");
    GroupedMatmulOp gate = plainProduct(glu.getGate(), generatedKernelsOnly);
    GroupedMatmulOp up = plainProduct(glu.getUp(), generatedKernelsOnly);
    if (!gate || !up || gate == up)
      return rewriter.notifyMatchFailure(
          glu, "gate and up are not two plain grouped matmul products");
    if (gate.getA() != up.getA() ||
        gate.getGroupSizes() != up.getGroupSizes() ||
        gate.getWeightLayout() != up.getWeightLayout() ||
        gate.getB().getType() != up.getB().getType() ||
        gate.getC().getType() != up.getC().getType() ||
        gate.getC().getType() != glu.getH().getType())
      return rewriter.notifyMatchFailure(
          glu, "gate and up differ in rows, group sizes, layout or types");
    if (!residuals &&
        !(glu.getGate().hasOneUse() && glu.getUp().hasOneUse()))
      return rewriter.notifyMatchFailure(
          glu, "gate or up has other readers (gate-up-weights-residuals)");
    // The fused op runs where the glu is: the products' other readers (the
    // backward's residuals) must come after it.
    DominanceInfo dominance;
    for (GroupedMatmulOp product : {gate, up})
      for (Operation *user : product.getC().getUsers())
        if (user != glu && !dominance.properlyDominates(glu, user))
          return rewriter.notifyMatchFailure(
              glu, "a product is read before the glu");

    // Destinations: h, then each product something else reads.
    SmallVector<Value> outs = {glu.getHInit()};
    SmallVector<GroupedMatmulOp> saved;
    for (GroupedMatmulOp product : {gate, up})
      if (!product.getC().hasOneUse()) {
        outs.push_back(product.getCInit());
        saved.push_back(product);
      }
    Location loc =
        rewriter.getFusedLoc({gate.getLoc(), up.getLoc(), glu.getLoc()});
    rewriter.setInsertionPoint(glu);
    auto fused = GroupedMatmulOp::create(
        rewriter, loc, ValueRange(outs).getTypes(), gate.getA(), gate.getB(),
        up.getB(), gate.getGroupSizes(), Value(), Value(),
        /*row_scale=*/Value(), /*epilogue_inputs=*/ValueRange(),
        gate.getWeightLayoutAttr(), /*accumulate=*/UnitAttr(), outs);
    GluEpilogue epilogue =
        buildGluEpilogue(rewriter, loc, fused, glu.getActivation());
    SmallVector<Value, 3> yielded = {epilogue.h};
    for (GroupedMatmulOp product : saved)
      yielded.push_back(product == gate ? epilogue.gate : epilogue.up);
    YieldOp::create(rewriter, loc, yielded);
    rewriter.replaceOp(glu, fused.getResult(0));
    for (GroupedMatmulOp product : {gate, up}) {
      auto it = llvm::find(saved, product);
      if (it == saved.end())
        rewriter.eraseOp(product);
      else
        rewriter.replaceOp(product, fused.getResult(1 + (it - saved.begin())));
    }
    return success();
  }
};

/// The longest contraction of a block-scaled FP8 product that
/// accumulate-matmuls pairs. A pair's tiles stream both products' operands,
/// twice the bytes a tile of either alone keeps in flight: on one H200
/// qwen3-30b-a3b's dgrad pair (K = 768 + 768) took 986 us against 603 + 603
/// + 368 for the products and their sum apart, mixtral-8x7b's (K = 14336 +
/// 14336) 4079 us against 1934 + 1934 + 95
/// (bench/results/2026-11-30-h200-fp8-fusion run4, run2).
constexpr int64_t kMaxPairedFp8K = 4096;

struct AccumulateMatmuls : OpRewritePattern<arith::AddFOp> {
  AccumulateMatmuls(MLIRContext *ctx, bool generatedKernelsOnly)
      : OpRewritePattern(ctx), generatedKernelsOnly(generatedKernelsOnly) {}
  bool generatedKernelsOnly;

  /// `v` as the result of a grouped matmul the add may fold (no epilogue, no
  /// tensor-wise FP8 scales, not accumulating already; unlike plainProduct,
  /// block-scaled FP8 ones too) on tensors that only the add reads.
  GroupedMatmulOp addend(Value v) const {
    auto mm = v.getDefiningOp<GroupedMatmulOp>();
    if (!mm || !mm.hasPureTensorSemantics() || mm.getEpilogueBlock() ||
        (mm.getAScale() && !mm.hasBlockScales()) || mm.getAccumulate() ||
        !v.hasOneUse() ||
        (generatedKernelsOnly && !autoPrefersGeneratedKernel(mm)))
      return GroupedMatmulOp();
    return mm;
  }

  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    GroupedMatmulOp first = addend(add.getLhs());
    GroupedMatmulOp second = addend(add.getRhs());
    if (!first || !second || first == second)
      return rewriter.notifyMatchFailure(
          add, "not a sum of two plain grouped matmul products");
    if (first.getGroupSizes() != second.getGroupSizes() ||
        first.getC().getType() != add.getType() ||
        second.getC().getType() != add.getType())
      return rewriter.notifyMatchFailure(
          add, "the products cover different row groups or types");
    // FP8 pairs: one kernel takes both only with the same operand types and
    // weight layout (convert-grouped-matmul-to-nvgpu's accumulatedProduct).
    if (first.hasBlockScales() != second.hasBlockScales() ||
        (first.hasBlockScales() &&
         (getElementTypeOrSelf(first.getA().getType()) !=
              getElementTypeOrSelf(second.getA().getType()) ||
          getElementTypeOrSelf(first.getB().getType()) !=
              getElementTypeOrSelf(second.getB().getType()) ||
          first.getWeightLayout() != second.getWeightLayout())))
      return rewriter.notifyMatchFailure(
          add, "a bf16 and an FP8 product, or FP8 products of different "
               "operand types or weight layouts");
    // An FP8 product that accumulates has no kernel but its pair's
    // (convert-grouped-matmul-to-nvgpu): fuse only what that pass pairs.
    // It looks for `first` right before `second`, so both must be where
    // the add is; and both need what a generated FP8 kernel takes.
    auto contraction = [](GroupedMatmulOp mm) {
      return cast<ShapedType>(mm.getA().getType()).getDimSize(1);
    };
    auto generatable = [&](GroupedMatmulOp mm) {
      int64_t k = contraction(mm);
      return !ShapedType::isDynamic(k) && k % 128 == 0 &&
             k <= kMaxPairedFp8K &&
             cast<ShapedType>(mm.getAScale().getType()).hasStaticShape() &&
             cast<ShapedType>(mm.getBScale().getType()).hasStaticShape();
    };
    if (first.hasBlockScales() &&
        (first->getBlock() != add->getBlock() ||
         second->getBlock() != add->getBlock() || !generatable(first) ||
         !generatable(second)))
      return rewriter.notifyMatchFailure(
          add, "FP8 products that one generated kernel cannot take (in "
               "another block than the add, K not a multiple of 128 or "
               "longer than the pair pays for, dynamic scales)");
    // The second product runs where the add was, accumulating into the
    // first, which dominates the add.
    Location loc = rewriter.getFusedLoc({second.getLoc(), add.getLoc()});
    auto fused = GroupedMatmulOp::create(
        rewriter, loc, add.getType(), second.getA(), second.getB(),
        second.getBUp(), second.getGroupSizes(), second.getAScale(),
        second.getBScale(),
        /*row_scale=*/Value(), /*epilogue_inputs=*/ValueRange(),
        second.getWeightLayoutAttr(), rewriter.getUnitAttr(), first.getC());
    rewriter.replaceOp(add, fused.getResults());
    rewriter.eraseOp(second);
    // The first product runs right before the second, which alone reads
    // it: after bufferization nothing lies between the two, and
    // convert-grouped-matmul-to-nvgpu makes them one kernel.
    if (first->getBlock() == fused->getBlock())
      rewriter.moveOpBefore(first, fused);
    return success();
  }
};

/// The most destinations a grouped matmul's epilogue writes (c, c1, c2).
constexpr unsigned kMaxEpilogueDestinations = 3;

/// A float tensor of `shape` with bf16, f16 or f32 elements.
bool isActivationTensorOf(Type type, ArrayRef<int64_t> shape) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getShape() == shape &&
         isa<BFloat16Type, Float16Type, Float32Type>(tensor.getElementType());
}

/// Fresh destinations of `types` at the builder's insertion point.
SmallVector<Value> emptyTensors(PatternRewriter &rewriter, Location loc,
                                TypeRange types) {
  SmallVector<Value> inits;
  for (Type type : types) {
    auto tensor = cast<RankedTensorType>(type);
    inits.push_back(tensor::EmptyOp::create(rewriter, loc, tensor.getShape(),
                                            tensor.getElementType()));
  }
  return inits;
}

struct ElementwiseEpilogue : OpRewritePattern<linalg::GenericOp> {
  ElementwiseEpilogue(MLIRContext *ctx, bool generatedKernelsOnly)
      : OpRewritePattern(ctx), generatedKernelsOnly(generatedKernelsOnly) {}
  bool generatedKernelsOnly;

  /// The plain grouped matmul (no epilogue, FP8 scales or accumulate) whose
  /// product is `v`, read once and by nothing else.
  GroupedMatmulOp soleProduct(Value v) const {
    return v.hasOneUse() ? plainProduct(v, generatedKernelsOnly)
                         : GroupedMatmulOp();
  }

  LogicalResult matchAndRewrite(linalg::GenericOp generic,
                                PatternRewriter &rewriter) const override {
    if (!generic.hasPureTensorSemantics() || generic.getNumLoops() != 2 ||
        generic.getNumParallelLoops() != 2 ||
        !llvm::all_of(generic.getIndexingMapsArray(),
                      [](AffineMap m) { return m.isIdentity(); }))
      return rewriter.notifyMatchFailure(generic, "not elementwise over 2-D");
    if (generic.getNumDpsInits() > kMaxEpilogueDestinations)
      return rewriter.notifyMatchFailure(generic, "more than 3 results");
    GroupedMatmulOp mm;
    unsigned productIndex = 0;
    for (auto [i, input] : llvm::enumerate(generic.getDpsInputs()))
      if (GroupedMatmulOp candidate = soleProduct(input)) {
        mm = candidate;
        productIndex = i;
        break;
      }
    if (!mm)
      return rewriter.notifyMatchFailure(
          generic, "reads no plain grouped matmul product of its own");
    ArrayRef<int64_t> shape = mm.getC().getType().getShape();
    DominanceInfo dominance;
    SmallVector<Value> inputs;
    for (auto [i, input] : llvm::enumerate(generic.getDpsInputs())) {
      if (i == productIndex)
        continue;
      if (!isActivationTensorOf(input.getType(), shape) ||
          !dominance.properlyDominates(input, mm))
        return rewriter.notifyMatchFailure(
            generic, "an input is not a float [R, N] tensor available at the "
                     "grouped matmul");
      inputs.push_back(input);
    }
    Block *payload = generic.getBody();
    for (OpOperand &init : generic.getDpsInitsMutable())
      if (!isActivationTensorOf(init.get().getType(), shape) ||
          !generic.getMatchingBlockArgument(&init).use_empty())
        return rewriter.notifyMatchFailure(
            generic, "a result is not a float [R, N] tensor written whole");
    if (!llvm::all_of(payload->without_terminator(),
                      GroupedMatmulOp::isEpilogueOp))
      return rewriter.notifyMatchFailure(generic,
                                         "the body is not scalar arithmetic");

    // The fused matmul runs where the product was computed.
    Location loc = rewriter.getFusedLoc({mm.getLoc(), generic.getLoc()});
    rewriter.setInsertionPoint(mm);
    auto fused = GroupedMatmulOp::create(
        rewriter, loc, generic.getResultTypes(), mm.getA(), mm.getB(),
        mm.getBUp(), mm.getGroupSizes(), Value(), Value(),
        /*row_scale=*/Value(), inputs,
        mm.getWeightLayoutAttr(), /*accumulate=*/UnitAttr(),
        emptyTensors(rewriter, loc, generic.getResultTypes()));
    Type f32 = rewriter.getF32Type();
    Block *body = rewriter.createBlock(&fused.getEpilogue());
    Value accumulator = body->addArgument(f32, loc);
    SmallVector<Value> inputArgs;
    for (size_t i = 0; i < inputs.size(); ++i)
      inputArgs.push_back(body->addArgument(f32, loc));

    // The payload's element arguments bound to the epilogue's f32 ones: an
    // arith.extf to f32 of one is that f32 argument itself (exact for the
    // inputs; the product is then not rounded to its element type first,
    // as in gate-up-epilogue); any other use sees it rounded back.
    IRMapping mapping;
    DenseSet<Operation *> bound;
    for (auto [i, input] : llvm::enumerate(generic.getDpsInputs())) {
      BlockArgument element = payload->getArgument(i);
      Value wide = i == productIndex
                       ? accumulator
                       : inputArgs[i < productIndex ? i : i - 1];
      for (Operation *user : element.getUsers())
        if (auto ext = dyn_cast<arith::ExtFOp>(user);
            ext && ext.getType().isF32()) {
          mapping.map(ext.getResult(), wide);
          bound.insert(ext);
        }
      mapping.map(element,
                  element.getType().isF32()
                      ? wide
                      : arith::TruncFOp::create(rewriter, loc,
                                                element.getType(), wide)
                            .getResult());
    }
    for (Operation &op : payload->without_terminator())
      if (!bound.contains(&op))
        rewriter.clone(op, mapping);
    // Yield f32: a result rounded to its destination's type by an
    // arith.truncf is yielded unrounded (the destination rounds it the same
    // way).
    SmallVector<Value> yielded;
    for (auto [value, type] : llvm::zip(payload->getTerminator()->getOperands(),
                                        generic.getResultTypes())) {
      Type elem = cast<RankedTensorType>(type).getElementType();
      auto trunc = value.getDefiningOp<arith::TruncFOp>();
      if (trunc && trunc->getBlock() == payload && trunc.getType() == elem &&
          trunc.getIn().getType().isF32())
        value = trunc.getIn();
      Value v = mapping.lookupOrDefault(value);
      if (!v.getType().isF32())
        v = arith::ExtFOp::create(rewriter, loc, f32, v);
      yielded.push_back(v);
    }
    YieldOp::create(rewriter, loc, yielded);
    rewriter.replaceOp(generic, fused.getResults());
    rewriter.eraseOp(mm);
    return success();
  }
};

struct RecomputeInEpilogue : OpRewritePattern<GluOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GluOp glu,
                                PatternRewriter &rewriter) const override {
    if (!glu.hasPureTensorSemantics() || !glu.getUp())
      return rewriter.notifyMatchFailure(glu, "not a glu on gate and up");
    // A grouped matmul whose epilogue reads both gate and up.
    GroupedMatmulOp fused;
    unsigned gateIndex = 0, upIndex = 0;
    for (Operation *user : glu.getGate().getUsers()) {
      auto mm = dyn_cast<GroupedMatmulOp>(user);
      if (!mm || !mm.getEpilogueBlock() || !mm.hasPureTensorSemantics() ||
          mm->getNumResults() >= kMaxEpilogueDestinations)
        continue;
      auto inputs = mm.getEpilogueInputs();
      auto gate = llvm::find(inputs, glu.getGate());
      auto up = llvm::find(inputs, glu.getUp());
      if (gate == inputs.end() || up == inputs.end())
        continue;
      fused = mm;
      gateIndex = gate - inputs.begin();
      upIndex = up - inputs.begin();
      break;
    }
    if (!fused)
      return rewriter.notifyMatchFailure(
          glu, "no grouped matmul epilogue reads both gate and up");
    if (glu.getH().getType().getShape() != fused.getC().getType().getShape())
      return rewriter.notifyMatchFailure(glu, "h and c differ in shape");
    DominanceInfo dominance;
    for (Operation *user : glu.getH().getUsers())
      if (!dominance.properlyDominates(fused.getOperation(), user))
        return rewriter.notifyMatchFailure(
            glu, "h is read before the grouped matmul");

    SmallVector<Type> types(fused->getResultTypes());
    types.push_back(glu.getH().getType());
    rewriter.setInsertionPoint(fused);
    Location loc = rewriter.getFusedLoc({fused.getLoc(), glu.getLoc()});
    SmallVector<Value> outs(fused.getOuts());
    outs.append(emptyTensors(rewriter, loc, glu.getH().getType()));
    auto widened = GroupedMatmulOp::create(
        rewriter, loc, types, fused.getA(), fused.getB(), fused.getBUp(),
        fused.getGroupSizes(), fused.getAScale(), fused.getBScale(),
        fused.getRowScale(), fused.getEpilogueInputs(),
        fused.getWeightLayoutAttr(), fused.getAccumulateAttr(), outs);
    widened.getEpilogue().takeBody(fused.getEpilogue());
    Block *body = widened.getEpilogueBlock();
    auto yield = cast<YieldOp>(body->getTerminator());
    rewriter.setInsertionPoint(yield);
    unsigned firstInput = widened.getAccumulatorsPerOutput() +
                          (widened.getRowScale() ? 1 : 0);
    Value gate = body->getArgument(firstInput + gateIndex);
    Value up = body->getArgument(firstInput + upIndex);
    Value activated =
        opmath::buildActivation(rewriter, loc, glu.getActivation(), gate);
    Value h = arith::MulFOp::create(rewriter, loc, activated, up);
    SmallVector<Value> yielded(yield.getValues());
    yielded.push_back(h);
    rewriter.replaceOpWithNewOp<YieldOp>(yield, yielded);
    rewriter.replaceOp(fused, widened.getResults().drop_back());
    rewriter.replaceOp(glu, widened.getResults().back());
    return success();
  }
};

/// The block_1x128 quantize of the transpose of `x` in `x`'s block, if a
/// 2-D linalg.transpose of x has one.
QuantizeOp quantizeOfTranspose(Value x, Block *block) {
  for (Operation *user : x.getUsers()) {
    auto transpose = dyn_cast<linalg::TransposeOp>(user);
    if (!transpose || !transpose.hasPureTensorSemantics() ||
        transpose.getInput() != x ||
        transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
      continue;
    for (Operation *reader : transpose->getResult(0).getUsers())
      if (auto q = dyn_cast<QuantizeOp>(reader);
          q && q.getInput() == transpose->getResult(0) &&
          q.getRecipe() == QuantRecipe::Block1x128 &&
          q->getBlock() == block)
        return q;
  }
  return {};
}

struct QuantizeWithTranspose : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeOp rows,
                                PatternRewriter &rewriter) const override {
    Value x = rows.getInput();
    auto type = dyn_cast<RankedTensorType>(x.getType());
    if (rows.getRecipe() != QuantRecipe::Block1x128 ||
        !rows.hasPureTensorSemantics() || !type || type.getRank() != 2 ||
        !type.hasStaticShape() || type.getDimSize(0) % 128 != 0 ||
        type.getDimSize(1) % 128 != 0)
      return rewriter.notifyMatchFailure(rows, "not a whole-tile 1x128");
    QuantizeOp columns = quantizeOfTranspose(x, rows->getBlock());
    if (!columns)
      return rewriter.notifyMatchFailure(rows, "no quantize of x^T");
    // In the place of the first of the two; x dominates both.
    Operation *first = rows->isBeforeInBlock(columns) ? rows.getOperation()
                                                      : columns.getOperation();
    rewriter.setInsertionPoint(first);
    DominanceInfo dominance(first->getParentOp());
    // A quantize writes its destinations without reading them: one that is
    // not there yet becomes a new tensor.empty.
    auto destination = [&](Value init) -> Value {
      if (dominance.properlyDominates(init, first))
        return init;
      auto t = cast<RankedTensorType>(init.getType());
      return tensor::EmptyOp::create(rewriter, init.getLoc(), t.getShape(),
                                     t.getElementType());
    };
    SmallVector<Value> outs = {
        destination(rows.getOutputInit()), destination(rows.getScaleInit()),
        destination(columns.getOutputInit()),
        destination(columns.getScaleInit())};
    auto fused = QuantizeWithTransposeOp::create(
        rewriter, rows.getLoc(), ValueRange(outs).getTypes(), x, outs);
    rewriter.replaceOp(rows, {fused.getOutput(), fused.getScale()});
    rewriter.replaceOp(columns, {fused.getTransposedOutput(),
                                 fused.getTransposedScale()});
    return success();
  }
};

struct MoeFuse : public moe::impl::MoeFusePassBase<MoeFuse> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    if (gateUpEpilogue)
      patterns.add<GateUpEpilogue>(&getContext(), generatedKernelsOnly);
    if (gateUpWeights)
      patterns.add<GateUpWeights>(&getContext(), generatedKernelsOnly,
                                  gateUpWeightsResiduals);
    if (accumulateMatmuls)
      patterns.add<AccumulateMatmuls>(&getContext(), generatedKernelsOnly);
    if (elementwiseEpilogue)
      patterns.add<ElementwiseEpilogue>(&getContext(), generatedKernelsOnly);
    if (recomputeInEpilogue)
      patterns.add<RecomputeInEpilogue>(&getContext());
    if (quantizeWithTranspose)
      patterns.add<QuantizeWithTranspose>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
