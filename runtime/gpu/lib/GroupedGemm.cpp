//===- GroupedGemm.cpp - grouped GEMMs on cuBLASLt ------------------------===//
//
// moert_matmul_f32 / moert_matmul_bf16: one dense cublasLtMatmul (C +=
// op(A)·op(B) into an f32 C; true fp32 compute, or exact bf16 products on
// tensor cores), for the router projection and its adjoints.
//
// moert_grouped_gemm_{bf16,f32} / moert_grouped_weight_grad_{bf16,f32} (the
// suffix names the operands' element type): one cublasLtMatmul
// per run of consecutive groups of equal size (a strided-batched call when the
// run holds more than one group), with cached handles, workspaces, matmul
// descriptors, layouts and heuristic results keyed by problem shape and
// pointer alignment. When a call needs several cublasLtMatmul launches they
// are spread over a few auxiliary streams (fork/join with events on the
// caller's stream; MOERT_GPU_STREAMS, default 4, 1 = all on the caller's
// stream), so that small groups run side by side instead of one after another.
//
// cuBLASLt is column-major; our tensors are row-major. A row-major [M, N]
// matrix is the column-major N x M matrix with ld = N, so the row-major
// product C = A * B is computed as the column-major C^T = B^T * A^T, i.e. with
// the roles of the two operands swapped.
//
// Compute precision: fp32 accumulation always. bf16 operands multiply exactly
// in fp32. f32 operands (the FP8 placement's weight gradients read dequantized
// FP8 values, an f32 per-block scale times an e4m3/e5m2 value) compute in true
// fp32 (CUBLAS_COMPUTE_32F) into an f32 output, the only output cuBLASLt
// offers for them (on one H100, a bf16 D with f32 operands ran algorithms
// that wrote past it); compiled code rounds the product to a bf16 result,
// and for such products asks for TF32 tensor cores (MOERT_GPU_OUT_F32_TF32:
// operands rounded to 10 mantissa bits, a relative error of 2^-11 each,
// below the bf16 result's own rounding of 2^-9 and DESIGN.md's 1e-2).
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/moe_runtime_gpu.h"
#include "moe_runtime/moe_runtime_mgpu.h"

#include "Internal.h"

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

thread_local std::string gLastError;

__attribute__((format(printf, 1, 2))) int fail(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  gLastError = buf;
  return -1;
}

// "cudaMemcpyAsync(dst, ...)" -> "cudaMemcpyAsync"
std::string callName(const char *expr) {
  const char *p = std::strchr(expr, '(');
  return p ? std::string(expr, p - expr) : std::string(expr);
}

#define CK_CUDA(call)                                                              \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess)                                                         \
      return fail("%s: %s failed: %s (%s, status %d)", gWhat,                      \
                  callName(#call).c_str(), cudaGetErrorString(e_),                 \
                  cudaGetErrorName(e_), (int)e_);                                  \
  } while (0)

#define CK_LT(call)                                                                \
  do {                                                                             \
    cublasStatus_t s_ = (call);                                                    \
    if (s_ != CUBLAS_STATUS_SUCCESS)                                               \
      return fail("%s: %s failed: %s (%s, status %d)", gWhat,                      \
                  callName(#call).c_str(), cublasLtGetStatusString(s_),            \
                  cublasLtGetStatusName(s_), (int)s_);                             \
  } while (0)

#define CK(expr)                                                                   \
  do {                                                                             \
    if ((expr) != 0)                                                               \
      return -1;                                                                   \
  } while (0)

// The entry point being executed, for messages (set under gMutex).
thread_local const char *gWhat = "moert_gpu";

constexpr size_t kWorkspaceBytes = 32u << 20; // cuBLASLt's advice for Hopper
constexpr size_t kMaxPlans = 8192;

/// Operand element types of a matmul.
constexpr int kInBF16 = 0, kInF32 = 1, kInF32Tf32 = 2;

// One cuBLASLt problem: D = op(A) * op(B), column-major, A/B of type `in`
// (bf16 or f32), fp32 accumulation (computeTypeOf), D of type `out` (bf16 or
// f32), optionally strided-batched.
struct PlanKey {
  int device;
  int transA, transB;
  uint64_t m, n, k;
  int64_t lda, ldb, ldc;
  int32_t batch;
  int64_t strideA, strideB, strideC;
  int in; ///< operand type: kInBF16, kInF32 or kInF32Tf32 (f32, TF32 compute)
  int out;
  uint32_t alignA, alignB, alignC;
  bool operator<(const PlanKey &o) const {
    return std::tie(device, transA, transB, m, n, k, lda, ldb, ldc, batch, strideA,
                    strideB, strideC, in, out, alignA, alignB, alignC) <
           std::tie(o.device, o.transA, o.transB, o.m, o.n, o.k, o.lda, o.ldb, o.ldc,
                    o.batch, o.strideA, o.strideB, o.strideC, o.in, o.out, o.alignA,
                    o.alignB, o.alignC);
  }
};

struct Plan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulAlgo_t algo{};
  size_t workspace = 0;
};

void destroyPlan(Plan &p) {
  // Teardown: statuses are not actionable here.
  if (p.op)
    (void)cublasLtMatmulDescDestroy(p.op);
  if (p.a)
    (void)cublasLtMatrixLayoutDestroy(p.a);
  if (p.b)
    (void)cublasLtMatrixLayoutDestroy(p.b);
  if (p.c)
    (void)cublasLtMatrixLayoutDestroy(p.c);
  p = Plan{};
}

