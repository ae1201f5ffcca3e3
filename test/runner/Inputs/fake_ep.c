/* A hand-written expert-parallel "artifact" for moe-runner --ranks: the
 * entries of fake_ep_<P>.json, which call the collectives over the ranks
 * (moert_coll_*, provided by the loading moe-runner), and, built with
 * FAKE_EP_ONE_RANK, the one-rank reference fake_ep_<P>_ref.json computing the
 * same functions on the whole batch directly. P = FAKE_EP_RANKS, each rank
 * holds TL = 3 rows of H = 2 (T = P·TL rows in all).
 *
 *   layer(x [T, H] split 0, w [H]) -> out [T, H] split 0, total [] , colsum [H] partial sum
 *     out[g] = x[g] · w · (g mod P + 1): row g goes to rank g mod P (the
 *       "expert" owner), which scales it by w and (its rank + 1) and sends
 *       it back: two ragged all-to-alls, uneven counts;
 *     total = Σ x (all-reduce); colsum[h] = Σ_g x[g, h] (each rank its rows).
 *   layer_fwd(x, w) -> y = x · w (split 0), res = x (residual, rank-local)
 *   layer_bwd(w, res, d_y split 0) -> d_x = d_y · w (split 0),
 *     d_w[h] = Σ_g d_y[g, h] · res[g, h] (partial sum).
 *   exchange(x split 0, sizes [P] i32) -> back [T, H] split 0, first [H]:
 *     built with FAKE_EP_GPU, the GPU artifact of scripts/gpu-ep.sh (device
 *     pointers, moert_entry_coll_* over NCCL): the rows go out by `sizes`
 *     (the same on every rank; must sum to TL) and come back by the counts
 *     received, so back = x; first[h] = Σ_ranks x[rank's row 0, h] (an
 *     all-reduce of each rank's first row). The one-rank build computes both
 *     directly.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "moe_runtime/moe_runtime.h"
#ifdef FAKE_EP_GPU
#include <stdbool.h>

#include "moe_runtime/moe_runtime_gpu.h"
#include "moe_runtime/moe_runtime_mgpu.h"
#endif

#define EXPORT __attribute__((visibility("default")))

#define P FAKE_EP_RANKS
#define TL 3
#define H 2
#ifdef FAKE_EP_ONE_RANK
#define ROWS (P * TL)
#else
#define ROWS TL
#endif

#if !defined(FAKE_EP_ONE_RANK) && !defined(FAKE_EP_GPU)
/* This process's rank (the runner sets RANK as torchrun does). */
static int my_rank(void) {
  const char *r = getenv("RANK");
  return r ? atoi(r) : 0;
}
#endif

#ifndef FAKE_EP_GPU
EXPORT void layer_packed(void **args) {
  const float *x = (const float *)args[0];
  const float *w = (const float *)args[1];
  float *out = (float *)args[2];
  float *total = (float *)args[3];
  float *colsum = (float *)args[4];
  float sum = 0.0f;
  for (int i = 0; i < ROWS; ++i)
    for (int h = 0; h < H; ++h) {
      sum += x[i * H + h];
      colsum[h] += x[i * H + h];
    }
#ifdef FAKE_EP_ONE_RANK
  for (int g = 0; g < ROWS; ++g)
    for (int h = 0; h < H; ++h)
      out[g * H + h] = x[g * H + h] * w[h] * (float)(g % P + 1);
  *total = sum;
#else
  /* Rows in destination order, then the exchange. */
  const int me = my_rank();
  int32_t send_sizes[P] = {0}, recv_sizes[P], back_sizes[P];
  int order[TL], n = 0;
  float send[TL * H], recv[P * TL * H], back[TL * H];
  for (int d = 0; d < P; ++d)
    for (int i = 0; i < TL; ++i)
      if ((me * TL + i) % P == d) {
        order[n] = i;
        memcpy(&send[n * H], &x[i * H], sizeof(float) * H);
        ++send_sizes[d];
        ++n;
      }
  moert_coll_all_to_all(0, 0, send, send_sizes, 1, TL, recv, recv_sizes, P * TL,
                        sizeof(float) * H);
  int received = 0;
  for (int s = 0; s < P; ++s)
    received += recv_sizes[s];
  for (int r = 0; r < received; ++r)
    for (int h = 0; h < H; ++h)
      recv[r * H + h] *= w[h] * (float)(me + 1);
  moert_coll_all_to_all(0, 0, recv, recv_sizes, 1, P * TL, back, back_sizes, TL,
                        sizeof(float) * H);
  for (int j = 0; j < TL; ++j)
    memcpy(&out[order[j] * H], &back[j * H], sizeof(float) * H);
  moert_coll_all_reduce(0, 0, &sum, 1, MOERT_F32);
  *total = sum;
#endif
}

