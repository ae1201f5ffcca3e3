//===- GpuRankProcesses.h - one forked process per GPU rank -----*- C++ -*-===//
//
// What the NCCL programs (moe-gpu-collectives-test, moe-ep-exchange-bench)
// share: a shared-memory communicator for P ranks (it carries the NCCL unique
// id), then P forked processes, rank r on the r-th entry of
// CUDA_VISIBLE_DEVICES (device r when it is unset), set before CUDA starts.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_GPU_TESTS_GPURANKPROCESSES_H
#define MOE_RUNTIME_GPU_TESTS_GPURANKPROCESSES_H

#include "moe_runtime/Collectives.h"
#include "moe_runtime/Tool.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace moert_gpu_tests {

/// Runs `rank(shmId, r)` in P forked processes and waits for them. Prints
/// "FAIL: ..." for a communicator or fork that fails and for each rank that
/// does not exit 0; returns the number of ranks that failed or never started
/// (P when the communicator cannot be made).
inline int runGpuRankProcesses(int ranks,
                               const std::function<int(const std::string &, int)> &rank) {
  std::string shmId;
  moert::Status created = moert::createShmCommunicator(ranks, 0, &shmId);
  if (!created.ok()) {
    std::printf("FAIL: %s\n", created.message().c_str());
    return ranks;
  }
  std::vector<std::string> visible = moert::cudaVisibleDevices();
  std::fflush(stdout);
  std::vector<pid_t> pids;
  for (int r = 0; r < ranks; ++r) {
    pid_t pid = fork();
    if (pid == 0) {
      std::string device = size_t(r) < visible.size() ? visible[size_t(r)] : std::to_string(r);
      setenv("CUDA_VISIBLE_DEVICES", device.c_str(), 1);
      int rc = rank(shmId, r);
      std::fflush(stdout);
      _exit(rc);
    }
    if (pid < 0) {
      std::printf("FAIL: fork: %s\n", std::strerror(errno));
      break;
    }
    pids.push_back(pid);
  }
  int failed = ranks - int(pids.size());
  for (size_t r = 0; r < pids.size(); ++r) {
    int status = 0;
    waitpid(pids[r], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::printf("FAIL: rank %zu of %d failed\n", r, ranks);
      ++failed;
    }
  }
  moert::removeShmCommunicator(shmId);
  return failed;
}

} // namespace moert_gpu_tests

#endif
