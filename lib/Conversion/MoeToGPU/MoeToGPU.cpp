//===- MoeToGPU.cpp - moe ops on memrefs → kernels and runtime calls ------===//
//
// Grouped matmuls and the f32 contractions autodiff writes in linalg (the
// router adjoints) go to the runtime (cuBLASLt); the other ops get the
// parallel schedules of ParallelSchedules.h where one exists, else the CPU
// reference loops (which gpu-launch-top-level-loops then runs in a single-thread
// kernel: correct, slow, and only for ops no benchmark layer uses).
//
//===----------------------------------------------------------------------===//
#include "Contraction.h"
#include "ParallelSchedules.h"
#include "RuntimeAbi.h"

#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::moe {
#define GEN_PASS_DEF_CONVERTMOETOGPUPASS
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;

namespace {

/// The device address of a buffer's first element, as !llvm.ptr.
Value basePointer(OpBuilder &b, Location loc, Value memref) {
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(b, loc,
                                  LLVM::LLVMPointerType::get(b.getContext()),
                                  asInt);
}

Value i64Dim(OpBuilder &b, Location loc, Value memref, int64_t d) {
  Value dim = memref::DimOp::create(b, loc, memref, d);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), dim);
}

Value i32Value(OpBuilder &b, Location loc, int32_t v) {
  return arith::ConstantIntOp::create(b, loc, v, 32);
}

/// The runtime takes bf16 operands, i32 group sizes, a bf16 or f32 output,
/// and identity-layout (contiguous) buffers.
LogicalResult checkRuntimeOperands(Operation *op, ValueRange bf16Operands,
                                   Value sizes, Value out) {
  auto elem = [](Value v) { return cast<MemRefType>(v.getType()).getElementType(); };
  for (Value v : bf16Operands)
    if (!elem(v).isBF16())
      return op->emitOpError("on the GPU target takes bf16 operands (cuBLASLt "
                             "grouped GEMM); got ")
             << elem(v) << " (FP8 and f32 grouped matmuls are not supported "
                           "on the GPU target yet)";
  if (!elem(sizes).isInteger(32))
    return op->emitOpError("on the GPU target needs i32 group sizes; got ")
           << elem(sizes);
  if (!elem(out).isBF16() && !elem(out).isF32())
    return op->emitOpError("on the GPU target writes bf16 or f32; got ")
           << elem(out);
  SmallVector<Value> all(bf16Operands);
  all.append({sizes, out});
  for (Value v : all)
    if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
      return op->emitOpError("on the GPU target needs contiguous buffers; got ")
             << v.getType();
  return success();
}

/// Calls `entry`, moert_entry_grouped_gemm_bf16 or
/// moert_entry_grouped_weight_grad_bf16: both take (a, b or dc, sizes, G, Kd,
/// N, layout, out, out dtype, R).
template <typename Entry>
void callGroupedGemm(OpBuilder &b, Operation *op, const Entry &entry, Value a,
                     Value bOrDc, Value sizes, Value kDim, Value n,
                     WeightLayout layout, Value out, Value rows) {
  Location loc = op->getLoc();
  bool f32Out = cast<MemRefType>(out.getType()).getElementType().isF32();
  entry.call(b, loc,
             {basePointer(b, loc, a), basePointer(b, loc, bOrDc),
              basePointer(b, loc, sizes), i64Dim(b, loc, sizes, 0), kDim, n,
              i32Value(b, loc,
                       layout == WeightLayout::NK ? MOERT_WEIGHT_NK
                                                  : MOERT_WEIGHT_KN),
              basePointer(b, loc, out),
              i32Value(b, loc, f32Out ? MOERT_GPU_OUT_F32 : MOERT_GPU_OUT_BF16),
              rows});
}

