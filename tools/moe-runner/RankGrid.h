//===- RankGrid.h - where the ranks of a --ranks run lie on the grid -*- C++ -*-===//
//
// The ranks of `moe-runner --ranks N` are the points of the artifact's grid
// (its "grids" entry whose size is N), rank r at the row-major coordinates
// of r: on a grid [2, 2], rank 1 is (0, 1) and rank 2 is (1, 0). A value
// split over some axes is cut into as many shards as those axes have
// points, and a rank holds the shard its coordinates on them name, taken
// row-major; a partial sum over some axes sums over the ranks that differ
// there. Each axis of several ranks has one communicator per group of ranks
// that share the other coordinates.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNNER_RANKGRID_H
#define MOE_RUNNER_RANKGRID_H

#include "moe_runtime/Artifact.h"

#include <cstdint>
#include <vector>

namespace moe_runner {

struct RankGrid {
  /// The grid's index in the artifact's "grids"; -1 without one.
  int64_t index = -1;
  /// Its shape; empty without a grid (one rank).
  std::vector<int64_t> shape;

  /// The grid of `spec` whose points are its ranks (spec.worldSize()).
  static RankGrid of(const moert::ArtifactSpec &spec);

  int64_t ranks() const;
  std::vector<int64_t> coordinates(int64_t rank) const;
  /// `axes`, or every axis of the grid when empty.
  std::vector<int64_t> axesOrAll(const std::vector<int64_t> &axes) const;
  /// The shards of a value split over `axes` (every axis when empty) and
  /// the one `rank` holds.
  int64_t shards(const std::vector<int64_t> &axes) const;
  int64_t shardOf(int64_t rank, const std::vector<int64_t> &axes) const;
  /// Whether `rank`'s coordinates on `axes` (every axis when empty) are 0:
  /// the rank that holds a partial-sum input (the others hold zeros).
  bool atOrigin(int64_t rank, const std::vector<int64_t> &axes) const;
  /// The ranks that share `rank`'s coordinates off `axis`, in axis order: the
  /// members of `rank`'s communicator on `axis`.
  std::vector<int64_t> axisGroup(int64_t rank, int64_t axis) const;
  /// Which of axis `axis`'s ranks()/shape[axis] groups `rank` is in.
  int64_t axisGroupIndex(int64_t rank, int64_t axis) const;
  /// The first member of each group of axis `axis`, in group order
  /// (axisGroupIndex): the rank that makes the group's communicator.
  std::vector<int64_t> axisGroupFirsts(int64_t axis) const;
  /// The axes that get communicators: those of several ranks, and on a
  /// grid of one rank every axis (its collectives still find one).
  std::vector<int64_t> communicatorAxes() const;
};

} // namespace moe_runner

#endif // MOE_RUNNER_RANKGRID_H
