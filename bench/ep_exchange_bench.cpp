//===- ep_exchange_bench.cpp - the expert-parallel ragged exchange, timed -===//
//
//   moe-ep-exchange-bench P --bytes-per-rank B [--routing balanced|skewed]
//                         [--iters N] [--warmup W] [--row-bytes RB]
//   moe-ep-exchange-bench P --bytes-per-rank B --routing R --print-splits
//
// Issue 16, item 4: our expert-parallel exchange (moert_gpu_all_to_all: the
// ragged all-to-all with chunked counts in device memory, by the exchange
// MOE_EP_EXCHANGE picks: device kernels through a symmetric NCCL window, or
// host-counts + grouped ncclSend/ncclRecv) at the sizes of a MoE layer, to compare with
// torch.distributed's all_to_all_single on NCCL (bench/ep_exchange_torch.py)
// at equal bytes per rank; bench/ep-exchange.sh runs both.
//
// Forks P ranks, rank r on the r-th visible GPU (CUDA_VISIBLE_DEVICES set
// before CUDA starts), joined by one NCCL communicator whose unique id rank 0
// makes and libmoe_runtime's shared-memory communicator broadcasts (as
// runtime/gpu/tests/collectives_test.cpp). Each rank sends rows = B / RB rows
// of RB bytes (default 7168 * 2: DeepSeek-V3's hidden size in bf16), split
// over the destinations (itself included) by epSplit() below:
//   balanced: equal rows to every rank (the remainder to the lowest ranks);
//   skewed:   destination q of sender s gets weight 1 / (k + 1)^1.2 with
//             k = (q - s - 1) mod P: a Zipf(1.2)-like split rotated by the
//             sender, so every pair (s, q) carries a different load, the
//             heaviest share goes to the next rank and the lightest stays
//             on the sender (the exchange does not degenerate into a local
//             copy). Every rank still sends and receives `rows` rows in all.
// The counts live in device memory, as compiled code has them (one chunk per
// rank, C = 1).
//
// One exchange (dispatch, then combine) is checked before timing: the
// received counts, every byte of every received row, and the combined rows
// equal to the sent ones. Then `warmup` untimed and `iters` timed samples,
// each after a barrier (an NCCL all-reduce of one float, waited for on the
// host); CUDA events on the rank's stream around
//   dispatch: moert_gpu_all_to_all(send -> recv, send counts), and
//   combine:  the reverse exchange, moert_gpu_all_to_all(recv -> back, the
//             counts the dispatch received),
// each separately and together. Both calls include our count exchange (the
// device path's counts kernel and barrier, or host-counts' ncclAllGather of
// the P counts, copied to the host and waited for) and the zeroing of the
// unused tail, i.e. everything compiled code pays per call.
//
// Output (rank 0, after the ranks' samples are summed through the
// shared-memory communicator): one line per rank with its splits and its
// medians, then
//   ep-exchange P=2 routing=balanced bytes_per_rank=469762048 dispatch_ms=...
//     combine_ms=... dispatch_busbw_GBps=... combine_busbw_GBps=... ...
// where a sample's time is the slowest rank's (max over ranks), the times
// are medians over the samples, and bandwidths follow nccl-tests' alltoall:
//   algbw = bytes sent by a rank / time, busbw = algbw * (P - 1) / P
// (GB = 1e9 bytes). bytes_per_rank is the bytes actually sent, rows * RB
// (B rounded down to whole rows). With skewed routing a rank's bytes could
// differ between ranks; the bench uses the max over ranks of the bytes sent
// (with the split above they are equal: every rank sends and receives
// `rows` rows). "FAIL ..." lines and exit status 1 on any error.
//
//===----------------------------------------------------------------------===//

#include "GpuRankProcesses.h"
#include "moe_runtime/Collectives.h"
#include "moe_runtime/moe_runtime_gpu.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

struct Options {
  int ranks = 0;
  int64_t bytesPerRank = 0;
  bool skewed = false;
  int iters = 20;
  int warmup = 5;
  int64_t rowBytes = 7168 * 2;
  bool printSplits = false;
};

