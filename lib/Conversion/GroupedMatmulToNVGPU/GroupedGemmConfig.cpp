//===- GroupedGemmConfig.cpp - tile choice of generated grouped GEMMs -----===//
#include "GroupedGemmConfig.h"

#include <algorithm>
#include <cassert>

namespace mlir::moe::grouped_gemm {

/// Below this N a grouped matmul keeps 128-column tiles (automatic).
static constexpr int64_t minWideMatmulN = 4096;

namespace {

/// The deepest pipeline that fits shared memory next to the epilogue and
/// the scans (TMA latency is covered by the stages in flight); 1 where not
/// even 2 fit.
int64_t deepestPipeline(GroupedGemmConfig config, int64_t limit) {
  const int64_t most = limit > 0 ? std::min(limit, GroupedGemmConfig::maxStages)
                                 : GroupedGemmConfig::maxStages;
  config.stages = 1;
  while (config.stages < most) {
    ++config.stages;
    if (config.sharedBytes() > GroupedGemmConfig::sharedCapacity)
      return config.stages - 1;
  }
  return config.stages;
}

} // namespace

GroupedGemmConfig chooseConfig(const GroupedGemmConfig &problem,
                               BlockNChoice blockNChoice, int64_t maxStages) {
  GroupedGemmConfig config = problem;
  if (config.ragged == RaggedDim::M) {
    // A group's last tile is partly rows of the next group (masked): with
    // fewer than 128 rows a group on average, a 128-row tile would compute
    // mostly such rows. With 128 or more, one tile a group streams each
    // expert's weights once (what bounds DeepSeek-V3's shape).
    config.blockM =
        config.groups > 0 && config.rows / config.groups >= 128 ? 128 : 64;
  } else {
    // Every group's c is [M, N]: tiles never straddle groups along M (the
    // epilogue stores whole tiles: M is a multiple of 64).
    assert(config.m % 64 == 0 && "a weight gradient's M is whole 64-row tiles");
    config.blockM = config.m % 128 == 0 ? 128 : 64;
  }
  // m64n256k16 reads B's shared memory once per 64 x 256 products instead
  // of twice (two m64n128k16), but a stage is 1.5x (BM = 128) or 1.67x
  // (BM = 64) larger: with fewer than 3 stages TMA latency shows. A tile
  // whose output width does not divide N computes a wider masked remainder.
  GroupedGemmConfig wide = config;
  wide.blockN = 256;
  wide.stages = deepestPipeline(wide, maxStages);
  bool useWide = false;
  if (config.scaling == Fp8Scaling::blockwise)
    blockNChoice = BlockNChoice::n128;
  switch (blockNChoice) {
  case BlockNChoice::automatic:
    // Measured on one H100 (bench/results/2026-11-24-h100-wide-tiles): 256
    // is faster for every weight gradient and for grouped matmuls with
    // N >= 4096 (mixtral-8x7b: the layer 16 % faster); qwen3's grouped
    // matmuls (N = 768: 7 % slower, half as many tiles to spread over the
    // SMs; N = 2048: a tie) keep 128.
    useWide = wide.n % wide.outBlockN() == 0 && wide.stages >= 3 &&
              !wide.accumulate &&
              (wide.ragged == RaggedDim::K || wide.n >= minWideMatmulN);
    break;
  case BlockNChoice::n256:
    useWide = wide.stages >= 2;
    break;
  case BlockNChoice::n128:
    break;
  }
  if (useWide)
    return wide;
  config.blockN = 128;
  config.stages = deepestPipeline(config, maxStages);
  return config;
}

} // namespace mlir::moe::grouped_gemm
