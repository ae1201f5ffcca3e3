//===- KernelProfile.cpp - GPU time per kernel and per runtime call -------===//
//
// Between moert_gpu_profile_start() and moert_gpu_profile_stop(), every
// kernel mgpuLaunchKernel launches and every moert_entry_* call is bracketed
// by two timing events on its stream; stop() waits for them and sums the
// elapsed time per name (the kernel's symbol, or the runtime call and its
// shape). Events are recorded only while profiling is on, so the normal path
// costs one relaxed atomic load per launch. Events are recycled, and pending
// pairs are folded into the totals every kMaxPending launches so that a long
// profile does not hold thousands of events.
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/moe_runtime_gpu.h"

#include "Internal.h"

#include <cuda.h>

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Pending {
  size_t row;
  CUevent start, end;
};

struct Row {
  std::string name;
  int64_t launches = 0;
  double totalMs = 0.0;
};

constexpr size_t kMaxPending = 4096;

std::atomic<bool> gProfiling{false};
std::mutex gProfileMutex;
std::vector<Pending> gPending;           // guarded by gProfileMutex
std::vector<CUevent> gFreeEvents;        // guarded by gProfileMutex
std::deque<Row> gRows;                   // in order of first launch
std::map<std::string, size_t> gRowIndex; // name -> index into gRows

bool checked(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return true;
  const char *name = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
    name = "unknown CUresult";
  std::string msg = std::string(what) + " failed: " + name;
  moert_gpu::reportFailure("kernel profile", msg.c_str());
  return false;
}

CUevent takeEventLocked() {
  if (!gFreeEvents.empty()) {
    CUevent e = gFreeEvents.back();
    gFreeEvents.pop_back();
    return e;
  }
  CUevent e = nullptr;
  if (!checked(cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate"))
    return nullptr;
  return e;
}

// Waits for every pending pair, adds it to its row and recycles its events.
void foldPendingLocked() {
  for (const Pending &p : gPending) {
    float ms = 0.0f;
    if (checked(cuEventSynchronize(p.end), "cuEventSynchronize") &&
        checked(cuEventElapsedTime(&ms, p.start, p.end), "cuEventElapsedTime")) {
      gRows[p.row].launches += 1;
      gRows[p.row].totalMs += ms;
    }
    gFreeEvents.push_back(p.start);
    gFreeEvents.push_back(p.end);
  }
  gPending.clear();
}

size_t rowLocked(const std::string &name) {
  auto it = gRowIndex.find(name);
  if (it != gRowIndex.end())
    return it->second;
  gRows.push_back(Row{name, 0, 0.0});
  gRowIndex.emplace(name, gRows.size() - 1);
  return gRows.size() - 1;
}

} // namespace

namespace moert_gpu {

bool profiling() { return gProfiling.load(std::memory_order_relaxed); }

ProfileRange::ProfileRange(const char *name, void *stream) : stream_(stream) {
  if (!profiling())
    return;
  std::lock_guard<std::mutex> lock(gProfileMutex);
  CUevent start = takeEventLocked();
  CUevent end = takeEventLocked();
  if (!start || !end ||
      !checked(cuEventRecord(start, reinterpret_cast<CUstream>(stream)), "cuEventRecord")) {
    if (start)
      gFreeEvents.push_back(start);
    if (end)
      gFreeEvents.push_back(end);
    return;
  }
  row_ = rowLocked(name);
  start_ = start;
  end_ = end;
}

ProfileRange::~ProfileRange() {
  if (!start_)
    return;
  std::lock_guard<std::mutex> lock(gProfileMutex);
  CUevent start = static_cast<CUevent>(start_), end = static_cast<CUevent>(end_);
  if (!checked(cuEventRecord(end, reinterpret_cast<CUstream>(stream_)), "cuEventRecord")) {
    gFreeEvents.push_back(start);
    gFreeEvents.push_back(end);
    return;
  }
  gPending.push_back(Pending{row_, start, end});
  if (gPending.size() >= kMaxPending)
    foldPendingLocked();
}

} // namespace moert_gpu

extern "C" {

void moert_gpu_profile_start(void) {
  moert_gpu::ScopedContext scoped("moert_gpu_profile_start");
  if (!scoped.ok())
    return;
  std::lock_guard<std::mutex> lock(gProfileMutex);
  foldPendingLocked();
  gRows.clear();
  gRowIndex.clear();
  gProfiling.store(true);
}

int64_t moert_gpu_profile_stop(moert_gpu_profile_row *rows, int64_t capacity) {
  gProfiling.store(false);
  moert_gpu::ScopedContext scoped("moert_gpu_profile_stop");
  if (!scoped.ok())
    return -1;
  std::lock_guard<std::mutex> lock(gProfileMutex);
  foldPendingLocked();
  int64_t n = 0;
  for (const Row &r : gRows) {
    if (n < capacity && rows)
      rows[n] = moert_gpu_profile_row{r.name.c_str(), r.launches, r.totalMs};
    ++n;
  }
  return n;
}

} // extern "C"
