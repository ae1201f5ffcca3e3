//===- ShardingAttrs.h - how entry arguments spread over ranks --*- C++ -*-===//
//
// Argument and result attributes of per-rank (SPMD) functions, written by
// moe-expert-parallel and moe-generate-vjp and read by the artifact
// metadata:
// - `moe.split_dim = D : i64`: each rank holds slice [rank·n, (rank+1)·n)
//   along dim D of the one-rank tensor (n = this rank's size of dim D);
// - `moe.partial_sum` (unit): this rank's term; the one-rank value is the
//   sum over the ranks;
// - neither: replicated, every rank's value is the one-rank value.
// Residuals carry neither and are rank-local.
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_TRANSFORMS_SHARDINGATTRS_H
#define MOEDIALECT_TRANSFORMS_SHARDINGATTRS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::moe {

inline constexpr llvm::StringLiteral kSplitDimAttr = "moe.split_dim";
inline constexpr llvm::StringLiteral kPartialSumAttr = "moe.partial_sum";

} // namespace mlir::moe

#endif // MOEDIALECT_TRANSFORMS_SHARDINGATTRS_H
