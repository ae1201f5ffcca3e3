/*===- moe_runtime_gpu.h - libmoe_runtime_gpu C ABI -----------------*- C -*-===
 *
 * GPU entry points of the MoE runtime: grouped (ragged) GEMMs on cuBLASLt.
 * Plain C, no MLIR, no LLVM. Built only where a CUDA toolkit is found
 * (runtime/gpu/README.md).
 *
 * Conventions (as in moe_runtime.h): 0 on success, -1 on failure; the failing
 * call (CUDA or cuBLASLt function and its status) is described by
 * moert_gpu_last_error() on the calling thread. All pointers except
 * `stream` are device pointers; `stream` is a cudaStream_t (NULL: the legacy
 * default stream). Work is enqueued on `stream`; the functions return before
 * it finishes, except that they wait for the group sizes (see below).
 *
 * Groups: group g covers rows [off_g, off_g + sizes[g]) with
 * off = exclusive prefix sum of sizes (64-bit). Empty groups are normal.
 * sizes must be >= 0 and sum to at most `rows`.
 *
 * The *_device-sizes entry points read group_sizes_device from the GPU with
 * one device-to-host copy per call, synchronising `stream` up to that point.
 * The *_host_sizes variants take the sizes in host memory and do not block.
 *
 *===----------------------------------------------------------------------===*/
#ifndef MOE_RUNTIME_MOE_RUNTIME_GPU_H
#define MOE_RUNTIME_MOE_RUNTIME_GPU_H

#include "moe_runtime/moert_abi.h"

#include <stdint.h>

#if defined(__GNUC__)
#define MOERT_GPU_EXPORT __attribute__((visibility("default")))
#else
#define MOERT_GPU_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Weight layouts (MOERT_WEIGHT_KN, MOERT_WEIGHT_NK) and output element types
 * (MOERT_GPU_OUT_BF16, MOERT_GPU_OUT_F32): moert_abi.h. */

/* Message of the last failed call on this thread ("" if none). */
MOERT_GPU_EXPORT const char *moert_gpu_last_error(void);

/* C[r, :] = A[r, :] · B[g]  (or · B[g]^T for MOERT_WEIGHT_NK) for every row r
 * of group g; rows r >= sum(sizes) of C are set to zero.
 *   a: bf16 [rows, k_dim] row-major
 *   b: bf16 [num_groups, k_dim, n] (KN) or [num_groups, n, k_dim] (NK)
 *   c: [rows, n] row-major, bf16 or f32 (c_dtype); fp32 accumulation. */
MOERT_GPU_EXPORT int moert_grouped_gemm_bf16(const void *a, const void *b,
                                             const int32_t *group_sizes_device,
                                             int64_t num_groups, int64_t k_dim, int64_t n,
                                             int32_t weight_layout, void *c,
                                             int32_t c_dtype, int64_t rows, void *stream);

/* Dense f32 contraction, accumulated into c (true fp32 compute, no TF32):
 *   c[i, j] += Σ_l A(i, l) · B(l, j)   for i < m, j < n, l < k
 * with c f32 [m, n] row-major, A stored [m, k] (a_trans = 0) or [k, m]
 * (a_trans = 1), B stored [k, n] (b_trans = 0) or [n, k] (b_trans = 1), all
 * contiguous f32. The GPU lowering uses it for the contractions autodiff
 * writes in linalg (the router adjoints dlogits·Wᵀ and xᵀ·dlogits). */
MOERT_GPU_EXPORT int moert_matmul_f32(const float *a, int32_t a_trans, const float *b,
                                      int32_t b_trans, float *c, int64_t m, int64_t n,
                                      int64_t k, void *stream);

/* The same with bf16 operands (contiguous, stored as for moert_matmul_f32):
 * exact products on tensor cores, fp32 accumulation into the f32 c, or
 * c = op(A)·op(B) where `accumulate` is 0 (c is then only written: no
 * zeroing first, no read of it). The GPU lowering computes f32
 * contractions with it on operands split into bf16 parts (an f32 value as
 * the sum of three bf16 values). */
MOERT_GPU_EXPORT int moert_matmul_bf16(const void *a, int32_t a_trans, const void *b,
                                       int32_t b_trans, float *c, int32_t accumulate,
                                       int64_t m, int64_t n, int64_t k, void *stream);

