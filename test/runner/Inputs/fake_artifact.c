/* A hand-written "compiled artifact" for the moe-runner tests: the entry
 * points described by fake_artifact.json, each `void sym(void **args)` with
 * args in the metadata's order. Built by runtime/CMakeLists.txt as target
 * moe-runner-test-artifact into <build>/test/runner/fake_artifact.so. */
#include <stdint.h>
#include <string.h>

#include "moe_runtime/moe_runtime.h"

#define EXPORT __attribute__((visibility("default")))

static float bf16_to_f32(uint16_t b) {
  uint32_t u = (uint32_t)b << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* float -> bf16, round to nearest even (finite inputs). */
static uint16_t f32_to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

/* axpy: out[4] = 2 * x[4] + y[4], f32. */
EXPORT void axpy_packed(void **args) {
  const float *x = (const float *)args[0];
  const float *y = (const float *)args[1];
  float *out = (float *)args[2];
  for (int i = 0; i < 4; ++i)
    out[i] = 2.0f * x[i] + y[i];
}

/* axpy_bf16: out[2x3] = bf16(2 * x + y) computed in f32; total = sum(out) in
 * f32 (a scalar output). */
EXPORT void axpy_bf16_packed(void **args) {
  const uint16_t *x = (const uint16_t *)args[0];
  const uint16_t *y = (const uint16_t *)args[1];
  uint16_t *out = (uint16_t *)args[2];
  float *total = (float *)args[3];
  float acc = 0.0f;
  for (int i = 0; i < 6; ++i) {
    out[i] = f32_to_bf16(2.0f * bf16_to_f32(x[i]) + bf16_to_f32(y[i]));
    acc += bf16_to_f32(out[i]);
  }
  *total = acc;
}

/* gather: out[i] = mask[i] ? table[idx[i]] : 0 for i < 3, with table[5] f32,
 * idx[3] i32, mask[3] i1; valid[i] (i1) = idx[i] in range; count (i64
 * scalar) = number of valid indices. Out-of-range indices read nothing. */
EXPORT void gather_packed(void **args) {
  const float *table = (const float *)args[0];
  const int32_t *idx = (const int32_t *)args[1];
  const uint8_t *mask = (const uint8_t *)args[2];
  float *out = (float *)args[3];
  uint8_t *valid = (uint8_t *)args[4];
  int64_t *count = (int64_t *)args[5];
  for (int i = 0; i < 3; ++i) {
    int ok = idx[i] >= 0 && idx[i] < 5;
    valid[i] = (uint8_t)ok;
    out[i] = (ok && mask[i]) ? table[idx[i]] : 0.0f;
    *count += ok;
  }
}

/* linear: out[2x4] = x[2x3] @ w[3x4], f32 (w is a rank-2 weight). */
EXPORT void linear_packed(void **args) {
  const float *x = (const float *)args[0];
  const float *w = (const float *)args[1];
  float *out = (float *)args[2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < 3; ++k)
        acc += x[i * 3 + k] * w[k * 4 + j];
      out[i * 4 + j] = acc;
    }
}

/* abi: version (i32 scalar) = moert_abi_version(), resolved from the loading
 * moe-runner, which exports the libmoe_runtime C ABI. */
EXPORT void abi_packed(void **args) {
  int32_t *version = (int32_t *)args[0];
  *version = moert_abi_version();
}

/* ramp: out[i] = (i mod 7) - 3 for i < 4200000 (f32, 16.8 MB): an output
 * past one summary chunk (2^20 elements) and one hash block (16 MiB). */
EXPORT void ramp_packed(void **args) {
  float *out = (float *)args[0];
  for (int32_t i = 0; i < 4200000; ++i)
    out[i] = (float)(i % 7) - 3.0f;
}
