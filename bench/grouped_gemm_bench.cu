//===- grouped_gemm_bench.cu - expert-FFN grouped GEMMs on moe_runtime_gpu --===//
//
// Times the grouped GEMMs of one MoE layer's expert FFN through
// moert_grouped_gemm_bf16 / moert_grouped_weight_grad_bf16 (cuBLASLt), for
// the DESIGN.md shapes, with balanced and Zipf-skewed routing:
//
//   forward  (3 grouped GEMMs, 6·T·K·H·F FLOPs):
//     G = X·Wg[e], U = X·Wu[e]        X [R,H], Wg/Wu [E,H,F]   (R = T·K)
//     Y = Hh·Wd[e]                     Hh [R,F], Wd [E,F,H]
//   backward (3 dgrad + 3 wgrad, 12·T·K·H·F FLOPs):
//     dHh = dY·Wd[e]^T, dXg = dG·Wg[e]^T, dXu = dU·Wu[e]^T   (nk layout)
//     dWg = X_e^T·dG_e, dWu = X_e^T·dU_e, dWd = Hh_e^T·dY_e  (wgrad)
//
// Only the expert GEMMs: no router, permute, activation or combine (Hh, dY,
// dG, dU are random tensors standing in for them). All tensors bf16, fp32
// accumulation. Timing: CUDA events around each repetition after warm-up;
// the median of --reps repetitions. Data: fresh random values per case
// (never zeros). Ceiling: a dense bf16 cuBLAS 8192^3 GEMM in the same run.
//
// Usage: moe-grouped-gemm-bench [--json FILE] [--reps N] [--warmup N]
//                               [--shapes a,b,...] [--no-check]
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/moe_runtime_gpu.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CUDA_OR_DIE(call)                                                          \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      std::fprintf(stderr, "error: %s failed: %s (%s) at %s:%d\n", #call,          \
                   cudaGetErrorString(e_), cudaGetErrorName(e_), __FILE__, __LINE__); \
      std::exit(2);                                                                \
    }                                                                              \
  } while (0)
#define CUBLAS_OR_DIE(call)                                                        \
  do {                                                                             \
    cublasStatus_t s_ = (call);                                                    \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                             \
      std::fprintf(stderr, "error: %s failed: %s (%d)\n", #call,                   \
                   cublasGetStatusString(s_), (int)s_);                            \
      std::exit(2);                                                                \
    }                                                                              \
  } while (0)
#define MOERT_OR_DIE(call)                                                         \
  do {                                                                             \
    if ((call) != 0) {                                                             \
      std::fprintf(stderr, "error: %s\n", moert_gpu_last_error());                 \
      std::exit(2);                                                                \
    }                                                                              \
  } while (0)

namespace {

__device__ __forceinline__ uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform(-scale, scale) bf16 values from a counter-based hash.
__global__ void fillUniform(__nv_bfloat16 *p, size_t n, uint64_t seed, float scale) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  size_t stride = size_t(gridDim.x) * blockDim.x;
  for (; i < n; i += stride) {
    uint64_t h = mix64(seed ^ mix64(i));
    float u = float(h >> 40) * (1.0f / 16777216.0f); // [0,1)
    p[i] = __float2bfloat16((2.0f * u - 1.0f) * scale);
  }
}

uint64_t gSeed = 0;
void fill(void *p, size_t n, float scale = 1.0f) {
  fillUniform<<<1024, 256>>>(static_cast<__nv_bfloat16 *>(p), n, gSeed++ * 0x1234567ull + 99, scale);
  CUDA_OR_DIE(cudaGetLastError());
}

struct Shape {
  const char *name;
  int64_t T, H, F, E, K;
};
const Shape kShapes[] = {
    {"seed-test", 32768, 1024, 4096, 8, 2},
    {"mixtral-8x7b", 8192, 4096, 14336, 8, 2},
    {"qwen3-30b-a3b", 16384, 2048, 768, 128, 8},
    {"dsv3-1gpu", 4096, 7168, 2048, 256, 8},
};

