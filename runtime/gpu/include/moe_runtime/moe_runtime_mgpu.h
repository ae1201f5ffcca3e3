/*===- moe_runtime_mgpu.h - mgpu* entry points of libmoe_runtime_gpu -*- C -*-===
 *
 * The host runtime calls that MLIR 22's `gpu-to-llvm` emits (STYLE.md 4.7),
 * listed in moert_mgpu_abi.def and implemented on the CUDA driver API
 * (runtime/gpu/lib/CudaDriver.cpp), so that objects compiled by
 * --gpu-lower-to-nvvm-pipeline link against
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

/* The runtime stream: one non-blocking stream per device, created on first use
 * in the device's primary context and kept for the life of the process. All
 * compiled code and the moert_entry_* calls run on it; a host that runs
 * compiled code copies, synchronises and records its timing events on it.
 * NULL after a reported failure. */
MOERT_GPU_EXPORT void *moert_gpu_stream(void);

/* The mgpu* functions, declared from moert_mgpu_abi.def (which documents
 * each): modules, kernel launches, streams, events, memory. */
#define MOERT_ABI_ARG(kind, ctype, name) ctype name
#define MOERT_ABI_NO_ARGS void
#define MOERT_ABI_FUNCTION(name, result_kind, result_ctype, args)                   \
  MOERT_GPU_EXPORT result_ctype name args;
#include "moe_runtime/moert_mgpu_abi.def"

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
