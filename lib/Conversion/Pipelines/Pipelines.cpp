//===- Pipelines.cpp - named pipelines from moe to LLVM --------------------===//
#include "MoeDialect/Conversion/Pipelines.h"

#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {
/// The last step of the pipeline: everything must be in the LLVM dialect now.
/// Partial conversions (func-to-llvm, finalize-memref-to-llvm, ...) leave
/// what they could not convert in place and succeed; without this check such
/// a module (e.g. a function whose memref could not take the bare-pointer
/// convention) would pass as lowered and fail later, far from the cause.
struct CheckLoweredToLLVMPass
    : PassWrapper<CheckLoweredToLLVMPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckLoweredToLLVMPass)
  StringRef getArgument() const final { return "moe-check-lowered-to-llvm"; }
  StringRef getDescription() const final {
    return "Fail on any operation not in the LLVM dialect";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    WalkResult result = module.walk([&](Operation *op) {
      if (op == module.getOperation() ||
          isa<LLVM::LLVMDialect>(op->getDialect()))
        return WalkResult::advance();
      op->emitError("'") << op->getName()
                         << "' could not be lowered to the LLVM dialect";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

void moe::buildMoeLowerToCpuPipeline(OpPassManager &pm) {
  // Private helpers (func.call) are inlined: a memref returned across the
  // bare-pointer calling convention loses its aligned pointer.
  pm.addPass(createInlinerPass());
  pm.addNestedPass<func::FuncOp>(createMoeExpandLayerPass());
  pm.addPass(createCanonicalizerPass());
  // Elementwise tensor arith (e.g. the loss sum) has no bufferization of its
  // own; as linalg it has.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // What the inliner left (recursive private functions) returns its memrefs
  // through out-params instead (public functions keep their signature).
  pm.addPass(bufferization::createBufferResultsToOutParamsPass());
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  // bufferization.clone (e.g. of an argument a public function returns).
  pm.addPass(createConvertBufferizationToMemRefPass());
  // The deallocation lowering's @dealloc_helper takes dynamic memrefs, which
  // the bare-pointer convention cannot pass: inline it.
  pm.addPass(createInlinerPass());

  pm.addPass(moe::createConvertMoeToLoopsPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // bf16 arithmetic (e.g. summed bf16 cotangents) runs in f32, and bf16 and
  // e8m0 conversions become integer arithmetic: exact, and no runtime
  // helpers needed (LLVM would call libgcc's __truncsfbf2).
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"bf16"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  expand.includeF8E8M0 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // libm for what LLVM has no intrinsic for (erf, tanh, log1p, ...).
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(std::make_unique<CheckLoweredToLLVMPass>());
}

void moe::registerMoePipelines() {
  PassPipelineRegistration<>(
      "moe-lower-to-cpu",
      "Lower moe programs to the LLVM dialect for the CPU (reference "
      "semantics, bare-pointer memref arguments)",
      buildMoeLowerToCpuPipeline);
}