std::mutex gMutex;
std::map<int, cublasLtHandle_t> gHandles;
std::map<std::pair<int, void *>, void *> gWorkspaces; // (device, stream) -> buffer
std::map<PlanKey, Plan> gPlans;
// Per device: auxiliary streams, each with its own workspace, for spreading
// one call's matmuls; events to fork from and join into the caller's stream.
struct Aux {
  std::vector<cudaStream_t> streams;
  std::vector<void *> workspaces;
  std::vector<cudaEvent_t> done;
  cudaEvent_t fork = nullptr;
};
std::map<int, Aux> gAux;
int32_t *gPinnedSizes = nullptr;
int64_t gPinnedCapacity = 0;

void releaseAllLocked() {
  for (auto &kv : gPlans)
    destroyPlan(kv.second);
  gPlans.clear();
  int cur = -1;
  bool haveCur = cudaGetDevice(&cur) == cudaSuccess;
  for (auto &kv : gWorkspaces) {
    if (cudaSetDevice(kv.first.first) == cudaSuccess)
      (void)cudaFree(kv.second);
  }
  gWorkspaces.clear();
  for (auto &kv : gAux) {
    if (cudaSetDevice(kv.first) != cudaSuccess)
      continue;
    Aux &x = kv.second;
    for (cudaStream_t st : x.streams)
      (void)cudaStreamSynchronize(st);
    for (void *w : x.workspaces)
      (void)cudaFree(w);
    for (cudaStream_t st : x.streams)
      (void)cudaStreamDestroy(st);
    for (cudaEvent_t e : x.done)
      (void)cudaEventDestroy(e);
    if (x.fork)
      (void)cudaEventDestroy(x.fork);
  }
  gAux.clear();
  for (auto &kv : gHandles)
    (void)cublasLtDestroy(kv.second);
  gHandles.clear();
  if (gPinnedSizes)
    (void)cudaFreeHost(gPinnedSizes);
  gPinnedSizes = nullptr;
  gPinnedCapacity = 0;
  if (haveCur)
    (void)cudaSetDevice(cur);
}

uint32_t alignmentOf(const void *p) {
  uintptr_t v = reinterpret_cast<uintptr_t>(p);
  uint32_t a = 256;
  while (a > 1 && (v % a) != 0)
    a >>= 1;
  return a;
}
uint32_t alignmentOfBytes(int64_t bytes) {
  uint32_t a = 256;
  while (a > 1 && (bytes % a) != 0)
    a >>= 1;
  return a;
}

/// The resources this file creates on first use (cuBLASLt handles and
/// workspaces, auxiliary streams) outlive any one call: they are not part of
/// the work a caller may be capturing into a CUDA graph. Creating them while
/// the stream captures is what the relaxed capture mode permits (the default
/// mode rejects cudaMalloc then), so they are made in that mode.
class RelaxedCaptureScope {
public:
  RelaxedCaptureScope() { cudaThreadExchangeStreamCaptureMode(&mode); }
  ~RelaxedCaptureScope() { cudaThreadExchangeStreamCaptureMode(&mode); }
  RelaxedCaptureScope(const RelaxedCaptureScope &) = delete;
  RelaxedCaptureScope &operator=(const RelaxedCaptureScope &) = delete;

private:
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
};

/// A cuBLASLt workspace, zeroed once when `stream` is not capturing. Split-K
/// plans write partial products there and a reduction kernel reads them
/// back; compute-sanitizer initcheck does not see those writes and reported
/// every such read as uninitialized (the router's dense matmul of
/// mixtral-8x7b and dsv3-1gpu, inside splitKreduce_kernel). Zeroing costs one
/// memset per workspace, and makes the reads defined for initcheck. The
/// memset goes on `stream`, the workspace's one user: on the legacy default
/// stream it would not be ordered with the non-blocking runtime stream, and
/// could land after the first GEMM's split-K partial products.
int allocateWorkspace(cudaStream_t stream, void **workspace) {
  CK_CUDA(cudaMalloc(workspace, kWorkspaceBytes));
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  cudaError_t e = cudaStreamIsCapturing(stream, &capture);
  if (e == cudaSuccess && capture == cudaStreamCaptureStatusNone)
    e = cudaMemsetAsync(*workspace, 0, kWorkspaceBytes, stream);
  if (e != cudaSuccess) {
    cudaFree(*workspace);
    *workspace = nullptr;
    return fail("%s: zeroing a new cuBLASLt workspace failed: %s (%s, status %d)", gWhat,
                cudaGetErrorString(e), cudaGetErrorName(e), (int)e);
  }
  return 0;
}

struct Context {
  int device = 0;
  cudaStream_t stream = nullptr;
  cublasLtHandle_t handle = nullptr;
  void *workspace = nullptr;
};

