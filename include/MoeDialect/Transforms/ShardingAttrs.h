//===- ShardingAttrs.h - how entry arguments spread over ranks --*- C++ -*-===//
//
// Argument and result attributes of per-rank (SPMD) functions, written by
// moe-expert-parallel and moe-generate-vjp and read by the artifact
// metadata:
// - `moe.split_dim = D : i64`: each rank holds slice [s·n, (s+1)·n) along
//   dim D of the one-rank tensor (n = this rank's size of dim D), where s is
//   the rank's index among the shards: its coordinates on the grid axes
//   `moe.split_axes = array<i64: ...>` taken row-major (every axis of the
//   grid when absent; on a 1-D grid s is the rank);
// - `moe.partial_sum` (unit): this rank's term; the one-rank value is the
//   sum over the ranks that differ on the axes `moe.partial_axes` (every
//   axis when absent) and share the others. A value may be both split (on
//   some axes) and a partial sum (on others): an expert weight's gradient
//   under data x expert parallelism;
// - neither: replicated, every rank's value is the one-rank value.
// Residuals carry neither and are rank-local.
//
// `moe.batch_axes = array<i64: ...>` on a per-rank function names the axes
// its tokens are split over: the gradient of an argument not split over
// one of them is a partial sum over it (moe-generate-vjp).
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_TRANSFORMS_SHARDINGATTRS_H
#define MOEDIALECT_TRANSFORMS_SHARDINGATTRS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::moe {

inline constexpr llvm::StringLiteral kSplitDimAttr = "moe.split_dim";
inline constexpr llvm::StringLiteral kPartialSumAttr = "moe.partial_sum";
inline constexpr llvm::StringLiteral kSplitAxesAttr = "moe.split_axes";
inline constexpr llvm::StringLiteral kPartialAxesAttr = "moe.partial_axes";
inline constexpr llvm::StringLiteral kBatchAxesAttr = "moe.batch_axes";

} // namespace mlir::moe

#endif // MOEDIALECT_TRANSFORMS_SHARDINGATTRS_H
