//===- mgpu_kernel_test.cpp - an MLIR-compiled kernel through mgpu* -------===//
//
// usage: moe-gpu-mgpu-kernel-test AXPY.so [seed]
//
// AXPY.so is test/gpu/Inputs/axpy-kernel.mlir compiled by
// test/gpu/Inputs/build-kernel.sh: host code from gpu-to-llvm with an
// embedded sm_90 cubin, whose only undefined symbols are mgpu*. dlopen
// resolves them from libmoe_runtime_gpu (linked here); the load itself runs
// mgpuModuleLoad from the object's global constructor. The test then
//   * runs _mlir_ciface_axpy on random x and checks y == 2x + 1 exactly
//     (2x is exact in f32, so one rounding either way, fused or not);
//   * drives the other entry points directly: memset32/16, events,
//     host-shared allocation, mgpuMemAlloc(0); mgpuStreamCreate returns the
//     one runtime stream (moert_gpu_stream()) and mgpuStreamDestroy leaves it
//     usable; stream-ordered allocations of a reused size come from the pool
//     without it growing; timer events (moert_gpu_event_elapsed_ms);
//     moert_gpu_device_count / moert_gpu_device_name;
//   * checks that failures are visible: a bad module image, a NULL function,
//     a bad pointer, each printing and setting the sticky error;
//   * dlcloses (mgpuModuleUnload from the destructor) with no error.
// Prints PASS/FAIL lines and "ALL PASSED (n checks)"; exits 1 on a failure.
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/moe_runtime_mgpu.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

int gChecks = 0, gFailures = 0;

void expect(bool ok, const std::string &what) {
  ++gChecks;
  if (!ok)
    ++gFailures;
  printf("%s %s\n", ok ? "PASS" : "FAIL", what.c_str());
  fflush(stdout);
}

struct MemRef1D {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};

constexpr int64_t kN = int64_t(1) << 20; // axpy-kernel.mlir's memref size

bool sticky() { return moert_gpu_sticky_error()[0] != '\0'; }

std::string stickyMsg() { return moert_gpu_sticky_error(); }

bool contains(const std::string &s, const char *part) {
  return s.find(part) != std::string::npos;
}

void printDevice() {
  CUdevice dev;
  char name[256] = "?";
  int major = 0, minor = 0;
  if (cuDeviceGet(&dev, 0) == CUDA_SUCCESS) {
    cuDeviceGetName(name, sizeof name, dev);
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  }
  int driver = 0;
  cuDriverGetVersion(&driver);
  printf("device %s (sm_%d%d), driver API %d\n", name, major, minor, driver);
}

void runAxpy(void (*axpy)(MemRef1D *, MemRef1D *), uint32_t seed, const char *label) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  std::vector<float> x(kN), y(kN, std::nanf(""));
  for (auto &v : x)
    v = dist(rng);
  x[0] = 0.0f;
  x[1] = -0.0f;
  x[2] = 1e-30f;
  x[3] = 3.0e38f / 2; // 2x near FLT_MAX, still finite
  MemRef1D mx{x.data(), x.data(), 0, {kN}, {1}};
  MemRef1D my{y.data(), y.data(), 0, {kN}, {1}};
  axpy(&mx, &my);
  int64_t bad = 0, firstBad = -1;
  for (int64_t i = 0; i < kN; ++i) {
    float want = 2.0f * x[i] + 1.0f;
    if (std::memcmp(&want, &y[i], sizeof want) != 0) {
      if (firstBad < 0)
        firstBad = i;
      ++bad;
    }
  }
  char buf[256];
  snprintf(buf, sizeof buf, "axpy %s n=%" PRId64 " mismatches=%" PRId64, label, kN, bad);
  if (bad)
    printf("  first mismatch at %" PRId64 ": x=%.9g y=%.9g want %.9g\n", firstBad,
           x[firstBad], y[firstBad], 2.0f * x[firstBad] + 1.0f);
  expect(bad == 0 && !sticky(), buf);
}