int getContext(void *stream, Context &ctx) {
  ctx.stream = static_cast<cudaStream_t>(stream);
  CK_CUDA(cudaGetDevice(&ctx.device));
  auto h = gHandles.find(ctx.device);
  if (h == gHandles.end()) {
    RelaxedCaptureScope relaxed;
    cublasLtHandle_t handle = nullptr;
    CK_LT(cublasLtCreate(&handle));
    h = gHandles.emplace(ctx.device, handle).first;
  }
  ctx.handle = h->second;
  auto key = std::make_pair(ctx.device, stream);
  auto w = gWorkspaces.find(key);
  if (w == gWorkspaces.end()) {
    RelaxedCaptureScope relaxed;
    void *ws = nullptr;
    if (allocateWorkspace(ctx.stream, &ws) != 0)
      return -1;
    w = gWorkspaces.emplace(key, ws).first;
  }
  ctx.workspace = w->second;
  return 0;
}

int makeLayout(cublasLtMatrixLayout_t *out, cudaDataType_t type, uint64_t rows,
               uint64_t cols, int64_t ld, int32_t batch, int64_t stride) {
  CK_LT(cublasLtMatrixLayoutCreate(out, type, rows, cols, ld));
  if (batch > 1) {
    CK_LT(cublasLtMatrixLayoutSetAttribute(*out, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                           &batch, sizeof batch));
    CK_LT(cublasLtMatrixLayoutSetAttribute(
        *out, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride));
  }
  return 0;
}

/// Bytes of an operand element of mode `in`.
int64_t operandBytes(int in) { return in == kInBF16 ? 2 : 4; }

/// fp32 accumulation; TF32 products where asked (the file's header says when).
cublasComputeType_t computeTypeOf(const PlanKey &k) {
  return k.in == kInF32Tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

/// The f32 functions' operand mode and output type for `dtype`
/// (MOERT_GPU_OUT_F32_TF32: f32 written, TF32 products).
int f32OperandsOf(int32_t &dtype) {
  if (dtype != MOERT_GPU_OUT_F32_TF32)
    return kInF32;
  dtype = MOERT_GPU_OUT_F32;
  return kInF32Tf32;
}

int buildPlan(const Context &ctx, const PlanKey &k, Plan &p) {
  CK_LT(cublasLtMatmulDescCreate(&p.op, computeTypeOf(k), CUDA_R_32F));
  cublasOperation_t ta = k.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t tb = k.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  CK_LT(cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
  CK_LT(cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
  // Stored shapes: op(A) is m x k, op(B) is k x n, C is m x n.
  const cudaDataType_t in = k.in != kInBF16 ? CUDA_R_32F : CUDA_R_16BF;
  CK(makeLayout(&p.a, in, k.transA ? k.k : k.m, k.transA ? k.m : k.k, k.lda, k.batch,
                k.strideA));
  CK(makeLayout(&p.b, in, k.transB ? k.n : k.k, k.transB ? k.k : k.n, k.ldb, k.batch,
                k.strideB));
  CK(makeLayout(&p.c, k.out == MOERT_GPU_OUT_F32 ? CUDA_R_32F : CUDA_R_16BF, k.m, k.n,
                k.ldc, k.batch, k.strideC));

  cublasLtMatmulPreference_t pref = nullptr;
  CK_LT(cublasLtMatmulPreferenceCreate(&pref));
  struct PrefGuard {
    cublasLtMatmulPreference_t p;
    ~PrefGuard() { (void)cublasLtMatmulPreferenceDestroy(p); }
  } guard{pref};
  uint64_t ws = kWorkspaceBytes;
  CK_LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                             &ws, sizeof ws));
  CK_LT(cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &k.alignA, sizeof k.alignA));
  CK_LT(cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &k.alignB, sizeof k.alignB));
  CK_LT(cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &k.alignC, sizeof k.alignC));
  CK_LT(cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &k.alignC, sizeof k.alignC));

  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  CK_LT(cublasLtMatmulAlgoGetHeuristic(ctx.handle, p.op, p.a, p.b, p.c, p.c, pref, 1,
                                       &result, &found));
  if (found < 1)
    return fail("%s: cublasLtMatmulAlgoGetHeuristic found no algorithm for m=%llu "
                "n=%llu k=%llu batch=%d (transA=%d transB=%d, in %s, out %s)",
                gWhat, (unsigned long long)k.m, (unsigned long long)k.n,
                (unsigned long long)k.k, (int)k.batch, k.transA, k.transB,
                k.in == kInBF16 ? "bf16" : k.in == kInF32 ? "f32" : "f32 (TF32)",
                k.out == MOERT_GPU_OUT_F32 ? "f32" : "bf16");
  p.algo = result.algo;
  p.workspace = result.workspaceSize;
  return 0;
}