/// Rows sender `sender` sends to each of the `p` destinations out of `rows`
/// (see the file comment). The largest-remainder rounding (ties to the lower
/// destination) and the order of the floating-point operations are the same
/// as bench/ep_exchange_torch.py's ep_split(), so both send identical splits.
std::vector<int64_t> epSplit(int p, int64_t rows, bool skewed, int sender) {
  std::vector<double> weight(static_cast<size_t>(p), 1.0); // weight[k], k = rank of the share
  if (skewed)
    for (int k = 0; k < p; ++k)
      weight[size_t(k)] = 1.0 / std::pow(double(k + 1), 1.2);
  double total = 0.0;
  for (int k = 0; k < p; ++k)
    total += weight[size_t(k)];
  std::vector<int64_t> out(static_cast<size_t>(p));
  std::vector<double> frac(static_cast<size_t>(p));
  int64_t given = 0;
  for (int q = 0; q < p; ++q) {
    int k = skewed ? ((q - sender - 1) % p + p) % p : 0;
    double exact = double(rows) * weight[size_t(k)] / total;
    double base = std::floor(exact);
    out[size_t(q)] = int64_t(base);
    frac[size_t(q)] = exact - base;
    given += out[size_t(q)];
  }
  std::vector<int> order(static_cast<size_t>(p));
  for (int q = 0; q < p; ++q)
    order[size_t(q)] = q;
  // Largest remainder first, ties by destination (as a stable sort would).
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return frac[size_t(a)] != frac[size_t(b)] ? frac[size_t(a)] > frac[size_t(b)] : a < b;
  });
  for (int64_t i = 0; i < rows - given; ++i)
    ++out[size_t(order[size_t(i % p)])];
  return out;
}

/// Word `k` of row `i` that sender `s` sends to destination `d`.
uint32_t rowWord(int s, int d, int64_t i, int64_t k) {
  uint64_t x = uint64_t(s) * 0x9E3779B97F4A7C15ull ^ uint64_t(d) * 0xC2B2AE3D27D4EB4Full ^
               uint64_t(i) * 0x165667B19E3779F9ull ^ uint64_t(k) * 0x27D4EB2F165667C5ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return uint32_t(x);
}

double timeoutSeconds() {
  const char *env = std::getenv("MOE_COMM_TIMEOUT_S");
  double v = env ? std::strtod(env, nullptr) : 0.0;
  return v > 0 ? v : 120.0;
}

class Rank {
public:
  Rank(const Options &o, int me) : o_(o), me_(me), p_(o.ranks) {}
  int run(const std::string &shmId);

private:
  bool fail(const char *fmt, ...) __attribute__((format(printf, 2, 3)));
  bool cuda(cudaError_t e, const char *what);
  bool waitStream(const char *what);
  bool barrier();
  bool dispatch();
  bool combine();
  bool check();

  const Options &o_;
  int me_, p_;
  int64_t rows_ = 0, recvRows_ = 0;
  std::vector<std::vector<int64_t>> split_; // split_[s][d]: rows s sends to d
  cudaStream_t stream_ = nullptr;
  void *send_ = nullptr, *recv_ = nullptr, *back_ = nullptr, *one_ = nullptr;
  int32_t *sendSizes_ = nullptr, *recvSizes_ = nullptr, *backSizes_ = nullptr;
  std::vector<uint32_t> hostSend_;
};

bool Rank::fail(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  std::printf("FAIL rank %d: %s\n", me_, buf);
  std::fflush(stdout);
  return false;
}

bool Rank::cuda(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return true;
  return fail("%s: %s: %s", what, cudaGetErrorName(e), cudaGetErrorString(e));
}

