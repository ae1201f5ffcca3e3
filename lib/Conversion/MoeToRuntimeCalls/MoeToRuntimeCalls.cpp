//===- MoeToRuntimeCalls.cpp - grouped matmuls and contractions → runtime -===//
//
// What the GPU target hands to libmoe_runtime_gpu: grouped matmuls and
// weight gradients (cuBLASLt grouped GEMM), the f32 contractions autodiff
// writes in linalg (the router adjoints; one dense cuBLASLt GEMM each), and
// the collectives over several ranks (moe.all_to_all, moe.all_reduce, the
// counts of a global aux loss: NCCL). The calls are built from the
// runtime's ABI lists (RuntimeAbi.h).
//
//===----------------------------------------------------------------------===//
#include "../MoeToParallelLoops/ParallelSchedules.h"
#include "CollectiveCalls.h"
#include "Contraction.h"
#include "RuntimeAbi.h"
#include "SplitMatmul.h"

#include "MoeDialect/Conversion/MoeToRuntimeCalls.h"
#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Dialect/Grids.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::moe {
#define GEN_PASS_DEF_CONVERTMOETORUNTIMECALLSPASS
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;
using mlir::moe::runtime_abi::i32Value;
using mlir::moe::runtime_abi::i64Dim;
using mlir::moe::runtime_abi::pointerArgument;

