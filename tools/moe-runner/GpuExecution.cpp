//===- GpuExecution.cpp - run entries on a GPU ----------------------------===//
//
// The GPU Executor: every argument gets a device buffer (stream-ordered
// allocation on the runtime stream, moert_gpu_stream()); inputs are copied
// from the host buffers once and the outputs zeroed once (not with
// --uninitialized-outputs): every compiled entry writes each element of its
// outputs, so a call starts from the previous call's outputs instead of a
// memset per output that would show in every timing and profile (and an
// entry that read its own outputs would give different results from call to
// call, which the checks see); the entry is called with the
// device pointers; two timing events recorded on the runtime stream around
// the call give its time (the compiled code and the moert_* calls it makes
// all run on that stream, so the events bracket all of its GPU work). After
// each call the stream is waited for and the library's sticky error checked,
// so a failing call is reported by name. With --cuda-graph the first call
// runs plainly once (the runtime's lazy set-up), is then captured into a
// CUDA graph, and every call replays the graph between the events. Everything goes through GpuDevice
// (dlopen + dlsym): no CUDA is linked.
//
//===----------------------------------------------------------------------===//

#include "Execution.h"

#include "moe_runtime/GpuDevice.h"
#include "moe_runtime/Npy.h"

#include <cstdlib>
#include <string>

using namespace moert;

namespace moe_runner {

namespace {

class GpuBoundEntry : public BoundEntry {
public:
  GpuBoundEntry(const GpuDevice &gpu, EntryBuffers *host, const CallOptions &options)
      : gpu_(gpu), host_(host), options_(options) {}
  ~GpuBoundEntry() override {
    gpu_.destroyGraph(graph_);
    for (void *p : device_)
      gpu_.free(p);
    gpu_.destroyEvent(start_);
    gpu_.destroyEvent(end_);
    (void)gpu_.synchronize("releasing the GPU buffers"); // best effort
  }

  Status place() {
    const EntrySpec &entry = host_->entry();
    device_.assign(entry.args.size(), nullptr);
    for (size_t i = 0; i < entry.args.size(); ++i) {
      const ArgSpec &a = entry.args[i];
      MOERT_TRY(gpu_.alloc(a.numBytes, &device_[i])
                    .withPrefix(format("argument '%s' %s %s", a.name.c_str(),
                                       shapeToString(a.shape).c_str(), dtypeName(a.dtype))));
      if (a.isInput)
        MOERT_TRY(gpu_.copy(device_[i], host_->data(i), a.numBytes)
                      .withPrefix(format("input '%s' to the GPU", a.name.c_str())));
      else if (options_.zeroOutputs)
        MOERT_TRY(gpu_.zero(device_[i], a.numBytes));
    }
    MOERT_TRY(gpu_.createTimer(&start_));
    MOERT_TRY(gpu_.createTimer(&end_));
    return gpu_.synchronize("copying the inputs to the GPU");
  }

  Status call(EntryFunction fn, double *ms) override {
    const EntrySpec &entry = host_->entry();
    std::string what = format("entry '%s' on gpu", entry.name.c_str());
    if (options_.cudaGraph && !graph_) {
      // A plain call first: what the runtime sets up on an entry's first call
      // (the device exchange's window, collectively on every rank) cannot
      // happen inside a capture.
      MOERT_TRY(callPlain(fn).withPrefix("the plain call before capturing it"));
      MOERT_TRY(gpu_.captureGraph([&] { fn(device_.data()); },
                                  "capturing " + what + " into a CUDA graph", &graph_));
    }
    MOERT_TRY(gpu_.record(start_));
    if (graph_)
      MOERT_TRY(gpu_.launchGraph(graph_, "replaying the CUDA graph of " + what));
    else
      fn(device_.data());
    MOERT_TRY(gpu_.takeError(what));
    MOERT_TRY(gpu_.record(end_));
    MOERT_TRY(gpu_.elapsedMs(start_, end_, ms).withPrefix(what));
    return gpu_.synchronize(what);
  }

  Status callPlain(EntryFunction fn) override {
    std::string what = format("entry '%s' on gpu", host_->entry().name.c_str());
    fn(device_.data());
    MOERT_TRY(gpu_.takeError(what));
    return gpu_.synchronize(what);
  }

  Status loadInputs(const EntryBuffers &from) override {
    const EntrySpec &entry = host_->entry();
    for (size_t i = 0; i < entry.args.size(); ++i)
      if (entry.args[i].isInput)
        MOERT_TRY(gpu_.copy(device_[i], from.data(i), entry.args[i].numBytes)
                      .withPrefix(format("input '%s' to the GPU", entry.args[i].name.c_str())));
    return gpu_.synchronize("copying the inputs to the GPU");
  }