void directEntryPoints() {
  const size_t n = 1000003; // odd: no alignment luck
  expect(mgpuMemAlloc(0, nullptr, false) == nullptr, "mgpuMemAlloc(0) is NULL");
  void *s1 = mgpuStreamCreate(), *s2 = mgpuStreamCreate();
  void *ev = mgpuEventCreate();
  expect(s1 && s2 && ev, "mgpuStreamCreate / mgpuEventCreate");
  expect(s1 == s2 && s1 == moert_gpu_stream(),
         "mgpuStreamCreate returns the runtime stream every time");
  int count = moert_gpu_device_count();
  char name[256] = "";
  expect(count >= 1 && moert_gpu_device_name(name, sizeof name) == 0 && name[0],
         std::string("moert_gpu_device_count / moert_gpu_device_name: ") + name);
  void *d32 = mgpuMemAlloc(n * 4, s1, false);
  void *d16 = mgpuMemAlloc(n * 2, s1, false);
  expect(d32 && d16, "mgpuMemAlloc");
  // s1: fill; event; s2 waits for it and copies back.
  mgpuMemset32(d32, 0x3f800000u, n, s1); // 1.0f
  mgpuMemset16(d16, 0xbeefu, n, s1);
  mgpuEventRecord(ev, s1);
  mgpuStreamWaitEvent(s2, ev);
  std::vector<uint32_t> h32(n, 0);
  std::vector<uint16_t> h16(n, 0);
  mgpuMemcpy(h32.data(), d32, n * 4, s2);
  mgpuMemcpy(h16.data(), d16, n * 2, s2);
  mgpuEventRecord(ev, s2);
  mgpuEventSynchronize(ev);
  size_t bad32 = 0, bad16 = 0;
  for (size_t i = 0; i < n; ++i) {
    bad32 += h32[i] != 0x3f800000u;
    bad16 += h16[i] != 0xbeefu;
  }
  expect(bad32 == 0 && !sticky(), "mgpuMemset32 + event across streams + mgpuMemcpy D2H");
  expect(bad16 == 0 && !sticky(), "mgpuMemset16");
  // Host-shared (managed) memory: written on the device, read on the host.
  auto *shared = static_cast<uint32_t *>(mgpuMemAlloc(4096 * 4, s1, true));
  expect(shared != nullptr, "mgpuMemAlloc(isHostShared)");
  if (shared) {
    mgpuMemset32(shared, 7u, 4096, s1);
    mgpuStreamSynchronize(s1);
    size_t badShared = 0;
    for (int i = 0; i < 4096; ++i)
      badShared += shared[i] != 7u;
    expect(badShared == 0 && !sticky(), "managed memory visible on the host");
    mgpuMemFree(shared, s1);
  }
  mgpuMemFree(d32, s1);
  mgpuMemFree(d16, s1);
  mgpuMemFree(nullptr, s1); // no-op
  mgpuEventDestroy(ev);
  mgpuStreamSynchronize(s2);
  mgpuStreamDestroy(s1);
  mgpuStreamDestroy(s2);
  // The runtime stream survives mgpuStreamDestroy.
  void *d = mgpuMemAlloc(4096, nullptr, false);
  mgpuMemset32(d, 5u, 1024, moert_gpu_stream());
  uint32_t back[1024] = {};
  mgpuMemcpy(back, d, sizeof back, moert_gpu_stream());
  mgpuStreamSynchronize(moert_gpu_stream());
  expect(back[0] == 5u && back[1023] == 5u && !sticky(),
         "runtime stream still usable after mgpuStreamDestroy");
  mgpuMemFree(d, nullptr);
  expect(!sticky(), "no error from the direct calls");
}

// Stream-ordered allocation: the default pool keeps freed memory (release
// threshold UINT64_MAX), so alloc/free cycles of one size do not grow it.
void poolReuse() {
  const uint64_t bytes = uint64_t(64) << 20;
  void *s = moert_gpu_stream();
  mgpuMemFree(mgpuMemAlloc(bytes, s, false), s);
  mgpuStreamSynchronize(s);
  CUdevice dev;
  CUmemoryPool pool = nullptr;
  cuuint64_t reserved0 = 0, reserved1 = 0, threshold = 0;
  bool ok = cuDeviceGet(&dev, 0) == CUDA_SUCCESS &&
            cuDeviceGetDefaultMemPool(&pool, dev) == CUDA_SUCCESS &&
            cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved0) ==
                CUDA_SUCCESS &&
            cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold) ==
                CUDA_SUCCESS;
  void *first = nullptr;
  int samePointer = 0;
  for (int i = 0; i < 10; ++i) {
    void *p = mgpuMemAlloc(bytes, s, false);
    if (i == 0)
      first = p;
    samePointer += p == first;
    mgpuMemFree(p, s);
  }
  mgpuStreamSynchronize(s);
  ok = ok && cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved1) ==
                 CUDA_SUCCESS;
  printf("  pool: threshold %llu, reserved %llu -> %llu bytes, same pointer %d/10\n",
         (unsigned long long)threshold, (unsigned long long)reserved0,
         (unsigned long long)reserved1, samePointer);
  expect(ok && threshold == UINT64_MAX, "default pool release threshold is UINT64_MAX");
  expect(ok && reserved0 >= bytes && reserved1 == reserved0 && !sticky(),
         "alloc/free of a reused size keeps and reuses the pool's memory");
}