/* db[g] = A_g^T · dC_g, where A_g, dC_g are group g's rows of a and dc.
 *   a:  bf16 [rows, k_dim],  dc: bf16 [rows, n]
 *   db: [num_groups, k_dim, n] (KN) or [num_groups, n, k_dim] (NK, = dC_g^T A_g),
 *       bf16 or f32 (db_dtype). An empty group's db[g] is exactly zero. */
MOERT_GPU_EXPORT int moert_grouped_weight_grad_bf16(const void *a, const void *dc,
                                                    const int32_t *group_sizes_device,
                                                    int64_t num_groups, int64_t k_dim,
                                                    int64_t n, int32_t weight_layout,
                                                    void *db, int32_t db_dtype,
                                                    int64_t rows, void *stream);

/* The same two with f32 operands (a, b / dc f32; c / db f32: a bf16 dtype is
 * an error, cuBLASLt has no such matmul), for grouped GEMMs on dequantized
 * FP8 values (moe-fp8-placement's weight gradients; compiled code rounds the
 * f32 product to its bf16 result) and f32 references. True fp32 compute. */
MOERT_GPU_EXPORT int moert_grouped_gemm_f32(const float *a, const float *b,
                                            const int32_t *group_sizes_device,
                                            int64_t num_groups, int64_t k_dim, int64_t n,
                                            int32_t weight_layout, void *c,
                                            int32_t c_dtype, int64_t rows, void *stream);
MOERT_GPU_EXPORT int moert_grouped_weight_grad_f32(const float *a, const float *dc,
                                                   const int32_t *group_sizes_device,
                                                   int64_t num_groups, int64_t k_dim,
                                                   int64_t n, int32_t weight_layout,
                                                   void *db, int32_t db_dtype,
                                                   int64_t rows, void *stream);

/* The same with the group sizes in host memory (no device-to-host copy, no
 * synchronisation; the host array may be reused as soon as the call returns). */
MOERT_GPU_EXPORT int moert_grouped_gemm_bf16_host_sizes(
    const void *a, const void *b, const int32_t *group_sizes_host, int64_t num_groups,
    int64_t k_dim, int64_t n, int32_t weight_layout, void *c, int32_t c_dtype,
    int64_t rows, void *stream);
MOERT_GPU_EXPORT int moert_grouped_weight_grad_bf16_host_sizes(
    const void *a, const void *dc, const int32_t *group_sizes_host, int64_t num_groups,
    int64_t k_dim, int64_t n, int32_t weight_layout, void *db, int32_t db_dtype,
    int64_t rows, void *stream);
MOERT_GPU_EXPORT int moert_grouped_gemm_f32_host_sizes(
    const float *a, const float *b, const int32_t *group_sizes_host, int64_t num_groups,
    int64_t k_dim, int64_t n, int32_t weight_layout, void *c, int32_t c_dtype,
    int64_t rows, void *stream);
MOERT_GPU_EXPORT int moert_grouped_weight_grad_f32_host_sizes(
    const float *a, const float *dc, const int32_t *group_sizes_host, int64_t num_groups,
    int64_t k_dim, int64_t n, int32_t weight_layout, void *db, int32_t db_dtype,
    int64_t rows, void *stream);

/* Entry points for compiled code (what the sm_* lowering calls), declared
 * from moert_abi.def, the list the compiler builds its calls from:
 *   moert_entry_grouped_gemm_bf16, moert_entry_matmul_f32,
 *   moert_entry_grouped_weight_grad_bf16, moert_entry_grouped_gemm_f32,
 *   moert_entry_grouped_weight_grad_f32
 * are the device-size functions above without their `stream` argument, run
 * on the runtime stream (moert_gpu_stream(), moe_runtime_mgpu.h) with the
 * default device's primary context current.
 * No return value, as for mgpu*: a failure prints
 *   moe_runtime_gpu: moert_entry_<name>: <message of the function above>
 * to stderr, sets moert_gpu_last_error() and becomes the process-wide sticky
 * error (moert_gpu_sticky_error()) unless one is recorded already; the
 * caller checks it after the compiled call. */
#define MOERT_ABI_ARG(kind, ctype, name) ctype name
#define MOERT_ABI_FUNCTION(name, result_kind, result_ctype, args)                   \
  MOERT_GPU_EXPORT result_ctype name args;
#include "moe_runtime/moert_abi.def"

