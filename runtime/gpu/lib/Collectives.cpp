//===- Collectives.cpp - the collectives of expert parallelism over NCCL --===//
//
// One NCCL communicator per (grid, axis), made with ncclCommInitRank from a
// unique id every rank received (moert_gpu_comm_*), and the collectives on
// them: the all-reduce (ncclAllReduce, in place) and the ragged all-to-all
// with chunked counts in device memory, by one of two paths:
//  * device (DeviceExchange.h, the default where it is built and every rank
//    is load/store reachable): counts and rows move through a symmetric NCCL
//    window by kernels, with no host wait, so it can be captured in a CUDA
//    graph;
//  * host-counts (the fallback): the send counts are gathered from every
//    rank (ncclAllGather), copied to the host, and the rows move by grouped
//    ncclSend/ncclRecv (a rank's own rows by a device copy).
// MOE_EP_EXCHANGE=device|host-counts (or moert_gpu_comm_set_exchange) picks
// one; unset, device where it can run, else host-counts. Every CUDA and NCCL
// status is checked and reported with the call;
// every wait on the host polls the stream and the communicator's
// asynchronous error with a deadline (MOE_COMM_TIMEOUT_S, default 60 s).
// The moert_entry_coll_* twins of the CPU's moert_coll_* (moert_coll_gpu_abi.def)
// report a failure, abort every communicator (ncclCommAbort: the other ranks'
// NCCL calls end with an error instead of waiting) and exit the process.
//
// The host-staged transport (moert_gpu_comm_init_host) replaces NCCL on an
// axis by a host communicator the caller registers: the buffers go through
// pinned host memory on the stream, with a host wait per collective (P ranks
// on one GPU; a library without NCCL).
//
// Built without NCCL (MOERT_GPU_HAVE_NCCL undefined), every NCCL function
// fails with "libmoe_runtime_gpu was built without NCCL"; the host-staged
// transport works either way.
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/moe_runtime_gpu.h"
#include "moe_runtime/moe_runtime_mgpu.h"

#include "Internal.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#ifdef MOERT_GPU_HAVE_NCCL
#include <nccl.h>
#endif
#ifdef MOERT_GPU_HAVE_DEVICE_EXCHANGE
#include "DeviceExchange.h"
#endif

