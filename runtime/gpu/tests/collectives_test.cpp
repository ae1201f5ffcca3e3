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
// tail; the received counts) and the in-place all-reduce of f32, f64, i32 and
// i64; an unsupported element type is an error. Prints "FAIL ..." lines and
// "rank R: N checks, F failures"; exits 1 on any failure. Built without
// NCCL, it checks that every collective fails with "built without NCCL".
//
//===----------------------------------------------------------------------===//

#include "GpuRankProcesses.h"
#include "moe_runtime/Collectives.h"
#include "moe_runtime/moe_runtime_gpu.h"

#include <cuda_runtime.h>

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

/// One ragged all-to-all with counts sizes(s, d, j), checked on this rank.
void checkAllToAll(const char *name, int me, int p, int chunks, int cols,
                   const std::function<int(int, int, int)> &sizes, cudaStream_t stream) {
  std::vector<int32_t> sendSizes;
  std::vector<float> send;
  for (int d = 0; d < p; ++d)
    for (int j = 0; j < chunks; ++j) {
      sendSizes.push_back(sizes(me, d, j));
      for (int i = 0; i < sizes(me, d, j); ++i)
        for (int c = 0; c < cols; ++c)
          send.push_back(rowValue(me, d, j, i, c));
    }
  const int64_t sendRows = int64_t(send.size()) / cols + 2;
  send.resize(size_t(sendRows * cols), -7.0f);
  std::vector<float> expected;
  std::vector<int32_t> expectedSizes;
  for (int s = 0; s < p; ++s)
    for (int j = 0; j < chunks; ++j) {
      expectedSizes.push_back(sizes(s, me, j));
      for (int i = 0; i < sizes(s, me, j); ++i)
        for (int c = 0; c < cols; ++c)
          expected.push_back(rowValue(s, me, j, i, c));
    }
  const int64_t recvRows = int64_t(expected.size()) / cols + 3;
  expected.resize(size_t(recvRows * cols), 0.0f);

  void *dSend = nullptr, *dRecv = nullptr, *dSendSizes = nullptr, *dRecvSizes = nullptr;
  CUDA_OK(cudaMalloc(&dSend, send.size() * sizeof(float)));
  CUDA_OK(cudaMalloc(&dRecv, expected.size() * sizeof(float)));
  CUDA_OK(cudaMalloc(&dSendSizes, sendSizes.size() * sizeof(int32_t)));
  CUDA_OK(cudaMalloc(&dRecvSizes, sendSizes.size() * sizeof(int32_t)));
  CUDA_OK(cudaMemcpy(dSend, send.data(), send.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dSendSizes, sendSizes.data(), sendSizes.size() * sizeof(int32_t),
                     cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(dRecv, 0x7f, expected.size() * sizeof(float))); // the tail must be zeroed
  int rc = moert_gpu_all_to_all(0, 0, dSend, static_cast<int32_t *>(dSendSizes), chunks, sendRows,
                                dRecv, static_cast<int32_t *>(dRecvSizes), recvRows,
                                int64_t(cols * sizeof(float)), stream);
  ++checks;
  if (rc != 0) {
    ++failures;
    std::printf("FAIL %s: moert_gpu_all_to_all: %s\n", name, moert_gpu_comm_last_error());
  }
  CUDA_OK(cudaStreamSynchronize(stream));
  std::vector<float> recv(expected.size());
  std::vector<int32_t> recvSizes(sendSizes.size());
  CUDA_OK(cudaMemcpy(recv.data(), dRecv, recv.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaMemcpy(recvSizes.data(), dRecvSizes, recvSizes.size() * sizeof(int32_t),
                     cudaMemcpyDeviceToHost));
  bool sameSizes = recvSizes == expectedSizes;
  bool sameRows = std::memcmp(recv.data(), expected.data(), recv.size() * sizeof(float)) == 0;
  ++checks;
  if (!sameSizes || !sameRows) {
    ++failures;
    std::printf("FAIL %s on rank %d: %s differ\n", name, me,
                !sameSizes ? "received counts" : "received rows");
  }
  cudaFree(dSend);
  cudaFree(dRecv);
  cudaFree(dSendSizes);
  cudaFree(dRecvSizes);
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

int runRank(const std::string &shmId, int me, int p) {
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
  checkAllToAll(
      "all_to_all uneven", me, p, 2, 3,
      [](int s, int d, int j) { return (s * 7 + d * 3 + j * 5) % 4; }, stream);
  checkAllToAll(
      "all_to_all one chunk", me, p, 1, 4, [](int s, int d, int) { return s + 2 * d + 1; }, stream);
  checkAllToAll(
      "all_to_all empty", me, p, 2, 4, [](int, int, int) { return 0; }, stream);
  checkAllToAll(
      "all_to_all all to one", me, p, 2, 5,
      [](int s, int d, int j) { return d == 0 ? 3 + s + j : 0; }, stream);
  checkAllToAll(
      "all_to_all large rows", me, p, 1, 4096, [](int s, int d, int) { return 50 + s + d; },
      stream);
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
  if (p < 1 || p > 64) {
    std::fprintf(stderr, "usage: moe-gpu-collectives-test [P]\n");
    return 2;
  }
  int failed = moert_gpu_tests::runGpuRankProcesses(
      p, [&](const std::string &shmId, int r) { return runRank(shmId, r, p); });
  if (failed == 0)
    std::printf("ALL PASSED (%d rank%s)\n", p, p == 1 ? "" : "s");
  return failed ? 1 : 0;
}