/* ---- Collectives of expert parallelism (NCCL; lib/Collectives.cpp) ----
 * One communicator per (grid, axis): `grid` is the grid's index in the
 * artifact's "grids". Rank 0 makes a unique id (MOERT_GPU_COMM_ID_BYTES
 * bytes), every rank receives it (moe-runner --ranks passes it through its
 * shared-memory communicator) and calls moert_gpu_comm_init with it on its
 * own device. The collectives run on `stream` (device pointers, counts in
 * device memory):
 *   moert_gpu_all_to_all: the ragged all-to-all with P·C chunked counts of
 *     moert_coll_all_to_all (moe_runtime.h), by one of two exchanges:
 *     - device: kernels move the counts and rows through a symmetric NCCL
 *       window (NCCL's device API: every rank reaches the others by
 *       load/store, NVLink or P2P); no host wait, so a CUDA graph can
 *       capture it. Every rank passes the same chunks_per_rank, recv_rows
 *       and row_bytes (a mismatch stops the kernels with an error). The
 *       window is allocated and grown by a plain call (collectively, all
 *       ranks at the same call), not inside a capture. A wait longer than
 *       MOE_COMM_TIMEOUT_S, or counts that do not fit, stop the kernel (the
 *       stream fails; the failure message says which rank and why);
 *     - host-counts: the counts are gathered and copied to the host (the
 *       call waits for `stream` up to there, at most MOE_COMM_TIMEOUT_S
 *       seconds), then grouped ncclSend/ncclRecv.
 *     MOE_EP_EXCHANGE=device|host-counts|auto (default auto: device where
 *     built and reachable, else host-counts) or moert_gpu_comm_set_exchange
 *     picks one per communicator; moert_gpu_comm_exchange says which;
 *   moert_gpu_all_reduce: ncclAllReduce sum in place (dtype codes as
 *     moert_dtype: 0 f64, 1 f32, 7 i64, 8 i32).
 * 0 on success; -1 with the failing call (CUDA/NCCL function and status) in
 * moert_gpu_comm_last_error(). A library built without NCCL fails every one
 * with "built without NCCL". moert_gpu_comm_abort_all() aborts every
 * communicator (ncclCommAbort). The moert_entry_coll_* twins (moert_coll_gpu_abi.def)
 * run on the runtime stream; a failure prints
 *   moe_runtime_gpu: moert_entry_coll_<name>: <message>
 * aborts every communicator and exits the process with status 1. */
#define MOERT_GPU_COMM_ID_BYTES 128
MOERT_GPU_EXPORT int moert_gpu_comm_unique_id(void *id);
/* 1 when the library was built with NCCL, else 0. */
MOERT_GPU_EXPORT int moert_gpu_comm_has_nccl(void);

/* The host-staged transport: instead of NCCL, (grid, axis) uses a host
 * communicator the caller registers (moe-runner: libmoe_runtime's
 * shared-memory communicator). Its collectives take host memory and return 0,
 * or -1 with a message from last_error(ctx); abort(ctx, why) makes every
 * rank's collectives fail (the host communicator's timeouts bound every
 * wait). moert_gpu_all_to_all and moert_gpu_all_reduce on such an axis copy
 * their device buffers to pinned host memory on `stream`, wait for it, run
 * the host collective, and copy the results back on `stream`: a host
 * synchronization per collective, so this transport is for P ranks sharing
 * one GPU (NCCL refuses two ranks on one device) and for libraries built
 * without NCCL; NCCL stays the transport for one GPU per rank. The table
 * must outlive the communicator; moert_gpu_comm_abort_all aborts it. */
typedef struct moert_gpu_host_comm {
  void *ctx;
  int rank;
  int size;
  int (*all_to_all)(void *ctx, const void *send, const int32_t *send_sizes, int64_t chunks_per_rank,
                    int64_t send_rows, void *recv, int32_t *recv_sizes, int64_t recv_rows,
                    int64_t row_bytes);
  int (*all_reduce)(void *ctx, void *data, int64_t count, int32_t dtype_code);
  void (*abort)(void *ctx, const char *why);
  const char *(*last_error)(void *ctx);
} moert_gpu_host_comm;
MOERT_GPU_EXPORT int moert_gpu_comm_init_host(int64_t grid, int64_t axis,
                                              const moert_gpu_host_comm *comm);
MOERT_GPU_EXPORT int moert_gpu_comm_init(int64_t grid, int64_t axis, const void *id, int rank,
                                         int nranks);
