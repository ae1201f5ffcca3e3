//===- grouped_gemm_test.cpp - moert_grouped_* against a CPU reference ----===//
//
// Checks moert_grouped_gemm_{bf16,f32} and moert_grouped_weight_grad_{bf16,f32}
// (and their *_host_sizes variants) on random bf16 and f32 operands against a
// double-precision CPU reference computed from the same inputs: both weight
// layouts, both output types (f32 only for f32 operands), empty groups (leading, trailing, consecutive), rows past the
// last group, equal-size runs (the strided-batched path), unaligned shapes,
// the argument errors; with the matmuls on the caller's stream and spread
// over auxiliary streams (MOERT_GPU_STREAMS=1 and 4); and the same through
// the moert_entry_* functions compiled code calls (runtime stream, sticky
// errors). Outputs are poisoned
// (all-ones bytes: NaN) first, so an element left unwritten fails.
//
// Pass: relative L2 error <= 1e-2 for bf16 outputs, <= 1e-3 for f32 outputs
// of bf16 operands, <= 1e-5 for f32 outputs of f32 operands (true fp32: TF32
// would be off by ~3e-4 there); tail rows and empty groups' gradients
// exactly zero. f32 operands write f32 only (a bf16 output is an error).
// Usage: moe-gpu-grouped-gemm-test [seed]   (prints "ALL PASSED" / "FAILED")
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/moe_runtime_gpu.h"
#include "moe_runtime/moe_runtime_mgpu.h"

#include <cuda_runtime_api.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

int gFailures = 0;
int gChecks = 0;

#define CUDA_OR_DIE(call)                                                          \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      std::printf("FAIL: %s: %s (%s)\n", #call, cudaGetErrorString(e_),             \
                  cudaGetErrorName(e_));                                           \
      std::exit(2);                                                                \
    }                                                                              \
  } while (0)