std::vector<int32_t> groupSizes(int64_t rows, int64_t E, bool skewed) {
  std::vector<int32_t> s(E, 0);
  if (!skewed) {
    for (int64_t e = 0; e < E; ++e)
      s[e] = int32_t(rows / E + (e < rows % E ? 1 : 0));
    return s;
  }
  // Zipf(s = 1.2) over experts (expert 0 the hottest), largest-remainder rounding.
  std::vector<double> w(E), frac(E);
  double sum = 0;
  for (int64_t e = 0; e < E; ++e)
    sum += (w[e] = std::pow(double(e + 1), -1.2));
  int64_t assigned = 0;
  for (int64_t e = 0; e < E; ++e) {
    double x = rows * w[e] / sum;
    s[e] = int32_t(std::floor(x));
    frac[e] = x - s[e];
    assigned += s[e];
  }
  std::vector<int64_t> order(E);
  for (int64_t e = 0; e < E; ++e)
    order[e] = e;
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return frac[a] > frac[b]; });
  for (int64_t i = 0; assigned < rows; ++i, ++assigned)
    ++s[order[i % E]];
  return s;
}

struct DevBuf {
  void *p = nullptr;
  explicit DevBuf(size_t bytes) { CUDA_OR_DIE(cudaMalloc(&p, bytes)); }
  ~DevBuf() { cudaFree(p); }
  DevBuf(const DevBuf &) = delete;
  DevBuf &operator=(const DevBuf &) = delete;
};

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <class F> double timeMs(cudaStream_t s, int warmup, int reps, F &&f,
                                 double *minMs = nullptr) {
  for (int i = 0; i < warmup; ++i)
    f();
  CUDA_OR_DIE(cudaStreamSynchronize(s));
  cudaEvent_t a, b;
  CUDA_OR_DIE(cudaEventCreate(&a));
  CUDA_OR_DIE(cudaEventCreate(&b));
  std::vector<float> ms(reps);
  for (int i = 0; i < reps; ++i) {
    CUDA_OR_DIE(cudaEventRecord(a, s));
    f();
    CUDA_OR_DIE(cudaEventRecord(b, s));
    CUDA_OR_DIE(cudaEventSynchronize(b));
    CUDA_OR_DIE(cudaEventElapsedTime(&ms[i], a, b));
  }
  CUDA_OR_DIE(cudaEventDestroy(a));
  CUDA_OR_DIE(cudaEventDestroy(b));
  if (minMs)
    *minMs = *std::min_element(ms.begin(), ms.end());
  return median(ms);
}

double denseCeiling(cudaStream_t s, int warmup, int reps) {
  const int64_t n = 8192;
  DevBuf a(n * n * 2), b(n * n * 2), c(n * n * 2);
  fill(a.p, n * n);
  fill(b.p, n * n);
  cublasHandle_t h;
  CUBLAS_OR_DIE(cublasCreate(&h));
  CUBLAS_OR_DIE(cublasSetStream(h, s));
  const float alpha = 1, beta = 0;
  auto run = [&] {
    CUBLAS_OR_DIE(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a.p,
                               CUDA_R_16BF, n, b.p, CUDA_R_16BF, n, &beta, c.p,
                               CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  };
  double ms = timeMs(s, warmup, reps, run);
  CUBLAS_OR_DIE(cublasDestroy(h));
  return 2.0 * n * n * n / (ms * 1e-3) / 1e12;
}

float bf(const __nv_bfloat16 &v) { return __bfloat162float(v); }

std::vector<float> toHost(const void *p, size_t off, size_t n) {
  std::vector<__nv_bfloat16> h(n);
  CUDA_OR_DIE(cudaMemcpy(h.data(), static_cast<const __nv_bfloat16 *>(p) + off, n * 2,
                         cudaMemcpyDeviceToHost));
  std::vector<float> f(n);
  for (size_t i = 0; i < n; ++i)
    f[i] = bf(h[i]);
  return f;
}

struct Err {
  double num = 0, den = 0;
  void add(double got, double ref) {
    if (!std::isfinite(got)) {
      num = INFINITY;
      return;
    }
    num += (got - ref) * (got - ref);
    den += ref * ref;
  }
  double rel() const { return den > 0 ? std::sqrt(num / den) : std::sqrt(num); }
};

struct Result {
  std::string shape, routing;
  int64_t T, H, F, E, K, minGroup, maxGroup;
  double fwdMs, fwdbwdMs, fwdMsHost, fwdbwdMsHost, fwdMin, fwdbwdMin;
  double fwdMs1, fwdbwdMs1; // MOERT_GPU_STREAMS=1
  double checkRel = -1;
  int checkedElems = 0;
};

} // namespace