  Status fetchOutputs() override {
    const EntrySpec &entry = host_->entry();
    for (size_t i = 0; i < entry.args.size(); ++i)
      if (!entry.args[i].isInput)
        MOERT_TRY(gpu_.copy(host_->data(i), device_[i], entry.args[i].numBytes)
                      .withPrefix(format("output '%s' from the GPU", entry.args[i].name.c_str())));
    return gpu_.synchronize("copying the outputs from the GPU");
  }

private:
  const GpuDevice &gpu_;
  EntryBuffers *host_;
  std::vector<void *> device_;
  void *start_ = nullptr;
  void *end_ = nullptr;
  CallOptions options_;
  void *graph_ = nullptr; // the captured call (--cuda-graph)
};

/// Whether the ranks' collectives go through host memory (the CPU's
/// shared-memory communicator) instead of NCCL: MOE_GPU_COMM=host (which
/// moe-runner --ranks sets when ranks share a GPU), or a library built
/// without NCCL. MOE_GPU_COMM=nccl insists on NCCL.
Status hostStagedCollectives(const GpuDevice &gpu, bool *hostStaged) {
  const char *env = std::getenv("MOE_GPU_COMM");
  std::string choice = env ? env : "";
  if (choice == "host") {
    *hostStaged = true;
    return Status::success();
  }
  if (choice == "nccl" && !gpu.hasNccl())
    return Status::error("MOE_GPU_COMM=nccl, but libmoe_runtime_gpu was built without NCCL");
  if (!choice.empty() && choice != "nccl")
    return Status::error("MOE_GPU_COMM is '" + choice + "'; expected host or nccl");
  *hostStaged = !gpu.hasNccl();
  return Status::success();
}

class GpuExecutor : public Executor {
public:
  GpuExecutor(GpuDevice *gpu, const CallOptions &options)
      : gpu_(gpu), name_(gpu->deviceName()), options_(options) {}
  const char *device() const override { return "gpu"; }
  std::string deviceName() const override { return name_; }
  Status bind(EntryBuffers *host, std::unique_ptr<BoundEntry> *out) override {
    std::unique_ptr<GpuBoundEntry> b(new GpuBoundEntry(*gpu_, host, options_));
    MOERT_TRY(b->place());
    *out = std::move(b);
    return Status::success();
  }
  Status checkLoaded(const std::string &artifact) override {
    return gpu_->takeError("loading " + artifact);
  }
  bool canProfile() const override { return true; }
  Status startProfile() override { return gpu_->startProfile(); }
  Status stopProfile(std::vector<GpuDevice::ProfileRow> *rows) override {
    return gpu_->stopProfile(rows);
  }
  Status joinCollectives(const ArtifactSpec &, const RankLayout &layout) override {
    std::vector<GpuDevice::GridAxis> axes;
    const RankGrid &grid = layout.grid;
    for (int64_t axis : grid.communicatorAxes()) {
      GpuDevice::GridAxis entry{grid.index, axis};
      entry.rank = static_cast<int>(grid.coordinates(layout.rank)[static_cast<size_t>(axis)]);
      entry.size = static_cast<int>(grid.shape[static_cast<size_t>(axis)]);
      std::vector<int64_t> firsts = grid.axisGroupFirsts(axis);
      entry.leaders.assign(firsts.begin(), firsts.end());
      entry.group = static_cast<size_t>(grid.axisGroupIndex(layout.rank, axis));
      axes.push_back(std::move(entry));
    }
    bool hostStaged = false;
    MOERT_TRY(hostStagedCollectives(*gpu_, &hostStaged));
    if (hostStaged)
      return gpu_->joinCollectivesHostStaged(*layout.comm, axes)
          .withPrefix("host-staged GPU collectives");
    return gpu_->joinCollectives(*layout.comm, axes).withPrefix("NCCL communicators");
  }

private:
  GpuDevice *gpu_;
  std::string name_;
  CallOptions options_;
};

} // namespace

Status makeGpuExecutor(std::unique_ptr<Executor> *out, const CallOptions &options) {
  GpuDevice *gpu = nullptr;
  MOERT_TRY(GpuDevice::load(&gpu));
  MOERT_TRY(gpu->requireDevice());
  gpu->clearError();
  out->reset(new GpuExecutor(gpu, options));
  return Status::success();
}

bool gpuUsable() {
  GpuDevice *gpu = nullptr;
  return GpuDevice::load(&gpu).ok() && gpu->requireDevice().ok();
}

} // namespace moe_runner