// D(m x n) = op(A) * op(B) (+ D when `accumulate`), column-major; A and B
// bf16 (in = kInBF16) or f32 (kInF32).
int matmul(const Context &ctx, bool transA, bool transB, uint64_t m, uint64_t n,
           uint64_t k, const void *A, int64_t lda, int64_t strideA, const void *B,
           int64_t ldb, int64_t strideB, void *C, int64_t ldc, int64_t strideC,
           int32_t batch, int32_t out, int in = kInBF16, bool accumulate = false) {
  if (m == 0 || n == 0 || batch == 0)
    return 0;
  const int64_t outElt = out == MOERT_GPU_OUT_F32 ? 4 : 2;
  const int64_t inElt = operandBytes(in);
  PlanKey key{};
  key.device = ctx.device;
  key.transA = transA;
  key.transB = transB;
  key.m = m;
  key.n = n;
  key.k = k;
  key.lda = lda;
  key.ldb = ldb;
  key.ldc = ldc;
  key.batch = batch;
  key.strideA = batch > 1 ? strideA : 0;
  key.strideB = batch > 1 ? strideB : 0;
  key.strideC = batch > 1 ? strideC : 0;
  key.in = in;
  key.out = out;
  key.alignA = alignmentOf(A);
  key.alignB = alignmentOf(B);
  key.alignC = alignmentOf(C);
  if (batch > 1) {
    key.alignA = std::min(key.alignA, alignmentOfBytes(strideA * inElt));
    key.alignB = std::min(key.alignB, alignmentOfBytes(strideB * inElt));
    key.alignC = std::min(key.alignC, alignmentOfBytes(strideC * outElt));
  }
  auto it = gPlans.find(key);
  if (it == gPlans.end()) {
    if (gPlans.size() >= kMaxPlans) {
      for (auto &kv : gPlans)
        destroyPlan(kv.second);
      gPlans.clear();
    }
    Plan p;
    if (buildPlan(ctx, key, p) != 0) {
      destroyPlan(p);
      return -1;
    }
    it = gPlans.emplace(key, p).first;
  }
  const Plan &p = it->second;
  const float alpha = 1.0f, beta = accumulate ? 1.0f : 0.0f;
  CK_LT(cublasLtMatmul(ctx.handle, p.op, &alpha, A, p.a, B, p.b, &beta, C, p.c, C, p.c,
                       &p.algo, ctx.workspace, p.workspace, ctx.stream));
  return 0;
}

// One cublasLtMatmul to issue (arguments of matmul()).
struct Call {
  bool transA, transB;
  uint64_t m, n, k;
  const void *A;
  int64_t lda, strideA;
  const void *B;
  int64_t ldb, strideB;
  void *C;
  int64_t ldc, strideC;
  int32_t batch;
  double work; // m*n*k*batch, for balancing the streams
};

int auxStreamsWanted() {
  const char *e = std::getenv("MOERT_GPU_STREAMS");
  if (!e || !*e)
    return 4;
  int v = std::atoi(e);
  return v < 1 ? 1 : (v > 16 ? 16 : v);
}

int ensureAux(int device, int count, Aux *&out) {
  Aux &x = gAux[device];
  RelaxedCaptureScope relaxed;
  if (!x.fork)
    CK_CUDA(cudaEventCreateWithFlags(&x.fork, cudaEventDisableTiming));
  while ((int)x.streams.size() < count) {
    cudaStream_t st = nullptr;
    CK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    x.streams.push_back(st);
    void *ws = nullptr;
    if (allocateWorkspace(st, &ws) != 0)
      return -1;
    x.workspaces.push_back(ws);
    cudaEvent_t ev = nullptr;
    CK_CUDA(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    x.done.push_back(ev);
  }
  out = &x;
  return 0;
}

int issue(const Context &ctx, const Call &c, int32_t out, int in) {
  return matmul(ctx, c.transA, c.transB, c.m, c.n, c.k, c.A, c.lda, c.strideA, c.B, c.ldb,
                c.strideB, c.C, c.ldc, c.strideC, c.batch, out, in);
}

// Issues the calls: on the caller's stream, or spread over auxiliary streams
// (largest first, each to the least-loaded stream) between a fork and a join.
int runCalls(const Context &ctx, const std::vector<Call> &calls, int32_t out, int in) {
  const int want = auxStreamsWanted();
  if (calls.size() < 2 || want < 2) {
    for (const Call &c : calls)
      CK(issue(ctx, c, out, in));
    return 0;
  }
  const int ns = (int)std::min<size_t>(want, calls.size());
  Aux *aux = nullptr;
  CK(ensureAux(ctx.device, ns, aux));
  CK_CUDA(cudaEventRecord(aux->fork, ctx.stream));
  for (int i = 0; i < ns; ++i)
    CK_CUDA(cudaStreamWaitEvent(aux->streams[i], aux->fork, 0));
  std::vector<size_t> order(calls.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return calls[a].work != calls[b].work ? calls[a].work > calls[b].work : a < b;
  });
  std::vector<double> load(ns, 0.0);
  int rc = 0;
  for (size_t i : order) {
    int s = int(std::min_element(load.begin(), load.end()) - load.begin());
    load[s] += calls[i].work;
    Context sub = ctx;
    sub.stream = aux->streams[s];
    sub.workspace = aux->workspaces[s];
    if ((rc = issue(sub, calls[i], out, in)) != 0)
      break;
  }
  // Join even after a failure, so that the caller's stream stays ordered
  // after everything issued.
  for (int i = 0; i < ns; ++i) {
    CK_CUDA(cudaEventRecord(aux->done[i], aux->streams[i]));
    CK_CUDA(cudaStreamWaitEvent(ctx.stream, aux->done[i], 0));
  }
  return rc;
}

