//===- GpuDevice.h - libmoe_runtime_gpu, loaded at run time -----*- C++ -*-===//
//
// What a host (moe-runner) needs to run GPU artifacts, without linking CUDA:
// libmoe_runtime_gpu.so is dlopen()ed with RTLD_NOW | RTLD_GLOBAL (so that a
// GPU artifact dlopen()ed afterwards resolves its mgpu* and moert_* calls
// from it) and every function is reached through dlsym. All work goes to the
// library's runtime stream (moert_gpu_stream()), the stream the compiled code
// runs on. Every call is checked: a failure recorded by the library (its
// sticky error) becomes an error Status naming what was being done.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_GPUDEVICE_H
#define MOE_RUNTIME_GPUDEVICE_H

#include "moe_runtime/Collectives.h"
#include "moe_runtime/Status.h"

#include <functional>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace moert {

constexpr const char *kGpuRuntimeLibrary = "libmoe_runtime_gpu.so";

class GpuDevice {
public:
  /// Where load() looks, in order: $MOE_RUNTIME_GPU_LIB alone when it is set
  /// and not empty; else libmoe_runtime_gpu.so next to this executable, in
  /// ../lib relative to it, in the runtime's build tree (known at configure
  /// time), and the bare name (the dynamic loader's search path).
  static std::vector<std::string> searchPaths();

  /// The process-wide instance, loaded on the first call (and only then):
  /// "cannot load libmoe_runtime_gpu.so (tried P1, P2, ...): <dlerror>", or
  /// a missing symbol. Later calls return the first call's result.
  static Status load(GpuDevice **out);

  /// Number of CUDA devices; an error "no CUDA device: <reason>" when there
  /// is none (or the driver says why not).
  Status requireDevice() const;
  const std::string &libraryPath() const { return path_; }
  /// "<name> (sm_XY)" of the device, or "unknown device" after a failure.
  std::string deviceName() const;

  /// The library's sticky error as a Status (prefixed with `what`), cleared;
  /// success when none is recorded.
  Status takeError(const std::string &what) const;
  void clearError() const;

  /// Device memory of at least `bytes` bytes (stream-ordered on the runtime
  /// stream); `bytes` is rounded up to a multiple of 4 and to at least 4.
  Status alloc(size_t bytes, void **out) const;
  void free(void *p) const;
  /// Asynchronous copy on the runtime stream (host or device pointers).
  Status copy(void *dst, const void *src, size_t bytes) const;
  /// Zero `bytes` (rounded up to a multiple of 4: allocate with alloc()).
  Status zero(void *dst, size_t bytes) const;
  /// Wait for everything on the runtime stream.
  Status synchronize(const std::string &what) const;

  /// Timing events on the runtime stream.
  Status createTimer(void **event) const;
  void destroyEvent(void *event) const;
  Status record(void *event) const;
  /// Waits for `end`; milliseconds from `start` to `end`.
  Status elapsedMs(void *start, void *end, double *ms) const;

  /// One row of the kernel profile: a kernel or runtime call, how often it
  /// ran and its summed GPU time.
  struct ProfileRow {
    std::string name;
    int64_t launches = 0;
    double totalMs = 0.0;
  };
  /// Time every kernel and runtime call from now on (moert_gpu_profile_start).
  Status startProfile() const;
  /// Stop, wait for the timed work, and return the rows in order of first
  /// launch.
  Status stopProfile(std::vector<ProfileRow> *rows) const;

  /// Captures what `call` issues on the runtime stream into a CUDA graph
  /// (*graph, for launchGraph/destroyGraph). A call that waits for the
  /// device inside it fails the capture with the library's error naming it,
  /// prefixed with `what`.
  Status captureGraph(const std::function<void()> &call, const std::string &what,
                      void **graph) const;
  /// Replays a captured graph on the runtime stream.
  Status launchGraph(void *graph, const std::string &what) const;
  void destroyGraph(void *graph) const;

  /// A grid axis of the artifact (its index in "grids", the axis) and this
  /// rank's communicator on it: the ranks that share its other coordinates.
  struct GridAxis {
    int64_t grid;
    int64_t axis;
    /// This rank's index among the `size` ranks of its group.
    int rank = 0, size = 1;
    /// The world rank of every group's first member (which makes the
    /// group's NCCL unique id), the same list on every rank, and this
    /// rank's group in it.
    std::vector<int> leaders = {0};
    size_t group = 0;
  };
  /// Makes the library's NCCL communicator of each of `axes` (`host` is the
  /// world: this process is host.rank() of host.size()): each group's first
  /// member makes a unique id, `host` broadcasts it, the group's ranks join
  /// on their devices. A failure aborts `host` (the other ranks stop
  /// waiting) and names the call; a library built without NCCL says so.
  Status joinCollectives(Communicator &host, const std::vector<GridAxis> &axes) const;
  /// Whether the library was built with NCCL.
  bool hasNccl() const;
  /// Puts each of `axes` on the library's host-staged transport, over the
  /// communicator registered for it in this process (registerCommunicator):
  /// every collective copies its device buffers to pinned host memory,
  /// waits, runs there and copies back (P ranks on one GPU; a library
  /// without NCCL). A failure aborts `host` and names the call.
  Status joinCollectivesHostStaged(Communicator &host, const std::vector<GridAxis> &axes) const;

private:
  GpuDevice() = default;
  std::string path_;
  struct Api;
  const Api *api_ = nullptr;
};

} // namespace moert

#endif // MOE_RUNTIME_GPUDEVICE_H