MOERT_GPU_EXPORT void moert_gpu_comm_abort_all(void);
MOERT_GPU_EXPORT const char *moert_gpu_comm_last_error(void);
/* The all-to-all exchange of (grid, axis): mode "device", "host-counts" or
 * "auto" (before its first all-to-all; -1 on an unknown mode or an
 * unavailable device path). moert_gpu_comm_exchange: the mode in use,
 * "unset" before the first all-to-all, NULL without such a communicator. */
MOERT_GPU_EXPORT int moert_gpu_comm_set_exchange(int64_t grid, int64_t axis, const char *mode);
MOERT_GPU_EXPORT const char *moert_gpu_comm_exchange(int64_t grid, int64_t axis);
/* What stopped the device exchange's kernels on this rank (a timeout waiting
 * for a named rank, counts that do not fit, ranks that disagree on shapes),
 * described; "" when nothing did. After such a stop the stream has failed
 * (the kernel trapped): the runtime's own failure reports append this. */
MOERT_GPU_EXPORT const char *moert_gpu_comm_device_fault(void);
MOERT_GPU_EXPORT int moert_gpu_all_to_all(int64_t grid, int64_t axis, const void *send,
                                          const int32_t *send_sizes_device, int64_t chunks_per_rank,
                                          int64_t send_rows, void *recv, int32_t *recv_sizes_device,
                                          int64_t recv_rows, int64_t row_bytes, void *stream);
MOERT_GPU_EXPORT int moert_gpu_all_reduce(int64_t grid, int64_t axis, void *data, int64_t count,
                                          int32_t dtype_code, void *stream);
#define MOERT_ABI_ARG(kind, ctype, name) ctype name
#define MOERT_ABI_FUNCTION(name, result_kind, result_ctype, args)                                  \
  MOERT_GPU_EXPORT result_ctype name args;
#include "moe_runtime/moert_coll_gpu_abi.def"

/* Kernel profile. Between start and stop, every kernel launched through
 * mgpuLaunchKernel and every moert_entry_* call is timed with CUDA events on
 * its stream (which adds a little host work per launch; off by default, and
 * then free). stop() waits for the timed work and writes one row per name,
 * in the order of first launch: the kernel's symbol, or
 * "moert_entry_<name> [shape]" for a runtime call. It returns the number of
 * rows (which may exceed `capacity`; only `capacity` are written) or -1 on
 * failure (moert_gpu_last_error()). stop() again returns the same rows (call
 * it with capacity 0 to size the array); the names stay valid until the next
 * start(), which discards the earlier profile. */
typedef struct {
  const char *name;
  int64_t launches;
  double total_ms;
} moert_gpu_profile_row;
MOERT_GPU_EXPORT void moert_gpu_profile_start(void);
MOERT_GPU_EXPORT int64_t moert_gpu_profile_stop(moert_gpu_profile_row *rows,
                                                int64_t capacity);

/* CUDA graphs of compiled calls. capture_begin() starts a stream capture on
 * the runtime stream (thread-local mode); every launch and moert_* call the
 * compiled code makes until capture_end() is recorded, not run. A call that
 * waits for the device (a grouped GEMM's host copy of the group sizes, a
 * synchronous copy) fails with the CUDA error naming it and invalidates the
 * capture; the end-of-call mgpuStreamSynchronize that gpu-to-llvm emits is
 * skipped while capturing (the caller waits for the replay instead).
 * capture_end() ends the capture and instantiates the graph into *exec
 * (NULL on failure); graph_launch() replays it on the runtime stream. All
 * return 0 or -1 (moert_gpu_last_error(), and the sticky error). */
MOERT_GPU_EXPORT int moert_gpu_capture_begin(void);
MOERT_GPU_EXPORT int moert_gpu_capture_end(void **exec);
MOERT_GPU_EXPORT int moert_gpu_graph_launch(void *exec);
MOERT_GPU_EXPORT void moert_gpu_graph_destroy(void *exec);

/* Frees the cached cuBLASLt handles, descriptors, workspaces and pinned
 * buffers (e.g. before cudaDeviceReset). Safe to call at any time when no
 * other thread is inside a moert_gpu call. */
MOERT_GPU_EXPORT void moert_gpu_release_caches(void);

#ifdef __cplusplus
}
#endif

#endif /* MOE_RUNTIME_MOE_RUNTIME_GPU_H */