int checkCommon(const void *x, const void *y, const void *out, const int32_t *sizes,
                int64_t num_groups, int64_t k_dim, int64_t n, int32_t layout,
                int32_t dtype, int64_t rows) {
  if (num_groups < 0 || k_dim < 0 || n < 0 || rows < 0)
    return fail("%s: negative dimension (num_groups=%lld, k_dim=%lld, n=%lld, rows=%lld)",
                gWhat, (long long)num_groups, (long long)k_dim, (long long)n,
                (long long)rows);
  if (layout != MOERT_WEIGHT_KN && layout != MOERT_WEIGHT_NK)
    return fail("%s: weight_layout %d is neither 0 (kn) nor 1 (nk)", gWhat, (int)layout);
  if (dtype != MOERT_GPU_OUT_BF16 && dtype != MOERT_GPU_OUT_F32)
    return fail("%s: output dtype %d is neither 0 (bf16) nor 1 (f32)", gWhat, (int)dtype);
  if (num_groups > 0 && !sizes)
    return fail("%s: group sizes pointer is NULL with num_groups=%lld", gWhat,
                (long long)num_groups);
  if (num_groups > INT32_MAX)
    return fail("%s: num_groups=%lld is too large", gWhat, (long long)num_groups);
  (void)x;
  (void)y;
  (void)out;
  return 0;
}

// cuBLASLt has no f32-operand matmul into bf16 (its heuristic offers
// algorithms that write f32 there): f32 operands need an f32 output, which
// compiled code rounds to bf16 itself.
int checkOperandsAndOutput(int in, int32_t dtype) {
  if (in != kInBF16 && dtype != MOERT_GPU_OUT_F32)
    return fail("%s: f32 operands need an f32 output (dtype 1, or 2 for TF32 products), "
                "got dtype %d",
                gWhat, (int)dtype);
  return 0;
}

// Reads the sizes (host or device) into `sz` and validates them.
int readSizes(const Context &ctx, const int32_t *sizes, bool onDevice, int64_t num_groups,
              int64_t rows, std::vector<int64_t> &sz, int64_t &total) {
  sz.assign(num_groups, 0);
  const int32_t *src = sizes;
  if (onDevice && num_groups > 0) {
    if (num_groups > gPinnedCapacity) {
      if (gPinnedSizes)
        CK_CUDA(cudaFreeHost(gPinnedSizes));
      gPinnedSizes = nullptr;
      gPinnedCapacity = 0;
      int64_t cap = num_groups < 1024 ? 1024 : num_groups;
      CK_CUDA(cudaMallocHost(reinterpret_cast<void **>(&gPinnedSizes),
                             cap * sizeof(int32_t)));
      gPinnedCapacity = cap;
    }
    CK_CUDA(cudaMemcpyAsync(gPinnedSizes, sizes, num_groups * sizeof(int32_t),
                            cudaMemcpyDeviceToHost, ctx.stream));
    CK_CUDA(cudaStreamSynchronize(ctx.stream));
    src = gPinnedSizes;
  }
  total = 0;
  for (int64_t g = 0; g < num_groups; ++g) {
    if (src[g] < 0)
      return fail("%s: group_sizes[%lld] = %d is negative", gWhat, (long long)g,
                  (int)src[g]);
    sz[g] = src[g];
    total += src[g];
  }
  if (total > rows)
    return fail("%s: the group sizes sum to %lld rows, more than rows=%lld", gWhat,
                (long long)total, (long long)rows);
  return 0;
}

// `in`: the element type of a and b (kInBF16, or kInF32 / kInF32Tf32).
int groupedGemm(int in, const void *a, const void *b, const int32_t *sizes,
                bool sizesOnDevice, int64_t num_groups, int64_t K, int64_t N, int32_t layout,
                void *c, int32_t cdt, int64_t rows, void *stream) {
  CK(checkCommon(a, b, c, sizes, num_groups, K, N, layout, cdt, rows));
  CK(checkOperandsAndOutput(in, cdt));
  if (N == 0 || rows == 0)
    return 0;
  if (!c)
    return fail("%s: output pointer c is NULL", gWhat);
  Context ctx;
  CK(getContext(stream, ctx));
  std::vector<int64_t> sz;
  int64_t total = 0;
  CK(readSizes(ctx, sizes, sizesOnDevice, num_groups, rows, sz, total));
  if (total > 0 && K > 0 && (!a || !b))
    return fail("%s: input pointer a or b is NULL", gWhat);
  const int64_t elt = cdt == MOERT_GPU_OUT_F32 ? 4 : 2;
  const int64_t inElt = operandBytes(in);
  char *cp = static_cast<char *>(c);
  const char *ap = static_cast<const char *>(a);
  const char *bp = static_cast<const char *>(b);
  if (K == 0) {
    // An empty contraction: every row is zero.
    CK_CUDA(cudaMemsetAsync(cp, 0, size_t(rows) * N * elt, ctx.stream));
    return 0;
  }
  if (total < rows)
    CK_CUDA(cudaMemsetAsync(cp + size_t(total) * N * elt, 0,
                            size_t(rows - total) * N * elt, ctx.stream));
  std::vector<Call> calls;
  int64_t off = 0;
  for (int64_t g = 0; g < num_groups;) {
    int64_t mg = sz[g];
    int64_t g1 = g + 1;
    while (g1 < num_groups && sz[g1] == mg)
      ++g1;
    const int32_t batch = int32_t(g1 - g);
    if (mg > 0) {
      // Column-major: C^T (N x mg) = op(B_g)(N x K) * A_g^T (K x mg).
      const void *A = bp + size_t(g) * K * N * inElt;
      const void *B = ap + size_t(off) * K * inElt;
      void *C = cp + size_t(off) * N * elt;
      const bool nk = layout == MOERT_WEIGHT_NK;
      calls.push_back(Call{nk, false, uint64_t(N), uint64_t(mg), uint64_t(K), A,
                           nk ? K : N, K * N, B, K, mg * K, C, N, mg * N, batch,
                           double(N) * mg * K * batch});
    }
    off += mg * batch;
    g = g1;
  }
  return runCalls(ctx, calls, cdt, in);
}