/// Waits for the stream with a deadline (a rank that died leaves the others'
/// NCCL kernels waiting forever).
bool Rank::waitStream(const char *what) {
  auto start = std::chrono::steady_clock::now();
  const double timeout = timeoutSeconds();
  for (;;) {
    cudaError_t e = cudaStreamQuery(stream_);
    if (e == cudaSuccess)
      return true;
    if (e != cudaErrorNotReady)
      return cuda(e, what);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout)
      return fail("%s: timed out after %g s (MOE_COMM_TIMEOUT_S)", what, timeout);
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

bool Rank::barrier() {
  if (moert_gpu_all_reduce(0, 0, one_, 1, /*f32*/ 1, stream_) != 0)
    return fail("barrier: moert_gpu_all_reduce: %s", moert_gpu_comm_last_error());
  return waitStream("barrier");
}

bool Rank::dispatch() {
  if (moert_gpu_all_to_all(0, 0, send_, sendSizes_, 1, rows_, recv_, recvSizes_, recvRows_,
                           o_.rowBytes, stream_) != 0)
    return fail("dispatch: moert_gpu_all_to_all: %s", moert_gpu_comm_last_error());
  return true;
}

bool Rank::combine() {
  if (moert_gpu_all_to_all(0, 0, recv_, recvSizes_, 1, recvRows_, back_, backSizes_, rows_,
                           o_.rowBytes, stream_) != 0)
    return fail("combine: moert_gpu_all_to_all: %s", moert_gpu_comm_last_error());
  return true;
}

/// One dispatch + combine, every received byte checked.
bool Rank::check() {
  const size_t rowBytes = size_t(o_.rowBytes), words = rowBytes / 4;
  if (!cuda(cudaMemsetAsync(recv_, 0xa5, size_t(recvRows_) * rowBytes, stream_), "memset") ||
      !cuda(cudaMemsetAsync(back_, 0x5a, size_t(rows_) * rowBytes, stream_), "memset") ||
      !cuda(cudaMemsetAsync(recvSizes_, 0xff, size_t(p_) * 4, stream_), "memset") ||
      !cuda(cudaMemsetAsync(backSizes_, 0xff, size_t(p_) * 4, stream_), "memset") || !dispatch() ||
      !waitStream("dispatch (check)"))
    return false;
  std::vector<int32_t> sizes(static_cast<size_t>(p_));
  if (!cuda(cudaMemcpy(sizes.data(), recvSizes_, size_t(p_) * 4, cudaMemcpyDeviceToHost),
            "copy recv counts"))
    return false;
  for (int s = 0; s < p_; ++s)
    if (sizes[size_t(s)] != split_[size_t(s)][size_t(me_)])
      return fail("dispatch: received count from rank %d is %d, expected %lld", s,
                  sizes[size_t(s)], (long long)split_[size_t(s)][size_t(me_)]);
  {
    std::vector<uint32_t> got(size_t(recvRows_) * words);
    if (!cuda(cudaMemcpy(got.data(), recv_, got.size() * 4, cudaMemcpyDeviceToHost),
              "copy received rows"))
      return false;
    size_t at = 0;
    for (int s = 0; s < p_; ++s)
      for (int64_t i = 0; i < split_[size_t(s)][size_t(me_)]; ++i, at += words)
        for (size_t k = 0; k < words; ++k)
          if (got[at + k] != rowWord(s, me_, i, int64_t(k)))
            return fail("dispatch: row %lld from rank %d differs at byte %zu", (long long)i, s,
                        k * 4);
  }
  if (!combine() || !waitStream("combine (check)"))
    return false;
  if (!cuda(cudaMemcpy(sizes.data(), backSizes_, size_t(p_) * 4, cudaMemcpyDeviceToHost),
            "copy combine counts"))
    return false;
  for (int d = 0; d < p_; ++d)
    if (sizes[size_t(d)] != split_[size_t(me_)][size_t(d)])
      return fail("combine: count back from rank %d is %d, expected %lld", d, sizes[size_t(d)],
                  (long long)split_[size_t(me_)][size_t(d)]);
  std::vector<uint32_t> got(hostSend_.size());
  if (!cuda(cudaMemcpy(got.data(), back_, got.size() * 4, cudaMemcpyDeviceToHost),
            "copy combined rows"))
    return false;
  if (got != hostSend_)
    return fail("combine: the rows that came back differ from the rows sent");
  return true;
}

int Rank::run(const std::string &shmId) {
  std::unique_ptr<moert::Communicator> shm;
  moert::Status opened = moert::openShmCommunicator(shmId, me_, p_, &shm, timeoutSeconds());
  if (!opened.ok())
    return fail("%s", opened.message().c_str()), 1;
  // Any failure from here on: abort NCCL and the shared-memory communicator
  // so that the other ranks stop waiting.
  auto abortAll = [&]() {
    moert_gpu_comm_abort_all();
    shm->abort("rank " + std::to_string(me_) + " failed");
    return 1;
  };
  unsigned char id[MOERT_GPU_COMM_ID_BYTES] = {0};
  if (me_ == 0 && moert_gpu_comm_unique_id(id) != 0)
    return fail("moert_gpu_comm_unique_id: %s", moert_gpu_comm_last_error()), abortAll();
  moert::Status sent = shm->broadcast(id, sizeof id, 0);
  if (!sent.ok())
    return fail("broadcasting the NCCL id: %s", sent.message().c_str()), abortAll();
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices < 1)
    return fail("no CUDA device for this rank (CUDA_VISIBLE_DEVICES=%s): %s",
                std::getenv("CUDA_VISIBLE_DEVICES"),
                e != cudaSuccess ? cudaGetErrorString(e) : "none visible"),
           abortAll();
  if (!cuda(cudaSetDevice(0), "cudaSetDevice"))
    return abortAll();
  if (moert_gpu_comm_init(0, 0, id, me_, p_) != 0)
    return fail("moert_gpu_comm_init: %s", moert_gpu_comm_last_error()), abortAll();

  rows_ = o_.bytesPerRank / o_.rowBytes;
  for (int s = 0; s < p_; ++s)
    split_.push_back(epSplit(p_, rows_, o_.skewed, s));
  for (int s = 0; s < p_; ++s)
    recvRows_ += split_[size_t(s)][size_t(me_)];
  const size_t rowBytes = size_t(o_.rowBytes), words = rowBytes / 4;
  hostSend_.resize(size_t(rows_) * words);
  {
    size_t at = 0;
    for (int d = 0; d < p_; ++d)
      for (int64_t i = 0; i < split_[size_t(me_)][size_t(d)]; ++i, at += words)
        for (size_t k = 0; k < words; ++k)
          hostSend_[at + k] = rowWord(me_, d, i, int64_t(k));
  }
  std::vector<int32_t> counts(static_cast<size_t>(p_));
  for (int d = 0; d < p_; ++d)
    counts[size_t(d)] = int32_t(split_[size_t(me_)][size_t(d)]);
  if (!cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate") ||
      !cuda(cudaMalloc(&send_, size_t(rows_) * rowBytes), "cudaMalloc send") ||
      !cuda(cudaMalloc(&recv_, std::max<size_t>(1, size_t(recvRows_) * rowBytes)),
            "cudaMalloc recv") ||
      !cuda(cudaMalloc(&back_, size_t(rows_) * rowBytes), "cudaMalloc back") ||
      !cuda(cudaMalloc(&one_, sizeof(float)), "cudaMalloc") ||
      !cuda(cudaMalloc(reinterpret_cast<void **>(&sendSizes_), size_t(p_) * 4), "cudaMalloc") ||
      !cuda(cudaMalloc(reinterpret_cast<void **>(&recvSizes_), size_t(p_) * 4), "cudaMalloc") ||
      !cuda(cudaMalloc(reinterpret_cast<void **>(&backSizes_), size_t(p_) * 4), "cudaMalloc") ||
      !cuda(cudaMemcpy(send_, hostSend_.data(), hostSend_.size() * 4, cudaMemcpyHostToDevice),
            "copy send rows") ||
      !cuda(cudaMemcpy(sendSizes_, counts.data(), size_t(p_) * 4, cudaMemcpyHostToDevice),
            "copy send counts") ||
      !cuda(cudaMemset(one_, 0, sizeof(float)), "memset"))
    return abortAll();

  if (!check())
    return abortAll();
  // Everyone's check passed before timing starts (and a failed rank's abort
  // reaches the others here rather than in the middle of an exchange).
  double ok = 1.0;
  moert::Status agreed = shm->allReduceSum(&ok, 1, moert::DType::F64);
  if (!agreed.ok())
    return fail("after the check: %s", agreed.message().c_str()), abortAll();

  cudaEvent_t ev[3];
  for (cudaEvent_t &x : ev)
    if (!cuda(cudaEventCreate(&x), "cudaEventCreate"))
      return abortAll();
  const int n = o_.iters;
  // samples[r][3 * it + {0, 1, 2}]: rank r's dispatch, combine, total ms;
  // this rank fills its row, the sum over ranks fills the rest.
  std::vector<double> samples(size_t(p_) * size_t(3 * n), 0.0);
  for (int it = -o_.warmup; it < n; ++it) {
    if (!barrier() || !cuda(cudaEventRecord(ev[0], stream_), "cudaEventRecord") || !dispatch() ||
        !cuda(cudaEventRecord(ev[1], stream_), "cudaEventRecord") || !combine() ||
        !cuda(cudaEventRecord(ev[2], stream_), "cudaEventRecord") || !waitStream("exchange"))
      return abortAll();
    if (it < 0)
      continue;
    float d = 0, c = 0, t = 0;
    if (!cuda(cudaEventElapsedTime(&d, ev[0], ev[1]), "cudaEventElapsedTime") ||
        !cuda(cudaEventElapsedTime(&c, ev[1], ev[2]), "cudaEventElapsedTime") ||
        !cuda(cudaEventElapsedTime(&t, ev[0], ev[2]), "cudaEventElapsedTime"))
      return abortAll();
    double *row = &samples[size_t(me_) * size_t(3 * n) + size_t(3 * it)];
    row[0] = d, row[1] = c, row[2] = t;
  }
  moert::Status summed = shm->allReduceSum(samples.data(), int64_t(samples.size()),
                                           moert::DType::F64);
  if (!summed.ok())
    return fail("gathering the samples: %s", summed.message().c_str()), abortAll();

  if (me_ == 0) {
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      size_t m = v.size() / 2;
      return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
    };
    auto sample = [&](int r, int it, int what) {
      return samples[size_t(r) * size_t(3 * n) + size_t(3 * it + what)];
    };
    // Bytes each rank sends in the dispatch (its rows) and in the combine
    // (the rows it received); the max over ranks (see the file comment).
    int64_t dispatchBytes = 0, combineBytes = 0;
    for (int r = 0; r < p_; ++r) {
      int64_t out = 0, in = 0;
      for (int q = 0; q < p_; ++q)
        out += split_[size_t(r)][size_t(q)], in += split_[size_t(q)][size_t(r)];
      dispatchBytes = std::max(dispatchBytes, out * o_.rowBytes);
      combineBytes = std::max(combineBytes, in * o_.rowBytes);
      std::vector<double> per[3];
      for (int it = 0; it < n; ++it)
        for (int w = 0; w < 3; ++w)
          per[w].push_back(sample(r, it, w));
      std::string rowsTo;
      for (int q = 0; q < p_; ++q)
        rowsTo += (q ? "," : "") + std::to_string(split_[size_t(r)][size_t(q)]);
      std::printf("rank %d send_rows=%s dispatch_ms=%.4f combine_ms=%.4f total_ms=%.4f\n", r,
                  rowsTo.c_str(), median(per[0]), median(per[1]), median(per[2]));
    }
    // A sample's time: the slowest rank's.
    double ms[3];
    for (int w = 0; w < 3; ++w) {
      std::vector<double> slowest;
      for (int it = 0; it < n; ++it) {
        double m = 0;
        for (int r = 0; r < p_; ++r)
          m = std::max(m, sample(r, it, w));
        slowest.push_back(m);
      }
      ms[w] = median(slowest);
    }
    const double busFactor = double(p_ - 1) / double(p_);
    auto busbw = [&](double bytes, double millis) {
      return millis > 0 ? bytes / (millis * 1e-3) / 1e9 * busFactor : 0.0;
    };
    const char *exchange = moert_gpu_comm_exchange(0, 0);
    std::printf("ep-exchange P=%d routing=%s exchange=%s bytes_per_rank=%lld dispatch_ms=%.4f "
                "combine_ms=%.4f dispatch_busbw_GBps=%.2f combine_busbw_GBps=%.2f total_ms=%.4f "
                "total_busbw_GBps=%.2f row_bytes=%lld iters=%d warmup=%d\n",
                p_, o_.skewed ? "skewed" : "balanced", exchange ? exchange : "none",
                (long long)dispatchBytes, ms[0], ms[1],
                busbw(double(dispatchBytes), ms[0]), busbw(double(combineBytes), ms[1]), ms[2],
                busbw(double(dispatchBytes + combineBytes), ms[2]), (long long)o_.rowBytes, n,
                o_.warmup);
  }
  std::fflush(stdout);
  moert_gpu_comm_abort_all(); // frees the communicator; every rank is done with it
  return 0;
}

