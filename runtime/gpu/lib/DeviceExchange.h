//===- DeviceExchange.h - the ragged all-to-all without the host -*- C++ -*-===//
//
// The device-side path of moert_gpu_all_to_all (Collectives.cpp): the send
// counts stay in device memory, and three kernels on the stream move them
// and the rows through a symmetric NCCL window (ncclMemAlloc +
// ncclCommWindowRegister) that every rank reaches by load/store (NCCL's LSA
// pointers: NVLink / P2P). Nothing waits on the host, so an entry that
// exchanges can be captured into a CUDA graph and replayed with other counts.
//
//   counts kernel (1 CTA): writes this rank's counts into every rank's
//     window, barrier 1, checks them, writes the received counts and the
//     plan (where each rank's rows go) to device memory;
//   push kernel (many CTAs): this rank's rows to every other rank's window
//     at the offset they have in that rank's output (its own rows straight
//     to the output); the last CTA to finish arrives at barrier 2;
//   drain kernel (many CTAs): waits at barrier 2, copies the rows the others
//     pushed from the window to the output, zeroes the rows past them.
//
// The barriers are flags in the window, one per source rank, set to an
// epoch that every call advances on the device (so a replayed graph moves
// on too). Every wait has a deadline (%globaltimer); a timeout or counts
// that do not fit are written to mapped host memory (ExchangeFault) and the
// kernel traps, so the stream fails and the host can say why.
//
// Built by nvcc (DeviceExchange.cu) only where NCCL's device headers
// (nccl_device.h) are found; Collectives.cpp calls it through these
// functions, which never throw and return 0 or a CUDA error code.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_GPU_LIB_DEVICEEXCHANGE_H
#define MOE_RUNTIME_GPU_LIB_DEVICEEXCHANGE_H

#include <cstddef>
#include <cstdint>

namespace moert_gpu {
namespace dx {

constexpr int kMaxRanks = 64;

/// The window's layout, the same on every rank: flags (one uint64 per
/// source rank), headers (4 int32 per source rank: chunks, recv_rows,
/// row_bytes, a magic), counts (P·C int32 per source rank), then rows.
struct Layout {
  size_t flagsOffset = 0;
  size_t headersOffset = 0;
  size_t countsOffset = 0;
  size_t countsCapacity = 0; // int32 per source rank
  size_t dataOffset = 0;
  size_t dataBytes = 0;
  size_t totalBytes = 0;
};

Layout layoutFor(int ranks, int64_t chunksPerRank, int64_t recvRows, int64_t rowBytes);

/// What a kernel found wrong, in mapped host memory (written before it
/// traps). code 0: nothing.
struct ExchangeFault {
  int32_t code;
  int32_t rank;    // the rank that found it
  int32_t peer;    // the rank it concerns
  int32_t barrier; // 1 or 2 for timeouts
  int64_t value;   // the count or size at fault
  int64_t limit;   // what it had to fit in
};

enum FaultCode : int32_t {
  kFaultNone = 0,
  kFaultTimeout = 1,
  kFaultNegativeCount = 2,
  kFaultSendOverflow = 3,
  kFaultRecvOverflow = 4,
  kFaultShapeMismatch = 5,
};

/// One rank's view of the exchange: the LSA pointer of every rank's window
/// (its own included), its rank and the device state the kernels keep
/// (the epoch, the CTA arrival count and the plan).
struct Peers {
  char *window[kMaxRanks];
  int ranks;
  int rank;
};

/// Device memory the kernels keep between calls (allocated by
/// stateBytes(); zero it once).
size_t stateBytes();

/// The size of `comm`'s (an ncclComm_t) LSA team, the ranks this one
/// reaches by load/store; the device path needs all of them in it.
int lsaTeamSize(void *comm);

/// Resolves the LSA pointer of every rank's window (`window` is NCCL's
/// ncclWindow_t) into peers->window, on `stream`, waiting for it.
int resolvePeers(void *window, Peers *peers, void *stream);

struct Call {
  const void *send;
  const int32_t *sendSizes;
  int64_t chunksPerRank;
  int64_t sendRows;
  void *recv;
  int32_t *recvSizes;
  int64_t recvRows;
  int64_t rowBytes;
  Layout layout;
  void *state;
  ExchangeFault *fault; // mapped host memory (its device pointer)
  uint64_t timeoutNs;
  int ctas; // of the push and drain kernels
};

/// Launches the three kernels of one exchange on `stream`.
int launchExchange(const Peers &peers, const Call &call, void *stream);

} // namespace dx
} // namespace moert_gpu

#endif