// `in`: the element type of a and dc (kInBF16, or kInF32 / kInF32Tf32).
int groupedWeightGrad(int in, const void *a, const void *dc, const int32_t *sizes,
                      bool sizesOnDevice, int64_t num_groups, int64_t K, int64_t N,
                      int32_t layout, void *db, int32_t dt, int64_t rows, void *stream) {
  CK(checkCommon(a, dc, db, sizes, num_groups, K, N, layout, dt, rows));
  CK(checkOperandsAndOutput(in, dt));
  if (num_groups == 0 || K == 0 || N == 0)
    return 0;
  if (!db)
    return fail("%s: output pointer db is NULL", gWhat);
  Context ctx;
  CK(getContext(stream, ctx));
  std::vector<int64_t> sz;
  int64_t total = 0;
  CK(readSizes(ctx, sizes, sizesOnDevice, num_groups, rows, sz, total));
  if (total > 0 && (!a || !dc))
    return fail("%s: input pointer a or dc is NULL", gWhat);
  const int64_t elt = dt == MOERT_GPU_OUT_F32 ? 4 : 2;
  const int64_t inElt = operandBytes(in);
  const size_t groupBytes = size_t(K) * N * elt;
  char *dbp = static_cast<char *>(db);
  const char *ap = static_cast<const char *>(a);
  const char *dcp = static_cast<const char *>(dc);
  std::vector<Call> calls;
  int64_t off = 0;
  for (int64_t g = 0; g < num_groups;) {
    int64_t mg = sz[g];
    int64_t g1 = g + 1;
    while (g1 < num_groups && sz[g1] == mg)
      ++g1;
    const int32_t batch = int32_t(g1 - g);
    void *D = dbp + size_t(g) * groupBytes;
    const double work = double(K) * N * mg * batch;
    if (mg == 0) {
      // Empty groups: the gradient is exactly zero (cuBLASLt would skip them).
      CK_CUDA(cudaMemsetAsync(D, 0, groupBytes * batch, ctx.stream));
    } else {
      const void *Ag = ap + size_t(off) * K * inElt;
      const void *dCg = dcp + size_t(off) * N * inElt;
      if (layout == MOERT_WEIGHT_KN)
        // db_g row-major [K,N] = column-major N x K = dC_g^T (N x mg) * A_g (mg x K).
        calls.push_back(Call{false, true, uint64_t(N), uint64_t(K), uint64_t(mg), dCg, N,
                             mg * N, Ag, K, mg * K, D, N, K * N, batch, work});
      else
        // db_g row-major [N,K] = column-major K x N = A_g^T (K x mg) * dC_g (mg x N).
        calls.push_back(Call{false, true, uint64_t(K), uint64_t(N), uint64_t(mg), Ag, K,
                             mg * K, dCg, N, mg * N, D, K, K * N, batch, work});
    }
    off += mg * batch;
    g = g1;
  }
  return runCalls(ctx, calls, dt, in);
}

// Row-major C[m, n] += Σ_k A(m, k)·B(k, n), A stored [m, k] (or [k, m] when
// aTrans), B stored [k, n] (or [n, k] when bTrans), all f32 and contiguous;
// as column-major: C^T (n x m, ld n) += op(B^T) · op(A^T).
/// c += op(a)·op(b) into the f32 c (c = op(a)·op(b) unless `accumulate`),
/// operands of mode `in` (kInF32: true fp32; kInBF16: exact products on
/// tensor cores).
int denseMatmul(int in, const void *a, int32_t aTrans, const void *b, int32_t bTrans, void *c,
                bool accumulate, int64_t m, int64_t n, int64_t k, void *stream) {
  if (m < 0 || n < 0 || k < 0)
    return fail("%s: negative dimension (m=%lld, n=%lld, k=%lld)", gWhat, (long long)m,
                (long long)n, (long long)k);
  if (m == 0 || n == 0 || (k == 0 && accumulate))
    return 0; // nothing to add
  if (!c || (k != 0 && (!a || !b)))
    return fail("%s: a NULL operand (a=%p, b=%p, c=%p)", gWhat, a, b, c);
  if (k == 0) // an empty sum: c = 0
    return cudaMemsetAsync(c, 0, size_t(m) * size_t(n) * sizeof(float),
                           static_cast<cudaStream_t>(stream)) == cudaSuccess
               ? 0
               : fail("%s: zeroing c failed", gWhat);
  Context ctx;
  CK(getContext(stream, ctx));
  return matmul(ctx, bTrans != 0, aTrans != 0, uint64_t(n), uint64_t(m), uint64_t(k), b,
                bTrans ? k : n, 0, a, aTrans ? m : k, 0, c, n, 0, 1, MOERT_GPU_OUT_F32, in,
                accumulate);
}

