//===- collectives_test.cpp - the NCCL collectives of libmoe_runtime_gpu --===//
//
//   moe-gpu-collectives-test [P]
//
// Forks P ranks (default 1), rank r on the r-th visible GPU
// (CUDA_VISIBLE_DEVICES set before CUDA starts), joined by one NCCL
// communicator whose unique id rank 0 makes and the shared-memory
// communicator of libmoe_runtime broadcasts. Each rank checks, against values
// computed here from the send pattern: the ragged all-to-all with chunked
// counts in device memory (uneven, empty, all-to-one counts; the zeroed
// tail; the received counts), by both exchanges (host-counts and device),
// the device one also captured in a CUDA graph and replayed with other
// counts each time; and the in-place all-reduce of f32, f64, i32 and
// i64; an unsupported element type is an error. With --fault timeout|shapes
// it checks instead that the device exchange stops with a clear fault
// (runFault). Prints "FAIL ..." lines and
// "rank R: N checks, F failures"; exits 1 on any failure. Built without
// NCCL, it checks that every collective fails with "built without NCCL".
//
//===----------------------------------------------------------------------===//

#include "GpuRankProcesses.h"
#include "moe_runtime/Collectives.h"
#include "moe_runtime/moe_runtime_gpu.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

int checks = 0, failures = 0;

#define EXPECT(cond)                                                                               \
  do {                                                                                             \
    ++checks;                                                                                      \
    if (!(cond)) {                                                                                 \
      ++failures;                                                                                  \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                  \
    }                                                                                              \
  } while (0)

#define CUDA_OK(call)                                                                              \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    ++checks;                                                                                      \
    if (e_ != cudaSuccess) {                                                                       \
      ++failures;                                                                                  \
      std::printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));      \
    }                                                                                              \
  } while (0)

float rowValue(int s, int d, int j, int i, int c) {
  return float(s * 1000000 + d * 10000 + j * 100 + i) + 0.25f * float(c);
}

using Sizes = std::function<int(int, int, int)>;

/// One all-to-all's data on rank `me` for counts sizes(s, d, j): what it
/// sends and what it must receive. Rows and received rows are sized for the
/// largest rank (+2 and +3 rows of slack, so the zeroed tail is checked):
/// the device exchange needs the same shapes on every rank, as SPMD code has.
struct Exchange {
  std::vector<int32_t> sendSizes, expectedSizes;
  std::vector<float> send, expected;
  int64_t sendRows = 0, recvRows = 0;
};

Exchange exchangeFor(int me, int p, int chunks, int cols, const Sizes &sizes) {
  Exchange x;
  for (int r = 0; r < p; ++r) {
    int64_t out = 0, in = 0;
    for (int d = 0; d < p; ++d)
      for (int j = 0; j < chunks; ++j) {
        out += sizes(r, d, j);
        in += sizes(d, r, j);
      }
    x.sendRows = std::max(x.sendRows, out + 2);
    x.recvRows = std::max(x.recvRows, in + 3);
  }
  for (int d = 0; d < p; ++d)
    for (int j = 0; j < chunks; ++j) {
      x.sendSizes.push_back(sizes(me, d, j));
      for (int i = 0; i < sizes(me, d, j); ++i)
        for (int c = 0; c < cols; ++c)
          x.send.push_back(rowValue(me, d, j, i, c));
    }
  x.send.resize(size_t(x.sendRows * cols), -7.0f);
  for (int s = 0; s < p; ++s)
    for (int j = 0; j < chunks; ++j) {
      x.expectedSizes.push_back(sizes(s, me, j));
      for (int i = 0; i < sizes(s, me, j); ++i)
        for (int c = 0; c < cols; ++c)
          x.expected.push_back(rowValue(s, me, j, i, c));
    }
  x.expected.resize(size_t(x.recvRows * cols), 0.0f);
  return x;
}

