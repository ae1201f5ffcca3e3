//===- Pipelines.cpp - named pipelines from moe to LLVM --------------------===//
#include "MoeDialect/Conversion/Pipelines.h"

#include "MoeDialect/Conversion/GPUCodegen/Passes.h"
#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Dialect/MoeOps.h"
#include "MoeDialect/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ShapedOpInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <cstdlib>

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
      // gpu.binary and the launches into it are translated to LLVM IR by
      // the GPU dialect's translation (module load + mgpuLaunchKernel).
      if (op == module.getOperation() ||
          isa<LLVM::LLVMDialect>(op->getDialect()) ||
          isa<gpu::BinaryOp, gpu::LaunchFuncOp>(op))
        return WalkResult::advance();
      op->emitError("'") << op->getName()
                         << "' could not be lowered to the LLVM dialect";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

/// A constant dimension index outside [0, rank) of `tensor.dim` or
/// `memref.dim` (ShapedDimOpInterface) is undefined behaviour that the verifiers accept (the index
/// is an SSA value); upstream canonicalization patterns index the shape with
/// it (memref.dim of a memref.alloc crashed moe-lower-to-gpu, fuzz seed 79).
/// The pipelines reject it first, at the op.
struct CheckDimIndicesPass
    : PassWrapper<CheckDimIndicesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckDimIndicesPass)
  StringRef getArgument() const final { return "moe-check-dim-indices"; }
  StringRef getDescription() const final {
    return "Fail on tensor.dim / memref.dim with a constant index out of "
           "range";
  }
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](ShapedDimOpInterface dim) {
      auto shaped = dyn_cast<ShapedType>(dim.getShapedValue().getType());
      std::optional<int64_t> constant = getConstantIntValue(dim.getDimension());
      if (!shaped || !shaped.hasRank() || !constant ||
          (*constant >= 0 && *constant < shaped.getRank()))
        return WalkResult::advance();
      dim->emitOpError("index ")
          << *constant << " is out of range for its rank-" << shaped.getRank()
          << " operand (0 to " << shaped.getRank() - 1 << ")";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

/// The number of an `sm_<N>[a|f]` chip name, 0 for anything else.
static unsigned smVersion(StringRef chip) {
  unsigned version = 0;
  StringRef digits = chip.drop_front(3).take_while(
      [](char c) { return c >= '0' && c <= '9'; });
  if (!chip.starts_with("sm_") || digits.getAsInteger(10, version))
    return 0;
  return version;
}

/// The first step of moe-lower-to-gpu: FP8 recipes the target chip cannot
/// run are reported here, at the op, before anything is lowered. MX block
/// scaling (moe.quantize / moe.dequantize mx_1x32, e8m0 scales) is a
/// Blackwell feature (sm_100 and newer): Hopper has no MX instructions.
struct CheckFP8OnTargetPass
    : PassWrapper<CheckFP8OnTargetPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckFP8OnTargetPass)
  explicit CheckFP8OnTargetPass(std::string chip) : chip(std::move(chip)) {}
  StringRef getArgument() const final { return "moe-check-fp8-on-target"; }
  StringRef getDescription() const final {
    return "Fail on FP8 recipes the target chip does not support";
  }
  void runOnOperation() override {
    unsigned version = smVersion(chip);
    if (version == 0 || version >= 100)
      return;
    WalkResult result = getOperation().walk([&](Operation *op) {
      std::optional<moe::QuantRecipe> recipe;
      if (auto q = dyn_cast<moe::QuantizeOp>(op))
        recipe = q.getRecipe();
      else if (auto dq = dyn_cast<moe::DequantizeOp>(op))
        recipe = dq.getRecipe();
      if (recipe != moe::QuantRecipe::MX1x32)
        return WalkResult::advance();
      op->emitOpError("recipe mx_1x32 (MXFP8) is unsupported on target ")
          << chip
          << ": MX block scaling needs sm_100 or newer (use recipe "
             "blockwise on Hopper)";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
  std::string chip;
};
} // namespace

/// How moe-fuse runs in a pipeline: not at all, on every grouped matmul
/// (generated kernels), or on those gemm=auto generates.
enum class GemmFusion { none, all, generatedKernelsOnly };

/// Shared front half: expand moe.layer, bufferize, free temporaries.
static void buildMoeBufferizePipeline(OpPassManager &pm, bool outParams,
                                      bool splitReductions = false,
                                      GemmFusion fuse = GemmFusion::none,
                                      bool epilogueFusion = true,
                                      bool quantizeWithTranspose = false,
                                      bool gateUpWeights = true) {
  // Private helpers (func.call) are inlined: a memref returned across the
  // bare-pointer calling convention loses its aligned pointer.
  pm.addPass(std::make_unique<CheckDimIndicesPass>());
  pm.addPass(createInlinerPass());
  // The entries' names were read (and stripped) before this pipeline.
  moe::MoeExpandLayerPassOptions expand;
  expand.entryNames = false;
  pm.addNestedPass<func::FuncOp>(moe::createMoeExpandLayerPass(expand));
  pm.addPass(createCanonicalizerPass());
  // Both fusions (gate|up epilogue, accumulate-matmuls): the generated
  // kernel applies the epilogue in registers and loads the c that
  // `accumulate` adds before its main loop, so each saves an elementwise
  // kernel over an [R, ·] product.
  // quantize-with-transpose (fp8-quantize-with-transpose, off by default):
  // one kernel for both FP8 quantizations of a gradient, whatever runs the
  // GEMMs.
  if (fuse != GemmFusion::none || quantizeWithTranspose) {
    bool gemms = fuse != GemmFusion::none;
    moe::MoeFusePassOptions fusions;
    fusions.gateUpEpilogue = gemms;
    fusions.gateUpWeights = gemms && gateUpWeights;
    fusions.accumulateMatmuls = gemms;
    fusions.generatedKernelsOnly = fuse == GemmFusion::generatedKernelsOnly;
    fusions.elementwiseEpilogue = gemms && epilogueFusion;
    fusions.recomputeInEpilogue = gemms && epilogueFusion;
    fusions.quantizeWithTranspose = quantizeWithTranspose;
    pm.addNestedPass<func::FuncOp>(moe::createMoeFusePass(fusions));
  }
  // Elementwise tensor arith (e.g. the loss sum) has no bufferization of its
  // own; as linalg it has.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  if (splitReductions) {
    // GPU: chains of elementwise linalg ops (activation adjoints) become one
    // kernel each instead of one pass over memory per op.
    pm.addNestedPass<func::FuncOp>(createLinalgElementwiseOpFusionPass());
    pm.addNestedPass<func::FuncOp>(moe::createSplitLongReductionsPass());
  }

  // Entries never write their inputs (the caller owns them).
  pm.addPass(moe::createMoeReadOnlyEntryArgumentsPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // What the inliner left (recursive private functions) returns its memrefs
  // through out-params instead; with out-params, public functions too, and
  // a result allocated in the function is replaced by its out-param
  // (upstream's hoist-static-allocs) instead of being copied into it.
  bufferization::BufferResultsToOutParamsPassOptions results;
  results.modifyPublicFunctions = outParams;
  results.hoistStaticAllocs = outParams;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(results));
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  // bufferization.clone (e.g. of an argument a public function returns).
  pm.addPass(createConvertBufferizationToMemRefPass());
  // The deallocation lowering's @dealloc_helper takes dynamic memrefs, which
  // the bare-pointer convention cannot pass: inline it.
  pm.addPass(createInlinerPass());
}