EXPORT void layer_fwd_packed(void **args) {
  const float *x = (const float *)args[0];
  const float *w = (const float *)args[1];
  float *y = (float *)args[2];
  float *res = (float *)args[3];
  for (int i = 0; i < ROWS; ++i)
    for (int h = 0; h < H; ++h) {
      y[i * H + h] = x[i * H + h] * w[h];
      res[i * H + h] = x[i * H + h];
    }
}

EXPORT void layer_bwd_packed(void **args) {
  const float *w = (const float *)args[0];
  const float *res = (const float *)args[1];
  const float *d_y = (const float *)args[2];
  float *d_x = (float *)args[3];
  float *d_w = (float *)args[4];
  for (int i = 0; i < ROWS; ++i)
    for (int h = 0; h < H; ++h) {
      d_x[i * H + h] = d_y[i * H + h] * w[h];
      d_w[h] += d_y[i * H + h] * res[i * H + h];
    }
}
#endif

#ifdef FAKE_EP_ONE_RANK
EXPORT void exchange_packed(void **args) {
  const float *x = (const float *)args[0];
  float *back = (float *)args[2];
  float *first = (float *)args[3];
  memcpy(back, x, sizeof(float) * ROWS * H);
  for (int r = 0; r < P; ++r)
    for (int h = 0; h < H; ++h)
      first[h] += x[r * TL * H + h];
}
#endif

#ifdef FAKE_EP_GPU
EXPORT void exchange_packed(void **args) {
  const float *x = (const float *)args[0];
  const int32_t *sizes = (const int32_t *)args[1];
  float *back = (float *)args[2];
  float *first = (float *)args[3];
  void *stream = moert_gpu_stream();
  float *recv = (float *)mgpuMemAlloc(sizeof(float) * P * TL * H, stream, false);
  int32_t *recv_sizes = (int32_t *)mgpuMemAlloc(sizeof(int32_t) * P, stream, false);
  int32_t *back_sizes = (int32_t *)mgpuMemAlloc(sizeof(int32_t) * P, stream, false);
  moert_entry_coll_all_to_all(0, 0, x, sizes, 1, TL, recv, recv_sizes, P * TL,
                              sizeof(float) * H);
  moert_entry_coll_all_to_all(0, 0, recv, recv_sizes, 1, P * TL, back, back_sizes, TL,
                              sizeof(float) * H);
  mgpuMemcpy(first, (void *)x, sizeof(float) * H, stream);
  moert_entry_coll_all_reduce(0, 0, first, H, MOERT_F32);
  mgpuMemFree(recv, stream);
  mgpuMemFree(recv_sizes, stream);
  mgpuMemFree(back_sizes, stream);
}
#endif

#if !defined(FAKE_EP_ONE_RANK) && !defined(FAKE_EP_GPU)
#include <unistd.h>

/* fail_rank1(x) -> total: rank 1 exits with status 3 before the all-reduce
 * the others wait in (they must fail at once, not hang). */
EXPORT void fail_rank1_packed(void **args) {
  float *total = (float *)args[1];
  if (my_rank() == 1)
    exit(3);
  *total = 1.0f;
  moert_coll_all_reduce(0, 0, total, 1, MOERT_F32);
}

/* hang_rank1(x) -> total: rank 1 never arrives at the all-reduce (the others
 * time out; rank 1 is stopped). */
EXPORT void hang_rank1_packed(void **args) {
  float *total = (float *)args[1];
  if (my_rank() == 1)
    for (;;)
      sleep(1000);
  *total = 1.0f;
  moert_coll_all_reduce(0, 0, total, 1, MOERT_F32);
}

/* bad_reduce(x) -> total: an all-reduce of an element type the collectives
 * do not sum (bf16) on every rank. */
EXPORT void bad_reduce_packed(void **args) {
  float *total = (float *)args[1];
  moert_coll_all_reduce(0, 0, total, 1, MOERT_BF16);
}
#endif
