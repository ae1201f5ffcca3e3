//===- CollectiveUnitTests.cpp - the shared-memory collectives ------------===//
//
// Each test forks P processes that join one shared-memory communicator and
// check what they receive against values computed here from the send
// pattern: the ragged all-to-all (uneven, empty and all-to-one counts, chunks,
// several staging rounds), the all-reduce (f32, f64, i32, i64 over several
// rounds), broadcast, and the failures: a rank that never arrives (timeout
// naming it), a rank that aborts (seen by the others), ranks that disagree
// on the call, and bad communicator setups. Run from
// test/runner/collectives.test; prints "FAIL ..." lines and a summary, exits 1
// on any failure.
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/Collectives.h"
#include "moe_runtime/moe_runtime.h"

#include "UnitChecks.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace moert;
using namespace moert::unittest;

namespace {

using RankBody = std::function<void(Communicator &comm)>;

/// Runs `body` on P forked ranks of a fresh communicator (staging slot of
/// `slotBytes`, waits bounded by `timeout` seconds). A rank's failed checks
/// are printed by the rank and make it exit 1, which fails the test here.
void runRanks(const char *test, int p, size_t slotBytes, double timeout,
              const RankBody &body) {
  std::string id;
  Status created = createShmCommunicator(p, slotBytes, &id);
  EXPECT_OK(created);
  if (!created.ok())
    return;
  std::fflush(stdout);
  std::vector<pid_t> pids;
  for (int r = 0; r < p; ++r) {
    pid_t pid = fork();
    if (pid == 0) {
      failures = 0;
      std::unique_ptr<Communicator> comm;
      Status opened = openShmCommunicator(id, r, p, &comm, timeout);
      EXPECT_OK(opened);
      if (opened.ok())
        body(*comm);
      std::fflush(stdout);
      _exit(failures ? 1 : 0);
    }
    pids.push_back(pid);
  }
  for (int r = 0; r < p; ++r) {
    int status = 0;
    waitpid(pids[static_cast<size_t>(r)], &status, 0);
    ++checks;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      ++failures;
      std::printf("FAIL %s: rank %d of %d failed\n", test, r, p);
    }
  }
  removeShmCommunicator(id);
}

/// The value of row i of chunk j that rank s sends to rank d, column c.
float rowValue(int s, int d, int j, int i, int c) {
  return static_cast<float>(s * 1000000 + d * 10000 + j * 100 + i) + 0.25f * c;
}

/// The ragged all-to-all with counts sizes(s, d, j) (rows rank s sends to
/// rank d in chunk j): every rank checks its recv rows, recv sizes and the
/// zero tail against the pattern.
void checkAllToAll(const char *test, int p, int chunks, int cols,
                   size_t slotBytes,
                   const std::function<int(int, int, int)> &sizes) {
  runRanks(test, p, slotBytes, 20.0, [&](Communicator &comm) {
    const int me = comm.rank();
    std::vector<int32_t> sendSizes;
    std::vector<float> send;
    for (int d = 0; d < p; ++d)
      for (int j = 0; j < chunks; ++j) {
        sendSizes.push_back(sizes(me, d, j));
        for (int i = 0; i < sizes(me, d, j); ++i)
          for (int c = 0; c < cols; ++c)
            send.push_back(rowValue(me, d, j, i, c));
      }
    const int64_t sendRows =
        static_cast<int64_t>(send.size()) / cols + 3; // padding rows
    send.resize(static_cast<size_t>(sendRows * cols), -7.0f);
    std::vector<float> expected;
    std::vector<int32_t> expectedSizes;
    for (int s = 0; s < p; ++s)
      for (int j = 0; j < chunks; ++j) {
        expectedSizes.push_back(sizes(s, me, j));
        for (int i = 0; i < sizes(s, me, j); ++i)
          for (int c = 0; c < cols; ++c)
            expected.push_back(rowValue(s, me, j, i, c));
      }
    const int64_t recvRows = static_cast<int64_t>(expected.size()) / cols + 2;
    expected.resize(static_cast<size_t>(recvRows * cols), 0.0f);
    std::vector<float> recv(expected.size(), 99.0f); // the tail must be zeroed
    std::vector<int32_t> recvSizes(sendSizes.size(), -1);
    EXPECT_OK(comm.allToAll(send.data(), sendSizes.data(), chunks, sendRows,
                            recv.data(), recvSizes.data(), recvRows,
                            static_cast<int64_t>(cols * sizeof(float))));
    EXPECT(recvSizes == expectedSizes);
    EXPECT(std::memcmp(recv.data(), expected.data(),
                       recv.size() * sizeof(float)) == 0);
  });
}