namespace {

std::string gCollError; // the last failure's message (under gCollMutex)
std::mutex gCollMutex;

int collFail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int collFail(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  gCollError = buf;
  moert_gpu::setLastError(buf);
  return -1;
}

#define CUDA_CK(call)                                                                              \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess)                                                                         \
      return collFail("%s failed: %s: %s", #call, cudaGetErrorName(e_), cudaGetErrorString(e_));   \
  } while (0)

/// An axis on the host-staged transport: the caller's host communicator and
/// the pinned memory its collectives stage through (grown on demand).
struct HostComm {
  moert_gpu_host_comm table;
  void *pinned = nullptr;
  size_t pinnedBytes = 0;
};

std::map<std::pair<int64_t, int64_t>, HostComm> gHostComms;

size_t alignedBytes(size_t bytes) { return (bytes + 63) / 64 * 64; }

/// At least `bytes` bytes of pinned host memory in *out. Growing it waits
/// for `stream` first: the previous collective's copies may still read it.
int stagingFor(HostComm &h, size_t bytes, cudaStream_t stream, unsigned char **out) {
  if (h.pinnedBytes < bytes) {
    if (h.pinned) {
      CUDA_CK(cudaStreamSynchronize(stream));
      CUDA_CK(cudaFreeHost(h.pinned));
      h.pinned = nullptr;
      h.pinnedBytes = 0;
    }
    CUDA_CK(cudaMallocHost(&h.pinned, bytes));
    h.pinnedBytes = bytes;
  }
  *out = static_cast<unsigned char *>(h.pinned);
  return 0;
}

int hostFailed(const HostComm &h, const char *what) {
  const char *why = h.table.last_error(h.table.ctx);
  return collFail("%s over the host communicator (rank %d of %d): %s", what, h.table.rank,
                  h.table.size, why && *why ? why : "failed");
}

/// The bytes of one element of moert_dtype `code` among the summed types,
/// or 0.
size_t summedElementBytes(int32_t code) {
  switch (code) {
  case 0: // MOERT_F64
  case 7: // MOERT_I64
    return 8;
  case 1: // MOERT_F32
  case 8: // MOERT_I32
    return 4;
  default:
    return 0;
  }
}

/// The ragged all-to-all staged through the host: counts and rows to pinned
/// memory, wait, the host exchange, results back on the stream.
int hostAllToAll(HostComm &h, const void *send, const int32_t *sendSizesDevice, int64_t chunks,
                 int64_t sendRows, void *recv, int32_t *recvSizesDevice, int64_t recvRows,
                 int64_t rowBytes, cudaStream_t stream) {
  const char *what = "all_to_all";
  if (chunks < 1 || rowBytes < 0 || sendRows < 0 || recvRows < 0)
    return collFail("%s: bad arguments: %lld chunks per rank, %lld-byte rows, %lld and %lld rows",
                    what, (long long)chunks, (long long)rowBytes, (long long)sendRows,
                    (long long)recvRows);
  const size_t countBytes = size_t(h.table.size) * size_t(chunks) * sizeof(int32_t);
  const size_t sendBytes = size_t(sendRows) * size_t(rowBytes);
  const size_t recvBytes = size_t(recvRows) * size_t(rowBytes);
  unsigned char *base = nullptr;
  if (stagingFor(h,
                 2 * alignedBytes(countBytes) + alignedBytes(sendBytes) + alignedBytes(recvBytes),
                 stream, &base) != 0)
    return -1;
  auto *hostSendSizes = reinterpret_cast<int32_t *>(base);
  auto *hostRecvSizes = reinterpret_cast<int32_t *>(base + alignedBytes(countBytes));
  unsigned char *hostSend = base + 2 * alignedBytes(countBytes);
  unsigned char *hostRecv = hostSend + alignedBytes(sendBytes);
  CUDA_CK(
      cudaMemcpyAsync(hostSendSizes, sendSizesDevice, countBytes, cudaMemcpyDeviceToHost, stream));
  if (sendBytes > 0)
    CUDA_CK(cudaMemcpyAsync(hostSend, send, sendBytes, cudaMemcpyDeviceToHost, stream));
  CUDA_CK(cudaStreamSynchronize(stream));
  if (h.table.all_to_all(h.table.ctx, hostSend, hostSendSizes, chunks, sendRows, hostRecv,
                         hostRecvSizes, recvRows, rowBytes) != 0)
    return hostFailed(h, what);
  CUDA_CK(
      cudaMemcpyAsync(recvSizesDevice, hostRecvSizes, countBytes, cudaMemcpyHostToDevice, stream));
  if (recvBytes > 0)
    CUDA_CK(cudaMemcpyAsync(recv, hostRecv, recvBytes, cudaMemcpyHostToDevice, stream));
  return 0;
}

/// The in-place sum staged through the host.
int hostAllReduce(HostComm &h, void *data, int64_t count, int32_t dtype, cudaStream_t stream) {
  size_t elementBytes = summedElementBytes(dtype);
  if (elementBytes == 0)
    return collFail("element type code %d is not summed (f32, f64, i32, i64 are)", dtype);
  if (count < 0)
    return collFail("all_reduce: negative element count %lld", (long long)count);
  const size_t bytes = size_t(count) * elementBytes;
  unsigned char *staged = nullptr;
  if (stagingFor(h, alignedBytes(bytes), stream, &staged) != 0)
    return -1;
  if (bytes > 0)
    CUDA_CK(cudaMemcpyAsync(staged, data, bytes, cudaMemcpyDeviceToHost, stream));
  CUDA_CK(cudaStreamSynchronize(stream));
  if (h.table.all_reduce(h.table.ctx, staged, count, dtype) != 0)
    return hostFailed(h, "all_reduce");
  if (bytes > 0)
    CUDA_CK(cudaMemcpyAsync(data, staged, bytes, cudaMemcpyHostToDevice, stream));
  return 0;
}

HostComm *findHostComm(int64_t grid, int64_t axis) {
  auto it = gHostComms.find({grid, axis});
  return it == gHostComms.end() ? nullptr : &it->second;
}

#ifdef MOERT_GPU_HAVE_NCCL

enum class Exchange { Unset, Device, HostCounts };

const char *exchangeName(Exchange e) {
  return e == Exchange::Device ? "device" : e == Exchange::HostCounts ? "host-counts" : "unset";
}

struct Comm {
  ncclComm_t comm = nullptr;
  int rank = 0;
  int size = 1;
  void *scratch = nullptr; // device memory for the gathered counts
  size_t scratchBytes = 0;
  Exchange exchange = Exchange::Unset;
  bool exchangeChosenAutomatically = false; // MOE_EP_EXCHANGE unset or auto
#ifdef MOERT_GPU_HAVE_DEVICE_EXCHANGE
  // The device path's symmetric window (ncclMemAlloc'd, registered), the
  // kernels' state and the mapped fault record.
  ncclWindow_t window = nullptr;
  void *windowBase = nullptr;
  size_t windowBytes = 0;
  size_t countsCapacity = 0; // int32 per source rank (P·C of the largest C)
  size_t dataCapacity = 0;   // bytes of rows
  void *state = nullptr;
  moert_gpu::dx::ExchangeFault *fault = nullptr; // host address (mapped)
  moert_gpu::dx::ExchangeFault *faultDevice = nullptr;
  moert_gpu::dx::Peers peers{};
  int ctasMax = 1;
#endif
};

std::map<std::pair<int64_t, int64_t>, Comm> gComms;

#define NCCL_CK(call)                                                                              \
  do {                                                                                             \
    ncclResult_t r_ = (call);                                                                      \
    if (r_ != ncclSuccess)                                                                         \
      return collFail("%s failed: %s (%s)", #call, ncclGetErrorString(r_),                         \
                      ncclGetLastError(nullptr));                                                  \
  } while (0)

double timeoutSeconds() {
  const char *env = std::getenv("MOE_COMM_TIMEOUT_S");
  double v = env ? std::strtod(env, nullptr) : 0.0;
  return v > 0 ? v : 60.0;
}

/// Waits for `stream` with a deadline, watching the communicator's
/// asynchronous error.
int waitFor(const Comm &c, cudaStream_t stream, const char *what) {
  auto start = std::chrono::steady_clock::now();
  const double timeout = timeoutSeconds();
  for (;;) {
    cudaError_t e = cudaStreamQuery(stream);
    if (e == cudaSuccess)
      return 0;
    if (e != cudaErrorNotReady)
      return collFail("%s: cudaStreamQuery failed: %s: %s", what, cudaGetErrorName(e),
                      cudaGetErrorString(e));
    ncclResult_t async = ncclSuccess;
    NCCL_CK(ncclCommGetAsyncError(c.comm, &async));
    if (async != ncclSuccess && async != ncclInProgress)
      return collFail("%s: the communicator failed: %s (%s)", what, ncclGetErrorString(async),
                      ncclGetLastError(c.comm));
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (waited > timeout)
      return collFail("%s on rank %d of %d: timed out after %g s waiting for the other ranks "
                      "(MOE_COMM_TIMEOUT_S)",
                      what, c.rank, c.size, timeout);
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

int findComm(int64_t grid, int64_t axis, Comm **out) {
  auto it = gComms.find({grid, axis});
  if (it == gComms.end())
    return collFail("no NCCL communicator for grid %lld axis %lld in this process (run the "
                    "artifact on its ranks: moe-runner --ranks N)",
                    (long long)grid, (long long)axis);
  *out = &it->second;
  return 0;
}

int ncclTypeOf(int32_t dtype, ncclDataType_t *out) {
  switch (dtype) {
  case 0:
    *out = ncclFloat64;
    return 0; // MOERT_F64
  case 1:
    *out = ncclFloat32;
    return 0; // MOERT_F32
  case 7:
    *out = ncclInt64;
    return 0; // MOERT_I64
  case 8:
    *out = ncclInt32;
    return 0; // MOERT_I32
  default:
    return collFail("element type code %d is not summed (f32, f64, i32, i64 are)", dtype);
  }
}

/// At least `bytes` of the communicator's device scratch (grown, never
/// shrunk; cudaFree of the old one waits for the work that used it).
int scratchOf(Comm &c, size_t bytes) {
  if (c.scratchBytes >= bytes)
    return 0;
  if (c.scratch)
    CUDA_CK(cudaFree(c.scratch));
  c.scratch = nullptr;
  c.scratchBytes = 0;
  CUDA_CK(cudaMalloc(&c.scratch, bytes));
  c.scratchBytes = bytes;
  return 0;
}

/// Whether `stream` is being captured into a CUDA graph, in *capturing.
int captureStatus(cudaStream_t stream, bool *capturing) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CUDA_CK(cudaStreamIsCapturing(stream, &status));
  *capturing = status != cudaStreamCaptureStatusNone;
  return 0;
}

int hostCountsAllToAll(Comm &c, const void *send, const int32_t *sendSizesDevice, int64_t chunks,
                       int64_t sendRows, void *recv, int32_t *recvSizesDevice, int64_t recvRows,
                       int64_t rowBytes, cudaStream_t stream) {
  const char *what = "all_to_all (host-counts)";
  const int p = c.size;
  bool capturing = false;
  if (captureStatus(stream, &capturing) != 0)
    return -1;
  if (capturing)
    return collFail("%s waits on the host for the counts, which a CUDA graph capture cannot "
                    "record; the device exchange (MOE_EP_EXCHANGE=device) can be captured",
                    what);
  if (chunks < 1 || rowBytes < 0 || sendRows < 0 || recvRows < 0)
    return collFail("%s: bad arguments: %lld chunks per rank, %lld-byte rows", what,
                    (long long)chunks, (long long)rowBytes);
  const int64_t n = p * chunks;
  const size_t countBytes = size_t(n) * sizeof(int32_t);
  if (scratchOf(c, countBytes * size_t(p + 1)) != 0)
    return -1;
  // Every rank's send counts, to all, then to the host.
  auto *gathered = static_cast<int32_t *>(c.scratch);
  NCCL_CK(ncclAllGather(sendSizesDevice, gathered, size_t(n), ncclInt32, c.comm, stream));
  std::vector<int32_t> sizes(size_t(p) * size_t(n));
  CUDA_CK(cudaMemcpyAsync(sizes.data(), gathered, sizes.size() * sizeof(int32_t),
                          cudaMemcpyDeviceToHost, stream));
  if (waitFor(c, stream, "all_to_all (exchanging the counts)") != 0)
    return -1;
  auto rowsFrom = [&](int s, int d) {
    int64_t rows = 0;
    for (int64_t j = 0; j < chunks; ++j)
      rows += sizes[size_t(s * n + d * chunks + j)];
    return rows;
  };
  int64_t sent = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (sizes[size_t(c.rank * n + i)] < 0)
      return collFail("%s on rank %d: send_sizes[%lld] = %d is negative", what, c.rank,
                      (long long)i, sizes[size_t(c.rank * n + i)]);
    sent += sizes[size_t(c.rank * n + i)];
  }
  if (sent > sendRows)
    return collFail("%s on rank %d: send_sizes sum to %lld rows, but the input has %lld", what,
                    c.rank, (long long)sent, (long long)sendRows);
  std::vector<int32_t> recvSizes(static_cast<size_t>(n));
  int64_t received = 0;
  for (int s = 0; s < p; ++s)
    for (int64_t j = 0; j < chunks; ++j) {
      recvSizes[size_t(s * chunks + j)] = sizes[size_t(s * n + c.rank * chunks + j)];
      received += recvSizes[size_t(s * chunks + j)];
    }
  if (received > recvRows)
    return collFail("%s on rank %d: the other ranks send %lld rows, but the output has %lld", what,
                    c.rank, (long long)received, (long long)recvRows);
  CUDA_CK(cudaMemcpyAsync(recvSizesDevice, recvSizes.data(), countBytes, cudaMemcpyHostToDevice,
                          stream));
  // The rows: grouped sends and receives; this rank's own by a copy.
  const auto *src = static_cast<const unsigned char *>(send);
  auto *dst = static_cast<unsigned char *>(recv);
  int64_t sendAt = 0, recvAt = 0;
  std::vector<std::pair<int64_t, int64_t>> sendRange(static_cast<size_t>(p)),
      recvRange(static_cast<size_t>(p));
  for (int q = 0; q < p; ++q) {
    sendRange[size_t(q)] = {sendAt, rowsFrom(c.rank, q) * rowBytes};
    sendAt += sendRange[size_t(q)].second;
    recvRange[size_t(q)] = {recvAt, rowsFrom(q, c.rank) * rowBytes};
    recvAt += recvRange[size_t(q)].second;
  }
  NCCL_CK(ncclGroupStart());
  for (int q = 0; q < p; ++q) {
    if (q == c.rank)
      continue;
    if (sendRange[size_t(q)].second > 0)
      NCCL_CK(ncclSend(src + sendRange[size_t(q)].first, size_t(sendRange[size_t(q)].second),
                       ncclUint8, q, c.comm, stream));
    if (recvRange[size_t(q)].second > 0)
      NCCL_CK(ncclRecv(dst + recvRange[size_t(q)].first, size_t(recvRange[size_t(q)].second),
                       ncclUint8, q, c.comm, stream));
  }
  NCCL_CK(ncclGroupEnd());
  if (recvRange[size_t(c.rank)].second > 0)
    CUDA_CK(cudaMemcpyAsync(
        dst + recvRange[size_t(c.rank)].first, src + sendRange[size_t(c.rank)].first,
        size_t(recvRange[size_t(c.rank)].second), cudaMemcpyDeviceToDevice, stream));
  if (recvRows > received)
    CUDA_CK(cudaMemsetAsync(dst + received * rowBytes, 0, size_t((recvRows - received) * rowBytes),
                            stream));
  return 0;
}

/// The exchange `c` uses: MOE_EP_EXCHANGE (device, host-counts) or, unset,
/// device where it is built and every rank is in the LSA team.
int chooseExchange(Comm &c, const char *mode = nullptr) {
  if (c.exchange != Exchange::Unset && !mode)
    return 0;
  const char *env = std::getenv("MOE_EP_EXCHANGE");
  std::string choice = mode ? mode : env && *env ? env : "auto";
  if (choice != "auto" && choice != "device" && choice != "host-counts")
    return collFail("%s is '%s'; expected device, host-counts or auto",
                    mode ? "the exchange" : "MOE_EP_EXCHANGE", choice.c_str());
#ifdef MOERT_GPU_HAVE_DEVICE_EXCHANGE
  const int team = moert_gpu::dx::lsaTeamSize(c.comm);
  const bool reachable = team == c.size && c.size <= moert_gpu::dx::kMaxRanks;
  if (choice == "device" && !reachable)
    return collFail("the device exchange was asked for, but only %d of the %d ranks reach each other by "
                    "load/store (NCCL's LSA team; NVLink or P2P)",
                    team, c.size);
  c.exchange = choice == "host-counts" || !reachable ? Exchange::HostCounts : Exchange::Device;
  c.exchangeChosenAutomatically = choice == "auto";
#else
  if (choice == "device")
    return collFail("the device exchange was asked for, but libmoe_runtime_gpu was built without NCCL's "
                    "device API (nccl_device.h and nvcc)");
  c.exchange = Exchange::HostCounts;
#endif
  return 0;
}

#ifdef MOERT_GPU_HAVE_DEVICE_EXCHANGE

/// ensureWindow's result when NCCL has no symmetric memory here.
constexpr int kNoSymmetricMemory = -2;

/// Every rank's stream work so far is done: a tiny all-reduce, waited for.
int hostBarrier(Comm &c, cudaStream_t stream, const char *what) {
  if (scratchOf(c, sizeof(int32_t)) != 0)
    return -1;
  NCCL_CK(ncclAllReduce(c.scratch, c.scratch, 1, ncclInt32, ncclMax, c.comm, stream));
  return waitFor(c, stream, what);
}

/// Deregisters and frees the window (collective, as its registration);
/// the first failure, if any.
ncclResult_t releaseWindow(Comm &c) {
  ncclResult_t r = c.window ? ncclCommWindowDeregister(c.comm, c.window) : ncclSuccess;
  ncclResult_t freed = c.windowBase ? ncclMemFree(c.windowBase) : ncclSuccess;
  c.window = nullptr;
  c.windowBase = nullptr;
  c.windowBytes = 0;
  return r != ncclSuccess ? r : freed;
}

/// A window whose counts and rows hold `layout`'s on every rank (the same
/// on all: their needs, and the current window's, are max-reduced, so it
/// never shrinks), zeroed, with every rank's LSA pointer. Collective: all
/// ranks grow at the same call, as SPMD code with the same shapes does. Not
/// under a CUDA graph capture (a warm-up call first); a graph captured
/// before a growth holds the old window's pointers: capture again.
int ensureWindow(Comm &c, const moert_gpu::dx::Layout &layout, cudaStream_t stream) {
  if (c.window && c.countsCapacity >= layout.countsCapacity && c.dataCapacity >= layout.dataBytes)
    return 0;
  bool capturing = false;
  if (captureStatus(stream, &capturing) != 0)
    return -1;
  if (capturing)
    return collFail("all_to_all (device): the exchange window must grow to %zu bytes, which "
                    "cannot happen inside a CUDA graph capture; call the entry once before "
                    "capturing it",
                    layout.totalBytes);
  if (waitFor(c, stream, "all_to_all (device): before growing the window") != 0)
    return -1;
  // Agree on the size: every rank registers the same bytes.
  uint64_t need[2] = {std::max<uint64_t>(layout.countsCapacity, c.countsCapacity),
                      std::max<uint64_t>(layout.dataBytes, c.dataCapacity)};
  if (scratchOf(c, sizeof need) != 0)
    return -1;
  CUDA_CK(cudaMemcpyAsync(c.scratch, need, sizeof need, cudaMemcpyHostToDevice, stream));
  NCCL_CK(ncclAllReduce(c.scratch, c.scratch, 2, ncclUint64, ncclMax, c.comm, stream));
  CUDA_CK(cudaMemcpyAsync(need, c.scratch, sizeof need, cudaMemcpyDeviceToHost, stream));
  if (waitFor(c, stream, "all_to_all (device): agreeing on the window size") != 0)
    return -1;
  NCCL_CK(releaseWindow(c));
  // The counts region's size fixes where the rows start, for every call on
  // this window (deviceAllToAll lays each call out from it).
  const moert_gpu::dx::Layout agreed = moert_gpu::dx::layoutFor(
      c.size, int64_t(need[0]) / c.size, 0, 0);
  const size_t bytes = agreed.dataOffset + size_t(need[1]);
  NCCL_CK(ncclMemAlloc(&c.windowBase, bytes));
  if (ncclResult_t r = ncclCommWindowRegister(c.comm, c.windowBase, bytes, &c.window,
                                              NCCL_WIN_COLL_SYMMETRIC);
      r != ncclSuccess) {
    c.window = nullptr; // not registered: only the memory to free
    releaseWindow(c);
    return collFail("ncclCommWindowRegister failed: %s (%s)", ncclGetErrorString(r),
                    ncclGetLastError(c.comm));
  }
  // Without symmetric memory (no cuMem: NCCL_CUMEM_ENABLE=0, or under
  // compute-sanitizer, which refuses cuMemCreate) NCCL still registers the
  // buffer, but the window's description is not in device memory and its
  // LSA pointers cannot be resolved by a kernel.
  cudaPointerAttributes windowAttributes{};
  CUDA_CK(cudaPointerGetAttributes(&windowAttributes, c.window));
  if (windowAttributes.type != cudaMemoryTypeDevice) {
    releaseWindow(c); // the fault reported is the missing symmetric memory
    collFail("all_to_all (device): NCCL registered the exchange window without symmetric "
             "memory (its device description is missing: cuMem allocations unavailable, "
             "e.g. NCCL_CUMEM_ENABLE=0 or under compute-sanitizer); the device exchange "
             "cannot run here: MOE_EP_EXCHANGE=host-counts");
    return kNoSymmetricMemory;
  }
  c.windowBytes = bytes;
  c.countsCapacity = size_t(need[0]);
  c.dataCapacity = size_t(need[1]);
  CUDA_CK(cudaMemsetAsync(c.windowBase, 0, c.windowBytes, stream));
  if (!c.state) {
    CUDA_CK(cudaMalloc(&c.state, moert_gpu::dx::stateBytes()));
    CUDA_CK(cudaMemsetAsync(c.state, 0, moert_gpu::dx::stateBytes(), stream));
    CUDA_CK(cudaHostAlloc(reinterpret_cast<void **>(&c.fault), sizeof *c.fault,
                          cudaHostAllocMapped));
    std::memset(c.fault, 0, sizeof *c.fault);
    CUDA_CK(cudaHostGetDevicePointer(reinterpret_cast<void **>(&c.faultDevice), c.fault, 0));
    int device = 0, sms = 0;
    CUDA_CK(cudaGetDevice(&device));
    CUDA_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    c.ctasMax = 2 * (sms > 0 ? sms : 1);
  }
  c.peers.ranks = c.size;
  c.peers.rank = c.rank;
  int e = moert_gpu::dx::resolvePeers(c.window, &c.peers, stream);
  if (e != 0)
    return collFail("all_to_all (device): resolving the ranks' window pointers: %s",
                    cudaGetErrorString(cudaError_t(e)));
  // No rank writes into a window before its owner has zeroed it.
  return hostBarrier(c, stream, "all_to_all (device): after growing the window");
}

int deviceAllToAll(Comm &c, const void *send, const int32_t *sendSizesDevice, int64_t chunks,
                   int64_t sendRows, void *recv, int32_t *recvSizesDevice, int64_t recvRows,
                   int64_t rowBytes, cudaStream_t stream) {
  if (chunks < 1 || chunks > (int64_t(1) << 20) || rowBytes < 0 || sendRows < 0 || recvRows < 0 ||
      rowBytes > INT32_MAX || recvRows > INT32_MAX || sendRows > INT32_MAX)
    return collFail("all_to_all (device): bad arguments: %lld chunks per rank, %lld-byte rows, "
                    "%lld and %lld rows",
                    (long long)chunks, (long long)rowBytes, (long long)sendRows,
                    (long long)recvRows);
  if (int e = ensureWindow(c, moert_gpu::dx::layoutFor(c.size, chunks, recvRows, rowBytes), stream);
      e != 0)
    return e;
  // Laid out for the window's counts capacity, not this call's C: where the
  // rows start must not move between calls, or a rank that runs ahead into
  // the next call would write its counts over rows a slower one still drains.
  const moert_gpu::dx::Layout layout = moert_gpu::dx::layoutFor(
      c.size, int64_t(c.countsCapacity) / c.size, recvRows, rowBytes);
  moert_gpu::dx::Call call{};
  call.send = send;
  call.sendSizes = sendSizesDevice;
  call.chunksPerRank = chunks;
  call.sendRows = sendRows;
  call.recv = recv;
  call.recvSizes = recvSizesDevice;
  call.recvRows = recvRows;
  call.rowBytes = rowBytes;
  call.layout = layout;
  call.state = c.state;
  call.fault = c.faultDevice;
  call.timeoutNs = uint64_t(std::min(timeoutSeconds(), 1e9) * 1e9); // inf: ~30 years
  const int64_t bytes = std::max(sendRows, recvRows) * rowBytes;
  call.ctas = int(std::max<int64_t>(1, std::min<int64_t>(c.ctasMax, bytes / (32 << 10))));
  int e = moert_gpu::dx::launchExchange(c.peers, call, stream);
  if (e != 0)
    return collFail("all_to_all (device): launching the exchange kernels: %s",
                    cudaGetErrorString(cudaError_t(e)));
  return 0;
}

#endif // MOERT_GPU_HAVE_DEVICE_EXCHANGE

int allToAll(Comm &c, const void *send, const int32_t *sendSizesDevice, int64_t chunks,
             int64_t sendRows, void *recv, int32_t *recvSizesDevice, int64_t recvRows,
             int64_t rowBytes, cudaStream_t stream) {
  if (chooseExchange(c) != 0)
    return -1;
#ifdef MOERT_GPU_HAVE_DEVICE_EXCHANGE
  if (c.exchange == Exchange::Device) {
    int e = deviceAllToAll(c, send, sendSizesDevice, chunks, sendRows, recv, recvSizesDevice,
                           recvRows, rowBytes, stream);
    if (e != kNoSymmetricMemory || !c.exchangeChosenAutomatically)
      return e == 0 ? 0 : -1;
    // auto: the same everywhere in a job, so every rank falls back at once.
    std::fprintf(stderr, "moe_runtime_gpu: rank %d: %s; using host-counts\n", c.rank,
                 gCollError.c_str());
    c.exchange = Exchange::HostCounts;
  }
#endif
  return hostCountsAllToAll(c, send, sendSizesDevice, chunks, sendRows, recv, recvSizesDevice,
                            recvRows, rowBytes, stream);
}

#endif // MOERT_GPU_HAVE_NCCL

#ifndef MOERT_GPU_HAVE_NCCL
int withoutNccl(const char *call) {
  return collFail("%s: libmoe_runtime_gpu was built without NCCL (configure runtime/gpu with "
                  "NCCL found: nccl.h and libnccl under the CUDA toolkit or NCCL_ROOT)",
                  call);
}
#endif

/// The moert_entry_coll_* failure path: report, abort every communicator,
/// exit (compiled code has no error path).
[[noreturn]] void entryFailed(const char *entry) {
  const char *fault = moert_gpu::exchangeFault(); // a trapped exchange kernel's why
  std::fprintf(stderr, "moe_runtime_gpu: %s: %s%s%s\n", entry, gCollError.c_str(),
               *fault ? "; " : "", fault);
  std::fflush(stderr);
  moert_gpu_comm_abort_all();
  std::fflush(stdout);
  std::exit(1);
}

} // namespace

