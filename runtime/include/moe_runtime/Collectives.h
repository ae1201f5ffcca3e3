//===- Collectives.h - communicators for expert parallelism -----*- C++ -*-===//
//
// A communicator joins the P ranks of one grid axis (DESIGN: expert
// parallelism, EP.md section 4). It is made from one unique id that every
// rank receives (moe-runner --ranks passes it in the environment) and offers
// the two collectives compiled code calls through moert_coll_* (moe_runtime.h,
// declared from moert_coll_abi.def):
//
//   * allToAll: the ragged exchange with chunked counts. `sendSizes` has P·C
//     entries; destination q's rows are chunks q·C .. q·C+C-1, contiguous,
//     the destinations one after the other from row 0 of `send`. On return
//     `recvSizes[p·C + j]` = rows of chunk j that came from source p, and
//     `recv` holds them in source-rank order (each source's chunks in order)
//     from row 0; rows past them are zero.
//   * allReduceSum: the element-wise sum over the ranks, in place. Every rank
//     gets the same bits (the terms are added in rank order on every rank).
//
// The CPU transport (openShmCommunicator) is for processes on one machine: a
// POSIX shared-memory segment with one staging slot per rank and a barrier
// made of atomics. Every wait has a timeout (MOE_COMM_TIMEOUT_S seconds,
// default 60) and watches an abort flag: a rank that fails calls abort(why),
// and the others' collectives end with "rank R aborted the communicator: why"
// instead of waiting. Ranks that call different collectives, or the same one
// with different row sizes or counts, get an error naming both calls.
//
// The GPU transport is libmoe_runtime_gpu's (NCCL); moe_runtime_gpu.h.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_COLLECTIVES_H
#define MOE_RUNTIME_COLLECTIVES_H

#include "moe_runtime/DType.h"
#include "moe_runtime/Status.h"

#include <cstdint>
#include <memory>
#include <string>

namespace moert {

class Communicator {
public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;

  /// The ragged all-to-all (see the file comment). `sendSizes` and
  /// `recvSizes` have size()·chunksPerRank int32 entries; `send` has
  /// `sendRows` rows of `rowBytes` bytes, `recv` `recvRows`. The send sizes
  /// must be >= 0 and sum to at most sendRows; the rows received must fit in
  /// recvRows. Errors name the collective and this rank.
  virtual Status allToAll(const void *send, const int32_t *sendSizes,
                          int64_t chunksPerRank, int64_t sendRows, void *recv,
                          int32_t *recvSizes, int64_t recvRows,
                          int64_t rowBytes) = 0;

  /// data[i] = Σ_ranks data[i] for `count` elements of `dtype` (f32, f64,
  /// i32, i64), the same bits on every rank.
  virtual Status allReduceSum(void *data, int64_t count, DType dtype) = 0;

  /// Copies `bytes` bytes from rank `root`'s `data` into every rank's.
  virtual Status broadcast(void *data, int64_t bytes, int root) = 0;

  /// Marks the communicator failed, with `reason`: every rank's collectives
  /// (this one's too) fail from now on, naming this rank and the reason.
  virtual void abort(const std::string &reason) = 0;
};

/// Seconds a collective waits for the other ranks: MOE_COMM_TIMEOUT_S (a
/// positive number), default 60; an error names a bad value.
Status collectiveTimeoutSeconds(double *seconds);

/// Creates a shared-memory segment for `worldSize` ranks and sets `*id` to
/// its unique id (the name every rank opens). `slotBytes` is the staging
/// memory per rank (0: MOE_COMM_SLOT_BYTES, default 4 MiB); larger messages
/// move in several rounds. The creator removes it with removeShmCommunicator
/// once the ranks are done.
Status createShmCommunicator(int worldSize, size_t slotBytes, std::string *id);

/// Removes the segment `id` (the ranks' mappings stay valid until closed).
void removeShmCommunicator(const std::string &id);

/// Marks the segment `id` (of `worldSize` ranks) aborted by the process that
/// launched its ranks rather than by one of them: their collectives end with
/// "moe-runner aborted the communicator: <why>". For communicators of some
/// of the ranks (a grid axis group), whose rank numbers are not the world's.
Status abortShmCommunicatorAsLauncher(const std::string &id, int worldSize,
                                      const std::string &why);

/// Rank `rank` of `worldSize` joins the segment `id`; `timeoutSeconds` bounds
/// every wait (<= 0: collectiveTimeoutSeconds()). Errors name the segment and
/// what does not match (its world size, the rank).
Status openShmCommunicator(const std::string &id, int rank, int worldSize,
                           std::unique_ptr<Communicator> *out,
                           double timeoutSeconds = 0);

/// Makes `comm` the communicator of axis `axis` of grid `grid` (the grid's
/// index in the artifact's "grids") for moert_coll_* calls in this process.
Status registerCommunicator(int64_t grid, int64_t axis,
                            std::unique_ptr<Communicator> comm);

/// The communicator registered for (grid, axis), or null.
Communicator *findCommunicator(int64_t grid, int64_t axis);

/// Aborts every registered communicator with `reason` (a rank that fails
/// outside a collective lets the others stop waiting).
void abortCommunicators(const std::string &reason);

} // namespace moert

#endif // MOE_RUNTIME_COLLECTIVES_H
