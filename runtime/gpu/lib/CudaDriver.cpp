//===- CudaDriver.cpp - the mgpu* entry points on the CUDA driver API -----===//
//
// What MLIR 22's gpu-to-llvm calls (STYLE.md 4.7; moe_runtime_mgpu.h), in the
// manner of upstream's CudaRuntimeWrappers.cpp: every call runs with the
// default device's primary context pushed (the same context the CUDA runtime
// API and so the grouped GEMMs use), mgpuMemAlloc(0) is NULL, launches with
// dynamic shared memory raise the function's limit first. Unlike upstream,
// which only prints, failures are also recorded: moert_gpu_last_error() on
// the thread and the process-wide sticky error (moert_gpu_sticky_error()).
//
// Two deliberate differences from upstream:
//  * One runtime stream per device (moert_gpu_stream()). mgpuStreamCreate
//    returns it and mgpuStreamDestroy of it does nothing. gpu-to-llvm (with
//    gpu-async-region) creates and destroys a stream around every async
//    region; with one stream, all compiled work, the moert_* calls and the
//    host's copies are ordered on one queue, no region pays for a stream
//    creation, and a caller can time or synchronise "everything the
//    compiled code did" with events on that one stream.
//  * mgpuMemAlloc/mgpuMemFree are stream-ordered (cuMemAllocAsync /
//    cuMemFreeAsync on the device's default memory pool, whose release
//    threshold is raised to UINT64_MAX once), so an entry called repeatedly
//    reuses its memory instead of paying cuMemAlloc/cuMemFree each call
//    (cuMemFree synchronises the device).
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/moe_runtime_mgpu.h"

#include "Internal.h"

#include <cuda.h>

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

std::mutex gStickyMutex;
char gSticky[1024]; // "" until the first failure; guarded by gStickyMutex
std::atomic<int32_t> gDefaultDevice{0};

void recordFailure(const char *entry, const char *detail) {
  char msg[1024];
  const char *fault = moert_gpu::exchangeFault();
  snprintf(msg, sizeof msg, "moe_runtime_gpu: %s: %s%s%s", entry, detail, *fault ? "; " : "",
           fault);
  fprintf(stderr, "%s\n", msg);
  moert_gpu::setLastError(msg);
  std::lock_guard<std::mutex> lock(gStickyMutex);
  if (gSticky[0] == '\0')
    snprintf(gSticky, sizeof gSticky, "%s", msg);
}

