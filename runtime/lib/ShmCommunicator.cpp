//===- ShmCommunicator.cpp - collectives over POSIX shared memory ---------===//
//
// The segment: a header (the barrier, the abort flag, one record per rank of
// the collective it is in) and one staging slot of slotBytes per rank. A
// collective is a sequence of rounds; in each, every rank writes what it
// sends into its own slot, all meet at the barrier, every rank reads what it
// receives from the others' slots, and all meet again before the slots are
// reused.
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/Collectives.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace moert {

namespace {

constexpr uint64_t kMagic = 0x6d6f652d636f6d31ULL; // "moe-com1"
constexpr int kMaxRanks = 256;
constexpr size_t kDefaultSlotBytes = size_t(4) << 20;
constexpr size_t kReasonBytes = 512;

enum class CollectiveKind : int64_t {
  AllToAll = 1,
  AllReduce = 2,
  Broadcast = 3
};

/// What a rank is calling: the kind and the parameters every rank must agree
/// on (all_to_all: chunks per rank, row bytes; all_reduce: count, dtype;
/// broadcast: bytes, root).
struct CallRecord {
  int64_t kind = 0;
  int64_t params[2] = {0, 0};
};

struct alignas(64) RankRecord {
  std::atomic<uint64_t> barriersPassed;
  CallRecord call;
};

struct Header {
  uint64_t magic;
  int32_t worldSize;
  uint64_t slotBytes;
  alignas(64) std::atomic<uint64_t> barrierArrived;
  alignas(64) std::atomic<uint64_t> barrierGeneration;
  alignas(64) std::atomic<int32_t> abortedBy; // -1: not aborted
  char abortReason[kReasonBytes];
  RankRecord ranks[kMaxRanks];
};

static_assert(std::atomic<uint64_t>::is_always_lock_free &&
                  std::atomic<int32_t>::is_always_lock_free,
              "shared-memory atomics must be lock-free (address-free)");

size_t headerBytes() { return (sizeof(Header) + 4095) / 4096 * 4096; }

std::string errnoText() { return std::strerror(errno); }

Status parseSlotBytes(size_t *out) {
  const char *env = std::getenv("MOE_COMM_SLOT_BYTES");
  *out = kDefaultSlotBytes;
  if (!env || !*env)
    return Status::success();
  char *end = nullptr;
  unsigned long long v = std::strtoull(env, &end, 10);
  if (*end != '\0' || v < 4096 || v > (1ULL << 32))
    return Status::error(
        format("MOE_COMM_SLOT_BYTES: expected a number of bytes in [4096, "
               "2^32], got '%s'",
               env));
  *out = static_cast<size_t>(v);
  return Status::success();
}

class ShmCommunicator : public Communicator {
public:
  ShmCommunicator(std::string id, int rank, void *base, size_t bytes,
                  double timeoutSeconds)
      : id_(std::move(id)), rank_(rank), base_(base), bytes_(bytes),
        header_(static_cast<Header *>(base)), timeoutSeconds_(timeoutSeconds) {}
  ~ShmCommunicator() override { ::munmap(base_, bytes_); }

  int rank() const override { return rank_; }
  int size() const override { return header_->worldSize; }

  Status allToAll(const void *send, const int32_t *sendSizes,
                  int64_t chunksPerRank, int64_t sendRows, void *recv,
                  int32_t *recvSizes, int64_t recvRows,
                  int64_t rowBytes) override;
  Status allReduceSum(void *data, int64_t count, DType dtype) override;
  Status broadcast(void *data, int64_t bytes, int root) override;
  void abort(const std::string &reason) override;
  /// abort() on behalf of the launcher (abortedBy = the world size).
  void abortAsLauncher(const std::string &reason) { abortBy(size(), reason); }

private:
  unsigned char *slot(int r) const {
    return static_cast<unsigned char *>(base_) + headerBytes() +
           static_cast<size_t>(r) * header_->slotBytes;
  }
  /// "all_to_all on rank R of P: <message>" (and the communicator aborted,
  /// so that the others stop waiting).
  Status fail(const char *what, const std::string &message) {
    std::string full =
        format("%s on rank %d of %d: %s", what, rank_, size(), message.c_str());
    abort(full);
    return Status::error(full);
  }
  Status abortedError(const char *what) const;
  /// Publishes `reason` as the abort of `by` (a rank, or the world size for
  /// the launcher); the first abort wins.
  void abortBy(int by, const std::string &reason);
  Status barrier(const char *what);
  /// Publishes this rank's call, waits for all, and checks that every rank
  /// makes the same call.
  Status agreeOnCall(const char *what, const CallRecord &call);

  std::string id_;
  int rank_;
  void *base_;
  size_t bytes_;
  Header *header_;
  double timeoutSeconds_;
};

Status ShmCommunicator::abortedError(const char *what) const {
  int by = header_->abortedBy.load(std::memory_order_acquire);
  std::string reason(header_->abortReason,
                     strnlen(header_->abortReason, kReasonBytes));
  if (by == rank_)
    return Status::error(
        format("%s on rank %d: the communicator was aborted: %s", what, rank_,
               reason.c_str()));
  if (by == size())
    return Status::error(format("%s on rank %d: moe-runner aborted the communicator: %s",
                                what, rank_, reason.c_str()));
  return Status::error(
      format("%s on rank %d: rank %d aborted the communicator: %s", what, rank_,
             by, reason.c_str()));
}

void ShmCommunicator::abort(const std::string &reason) { abortBy(rank_, reason); }

void ShmCommunicator::abortBy(int by, const std::string &reason) {
  int32_t expected = -1;
  // The first abort wins: it claims the flag (-2, not yet readable), writes
  // its reason, then publishes its rank, so no reader sees half a reason.
  if (!header_->abortedBy.compare_exchange_strong(expected, -2,
                                                  std::memory_order_acq_rel))
    return;
  size_t n = std::min(reason.size(), kReasonBytes - 1);
  std::memcpy(header_->abortReason, reason.data(), n);
  header_->abortReason[n] = '\0';
  header_->abortedBy.store(by, std::memory_order_release);
}

Status ShmCommunicator::barrier(const char *what) {
  const int p = size();
  uint64_t generation =
      header_->barrierGeneration.load(std::memory_order_acquire);
  uint64_t passed = header_->ranks[rank_].barriersPassed.fetch_add(
                        1, std::memory_order_acq_rel) +
                    1;
  if (header_->barrierArrived.fetch_add(1, std::memory_order_acq_rel) + 1 ==
      static_cast<uint64_t>(p)) {
    header_->barrierArrived.store(0, std::memory_order_relaxed);
    header_->barrierGeneration.fetch_add(1, std::memory_order_acq_rel);
    return Status::success();
  }
  auto start = std::chrono::steady_clock::now();
  for (unsigned spin = 0;
       header_->barrierGeneration.load(std::memory_order_acquire) == generation;
       ++spin) {
    if (header_->abortedBy.load(std::memory_order_acquire) >= 0)
      return abortedError(what);
    if (spin < 64) {
      sched_yield();
      continue;
    }
    double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (waited > timeoutSeconds_) {
      std::string missing;
      for (int r = 0; r < p; ++r)
        if (header_->ranks[r].barriersPassed.load(std::memory_order_acquire) <
            passed)
          missing += (missing.empty() ? "" : ", ") + std::to_string(r);
      return fail(what, format("timed out after %g s waiting for rank(s) %s "
                               "(MOE_COMM_TIMEOUT_S)",
                               timeoutSeconds_,
                               missing.empty() ? "?" : missing.c_str()));
    }
    struct timespec pause = {0, 50 * 1000};
    nanosleep(&pause, nullptr);
  }
  return Status::success();
}

Status ShmCommunicator::agreeOnCall(const char *what, const CallRecord &call) {
  if (header_->abortedBy.load(std::memory_order_acquire) >= 0)
    return abortedError(what);
  header_->ranks[rank_].call = call;
  MOERT_TRY(barrier(what));
  auto describe = [](const CallRecord &c) {
    switch (static_cast<CollectiveKind>(c.kind)) {
    case CollectiveKind::AllToAll:
      return format("all_to_all with %lld chunks per rank of %lld-byte rows",
                    static_cast<long long>(c.params[0]),
                    static_cast<long long>(c.params[1]));
    case CollectiveKind::AllReduce:
      return format("all_reduce of %lld %s elements",
                    static_cast<long long>(c.params[0]),
                    dtypeName(static_cast<DType>(c.params[1])));
    case CollectiveKind::Broadcast:
      return format("broadcast of %lld bytes from rank %lld",
                    static_cast<long long>(c.params[0]),
                    static_cast<long long>(c.params[1]));
    }
    return std::string("an unknown collective");
  };
  for (int r = 0; r < size(); ++r) {
    const CallRecord &other = header_->ranks[r].call;
    if (other.kind != call.kind || other.params[0] != call.params[0] ||
        other.params[1] != call.params[1])
      return fail(
          what,
          format("the ranks disagree: rank %d calls %s, rank %d calls %s",
                 rank_, describe(call).c_str(), r, describe(other).c_str()));
  }
  return Status::success();
}

Status ShmCommunicator::allToAll(const void *send, const int32_t *sendSizes,
                                 int64_t chunksPerRank, int64_t sendRows,
                                 void *recv, int32_t *recvSizes,
                                 int64_t recvRows, int64_t rowBytes) {
  const char *what = "all_to_all";
  const int p = size();
  if (chunksPerRank < 1 || rowBytes < 0 || sendRows < 0 || recvRows < 0)
    return fail(
        what,
        format("bad arguments: %lld chunks per rank, %lld-byte rows, %lld send "
               "rows, %lld receive rows",
               static_cast<long long>(chunksPerRank),
               static_cast<long long>(rowBytes),
               static_cast<long long>(sendRows),
               static_cast<long long>(recvRows)));
  const int64_t n = p * chunksPerRank;
  int64_t sent = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (sendSizes[i] < 0)
      return fail(what, format("send_sizes[%lld] = %d is negative",
                               static_cast<long long>(i), sendSizes[i]));
    sent += sendSizes[i];
  }
  if (sent > sendRows)
    return fail(what,
                format("send_sizes sum to %lld rows, but the input has %lld",
                       static_cast<long long>(sent),
                       static_cast<long long>(sendRows)));
  MOERT_TRY(agreeOnCall(what, {static_cast<int64_t>(CollectiveKind::AllToAll),
                               {chunksPerRank, rowBytes}}));
  const size_t slotBytes = header_->slotBytes;
  if (static_cast<size_t>(n) * sizeof(int32_t) > slotBytes)
    return fail(
        what,
        format("%lld counts per rank do not fit the %zu-byte staging slot "
               "(MOE_COMM_SLOT_BYTES)",
               static_cast<long long>(n), slotBytes));

  // Every rank's send sizes, to all: sizes[s·n + i] = rank s's send_sizes[i].
  std::memcpy(slot(rank_), sendSizes, static_cast<size_t>(n) * sizeof(int32_t));
  MOERT_TRY(barrier(what));
  std::vector<int32_t> sizes(static_cast<size_t>(p * n));
  for (int s = 0; s < p; ++s)
    std::memcpy(&sizes[static_cast<size_t>(s * n)], slot(s),
                static_cast<size_t>(n) * sizeof(int32_t));
  MOERT_TRY(barrier(what));

  // bytes(s -> d) and where they start in s's send and in d's recv.
  auto rowsFrom = [&](int s, int d) {
    int64_t rows = 0;
    for (int64_t j = 0; j < chunksPerRank; ++j)
      rows += sizes[static_cast<size_t>(s * n + d * chunksPerRank + j)];
    return rows;
  };
  std::vector<int64_t> sendOffset(static_cast<size_t>(p)),
      recvOffset(static_cast<size_t>(p));
  int64_t sendAt = 0, received = 0;
  for (int d = 0; d < p; ++d) {
    sendOffset[static_cast<size_t>(d)] = sendAt;
    sendAt += rowsFrom(rank_, d) * rowBytes;
  }
  for (int s = 0; s < p; ++s) {
    recvOffset[static_cast<size_t>(s)] = received * rowBytes;
    received += rowsFrom(s, rank_);
    for (int64_t j = 0; j < chunksPerRank; ++j)
      recvSizes[s * chunksPerRank + j] =
          sizes[static_cast<size_t>(s * n + rank_ * chunksPerRank + j)];
  }
  if (received > recvRows)
    return fail(
        what, format("the other ranks send %lld rows, but the output has %lld",
                     static_cast<long long>(received),
                     static_cast<long long>(recvRows)));
  const int64_t piece =
      static_cast<int64_t>(slotBytes / static_cast<size_t>(p)) / 64 * 64;
  int64_t largest = 0;
  for (int s = 0; s < p; ++s)
    for (int d = 0; d < p; ++d)
      largest = std::max(largest, rowsFrom(s, d) * rowBytes);
  const int64_t rounds = piece > 0 ? (largest + piece - 1) / piece : 0;
  if (largest > 0 && piece == 0)
    return fail(what, "the staging slot is too small for this many ranks "
                      "(MOE_COMM_SLOT_BYTES)");

  const auto *src = static_cast<const unsigned char *>(send);
  auto *dst = static_cast<unsigned char *>(recv);
  for (int64_t round = 0; round < rounds; ++round) {
    const int64_t at = round * piece;
    for (int d = 0; d < p; ++d) {
      int64_t bytes = std::min(piece, rowsFrom(rank_, d) * rowBytes - at);
      if (bytes > 0)
        std::memcpy(slot(rank_) + d * piece,
                    src + sendOffset[static_cast<size_t>(d)] + at,
                    static_cast<size_t>(bytes));
    }
    MOERT_TRY(barrier(what));
    for (int s = 0; s < p; ++s) {
      int64_t bytes = std::min(piece, rowsFrom(s, rank_) * rowBytes - at);
      if (bytes > 0)
        std::memcpy(dst + recvOffset[static_cast<size_t>(s)] + at,
                    slot(s) + rank_ * piece, static_cast<size_t>(bytes));
    }
    MOERT_TRY(barrier(what));
  }
  std::memset(dst + received * rowBytes, 0,
              static_cast<size_t>((recvRows - received) * rowBytes));
  return Status::success();
}

template <typename T> void addInto(T *acc, const T *term, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    acc[i] += term[i];
}

/// Integers add with wrap-around (as the compiled code's own adds do).
template <>
void addInto<int64_t>(int64_t *acc, const int64_t *term, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    acc[i] = static_cast<int64_t>(static_cast<uint64_t>(acc[i]) +
                                  static_cast<uint64_t>(term[i]));
}
template <>
void addInto<int32_t>(int32_t *acc, const int32_t *term, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    acc[i] = static_cast<int32_t>(static_cast<uint32_t>(acc[i]) +
                                  static_cast<uint32_t>(term[i]));
}

Status ShmCommunicator::allReduceSum(void *data, int64_t count, DType dtype) {
  const char *what = "all_reduce";
  if (dtype != DType::F32 && dtype != DType::F64 && dtype != DType::I32 &&
      dtype != DType::I64)
    return fail(what,
                format("element type %s is not summed (f32, f64, i32, i64 are)",
                       dtypeName(dtype)));
  if (count < 0)
    return fail(what, format("negative element count %lld",
                             static_cast<long long>(count)));
  MOERT_TRY(agreeOnCall(what, {static_cast<int64_t>(CollectiveKind::AllReduce),
                               {count, static_cast<int64_t>(dtype)}}));
  const size_t esize = dtypeSize(dtype);
  const int64_t perRound = static_cast<int64_t>(header_->slotBytes / esize);
  auto *bytes = static_cast<unsigned char *>(data);
  std::vector<unsigned char> sum;
  for (int64_t begin = 0; begin < count; begin += perRound) {
    const int64_t n = std::min(perRound, count - begin);
    const size_t nbytes = static_cast<size_t>(n) * esize;
    std::memcpy(slot(rank_), bytes + begin * static_cast<int64_t>(esize),
                nbytes);
    MOERT_TRY(barrier(what));
    // Rank order on every rank: the same bits everywhere.
    sum.assign(slot(0), slot(0) + nbytes);
    for (int s = 1; s < size(); ++s) {
      switch (dtype) {
      case DType::F32:
        addInto(reinterpret_cast<float *>(sum.data()),
                reinterpret_cast<const float *>(slot(s)), n);
        break;
      case DType::F64:
        addInto(reinterpret_cast<double *>(sum.data()),
                reinterpret_cast<const double *>(slot(s)), n);
        break;
      case DType::I32:
        addInto(reinterpret_cast<int32_t *>(sum.data()),
                reinterpret_cast<const int32_t *>(slot(s)), n);
        break;
      default:
        addInto(reinterpret_cast<int64_t *>(sum.data()),
                reinterpret_cast<const int64_t *>(slot(s)), n);
        break;
      }
    }
    MOERT_TRY(barrier(what));
    std::memcpy(bytes + begin * static_cast<int64_t>(esize), sum.data(),
                nbytes);
  }
  return Status::success();
}

Status ShmCommunicator::broadcast(void *data, int64_t bytes, int root) {
  const char *what = "broadcast";
  if (root < 0 || root >= size() || bytes < 0)
    return fail(what, format("bad arguments: root %d, %lld bytes", root,
                             static_cast<long long>(bytes)));
  MOERT_TRY(agreeOnCall(
      what, {static_cast<int64_t>(CollectiveKind::Broadcast), {bytes, root}}));
  auto *p = static_cast<unsigned char *>(data);
  const int64_t perRound = static_cast<int64_t>(header_->slotBytes);
  for (int64_t begin = 0; begin < bytes; begin += perRound) {
    const size_t n = static_cast<size_t>(std::min(perRound, bytes - begin));
    if (rank_ == root)
      std::memcpy(slot(root), p + begin, n);
    MOERT_TRY(barrier(what));
    if (rank_ != root)
      std::memcpy(p + begin, slot(root), n);
    MOERT_TRY(barrier(what));
  }
  return Status::success();
}

} // namespace