// The moert_entry_* functions: the device-size entry points on the runtime
// stream, failures reported like mgpu* failures (sticky). `describe` writes
// the name and shape of the call for the kernel profile.
template <typename Describe, typename Call>
void entryCall(const char *entry, Describe describe, Call call) {
  moert_gpu::ScopedContext scoped(entry);
  if (!scoped.ok())
    return;
  void *stream = moert_gpu_stream();
  if (!stream)
    return; // reported
  char range[160] = "";
  if (moert_gpu::profiling())
    describe(range, sizeof range);
  moert_gpu::ProfileRange profile(range, stream);
  if (call(stream) != 0)
    moert_gpu::reportFailure(entry, gLastError.c_str());
}

/// entryCall's `describe` for the grouped entry points.
auto describeGrouped(const char *entry, int64_t numGroups, int64_t k, int64_t n,
                     int64_t rows) {
  return [=](char *buf, size_t size) {
    snprintf(buf, size, "%s [groups=%lld k=%lld n=%lld rows=%lld]", entry,
             (long long)numGroups, (long long)k, (long long)n, (long long)rows);
  };
}

/// entryCall's `describe` for the dense entry points.
auto describeDense(const char *entry, int64_t m, int64_t n, int64_t k, int32_t aTrans,
                   int32_t bTrans) {
  return [=](char *buf, size_t size) {
    snprintf(buf, size, "%s [m=%lld n=%lld k=%lld%s%s]", entry, (long long)m, (long long)n,
             (long long)k, aTrans ? " a^T" : "", bTrans ? " b^T" : "");
  };
}

struct Entry {
  std::lock_guard<std::mutex> lock{gMutex};
  explicit Entry(const char *what) {
    gWhat = what;
    gLastError.clear();
  }
};

} // namespace

void moert_gpu::setLastError(const char *msg) { gLastError = msg; }

