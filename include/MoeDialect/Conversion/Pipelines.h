//===- Pipelines.h - named pipelines from moe to LLVM -----------*- C++ -*-===//
#ifndef MOEDIALECT_CONVERSION_PIPELINES_H
#define MOEDIALECT_CONVERSION_PIPELINES_H

namespace mlir {
class OpPassManager;
namespace moe {

/// moe-lower-to-cpu: expand moe.layer, bufferize (one-shot, function
/// boundaries with identity layouts), free temporaries, lower moe ops to
/// loops (the reference semantics), then everything to the LLVM dialect with
/// bare-pointer memref arguments (static shapes).
void buildMoeLowerToCpuPipeline(OpPassManager &pm);

/// Registers the named pipelines with the textual pass-pipeline parser.
void registerMoePipelines();

} // namespace moe
} // namespace mlir

#endif // MOEDIALECT_CONVERSION_PIPELINES_H