namespace {

/// The runtime takes bf16 or f32 operands (the op verifiers make both of
/// one type), i32 group sizes, a bf16 or f32 output, and identity-layout
/// (contiguous) buffers.
LogicalResult checkRuntimeOperands(Operation *op, ValueRange operands,
                                   Value sizes, Value out) {
  auto elem = [](Value v) {
    return cast<MemRefType>(v.getType()).getElementType();
  };
  for (Value v : operands)
    if (!elem(v).isBF16() && !elem(v).isF32())
      return op->emitOpError("on the GPU target takes bf16 or f32 operands "
                             "(cuBLASLt grouped GEMM); got ")
             << elem(v);
  if (!elem(sizes).isInteger(32))
    return op->emitOpError("on the GPU target needs i32 group sizes; got ")
           << elem(sizes);
  if (!elem(out).isBF16() && !elem(out).isF32())
    return op->emitOpError("on the GPU target writes bf16 or f32; got ")
           << elem(out);
  SmallVector<Value> all(operands);
  all.append({sizes, out});
  for (Value v : all)
    if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
      return op->emitOpError("on the GPU target needs contiguous buffers; got ")
             << v.getType();
  return success();
}

/// The runtime's weight gradient reads row-major [R, Kd] and [R, N] bf16 or
/// f32 operands: an FP8 or transposed_operands form is the generated
/// kernel's alone; reports which at the op.
LogicalResult checkRuntimeCanRunWeightGrad(GroupedWeightGradOp op) {
  StringRef generated = ": it needs the generated kernel (moe-lower-to-gpu "
                        "gemm=auto or generated; moe-compile --gemm), which "
                        "did not take it";
  if (op.getAScale())
    return op.emitOpError("with FP8 operands (")
           << cast<MemRefType>(op.getA().getType()).getElementType() << ", "
           << cast<MemRefType>(op.getDc().getType()).getElementType()
           << ") and scales has no cuBLASLt path" << generated;
  if (op.getTransposedOperands())
    return op.emitOpError("with transposed_operands (a [Kd, R], dc [N, R]) "
                          "has no cuBLASLt path")
           << generated;
  return success();
}

/// Whether the runtime can run `op` (a grouped matmul or weight gradient
/// on memrefs); reports why not at the op.
LogicalResult checkRuntimeCanRun(Operation *op) {
  if (auto mm = dyn_cast<GroupedMatmulOp>(op))
    return !mm.getAScale()
               ? checkRuntimeOperands(op, {mm.getA(), mm.getB()},
                                      mm.getGroupSizes(), mm.getCInit())
               : op->emitOpError(
                     "with FP8 scales has no cuBLASLt path: it needs the "
                     "generated kernel (moe-lower-to-gpu gemm=auto or "
                     "generated; moe-compile --gemm), which did not take it");
  if (auto wg = dyn_cast<GroupedWeightGradOp>(op)) {
    if (failed(checkRuntimeCanRunWeightGrad(wg)))
      return failure();
    return checkRuntimeOperands(op, {wg.getA(), wg.getDc()}, wg.getGroupSizes(),
                                wg.getDbInit());
  }
  return success();
}

/// Calls `entry`, moert_entry_grouped_gemm_{bf16,f32} or
/// moert_entry_grouped_weight_grad_{bf16,f32}: all take (a, b or dc, sizes,
/// G, Kd, N, layout, out, out dtype, R). `tf32`: an f32 `out` that compiled
/// code rounds to bf16 afterwards, whose f32 operands may multiply on TF32
/// tensor cores.
template <typename Entry>
void callGroupedGemm(OpBuilder &b, Operation *op, const Entry &entry, Value a,
                     Value bOrDc, Value sizes, Value kDim, Value n,
                     WeightLayout layout, Value out, Value rows,
                     bool tf32 = false) {
  Location loc = op->getLoc();
  bool f32Out = cast<MemRefType>(out.getType()).getElementType().isF32();
  int32_t outCode = tf32     ? MOERT_GPU_OUT_F32_TF32
                    : f32Out ? MOERT_GPU_OUT_F32
                             : MOERT_GPU_OUT_BF16;
  entry.call(
      b, loc,
      {pointerArgument(b, loc, a), pointerArgument(b, loc, bOrDc),
       pointerArgument(b, loc, sizes), i64Dim(b, loc, sizes, 0), kDim, n,
       i32Value(b, loc,
                layout == WeightLayout::NK ? MOERT_WEIGHT_NK : MOERT_WEIGHT_KN),
       pointerArgument(b, loc, out),
       i32Value(b, loc, outCode), rows});
}

/// Where a grouped op's runtime call gets what differs between the two ops:
/// the entry (by op and operand type), the second operand (b or dc), the
/// output, and the buffers whose dimension 1 is N and dimension 0 is R.
struct GroupedCall {
  const decltype(runtime_abi::moert_entry_grouped_gemm_bf16) &entry;
  Value second, out, nFrom, rowsFrom;
};

bool hasF32Elements(Value buffer) {
  return cast<MemRefType>(buffer.getType()).getElementType().isF32();
}

/// f32 operands take the runtime's f32 entries, which write f32 only
/// (f32Output; GroupedGemm.cpp says why). FP8 and transposed_operands weight
/// gradients never get here (checkRuntimeCanRunWeightGrad).
GroupedCall groupedCallOf(GroupedMatmulOp op) {
  return {hasF32Elements(op.getA())
              ? runtime_abi::moert_entry_grouped_gemm_f32
              : runtime_abi::moert_entry_grouped_gemm_bf16,
          op.getB(), op.getCInit(), op.getCInit(), op.getCInit()};
}

GroupedCall groupedCallOf(GroupedWeightGradOp op) {
  return {hasF32Elements(op.getA())
              ? runtime_abi::moert_entry_grouped_weight_grad_f32
              : runtime_abi::moert_entry_grouped_weight_grad_bf16,
          op.getDc(), op.getDbInit(), op.getDc(), op.getA()};
}

/// moe.grouped_matmul / moe.grouped_weight_grad on buffers -> their
/// runtime call (callGroupedGemm).
template <typename OpTy>
struct GroupedOpToRuntime : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return failure();
    if (auto wg = dyn_cast<GroupedWeightGradOp>(op.getOperation());
        wg && (wg.getAScale() || wg.getTransposedOperands()))
      return rewriter.notifyMatchFailure(
          op, "FP8 or transposed weight gradients have no cuBLASLt path");
    Location loc = op.getLoc();
    GroupedCall call = groupedCallOf(op);
    // Gate and up weights apart: cuBLASLt reads the halves from one weight.
    Value concatenated;
    if (auto matmul = dyn_cast<GroupedMatmulOp>(op.getOperation());
        matmul && matmul.getBUp())
      call.second = concatenated = matmul.concatenateUpWeight(rewriter);
    Value product = productBuffer(rewriter, op);
    Value unrounded = product ? Value() : f32Output(rewriter, op, call.out);
    Value out = product ? product : unrounded ? unrounded : call.out;
    Value nFrom = product ? product : call.nFrom;
    callGroupedGemm(rewriter, op, call.entry, op.getA(), call.second,
                    op.getGroupSizes(), i64Dim(rewriter, loc, op.getA(), 1),
                    i64Dim(rewriter, loc, nFrom, 1), op.getWeightLayout(), out,
                    i64Dim(rewriter, loc, call.rowsFrom, 0),
                    /*tf32=*/unrounded != nullptr);
    if (product) {
      applyEpilogue(rewriter, op, product);
      memref::DeallocOp::create(rewriter, loc, product);
    }
    if (unrounded) {
      roundInto(rewriter, loc, unrounded, call.out);
      memref::DeallocOp::create(rewriter, loc, unrounded);
    }
    if (concatenated)
      memref::DeallocOp::create(rewriter, loc, concatenated);
    rewriter.eraseOp(op);
    return success();
  }