struct GroupedMatmulToRuntime
    : OpConversionPattern<GroupedMatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GroupedMatmulOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return failure();
    Location loc = op.getLoc();
    callGroupedGemm(rewriter, op, runtime_abi::moert_entry_grouped_gemm_bf16, op.getA(),
                    op.getB(), op.getGroupSizes(), i64Dim(rewriter, loc, op.getA(), 1),
                    i64Dim(rewriter, loc, op.getCInit(), 1), op.getWeightLayout(),
                    op.getCInit(), i64Dim(rewriter, loc, op.getCInit(), 0));
    rewriter.eraseOp(op);
    return success();
  }
};

struct GroupedWeightGradToRuntime
    : OpConversionPattern<GroupedWeightGradOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GroupedWeightGradOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return failure();
    Location loc = op.getLoc();
    callGroupedGemm(rewriter, op, runtime_abi::moert_entry_grouped_weight_grad_bf16,
                    op.getA(), op.getDc(), op.getGroupSizes(),
                    i64Dim(rewriter, loc, op.getA(), 1),
                    i64Dim(rewriter, loc, op.getDc(), 1), op.getWeightLayout(),
                    op.getDbInit(), i64Dim(rewriter, loc, op.getA(), 0));
    rewriter.eraseOp(op);
    return success();
  }
};

/// A buffer-form f32 contraction (Contraction.h) becomes
///   moert_entry_matmul_f32(a, aT, b, bT, out, m, n, k)   (out += A·B),
/// bf16 operands first widened into an f32 temporary (an elementwise linalg
/// op: a kernel of its own). Buffers with a non-identity layout stay loops.
void contractionToRuntime(RewriterBase &rewriter, linalg::LinalgOp op,
                          const gpu_contraction::Contraction &c) {
  Value out = op.getDpsInitOperand(0)->get();
  for (Value v : {c.a->get(), c.b->get(), out})
    if (!cast<MemRefType>(v.getType()).getLayout().isIdentity())
      return;
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Location widenLoc = NameLoc::get(StringAttr::get(ctx, "to_f32"), loc);
  SmallVector<Value> temporaries;
  auto asF32 = [&](Value v) -> Value {
    auto type = cast<MemRefType>(v.getType());
    if (type.getElementType().isF32())
      return v;
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dynamicSizes.push_back(memref::DimOp::create(rewriter, loc, v, d));
    Value wide = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), rewriter.getF32Type()),
        dynamicSizes);
    AffineMap id = rewriter.getMultiDimIdentityMap(type.getRank());
    SmallVector<utils::IteratorType> parallel(type.getRank(),
                                              utils::IteratorType::parallel);
    linalg::GenericOp::create(
        rewriter, widenLoc, ValueRange{v}, ValueRange{wide},
        ArrayRef<AffineMap>{id, id}, parallel,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value f = arith::ExtFOp::create(b, l, b.getF32Type(), args[0]);
          linalg::YieldOp::create(b, l, f);
        });
    temporaries.push_back(wide);
    return wide;
  };
  Value a = asF32(c.a->get()), b = asF32(c.b->get());
  runtime_abi::moert_entry_matmul_f32.call(
      rewriter, loc,
      {basePointer(rewriter, loc, a), i32Value(rewriter, loc, c.aTransposed),
       basePointer(rewriter, loc, b), i32Value(rewriter, loc, c.bTransposed),
       basePointer(rewriter, loc, out), i64Dim(rewriter, loc, out, 0),
       i64Dim(rewriter, loc, out, 1),
       i64Dim(rewriter, loc, a, c.aTransposed ? 0 : 1)});
  for (Value t : temporaries)
    memref::DeallocOp::create(rewriter, loc, t);
  rewriter.eraseOp(op);
}

