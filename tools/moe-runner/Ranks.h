//===- Ranks.h - moe-runner --ranks N: one process per rank -----*- C++ -*-===//
//
// `moe-runner --ranks N` starts N processes of itself, as torchrun does
// (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE set; on a GPU run,
// CUDA_VISIBLE_DEVICES picks the LOCAL_RANK-th device), joined by one
// shared-memory communicator whose id they find in MOE_COMM_ID, and on a
// grid of several axes by one per group of each axis (MOE_COMM_AXIS_IDS;
// RankGrid.h). Each rank runs the artifact on its slice of the one-rank
// inputs and checks its outputs against the matching slice of a one-rank
// reference. The parent
// prefixes each rank's output lines with "rank R: " (stdout in rank order at
// the end, stderr as it comes), and when a rank fails, aborts the
// communicator for it and stops the others within a bounded time.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNNER_RANKS_H
#define MOE_RUNNER_RANKS_H

#include "RankGrid.h"

#include "moe_runtime/Artifact.h"
#include "moe_runtime/Buffer.h"
#include "moe_runtime/Collectives.h"
#include "moe_runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace moe_runner {

/// This process's place among the ranks (rank 0 of 1 outside --ranks).
struct RankLayout {
  int rank = 0;
  int ranks = 1;
  moert::Communicator *comm = nullptr; // the world, for the checks
  RankGrid grid;                       // where the ranks lie
  bool multiRank() const { return ranks > 1; }
};

/// The environment variable that marks a rank process (set by the parent).
constexpr const char *kRankProcessEnv = "MOE_RUNNER_RANK_PROCESS";

/// Whether this process is a rank started by `--ranks`.
bool isRankProcess();

/// Checks that an artifact of `spec` runs on `ranks` ranks: N equals the
/// product of its grids' shapes. The error names the grids.
moert::Status checkWorldSize(const moert::ArtifactSpec &spec, int ranks);

/// The parent: runs `argv` (this moe-runner's own command line) as `ranks`
/// rank processes and returns the exit status (0 when every rank succeeded;
/// otherwise 1, after naming the failed ranks). `gpu`: give each rank its
/// LOCAL_RANK-th visible GPU. `grid`: where the ranks lie (the axis groups'
/// communicators are made for it).
int runRankProcesses(char **argv, int ranks, bool gpu, const RankGrid &grid);

/// A rank process: joins the communicator of MOE_COMM_ID as RANK of
/// WORLD_SIZE and registers a communicator for every axis of several ranks
/// of the artifact's grid (the world's for an axis of all the ranks, else
/// its group's from MOE_COMM_AXIS_IDS). Fatal errors name the variable
/// that is wrong.
RankLayout joinRanks(const moert::ArtifactSpec &spec);

/// One value that every rank must hold alike (an artifact's fingerprint,
/// the seed, a reference's fingerprint), with what it is.
struct RankAgreement {
  std::string what;
  uint64_t value = 0;
};

/// Gathers `items` from every rank (through `layout.comm`) and fails, naming
/// the first rank and item that differ from rank 0's, before anything runs:
/// ranks of different artifacts or options would otherwise exchange rows of
/// different shapes, or hang.
moert::Status checkRanksAgree(const RankLayout &layout, const std::vector<RankAgreement> &items);

/// fnv1a64 of the files' contents in order (each's size mixed in), for
/// RankAgreement; an unreadable file is an error.
moert::Status fingerprintFiles(const std::vector<std::string> &paths, uint64_t *out);

/// The one-rank spec of argument `local` (this rank's): dimension splitDim
/// times the shards of its split axes on `grid`.
moert::ArgSpec oneRankArg(const moert::ArgSpec &local, const RankGrid &grid);

/// Copies rank `rank`'s slice of the one-rank tensor `full` (of
/// oneRankArg(local, grid)) to `dst` (of `local`).
void copyRankSlice(const moert::ArgSpec &local, const RankGrid &grid, int rank, const void *full,
                   void *dst);

/// The value of a partial sum over its axes: `local` summed over the ranks
/// that differ on them (in double for floats, in int64 for integers, then
/// stored in its dtype) into `*sum`, one axis at a time over the axis
/// communicators.
moert::Status sumOverRanks(const RankLayout &layout, const moert::ArgSpec &arg, const void *local,
                           moert::AlignedBuffer *sum);

} // namespace moe_runner

#endif // MOE_RUNNER_RANKS_H
