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
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "moe_runtime/moe_runtime.h"

#define EXPORT __attribute__((visibility("default")))

#define P FAKE_EP_RANKS
#define TL 3
#define H 2
#ifdef FAKE_EP_ONE_RANK
#define ROWS (P * TL)
#else
#define ROWS TL
#endif

#ifndef FAKE_EP_ONE_RANK
/* This process's rank (the runner sets RANK as torchrun does). */
static int my_rank(void) {
  const char *r = getenv("RANK");
  return r ? atoi(r) : 0;
}
#endif

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

#ifndef FAKE_EP_ONE_RANK
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
