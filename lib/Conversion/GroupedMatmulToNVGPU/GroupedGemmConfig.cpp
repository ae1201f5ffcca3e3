//===- GroupedGemmConfig.cpp - tile choice of generated grouped GEMMs -----===//
#include "GroupedGemmConfig.h"

#include <cassert>

namespace mlir::moe::grouped_gemm {

GroupedGemmConfig chooseConfig(RaggedDim ragged, int64_t rows, int64_t m,
                               int64_t n, int64_t k, int64_t groups,
                               bool aKMajor, bool bKMajor, bool f32Out,
                               int64_t numCtas) {
  GroupedGemmConfig config;
  config.ragged = ragged;
  config.rows = rows;
  config.m = m;
  config.n = n;
  config.k = k;
  config.groups = groups;
  config.aKMajor = aKMajor;
  config.bKMajor = bKMajor;
  config.f32Out = f32Out;
  config.numCtas = numCtas;
  if (ragged == RaggedDim::M) {
    // A group's last tile is partly rows of the next group (masked): with
    // fewer than 128 rows a group on average, a 128-row tile would compute
    // mostly such rows. With 128 or more, one tile a group streams each
    // expert's weights once (what bounds DeepSeek-V3's shape).
    config.blockM = groups > 0 && rows / groups >= 128 ? 128 : 64;
  } else {
    // Every group's c is [M, N]: tiles never straddle groups along M (the
    // epilogue stores whole tiles: M is a multiple of 64).
    assert(m % 64 == 0 && "a weight gradient's M is whole 64-row tiles");
    config.blockM = m % 128 == 0 ? 128 : 64;
  }
  // TMA latency is covered by the stages in flight: as many as fit.
  config.stages = 1;
  while (config.stages < GroupedGemmConfig::maxStages) {
    ++config.stages;
    if (config.sharedBytes() > GroupedGemmConfig::sharedCapacity) {
      --config.stages;
      break;
    }
  }
  return config;
}

} // namespace mlir::moe::grouped_gemm