private:
  /// f32 operands with a bf16 output: the runtime writes f32 only (cuBLASLt
  /// has no f32-operand matmul into bf16), so the product goes to an f32
  /// buffer of the output's shape first (null: no such buffer needed).
  static Value f32Output(OpBuilder &b, Operation *op, Value out) {
    if (!hasF32Elements(op->getOperand(0)) || hasF32Elements(out))
      return Value();
    auto outType = cast<MemRefType>(out.getType());
    return memref::AllocOp::create(
        b, op->getLoc(),
        MemRefType::get(outType.getShape(), b.getF32Type()));
  }

  /// out = product rounded to out's element type, as a parallel loop over
  /// out (a kernel of its own).
  static void roundInto(OpBuilder &b, Location loc, Value product, Value out) {
    auto type = cast<MemRefType>(out.getType());
    SmallVector<Value> lower, upper, steps;
    for (int64_t size : type.getShape()) {
      lower.push_back(arith::ConstantIndexOp::create(b, loc, 0));
      upper.push_back(arith::ConstantIndexOp::create(b, loc, size));
      steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    }
    scf::ParallelOp::create(
        b, loc, lower, upper, steps,
        [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
          Value v = memref::LoadOp::create(nb, nloc, product, ivs);
          storeRounded(nb, nloc, v, out, ivs);
        });
  }

  /// A grouped matmul with an epilogue or `accumulate` computes its product
  /// into an f32 buffer [R, N] first (null: neither, the product is c).
  static Value productBuffer(OpBuilder &b, Operation *op) {
    auto matmul = dyn_cast<GroupedMatmulOp>(op);
    if (!matmul || (!matmul.getEpilogueBlock() && !matmul.getAccumulate()))
      return Value();
    auto c = cast<MemRefType>(matmul.getCInit().getType());
    int64_t n = c.getDimSize(1) * matmul.getAccumulatorsPerOutput();
    return memref::AllocOp::create(
        b, op->getLoc(), MemRefType::get({c.getDimSize(0), n}, b.getF32Type()));
  }

  /// (c, c1, c2)[r, j] = epilogue(product[r, j], (product[r, N_c + j]),
  /// (row_scale[r]), each epilogue input's [r, j]), or c[r, j] +
  /// product[r, j] with `accumulate`, as a parallel loop over c: a kernel of
  /// its own.
  static void applyEpilogue(OpBuilder &b, Operation *op, Value product) {
    auto matmul = cast<GroupedMatmulOp>(op);
    Value c = matmul.getCInit();
    auto cType = cast<MemRefType>(c.getType());
    Location loc =
        NameLoc::get(StringAttr::get(b.getContext(), "grouped_matmul_epilogue"),
                     op->getLoc());
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v).getResult();
    };
    Value width = index(cType.getDimSize(1));
    scf::ParallelOp::create(
        b, loc, ValueRange{index(0), index(0)},
        ValueRange{index(cType.getDimSize(0)), width},
        ValueRange{index(1), index(1)},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
          Value r = ivs[0], j = ivs[1];
          Value sum =
              memref::LoadOp::create(nb, nloc, product, ValueRange{r, j});
          if (matmul.getAccumulate()) {
            Value old = memref::LoadOp::create(nb, nloc, c, ValueRange{r, j});
            if (!cType.getElementType().isF32())
              old = arith::ExtFOp::create(nb, nloc, nb.getF32Type(), old);
            storeRounded(nb, nloc, arith::AddFOp::create(nb, nloc, old, sum), c,
                         ValueRange{r, j});
            return;
          }
          SmallVector<Value, 3> args{sum};
          if (matmul.getAccumulatorsPerOutput() == 2) {
            Value up = arith::AddIOp::create(nb, nloc, j, width);
            args.push_back(
                memref::LoadOp::create(nb, nloc, product, ValueRange{r, up}));
          }
          if (Value rowScale = matmul.getRowScale())
            args.push_back(
                memref::LoadOp::create(nb, nloc, rowScale, ValueRange{r}));
          for (Value input : matmul.getEpilogueInputs()) {
            Value v = memref::LoadOp::create(nb, nloc, input, ValueRange{r, j});
            if (!v.getType().isF32())
              v = arith::ExtFOp::create(nb, nloc, nb.getF32Type(), v);
            args.push_back(v);
          }
          for (auto [value, out] :
               llvm::zip(matmul.cloneEpilogueAt(nb, args), matmul.getOuts()))
            storeRounded(nb, nloc, value, out, ValueRange{r, j});
        });
  }

  /// Stores the f32 `value` into c, rounded to c's element type.
  static void storeRounded(OpBuilder &b, Location loc, Value value, Value c,
                           ValueRange indices) {
    Type elem = cast<MemRefType>(c.getType()).getElementType();
    if (!elem.isF32())
      value = arith::TruncFOp::create(b, loc, elem, value);
    memref::StoreOp::create(b, loc, value, c, indices);
  }
};

