//===- GroupedGemmConfig.cpp - tile choice of generated grouped GEMMs -----===//
#include "GroupedGemmConfig.h"

namespace mlir::moe::grouped_gemm {

GroupedGemmConfig chooseConfig(int64_t rows, int64_t kDim, int64_t n,
                               int64_t groups, bool f32Out, int64_t numCtas) {
  GroupedGemmConfig config;
  config.rows = rows;
  config.kDim = kDim;
  config.n = n;
  config.groups = groups;
  config.f32Out = f32Out;
  config.numCtas = numCtas;
  // A group's last tile is partly rows of the next group (masked): with
  // fewer than 256 rows a group on average, a 128-row tile would compute
  // mostly such rows.
  config.blockM = groups > 0 && rows / groups >= 256 ? 128 : 64;
  return config;
}

} // namespace mlir::moe::grouped_gemm
