//===- GpuDevice.cpp - libmoe_runtime_gpu, loaded at run time -------------===//
//
// Nothing here includes a CUDA header or links CUDA: the signatures below are
// those of moe_runtime_mgpu.h (runtime/gpu/include), repeated as function
// pointer types, so the runtime and moe-runner build where no toolkit exists.
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/GpuDevice.h"

#include "moe_runtime/Collectives.h"
#include "moe_runtime/FileUtil.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <mutex>

namespace moert {

// moert_gpu_profile_row
struct ProfileRowC {
  const char *name;
  int64_t launches;
  double totalMs;
};

struct GpuDevice::Api {
  const char *(*stickyError)(void);
  void (*clearStickyError)(void);
  const char *(*lastError)(void);
  int (*deviceCount)(void);
  int (*deviceName)(char *, size_t);
  void *(*stream)(void);
  void *(*memAlloc)(uint64_t, void *, bool);
  void (*memFree)(void *, void *);
  void (*memcpy)(void *, void *, size_t, void *);
  void (*memset32)(void *, unsigned int, size_t, void *);
  void (*streamSynchronize)(void *);
  void *(*timerEventCreate)(void);
  void (*eventDestroy)(void *);
  void (*eventRecord)(void *, void *);
  void (*eventSynchronize)(void *);
  float (*eventElapsedMs)(void *, void *);
  void (*profileStart)(void);
  int64_t (*profileStop)(ProfileRowC *, int64_t);
  int (*captureBegin)(void);
  int (*captureEnd)(void **);
  int (*graphLaunch)(void *);
  void (*graphDestroy)(void *);
  int (*commUniqueId)(void *);
  int (*commInit)(int64_t, int64_t, const void *, int, int);
  const char *(*commLastError)(void);
  int (*commHasNccl)(void);
  int (*commInitHost)(int64_t, int64_t, const struct HostCommTable *);
};

// moert_gpu_host_comm
struct HostCommTable {
  void *ctx;
  int rank;
  int size;
  int (*allToAll)(void *, const void *, const int32_t *, int64_t, int64_t, void *, int32_t *,
                  int64_t, int64_t);
  int (*allReduce)(void *, void *, int64_t, int32_t);
  void (*abort)(void *, const char *);
  const char *(*lastError)(void *);
};

namespace {

/// A host communicator behind libmoe_runtime_gpu's host-staged transport:
/// the moert_gpu_host_comm table calls into it and keeps its last error.
struct StagedAxis {
  Communicator *comm;
  std::string error;
  HostCommTable table;
};

int stagedAllToAll(void *ctx, const void *send, const int32_t *sendSizes, int64_t chunksPerRank,
                   int64_t sendRows, void *recv, int32_t *recvSizes, int64_t recvRows,
                   int64_t rowBytes) {
  auto *axis = static_cast<StagedAxis *>(ctx);
  Status s = axis->comm->allToAll(send, sendSizes, chunksPerRank, sendRows, recv, recvSizes,
                                  recvRows, rowBytes);
  axis->error = s.ok() ? "" : s.message();
  return s.ok() ? 0 : -1;
}

int stagedAllReduce(void *ctx, void *data, int64_t count, int32_t dtypeCode) {
  auto *axis = static_cast<StagedAxis *>(ctx);
  if (dtypeCode < 0 || dtypeCode >= kNumDTypes) {
    axis->error = format("unknown element type code %d", dtypeCode);
    return -1;
  }
  Status s = axis->comm->allReduceSum(data, count, static_cast<DType>(dtypeCode));
  axis->error = s.ok() ? "" : s.message();
  return s.ok() ? 0 : -1;
}

void stagedAbort(void *ctx, const char *why) {
  static_cast<StagedAxis *>(ctx)->comm->abort(why ? why : "aborted");
}

const char *stagedLastError(void *ctx) { return static_cast<StagedAxis *>(ctx)->error.c_str(); }

size_t roundedSize(size_t bytes) {
  return bytes < 4 ? 4 : (bytes + 3) / 4 * 4;
}

template <typename F> bool resolve(void *handle, const char *name, F *out, std::string *missing) {
  void *sym = ::dlsym(handle, name);
  if (!sym) {
    *missing += (missing->empty() ? "" : ", ") + std::string(name);
    return false;
  }
  *out = reinterpret_cast<F>(sym);
  return true;
}

} // namespace

std::vector<std::string> GpuDevice::searchPaths() {
  const char *env = std::getenv("MOE_RUNTIME_GPU_LIB");
  if (env && *env)
    return {env};
  std::vector<std::string> paths;
  std::string self = currentExecutablePath();
  if (!self.empty()) {
    std::string dir = parentPath(self);
    paths.push_back(joinPath(dir, kGpuRuntimeLibrary));
    paths.push_back(joinPath(joinPath(parentPath(dir), "lib"), kGpuRuntimeLibrary));
  }
#ifdef MOE_RUNTIME_GPU_BUILD_LIB_DIR
  std::string built = joinPath(MOE_RUNTIME_GPU_BUILD_LIB_DIR, kGpuRuntimeLibrary);
  bool seen = false;
  for (const std::string &p : paths)
    seen |= p == built;
  if (!seen)
    paths.push_back(built);
#endif
  paths.push_back(kGpuRuntimeLibrary);
  return paths;
}

Status GpuDevice::load(GpuDevice **out) {
  static std::mutex m;
  static bool tried = false;
  static Status result;
  static GpuDevice instance;
  static Api api;
  std::lock_guard<std::mutex> lock(m);
  if (!tried) {
    tried = true;
    std::vector<std::string> paths = searchPaths();
    std::string triedList;
    std::string firstError; // of a file that exists but does not load
    std::string lastError;
    void *handle = nullptr;
    for (const std::string &p : paths) {
      triedList += (triedList.empty() ? "" : ", ") + p;
      bool bare = p.find('/') == std::string::npos;
      if (!bare && !isRegularFile(p))
        continue;
      handle = ::dlopen(p.c_str(), RTLD_NOW | RTLD_GLOBAL);
      if (handle) {
        instance.path_ = p;
        break;
      }
      const char *e = ::dlerror();
      lastError = e ? e : "unknown dlopen error";
      if (!bare && firstError.empty())
        firstError = lastError;
    }
    if (!handle) {
      if (lastError.empty())
        lastError = paths.back() + ": no such file";
      result = Status::error(format("cannot load %s (tried %s): %s", kGpuRuntimeLibrary,
                                    triedList.c_str(),
                                    (firstError.empty() ? lastError : firstError).c_str()));
    } else {
      std::string missing;
      resolve(handle, "moert_gpu_sticky_error", &api.stickyError, &missing);
      resolve(handle, "moert_gpu_clear_sticky_error", &api.clearStickyError, &missing);
      resolve(handle, "moert_gpu_last_error", &api.lastError, &missing);
      resolve(handle, "moert_gpu_device_count", &api.deviceCount, &missing);
      resolve(handle, "moert_gpu_device_name", &api.deviceName, &missing);
      resolve(handle, "moert_gpu_stream", &api.stream, &missing);
      resolve(handle, "mgpuMemAlloc", &api.memAlloc, &missing);
      resolve(handle, "mgpuMemFree", &api.memFree, &missing);
      resolve(handle, "mgpuMemcpy", &api.memcpy, &missing);
      resolve(handle, "mgpuMemset32", &api.memset32, &missing);
      resolve(handle, "mgpuStreamSynchronize", &api.streamSynchronize, &missing);
      resolve(handle, "moert_gpu_timer_event_create", &api.timerEventCreate, &missing);
      resolve(handle, "mgpuEventDestroy", &api.eventDestroy, &missing);
      resolve(handle, "mgpuEventRecord", &api.eventRecord, &missing);
      resolve(handle, "mgpuEventSynchronize", &api.eventSynchronize, &missing);
      resolve(handle, "moert_gpu_event_elapsed_ms", &api.eventElapsedMs, &missing);
      resolve(handle, "moert_gpu_profile_start", &api.profileStart, &missing);
      resolve(handle, "moert_gpu_profile_stop", &api.profileStop, &missing);
      resolve(handle, "moert_gpu_capture_begin", &api.captureBegin, &missing);
      resolve(handle, "moert_gpu_capture_end", &api.captureEnd, &missing);
      resolve(handle, "moert_gpu_graph_launch", &api.graphLaunch, &missing);
      resolve(handle, "moert_gpu_graph_destroy", &api.graphDestroy, &missing);
      resolve(handle, "moert_gpu_comm_unique_id", &api.commUniqueId, &missing);
      resolve(handle, "moert_gpu_comm_init", &api.commInit, &missing);
      resolve(handle, "moert_gpu_comm_last_error", &api.commLastError, &missing);
      resolve(handle, "moert_gpu_comm_has_nccl", &api.commHasNccl, &missing);
      resolve(handle, "moert_gpu_comm_init_host", &api.commInitHost, &missing);
      if (!missing.empty())
        result = Status::error(format("%s lacks %s (an older library?)",
                                      instance.path_.c_str(), missing.c_str()));
      else
        instance.api_ = &api;
      // The handle stays open for the life of the process (artifacts bind to it).
    }
  }
  if (!result.ok())
    return result;
  *out = &instance;
  return Status::success();
}

Status GpuDevice::requireDevice() const {
  int n = api_->deviceCount();
  if (n < 0)
    return Status::error(format("no CUDA device: %s", api_->lastError()));
  if (n == 0)
    return Status::error("no CUDA device: the driver reports 0 devices");
  return Status::success();
}

std::string GpuDevice::deviceName() const {
  char buf[256];
  if (api_->deviceName(buf, sizeof buf) != 0) {
    clearError();
    return "unknown device";
  }
  return buf;
}

Status GpuDevice::takeError(const std::string &what) const {
  const char *e = api_->stickyError();
  if (!e || !*e)
    return Status::success();
  std::string msg = e;
  api_->clearStickyError();
  return Status::error(what + ": " + msg);
}

void GpuDevice::clearError() const { api_->clearStickyError(); }

Status GpuDevice::alloc(size_t bytes, void **out) const {
  *out = api_->memAlloc(roundedSize(bytes), api_->stream(), false);
  MOERT_TRY(takeError(format("allocating %zu bytes on the GPU", bytes)));
  if (!*out)
    return Status::error(format("allocating %zu bytes on the GPU failed", bytes));
  return Status::success();
}

void GpuDevice::free(void *p) const {
  if (p)
    api_->memFree(p, api_->stream());
}

Status GpuDevice::copy(void *dst, const void *src, size_t bytes) const {
  api_->memcpy(dst, const_cast<void *>(src), bytes, api_->stream());
  return takeError(format("copying %zu bytes", bytes));
}

Status GpuDevice::zero(void *dst, size_t bytes) const {
  api_->memset32(dst, 0u, roundedSize(bytes) / 4, api_->stream());
  return takeError(format("zeroing %zu bytes", bytes));
}

Status GpuDevice::synchronize(const std::string &what) const {
  api_->streamSynchronize(api_->stream());
  return takeError(what);
}

Status GpuDevice::createTimer(void **event) const {
  *event = api_->timerEventCreate();
  MOERT_TRY(takeError("creating a timing event"));
  if (!*event)
    return Status::error("creating a timing event failed");
  return Status::success();
}

void GpuDevice::destroyEvent(void *event) const {
  if (event)
    api_->eventDestroy(event);
}

Status GpuDevice::record(void *event) const {
  api_->eventRecord(event, api_->stream());
  return takeError("recording a timing event");
}

Status GpuDevice::elapsedMs(void *start, void *end, double *ms) const {
  api_->eventSynchronize(end);
  float v = api_->eventElapsedMs(start, end);
  MOERT_TRY(takeError("timing"));
  if (v < 0.0f)
    return Status::error("timing: moert_gpu_event_elapsed_ms failed");
  *ms = v;
  return Status::success();
}

Status GpuDevice::startProfile() const {
  api_->profileStart();
  return takeError("starting the kernel profile");
}

Status GpuDevice::stopProfile(std::vector<ProfileRow> *rows) const {
  rows->clear();
  int64_t n = api_->profileStop(nullptr, 0);
  std::vector<ProfileRowC> raw(n > 0 ? size_t(n) : 0);
  if (n > 0)
    n = api_->profileStop(raw.data(), n); // a second stop returns the same rows
  MOERT_TRY(takeError("reading the kernel profile"));
  if (n < 0)
    return Status::error(format("reading the kernel profile: %s", api_->lastError()));
  for (int64_t i = 0; i < n && size_t(i) < raw.size(); ++i)
    rows->push_back(ProfileRow{raw[i].name, raw[i].launches, raw[i].totalMs});
  return Status::success();
}

Status GpuDevice::captureGraph(const std::function<void()> &call, const std::string &what,
                               void **graph) const {
  *graph = nullptr;
  if (api_->captureBegin() != 0)
    return takeError(what);
  call();
  // The first failure inside the capture names the call that broke it; the
  // capture is ended either way so the stream is usable again.
  Status captured = takeError(what);
  void *exec = nullptr;
  int ended = api_->captureEnd(&exec);
  Status end = takeError(what);
  if (!captured.ok()) {
    api_->graphDestroy(exec);
    return captured;
  }
  if (ended != 0 || !end.ok()) {
    api_->graphDestroy(exec);
    return end.ok() ? Status::error(what + ": the capture failed") : end;
  }
  *graph = exec;
  return Status::success();
}

Status GpuDevice::launchGraph(void *graph, const std::string &what) const {
  api_->graphLaunch(graph);
  return takeError(what);
}

void GpuDevice::destroyGraph(void *graph) const { api_->graphDestroy(graph); }

Status GpuDevice::joinCollectives(Communicator &host, const std::vector<GridAxis> &axes) const {
  for (const GridAxis &axis : axes) {
    // Each group's first member makes its NCCL unique id; the world
    // communicator carries it to every rank, which keeps its group's.
    unsigned char mine[128] = {0};
    for (size_t g = 0; g < axis.leaders.size(); ++g) {
      const int leader = axis.leaders[g];
      unsigned char id[128] = {0};
      int made = host.rank() == leader ? api_->commUniqueId(id) : 0;
      std::string why = made == 0 ? "" : api_->commLastError();
      if (made != 0)
        host.abort(format("rank %d could not make the NCCL unique id: %s", leader, why.c_str()));
      MOERT_TRY(host.broadcast(id, sizeof id, leader));
      if (made != 0)
        return Status::error("moert_gpu_comm_unique_id: " + why);
      if (g == axis.group)
        std::memcpy(mine, id, sizeof id);
    }
    if (api_->commInit(axis.grid, axis.axis, mine, axis.rank, axis.size) != 0) {
      std::string failed = api_->commLastError();
      host.abort(format("rank %d: moert_gpu_comm_init: %s", host.rank(), failed.c_str()));
      return Status::error(format("grid %lld axis %lld: moert_gpu_comm_init (rank %d of %d): %s",
                                  static_cast<long long>(axis.grid),
                                  static_cast<long long>(axis.axis), axis.rank, axis.size,
                                  failed.c_str()));
    }
  }
  return Status::success();
}

bool GpuDevice::hasNccl() const { return api_->commHasNccl() != 0; }

Status GpuDevice::joinCollectivesHostStaged(Communicator &host,
                                            const std::vector<GridAxis> &axes) const {
  // The tables live as long as the process: compiled code calls through them.
  static std::vector<std::unique_ptr<StagedAxis>> staged;
  for (const GridAxis &axis : axes) {
    Communicator *comm = findCommunicator(axis.grid, axis.axis);
    if (!comm)
      return Status::error(format("grid %lld axis %lld has no host communicator in this process",
                                  static_cast<long long>(axis.grid),
                                  static_cast<long long>(axis.axis)));
    auto entry = std::make_unique<StagedAxis>();
    entry->comm = comm;
    entry->table = HostCommTable{entry.get(),     comm->rank(), comm->size(),   stagedAllToAll,
                                 stagedAllReduce, stagedAbort,  stagedLastError};
    if (api_->commInitHost(axis.grid, axis.axis, &entry->table) != 0) {
      std::string failed = api_->commLastError();
      host.abort(format("rank %d: moert_gpu_comm_init_host: %s", host.rank(), failed.c_str()));
      return Status::error(format("grid %lld axis %lld: moert_gpu_comm_init_host: %s",
                                  static_cast<long long>(axis.grid),
                                  static_cast<long long>(axis.axis), failed.c_str()));
    }
    staged.push_back(std::move(entry));
  }
  return Status::success();
}

} // namespace moert