[[noreturn]] void usage(const char *why) {
  std::fprintf(stderr,
               "moe-ep-exchange-bench: %s\n"
               "usage: moe-ep-exchange-bench P --bytes-per-rank B [--routing balanced|skewed]\n"
               "                             [--iters N] [--warmup W] [--row-bytes RB]\n"
               "  P ranks, one GPU each; B bytes sent per rank as rows of RB bytes\n"
               "  (default 14336, a multiple of 4); iters default 20, warmup 5\n"
               "  --print-splits: print every rank's rows per destination and exit (no GPU)\n",
               why);
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options o;
  if (argc < 2)
    usage("missing P");
  auto number = [](const char *s, const char *what) {
    char *end = nullptr;
    long long v = std::strtoll(s, &end, 10);
    if (!*s || *end)
      usage((std::string("bad ") + what + ": " + s).c_str());
    return int64_t(v);
  };
  o.ranks = int(number(argv[1], "P"));
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--print-splits") {
      o.printSplits = true;
      continue;
    }
    if (i + 1 >= argc)
      usage(("missing value of " + a).c_str());
    const char *v = argv[++i];
    if (a == "--bytes-per-rank")
      o.bytesPerRank = number(v, "--bytes-per-rank");
    else if (a == "--routing") {
      if (std::strcmp(v, "balanced") && std::strcmp(v, "skewed"))
        usage("--routing is balanced or skewed");
      o.skewed = std::strcmp(v, "skewed") == 0;
    } else if (a == "--iters")
      o.iters = int(number(v, "--iters"));
    else if (a == "--warmup")
      o.warmup = int(number(v, "--warmup"));
    else if (a == "--row-bytes")
      o.rowBytes = number(v, "--row-bytes");
    else
      usage(("unknown argument " + a).c_str());
  }
  if (o.ranks < 1 || o.ranks > 64)
    usage("P must be in 1..64");
  if (o.rowBytes < 4 || o.rowBytes % 4)
    usage("--row-bytes must be a positive multiple of 4");
  if (o.bytesPerRank < o.rowBytes)
    usage("--bytes-per-rank must be at least one row (--row-bytes)");
  if (o.bytesPerRank / o.rowBytes > INT32_MAX)
    usage("--bytes-per-rank / --row-bytes must fit the int32 counts");
  if (o.iters < 1 || o.warmup < 0)
    usage("--iters must be >= 1 and --warmup >= 0");
  return o;
}