void testAllToAll() {
  // Uneven: every pair a different count, some zero; C = 2 chunks.
  checkAllToAll("all_to_all uneven", 3, 2, 3, 0, [](int s, int d, int j) {
    return (s * 7 + d * 3 + j * 5) % 4;
  });
  // C = 1, the op of one chunk per destination.
  checkAllToAll("all_to_all one chunk", 4, 1, 2, 0,
                [](int s, int d, int) { return s == d ? 0 : s + 2 * d + 1; });
  // Nothing sent at all: only zero rows arrive.
  checkAllToAll("all_to_all empty", 3, 2, 4, 0,
                [](int, int, int) { return 0; });
  // A rank that receives nothing (rank 1).
  checkAllToAll("all_to_all rank receives nothing", 3, 1, 2, 0,
                [](int s, int d, int) { return d == 1 ? 0 : s + 1; });
  // All to one: every rank sends everything to rank 0.
  checkAllToAll("all_to_all all to one", 4, 2, 5, 0,
                [](int s, int d, int j) { return d == 0 ? 3 + s + j : 0; });
  // A small staging slot: the rows move in many rounds.
  checkAllToAll("all_to_all rounds", 3, 2, 16, 4096,
                [](int s, int d, int j) { return 40 + 13 * s + 7 * d + j; });
  // One rank.
  checkAllToAll("all_to_all one rank", 1, 3, 2, 0,
                [](int, int, int j) { return j + 1; });
}

void testAllReduce() {
  const int p = 4;
  // 3000 elements with a 4096-byte slot: several rounds for every type.
  const int64_t n = 3000;
  runRanks("all_reduce", p, 4096, 20.0, [&](Communicator &comm) {
    const int me = comm.rank();
    std::vector<float> f(n);
    std::vector<double> d(n);
    std::vector<int32_t> i32(n);
    std::vector<int64_t> i64(n);
    for (int64_t i = 0; i < n; ++i) {
      f[i] = static_cast<float>(me + 1) * 0.5f + static_cast<float>(i);
      d[i] = (me + 1) * 0.125 - static_cast<double>(i);
      i32[i] = static_cast<int32_t>(me * 3 - i);
      i64[i] = (int64_t(1) << 40) * me + i;
    }
    EXPECT_OK(comm.allReduceSum(f.data(), n, DType::F32));
    EXPECT_OK(comm.allReduceSum(d.data(), n, DType::F64));
    EXPECT_OK(comm.allReduceSum(i32.data(), n, DType::I32));
    EXPECT_OK(comm.allReduceSum(i64.data(), n, DType::I64));
    bool allEqual = true;
    for (int64_t i = 0; i < n; ++i) {
      // Σ_r (r+1)/2 = 5 for 4 ranks; Σ (r+1)/8 = 1.25; Σ 3r = 18.
      float ef =
          ((((0.5f + static_cast<float>(i)) + (1.0f + static_cast<float>(i))) +
            (1.5f + static_cast<float>(i))) +
           (2.0f + static_cast<float>(i)));
      allEqual &= f[i] == ef;
      allEqual &= d[i] == 1.25 - 4.0 * static_cast<double>(i);
      allEqual &= i32[i] == static_cast<int32_t>(18 - 4 * i);
      allEqual &= i64[i] == (int64_t(1) << 40) * 6 + 4 * i;
    }
    EXPECT(allEqual);
    // A 0-d value: one element.
    double loss = me == 2 ? 1.5 : 0.25;
    EXPECT_OK(comm.allReduceSum(&loss, 1, DType::F64));
    EXPECT(loss == 2.25);
    EXPECT_ERROR(comm.allReduceSum(&loss, 1, DType::BF16),
                 "bf16 is not summed");
  });
}

