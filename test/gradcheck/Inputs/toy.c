/* A hand-written "compiled artifact" with VJP entries, as moe-generate-vjp
 * will make them, for the moe-gradcheck and moe-runner tests. Built by
 * test/gradcheck/CMakeLists.txt (target moe-gradcheck-toy-artifact) into
 * <build>/test/gradcheck/toy.so; toy.json describes the entries.
 *
 * f(x[T,H], w[H]) -> y[T],  y_i = sum_j tanh(x_ij * w_j)      (f32)
 * f_fwd: same, plus residual res0 = t = tanh(x * w) [T,H]
 * f_bwd: (res0, x, w, d_y[T]) -> d_x[T,H], d_w[H]: x and w are f's own
 *        arguments, which the backward takes directly (as moe-generate-vjp
 *        makes it: an argument of f is never a residual);
 *        s_ij = d_y_i * (1 - t_ij^2);  d_x_ij = s_ij * w_j;  d_w_j = sum_i s_ij * x_ij
 *
 * g, g_fwd: f and f_fwd again (same symbols); g_bwd: f_bwd with d_w WRONG by
 * a factor 1.5 (d_x is right), for tests that the checker fails.
 * nonfinite_bwd: f_bwd with d_w[H-1] = NaN.
 *
 * masked(x[T,H], w[H], mask[H] i1) -> y[T] f32, npos[] i32:
 *        y_i = sum_j mask_j * tanh(x_ij * w_j);  npos = #{i : y_i > 0}
 * masked_fwd: same, plus res0 = t
 * masked_bwd: (res0, x, w, mask, d_y) -> d_x, d_w (zero in masked columns);
 *        npos is an integer output: no cotangent. mask gets no gradient.
 *
 * copied, copied_fwd, copied_bwd: f with x and w passed as residuals
 * instead (copied_fwd returns res0 = t, res1 = a copy of x, res2 = a copy of
 * w; copied_bwd is f_bwd on (res0, res1, res2, d_y)), as moe-generate-vjp
 * made them before: the residual contract allows any residuals, and the
 * tests of residuals that do not chain need several. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

enum { T = 2, H = 3 };

static void forward(const float *x, const float *w, const uint8_t *mask, float *y,
                    float *t) {
  for (int i = 0; i < T; ++i) {
    float acc = 0.0f;
    for (int j = 0; j < H; ++j) {
      float tij = tanhf(x[i * H + j] * w[j]);
      if (t)
        t[i * H + j] = tij;
      if (!mask || mask[j])
        acc += tij;
    }
    y[i] = acc;
  }
}

static void backward(const float *t, const float *x, const float *w, const uint8_t *mask,
                     const float *dy, float *dx, float *dw) {
  for (int j = 0; j < H; ++j)
    dw[j] = 0.0f;
  for (int i = 0; i < T; ++i)
    for (int j = 0; j < H; ++j) {
      float tij = t[i * H + j];
      float s = (!mask || mask[j]) ? dy[i] * (1.0f - tij * tij) : 0.0f;
      dx[i * H + j] = s * w[j];
      dw[j] += s * x[i * H + j];
    }
}

/* f: x, w -> y */
EXPORT void f_packed(void **args) {
  forward((const float *)args[0], (const float *)args[1], NULL, (float *)args[2], NULL);
}

/* f_fwd: x, w -> y, res0 (t) */
EXPORT void f_fwd_packed(void **args) {
  forward((const float *)args[0], (const float *)args[1], NULL, (float *)args[2],
          (float *)args[3]);
}

/* copied_fwd: x, w -> y, res0 (t), res1 (a copy of x), res2 (a copy of w) */
EXPORT void copied_fwd_packed(void **args) {
  const float *x = (const float *)args[0];
  const float *w = (const float *)args[1];
  forward(x, w, NULL, (float *)args[2], (float *)args[3]);
  memcpy(args[4], x, sizeof(float) * T * H);
  memcpy(args[5], w, sizeof(float) * H);
}

/* f_bwd: res0 (t), x, w, d_y -> d_x, d_w (copied_bwd: res0, res1 = x,
 * res2 = w, d_y: the same layout) */
EXPORT void f_bwd_packed(void **args) {
  backward((const float *)args[0], (const float *)args[1], (const float *)args[2], NULL,
           (const float *)args[3], (float *)args[4], (float *)args[5]);
}

/* g_bwd: f_bwd with d_w off by a factor 1.5 (deliberately wrong). */
EXPORT void g_bwd_packed(void **args) {
  f_bwd_packed(args);
  float *dw = (float *)args[5];
  for (int j = 0; j < H; ++j)
    dw[j] *= 1.5f;
}

/* nonfinite_bwd: f_bwd with a NaN in d_w. */
EXPORT void nonfinite_bwd_packed(void **args) {
  f_bwd_packed(args);
  ((float *)args[5])[H - 1] = NAN;
}

static int32_t count_positive(const float *y) {
  int32_t n = 0;
  for (int i = 0; i < T; ++i)
    n += y[i] > 0.0f;
  return n;
}

/* masked: x, w, mask -> y, npos */
EXPORT void masked_packed(void **args) {
  float *y = (float *)args[3];
  forward((const float *)args[0], (const float *)args[1], (const uint8_t *)args[2], y, NULL);
  *(int32_t *)args[4] = count_positive(y);
}

/* masked_fwd: x, w, mask -> y, npos, res0 (t) */
EXPORT void masked_fwd_packed(void **args) {
  float *y = (float *)args[3];
  forward((const float *)args[0], (const float *)args[1], (const uint8_t *)args[2], y,
          (float *)args[5]);
  *(int32_t *)args[4] = count_positive(y);
}

/* masked_bwd: res0 (t), x, w, mask, d_y -> d_x, d_w */
EXPORT void masked_bwd_packed(void **args) {
  backward((const float *)args[0], (const float *)args[1], (const float *)args[2],
           (const uint8_t *)args[3], (const float *)args[4], (float *)args[5],
           (float *)args[6]);
}