__attribute__((format(printf, 2, 3))) void report(const char *entry, const char *fmt,
                                                  ...) {
  char detail[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  recordFailure(entry, detail);
}

// "cuMemAlloc(&p, n)" -> "cuMemAlloc"
int callNameLen(const char *expr) {
  const char *p = std::strchr(expr, '(');
  return p ? (int)(p - expr) : (int)std::strlen(expr);
}

// `detail`, when given, is appended to the one report (e.g. which kernel a
// failed launch was).
bool check(CUresult r, const char *entry, const char *expr, const char *detail = nullptr) {
  if (r == CUDA_SUCCESS)
    return true;
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
    name = "unknown CUresult";
  if (cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
    text = "no description";
  report(entry, "%.*s failed: %s: %s (status %d)%s%s", callNameLen(expr), expr, name, text,
         (int)r, detail ? "; " : "", detail ? detail : "");
  return false;
}

// The symbol of each function mgpuModuleGetFunction returned, for the
// report of a failed launch: after an asynchronous failure the context is
// unusable and cuFuncGetName may fail with it.
std::mutex gKernelNamesMutex;
std::unordered_map<CUfunction, std::string> gKernelNames;

void rememberKernelName(CUfunction f, const char *name) {
  std::lock_guard<std::mutex> lock(gKernelNamesMutex);
  gKernelNames[f] = name;
}

std::string kernelName(CUfunction f) {
  std::lock_guard<std::mutex> lock(gKernelNamesMutex);
  auto it = gKernelNames.find(f);
  return it == gKernelNames.end() ? std::string("(name unavailable)") : it->second;
}

// True on success; reports (and returns false) otherwise.
#define CU(call) check((call), __func__, #call)

// The primary context of `device`, retained once per device for the life of
// the process (never released: compiled code may run from static
// destructors). nullptr after a reported failure.
CUcontext primaryContext(int32_t device, const char *entry) {
  static std::mutex m;
  static std::vector<CUcontext> contexts;
  static bool initialised = false;
  std::lock_guard<std::mutex> lock(m);
  if (!initialised) {
    if (!check(cuInit(0), entry, "cuInit(0)"))
      return nullptr;
    initialised = true;
  }
  if (device < 0) {
    report(entry, "invalid default device %d", (int)device);
    return nullptr;
  }
  if ((size_t)device < contexts.size() && contexts[device])
    return contexts[device];
  CUdevice dev;
  if (!check(cuDeviceGet(&dev, device), entry, "cuDeviceGet(&dev, device)"))
    return nullptr;
  CUcontext ctx = nullptr;
  if (!check(cuDevicePrimaryCtxRetain(&ctx, dev), entry,
             "cuDevicePrimaryCtxRetain(&ctx, dev)"))
    return nullptr;
  if ((size_t)device >= contexts.size())
    contexts.resize(device + 1, nullptr);
  contexts[device] = ctx;
  return ctx;
}

#define SCOPED_CONTEXT_OR_RETURN(...)                                              \
  moert_gpu::ScopedContext scoped_(__func__);                                                 \
  if (!scoped_.ok())                                                               \
  return __VA_ARGS__

CUstream asStream(void *s) { return reinterpret_cast<CUstream>(s); }
CUdeviceptr asDevPtr(void *p) { return reinterpret_cast<CUdeviceptr>(p); }

// Per device: the runtime stream and whether allocations are stream-ordered
// (the device has memory pools; their release threshold is raised once).
struct DeviceState {
  CUstream stream = nullptr;
  bool poolChecked = false;
  bool streamOrdered = false;
};
std::mutex gDeviceMutex;
std::vector<DeviceState> gDevices;   // guarded by gDeviceMutex
std::set<CUdeviceptr> gManaged;      // isHostShared allocations; gDeviceMutex

DeviceState &deviceStateLocked(int32_t device) {
  if ((size_t)device >= gDevices.size())
    gDevices.resize(device + 1);
  return gDevices[device];
}

// The runtime stream of the default device, created on first use (inside a
// ScopedContext). NULL after a reported failure (a later call tries again).
CUstream runtimeStream(const char *entry) {
  int32_t device = gDefaultDevice.load();
  if (device < 0) {
    report(entry, "invalid default device %d", (int)device);
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(gDeviceMutex);
  DeviceState &d = deviceStateLocked(device);
  if (!d.stream && !check(cuStreamCreate(&d.stream, CU_STREAM_NON_BLOCKING), entry,
                          "cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)"))
    d.stream = nullptr;
  return d.stream;
}

bool isRuntimeStream(void *s) {
  if (!s)
    return false;
  std::lock_guard<std::mutex> lock(gDeviceMutex);
  for (const DeviceState &d : gDevices)
    if (d.stream == asStream(s))
      return true;
  return false;
}

// `stream`, or the runtime stream for NULL.
CUstream streamOrRuntime(void *stream, const char *entry) {
  return stream ? asStream(stream) : runtimeStream(entry);
}

// Whether the default device allocates stream-ordered; the first call per
// device raises its default pool's release threshold to UINT64_MAX, so that
// freed memory stays in the pool for the next allocation.
bool streamOrderedAlloc(const char *entry) {
  int32_t device = gDefaultDevice.load();
  std::lock_guard<std::mutex> lock(gDeviceMutex);
  DeviceState &d = deviceStateLocked(device);
  if (d.poolChecked)
    return d.streamOrdered;
  CUdevice dev;
  int pools = 0;
  if (!check(cuDeviceGet(&dev, device), entry, "cuDeviceGet(&dev, device)") ||
      !check(cuDeviceGetAttribute(&pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, dev),
             entry, "cuDeviceGetAttribute(MEMORY_POOLS_SUPPORTED)"))
    return false;
  if (pools) {
    CUmemoryPool pool = nullptr;
    cuuint64_t threshold = UINT64_MAX;
    if (!check(cuDeviceGetDefaultMemPool(&pool, dev), entry,
               "cuDeviceGetDefaultMemPool(&pool, dev)") ||
        !check(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold),
               entry, "cuMemPoolSetAttribute(RELEASE_THRESHOLD)"))
      return false;
  }
  d.poolChecked = true;
  d.streamOrdered = pools != 0;
  return d.streamOrdered;
}

} // namespace

namespace moert_gpu {

void reportFailure(const char *entry, const char *msg) { recordFailure(entry, msg); }

bool checkDriver(CUresult status, const char *entry, const char *call) {
  return check(status, entry, call);
}

ScopedContext::ScopedContext(const char *entry) : entry_(entry) {
  CUcontext ctx = primaryContext(gDefaultDevice.load(), entry);
  pushed_ = ctx && check(cuCtxPushCurrent(ctx), entry, "cuCtxPushCurrent(ctx)");
}

ScopedContext::~ScopedContext() {
  if (pushed_)
    check(cuCtxPopCurrent(nullptr), entry_, "cuCtxPopCurrent(nullptr)");
}

} // namespace moert_gpu

extern "C" {

const char *moert_gpu_sticky_error(void) {
  std::lock_guard<std::mutex> lock(gStickyMutex);
  return gSticky;
}

void moert_gpu_clear_sticky_error(void) {
  std::lock_guard<std::mutex> lock(gStickyMutex);
  gSticky[0] = '\0';
}

void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  (void)gpuBlobSize; // cubin and fatbin carry their own size
  SCOPED_CONTEXT_OR_RETURN(nullptr);
  if (!data) {
    report(__func__, "no module image (NULL)");
    return nullptr;
  }
  CUmodule module = nullptr;
  if (!CU(cuModuleLoadData(&module, data)))
    return nullptr;
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  SCOPED_CONTEXT_OR_RETURN(nullptr);
  if (!data) {
    report(__func__, "no module image (NULL)");
    return nullptr;
  }
  char log[8192];
  log[0] = '\0';
  CUjit_option opts[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)), log,
                  reinterpret_cast<void *>(static_cast<intptr_t>(sizeof log))};
  CUmodule module = nullptr;
  if (!CU(cuModuleLoadDataEx(&module, data, 3, opts, vals))) {
    if (log[0])
      fprintf(stderr, "moe_runtime_gpu: mgpuModuleLoadJIT: JIT log:\n%s\n", log);
    return nullptr;
  }
  return module;
}