uint16_t toBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fc0;
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}
float fromBf16(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

struct DevBuf {
  void *p = nullptr;
  size_t bytes = 0;
  explicit DevBuf(size_t n) : bytes(n) {
    CUDA_OR_DIE(cudaMalloc(&p, n ? n : 1));
  }
  ~DevBuf() { cudaFree(p); }
  DevBuf(const DevBuf &) = delete;
  DevBuf &operator=(const DevBuf &) = delete;
};

/// The functions under test for one operand element type (device pointers
/// passed as void *).
struct Api {
  const char *name; ///< "bf16" or "f32"
  size_t elt;       ///< operand element size in bytes
  int (*gemm)(const void *, const void *, const int32_t *, int64_t, int64_t, int64_t,
              int32_t, void *, int32_t, int64_t, void *);
  int (*gemmHostSizes)(const void *, const void *, const int32_t *, int64_t, int64_t,
                       int64_t, int32_t, void *, int32_t, int64_t, void *);
  int (*wgrad)(const void *, const void *, const int32_t *, int64_t, int64_t, int64_t,
               int32_t, void *, int32_t, int64_t, void *);
  int (*wgradHostSizes)(const void *, const void *, const int32_t *, int64_t, int64_t,
                        int64_t, int32_t, void *, int32_t, int64_t, void *);
  void (*entryGemm)(const void *, const void *, const int32_t *, int64_t, int64_t, int64_t,
                    int32_t, void *, int32_t, int64_t);
  void (*entryWgrad)(const void *, const void *, const int32_t *, int64_t, int64_t,
                     int64_t, int32_t, void *, int32_t, int64_t);
};

const float *f32(const void *p) { return static_cast<const float *>(p); }

const Api kBf16Api = {"bf16",
                      2,
                      moert_grouped_gemm_bf16,
                      moert_grouped_gemm_bf16_host_sizes,
                      moert_grouped_weight_grad_bf16,
                      moert_grouped_weight_grad_bf16_host_sizes,
                      moert_entry_grouped_gemm_bf16,
                      moert_entry_grouped_weight_grad_bf16};

const Api kF32Api = {
    "f32",
    4,
    [](const void *a, const void *b, const int32_t *s, int64_t g, int64_t k, int64_t n,
       int32_t l, void *c, int32_t dt, int64_t r, void *st) {
      return moert_grouped_gemm_f32(f32(a), f32(b), s, g, k, n, l, c, dt, r, st);
    },
    [](const void *a, const void *b, const int32_t *s, int64_t g, int64_t k, int64_t n,
       int32_t l, void *c, int32_t dt, int64_t r, void *st) {
      return moert_grouped_gemm_f32_host_sizes(f32(a), f32(b), s, g, k, n, l, c, dt, r, st);
    },
    [](const void *a, const void *dc, const int32_t *s, int64_t g, int64_t k, int64_t n,
       int32_t l, void *db, int32_t dt, int64_t r, void *st) {
      return moert_grouped_weight_grad_f32(f32(a), f32(dc), s, g, k, n, l, db, dt, r, st);
    },
    [](const void *a, const void *dc, const int32_t *s, int64_t g, int64_t k, int64_t n,
       int32_t l, void *db, int32_t dt, int64_t r, void *st) {
      return moert_grouped_weight_grad_f32_host_sizes(f32(a), f32(dc), s, g, k, n, l, db, dt,
                                                      r, st);
    },
    [](const void *a, const void *b, const int32_t *s, int64_t g, int64_t k, int64_t n,
       int32_t l, void *c, int32_t dt, int64_t r) {
      moert_entry_grouped_gemm_f32(f32(a), f32(b), s, g, k, n, l, c, dt, r);
    },
    [](const void *a, const void *dc, const int32_t *s, int64_t g, int64_t k, int64_t n,
       int32_t l, void *db, int32_t dt, int64_t r) {
      moert_entry_grouped_weight_grad_f32(f32(a), f32(dc), s, g, k, n, l, db, dt, r);
    }};

/// n random N(0, 1) operands of `api`'s element type as bytes, and their
/// values in `vals`. f32 values keep all 24 mantissa bits, so TF32's
/// rounding of them is exercised.
std::vector<unsigned char> randomOperands(std::mt19937_64 &rng, const Api &api, size_t n,
                                          std::vector<double> &vals) {
  std::normal_distribution<float> d(0.0f, 1.0f);
  std::vector<unsigned char> out(n * api.elt);
  vals.resize(n);
  for (size_t i = 0; i < n; ++i) {
    float f = d(rng);
    if (api.elt == 2) {
      uint16_t h = toBf16(f);
      std::memcpy(&out[i * 2], &h, 2);
      vals[i] = fromBf16(h);
    } else {
      std::memcpy(&out[i * 4], &f, 4);
      vals[i] = f;
    }
  }
  return out;
}

// Output read back as doubles; NaN for unwritten (poisoned) elements.
std::vector<double> readOut(const DevBuf &buf, size_t n, int dtype) {
  std::vector<double> r(n);
  if (dtype != MOERT_GPU_OUT_BF16) {
    std::vector<float> h(n);
    CUDA_OR_DIE(cudaMemcpy(h.data(), buf.p, n * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i)
      r[i] = h[i];
  } else {
    std::vector<uint16_t> h(n);
    CUDA_OR_DIE(cudaMemcpy(h.data(), buf.p, n * 2, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i)
      r[i] = fromBf16(h[i]);
  }
  return r;
}

struct Case {
  std::string name;
  std::vector<int32_t> sizes;
  int64_t K, N, rows;
};

void report(bool ok, const std::string &what, const std::string &detail) {
  ++gChecks;
  if (!ok)
    ++gFailures;
  std::printf("%s %s %s\n", ok ? "PASS" : "FAIL", what.c_str(), detail.c_str());
}

// Compares got against ref; `zeroMask[i]` elements must be exactly 0.
void compare(const std::string &what, const std::vector<double> &got,
             const std::vector<double> &ref, const std::vector<char> &mustBeZero,
             double tol) {
  double num = 0, den = 0;
  size_t nonfinite = 0, nonzero = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) {
      ++nonfinite;
      continue;
    }
    if (mustBeZero[i] && got[i] != 0.0)
      ++nonzero;
    double d = got[i] - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  double rel = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  bool ok = nonfinite == 0 && nonzero == 0 && rel <= tol;
  char detail[256];
  std::snprintf(detail, sizeof detail,
                "rel_l2=%.3e (tol %.0e) unwritten/nonfinite=%zu nonzero_where_zero=%zu",
                rel, tol, nonfinite, nonzero);
  report(ok, what, detail);
}

void runCase(std::mt19937_64 &rng, const Case &cs, const Api &api) {
  const int64_t G = (int64_t)cs.sizes.size(), K = cs.K, N = cs.N, R = cs.rows;
  std::vector<int64_t> off(G + 1, 0);
  for (int64_t g = 0; g < G; ++g)
    off[g + 1] = off[g] + cs.sizes[g];
  const int64_t total = off[G];

  std::vector<double> av, bv, dcv;
  auto ah = randomOperands(rng, api, size_t(R) * K, av);
  auto bh = randomOperands(rng, api, size_t(G) * K * N, bv); // interpreted per layout
  auto dch = randomOperands(rng, api, size_t(R) * N, dcv);
  DevBuf a(ah.size()), b(bh.size()), dc(dch.size()), sizes(G * 4);
  CUDA_OR_DIE(cudaMemcpy(a.p, ah.data(), ah.size(), cudaMemcpyHostToDevice));
  CUDA_OR_DIE(cudaMemcpy(b.p, bh.data(), bh.size(), cudaMemcpyHostToDevice));
  CUDA_OR_DIE(cudaMemcpy(dc.p, dch.data(), dch.size(), cudaMemcpyHostToDevice));
  if (G)
    CUDA_OR_DIE(cudaMemcpy(sizes.p, cs.sizes.data(), G * 4, cudaMemcpyHostToDevice));
  // The copies ran on the legacy stream; the calls below use a non-blocking one.
  CUDA_OR_DIE(cudaDeviceSynchronize());
  cudaStream_t stream;
  CUDA_OR_DIE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  for (int layout = 0; layout < 2; ++layout) {
    // Forward reference.
    std::vector<double> cref(size_t(R) * N, 0.0);
    std::vector<char> czero(size_t(R) * N, 0);
    for (int64_t g = 0; g < G; ++g)
      for (int64_t r = off[g]; r < off[g + 1]; ++r)
        for (int64_t j = 0; j < N; ++j) {
          double s = 0;
          for (int64_t k = 0; k < K; ++k) {
            double w = layout == 0 ? bv[(size_t(g) * K + k) * N + j]
                                   : bv[(size_t(g) * N + j) * K + k];
            s += av[size_t(r) * K + k] * w;
          }
          cref[size_t(r) * N + j] = s;
        }
    for (int64_t r = total; r < R; ++r)
      for (int64_t j = 0; j < N; ++j)
        czero[size_t(r) * N + j] = 1;
    // Weight-gradient reference: db[g] = A_g^T dC_g ([K,N] or its transpose).
    std::vector<double> dbref(size_t(G) * K * N, 0.0);
    std::vector<char> dbzero(size_t(G) * K * N, 0);
    for (int64_t g = 0; g < G; ++g) {
      for (int64_t k = 0; k < K; ++k)
        for (int64_t j = 0; j < N; ++j) {
          double s = 0;
          for (int64_t r = off[g]; r < off[g + 1]; ++r)
            s += av[size_t(r) * K + k] * dcv[size_t(r) * N + j];
          size_t idx = layout == 0 ? (size_t(g) * K + k) * N + j : (size_t(g) * N + j) * K + k;
          dbref[idx] = s;
          dbzero[idx] = cs.sizes[g] == 0;
        }
    }

    for (int dtype = 0; dtype < 3; ++dtype) {
      // f32 operands write f32 only (bf16 is an error, checked in
      // errorCases), in fp32 or with TF32 products; bf16 ones bf16 or f32.
      if (api.elt == 4 ? dtype == MOERT_GPU_OUT_BF16 : dtype == MOERT_GPU_OUT_F32_TF32)
        continue;
      const size_t elt = dtype == MOERT_GPU_OUT_BF16 ? 2 : 4;
      const double tol = dtype == MOERT_GPU_OUT_BF16       ? 1e-2
                         : dtype == MOERT_GPU_OUT_F32_TF32 ? 2e-3
                         : api.elt == 4                    ? 1e-5
                                                           : 1e-3;
      // 0: device sizes, 1: host sizes, 2: moert_entry_* (device sizes, the
      // runtime stream, failures sticky).
      for (int mode = 0; mode < 3; ++mode) {
        const int hostSizes = mode == 1;
        const bool entry = mode == 2;
        cudaStream_t st = entry ? (cudaStream_t)moert_gpu_stream() : stream;
        char what[256];
        std::snprintf(what, sizeof what, "%s G=%" PRId64 " K=%" PRId64 " N=%" PRId64
                      " rows=%" PRId64 " sum=%" PRId64 " layout=%s in=%s out=%s sizes=%s",
                      cs.name.c_str(), G, K, N, R, total, layout ? "nk" : "kn", api.name,
                      dtype == MOERT_GPU_OUT_BF16 ? "bf16" : dtype == MOERT_GPU_OUT_F32 ? "f32" : "f32-tf32",
                      entry ? "entry" : hostSizes ? "host" : "device");
        DevBuf c(size_t(R) * N * elt);
        CUDA_OR_DIE(cudaMemsetAsync(c.p, 0xff, c.bytes, st)); // ordered before the call
        int rc;
        if (entry) {
          api.entryGemm(a.p, b.p, (const int32_t *)sizes.p, G, K, N, layout, c.p, dtype, R);
          rc = moert_gpu_sticky_error()[0] ? -1 : 0;
        } else {
          rc = hostSizes ? api.gemmHostSizes(a.p, b.p, cs.sizes.data(), G, K, N, layout, c.p,
                                             dtype, R, stream)
                         : api.gemm(a.p, b.p, (const int32_t *)sizes.p, G, K, N, layout, c.p,
                                    dtype, R, stream);
        }
        if (rc != 0) {
          report(false, std::string("gemm ") + what, moert_gpu_last_error());
        } else {
          CUDA_OR_DIE(cudaStreamSynchronize(st));
          compare(std::string("gemm ") + what, readOut(c, size_t(R) * N, dtype), cref,
                  czero, tol);
        }

        DevBuf db(size_t(G) * K * N * elt);
        CUDA_OR_DIE(cudaMemsetAsync(db.p, 0xff, db.bytes, st));
        if (entry) {
          api.entryWgrad(a.p, dc.p, (const int32_t *)sizes.p, G, K, N, layout, db.p, dtype,
                         R);
          rc = moert_gpu_sticky_error()[0] ? -1 : 0;
        } else {
          rc = hostSizes ? api.wgradHostSizes(a.p, dc.p, cs.sizes.data(), G, K, N, layout,
                                              db.p, dtype, R, stream)
                         : api.wgrad(a.p, dc.p, (const int32_t *)sizes.p, G, K, N, layout,
                                     db.p, dtype, R, stream);
        }
        if (rc != 0) {
          report(false, std::string("wgrad ") + what, moert_gpu_last_error());
        } else {
          CUDA_OR_DIE(cudaStreamSynchronize(st));
          compare(std::string("wgrad ") + what, readOut(db, size_t(G) * K * N, dtype),
                  dbref, dbzero, tol);
        }
      }
    }
  }
  CUDA_OR_DIE(cudaStreamDestroy(stream));
}

void expectError(const std::string &what, int rc, const char *needle) {
  std::string msg = moert_gpu_last_error();
  bool ok = rc != 0 && msg.find(needle) != std::string::npos;
  report(ok, "error " + what, "rc=" + std::to_string(rc) + " message=\"" + msg + "\"");
}

void errorCases() {
  DevBuf a(64 * 16 * 2), b(2 * 16 * 16 * 2), c(64 * 16 * 4), sizes(2 * 4);
  int32_t neg[2] = {4, -1};
  CUDA_OR_DIE(cudaMemcpy(sizes.p, neg, 8, cudaMemcpyHostToDevice));
  expectError("negative size",
              moert_grouped_gemm_bf16(a.p, b.p, (const int32_t *)sizes.p, 2, 16, 16, 0, c.p,
                                      0, 64, nullptr),
              "is negative");
  int32_t big[2] = {40, 40};
  CUDA_OR_DIE(cudaMemcpy(sizes.p, big, 8, cudaMemcpyHostToDevice));
  expectError("sizes exceed rows",
              moert_grouped_weight_grad_bf16(a.p, c.p, (const int32_t *)sizes.p, 2, 16, 16,
                                             0, b.p, 0, 64, nullptr),
              "more than rows");
  expectError("bad layout",
              moert_grouped_gemm_bf16_host_sizes(a.p, b.p, big, 2, 16, 16, 7, c.p, 0, 64,
                                                 nullptr),
              "weight_layout 7");
  expectError("bad dtype",
              moert_grouped_gemm_bf16_host_sizes(a.p, b.p, big, 2, 16, 16, 0, c.p, 3, 64,
                                                 nullptr),
              "output dtype 3");
  // A successful call clears the message.
  int32_t ok[2] = {10, 20};
  int rc = moert_grouped_gemm_bf16_host_sizes(a.p, b.p, ok, 2, 16, 16, 0, c.p, 0, 64,
                                              nullptr);
  CUDA_OR_DIE(cudaDeviceSynchronize());
  report(rc == 0 && moert_gpu_last_error()[0] == '\0', "error cleared after success",
         std::string("message=\"") + moert_gpu_last_error() + "\"");
  // The entry points for compiled code: no return value; the failure is the
  // sticky error, naming the entry and the cause.
  moert_gpu_clear_sticky_error();
  moert_entry_grouped_gemm_bf16(a.p, b.p, (const int32_t *)sizes.p, 2, 16, 16, 7, c.p, 0, 64);
  std::string sticky = moert_gpu_sticky_error();
  report(sticky.find("moert_entry_grouped_gemm_bf16: moert_grouped_gemm_bf16: weight_layout 7") !=
             std::string::npos,
         "error moert_entry_grouped_gemm_bf16 bad layout: sticky", "sticky=\"" + sticky + "\"");
  moert_gpu_clear_sticky_error();
  CUDA_OR_DIE(cudaMemcpy(sizes.p, neg, 8, cudaMemcpyHostToDevice));
  moert_entry_grouped_weight_grad_bf16(a.p, c.p, (const int32_t *)sizes.p, 2, 16, 16, 0, b.p,
                                       0, 64);
  sticky = moert_gpu_sticky_error();
  report(sticky.find("moert_entry_grouped_weight_grad_bf16: ") != std::string::npos &&
             sticky.find("is negative") != std::string::npos,
         "error moert_entry_grouped_weight_grad_bf16 negative size: sticky",
         "sticky=\"" + sticky + "\"");
  moert_gpu_clear_sticky_error();
  // The f32-operand functions check and report alike, and write f32 only.
  expectError("f32 operands into bf16",
              moert_grouped_gemm_f32(f32(a.p), f32(b.p), (const int32_t *)sizes.p, 2, 16, 16,
                                     0, c.p, MOERT_GPU_OUT_BF16, 64, nullptr),
              "moert_grouped_gemm_f32: f32 operands need an f32 output");
  expectError("f32 negative size",
              moert_grouped_gemm_f32(f32(a.p), f32(b.p), (const int32_t *)sizes.p, 2, 16, 16,
                                     0, c.p, MOERT_GPU_OUT_F32, 64, nullptr),
              "moert_grouped_gemm_f32: group_sizes[1] = -1 is negative");
  expectError("f32 bad dtype",
              moert_grouped_weight_grad_f32_host_sizes(f32(a.p), f32(c.p), ok, 2, 16, 16, 0,
                                                       b.p, 3, 64, nullptr),
              "moert_grouped_weight_grad_f32_host_sizes: output dtype 3");
  moert_entry_grouped_weight_grad_f32(f32(a.p), f32(c.p), (const int32_t *)sizes.p, 2, 16, 16,
                                      0, b.p, MOERT_GPU_OUT_F32, 64);
  sticky = moert_gpu_sticky_error();
  report(sticky.find("moert_entry_grouped_weight_grad_f32: moert_grouped_weight_grad_f32: "
                     "group_sizes[1] = -1 is negative") != std::string::npos,
         "error moert_entry_grouped_weight_grad_f32 negative size: sticky",
         "sticky=\"" + sticky + "\"");
  moert_gpu_clear_sticky_error();
}

// moert_matmul_f32 and moert_matmul_bf16: c += op(A)·op(B) for every
// storage of A and B, against a double reference of the operands as passed
// (bf16 ones rounded); c starts from random values (the call accumulates),
// which moert_matmul_bf16 with accumulate = 0 overwrites.
void denseF32Cases(std::mt19937_64 &rng) {
  struct Shape { int64_t m, n, k; };
  std::normal_distribution<float> d(0.0f, 1.0f);
  for (int bf16 = 0; bf16 < 2; ++bf16)
  for (int accumulate = bf16 ? 0 : 1; accumulate < 2; ++accumulate)
  for (Shape sh : {Shape{37, 29, 53}, Shape{256, 128, 2048}, Shape{1, 5, 3}}) {
    for (int aTrans = 0; aTrans < 2; ++aTrans) {
      for (int bTrans = 0; bTrans < 2; ++bTrans) {
        const int64_t m = sh.m, n = sh.n, k = sh.k;
        std::vector<float> a(m * k), b(k * n), c0(m * n);
        auto draw = [&]() { return bf16 ? fromBf16(toBf16(d(rng))) : d(rng); };
        for (float &v : a) v = draw();
        for (float &v : b) v = draw();
        for (float &v : c0) v = d(rng);
        std::vector<double> ref(m * n);
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double acc = accumulate ? c0[i * n + j] : 0.0;
            for (int64_t l = 0; l < k; ++l)
              acc += double(aTrans ? a[l * m + i] : a[i * k + l]) *
                     double(bTrans ? b[j * k + l] : b[l * n + j]);
            ref[i * n + j] = acc;
          }
        const size_t elt = bf16 ? 2 : 4;
        DevBuf da(a.size() * elt), db(b.size() * elt), dc(c0.size() * 4);
        auto upload = [&](DevBuf &to, const std::vector<float> &v) {
          std::vector<uint16_t> half(v.size());
          for (size_t i = 0; i < v.size(); ++i)
            half[i] = toBf16(v[i]);
          CUDA_OR_DIE(cudaMemcpy(to.p, bf16 ? static_cast<const void *>(half.data()) : v.data(),
                                 to.bytes, cudaMemcpyHostToDevice));
        };
        upload(da, a);
        upload(db, b);
        CUDA_OR_DIE(cudaMemcpy(dc.p, c0.data(), dc.bytes, cudaMemcpyHostToDevice));
        int rc = bf16 ? moert_matmul_bf16(da.p, aTrans, db.p, bTrans, static_cast<float *>(dc.p),
                                          accumulate, m, n, k, nullptr)
                      : moert_matmul_f32(static_cast<const float *>(da.p), aTrans,
                                         static_cast<const float *>(db.p), bTrans,
                                         static_cast<float *>(dc.p), m, n, k, nullptr);
        CUDA_OR_DIE(cudaDeviceSynchronize());
        char what[128];
        std::snprintf(what, sizeof what, "matmul_%s m=%lld n=%lld k=%lld%s%s%s",
                      bf16 ? "bf16" : "f32", (long long)m, (long long)n, (long long)k,
                      aTrans ? " a^T" : "", bTrans ? " b^T" : "",
                      accumulate ? "" : " overwrite");
        if (rc != 0) {
          report(false, what, std::string("rc != 0: ") + moert_gpu_last_error());
          continue;
        }
        // fp32 compute (exact bf16 products): far below bf16's 1e-2, above
        // round-off of k terms.
        compare(what, readOut(dc, m * n, MOERT_GPU_OUT_F32), ref,
                std::vector<char>(m * n, 0), 1e-5);
      }
    }
  }
  // k = 0 adds nothing; a NULL operand is an error.
  DevBuf dc(4 * 4);
  float ones[4] = {1, 1, 1, 1};
  CUDA_OR_DIE(cudaMemcpy(dc.p, ones, 16, cudaMemcpyHostToDevice));
  int rc = moert_matmul_f32(nullptr, 0, nullptr, 0, static_cast<float *>(dc.p), 2, 2, 0,
                            nullptr);
  std::vector<double> got = readOut(dc, 4, MOERT_GPU_OUT_F32);
  report(rc == 0 && got == std::vector<double>{1, 1, 1, 1}, "matmul_f32 k=0 adds nothing",
         "rc=" + std::to_string(rc));
  // Overwriting with an empty sum (k = 0) leaves zeros.
  rc = moert_matmul_bf16(nullptr, 0, nullptr, 0, static_cast<float *>(dc.p), /*accumulate=*/0,
                         2, 2, 0, nullptr);
  CUDA_OR_DIE(cudaDeviceSynchronize());
  got = readOut(dc, 4, MOERT_GPU_OUT_F32);
  report(rc == 0 && got == std::vector<double>{0, 0, 0, 0}, "matmul_bf16 k=0 overwrite: zeros",
         "rc=" + std::to_string(rc));
  CUDA_OR_DIE(cudaMemcpy(dc.p, ones, 16, cudaMemcpyHostToDevice));
  expectError("matmul_f32 NULL operand",
              moert_matmul_f32(nullptr, 0, static_cast<const float *>(dc.p), 0,
                               static_cast<float *>(dc.p), 2, 2, 2, nullptr),
              "moert_matmul_f32: a NULL operand");
  // The entry point for compiled code: on the runtime stream, the failure
  // becomes the sticky error naming the entry; a good call adds A·B.
  moert_gpu_clear_sticky_error();
  moert_entry_matmul_f32(nullptr, 0, static_cast<const float *>(dc.p), 0,
                         static_cast<float *>(dc.p), 2, 2, 2);
  std::string sticky = moert_gpu_sticky_error();
  report(sticky.find("moert_entry_matmul_f32: moert_matmul_f32: a NULL operand") !=
             std::string::npos,
         "error moert_entry_matmul_f32 NULL operand: sticky", "sticky=\"" + sticky + "\"");
  moert_gpu_clear_sticky_error();
  DevBuf da(4 * 4), db(4 * 4);
  float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}; // [2, 2] row-major each
  CUDA_OR_DIE(cudaMemcpy(da.p, a, 16, cudaMemcpyHostToDevice));
  CUDA_OR_DIE(cudaMemcpy(db.p, b, 16, cudaMemcpyHostToDevice));
  CUDA_OR_DIE(cudaMemcpy(dc.p, ones, 16, cudaMemcpyHostToDevice));
  moert_entry_matmul_f32(static_cast<const float *>(da.p), 0, static_cast<const float *>(db.p),
                         1, static_cast<float *>(dc.p), 2, 2, 2);
  CUDA_OR_DIE(cudaStreamSynchronize(static_cast<cudaStream_t>(moert_gpu_stream())));
  // 1 + A·Bᵀ = 1 + [[1·5+2·6, 1·7+2·8], [3·5+4·6, 3·7+4·8]]
  got = readOut(dc, 4, MOERT_GPU_OUT_F32);
  report(moert_gpu_sticky_error()[0] == '\0' && got == std::vector<double>{18, 24, 40, 54},
         "moert_entry_matmul_f32 on the runtime stream",
         "c=" + std::to_string(got[0]) + "," + std::to_string(got[1]) + "," +
             std::to_string(got[2]) + "," + std::to_string(got[3]));
}

} // namespace

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : std::random_device{}();
  std::printf("seed %" PRIu64 "\n", seed);
  int ndev = 0;
  cudaError_t e = cudaGetDeviceCount(&ndev);
  if (e != cudaSuccess || ndev == 0) {
    std::printf("FAIL: no CUDA device (%s)\n", cudaGetErrorString(e));
    return 2;
  }
  cudaDeviceProp prop;
  CUDA_OR_DIE(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  std::mt19937_64 rng(seed);

  std::vector<Case> cases = {
      {"mixed+tail", {17, 0, 40, 23}, 64, 96, 90},
      {"equal-run(batched)", {32, 32, 32, 32, 32, 32, 32, 32}, 128, 64, 256},
      {"consecutive-empty", {0, 0, 5, 5, 5, 0, 0}, 32, 48, 20},
      {"unaligned", {3, 0, 7, 1}, 33, 17, 12},
      {"all-empty", {0, 0, 0}, 16, 24, 8},
      {"no-groups", {}, 16, 24, 5},
      {"larger", {}, 512, 384, 0},
  };
  // "larger": 16 random sizes (some empty) summing to ~2000 rows.
  {
    Case &l = cases.back();
    std::uniform_int_distribution<int> d(0, 250);
    int64_t s = 0;
    for (int g = 0; g < 16; ++g) {
      int v = (g % 5 == 3) ? 0 : d(rng);
      l.sizes.push_back(v);
      s += v;
    }
    l.rows = s + 7;
  }
  // Random shapes.
  for (int i = 0; i < 3; ++i) {
    std::uniform_int_distribution<int> gd(1, 10), kd(1, 32), sd(0, 40), zd(0, 3);
    Case c;
    c.name = "random" + std::to_string(i);
    int G = gd(rng);
    int64_t s = 0;
    for (int g = 0; g < G; ++g) {
      int v = zd(rng) == 0 ? 0 : sd(rng);
      c.sizes.push_back(v);
      s += v;
    }
    c.K = 8 * kd(rng);
    c.N = 8 * kd(rng);
    c.rows = s + zd(rng) * 3;
    cases.push_back(c);
  }

  // Once with every matmul on the caller's stream, once spread over the
  // auxiliary streams (the default); bf16 operands, then f32 operands.
  for (const Api *api : {&kBf16Api, &kF32Api}) {
    for (const char *streams : {"1", "4"}) {
      setenv("MOERT_GPU_STREAMS", streams, 1);
      for (Case c : cases) {
        c.name = std::string("streams=") + streams + " " + c.name;
        runCase(rng, c, *api);
      }
    }
  }
  unsetenv("MOERT_GPU_STREAMS");
  denseF32Cases(rng);
  errorCases();
  CUDA_OR_DIE(cudaDeviceSynchronize());
  moert_gpu_release_caches();
  if (gFailures) {
    std::printf("FAILED %d of %d checks\n", gFailures, gChecks);
    return 1;
  }
  std::printf("ALL PASSED (%d checks)\n", gChecks);
  return 0;
}