void testBroadcast() {
  runRanks("broadcast", 3, 4096, 20.0, [](Communicator &comm) {
    std::vector<unsigned char> data(10000);
    for (size_t i = 0; i < data.size(); ++i)
      data[i] = static_cast<unsigned char>(comm.rank() == 2 ? i * 7 : 0);
    EXPECT_OK(
        comm.broadcast(data.data(), static_cast<int64_t>(data.size()), 2));
    bool same = true;
    for (size_t i = 0; i < data.size(); ++i)
      same &= data[i] == static_cast<unsigned char>(i * 7);
    EXPECT(same);
  });
}

void testFailures() {
  // Rank 1 never arrives: rank 0 times out naming it; rank 1 then finds the
  // communicator aborted.
  runRanks("timeout", 2, 0, 0.5, [](Communicator &comm) {
    double v = 1.0;
    if (comm.rank() == 0) {
      auto t0 = std::chrono::steady_clock::now();
      EXPECT_ERROR(comm.allReduceSum(&v, 1, DType::F64),
                   "all_reduce on rank 0 of 2: timed out after 0.5 s waiting "
                   "for rank(s) 1");
      double took =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count();
      EXPECT(took >= 0.5 && took < 5.0);
    } else {
      usleep(1500 * 1000);
      EXPECT_ERROR(comm.allReduceSum(&v, 1, DType::F64),
                   "rank 0 aborted the communicator: all_reduce on rank 0 of "
                   "2: timed out");
    }
  });
  // Rank 2 aborts: ranks 0 and 1, waiting in a collective with a long
  // timeout, fail at once with its reason.
  runRanks("abort", 3, 0, 30.0, [](Communicator &comm) {
    float v = 1.0f;
    if (comm.rank() == 2) {
      usleep(200 * 1000);
      comm.abort("rank 2 could not read its inputs");
      return;
    }
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_ERROR(
        comm.allReduceSum(&v, 1, DType::F32),
        "rank 2 aborted the communicator: rank 2 could not read its inputs");
    double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
            .count();
    EXPECT(took < 10.0);
  });
  // The ranks disagree on the call.
  runRanks("disagree", 2, 0, 20.0, [](Communicator &comm) {
    std::vector<float> v(5, 1.0f);
    EXPECT_ERROR(
        comm.allReduceSum(v.data(), comm.rank() == 0 ? 4 : 5, DType::F32),
        "the ranks disagree");
  });
  runRanks("disagree row size", 2, 0, 20.0, [](Communicator &comm) {
    std::vector<int32_t> sizes(2, 0), recvSizes(2);
    std::vector<float> rows(8);
    EXPECT_ERROR(comm.allToAll(rows.data(), sizes.data(), 1, 2, rows.data() + 4,
                               recvSizes.data(), 1, comm.rank() == 0 ? 8 : 4),
                 "all_to_all with 1 chunks per rank of 8-byte rows");
  });
  // Bad arguments on one rank abort the others.
  runRanks("bad sizes", 2, 0, 20.0, [](Communicator &comm) {
    std::vector<int32_t> sizes = {comm.rank() == 1 ? 5 : 1, 1}, recvSizes(2);
    std::vector<float> send(4), recv(4);
    if (comm.rank() == 1)
      EXPECT_ERROR(comm.allToAll(send.data(), sizes.data(), 1, 4, recv.data(),
                                 recvSizes.data(), 4, 4),
                   "all_to_all on rank 1 of 2: send_sizes sum to 6 rows, but "
                   "the input has 4");
    else
      EXPECT_ERROR(comm.allToAll(send.data(), sizes.data(), 1, 4, recv.data(),
                                 recvSizes.data(), 4, 4),
                   "rank 1 aborted the communicator");
  });
  // Too many rows for the output.
  runRanks("recv overflow", 2, 0, 20.0, [](Communicator &comm) {
    std::vector<int32_t> sizes = {2, 2}, recvSizes(2);
    std::vector<float> send(4), recv(3);
    EXPECT_ERROR(comm.allToAll(send.data(), sizes.data(), 1, 4, recv.data(),
                               recvSizes.data(), 3, 4),
                 "the other ranks send 4 rows, but the output has 3");
  });

  // Setups.
  std::string id;
  EXPECT_OK(createShmCommunicator(2, 0, &id));
  std::unique_ptr<Communicator> comm;
  EXPECT_ERROR(openShmCommunicator(id, 0, 3, &comm, 1.0),
               "the communicator was made for 2 ranks");
  EXPECT_ERROR(openShmCommunicator(id, 2, 2, &comm, 1.0),
               "rank 2 is not in [0, 2)");
  // Aborted by the launcher: a rank in a collective ends at once, naming it.
  EXPECT_OK(openShmCommunicator(id, 0, 2, &comm, 10.0));
  EXPECT_OK(abortShmCommunicatorAsLauncher(id, 2, "world rank 5 ended with exit status 3"));
  float value = 1.0f;
  EXPECT_ERROR(comm->allReduceSum(&value, 1, DType::F32),
               "all_reduce on rank 0: moe-runner aborted the communicator: world rank 5 ended "
               "with exit status 3");
  comm.reset();
  removeShmCommunicator(id);
  EXPECT_ERROR(openShmCommunicator(id, 0, 2, &comm, 1.0), "shm_open");
  EXPECT_ERROR(createShmCommunicator(0, 0, &id), "1 to 256 ranks, not 0");
  setenv("MOE_COMM_TIMEOUT_S", "soon", 1);
  double seconds = 0;
  EXPECT_ERROR(collectiveTimeoutSeconds(&seconds),
               "MOE_COMM_TIMEOUT_S: expected a positive");
  setenv("MOE_COMM_TIMEOUT_S", "2.5", 1);
  EXPECT_OK(collectiveTimeoutSeconds(&seconds));
  EXPECT(seconds == 2.5);
  unsetenv("MOE_COMM_TIMEOUT_S");
  EXPECT_OK(collectiveTimeoutSeconds(&seconds));
  EXPECT(seconds == 60.0);
}

