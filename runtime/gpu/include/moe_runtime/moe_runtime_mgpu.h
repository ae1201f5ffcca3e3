/*===- moe_runtime_mgpu.h - mgpu* entry points of libmoe_runtime_gpu -*- C -*-===
 *
 * The host runtime calls that MLIR 22's `gpu-to-llvm` emits (STYLE.md 4.7),
 * implemented on the CUDA driver API (runtime/gpu/lib/CudaDriver.cpp), so
 * that objects compiled by --gpu-lower-to-nvvm-pipeline link against
 * libmoe_runtime_gpu instead of upstream's libmlir_cuda_runtime (which the
 * Debian packages do not ship). Handles are opaque here: CUmodule,
 * CUfunction, CUstream and CUevent, passed as pointers; device pointers are
 * CUdeviceptr values.
 *
 * Every call runs with the primary context of the default device (device 0,
 * or the one chosen by mgpuSetDefaultDevice) current, as upstream does.
 *
 * Errors: the ABI has no error returns. A failing driver call prints
 *   moe_runtime_gpu: <entry>: <driver call> failed: <CUDA_ERROR_NAME>: <text>
 * to stderr, sets moert_gpu_last_error() on the calling thread, and, if no
 * earlier mgpu* failure is recorded, becomes the process-wide sticky error
 * (moert_gpu_sticky_error()). A failed module load returns NULL; a later
 * mgpuModuleGetFunction on it returns NULL and mgpuLaunchKernel with a NULL
 * function reports an error and launches nothing (each such call adds a
 * message), so a compiled program that lost its module runs to its end with
 * the sticky error set rather than crashing. Callers that run compiled code
 * should check moert_gpu_sticky_error() afterwards.
 *
 *===----------------------------------------------------------------------===*/
#ifndef MOE_RUNTIME_MOE_RUNTIME_MGPU_H
#define MOE_RUNTIME_MOE_RUNTIME_MGPU_H

#include "moe_runtime/moe_runtime_gpu.h"

#include <stddef.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* First mgpu* failure of this process ("" if none); stays set until cleared. */
MOERT_GPU_EXPORT const char *moert_gpu_sticky_error(void);
MOERT_GPU_EXPORT void moert_gpu_clear_sticky_error(void);

/* Modules: cubin or fatbin (mgpuModuleLoad), PTX JIT-compiled at optLevel
 * (mgpuModuleLoadJIT). NULL on failure. Unloading NULL does nothing. */
MOERT_GPU_EXPORT void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
MOERT_GPU_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);
MOERT_GPU_EXPORT void mgpuModuleUnload(void *module);
MOERT_GPU_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);

/* Sets CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES to smem first when
 * smem > 0. paramsCount is not needed by cuLaunchKernel. */
MOERT_GPU_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                       intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                                       intptr_t blockZ, int32_t smem, void *stream,
                                       void **params, void **extra, size_t paramsCount);

/* The runtime stream: one non-blocking stream per device, created on first use
 * in the device's primary context and kept for the life of the process. All
 * compiled code and the moert_entry_* calls run on it; a host that runs
 * compiled code copies, synchronises and records its timing events on it.
 * NULL after a reported failure. */
MOERT_GPU_EXPORT void *moert_gpu_stream(void);

/* Streams: mgpuStreamCreate returns the runtime stream (no new stream) and
 * mgpuStreamDestroy of it does nothing. gpu-to-llvm / gpu-async-region code
 * creates and destroys a stream around every async region; with one stream all
 * compiled work and the moert_* calls stay ordered on one queue, and the host
 * can time or wait for all of it with events on moert_gpu_stream().
 * mgpuStreamDestroy of any other stream destroys it. Events without timing
 * (moert_gpu_timer_event_create makes timing events). */
MOERT_GPU_EXPORT void *mgpuStreamCreate(void);
MOERT_GPU_EXPORT void mgpuStreamSynchronize(void *stream);
MOERT_GPU_EXPORT void mgpuStreamDestroy(void *stream);
MOERT_GPU_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);
MOERT_GPU_EXPORT void *mgpuEventCreate(void);
MOERT_GPU_EXPORT void mgpuEventDestroy(void *event);
MOERT_GPU_EXPORT void mgpuEventSynchronize(void *event);
MOERT_GPU_EXPORT void mgpuEventRecord(void *event, void *stream);

/* Stream-ordered: cuMemAllocAsync / cuMemFreeAsync on `stream` (the runtime
 * stream when NULL) from the device's default memory pool, whose release
 * threshold is set to UINT64_MAX on first use, so memory freed by one entry
 * call is reused by the next instead of going back to the driver (cuMemFree
 * would synchronise the device). On a device without memory pools: cuMemAlloc
 * / cuMemFree. isHostShared: cuMemAllocManaged (freed with cuMemFree). Size 0
 * gives NULL; mgpuMemFree(NULL) does nothing. */
MOERT_GPU_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
MOERT_GPU_EXPORT void mgpuMemFree(void *ptr, void *stream);
MOERT_GPU_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
/* count elements of 4 (2) bytes set to value. */
MOERT_GPU_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                   void *stream);
MOERT_GPU_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                                   void *stream);
MOERT_GPU_EXPORT void mgpuSetDefaultDevice(int32_t device);

/* For hosts that run compiled code (moe-runner). */

/* Number of CUDA devices (cuInit + cuDeviceGetCount), or -1 with the reason in
 * moert_gpu_last_error() (e.g. CUDA_ERROR_NO_DEVICE); a probe: failures are
 * not printed and do not set the sticky error. */
MOERT_GPU_EXPORT int moert_gpu_device_count(void);
/* "<name> (sm_XY)" of the default device into buf (NUL-terminated, truncated to
 * size); 0, or -1 after a reported failure. */
MOERT_GPU_EXPORT int moert_gpu_device_name(char *buf, size_t size);
/* An event with timing enabled (mgpuEventCreate's have none); destroy with
 * mgpuEventDestroy. NULL after a reported failure. */
MOERT_GPU_EXPORT void *moert_gpu_timer_event_create(void);
/* Milliseconds between two completed timer events (cuEventElapsedTime); -1
 * after a reported failure. */
MOERT_GPU_EXPORT float moert_gpu_event_elapsed_ms(void *start, void *end);

#ifdef __cplusplus
}
#endif

#endif /* MOE_RUNTIME_MOE_RUNTIME_MGPU_H */
