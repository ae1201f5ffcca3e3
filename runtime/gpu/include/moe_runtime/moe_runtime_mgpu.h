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

/* Streams are created non-blocking. Events without timing. */
MOERT_GPU_EXPORT void *mgpuStreamCreate(void);
MOERT_GPU_EXPORT void mgpuStreamSynchronize(void *stream);
MOERT_GPU_EXPORT void mgpuStreamDestroy(void *stream);
MOERT_GPU_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);
MOERT_GPU_EXPORT void *mgpuEventCreate(void);
MOERT_GPU_EXPORT void mgpuEventDestroy(void *event);
MOERT_GPU_EXPORT void mgpuEventSynchronize(void *event);
MOERT_GPU_EXPORT void mgpuEventRecord(void *event, void *stream);

/* cuMemAlloc, or cuMemAllocManaged when isHostShared (as upstream: not
 * stream-ordered); size 0 gives NULL. mgpuMemFree(NULL) does nothing. */
MOERT_GPU_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
MOERT_GPU_EXPORT void mgpuMemFree(void *ptr, void *stream);
MOERT_GPU_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
/* count elements of 4 (2) bytes set to value. */
MOERT_GPU_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                   void *stream);
MOERT_GPU_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                                   void *stream);
MOERT_GPU_EXPORT void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
}
#endif

#endif /* MOE_RUNTIME_MOE_RUNTIME_MGPU_H */