bool allIdentityLayouts(ValueRange buffers) {
  return llvm::all_of(buffers, [](Value v) {
    return cast<MemRefType>(v.getType()).getLayout().isIdentity();
  });
}

/// The linalg.fill of zeros into `out` right before `op`, if there is one.
linalg::FillOp zeroFillBefore(Operation *op, Value out) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getDpsInitOperand(0)->get() != out ||
      !matchPattern(fill.getDpsInputOperand(0)->get(), m_AnyZeroFloat()))
    return linalg::FillOp();
  return fill;
}

/// A buffer-form f32 contraction (Contraction.h) becomes bf16 tensor-core
/// GEMMs on split operands (SplitMatmul.h). Buffers with a non-identity
/// layout stay loops. Where zeros were filled into the output right before
/// (as autodiff initializes the router adjoints), the GEMMs write it
/// instead of adding to it: neither the fill nor the read of the zeros.
void contractionToRuntime(RewriterBase &rewriter, linalg::LinalgOp op,
                          const gpu_contraction::Contraction &c) {
  Value out = op.getDpsInitOperand(0)->get();
  if (!allIdentityLayouts({c.a->get(), c.b->get(), out}))
    return;
  linalg::FillOp zeroed = zeroFillBefore(op, out);
  rewriter.setInsertionPoint(op);
  split_matmul::buildMatmul(rewriter, op.getLoc(), c.a->get(), c.aTransposed,
                            c.b->get(), c.bTransposed, out,
                            /*accumulate=*/!zeroed);
  rewriter.eraseOp(op);
  if (zeroed)
    rewriter.eraseOp(zeroed);
}

/// The router projection logits[T, E] = x[T, H] · w[H, E] (moe.gate on
/// buffers) as a cuBLASLt GEMM on bf16 tensor cores at about fp32 accuracy
/// (x times the bf16 parts of w, SplitMatmul.h) instead of a kernel with
/// one thread per logit, writing the logits. Non-identity layouts keep the
/// kernel.
void gateToRuntime(RewriterBase &rewriter, GateOp op) {
  Value logits = op.getLogitsInit();
  if (!allIdentityLayouts({op.getX(), op.getWeight(), logits}))
    return;
  rewriter.setInsertionPoint(op);
  split_matmul::buildMatmul(rewriter, op.getLoc(), op.getX(),
                            /*aTransposed=*/false, op.getWeight(),
                            /*bTransposed=*/false, logits,
                            /*accumulate=*/false);
  rewriter.eraseOp(op);
}

/// Every buffer-form f32 contraction under `root` to the runtime.
void contractionsToRuntime(Operation *root) {
  SmallVector<std::pair<linalg::LinalgOp, gpu_contraction::Contraction>>
      contractions;
  root->walk([&](linalg::LinalgOp op) {
    if (!op.hasPureBufferSemantics())
      return;
    if (auto c = gpu_contraction::matchContraction(op))
      contractions.emplace_back(op, *c);
  });
  IRRewriter rewriter(root->getContext());
  for (auto &[op, c] : contractions)
    contractionToRuntime(rewriter, op, c);
}