void mgpuModuleUnload(void *module) {
  if (!module)
    return; // its load failed and was reported
  // An artifact's module destructors can run at process exit after the
  // driver has shut down; the modules went with it, nothing to report.
  CUcontext current = nullptr;
  if (cuCtxGetCurrent(&current) == CUDA_ERROR_DEINITIALIZED)
    return;
  SCOPED_CONTEXT_OR_RETURN();
  CU(cuModuleUnload(reinterpret_cast<CUmodule>(module)));
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module) {
    report(__func__, "function '%s' requested from a module that failed to load",
           name ? name : "(null)");
    return nullptr;
  }
  SCOPED_CONTEXT_OR_RETURN(nullptr);
  CUfunction f = nullptr;
  if (!CU(cuModuleGetFunction(&f, reinterpret_cast<CUmodule>(module), name)))
    return nullptr;
  rememberKernelName(f, name);
  return f;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                      intptr_t blockX, intptr_t blockY, intptr_t blockZ, int32_t smem,
                      void *stream, void **params, void **extra, size_t paramsCount) {
  (void)paramsCount;
  if (!function) {
    report(__func__, "no kernel to launch (its module or function lookup failed); "
                     "launch skipped");
    return;
  }
  SCOPED_CONTEXT_OR_RETURN();
  CUfunction f = reinterpret_cast<CUfunction>(function);
  if (smem > 0 &&
      !CU(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem)))
    return;
  const char *name = "kernel";
  if (moert_gpu::profiling() && cuFuncGetName(&name, f) != CUDA_SUCCESS)
    name = "kernel (no name)";
  moert_gpu::ProfileRange range(name, stream);
  CUresult launched = cuLaunchKernel(f, (unsigned)gridX, (unsigned)gridY, (unsigned)gridZ,
                                     (unsigned)blockX, (unsigned)blockY, (unsigned)blockZ,
                                     (unsigned)smem, asStream(stream), params, extra);
  if (launched == CUDA_SUCCESS)
    return;
  // Which launch: with CUDA_LAUNCH_BLOCKING=1 (or under compute-sanitizer)
  // the kernel whose own failure this is, else the first launch after an
  // earlier asynchronous failure.
  char detail[512];
  snprintf(detail, sizeof detail,
           "the launch of %s, grid (%ld, %ld, %ld), block (%ld, %ld, %ld), "
           "%d bytes of dynamic shared memory",
           kernelName(f).c_str(), (long)gridX, (long)gridY, (long)gridZ, (long)blockX,
           (long)blockY, (long)blockZ, (int)smem);
  check(launched, __func__, "cuLaunchKernel(f, ...)", detail);
}

