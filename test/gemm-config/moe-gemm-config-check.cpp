//===- moe-gemm-config-check.cpp - shared-memory layouts of generated GEMMs -===//
//
// Checks, for every tile choice chooseConfig makes over a grid of grouped
// GEMM problems (both ragged dimensions, bf16 and FP8 operands with each
// scaling, both layouts, f32 output, gate|up halves, accumulate, a second
// product, TMA or thread stores, stage caps, group counts), that the
// kernel's shared-memory layout is consistent: operand stages on the
// 1024-byte period of the 128-byte swizzle, staged scales 16-byte aligned
// (bulk copies), the regions in order and disjoint, the epilogue's TMA
// staging on a 1024-byte boundary, and what the kernel asks for within
// the capacity whenever the chosen pipeline has the two stages the
// conversion needs (pipelineReason). Prints one line per violation and a
// summary.
// Plain C++ against GroupedGemmConfig.{h,cpp}: no MLIR, no GPU.
//
//===----------------------------------------------------------------------===//
#include "GroupedGemmConfig.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace mlir::moe::grouped_gemm;

namespace {

int violations = 0;

void fail(const GroupedGemmConfig &c, const std::string &what) {
  ++violations;
  std::printf("violation: %s (ragged %s, M %lld N %lld K %lld G %lld, BM %lld BN "
              "%lld, %lld stages, scaling %d, f32Out %d, halves %lld, "
              "accumulate %d, kSecond %lld, tmaStore %d)\n",
              what.c_str(), c.ragged == RaggedDim::M ? "M" : "K",
              (long long)c.m, (long long)c.n, (long long)c.k, (long long)c.groups,
              (long long)c.blockM, (long long)c.blockN, (long long)c.stages,
              static_cast<int>(c.scaling), c.f32Out,
              (long long)c.accumulatorsPerOutput, c.accumulate,
              (long long)c.kSecond, c.tmaStoreAllowed);
}

/// Whether [a, a + aBytes) and [b, b + bBytes) overlap.
bool overlap(int64_t a, int64_t aBytes, int64_t b, int64_t bBytes) {
  return aBytes > 0 && bBytes > 0 && a < b + bBytes && b < a + aBytes;
}

/// The checks of one chosen config; returns whether the conversion would
/// accept it (at least two stages within the capacity).
bool check(const GroupedGemmConfig &c) {
  bool accepted = c.stages >= 2 && c.sharedBytes() <= GroupedGemmConfig::sharedCapacity;
  for (int64_t s = 0; s < c.stages; ++s) {
    if (c.aOffset(s) % 1024 || c.bOffset(s) % 1024)
      fail(c, "operand stage " + std::to_string(s) + " off the 1024-byte swizzle period");
    if (c.stagedScales() && c.scaleOffset(s) % 16)
      fail(c, "scale stage " + std::to_string(s) + " not 16-byte aligned");
    if (c.stagedScales() && (c.scaleOffset(s) + c.blockM * 4) % 16)
      fail(c, "b_scale slots of stage " + std::to_string(s) + " not 16-byte aligned");
    for (int64_t t = 0; t < c.stages; ++t) {
      if (t != s && overlap(c.aOffset(s), c.aStageBytes(), c.aOffset(t), c.aStageBytes()))
        fail(c, "A stages overlap");
      if (overlap(c.aOffset(s), c.aStageBytes(), c.bOffset(t), c.bStageBytes()))
        fail(c, "an A stage overlaps a B stage");
      if (c.stagedScales() &&
          (overlap(c.scaleOffset(s), c.scaleStageBytes(), c.aOffset(t), c.aStageBytes()) ||
           overlap(c.scaleOffset(s), c.scaleStageBytes(), c.bOffset(t), c.bStageBytes())))
        fail(c, "a scale stage overlaps an operand stage");
    }
  }
  int64_t stagesEnd = c.stagedScales() ? c.scaleOffset(c.stages)
                                       : c.bOffset(c.stages - 1) + c.bStageBytes();
  if (c.epilogueOffset() < stagesEnd)
    fail(c, "the epilogue staging overlaps the stages");
  if (c.epilogueOffset() % 1024)
    fail(c, "the epilogue staging off a 1024-byte boundary");
  if (c.tmaStore() && c.tmaStagingStride() % 1024)
    fail(c, "a consumer's TMA staging off a 1024-byte boundary");
  if (c.scanOffset() < c.epilogueOffset() + c.epilogueBytes())
    fail(c, "the size scans overlap the epilogue staging");
  if (c.scanOffset() % 4)
    fail(c, "the size scans not 4-byte aligned");
  if (c.stageTransactionBytes() != c.aStageBytes() + c.bStageBytes())
    fail(c, "the TMA transaction bytes differ from a stage's operand bytes");
  if (c.stagedScales() && c.scaleStageBytes() != (c.blockM + c.blockN) * 4)
    fail(c, "a scale stage is not one f32 per tile row and column");
  if (c.stages >= 2 && c.sharedBytes() > GroupedGemmConfig::sharedCapacity)
    fail(c, "the chosen pipeline does not fit shared memory");
  return accepted;
}

} // namespace