extern "C" {

const char *moert_gpu_last_error(void) { return gLastError.c_str(); }

int moert_grouped_gemm_bf16(const void *a, const void *b, const int32_t *group_sizes_device,
                            int64_t num_groups, int64_t k_dim, int64_t n,
                            int32_t weight_layout, void *c, int32_t c_dtype, int64_t rows,
                            void *stream) {
  Entry e("moert_grouped_gemm_bf16");
  return groupedGemm(kInBF16, a, b, group_sizes_device, true, num_groups, k_dim, n, weight_layout,
                     c, c_dtype, rows, stream);
}

int moert_grouped_gemm_bf16_host_sizes(const void *a, const void *b,
                                       const int32_t *group_sizes_host, int64_t num_groups,
                                       int64_t k_dim, int64_t n, int32_t weight_layout,
                                       void *c, int32_t c_dtype, int64_t rows,
                                       void *stream) {
  Entry e("moert_grouped_gemm_bf16_host_sizes");
  return groupedGemm(kInBF16, a, b, group_sizes_host, false, num_groups, k_dim, n, weight_layout,
                     c, c_dtype, rows, stream);
}

int moert_matmul_f32(const float *a, int32_t a_trans, const float *b, int32_t b_trans,
                     float *c, int64_t m, int64_t n, int64_t k, void *stream) {
  Entry e("moert_matmul_f32");
  return denseMatmul(kInF32, a, a_trans, b, b_trans, c, /*accumulate=*/true, m, n, k, stream);
}

int moert_matmul_bf16(const void *a, int32_t a_trans, const void *b, int32_t b_trans, float *c,
                      int32_t accumulate, int64_t m, int64_t n, int64_t k, void *stream) {
  Entry e("moert_matmul_bf16");
  return denseMatmul(kInBF16, a, a_trans, b, b_trans, c, accumulate != 0, m, n, k, stream);
}

int moert_grouped_weight_grad_bf16(const void *a, const void *dc,
                                   const int32_t *group_sizes_device, int64_t num_groups,
                                   int64_t k_dim, int64_t n, int32_t weight_layout,
                                   void *db, int32_t db_dtype, int64_t rows, void *stream) {
  Entry e("moert_grouped_weight_grad_bf16");
  return groupedWeightGrad(kInBF16, a, dc, group_sizes_device, true, num_groups, k_dim, n,
                           weight_layout, db, db_dtype, rows, stream);
}

int moert_grouped_weight_grad_bf16_host_sizes(const void *a, const void *dc,
                                              const int32_t *group_sizes_host,
                                              int64_t num_groups, int64_t k_dim, int64_t n,
                                              int32_t weight_layout, void *db,
                                              int32_t db_dtype, int64_t rows,
                                              void *stream) {
  Entry e("moert_grouped_weight_grad_bf16_host_sizes");
  return groupedWeightGrad(kInBF16, a, dc, group_sizes_host, false, num_groups, k_dim, n,
                           weight_layout, db, db_dtype, rows, stream);
}

int moert_grouped_gemm_f32(const float *a, const float *b, const int32_t *group_sizes_device,
                           int64_t num_groups, int64_t k_dim, int64_t n,
                           int32_t weight_layout, void *c, int32_t c_dtype, int64_t rows,
                           void *stream) {
  Entry e("moert_grouped_gemm_f32");
  int in = f32OperandsOf(c_dtype);
  return groupedGemm(in, a, b, group_sizes_device, true, num_groups, k_dim, n,
                     weight_layout, c, c_dtype, rows, stream);
}

int moert_grouped_gemm_f32_host_sizes(const float *a, const float *b,
                                      const int32_t *group_sizes_host, int64_t num_groups,
                                      int64_t k_dim, int64_t n, int32_t weight_layout,
                                      void *c, int32_t c_dtype, int64_t rows,
                                      void *stream) {
  Entry e("moert_grouped_gemm_f32_host_sizes");
  int in = f32OperandsOf(c_dtype);
  return groupedGemm(in, a, b, group_sizes_host, false, num_groups, k_dim, n,
                     weight_layout, c, c_dtype, rows, stream);
}

int moert_grouped_weight_grad_f32(const float *a, const float *dc,
                                  const int32_t *group_sizes_device, int64_t num_groups,
                                  int64_t k_dim, int64_t n, int32_t weight_layout,
                                  void *db, int32_t db_dtype, int64_t rows, void *stream) {
  Entry e("moert_grouped_weight_grad_f32");
  int in = f32OperandsOf(db_dtype);
  return groupedWeightGrad(in, a, dc, group_sizes_device, true, num_groups, k_dim, n,
                           weight_layout, db, db_dtype, rows, stream);
}

int moert_grouped_weight_grad_f32_host_sizes(const float *a, const float *dc,
                                             const int32_t *group_sizes_host,
                                             int64_t num_groups, int64_t k_dim, int64_t n,
                                             int32_t weight_layout, void *db,
                                             int32_t db_dtype, int64_t rows,
                                             void *stream) {
  Entry e("moert_grouped_weight_grad_f32_host_sizes");
  int in = f32OperandsOf(db_dtype);
  return groupedWeightGrad(in, a, dc, group_sizes_host, false, num_groups, k_dim, n,
                           weight_layout, db, db_dtype, rows, stream);
}

// The moert_entry_* functions (entryCall above).

void moert_entry_grouped_gemm_bf16(const void *a, const void *b,
                                   const int32_t *group_sizes_device, int64_t num_groups,
                                   int64_t k_dim, int64_t n, int32_t weight_layout, void *c,
                                   int32_t c_dtype, int64_t rows) {
  const char *entry = "moert_entry_grouped_gemm_bf16";
  entryCall(
      entry,
      describeGrouped(entry, num_groups, k_dim, n, rows),
      [&](void *stream) {
        return moert_grouped_gemm_bf16(a, b, group_sizes_device, num_groups, k_dim, n,
                                       weight_layout, c, c_dtype, rows, stream);
      });
}

void moert_entry_grouped_weight_grad_bf16(const void *a, const void *dc,
                                          const int32_t *group_sizes_device,
                                          int64_t num_groups, int64_t k_dim, int64_t n,
                                          int32_t weight_layout, void *db, int32_t db_dtype,
                                          int64_t rows) {
  const char *entry = "moert_entry_grouped_weight_grad_bf16";
  entryCall(
      entry,
      describeGrouped(entry, num_groups, k_dim, n, rows),
      [&](void *stream) {
        return moert_grouped_weight_grad_bf16(a, dc, group_sizes_device, num_groups, k_dim,
                                              n, weight_layout, db, db_dtype, rows, stream);
      });
}

void moert_entry_grouped_gemm_f32(const float *a, const float *b,
                                  const int32_t *group_sizes_device, int64_t num_groups,
                                  int64_t k_dim, int64_t n, int32_t weight_layout, void *c,
                                  int32_t c_dtype, int64_t rows) {
  const char *entry = "moert_entry_grouped_gemm_f32";
  entryCall(entry, describeGrouped(entry, num_groups, k_dim, n, rows), [&](void *stream) {
    return moert_grouped_gemm_f32(a, b, group_sizes_device, num_groups, k_dim, n,
                                  weight_layout, c, c_dtype, rows, stream);
  });
}

void moert_entry_grouped_weight_grad_f32(const float *a, const float *dc,
                                         const int32_t *group_sizes_device,
                                         int64_t num_groups, int64_t k_dim, int64_t n,
                                         int32_t weight_layout, void *db, int32_t db_dtype,
                                         int64_t rows) {
  const char *entry = "moert_entry_grouped_weight_grad_f32";
  entryCall(entry, describeGrouped(entry, num_groups, k_dim, n, rows), [&](void *stream) {
    return moert_grouped_weight_grad_f32(a, dc, group_sizes_device, num_groups, k_dim, n,
                                         weight_layout, db, db_dtype, rows, stream);
  });
}

void moert_entry_matmul_f32(const float *a, int32_t a_trans, const float *b, int32_t b_trans,
                            float *c, int64_t m, int64_t n, int64_t k) {
  const char *entry = "moert_entry_matmul_f32";
  entryCall(entry, describeDense(entry, m, n, k, a_trans, b_trans), [&](void *stream) {
    return moert_matmul_f32(a, a_trans, b, b_trans, c, m, n, k, stream);
  });
}

void moert_entry_matmul_bf16(const void *a, int32_t a_trans, const void *b, int32_t b_trans,
                             float *c, int32_t accumulate, int64_t m, int64_t n, int64_t k) {
  const char *entry = "moert_entry_matmul_bf16";
  entryCall(entry, describeDense(entry, m, n, k, a_trans, b_trans), [&](void *stream) {
    return moert_matmul_bf16(a, a_trans, b, b_trans, c, accumulate, m, n, k, stream);
  });
}

void moert_gpu_release_caches(void) {
  std::lock_guard<std::mutex> lock(gMutex);
  releaseAllLocked();
}

} // extern "C"
