//===- Pipelines.h - named pipelines from moe to LLVM -----------*- C++ -*-===//
#ifndef MOEDIALECT_CONVERSION_PIPELINES_H
#define MOEDIALECT_CONVERSION_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace moe {

/// Options both pipelines have.
template <typename Derived>
struct MoeLowerCommonOptions : public PassPipelineOptions<Derived> {
  typename PassPipelineOptions<Derived>::template Option<bool> outParams{
      *this, "out-params",
      llvm::cl::desc("Public functions too return their results through "
                     "out-params appended to their arguments (moe-compile's "
                     "entry ABI); a result the function allocates is "
                     "computed in its out-param, not copied there"),
      llvm::cl::init(false)};
};

/// Options of moe-lower-to-gpu.
struct MoeLowerToGpuOptions
    : public MoeLowerCommonOptions<MoeLowerToGpuOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("NVIDIA target architecture (sm_90a: "
                                    "Hopper H100/H200)"),
      llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (the PTX ISA version; default: +ptx80, "
                     "+ptx88 for sm_100 and newer)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit root: ptxas and libdevice come from here "
                     "(default: $CUDA_HOME, else /usr/local/cuda)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block of the generated kernels"),
      llvm::cl::init(256)};
  PassOptions::Option<int> optLevel{
      *this, "opt-level", llvm::cl::desc("Kernel optimization level (0-3)"),
      llvm::cl::init(3)};
};

/// moe-lower-to-gpu: as far as bufferization the same as moe-lower-to-cpu;
/// then grouped GEMMs become runtime calls (cuBLASLt,
/// convert-moe-to-runtime-calls), the other ops parallel loops
/// (convert-moe-to-parallel-loops) that run as kernels
/// (gpu-launch-top-level-loops), host buffers device buffers; upstream
/// gpu-kernel-outlining, gpu-async-region, convert-gpu-to-nvvm,
/// gpu-to-llvm and gpu-module-to-binary (cubin through ptxas) finish.
/// Host functions take bare device pointers like the CPU target's.
void buildMoeLowerToGpuPipeline(OpPassManager &pm,
                                const MoeLowerToGpuOptions &options);

/// moe-lower-to-cpu: expand moe.layer, bufferize (one-shot, function
/// boundaries with identity layouts), free temporaries, lower moe ops to
/// loops (the reference semantics), then everything to the LLVM dialect with
/// bare-pointer memref arguments (static shapes).
void buildMoeLowerToCpuPipeline(OpPassManager &pm);

/// Options of moe-lower-to-cpu.
struct MoeLowerToCpuOptions
    : public MoeLowerCommonOptions<MoeLowerToCpuOptions> {
  PassOptions::Option<bool> gpuSchedules{
      *this, "gpu-schedules",
      llvm::cl::desc("Lower with the GPU target's parallel schedules "
                     "(convert-moe-to-parallel-loops{hoist-scratch}) instead "
                     "of the reference loops, run sequentially: checks the "
                     "GPU algorithms against the reference on any machine"),
      llvm::cl::init(false)};
};
void buildMoeLowerToCpuPipeline(OpPassManager &pm,
                                const MoeLowerToCpuOptions &options);

/// Registers the named pipelines with the textual pass-pipeline parser.
void registerMoePipelines();

} // namespace moe
} // namespace mlir

#endif // MOEDIALECT_CONVERSION_PIPELINES_H