int main(int argc, char **argv) {
  std::string jsonPath, only;
  int reps = 30, warmup = 5;
  bool check = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--json" && i + 1 < argc)
      jsonPath = argv[++i];
    else if (a == "--reps" && i + 1 < argc)
      reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--warmup" && i + 1 < argc)
      warmup = std::max(0, std::atoi(argv[++i]));
    else if (a == "--shapes" && i + 1 < argc)
      only = std::string(",") + argv[++i] + ",";
    else if (a == "--no-check")
      check = false;
    else {
      std::fprintf(stderr, "usage: %s [--json FILE] [--reps N] [--warmup N] "
                           "[--shapes a,b] [--no-check]\n", argv[0]);
      return 2;
    }
  }
  std::random_device rd;
  gSeed = (uint64_t(rd()) << 32) ^ rd();
  cudaDeviceProp prop;
  CUDA_OR_DIE(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  cudaStream_t s;
  CUDA_OR_DIE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  double ceilStart = denseCeiling(s, warmup, reps);
  std::printf("dense bf16 cuBLAS 8192^3: %.1f TFLOP/s\n", ceilStart);
  std::fflush(stdout);

  std::vector<Result> results;
  for (const Shape &sh : kShapes) {
    if (!only.empty() && only.find(std::string(",") + sh.name + ",") == std::string::npos)
      continue;
    const int64_t R = sh.T * sh.K, H = sh.H, F = sh.F, E = sh.E;
    DevBuf X(R * H * 2), Hh(R * F * 2), Wg(E * H * F * 2), Wu(E * H * F * 2),
        Wd(E * F * H * 2), G(R * F * 2), U(R * F * 2), Y(R * H * 2), dY(R * H * 2),
        dG(R * F * 2), dU(R * F * 2), dHh(R * F * 2), dXg(R * H * 2), dXu(R * H * 2),
        dWg(E * H * F * 2), dWu(E * H * F * 2), dWd(E * F * H * 2), sizesDev(E * 4);
    for (int routing = 0; routing < 2; ++routing) {
      const bool skewed = routing == 1;
      // Fresh random data for every case.
      fill(X.p, R * H);
      fill(Hh.p, R * F);
      fill(Wg.p, E * H * F);
      fill(Wu.p, E * H * F);
      fill(Wd.p, E * F * H);
      fill(dY.p, R * H);
      fill(dG.p, R * F);
      fill(dU.p, R * F);
      CUDA_OR_DIE(cudaDeviceSynchronize());
      std::vector<int32_t> sz = groupSizes(R, E, skewed);
      CUDA_OR_DIE(cudaMemcpy(sizesDev.p, sz.data(), E * 4, cudaMemcpyHostToDevice));
      const int32_t *sd = static_cast<const int32_t *>(sizesDev.p);
      const int32_t *sh_ = sz.data();

      auto fwd = [&](bool host) {
        const int32_t *z = host ? sh_ : sd;
        auto gemm = host ? moert_grouped_gemm_bf16_host_sizes : moert_grouped_gemm_bf16;
        MOERT_OR_DIE(gemm(X.p, Wg.p, z, E, H, F, MOERT_WEIGHT_KN, G.p, 0, R, s));
        MOERT_OR_DIE(gemm(X.p, Wu.p, z, E, H, F, MOERT_WEIGHT_KN, U.p, 0, R, s));
        MOERT_OR_DIE(gemm(Hh.p, Wd.p, z, E, F, H, MOERT_WEIGHT_KN, Y.p, 0, R, s));
      };
      auto bwd = [&](bool host) {
        const int32_t *z = host ? sh_ : sd;
        auto gemm = host ? moert_grouped_gemm_bf16_host_sizes : moert_grouped_gemm_bf16;
        auto wgrad = host ? moert_grouped_weight_grad_bf16_host_sizes
                          : moert_grouped_weight_grad_bf16;
        // dgrad: Wd [E,F,H] is [G, N=F, K=H]; Wg/Wu [E,H,F] are [G, N=H, K=F].
        MOERT_OR_DIE(gemm(dY.p, Wd.p, z, E, H, F, MOERT_WEIGHT_NK, dHh.p, 0, R, s));
        MOERT_OR_DIE(gemm(dG.p, Wg.p, z, E, F, H, MOERT_WEIGHT_NK, dXg.p, 0, R, s));
        MOERT_OR_DIE(gemm(dU.p, Wu.p, z, E, F, H, MOERT_WEIGHT_NK, dXu.p, 0, R, s));
        // wgrad
        MOERT_OR_DIE(wgrad(X.p, dG.p, z, E, H, F, MOERT_WEIGHT_KN, dWg.p, 0, R, s));
        MOERT_OR_DIE(wgrad(X.p, dU.p, z, E, H, F, MOERT_WEIGHT_KN, dWu.p, 0, R, s));
        MOERT_OR_DIE(wgrad(Hh.p, dY.p, z, E, F, H, MOERT_WEIGHT_KN, dWd.p, 0, R, s));
      };

      Result r;
      r.shape = sh.name;
      r.routing = skewed ? "skewed" : "balanced";
      r.T = sh.T, r.H = H, r.F = F, r.E = E, r.K = sh.K;
      r.minGroup = *std::min_element(sz.begin(), sz.end());
      r.maxGroup = *std::max_element(sz.begin(), sz.end());
      r.fwdMs = timeMs(s, warmup, reps, [&] { fwd(false); }, &r.fwdMin);
      r.fwdbwdMs = timeMs(s, warmup, reps, [&] { fwd(false); bwd(false); }, &r.fwdbwdMin);
      r.fwdMsHost = timeMs(s, warmup, reps, [&] { fwd(true); });
      r.fwdbwdMsHost = timeMs(s, warmup, reps, [&] { fwd(true); bwd(true); });
      // Everything on the caller's stream (no auxiliary streams).
      const char *prevStreams = std::getenv("MOERT_GPU_STREAMS");
      std::string saved = prevStreams ? prevStreams : "";
      setenv("MOERT_GPU_STREAMS", "1", 1);
      r.fwdMs1 = timeMs(s, warmup, reps, [&] { fwd(false); });
      r.fwdbwdMs1 = timeMs(s, warmup, reps, [&] { fwd(false); bwd(false); });
      if (prevStreams)
        setenv("MOERT_GPU_STREAMS", saved.c_str(), 1);
      else
        unsetenv("MOERT_GPU_STREAMS");
      CUDA_OR_DIE(cudaStreamSynchronize(s));

      if (check) {
        // Spot check at the benchmark shape against a CPU reference: sampled rows
        // of G (kn gemm) and dHh (nk gemm), sampled entries of dWg (wgrad).
        std::mt19937_64 rng(gSeed);
        std::vector<int64_t> off(E + 1, 0);
        for (int64_t e = 0; e < E; ++e)
          off[e + 1] = off[e] + sz[e];
        std::vector<int64_t> groups = {0, E - 1, int64_t(rng() % E)};
        Err err;
        int n = 0;
        for (int64_t g : groups) {
          if (sz[g] == 0)
            continue;
          int64_t row = off[g] + int64_t(rng() % sz[g]);
          auto x = toHost(X.p, row * H, H);
          auto wg = toHost(Wg.p, g * H * F, H * F);
          auto gOut = toHost(G.p, row * F, F);
          std::vector<double> acc(F, 0.0);
          for (int64_t k = 0; k < H; ++k)
            for (int64_t j = 0; j < F; ++j)
              acc[j] += double(x[k]) * wg[k * F + j];
          for (int64_t j = 0; j < F; ++j)
            err.add(gOut[j], acc[j]), ++n;
          auto dy = toHost(dY.p, row * H, H);
          auto wd = toHost(Wd.p, g * F * H, F * H);
          auto dh = toHost(dHh.p, row * F, F);
          for (int64_t j = 0; j < F; ++j) {
            double acc = 0;
            for (int64_t k = 0; k < H; ++k)
              acc += double(dy[k]) * wd[j * H + k];
            err.add(dh[j], acc), ++n;
          }
          auto xg = toHost(X.p, off[g] * H, sz[g] * H);
          auto dg = toHost(dG.p, off[g] * F, sz[g] * F);
          for (int t = 0; t < 32; ++t) {
            int64_t k = rng() % H, j = rng() % F;
            double acc = 0;
            for (int64_t rr = 0; rr < sz[g]; ++rr)
              acc += double(xg[rr * H + k]) * dg[rr * F + j];
            __nv_bfloat16 got;
            CUDA_OR_DIE(cudaMemcpy(&got, static_cast<__nv_bfloat16 *>(dWg.p) +
                                             (g * H + k) * F + j,
                                   2, cudaMemcpyDeviceToHost));
            err.add(bf(got), acc), ++n;
          }
        }
        r.checkRel = err.rel();
        r.checkedElems = n;
      }
      results.push_back(r);
      const double fl = 2.0 * sh.T * sh.K * H * F;
      std::printf("%-14s %-8s groups %" PRId64 "..%" PRId64 "  fwd %8.3f ms %6.1f TF/s"
                  "  fwd+bwd %8.3f ms %6.1f TF/s  (host sizes: %.3f / %.3f ms; 1 stream: %.3f / %.3f"
                  " ms)  check %.2e\n",
                  r.shape.c_str(), r.routing.c_str(), r.minGroup, r.maxGroup, r.fwdMs,
                  3 * fl / (r.fwdMs * 1e-3) / 1e12, r.fwdbwdMs,
                  9 * fl / (r.fwdbwdMs * 1e-3) / 1e12, r.fwdMsHost, r.fwdbwdMsHost,
                  r.fwdMs1, r.fwdbwdMs1, r.checkRel);
      std::fflush(stdout);
    }
  }
  double ceilEnd = denseCeiling(s, warmup, reps);
  std::printf("dense bf16 cuBLAS 8192^3 (end): %.1f TFLOP/s\n", ceilEnd);
  const double ceil = std::max(ceilStart, ceilEnd);

  bool checkFail = false;
  const char *streamsEnv = std::getenv("MOERT_GPU_STREAMS");
  std::printf("\nexpert-FFN grouped GEMMs only (moe_runtime_gpu / cuBLASLt, bf16, device "
              "group sizes, MOERT_GPU_STREAMS=%s), median of %d after %d warm-up; "
              "ceiling %.1f TFLOP/s\n",
              streamsEnv ? streamsEnv : "default(4)", reps, warmup, ceil);
  std::printf("%-14s %-8s %10s %8s %12s %8s %8s %10s\n", "shape", "routing", "fwd ms",
              "TFLOP/s", "fwd+bwd ms", "TFLOP/s", "%ceil", "check");
  for (const Result &r : results) {
    const double fl = 2.0 * r.T * r.K * r.H * r.F;
    double tf = 9 * fl / (r.fwdbwdMs * 1e-3) / 1e12;
    std::printf("%-14s %-8s %10.3f %8.1f %12.3f %8.1f %7.1f%% %10.2e\n", r.shape.c_str(),
                r.routing.c_str(), r.fwdMs, 3 * fl / (r.fwdMs * 1e-3) / 1e12, r.fwdbwdMs,
                tf, 100 * tf / ceil, r.checkRel);
    if (check && !(r.checkRel <= 1e-2))
      checkFail = true;
  }

  if (!jsonPath.empty()) {
    FILE *f = std::fopen(jsonPath.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "error: cannot write %s\n", jsonPath.c_str());
      return 2;
    }
    std::fprintf(f, "{\n  \"impl\": \"moe_runtime_gpu (cuBLASLt per group / per equal-size run)\",\n");
    std::fprintf(f, "  \"device\": \"%s\",\n  \"reps\": %d,\n  \"warmup\": %d,\n", prop.name,
                 reps, warmup);
    std::fprintf(f, "  \"dense_tflops_start\": %.3f,\n  \"dense_tflops_end\": %.3f,\n",
                 ceilStart, ceilEnd);
    std::fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < results.size(); ++i) {
      const Result &r = results[i];
      std::fprintf(f,
                   "    {\"shape\": \"%s\", \"routing\": \"%s\", \"T\": %" PRId64
                   ", \"H\": %" PRId64 ", \"F\": %" PRId64 ", \"E\": %" PRId64
                   ", \"K\": %" PRId64 ", \"min_group\": %" PRId64 ", \"max_group\": %" PRId64
                   ", \"fwd_ms\": %.5f, \"fwd_min_ms\": %.5f, \"fwdbwd_ms\": %.5f, "
                   "\"fwdbwd_min_ms\": %.5f, \"fwd_ms_host_sizes\": %.5f, "
                   "\"fwdbwd_ms_host_sizes\": %.5f, \"fwd_ms_1stream\": %.5f, "
                   "\"fwdbwd_ms_1stream\": %.5f, \"check_rel_l2\": %.4e, "
                   "\"checked_elements\": %d}%s\n",
                   r.shape.c_str(), r.routing.c_str(), r.T, r.H, r.F, r.E, r.K, r.minGroup,
                   r.maxGroup, r.fwdMs, r.fwdMin, r.fwdbwdMs, r.fwdbwdMin, r.fwdMsHost,
                   r.fwdbwdMsHost, r.fwdMs1, r.fwdbwdMs1, r.checkRel, r.checkedElems,
                   i + 1 < results.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
  }
  CUDA_OR_DIE(cudaStreamDestroy(s));
  moert_gpu_release_caches();
  if (checkFail) {
    std::printf("FAIL: a spot check exceeded relative L2 1e-2\n");
    return 1;
  }
  return 0;
}