/// The number of visible CUDA devices, asked in a child process (CUDA must
/// not start in the parent of the ranks); -1 with a message when CUDA fails.
int visibleDevices() {
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
      std::printf("FAIL: no usable CUDA device: cudaGetDeviceCount: %s: %s\n", cudaGetErrorName(e),
                  cudaGetErrorString(e));
      std::fflush(stdout);
      _exit(255);
    }
    _exit(std::min(n, 254));
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
    return -1;
  return WEXITSTATUS(status) == 255 ? -1 : WEXITSTATUS(status);
}

} // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  if (o.printSplits) {
    // The splits alone (no GPU), to compare with ep_exchange_torch.py's.
    for (int r = 0; r < o.ranks; ++r) {
      std::vector<int64_t> split = epSplit(o.ranks, o.bytesPerRank / o.rowBytes, o.skewed, r);
      std::printf("rank %d send_rows=", r);
      for (int q = 0; q < o.ranks; ++q)
        std::printf("%s%lld", q ? "," : "", (long long)split[size_t(q)]);
      std::printf("\n");
    }
    return 0;
  }
  // NVLink SHARP (NVLS) stays off, as in bench/ep-exchange.sh (unless the
  // caller set it).
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  if (!moert_gpu_comm_has_nccl()) {
    std::printf("FAIL: libmoe_runtime_gpu was built without NCCL\n");
    return 1;
  }
  if (auto getVersion =
          reinterpret_cast<int (*)(int *)>(dlsym(RTLD_DEFAULT, "ncclGetVersion"))) {
    int v = 0;
    if (getVersion(&v) == 0)
      std::printf("nccl runtime version %d.%d.%d (ncclGetVersion %d)\n", v / 10000,
                  v / 100 % 100, v % 100, v);
  }
  int devices = visibleDevices();
  if (devices < o.ranks) {
    std::printf("FAIL: moe-ep-exchange-bench P=%d needs %d GPUs (one per rank); %s\n", o.ranks,
                o.ranks,
                devices < 0 ? "CUDA found none (see above)"
                            : ("found " + std::to_string(devices)).c_str());
    return 1;
  }
  int failed = moert_gpu_tests::runGpuRankProcesses(
      o.ranks, [&](const std::string &shmId, int r) { return Rank(o, r).run(shmId); });
  return failed ? 1 : 0;
}