Status collectiveTimeoutSeconds(double *seconds) {
  *seconds = 60.0;
  const char *env = std::getenv("MOE_COMM_TIMEOUT_S");
  if (!env || !*env)
    return Status::success();
  char *end = nullptr;
  double v = std::strtod(env, &end);
  if (*end != '\0' || !(v > 0) || v > 1e6)
    return Status::error(
        format("MOE_COMM_TIMEOUT_S: expected a positive number of seconds, "
               "got '%s'",
               env));
  *seconds = v;
  return Status::success();
}

Status createShmCommunicator(int worldSize, size_t slotBytes, std::string *id) {
  if (worldSize < 1 || worldSize > kMaxRanks)
    return Status::error(
        format("a shared-memory communicator joins 1 to %d ranks, not %d",
               kMaxRanks, worldSize));
  if (slotBytes == 0)
    MOERT_TRY(parseSlotBytes(&slotBytes));
  std::random_device entropy;
  std::string name = format("/moe-comm-%d-%08x%08x", static_cast<int>(getpid()),
                            entropy(), entropy());
  int fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    return Status::error(
        format("shm_open(%s): %s", name.c_str(), errnoText().c_str()));
  const size_t total =
      headerBytes() + static_cast<size_t>(worldSize) * slotBytes;
  if (::ftruncate(fd, static_cast<off_t>(total)) != 0) {
    std::string why = errnoText();
    ::close(fd);
    ::shm_unlink(name.c_str());
    return Status::error(
        format("ftruncate(%s, %zu): %s", name.c_str(), total, why.c_str()));
  }
  void *base =
      ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (base == MAP_FAILED) {
    std::string why = errnoText();
    ::shm_unlink(name.c_str());
    return Status::error(format("mmap(%s): %s", name.c_str(), why.c_str()));
  }
  // A fresh segment reads as zeros; placement-new makes the atomics objects.
  auto *header = new (base) Header();
  header->worldSize = worldSize;
  header->slotBytes = slotBytes;
  header->barrierArrived.store(0);
  header->barrierGeneration.store(0);
  header->abortedBy.store(-1);
  for (int r = 0; r < kMaxRanks; ++r)
    header->ranks[r].barriersPassed.store(0);
  std::atomic_thread_fence(std::memory_order_release);
  header->magic = kMagic;
  ::munmap(base, total);
  *id = name;
  return Status::success();
}