/// A collective over several ranks on buffers → its NCCL runtime call
/// (CollectiveCalls.h) at its place; the global aux loss keeps its GPU
/// schedule, with its counts all-reduced between the kernels. Over one
/// rank nothing happens here (the identity, the batch loss: their parallel
/// schedules or single-thread kernels).
LogicalResult collectiveToRuntime(RewriterBase &rewriter, Operation *op) {
  using runtime_abi::CollectiveRuntime;
  rewriter.setInsertionPoint(op);
  if (auto a2a = dyn_cast<AllToAllOp>(op)) {
    auto ranks = ranksOn(op, a2a.getGridAttr(), {int64_t(a2a.getGridAxis())});
    if (failed(ranks))
      return failure();
    if (*ranks == 1)
      return success();
    if (failed(runtime_abi::buildAllToAllCall(a2a, rewriter, *ranks,
                                              CollectiveRuntime::gpu)))
      return failure();
  } else if (auto reduce = dyn_cast<AllReduceOp>(op)) {
    auto ranks = ranksOn(op, reduce.getGridAttr(), reduce.getGridAxes());
    if (failed(ranks))
      return failure();
    if (*ranks == 1)
      return success();
    if (failed(runtime_abi::buildAllReduceCall(reduce, rewriter,
                                               CollectiveRuntime::gpu)))
      return failure();
  } else if (auto aux = dyn_cast<AuxLossOp>(op)) {
    if (aux.getVariant() != AuxLossVariant::Global)
      return success();
    auto ranks = ranksOn(op, aux.getGridAttr(),
                         aux.getGridAxes().value_or(ArrayRef<int64_t>{}));
    if (failed(ranks))
      return failure();
    if (*ranks == 1)
      return success();
    auto sum =
        runtime_abi::sumCountsOverRanks(aux, rewriter, CollectiveRuntime::gpu);
    if (failed(sum))
      return failure();
    loops::AuxLossConfig config;
    config.variant = aux.getVariant();
    config.scoreFunction = aux.getScoreFunction();
    config.coeff = aux.getCoeff().convertToDouble();
    config.seqLength = 0;
    config.ranks = *ranks;
    config.sumCountsOverRanks = *sum;
    gpu_schedules::emitAuxLossGpu(rewriter, op->getLoc(), config,
                                  aux.getScores(), aux.getIndices(),
                                  aux.getLossInit());
  } else {
    return success();
  }
  rewriter.eraseOp(op);
  return success();
}

/// Every collective on buffers under `root` over several ranks to the
/// runtime; false when one could not be lowered (reported).
bool collectivesToRuntime(Operation *root) {
  SmallVector<Operation *> collectives;
  root->walk([&](Operation *op) {
    if (isa<AllToAllOp, AllReduceOp, AuxLossOp>(op) &&
        cast<DestinationStyleOpInterface>(op).hasPureBufferSemantics())
      collectives.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  bool ok = true;
  for (Operation *op : collectives)
    ok &= succeeded(collectiveToRuntime(rewriter, op));
  return ok;
}

struct ConvertMoeToRuntimeCallsPass
    : mlir::moe::impl::ConvertMoeToRuntimeCallsPassBase<
          ConvertMoeToRuntimeCallsPass> {
  using Base::Base;

  void runOnOperation() override {
    // What the runtime cannot do is an error, not a fallback to loops:
    // checked before anything is rewritten.
    WalkResult unsupported = getOperation()->walk([](Operation *op) {
      auto dps = dyn_cast<DestinationStyleOpInterface>(op);
      if (!dps || !dps.hasPureBufferSemantics())
        return WalkResult::advance();
      return failed(checkRuntimeCanRun(op)) ? WalkResult::interrupt()
                                            : WalkResult::advance();
    });
    if (unsupported.wasInterrupted() || !collectivesToRuntime(getOperation()))
      return signalPassFailure();

    if (denseMatmuls) {
      contractionsToRuntime(getOperation());
      SmallVector<GateOp> gates;
      getOperation()->walk([&](GateOp op) {
        if (op.hasPureBufferSemantics())
          gates.push_back(op);
      });
      IRRewriter rewriter(&getContext());
      for (GateOp op : gates)
        gateToRuntime(rewriter, op);
    }

    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    populateGroupedMatmulToRuntimeCallPatterns(patterns);
    ConversionTarget target(*ctx);
    target.addDynamicallyLegalOp<GroupedMatmulOp, GroupedWeightGradOp>(
        [](Operation *op) {
          return !cast<DestinationStyleOpInterface>(op)
                      .hasPureBufferSemantics();
        });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::moe::populateGroupedMatmulToRuntimeCallPatterns(
    RewritePatternSet &patterns, PatternBenefit benefit) {
  patterns.add<GroupedOpToRuntime<GroupedMatmulOp>,
               GroupedOpToRuntime<GroupedWeightGradOp>>(
      patterns.getContext(), benefit);
}