int main() {
  int64_t configs = 0, accepted = 0, staged = 0, pingpong = 0;
  for (RaggedDim ragged : {RaggedDim::M, RaggedDim::K})
    for (int precision = 0; precision < 3; ++precision) // bf16, tensorwise, blockwise
      for (int64_t m : {192, 256, 2048, 7168})
        for (int64_t n : {200, 768, 2048, 14336})
          for (int64_t groups : {8, 128, 256, 1024, 4000})
            for (bool f32Out : {false, true})
              for (bool tmaStore : {false, true})
                for (int64_t maxStages : {0, 2, 3})
                  for (BlockNChoice blockN :
                       {BlockNChoice::automatic, BlockNChoice::n128, BlockNChoice::n256})
                    for (int variant = 0; variant < 5; ++variant) {
                      // 0 plain, 1 gate|up halves, 2 accumulate, 3 a second
                      // product, 4 one whose K (264) ends in a partial k-step
                      // (which keeps pingpong off) (RaggedDim::M bf16 only, as
                      // the conversion builds them).
                      if (variant && (ragged == RaggedDim::K || precision))
                        continue;
                      GroupedGemmConfig p;
                      p.ragged = ragged;
                      p.groups = groups;
                      p.n = n;
                      p.f32Out = f32Out;
                      p.tmaStoreAllowed = tmaStore;
                      if (precision) {
                        p.aType = OperandType::e4m3;
                        p.bType = OperandType::e5m2;
                        p.scaling = precision == 1 ? Fp8Scaling::tensorwise
                                                   : Fp8Scaling::blockwise;
                      }
                      if (ragged == RaggedDim::M) {
                        p.rows = 16384;
                        p.m = p.rows;
                        p.k = m;
                        p.bKMajor = precision != 0;
                      } else {
                        p.rows = 16384;
                        p.k = p.rows;
                        p.m = m;
                        p.aKMajor = p.bKMajor = precision != 0;
                      }
                      p.accumulatorsPerOutput = variant == 1 ? 2 : 1;
                      p.accumulate = variant == 2;
                      p.kSecond = variant == 3 ? 768 : variant == 4 ? 264 : 0;
                      GroupedGemmConfig c = chooseConfig(p, blockN, maxStages);
                      ++configs;
                      staged += c.stagedScales();
                      pingpong += c.pingpong();
                      accepted += check(c);
                    }
  std::printf("configs: %lld, accepted: %lld, with staged scales: %lld, "
              "pingpong: %lld\n",
              (long long)configs, (long long)accepted, (long long)staged,
              (long long)pingpong);
  std::printf("%d violations\n", violations);
  return violations ? 1 : 0;
}