namespace moert_gpu {

const char *exchangeFault() {
  static char message[512];
  message[0] = '\0';
#ifdef MOERT_GPU_HAVE_DEVICE_EXCHANGE
  for (auto &entry : gComms) {
    const dx::ExchangeFault *f = entry.second.fault;
    if (!f || f->code <= 0)
      continue;
    char why[256];
    switch (f->code) {
    case dx::kFaultTimeout:
      std::snprintf(why, sizeof why,
                    "timed out after %g s at barrier %d waiting for rank %d (MOE_COMM_TIMEOUT_S; "
                    "that rank failed, hangs or called a different collective)",
                    double(f->limit) / 1e9, f->barrier, f->peer);
      break;
    case dx::kFaultNegativeCount:
      std::snprintf(why, sizeof why, "rank %d sends a negative count (%lld, index %lld)",
                    f->peer, (long long)f->value, (long long)f->limit);
      break;
    case dx::kFaultSendOverflow:
      std::snprintf(why, sizeof why, "its send counts sum to %lld rows, but the input has %lld",
                    (long long)f->value, (long long)f->limit);
      break;
    case dx::kFaultRecvOverflow:
      std::snprintf(why, sizeof why, "the ranks send %lld rows to rank %d, but the output has %lld",
                    (long long)f->value, f->peer, (long long)f->limit);
      break;
    case dx::kFaultShapeMismatch:
      std::snprintf(why, sizeof why,
                    "rank %d calls it with other chunks per rank, recv_rows or row bytes (its "
                    "recv_rows %lld, this rank's %lld)",
                    f->peer, (long long)f->value, (long long)f->limit);
      break;
    default:
      std::snprintf(why, sizeof why, "an unknown fault (code %d)", f->code);
    }
    std::snprintf(message, sizeof message,
                  "the device-side all_to_all (grid %lld, axis %lld) stopped on rank %d: %s",
                  (long long)entry.first.first, (long long)entry.first.second, f->rank, why);
    break;
  }
#endif
  return message;
}

} // namespace moert_gpu

