//===- Internal.h - shared between libmoe_runtime_gpu's sources -*- C++ -*-===//
#ifndef MOE_RUNTIME_GPU_LIB_INTERNAL_H
#define MOE_RUNTIME_GPU_LIB_INTERNAL_H

#include <cuda.h>

#include <cstddef>

namespace moert_gpu {

// Sets the message moert_gpu_last_error() returns on this thread
// (GroupedGemm.cpp owns it).
void setLastError(const char *msg);

// What stopped the device-side all_to_all's kernels, described, or ""
// (Collectives.cpp): a failure report appends it, since the stream only
// says the kernel trapped.
const char *exchangeFault();

// Reports a failure of `entry` the way every void-returning entry point does
// (CudaDriver.cpp): prints "moe_runtime_gpu: <entry>: <msg>" to stderr, sets
// moert_gpu_last_error() on this thread, and records it as the process-wide
// sticky error unless an earlier failure is recorded.
void reportFailure(const char *entry, const char *msg);

// True when `status` is CUDA_SUCCESS; otherwise reports "<call> failed:
// <name>: <description> (status N)" for `entry` as reportFailure does (the
// check every mgpu* entry point makes of its driver calls, CudaDriver.cpp).
bool checkDriver(CUresult status, const char *entry, const char *call);

// Makes the default device's primary context current for the scope of one
// entry point (CudaDriver.cpp); ok() is false after a reported failure. The
// CUDA runtime API (cuBLASLt, the grouped GEMMs) uses the current context
// when it is a primary context, so work issued inside such a scope goes to
// the same device as the mgpu* calls and moert_gpu_stream().
class ScopedContext {
public:
  explicit ScopedContext(const char *entry);
  ~ScopedContext();
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;
  bool ok() const { return pushed_; }

private:
  const char *entry_;
  bool pushed_ = false;
};

// Whether moert_gpu_profile_start() turned the kernel profile on
// (KernelProfile.cpp).
bool profiling();

// While the profile is on: GPU time of the work issued on `stream` during
// this scope, added to the row `name` (timing events recorded at both ends).
// Does nothing when the profile is off. Construct it with a context current.
class ProfileRange {
public:
  ProfileRange(const char *name, void *stream);
  ~ProfileRange();
  ProfileRange(const ProfileRange &) = delete;
  ProfileRange &operator=(const ProfileRange &) = delete;

private:
  void *stream_;
  size_t row_ = 0;
  void *start_ = nullptr;
  void *end_ = nullptr;
};

} // namespace moert_gpu

#endif