void removeShmCommunicator(const std::string &id) { ::shm_unlink(id.c_str()); }

Status abortShmCommunicatorAsLauncher(const std::string &id, int worldSize,
                                      const std::string &why) {
  std::unique_ptr<Communicator> comm;
  MOERT_TRY(openShmCommunicator(id, 0, worldSize, &comm, 1.0));
  static_cast<ShmCommunicator *>(comm.get())->abortAsLauncher(why);
  return Status::success();
}

Status openShmCommunicator(const std::string &id, int rank, int worldSize,
                           std::unique_ptr<Communicator> *out,
                           double timeoutSeconds) {
  auto where = [&](const std::string &what) {
    return Status::error(format("communicator %s (rank %d of %d): %s",
                                id.c_str(), rank, worldSize, what.c_str()));
  };
  if (timeoutSeconds <= 0)
    MOERT_TRY(collectiveTimeoutSeconds(&timeoutSeconds));
  if (rank < 0 || rank >= worldSize)
    return where(format("rank %d is not in [0, %d)", rank, worldSize));
  int fd = ::shm_open(id.c_str(), O_RDWR, 0);
  if (fd < 0)
    return where("shm_open: " + errnoText());
  struct stat st;
  if (::fstat(fd, &st) != 0 ||
      static_cast<size_t>(st.st_size) < headerBytes()) {
    ::close(fd);
    return where("the segment is too small to be a communicator");
  }
  const size_t total = static_cast<size_t>(st.st_size);
  void *base =
      ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (base == MAP_FAILED)
    return where("mmap: " + errnoText());
  auto *header = static_cast<Header *>(base);
  Status bad;
  if (header->magic != kMagic)
    bad = where("not a communicator segment");
  else if (header->worldSize != worldSize)
    bad = where(
        format("the communicator was made for %d ranks", header->worldSize));
  else if (total <
           headerBytes() + static_cast<size_t>(worldSize) * header->slotBytes)
    bad = where("the segment is smaller than its slots");
  if (!bad.ok()) {
    ::munmap(base, total);
    return bad;
  }
  out->reset(new ShmCommunicator(id, rank, base, total, timeoutSeconds));
  return Status::success();
}

} // namespace moert