/// bf16 arithmetic (e.g. summed bf16 cotangents) runs in f32, and bf16 and
/// e8m0 conversions become integer arithmetic: exact, and no runtime helpers
/// needed (LLVM would call libgcc's __truncsfbf2).
static void addFloatEmulation(OpPassManager &pm) {
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"bf16"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  expand.includeF8E8M0 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
}

/// Host code to the LLVM dialect; functions take bare pointers (static
/// shapes), which the entry ABI of moe-compile relies on.
static void addHostToLLVM(OpPassManager &pm, bool hostMath) {
  // The row schedules' vector loads and stores
  // (moe-lower-to-cpu{gpu-schedules}).
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  if (hostMath) {
    // libm for what LLVM has no intrinsic for (erf, tanh, log1p, ...).
    pm.addPass(createConvertMathToLibmPass());
    pm.addPass(createConvertMathToLLVMPass());
  }
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
}

void moe::buildMoeLowerToCpuPipeline(OpPassManager &pm) {
  buildMoeLowerToCpuPipeline(pm, MoeLowerToCpuOptions());
}

void moe::buildMoeLowerToCpuPipeline(OpPassManager &pm,
                                     const MoeLowerToCpuOptions &options) {
  buildMoeBufferizePipeline(pm, options.outParams);
  if (options.gpuSchedules) {
    moe::ConvertMoeToParallelLoopsPassOptions schedules;
    schedules.hoistScratch = true;
    schedules.warpRouter = options.warpRouter;
    schedules.fuseGluQuantize = options.fp8GluQuantize;
    schedules.fuseCombineGradQuantize = options.fp8CombineGradQuantize;
    pm.addPass(moe::createConvertMoeToParallelLoopsPass(schedules));
    // The warp schedules' shuffles, lane by lane.
    pm.addNestedPass<func::FuncOp>(
        moe::createConvertWarpShufflesToLaneLoopsPass());
    pm.addNestedPass<func::FuncOp>(
        moe::createConvertLinalgReductionsToAccumulatingLoopsPass());
    // The GPU target's transpose tiles (one tile buffer: the blocks run in
    // order) and elementwise chunks (moe-lower-to-gpu's defaults).
    moe::ConvertLinalgTransposeToTilesPassOptions tiles;
    tiles.hoistTiles = true;
    pm.addNestedPass<func::FuncOp>(
        moe::createConvertLinalgTransposeToTilesPass(tiles));
    pm.addNestedPass<func::FuncOp>(
        moe::createConvertElementwiseLinalgToVectorRowsPass());
  } else {
    pm.addPass(moe::createConvertMoeToLoopsPass());
  }
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  addFloatEmulation(pm);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  addHostToLLVM(pm, /*hostMath=*/true);
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(std::make_unique<CheckLoweredToLLVMPass>());
}

