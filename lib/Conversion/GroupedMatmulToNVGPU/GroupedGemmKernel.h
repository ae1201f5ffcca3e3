//===- GroupedGemmKernel.h - the body of a generated grouped GEMM -*- C++
//-*-===//
//
// Builds, inside a gpu.launch of GroupedGemmConfig::threads threads and
// GroupedGemmConfig::numCtas blocks, a persistent warp-specialized grouped
// GEMM (GroupedMatmulToNVGPU.cpp says what it computes and how).
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_CONVERSION_GROUPEDMATMULTONVGPU_GROUPEDGEMMKERNEL_H
#define MOE_LIB_CONVERSION_GROUPEDMATMULTONVGPU_GROUPEDGEMMKERNEL_H

#include "GroupedGemmConfig.h"

#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::moe::grouped_gemm {

/// What the kernel reads and writes besides the operands its TMA
/// descriptors address: groupSizes [G] i32 and c, a 2-D bf16 or f32 buffer
/// ([R, N] for RaggedDim::M, db viewed as [G * M, N] for RaggedDim::K); a
/// device scratch [numCtas, GroupedGemmConfig::descriptorWords] i64 where
/// each CTA keeps its copy of the TMA descriptors; the descriptors' 16 words
/// each (i64, encoded on the host): A's, B's, and, where
/// GroupedGemmConfig::tmaStore, c's (64 x 64 boxes).
struct GroupedGemmKernelOperands {
  Value groupSizes, c;
  Value descriptorScratch;
  SmallVector<Value, 16> aMapWords, bMapWords, cMapWords;
  /// GroupedGemmConfig::kSecond: the second product's operands' descriptors.
  SmallVector<Value, 16> a2MapWords, b2MapWords;
  /// GroupedGemmConfig::upWeight: b_up's descriptor.
  SmallVector<Value, 16> bUpMapWords;
  /// RaggedDim::M only. Null: c holds the accumulators. Else it builds, at
  /// the builder's insertion point, an output element's f32 values (c's,
  /// then one per `extraOutputs`) from its accumulators
  /// (GroupedGemmConfig::accumulatorsPerOutput of them), where `rowScale`
  /// ([R] f32) is set its row's element, then the element of each
  /// `epilogueInputs` ([R, N] bf16 or f32) as f32.
  std::function<SmallVector<Value, 3>(OpBuilder &, ValueRange)> epilogue;
  Value rowScale;
  /// Read and written by threads, two columns of a row at a time, with c's
  /// row mask; [R, N] bf16 or f32 each.
  SmallVector<Value> epilogueInputs, extraOutputs;
  /// FP8 (GroupedGemmConfig::scaling): the f32 scales of A and B, rank 0
  /// (tensorwise), or a_scale [R, K/128] and b_scale [G, N/128, K/128] (or
  /// [G, K/128, N/128], GroupedGemmConfig::bScaleNK) (blockwise;
  /// RaggedDim::K: a_scale [R/128, M] and b_scale [R/128, N], a row of
  /// scales per 128 rows of R).
  Value aScale, bScale;
  /// GroupedGemmConfig::kSecond with blockwise FP8: the second product's
  /// a2_scale [R, kSecond/128] and b2_scale (as b_scale).
  Value a2Scale, b2Scale;
};

/// Emits the kernel body at `builder`'s insertion point (the start of the
/// gpu.launch body, before its terminator).
void buildGroupedGemmKernel(OpBuilder &builder, Location loc,
                            const GroupedGemmConfig &config,
                            const GroupedGemmKernelOperands &operands);

} // namespace mlir::moe::grouped_gemm

#endif
