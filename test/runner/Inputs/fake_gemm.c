/* A hand-written artifact pair for the GPU runner test (gpu-run.test):
 * entry gemm   c[64,16] f32 = grouped a[64,32] bf16 x b[4,32,16] bf16 by sizes[4] i32
 * entry wgrad  db[4,32,16] f32 = grouped a^T x dc[64,16] bf16
 * entry bad    calls the GPU runtime with an invalid layout (GPU build only)
 * Built twice by runtime/CMakeLists.txt: fake_gemm_cpu.so (plain loops) and,
 * with -DFAKE_GEMM_GPU, fake_gemm_gpu.so, whose entries take device pointers
 * and call moert_entry_* (left undefined: libmoe_runtime_gpu provides them). */
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))
enum { R = 64, K = 32, N = 16, G = 4 };

#ifdef FAKE_GEMM_GPU
#include "moe_runtime/moe_runtime_gpu.h"

EXPORT void gemm_packed(void **args) {
  moert_entry_grouped_gemm_bf16(args[0], args[1], (const int32_t *)args[2], G, K, N,
                                MOERT_WEIGHT_KN, args[3], MOERT_GPU_OUT_F32, R);
}
EXPORT void wgrad_packed(void **args) {
  moert_entry_grouped_weight_grad_bf16(args[0], args[1], (const int32_t *)args[2], G, K, N,
                                       MOERT_WEIGHT_KN, args[3], MOERT_GPU_OUT_F32, R);
}
/* 7: no weight layout. */
EXPORT void bad_packed(void **args) {
  moert_entry_grouped_gemm_bf16(args[0], args[1], (const int32_t *)args[2], G, K, N, 7, args[3],
                                MOERT_GPU_OUT_F32, R);
}
#else
static double bf(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

EXPORT void gemm_packed(void **args) {
  const uint16_t *a = args[0], *b = args[1];
  const int32_t *sizes = args[2];
  float *c = args[3];
  int64_t off = 0;
  for (int g = 0; g < G; ++g) {
    for (int64_t r = off; r < off + sizes[g] && r < R; ++r)
      for (int j = 0; j < N; ++j) {
        double s = 0;
        for (int k = 0; k < K; ++k)
          s += bf(a[r * K + k]) * bf(b[(g * K + k) * N + j]);
        c[r * N + j] = (float)s;
      }
    off += sizes[g];
  }
}
EXPORT void wgrad_packed(void **args) {
  const uint16_t *a = args[0], *dc = args[1];
  const int32_t *sizes = args[2];
  float *db = args[3];
  int64_t off = 0;
  for (int g = 0; g < G; ++g) {
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j) {
        double s = 0;
        for (int64_t r = off; r < off + sizes[g] && r < R; ++r)
          s += bf(a[r * K + k]) * bf(dc[r * N + j]);
        db[(g * K + k) * N + j] = (float)s;
      }
    off += sizes[g];
  }
}
EXPORT void bad_packed(void **args) { (void)args; }
#endif
