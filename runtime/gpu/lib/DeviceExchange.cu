//===- DeviceExchange.cu - the ragged all-to-all without the host ---------===//
//
// The kernels of the device-side exchange (DeviceExchange.h says how they
// fit together). Memory ordering across GPUs: a rank's plain stores into
// other ranks' windows are made visible by __syncthreads, then one thread's
// __threadfence_system and a st.release.sys of the barrier flag; the waiting
// side ld.acquire.sys-es the flag, then __syncthreads, then reads.
//
//===----------------------------------------------------------------------===//

#include "DeviceExchange.h"

#include <cuda_runtime.h>
#include <nccl.h>
#include <nccl_device.h>

namespace moert_gpu {
namespace dx {

namespace {

constexpr int32_t kMagic = 0x6d6f6578; // 'moex': a header that was written
constexpr int kCountsThreads = 256;
constexpr int kCopyThreads = 512;

/// What the counts kernel leaves for the push and drain kernels, and the
/// state kept between calls (epoch, arrivals).
struct Plan {
  unsigned long long epoch;
  unsigned int arrived;
  int faultClaimed; // the first faulting thread (atomics on device memory:
                    // those on mapped host memory need not be atomic)
  int64_t received;
  int64_t sendRow[kMaxRanks];  // first row, in send, of the rows for rank q
  int64_t pushRows[kMaxRanks]; // rows for rank q
  int64_t pushRow[kMaxRanks];  // their first row in rank q's output
  int64_t fromRow[kMaxRanks];  // first row, in this rank's output, from rank s
  int64_t fromRows[kMaxRanks]; // rows from rank s
};

size_t round256(size_t bytes) { return (bytes + 255) / 256 * 256; }

__device__ uint64_t nowNs() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ void storeRelease(uint64_t *flag, uint64_t value) {
  asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(flag), "l"(value) : "memory");
}

__device__ uint64_t loadAcquire(const uint64_t *flag) {
  uint64_t value;
  asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(value) : "l"(flag) : "memory");
  return value;
}

/// Records the first fault in mapped host memory and stops the kernel: the
/// stream fails (and the host reads why).
__device__ void fault(const Call &call, int32_t code, int rank, int peer, int barrier,
                      int64_t value, int64_t limit) {
  if (atomicCAS(&static_cast<Plan *>(call.state)->faultClaimed, 0, 1) == 0) {
    volatile ExchangeFault *v = call.fault;
    v->rank = rank;
    v->peer = peer;
    v->barrier = barrier;
    v->value = value;
    v->limit = limit;
    __threadfence_system();
    v->code = code;
    __threadfence_system();
  }
  __trap();
}

__device__ uint64_t *flagsOf(char *window, const Layout &layout) {
  return reinterpret_cast<uint64_t *>(window + layout.flagsOffset);
}

/// Every rank's flag in this rank's window reaches `target`: thread s < P
/// watches rank s's, with the call's deadline. The caller syncs the CTA.
__device__ void waitForRanks(const Peers &peers, const Call &call, uint64_t target, int barrier) {
  const int s = threadIdx.x;
  if (s >= peers.ranks)
    return;
  const uint64_t *flag = flagsOf(peers.window[peers.rank], call.layout) + s;
  const uint64_t start = nowNs();
  while (loadAcquire(flag) < target) {
    if (nowNs() - start > call.timeoutNs)
      fault(call, kFaultTimeout, peers.rank, s, barrier, int64_t(target),
            int64_t(call.timeoutNs));
    __nanosleep(64);
  }
}

/// This rank arrives: its flag in every rank's window becomes `value`.
__device__ void arrive(const Peers &peers, const Layout &layout, uint64_t value) {
  __threadfence_system();
  for (int q = 0; q < peers.ranks; ++q)
    storeRelease(flagsOf(peers.window[q], layout) + peers.rank, value);
}

/// bytes from src to dst by the threads of the grid, in 16-byte vectors
/// where both ends and the size allow (rows of bf16 hidden states do).
__device__ void copyBytes(char *dst, const char *src, int64_t bytes) {
  const int64_t thread = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t threads = int64_t(gridDim.x) * blockDim.x;
  if (((reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src) | uint64_t(bytes)) &
       15) == 0) {
    const int64_t n = bytes / 16;
    auto *d = reinterpret_cast<uint4 *>(dst);
    const auto *s = reinterpret_cast<const uint4 *>(src);
    constexpr int kUnroll = 4;
    int64_t i = thread;
    for (; i + (kUnroll - 1) * threads < n; i += kUnroll * threads) {
      uint4 v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        v[u] = s[i + u * threads];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u)
        d[i + u * threads] = v[u];
    }
    for (; i < n; i += threads)
      d[i] = s[i];
    return;
  }
  for (int64_t i = thread; i < bytes; i += threads)
    dst[i] = src[i];
}