void *moert_gpu_stream(void) {
  SCOPED_CONTEXT_OR_RETURN(nullptr);
  return runtimeStream(__func__);
}

void *mgpuStreamCreate(void) {
  SCOPED_CONTEXT_OR_RETURN(nullptr);
  return runtimeStream(__func__); // one stream; see the file comment
}

void mgpuStreamSynchronize(void *stream) {
  SCOPED_CONTEXT_OR_RETURN();
  // Inside a graph capture (moert_gpu_capture_begin) the wait that ends every
  // compiled call has nothing to wait for: the caller waits for the replay.
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (cuStreamIsCapturing(asStream(stream), &capture) == CUDA_SUCCESS &&
      capture == CU_STREAM_CAPTURE_STATUS_ACTIVE)
    return;
  CU(cuStreamSynchronize(asStream(stream)));
}

void mgpuStreamDestroy(void *stream) {
  if (!stream || isRuntimeStream(stream))
    return; // the runtime stream lives as long as the process
  SCOPED_CONTEXT_OR_RETURN();
  CU(cuStreamDestroy(asStream(stream)));
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  SCOPED_CONTEXT_OR_RETURN();
  CU(cuStreamWaitEvent(asStream(stream), reinterpret_cast<CUevent>(event), 0));
}

void *mgpuEventCreate(void) {
  SCOPED_CONTEXT_OR_RETURN(nullptr);
  CUevent e = nullptr;
  if (!CU(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING)))
    return nullptr;
  return e;
}

void mgpuEventDestroy(void *event) {
  if (!event)
    return;
  SCOPED_CONTEXT_OR_RETURN();
  CU(cuEventDestroy(reinterpret_cast<CUevent>(event)));
}

void mgpuEventSynchronize(void *event) {
  SCOPED_CONTEXT_OR_RETURN();
  CU(cuEventSynchronize(reinterpret_cast<CUevent>(event)));
}

void mgpuEventRecord(void *event, void *stream) {
  SCOPED_CONTEXT_OR_RETURN();
  CU(cuEventRecord(reinterpret_cast<CUevent>(event), asStream(stream)));
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  if (sizeBytes == 0)
    return nullptr;
  SCOPED_CONTEXT_OR_RETURN(nullptr);
  CUdeviceptr p = 0;
  if (isHostShared) {
    if (!CU(cuMemAllocManaged(&p, sizeBytes, CU_MEM_ATTACH_GLOBAL)))
      return nullptr;
    std::lock_guard<std::mutex> lock(gDeviceMutex);
    gManaged.insert(p);
  } else if (streamOrderedAlloc(__func__)) {
    CUstream s = streamOrRuntime(stream, __func__);
    if (!s || !CU(cuMemAllocAsync(&p, sizeBytes, s)))
      return nullptr;
  } else if (!CU(cuMemAlloc(&p, sizeBytes))) {
    return nullptr;
  }
  return reinterpret_cast<void *>(p);
}

