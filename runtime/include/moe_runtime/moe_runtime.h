/*===- moe_runtime.h - libmoe_runtime C ABI -------------------------*- C -*-===
 *
 * The plain C interface of libmoe_runtime: what compiled artifacts and
 * non-C++ hosts may call. No MLIR, no LLVM. It has the CPU parts:
 * element-type conversion, the reproducible random-input scheme, .npy I/O,
 * artifact loading and timing. The GPU parts are libmoe_runtime_gpu's
 * (runtime/gpu): the mgpu* calls of MLIR's gpu-to-llvm (moe_runtime_mgpu.h)
 * and the cuBLASLt GEMMs compiled code calls (moe_runtime_gpu.h, declared
 * from moert_abi.def). The collectives of expert parallelism on the CPU
 * (moert_coll_*, over the communicators of Collectives.h) are declared below
 * from moert_coll_abi.def; the GPU's are libmoe_runtime_gpu's.
 *
 * Conventions: functions that can fail return 0 on success and -1 on failure
 * (or NULL), and leave a message for moert_last_error() (per thread).
 *
 *===----------------------------------------------------------------------===*/
#ifndef MOE_RUNTIME_MOE_RUNTIME_H
#define MOE_RUNTIME_MOE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define MOERT_EXPORT __attribute__((visibility("default")))
#else
#define MOERT_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Incremented whenever a declaration in this file changes incompatibly. */
#define MOERT_ABI_VERSION 1
MOERT_EXPORT int moert_abi_version(void);

/* Message of the last failed call on this thread ("" if none). */
MOERT_EXPORT const char *moert_last_error(void);

/* ---- Element types (the artifact metadata's "dtype" names) ------------- */
typedef enum moert_dtype {
  MOERT_F64 = 0,
  MOERT_F32 = 1,
  MOERT_F16 = 2,
  MOERT_BF16 = 3,
  MOERT_F8E4M3 = 4, /* OCP E4M3FN: no infinities, max 448 */
  MOERT_F8E5M2 = 5,
  MOERT_F8E8M0 = 6, /* OCP E8M0: unsigned power of two, bias 127, 0xFF NaN */
  MOERT_I64 = 7,
  MOERT_I32 = 8,
  MOERT_I8 = 9,
  MOERT_I1 = 10 /* one byte, 0 or 1 */
} moert_dtype;

MOERT_EXPORT size_t moert_dtype_size(moert_dtype t);
MOERT_EXPORT const char *moert_dtype_name(moert_dtype t); /* NULL if invalid */
MOERT_EXPORT int moert_dtype_from_name(const char *name, moert_dtype *out);

/* Rounding from double: bf16/f16 round-to-nearest-even (overflow -> inf);
 * fp8 e4m3/e5m2 round-to-nearest-even saturating to the largest finite
 * value; e8m0 nearest power of two (ties up), clamped. Decoding is exact. */
MOERT_EXPORT uint16_t moert_f64_to_bf16(double v);
MOERT_EXPORT uint16_t moert_f64_to_f16(double v);
MOERT_EXPORT uint8_t moert_f64_to_f8e4m3(double v);
MOERT_EXPORT uint8_t moert_f64_to_f8e5m2(double v);
MOERT_EXPORT uint8_t moert_f64_to_f8e8m0(double v);
MOERT_EXPORT double moert_bf16_to_f64(uint16_t bits);
MOERT_EXPORT double moert_f16_to_f64(uint16_t bits);
MOERT_EXPORT double moert_f8e4m3_to_f64(uint8_t bits);
MOERT_EXPORT double moert_f8e5m2_to_f64(uint8_t bits);
MOERT_EXPORT double moert_f8e8m0_to_f64(uint8_t bits);

/* ---- Reproducible random inputs (runtime/README.md, "Random inputs") --- */
MOERT_EXPORT uint64_t moert_splitmix64(uint64_t x);
MOERT_EXPORT uint64_t moert_fnv1a64(const void *data, size_t size);
/* splitmix64(seed ^ fnv1a64(name)) */
MOERT_EXPORT uint64_t moert_stream_seed(uint64_t seed, const char *name);
/* Fill `count` elements of float type `t` with N(0, stddev^2) draws. */
MOERT_EXPORT int moert_fill_normal(void *dst, moert_dtype t, size_t count, double stddev,
                                   uint64_t stream_seed);

/* ---- .npy files ------------------------------------------------------- */
/* Read `path` into `dst` (rank/shape elements of type t), converting from the
 * file's element type; the shape must match exactly. */
MOERT_EXPORT int moert_npy_read(const char *path, moert_dtype t, const int64_t *shape,
                                int rank, void *dst);
/* Write atomically; bf16/f16/fp8 are widened to float32 exactly. */
MOERT_EXPORT int moert_npy_write(const char *path, moert_dtype t, const int64_t *shape,
                                 int rank, const void *data);

/* ---- Artifacts (<stem>.so + <stem>.json) ------------------------------- */
typedef struct moert_artifact moert_artifact;
typedef void (*moert_entry_fn)(void **args);

/* `path`: the stem, the .so or the .json. Loads the metadata and dlopen()s the
 * shared object (targets other than "cpu" are refused here). */
MOERT_EXPORT moert_artifact *moert_artifact_open(const char *path);
MOERT_EXPORT void moert_artifact_close(moert_artifact *a);
MOERT_EXPORT const char *moert_artifact_target(const moert_artifact *a);
MOERT_EXPORT int moert_artifact_num_entries(const moert_artifact *a);
/* Index of the entry called `name`, or -1. */
MOERT_EXPORT int moert_artifact_find_entry(const moert_artifact *a, const char *name);
MOERT_EXPORT const char *moert_artifact_entry_name(const moert_artifact *a, int entry);
MOERT_EXPORT uint64_t moert_artifact_entry_flops(const moert_artifact *a, int entry);
MOERT_EXPORT int moert_artifact_num_args(const moert_artifact *a, int entry);

typedef struct moert_arg_info {
  const char *name;
  const char *role; /* "input", "weight", "output", ... */
  int is_input;     /* io "in" (1) or "out" (0) */
  moert_dtype dtype;
  int rank;
  const int64_t *shape; /* rank entries, valid while the artifact is open */
  size_t num_elements;
  size_t num_bytes;
} moert_arg_info;
MOERT_EXPORT int moert_artifact_arg_info(const moert_artifact *a, int entry, int arg,
                                         moert_arg_info *out);
/* The entry's function (dlsym), or NULL. */
MOERT_EXPORT moert_entry_fn moert_artifact_entry_function(moert_artifact *a, int entry);

/* ---- Collectives (moert_coll_abi.def; Collectives.h) ------------------ */
#define MOERT_ABI_ARG(kind, ctype, name) ctype name
#define MOERT_ABI_FUNCTION(name, result_kind, result_ctype, args) \
  MOERT_EXPORT result_ctype name args;
#include "moe_runtime/moert_coll_abi.def"

/* ---- Timing ----------------------------------------------------------- */
/* Monotonic clock (steady_clock), nanoseconds. */
MOERT_EXPORT uint64_t moert_now_ns(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MOE_RUNTIME_MOE_RUNTIME_H */