// Timer events on the runtime stream around some work.
void timerEvents() {
  void *s = moert_gpu_stream();
  void *t0 = moert_gpu_timer_event_create(), *t1 = moert_gpu_timer_event_create();
  expect(t0 && t1, "moert_gpu_timer_event_create");
  void *d = mgpuMemAlloc(uint64_t(256) << 20, s, false);
  mgpuEventRecord(t0, s);
  mgpuMemset32(d, 1u, (size_t(256) << 20) / 4, s);
  mgpuEventRecord(t1, s);
  mgpuEventSynchronize(t1);
  float ms = moert_gpu_event_elapsed_ms(t0, t1);
  printf("  memset of 256 MiB: %.3f ms\n", ms);
  expect(ms > 0.0f && !sticky(), "moert_gpu_event_elapsed_ms");
  mgpuMemFree(d, s);
  // An event without timing: -1 and a sticky error.
  void *plain = mgpuEventCreate();
  mgpuEventRecord(plain, s);
  mgpuEventSynchronize(plain);
  expect(moert_gpu_event_elapsed_ms(t0, plain) == -1.0f &&
             contains(stickyMsg(), "moert_gpu_event_elapsed_ms: cuEventElapsedTime failed"),
         "elapsed time of an event without timing: -1 + sticky error");
  moert_gpu_clear_sticky_error();
  mgpuEventDestroy(plain);
  mgpuEventDestroy(t0);
  mgpuEventDestroy(t1);
}

void errorPaths() {
  // Not a cubin: the load must fail visibly, and what follows must not crash.
  static const char garbage[64] = "this is not a cubin";
  void *m = mgpuModuleLoad(const_cast<char *>(garbage), sizeof garbage);
  std::string msg = stickyMsg();
  printf("  sticky after bad load: %s\n", msg.c_str());
  expect(m == nullptr && contains(msg, "mgpuModuleLoad: cuModuleLoadData failed: CUDA_ERROR_"),
         "bad module image: NULL + sticky error");
  expect(contains(moert_gpu_last_error(), "cuModuleLoadData failed"),
         "bad module image: moert_gpu_last_error");
  void *f = mgpuModuleGetFunction(m, "axpy_kernel");
  expect(f == nullptr && contains(moert_gpu_last_error(), "failed to load"),
         "function from a failed module: NULL + error");
  mgpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  expect(contains(moert_gpu_last_error(), "launch skipped"),
         "launch of a NULL function: skipped + error");
  expect(stickyMsg() == msg, "sticky error keeps the first failure");
  mgpuModuleUnload(m); // NULL: no-op
  moert_gpu_clear_sticky_error();
  // A bad device pointer in a driver call.
  mgpuMemFree(reinterpret_cast<void *>(uintptr_t(0x10)), nullptr);
  msg = stickyMsg();
  printf("  sticky after bad free: %s\n", msg.c_str());
  expect(contains(msg, "mgpuMemFree: cuMemFreeAsync failed: CUDA_ERROR_"),
         "bad pointer to mgpuMemFree: sticky error");
  moert_gpu_clear_sticky_error();
  expect(!sticky(), "moert_gpu_clear_sticky_error");
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s AXPY.so [seed]\n", argv[0]);
    return 2;
  }
  uint32_t seed = argc > 2 ? (uint32_t)strtoul(argv[2], nullptr, 10)
                           : (uint32_t)std::random_device{}();
  printf("seed %u\n", seed);
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("FAIL dlopen %s: %s\n", argv[1], dlerror());
    return 1;
  }
  // cuInit happened in the object's constructor (mgpuModuleLoad).
  printDevice();
  expect(!sticky(), "dlopen ran mgpuModuleLoad without error");
  if (sticky())
    printf("  sticky: %s\n", moert_gpu_sticky_error());
  auto axpy = reinterpret_cast<void (*)(MemRef1D *, MemRef1D *)>(
      dlsym(lib, "_mlir_ciface_axpy"));
  expect(axpy != nullptr, "dlsym _mlir_ciface_axpy");
  if (axpy) {
    runAxpy(axpy, seed, "run 1");
    runAxpy(axpy, seed + 1, "run 2");
  }
  directEntryPoints();
  poolReuse();
  timerEvents();
  errorPaths();
  // With the default device set explicitly, the kernel still runs.
  mgpuSetDefaultDevice(0);
  if (axpy)
    runAxpy(axpy, seed + 2, "after mgpuSetDefaultDevice(0)");
  expect(dlclose(lib) == 0 && !sticky(), "dlclose (mgpuModuleUnload) without error");
  if (gFailures) {
    printf("FAILED %d of %d checks\n", gFailures, gChecks);
    return 1;
  }
  printf("ALL PASSED (%d checks)\n", gChecks);
  return 0;
}