/// Device buffers of one all-to-all, sized for `x` (or larger).
struct DeviceBuffers {
  void *send = nullptr, *recv = nullptr, *sendSizes = nullptr, *recvSizes = nullptr;
  DeviceBuffers(const Exchange &x) {
    CUDA_OK(cudaMalloc(&send, x.send.size() * sizeof(float)));
    CUDA_OK(cudaMalloc(&recv, x.expected.size() * sizeof(float)));
    CUDA_OK(cudaMalloc(&sendSizes, x.sendSizes.size() * sizeof(int32_t)));
    CUDA_OK(cudaMalloc(&recvSizes, x.sendSizes.size() * sizeof(int32_t)));
  }
  ~DeviceBuffers() {
    cudaFree(send);
    cudaFree(recv);
    cudaFree(sendSizes);
    cudaFree(recvSizes);
  }
  /// x's inputs in; the output poisoned (the tail must be zeroed).
  void load(const Exchange &x) {
    CUDA_OK(cudaMemcpy(send, x.send.data(), x.send.size() * sizeof(float),
                       cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(sendSizes, x.sendSizes.data(), x.sendSizes.size() * sizeof(int32_t),
                       cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(recv, 0x7f, x.expected.size() * sizeof(float)));
  }
  int exchange(const Exchange &x, int chunks, int cols, cudaStream_t stream) {
    return moert_gpu_all_to_all(0, 0, send, static_cast<int32_t *>(sendSizes), chunks, x.sendRows,
                                recv, static_cast<int32_t *>(recvSizes), x.recvRows,
                                int64_t(cols * sizeof(float)), stream);
  }
  /// The received rows and counts equal x's.
  void check(const Exchange &x, const std::string &name, int me) {
    std::vector<float> got(x.expected.size());
    std::vector<int32_t> gotSizes(x.expectedSizes.size());
    CUDA_OK(cudaMemcpy(got.data(), recv, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(gotSizes.data(), recvSizes, gotSizes.size() * sizeof(int32_t),
                       cudaMemcpyDeviceToHost));
    bool sameSizes = gotSizes == x.expectedSizes;
    bool sameRows = std::memcmp(got.data(), x.expected.data(), got.size() * sizeof(float)) == 0;
    ++checks;
    if (!sameSizes || !sameRows) {
      ++failures;
      std::printf("FAIL %s on rank %d: %s differ\n", name.c_str(), me,
                  !sameSizes ? "received counts" : "received rows");
    }
  }
};

/// One ragged all-to-all with counts sizes(s, d, j), checked on this rank.
void checkAllToAll(const std::string &name, int me, int p, int chunks, int cols,
                   const Sizes &sizes, cudaStream_t stream) {
  Exchange x = exchangeFor(me, p, chunks, cols, sizes);
  DeviceBuffers d(x);
  d.load(x);
  int rc = d.exchange(x, chunks, cols, stream);
  ++checks;
  if (rc != 0) {
    ++failures;
    std::printf("FAIL %s: moert_gpu_all_to_all: %s\n", name.c_str(), moert_gpu_comm_last_error());
  }
  CUDA_OK(cudaStreamSynchronize(stream));
  d.check(x, name, me);
}

/// The device exchange captured once in a CUDA graph (after a plain call
/// that sizes its window) and replayed with other counts and rows each
/// time: nothing of the counts is baked into the graph.
void checkGraphReplays(const std::string &name, int me, int p, int chunks, int cols,
                       const std::vector<Sizes> &patterns, cudaStream_t stream) {
  // Buffers for the largest pattern: same rows on every pattern.
  std::vector<Exchange> xs;
  int64_t sendRows = 0, recvRows = 0;
  for (const Sizes &sizes : patterns) {
    xs.push_back(exchangeFor(me, p, chunks, cols, sizes));
    sendRows = std::max(sendRows, xs.back().sendRows);
    recvRows = std::max(recvRows, xs.back().recvRows);
  }
  for (Exchange &x : xs) {
    x.sendRows = sendRows;
    x.recvRows = recvRows;
    x.send.resize(size_t(sendRows * cols), -7.0f);
    x.expected.resize(size_t(recvRows * cols), 0.0f);
  }
  DeviceBuffers d(xs[0]);
  d.load(xs[0]);
  ++checks;
  if (d.exchange(xs[0], chunks, cols, stream) != 0) {
    ++failures;
    std::printf("FAIL %s (plain call): %s\n", name.c_str(), moert_gpu_comm_last_error());
    return;
  }
  CUDA_OK(cudaStreamSynchronize(stream));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  int rc = d.exchange(xs[0], chunks, cols, stream);
  CUDA_OK(cudaStreamEndCapture(stream, &graph));
  ++checks;
  if (rc != 0 || !graph) {
    ++failures;
    std::printf("FAIL %s (capture): %s\n", name.c_str(), moert_gpu_comm_last_error());
    return;
  }
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  for (size_t k = 0; k < xs.size(); ++k) {
    d.load(xs[k]);
    CUDA_OK(cudaGraphLaunch(exec, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    d.check(xs[k], name + " replay " + std::to_string(k), me);
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

/// Every all-to-all check under the exchange `mode`. Where NCCL has no
/// symmetric memory (under compute-sanitizer it cannot make cuMem
/// allocations) the device exchange says so; with
/// MOE_TEST_DEVICE_EXCHANGE=optional that is a stated skip, not a failure.
void checkAllToAlls(const char *mode, int me, int p, cudaStream_t stream) {
  ++checks;
  if (moert_gpu_comm_set_exchange(0, 0, mode) != 0) {
    ++failures;
    std::printf("FAIL exchange %s: %s\n", mode, moert_gpu_comm_last_error());
    return;
  }
  const char *optional = std::getenv("MOE_TEST_DEVICE_EXCHANGE");
  if (std::strcmp(mode, "device") == 0 && optional && std::strcmp(optional, "optional") == 0) {
    Exchange probe = exchangeFor(me, p, 1, 4, [](int, int, int) { return 1; });
    DeviceBuffers d(probe);
    d.load(probe);
    if (d.exchange(probe, 1, 4, stream) != 0 &&
        std::strstr(moert_gpu_comm_last_error(), "without symmetric memory")) {
      std::printf("SKIP exchange device on rank %d: %s\n", me, moert_gpu_comm_last_error());
      return;
    }
    CUDA_OK(cudaStreamSynchronize(stream));
    d.check(probe, "all_to_all probe (device)", me);
  }
  const std::string m = std::string(" (") + mode + ")";
  checkAllToAll(
      "all_to_all uneven" + m, me, p, 2, 3,
      [](int s, int d, int j) { return (s * 7 + d * 3 + j * 5) % 4; }, stream);
  checkAllToAll(
      "all_to_all one chunk" + m, me, p, 1, 4, [](int s, int d, int) { return s + 2 * d + 1; },
      stream);
  checkAllToAll(
      "all_to_all empty" + m, me, p, 2, 4, [](int, int, int) { return 0; }, stream);
  checkAllToAll(
      "all_to_all all to one" + m, me, p, 2, 5,
      [](int s, int d, int j) { return d == 0 ? 3 + s + j : 0; }, stream);
  checkAllToAll(
      "all_to_all large rows" + m, me, p, 1, 4096, [](int s, int d, int) { return 50 + s + d; },
      stream);
  // Rows of 6 bytes: not a multiple of 16, so the byte-wise copies.
  checkAllToAll(
      "all_to_all odd row bytes" + m, me, p, 3, 1,
      [](int s, int d, int j) { return (s + 3 * d + j) % 5; }, stream);
  ++checks;
  const char *used = moert_gpu_comm_exchange(0, 0);
  if (!used || std::strcmp(used, mode) != 0) {
    ++failures;
    std::printf("FAIL exchange: asked for %s, used %s\n", mode, used ? used : "(none)");
  }
  if (std::strcmp(mode, "device") == 0)
    checkGraphReplays("all_to_all graph" + m, me, p, 2, 8,
                      {[](int s, int d, int j) { return (s + d + j) % 3 + 1; },
                       [p](int s, int d, int j) { return d == p - 1 ? 40 + s + j : 0; },
                       [](int, int, int) { return 0; },
                       [](int s, int d, int j) { return (5 * s + 2 * d + j) % 7; }},
                      stream);
}

template <typename T>
void checkAllReduce(const char *name, int me, int p, int32_t code, cudaStream_t stream) {
  const int64_t n = 1000;
  std::vector<T> data(static_cast<size_t>(n)), expected(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    data[size_t(i)] = T(me + 1) * T(3) + T(i);
    T sum = T(0);
    for (int r = 0; r < p; ++r)
      sum += T(r + 1) * T(3) + T(i);
    expected[size_t(i)] = sum;
  }
  void *d = nullptr;
  CUDA_OK(cudaMalloc(&d, size_t(n) * sizeof(T)));
  CUDA_OK(cudaMemcpy(d, data.data(), size_t(n) * sizeof(T), cudaMemcpyHostToDevice));
  int rc = moert_gpu_all_reduce(0, 0, d, n, code, stream);
  ++checks;
  if (rc != 0) {
    ++failures;
    std::printf("FAIL %s: moert_gpu_all_reduce: %s\n", name, moert_gpu_comm_last_error());
  }
  CUDA_OK(cudaStreamSynchronize(stream));
  CUDA_OK(cudaMemcpy(data.data(), d, size_t(n) * sizeof(T), cudaMemcpyDeviceToHost));
  ++checks;
  if (data != expected) {
    ++failures;
    std::printf("FAIL %s on rank %d: sums differ\n", name, me);
  }
  cudaFree(d);
}

/// A fault of the device exchange, in a run of its own (the kernel traps,
/// which ends the process's CUDA context): after one good exchange,
///   timeout: rank 0 exchanges again, the others never do; rank 0's stream
///     must fail within MOE_COMM_TIMEOUT_S naming the rank it waited for;
///   shapes: rank r passes recv_rows + r; every rank must stop with the
///     shape mismatch.
/// Prints "fault <kind> on rank R: <message>"; 0 when it is the expected one.
int runFault(const std::string &kind, int me, int p, cudaStream_t stream) {
  if (moert_gpu_comm_set_exchange(0, 0, "device") != 0) {
    std::printf("FAIL fault %s: %s\n", kind.c_str(), moert_gpu_comm_last_error());
    return 1;
  }
  Sizes sizes = [](int s, int d, int j) { return s + d + j + 1; };
  Exchange x = exchangeFor(me, p, 2, 4, sizes);
  // The good exchange with p more rows than the bad one's base, so that its
  // window fits every rank's bad shape (no rank grows it alone).
  Exchange good = x;
  good.recvRows += p;
  good.expected.resize(size_t(good.recvRows * 4), 0.0f);
  DeviceBuffers d(good);
  d.load(good);
  if (d.exchange(good, 2, 4, stream) != 0 || cudaStreamSynchronize(stream) != cudaSuccess) {
    std::printf("FAIL fault %s: the good exchange: %s\n", kind.c_str(),
                moert_gpu_comm_last_error());
    return 1;
  }
  d.check(good, "fault " + kind + " (the good exchange)", me);
  const char *expected = nullptr;
  if (kind == "timeout") {
    if (me != 0) {
      // Outlive rank 0's deadline without exchanging.
      double timeout = std::getenv("MOE_COMM_TIMEOUT_S") ? std::atof(std::getenv("MOE_COMM_TIMEOUT_S")) : 60.0;
      std::this_thread::sleep_for(std::chrono::duration<double>(timeout + 5.0));
      return 0;
    }
    expected = "waiting for rank 1";
  } else {
    x.recvRows += me;
    expected = "calls it with other chunks per rank, recv_rows or row bytes";
  }
  auto start = std::chrono::steady_clock::now();
  int rc = d.exchange(x, 2, 4, stream);
  cudaError_t e = rc == 0 ? cudaStreamSynchronize(stream) : cudaSuccess;
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const char *fault = moert_gpu_comm_device_fault();
  std::printf("fault %s on rank %d after %.1f s: %s: %s\n", kind.c_str(), me, secs,
              cudaGetErrorName(e), fault);
  if (rc != 0 || e == cudaSuccess || !std::strstr(fault, expected)) {
    std::printf("FAIL fault %s on rank %d: expected a failed stream and \"%s\"\n", kind.c_str(),
                me, expected);
    return 1;
  }
  return 0;
}

int runRank(const std::string &shmId, int me, int p, const std::string &faultKind) {
  std::unique_ptr<moert::Communicator> shm;
  moert::Status opened = moert::openShmCommunicator(shmId, me, p, &shm, 120.0);
  if (!opened.ok()) {
    std::printf("FAIL rank %d: %s\n", me, opened.message().c_str());
    return 1;
  }
  unsigned char id[MOERT_GPU_COMM_ID_BYTES] = {0};
  int made = me == 0 ? moert_gpu_comm_unique_id(id) : 0;
  moert::Status sent = shm->broadcast(id, sizeof id, 0);
  EXPECT(sent.ok());
#ifndef MOERT_GPU_HAVE_NCCL
  // Built without NCCL: every entry says so.
  const char *needle = "built without NCCL";
  EXPECT(me != 0 || (made != 0 && std::strstr(moert_gpu_comm_last_error(), needle)));
  EXPECT(moert_gpu_comm_init(0, 0, id, me, p) != 0 &&
         std::strstr(moert_gpu_comm_last_error(), needle));
  EXPECT(moert_gpu_all_reduce(0, 0, nullptr, 0, 1, nullptr) != 0 &&
         std::strstr(moert_gpu_comm_last_error(), needle));
#else
  if (made != 0) {
    std::printf("FAIL rank 0: moert_gpu_comm_unique_id: %s\n", moert_gpu_comm_last_error());
    return 1;
  }
  if (moert_gpu_comm_init(0, 0, id, me, p) != 0) {
    std::printf("FAIL rank %d: moert_gpu_comm_init: %s\n", me, moert_gpu_comm_last_error());
    return 1;
  }
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  if (!faultKind.empty())
    return runFault(faultKind, me, p, stream);
  checkAllToAlls("host-counts", me, p, stream);
  checkAllToAlls("device", me, p, stream);
  checkAllReduce<float>("all_reduce f32", me, p, 1, stream);
  checkAllReduce<double>("all_reduce f64", me, p, 0, stream);
  checkAllReduce<int32_t>("all_reduce i32", me, p, 8, stream);
  checkAllReduce<int64_t>("all_reduce i64", me, p, 7, stream);
  EXPECT(moert_gpu_all_reduce(0, 0, nullptr, 1, 3, stream) != 0 &&
         std::strstr(moert_gpu_comm_last_error(), "is not summed"));
  EXPECT(moert_gpu_all_reduce(5, 0, nullptr, 1, 1, stream) != 0 &&
         std::strstr(moert_gpu_comm_last_error(), "no NCCL communicator for grid 5"));
  cudaStreamDestroy(stream);
  moert_gpu_comm_abort_all();
#endif
  std::printf("rank %d: %d checks, %d failures\n", me, checks, failures);
  return failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  int p = argc > 1 ? std::atoi(argv[1]) : 1;
  std::string faultKind = argc > 3 && std::string(argv[2]) == "--fault" ? argv[3] : "";
  if (p < 1 || p > 64 || (argc > 2 && faultKind != "timeout" && faultKind != "shapes") ||
      (!faultKind.empty() && p < 2)) {
    std::fprintf(stderr, "usage: moe-gpu-collectives-test [P [--fault timeout|shapes]] "
                         "(a fault needs P >= 2)\n");
    return 2;
  }
  int failed = moert_gpu_tests::runGpuRankProcesses(
      p, [&](const std::string &shmId, int r) { return runRank(shmId, r, p, faultKind); });
  if (failed == 0)
    std::printf("ALL PASSED (%d rank%s)\n", p, p == 1 ? "" : "s");
  return failed ? 1 : 0;
}