void moe::buildMoeLowerToGpuPipeline(OpPassManager &pm,
                                     const MoeLowerToGpuOptions &options) {
  bool generatedGemms = options.gemm == GroupedGemmBackend::generated;
  // gemm=auto: FP8 grouped matmuls get the generated kernel (the only FP8
  // path), bf16 ones where opmath::autoPrefersGeneratedGroupedGemm says it
  // is the faster; the rest stay with cuBLASLt.
  bool autoGemms = options.gemm == GroupedGemmBackend::automatic;
  pm.addPass(std::make_unique<CheckFP8OnTargetPass>(options.chip.getValue()));
  // Fusions into the grouped GEMMs' epilogues pay off in generated kernels;
  // on the cuBLASLt path an epilogue needs an f32 product buffer.
  buildMoeBufferizePipeline(pm, options.outParams, /*splitReductions=*/true,
                            generatedGemms ? GemmFusion::all
                            : autoGemms    ? GemmFusion::generatedKernelsOnly
                                           : GemmFusion::none,
                            options.gemmEpilogueFusion,
                            options.fp8QuantizeWithTranspose,
                            options.gemmGateUpWeights);
  pm.addPass(moe::createMoeNameKernelSourcesPass());
  if (generatedGemms || autoGemms) {
    moe::ConvertGroupedMatmulToNVGPUPassOptions gemms;
    gemms.autoSelect = autoGemms;
    gemms.numCtas = options.gemmCtas;
    gemms.blockNOption = options.gemmBlockN;
    gemms.maxStages = options.gemmMaxStages;
    gemms.panelTiles = options.gemmPanelTiles;
    gemms.tmaStore = options.gemmTmaStore;
    gemms.racecheckLayout = options.gemmRacecheckLayout;
    gemms.pingpong = options.gemmPingpong;
    gemms.pairedPromotion = options.gemmPairedPromotion;
    gemms.heaviestGroupsFirst = options.gemmHeaviestGroupsFirst;
    pm.addPass(moe::createConvertGroupedMatmulToNVGPUPass(gemms));
  }
  moe::ConvertMoeToRuntimeCallsPassOptions runtimeCalls;
  runtimeCalls.denseMatmuls = options.denseMatmuls;
  pm.addPass(moe::createConvertMoeToRuntimeCallsPass(runtimeCalls));
  moe::ConvertMoeToParallelLoopsPassOptions loops;
  loops.singleThreadKernels = true;
  loops.warpRouter = options.warpRouter;
  loops.fuseGluQuantize = options.fp8GluQuantize;
  loops.fuseCombineGradQuantize = options.fp8CombineGradQuantize;
  // cvt between f32 and e4m3/e5m2 exists from sm_89 (Ada) on.
  loops.fp8Instructions =
      options.fp8Instructions && smVersion(options.chip) >= 89;
  pm.addPass(moe::createConvertMoeToParallelLoopsPass(loops));
  // The rest of what autodiff wrote in linalg (sums; the contractions went
  // to cuBLASLt) becomes parallel loops too; their reduction dimensions stay
  // sequential in a thread, which keeps its running sum in a register.
  pm.addNestedPass<func::FuncOp>(
      moe::createConvertLinalgReductionsToAccumulatingLoopsPass());
  if (options.tiledTransposes)
    pm.addNestedPass<func::FuncOp>(
        moe::createConvertLinalgTransposeToTilesPass());
  if (options.vectorElementwise)
    pm.addNestedPass<func::FuncOp>(
        moe::createConvertElementwiseLinalgToVectorRowsPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  // No canonicalization before the launches: it would inline the one-thread
  // scf.parallel phases (a single iteration) into host code.
  moe::GpuLaunchTopLevelLoopsPassOptions launch;
  launch.blockSize = options.blockSize;
  pm.addNestedPass<func::FuncOp>(moe::createGpuLaunchTopLevelLoopsPass(launch));
  pm.addNestedPass<func::FuncOp>(moe::createGpuHostBuffersToDevicePass());
  // Trip counts and bounds fold to constants, which outlining then sinks
  // into the kernels: a thread's delinearization divides by constants.
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // The transpose tiles' 16-byte chunks in shared memory.
  pm.addNestedPass<gpu::GPUModuleOp>(moe::createGpuAlignWorkgroupBuffersPass());
  // nvgpu (the generated GEMMs' TMA, mbarrier and wgmma ops) to nvvm while
  // their loops are still scf: it converts the loop-carried accumulator
  // types of scf.for, not those of cf blocks.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVGPUToNVVMPass());
  // Kernels round f32 to bf16 with cvt.rn (sm_80+) rather than the
  // emulation's integer rounding: the same bits, two instructions a pair
  // of values (or a lone value) on sm_90 instead of about six a value.
  if (options.bf16Instructions && smVersion(options.chip) >= 80)
    pm.addNestedPass<gpu::GPUModuleOp>(
        moe::createGpuNativeBf16TruncationPass());
  addFloatEmulation(pm);
  // One stream per host function; the runtime makes every stream the same
  // one, so runtime calls (cuBLASLt) are ordered with the kernels.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  // The host waits before every runtime call; cuBLASLt calls and TMA
  // descriptor encoding need none, and each such wait leaves the GPU idle
  // until the host has enqueued the next kernel.
  if (options.deferHostWaits)
    pm.addNestedPass<func::FuncOp>(moe::createGpuDeferHostWaitsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());

  GpuNVVMAttachTargetOptions nvvm;
  nvvm.chip = options.chip;
  nvvm.features = options.features;
  if (nvvm.features.empty()) {
    // The oldest PTX ISA that knows the chip: 8.0 up to Hopper, 8.8 for
    // Blackwell-generation chips (sm_100 and newer).
    // The generated grouped GEMMs fence their TMA descriptors for the
    // tensor-map proxy: PTX 8.3.
    nvvm.features = smVersion(options.chip) >= 100 ? "+ptx88"
                    : generatedGemms || autoGemms  ? "+ptx83"
                                                   : "+ptx80";
  }
  nvvm.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(nvvm));
  ConvertGpuOpsToNVVMOpsOptions kernels;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(kernels));
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());

  // Kernels do their math in the gpu.module (libdevice); the host none.
  addHostToLLVM(pm, /*hostMath=*/false);
  GpuToLLVMConversionPassOptions host;
  pm.addPass(createGpuToLLVMConversionPass(host));
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.toolkit;
  if (binary.toolkitPath.empty()) {
    const char *env = std::getenv("CUDA_HOME");
    binary.toolkitPath = env && *env ? env : "/usr/local/cuda";
  }
  binary.compilationTarget = "bin";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(std::make_unique<CheckLoweredToLLVMPass>());
}

void moe::registerMoePipelines() {
  PassPipelineRegistration<MoeLowerToCpuOptions>(
      "moe-lower-to-cpu",
      "Lower moe programs to the LLVM dialect for the CPU (reference "
      "semantics, bare-pointer memref arguments)",
      [](OpPassManager &pm, const MoeLowerToCpuOptions &options) {
        buildMoeLowerToCpuPipeline(pm, options);
      });
  PassPipelineRegistration<MoeLowerToGpuOptions>(
      "moe-lower-to-gpu",
      "Lower moe programs for NVIDIA GPUs: kernels (cubin for `chip`, via "
      "ptxas from `toolkit`) + calls into libmoe_runtime_gpu (mgpu*, "
      "moert_entry_*); host functions take bare device pointers",
      buildMoeLowerToGpuPipeline);
}