__device__ void zeroBytes(char *dst, int64_t bytes) {
  const int64_t thread = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t threads = int64_t(gridDim.x) * blockDim.x;
  if (((reinterpret_cast<uintptr_t>(dst) | uint64_t(bytes)) & 15) == 0) {
    auto *d = reinterpret_cast<uint4 *>(dst);
    for (int64_t i = thread; i < bytes / 16; i += threads)
      d[i] = make_uint4(0, 0, 0, 0);
    return;
  }
  for (int64_t i = thread; i < bytes; i += threads)
    dst[i] = 0;
}

/// One CTA: this rank's counts and shape into every window, barrier 1, the
/// checks, the received counts and the plan.
__global__ void countsKernel(Peers peers, Call call) {
  Plan *plan = static_cast<Plan *>(call.state);
  const Layout &layout = call.layout;
  const int p = peers.ranks, me = peers.rank;
  const int64_t c = call.chunksPerRank, n = int64_t(p) * c;
  __shared__ uint64_t epoch;
  if (threadIdx.x == 0) {
    epoch = plan->epoch + 1;
    plan->epoch = epoch;
  }
  for (int q = 0; q < p; ++q) {
    auto *counts = reinterpret_cast<int32_t *>(peers.window[q] + layout.countsOffset) + me * n;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x)
      counts[i] = call.sendSizes[i];
    auto *header = reinterpret_cast<int32_t *>(peers.window[q] + layout.headersOffset) + me * 4;
    if (threadIdx.x == 0) {
      header[0] = int32_t(c);
      header[1] = int32_t(call.recvRows);
      header[2] = int32_t(call.rowBytes);
      header[3] = kMagic;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0)
    arrive(peers, layout, 2 * epoch - 1);
  waitForRanks(peers, call, 2 * epoch - 1, 1);
  __syncthreads();

  char *local = peers.window[me];
  const auto *counts = reinterpret_cast<const int32_t *>(local + layout.countsOffset);
  const auto *headers = reinterpret_cast<const int32_t *>(local + layout.headersOffset);
  // The received counts, source-major: recv_sizes[s·C + j] = counts[s][me·C + j].
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x)
    call.recvSizes[i] = counts[(i / c) * n + me * c + i % c];
  if (threadIdx.x != 0)
    return;
  for (int s = 0; s < p; ++s) {
    const int32_t *h = headers + s * 4;
    if (h[3] != kMagic || h[0] != int32_t(c) || h[1] != int32_t(call.recvRows) ||
        h[2] != int32_t(call.rowBytes))
      fault(call, kFaultShapeMismatch, me, s, 0, h[1], call.recvRows);
    for (int64_t i = 0; i < n; ++i)
      if (counts[s * n + i] < 0)
        fault(call, kFaultNegativeCount, me, s, 0, counts[s * n + i], i);
  }
  auto rowsFrom = [&](int s, int d) {
    int64_t rows = 0;
    for (int64_t j = 0; j < c; ++j)
      rows += counts[s * n + d * c + j];
    return rows;
  };
  int64_t sent = 0;
  for (int q = 0; q < p; ++q) {
    plan->sendRow[q] = sent;
    plan->pushRows[q] = rowsFrom(me, q);
    sent += plan->pushRows[q];
    int64_t before = 0, inbound = 0;
    for (int s = 0; s < p; ++s) {
      if (s == me)
        before = inbound;
      inbound += rowsFrom(s, q);
    }
    // Every rank checks every destination, so a misfit stops all of them.
    if (inbound > call.recvRows)
      fault(call, kFaultRecvOverflow, me, q, 0, inbound, call.recvRows);
    plan->pushRow[q] = before;
  }
  if (sent > call.sendRows)
    fault(call, kFaultSendOverflow, me, me, 0, sent, call.sendRows);
  int64_t received = 0;
  for (int s = 0; s < p; ++s) {
    plan->fromRow[s] = received;
    plan->fromRows[s] = rowsFrom(s, me);
    received += plan->fromRows[s];
  }
  plan->received = received;
}