/// The C entry points compiled code calls, on a registered communicator.
void testCApi() {
  runRanks("moert_coll_*", 2, 0, 20.0, [](Communicator &comm) {
    const int me = comm.rank();
    // The registry owns its communicators; this one is runRanks', so the
    // registry gets a forwarding wrapper.
    struct Borrowed : Communicator {
      explicit Borrowed(Communicator &c) : c(c) {}
      int rank() const override { return c.rank(); }
      int size() const override { return c.size(); }
      Status allToAll(const void *s, const int32_t *ss, int64_t ch, int64_t sr,
                      void *r, int32_t *rs, int64_t rr, int64_t rb) override {
        return c.allToAll(s, ss, ch, sr, r, rs, rr, rb);
      }
      Status allReduceSum(void *d, int64_t n, DType t) override {
        return c.allReduceSum(d, n, t);
      }
      Status broadcast(void *d, int64_t n, int root) override {
        return c.broadcast(d, n, root);
      }
      void abort(const std::string &why) override { c.abort(why); }
      Communicator &c;
    };
    EXPECT_OK(registerCommunicator(
        0, 0, std::unique_ptr<Communicator>(new Borrowed(comm))));
    EXPECT(findCommunicator(0, 0) != nullptr);
    EXPECT(findCommunicator(1, 0) == nullptr);
    EXPECT_ERROR(registerCommunicator(
                     0, 0, std::unique_ptr<Communicator>(new Borrowed(comm))),
                 "already has a communicator");
    int64_t counts[2] = {me + 1, 10 * (me + 1)};
    moert_coll_all_reduce(0, 0, counts, 2, MOERT_I64);
    EXPECT(counts[0] == 3 && counts[1] == 30);
    // Rank r sends r+1 rows to each rank; rows hold (source, index).
    int32_t sendSizes[2] = {me + 1, me + 1}, recvSizes[2] = {-1, -1};
    std::vector<int64_t> send, recv(6, -1);
    for (int d = 0; d < 2; ++d)
      for (int i = 0; i <= me; ++i)
        send.push_back(100 * me + 10 * d + i);
    moert_coll_all_to_all(0, 0, send.data(), sendSizes, 1,
                          static_cast<int64_t>(send.size()), recv.data(),
                          recvSizes, 6, sizeof(int64_t));
    EXPECT(recvSizes[0] == 1 && recvSizes[1] == 2);
    std::vector<int64_t> expected = {
        10 * me, 100 + 10 * me, 100 + 10 * me + 1, 0, 0, 0};
    EXPECT(recv == expected);
  });
}

} // namespace

int main() {
  testAllToAll();
  testAllReduce();
  testBroadcast();
  testFailures();
  testCApi();
  return unitTestSummary();
}