struct ConvertMoeToGPUPass
    : mlir::moe::impl::ConvertMoeToGPUPassBase<ConvertMoeToGPUPass> {
  using Base::Base;

  /// Wraps the location of every op that becomes a kernel in a NameLoc
  /// saying what it computes ("permute", "combine_grad", "elementwise"):
  /// the loops lowered from it carry that location, and
  /// gpu-launch-top-level-loops names the kernel after it, so profiles and
  /// runtime errors show which op a kernel came from.
  void nameKernelSources() {
    MLIRContext *ctx = &getContext();
    getOperation()->walk([&](Operation *op) {
      StringRef name;
      if (isa<MoeDialect>(op->getDialect())) {
        name = op->getName().stripDialect();
      } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        name = linalgOp.getNumLoops() == linalgOp.getNumParallelLoops()
                   ? "elementwise"
                   : "reduction";
      } else {
        return;
      }
      if (!isa<NameLoc>(op->getLoc()))
        op->setLoc(NameLoc::get(StringAttr::get(ctx, name), op->getLoc()));
    });
  }

  void runOnOperation() override {
    if (schedulesOnly)
      return runSchedulesOnly();
    // What the runtime cannot do is an error, not a fallback to loops.
    WalkResult unsupported = getOperation()->walk([](Operation *op) {
      LogicalResult ok = success();
      auto dps = dyn_cast<DestinationStyleOpInterface>(op);
      if (!dps || !dps.hasPureBufferSemantics())
        return WalkResult::advance();
      if (auto mm = dyn_cast<GroupedMatmulOp>(op)) {
        ok = !mm.getAScale()
                 ? checkRuntimeOperands(op, {mm.getA(), mm.getB()},
                                        mm.getGroupSizes(), mm.getCInit())
                 : op->emitOpError("with FP8 scales is not supported on the "
                                   "GPU target yet");
      } else if (auto wg = dyn_cast<GroupedWeightGradOp>(op)) {
        ok = checkRuntimeOperands(op, {wg.getA(), wg.getDc()},
                                  wg.getGroupSizes(), wg.getDbInit());
      }
      return failed(ok) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();
    nameKernelSources();

    // Ops without a GPU schedule run their reference loops in a
    // single-thread kernel: wrap them in one before lowering them in place.
    SmallVector<Operation *> sequential;
    getOperation()->walk([&](Operation *op) {
      if (isa<MoeDialect>(op->getDialect()) && op->getNumResults() == 0 &&
          !gpu_schedules::hasParallelSchedule(op) &&
          !isa<GroupedMatmulOp, GroupedWeightGradOp>(op))
        sequential.push_back(op);
    });
    for (Operation *op : sequential) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      auto launch = gpu::LaunchOp::create(b, loc, one, one, one, one, one, one);
      b.setInsertionPointToEnd(&launch.getBody().front());
      auto terminator = gpu::TerminatorOp::create(b, loc);
      op->moveBefore(terminator);
    }

    // f32 contractions to cuBLASLt; the rest of linalg stays for
    // convert-linalg-reductions-to-accumulating-loops and linalg-to-parallel-loops.
    SmallVector<std::pair<linalg::LinalgOp, gpu_contraction::Contraction>> contractions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op.hasPureBufferSemantics())
        return;
      if (auto c = gpu_contraction::matchContraction(op))
        contractions.emplace_back(op, *c);
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, c] : contractions)
      contractionToRuntime(rewriter, op, c);

    MLIRContext *ctx = &getContext();
    // Runtime calls and parallel schedules first; the reference loops are
    // the fallback (and say why an op cannot be lowered at all).
    RewritePatternSet patterns(ctx);
    patterns.add<GroupedMatmulToRuntime, GroupedWeightGradToRuntime>(ctx,
                                                                    /*benefit=*/3);
    gpu_schedules::populateParallelSchedulePatterns(patterns, /*benefit=*/2);
    if (failed(lowerMoeOps(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }

  /// The parallel schedules where there are some, the reference loops for
  /// the rest (grouped matmuls included); sequential targets run them.
  void runSchedulesOnly() {
    RewritePatternSet patterns(&getContext());
    gpu_schedules::populateParallelSchedulePatterns(patterns, /*benefit=*/2);
    if (failed(lowerMoeOps(getOperation(), std::move(patterns))))
      return signalPassFailure();
    hoistParallelScratch(getOperation());
  }
};

} // namespace
