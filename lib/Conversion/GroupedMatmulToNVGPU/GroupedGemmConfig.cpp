//===- GroupedGemmConfig.cpp - tile choice of generated grouped GEMMs -----===//
#include "GroupedGemmConfig.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace mlir::moe::grouped_gemm {

/// Up to this N a grouped matmul keeps 128-column tiles (automatic), which
/// run pingpong: on one H200 (bench/results/2026-11-30-h200-heaviest-first
/// run3) 128 beat 256 at N = 4096 (seed-test's fc1 forward and fc2 dgrad,
/// K = 1024: 4 % and 7 %; mixtral-8x7b's fc1 dgrad, K = 14336: 4 %) and
/// lost at N = 14336 (mixtral's fc1 forward and fc2 dgrad: 1 % and 2 %).
static constexpr int64_t maxNarrowMatmulN = 4096;

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

/// Below this many bytes of a group's B (RaggedDim::K: of the group's rows
/// of B) the tiles run m-tile after m-tile: such a B stays in L2 (50 MB on
/// H100 and H200) while every m-tile reads it. Measured on one H200
/// (bench/results/2026-11-29-h200-panel-order): panels made mixtral-8x7b's
/// fc1 (117 MB a group) 9 % faster forward and 17 % as a weight gradient
/// (58 MB of dc a group), and qwen3-30b-a3b's N = 2048 GEMMs (3 MB) 3 %
/// slower.
static constexpr int64_t minPanelBBytes = int64_t{24} << 20;

/// Sets config.panelTiles: `requested`, else m-tile after m-tile where a
/// group's B is below minPanelBBytes, else the integer nearest
/// sqrt(numCtas * blockM / blockN).
static GroupedGemmConfig withPanels(GroupedGemmConfig config,
                                    int64_t requested) {
  if (requested > 0) {
    config.panelTiles = requested;
    return config;
  }
  int64_t bRows = config.ragged == RaggedDim::M
                      ? config.k
                      : config.rows / std::max<int64_t>(config.groups, 1);
  if (bRows * config.productN() * config.elementBytes() < minPanelBBytes) {
    config.panelTiles = config.nTiles();
    return config;
  }
  double best = std::sqrt(static_cast<double>(config.numCtas) *
                          static_cast<double>(config.blockM) /
                          static_cast<double>(config.blockN));
  config.panelTiles = std::max<int64_t>(1, std::llround(best));
  return config;
}

GroupedGemmConfig chooseConfig(const GroupedGemmConfig &problem,
                               BlockNChoice blockNChoice, int64_t maxStages,
                               int64_t panelTiles) {
  GroupedGemmConfig config = problem;
  if (config.ragged == RaggedDim::M) {
    // A group's last tile is partly rows of the next group (masked): with
    // fewer than 128 rows a group on average, a 128-row tile would compute
    // mostly such rows. With 128 or more, one tile a group streams each
    // expert's weights once (what bounds DeepSeek-V3's shape).
    config.blockM =
        config.groups > 0 && config.rows / config.groups >= 128 ? 128 : 64;
  } else {
    // Every group's c is [M, N]: a tile never holds two groups' rows (an M
    // that is not a multiple of 64 ends in a partial tile, stored by rows).
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
    // Measured on one H100 (bench/results/2026-11-24-h100-wide-tiles,
    // before 128-wide tiles ran pingpong): 256 is faster for every weight
    // gradient and for grouped matmuls with large N (mixtral-8x7b: the
    // layer 16 % faster); qwen3's grouped matmuls (N = 768: 7 % slower,
    // half as many tiles to spread over the SMs; N = 2048: a tie) keep
    // 128, and so do those with N = 4096 (maxNarrowMatmulN).
    useWide = wide.n % wide.outBlockN() == 0 && wide.stages >= 3 &&
              !wide.accumulate &&
              (wide.ragged == RaggedDim::K || wide.n > maxNarrowMatmulN);
    break;
  case BlockNChoice::n256:
    useWide = wide.stages >= 2;
    break;
  case BlockNChoice::n128:
    break;
  }
  if (useWide)
    return withPanels(wide, panelTiles);
  config.blockN = 128;
  config.stages = deepestPipeline(config, maxStages);
  return withPanels(config, panelTiles);
}

} // namespace mlir::moe::grouped_gemm