extern "C" {

int moert_gpu_comm_unique_id(void *id) {
  std::lock_guard<std::mutex> lock(gCollMutex);
#ifdef MOERT_GPU_HAVE_NCCL
  static_assert(sizeof(ncclUniqueId) == MOERT_GPU_COMM_ID_BYTES, "NCCL's unique id size");
  ncclUniqueId uid;
  NCCL_CK(ncclGetUniqueId(&uid));
  std::memcpy(id, &uid, sizeof uid);
  return 0;
#else
  (void)id;
  return withoutNccl("moert_gpu_comm_unique_id");
#endif
}

int moert_gpu_comm_has_nccl(void) {
#ifdef MOERT_GPU_HAVE_NCCL
  return 1;
#else
  return 0;
#endif
}

int moert_gpu_comm_init_host(int64_t grid, int64_t axis, const moert_gpu_host_comm *comm) {
  std::lock_guard<std::mutex> lock(gCollMutex);
  if (!comm || !comm->all_to_all || !comm->all_reduce || !comm->abort || !comm->last_error)
    return collFail("moert_gpu_comm_init_host: grid %lld axis %lld: incomplete host communicator",
                    (long long)grid, (long long)axis);
  if (comm->size < 1 || comm->rank < 0 || comm->rank >= comm->size)
    return collFail("moert_gpu_comm_init_host: rank %d of %d", comm->rank, comm->size);
  bool taken = gHostComms.count({grid, axis}) != 0;
#ifdef MOERT_GPU_HAVE_NCCL
  taken |= gComms.count({grid, axis}) != 0;
#endif
  if (taken)
    return collFail("grid %lld axis %lld already has a communicator", (long long)grid,
                    (long long)axis);
  gHostComms[{grid, axis}].table = *comm;
  return 0;
}

int moert_gpu_comm_init(int64_t grid, int64_t axis, const void *id, int rank, int nranks) {
  std::lock_guard<std::mutex> lock(gCollMutex);
#ifdef MOERT_GPU_HAVE_NCCL
  if (gComms.count({grid, axis}) || gHostComms.count({grid, axis}))
    return collFail("grid %lld axis %lld already has a communicator", (long long)grid,
                    (long long)axis);
  if (nranks < 1 || rank < 0 || rank >= nranks)
    return collFail("moert_gpu_comm_init: rank %d of %d", rank, nranks);
  moert_gpu::ScopedContext scoped("moert_gpu_comm_init");
  if (!scoped.ok())
    return -1;
  ncclUniqueId uid;
  std::memcpy(&uid, id, sizeof uid);
  Comm c;
  c.rank = rank;
  c.size = nranks;
  NCCL_CK(ncclCommInitRank(&c.comm, nranks, uid, rank));
  gComms[{grid, axis}] = c;
  return 0;
#else
  (void)grid, (void)axis, (void)id, (void)rank, (void)nranks;
  return withoutNccl("moert_gpu_comm_init");
#endif
}

void moert_gpu_comm_abort_all(void) {
  // The pinned staging memory stays: the process is about to exit.
  for (auto &entry : gHostComms)
    entry.second.table.abort(entry.second.table.ctx,
                             gCollError.empty() ? "aborted" : gCollError.c_str());
  gHostComms.clear();
#ifdef MOERT_GPU_HAVE_NCCL
  for (auto &entry : gComms)
    if (entry.second.comm)
      ncclCommAbort(entry.second.comm);
  gComms.clear();
#endif
}

const char *moert_gpu_comm_last_error(void) { return gCollError.c_str(); }

int moert_gpu_comm_set_exchange(int64_t grid, int64_t axis, const char *mode) {
  std::lock_guard<std::mutex> lock(gCollMutex);
#ifdef MOERT_GPU_HAVE_NCCL
  Comm *c = nullptr;
  if (findComm(grid, axis, &c) != 0)
    return -1;
  return chooseExchange(*c, mode ? mode : "auto");
#else
  (void)grid, (void)axis, (void)mode;
  return withoutNccl("moert_gpu_comm_set_exchange");
#endif
}

const char *moert_gpu_comm_device_fault(void) { return moert_gpu::exchangeFault(); }

const char *moert_gpu_comm_exchange(int64_t grid, int64_t axis) {
  std::lock_guard<std::mutex> lock(gCollMutex);
#ifdef MOERT_GPU_HAVE_NCCL
  auto it = gComms.find({grid, axis});
  return it == gComms.end() ? nullptr : exchangeName(it->second.exchange);
#else
  (void)grid, (void)axis;
  return nullptr;
#endif
}

int moert_gpu_all_to_all(int64_t grid, int64_t axis, const void *send,
                         const int32_t *send_sizes_device, int64_t chunks_per_rank,
                         int64_t send_rows, void *recv, int32_t *recv_sizes_device,
                         int64_t recv_rows, int64_t row_bytes, void *stream) {
  std::lock_guard<std::mutex> lock(gCollMutex);
  if (HostComm *h = findHostComm(grid, axis))
    return hostAllToAll(*h, send, send_sizes_device, chunks_per_rank, send_rows, recv,
                        recv_sizes_device, recv_rows, row_bytes, static_cast<cudaStream_t>(stream));
#ifdef MOERT_GPU_HAVE_NCCL
  Comm *c = nullptr;
  if (findComm(grid, axis, &c) != 0)
    return -1;
  return allToAll(*c, send, send_sizes_device, chunks_per_rank, send_rows, recv, recv_sizes_device,
                  recv_rows, row_bytes, static_cast<cudaStream_t>(stream));
#else
  (void)grid, (void)axis, (void)send, (void)send_sizes_device, (void)chunks_per_rank;
  (void)send_rows, (void)recv, (void)recv_sizes_device, (void)recv_rows, (void)row_bytes;
  (void)stream;
  return withoutNccl("moert_gpu_all_to_all");
#endif
}

int moert_gpu_all_reduce(int64_t grid, int64_t axis, void *data, int64_t count, int32_t dtype_code,
                         void *stream) {
  std::lock_guard<std::mutex> lock(gCollMutex);
  if (HostComm *h = findHostComm(grid, axis))
    return hostAllReduce(*h, data, count, dtype_code, static_cast<cudaStream_t>(stream));
#ifdef MOERT_GPU_HAVE_NCCL
  Comm *c = nullptr;
  if (findComm(grid, axis, &c) != 0)
    return -1;
  ncclDataType_t type = ncclFloat32;
  if (ncclTypeOf(dtype_code, &type) != 0)
    return -1;
  if (count < 0)
    return collFail("all_reduce: negative element count %lld", (long long)count);
  NCCL_CK(ncclAllReduce(data, data, size_t(count), type, ncclSum, c->comm,
                        static_cast<cudaStream_t>(stream)));
  return 0;
#else
  (void)grid, (void)axis, (void)data, (void)count, (void)dtype_code, (void)stream;
  return withoutNccl("moert_gpu_all_reduce");
#endif
}

void moert_entry_coll_all_to_all(int64_t grid, int64_t axis, const void *send,
                                 const int32_t *send_sizes, int64_t chunks_per_rank,
                                 int64_t send_rows, void *recv, int32_t *recv_sizes,
                                 int64_t recv_rows, int64_t row_bytes) {
  const char *entry = "moert_entry_coll_all_to_all";
  moert_gpu::ScopedContext scoped(entry);
  void *stream = scoped.ok() ? moert_gpu_stream() : nullptr;
  if (!stream || moert_gpu_all_to_all(grid, axis, send, send_sizes, chunks_per_rank, send_rows,
                                      recv, recv_sizes, recv_rows, row_bytes, stream) != 0)
    entryFailed(entry);
}

void moert_entry_coll_all_reduce(int64_t grid, int64_t axis, void *data, int64_t count,
                                 int32_t dtype_code) {
  const char *entry = "moert_entry_coll_all_reduce";
  moert_gpu::ScopedContext scoped(entry);
  void *stream = scoped.ok() ? moert_gpu_stream() : nullptr;
  if (!stream || moert_gpu_all_reduce(grid, axis, data, count, dtype_code, stream) != 0)
    entryFailed(entry);
}

} // extern "C"