void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr)
    return;
  SCOPED_CONTEXT_OR_RETURN();
  bool managed;
  {
    std::lock_guard<std::mutex> lock(gDeviceMutex);
    managed = gManaged.erase(asDevPtr(ptr)) != 0;
  }
  if (managed || !streamOrderedAlloc(__func__)) {
    CU(cuMemFree(asDevPtr(ptr)));
    return;
  }
  CUstream s = streamOrRuntime(stream, __func__);
  if (s)
    CU(cuMemFreeAsync(asDevPtr(ptr), s));
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (sizeBytes == 0)
    return;
  SCOPED_CONTEXT_OR_RETURN();
  moert_gpu::ProfileRange range("mgpuMemcpy", stream);
  CU(cuMemcpyAsync(asDevPtr(dst), asDevPtr(src), sizeBytes, asStream(stream)));
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
  if (count == 0)
    return;
  SCOPED_CONTEXT_OR_RETURN();
  moert_gpu::ProfileRange range("mgpuMemset32", stream);
  CU(cuMemsetD32Async(asDevPtr(dst), value, count, asStream(stream)));
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  if (count == 0)
    return;
  SCOPED_CONTEXT_OR_RETURN();
  moert_gpu::ProfileRange range("mgpuMemset16", stream);
  CU(cuMemsetD16Async(asDevPtr(dst), value, count, asStream(stream)));
}

void mgpuSetDefaultDevice(int32_t device) { gDefaultDevice.store(device); }

int moert_gpu_device_count(void) {
  // A probe: failures set moert_gpu_last_error() but not the sticky error.
  char msg[1024];
  const char *name = nullptr, *text = nullptr;
  CUresult r = cuInit(0);
  const char *call = "cuInit";
  int count = 0;
  if (r == CUDA_SUCCESS) {
    r = cuDeviceGetCount(&count);
    call = "cuDeviceGetCount";
  }
  if (r == CUDA_SUCCESS)
    return count;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
    name = "unknown CUresult";
  if (cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
    text = "no description";
  snprintf(msg, sizeof msg, "moe_runtime_gpu: moert_gpu_device_count: %s failed: %s: %s "
           "(status %d)", call, name, text, (int)r);
  moert_gpu::setLastError(msg);
  return -1;
}

int moert_gpu_device_name(char *buf, size_t size) {
  if (!buf || size == 0) {
    report(__func__, "no buffer");
    return -1;
  }
  buf[0] = '\0';
  SCOPED_CONTEXT_OR_RETURN(-1);
  CUdevice dev;
  int major = 0, minor = 0;
  char name[256] = "";
  if (!CU(cuCtxGetDevice(&dev)) || !CU(cuDeviceGetName(name, sizeof name, dev)) ||
      !CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)) ||
      !CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)))
    return -1;
  snprintf(buf, size, "%s (sm_%d%d)", name, major, minor);
  return 0;
}

void *moert_gpu_timer_event_create(void) {
  SCOPED_CONTEXT_OR_RETURN(nullptr);
  CUevent e = nullptr;
  if (!CU(cuEventCreate(&e, CU_EVENT_DEFAULT)))
    return nullptr;
  return e;
}

float moert_gpu_event_elapsed_ms(void *start, void *end) {
  if (!start || !end) {
    report(__func__, "NULL event");
    return -1.0f;
  }
  SCOPED_CONTEXT_OR_RETURN(-1.0f);
  float ms = 0.0f;
  if (!CU(cuEventElapsedTime(&ms, reinterpret_cast<CUevent>(start),
                             reinterpret_cast<CUevent>(end))))
    return -1.0f;
  return ms;
}

} // extern "C"