/// This rank's rows to the other ranks' windows (its own straight to its
/// output); the last CTA to finish arrives at barrier 2.
__global__ void pushKernel(Peers peers, Call call) {
  Plan *plan = static_cast<Plan *>(call.state);
  const int p = peers.ranks, me = peers.rank;
  const int64_t rowBytes = call.rowBytes;
  for (int k = 1; k <= p; ++k) {
    const int q = (me + k) % p; // the others first, each rank to a different one
    const int64_t rows = plan->pushRows[q];
    if (rows == 0)
      continue;
    const char *src = static_cast<const char *>(call.send) + plan->sendRow[q] * rowBytes;
    char *dst = q == me ? static_cast<char *>(call.recv) + plan->fromRow[me] * rowBytes
                        : peers.window[q] + call.layout.dataOffset + plan->pushRow[q] * rowBytes;
    copyBytes(dst, src, rows * rowBytes);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence_system();
    if (atomicAdd(&plan->arrived, 1u) == gridDim.x - 1) {
      plan->arrived = 0;
      arrive(peers, call.layout, 2 * plan->epoch);
    }
  }
}

/// Barrier 2, then the rows the others pushed from the window to the
/// output, and zeros past the received rows.
__global__ void drainKernel(Peers peers, Call call) {
  const Plan *plan = static_cast<const Plan *>(call.state);
  const int p = peers.ranks, me = peers.rank;
  const int64_t rowBytes = call.rowBytes;
  waitForRanks(peers, call, 2 * plan->epoch, 2);
  __syncthreads();
  const char *data = peers.window[me] + call.layout.dataOffset;
  char *recv = static_cast<char *>(call.recv);
  for (int s = 0; s < p; ++s)
    if (s != me && plan->fromRows[s] > 0)
      copyBytes(recv + plan->fromRow[s] * rowBytes, data + plan->fromRow[s] * rowBytes,
                plan->fromRows[s] * rowBytes);
  zeroBytes(recv + plan->received * rowBytes, (call.recvRows - plan->received) * rowBytes);
}

__global__ void resolveKernel(ncclWindow_t window, int ranks, char **out) {
  const int q = threadIdx.x;
  if (q < ranks)
    out[q] = static_cast<char *>(ncclGetLsaPointer(window, 0, q));
}

} // namespace

Layout layoutFor(int ranks, int64_t chunksPerRank, int64_t recvRows, int64_t rowBytes) {
  Layout l;
  const size_t p = size_t(ranks);
  l.flagsOffset = 0;
  l.headersOffset = round256(p * sizeof(uint64_t));
  l.countsOffset = l.headersOffset + round256(p * 4 * sizeof(int32_t));
  l.countsCapacity = p * size_t(chunksPerRank);
  l.dataOffset = l.countsOffset + round256(p * l.countsCapacity * sizeof(int32_t));
  l.dataBytes = round256(size_t(recvRows) * size_t(rowBytes));
  l.totalBytes = l.dataOffset + l.dataBytes;
  return l;
}

int lsaTeamSize(void *comm) { return ncclTeamLsa(static_cast<ncclComm_t>(comm)).nRanks; }

size_t stateBytes() { return sizeof(Plan); }

int resolvePeers(void *window, Peers *peers, void *stream) {
  auto s = static_cast<cudaStream_t>(stream);
  char **out = nullptr;
  cudaError_t e = cudaMallocAsync(reinterpret_cast<void **>(&out), kMaxRanks * sizeof(char *), s);
  if (e != cudaSuccess)
    return int(e);
  resolveKernel<<<1, kMaxRanks, 0, s>>>(static_cast<ncclWindow_t>(window), peers->ranks, out);
  if ((e = cudaGetLastError()) == cudaSuccess)
    e = cudaMemcpyAsync(peers->window, out, size_t(peers->ranks) * sizeof(char *),
                        cudaMemcpyDeviceToHost, s);
  cudaError_t freed = cudaFreeAsync(out, s);
  if (e == cudaSuccess)
    e = freed;
  if (e == cudaSuccess)
    e = cudaStreamSynchronize(s);
  return int(e);
}

int launchExchange(const Peers &peers, const Call &call, void *stream) {
  auto s = static_cast<cudaStream_t>(stream);
  countsKernel<<<1, kCountsThreads, 0, s>>>(peers, call);
  pushKernel<<<call.ctas, kCopyThreads, 0, s>>>(peers, call);
  drainKernel<<<call.ctas, kCopyThreads, 0, s>>>(peers, call);
  return int(cudaGetLastError());
}

} // namespace dx
} // namespace moert_gpu
