//===- Ranks.cpp - moe-runner --ranks N: one process per rank -------------===//

#include "Ranks.h"

#include "moe_runtime/DType.h"
#include "moe_runtime/FileUtil.h"
#include "moe_runtime/Npy.h"
#include "moe_runtime/Random.h"
#include "moe_runtime/Tool.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace moert;

namespace moe_runner {

namespace {

/// One rank process as the parent sees it.
struct RankProcess {
  pid_t pid = -1;
  int outFd = -1, errFd = -1;
  std::string out;     // its stdout, printed at the end
  std::string errLine; // the unfinished line of its stderr
  bool exited = false;
  int status = 0;
  bool killed = false; // stopped by the parent after another rank failed
};

/// "exit status 1", "signal 9 (Killed)".
std::string describeStatus(int status) {
  if (WIFEXITED(status))
    return format("exit status %d", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return format("signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return "an unknown status";
}

bool succeeded(const RankProcess &p) {
  return p.exited && WIFEXITED(p.status) && WEXITSTATUS(p.status) == 0;
}

bool hostStagedRequested() {
  const char *comm = std::getenv("MOE_GPU_COMM");
  return comm && std::string(comm) == "host";
}

/// Where the GPU ranks run. One visible GPU per rank (the LOCAL_RANK-th of
/// CUDA_VISIBLE_DEVICES, or device LOCAL_RANK when it is unset) for NCCL,
/// which refuses two ranks on one device. The ranks share GPUs (round robin
/// over CUDA_VISIBLE_DEVICES; all on device 0 when it is unset) under
/// MOE_GPU_COMM=host, or when CUDA_VISIBLE_DEVICES lists fewer devices than
/// ranks or one device twice: their collectives then go through host memory.
struct GpuPlacement {
  std::vector<std::string> devices; // per rank
  bool shared = false;
};

GpuPlacement placeGpuRanks(int ranks) {
  GpuPlacement placement;
  std::vector<std::string> ids = cudaVisibleDevices();
  bool host = hostStagedRequested();
  for (int r = 0; r < ranks; ++r) {
    std::string device =
        ids.empty() ? (host ? "0" : std::to_string(r)) : ids[static_cast<size_t>(r) % ids.size()];
    for (const std::string &earlier : placement.devices)
      placement.shared |= earlier == device;
    placement.devices.push_back(device);
  }
  return placement;
}

/// The environment variable with the axis groups' communicators:
/// "AXIS.GROUP=ID;..." (RankGrid::axisGroupIndex numbers the groups).
constexpr const char *kAxisCommIdsEnv = "MOE_COMM_AXIS_IDS";

/// The shared-memory communicators of the axes that hold some but not all
/// of the ranks: one per group of ranks that share the other coordinates.
struct AxisCommunicators {
  struct Segment {
    int64_t axis = 0, group = 0;
    std::vector<int64_t> members; // world ranks, in axis order
    std::string id;
  };
  std::vector<Segment> segments;

  Status create(const RankGrid &grid) {
    for (int64_t axis : grid.communicatorAxes()) {
      const int64_t size = grid.shape[static_cast<size_t>(axis)];
      if (size == grid.ranks())
        continue; // the world's
      std::vector<int64_t> firsts = grid.axisGroupFirsts(axis);
      for (size_t g = 0; g < firsts.size(); ++g) {
        Segment s{axis, static_cast<int64_t>(g), grid.axisGroup(firsts[g], axis), {}};
        MOERT_TRY(createShmCommunicator(static_cast<int>(size), 0, &s.id)
                      .withPrefix(format("axis %lld", static_cast<long long>(axis))));
        segments.push_back(std::move(s));
      }
    }
    return Status::success();
  }
  std::string env() const {
    std::string text;
    for (const Segment &s : segments)
      text += (text.empty() ? "" : ";") +
              format("%lld.%lld=", static_cast<long long>(s.axis),
                     static_cast<long long>(s.group)) +
              s.id;
    return text;
  }
  void remove() const {
    for (const Segment &s : segments)
      removeShmCommunicator(s.id);
  }
};

[[noreturn]] void execRank(char **argv, int rank, int ranks, const std::string &commId,
                           const std::string &axisCommIds, const GpuPlacement *gpu, int outFd,
                           int errFd) {
  dup2(outFd, STDOUT_FILENO);
  dup2(errFd, STDERR_FILENO);
  std::string r = std::to_string(rank), n = std::to_string(ranks);
  setenv("RANK", r.c_str(), 1);
  setenv("LOCAL_RANK", r.c_str(), 1);
  setenv("WORLD_SIZE", n.c_str(), 1);
  setenv("LOCAL_WORLD_SIZE", n.c_str(), 1);
  setenv("MOE_COMM_ID", commId.c_str(), 1);
  setenv(kAxisCommIdsEnv, axisCommIds.c_str(), 1);
  setenv(kRankProcessEnv, "1", 1);
  if (gpu) {
    setenv("CUDA_VISIBLE_DEVICES", gpu->devices[static_cast<size_t>(rank)].c_str(), 1);
    if (gpu->shared)
      setenv("MOE_GPU_COMM", "host", 1);
  }
  execv("/proc/self/exe", argv);
  std::fprintf(stderr, "cannot start rank %d: execv(/proc/self/exe): %s\n", rank,
               std::strerror(errno));
  _exit(127);
}

/// Reads what `fd` has; false at end of file.
bool drain(int fd, std::string *into) {
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      into->append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && (errno == EINTR))
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return true;
    return false;
  }
}

/// Writes the complete lines of `pending` to stderr as "rank R: line" (all
/// of it when `all`), keeping an unfinished last line.
void forwardLines(int rank, std::string *pending, bool all) {
  size_t begin = 0;
  for (size_t nl; (nl = pending->find('\n', begin)) != std::string::npos; begin = nl + 1)
    std::fprintf(stderr, "rank %d: %s\n", rank, pending->substr(begin, nl - begin).c_str());
  pending->erase(0, begin);
  if (all && !pending->empty()) {
    std::fprintf(stderr, "rank %d: %s\n", rank, pending->c_str());
    pending->clear();
  }
  std::fflush(stderr);
}

void printPrefixed(int rank, const std::string &text) {
  size_t begin = 0;
  while (begin < text.size()) {
    size_t nl = text.find('\n', begin);
    size_t end = nl == std::string::npos ? text.size() : nl;
    std::printf("rank %d: %s\n", rank, text.substr(begin, end - begin).c_str());
    begin = end + 1;
  }
}

/// Marks the communicator aborted on behalf of `rank`, which ended without
/// doing so, so that the others stop waiting for it.
void abortFor(const std::string &commId, int rank, int ranks, const std::string &why) {
  std::unique_ptr<Communicator> comm;
  if (openShmCommunicator(commId, rank, ranks, &comm, 1.0).ok())
    comm->abort(why);
}

/// Removes the world's and the axis groups' segments (before a fatal error
/// of the parent); returns errno as it was.
int removeSegments(const std::string &commId, const AxisCommunicators &axisComms) {
  const int saved = errno;
  removeShmCommunicator(commId);
  axisComms.remove();
  return saved;
}

/// Aborts the world and every axis group's communicator: a rank waiting in
/// any of them (its own group's or one the failed rank is not in, whose
/// ranks would wait for it at their next collective) stops. The groups'
/// rank numbers are not the world's: those are aborted in the launcher's
/// name, `why` naming the world rank.
void abortAllFor(const std::string &commId, const AxisCommunicators &axisComms, int rank,
                 int ranks, const std::string &why) {
  abortFor(commId, rank, ranks, why);
  for (const AxisCommunicators::Segment &s : axisComms.segments)
    (void)abortShmCommunicatorAsLauncher(s.id, static_cast<int>(s.members.size()), why);
}

} // namespace

bool isRankProcess() { return std::getenv(kRankProcessEnv) != nullptr; }

Status checkWorldSize(const ArtifactSpec &spec, int ranks) {
  std::string grids;
  for (const GridSpec &g : spec.grids)
    grids += (grids.empty() ? "" : ", ") + g.name + shapeToString(g.shape);
  if (spec.worldSize() != ranks)
    return Status::error(format("--ranks %d: the artifact runs on %lld rank%s (%s)", ranks,
                                static_cast<long long>(spec.worldSize()),
                                spec.worldSize() == 1 ? "" : "s",
                                grids.empty() ? "it has no grids" : ("grids " + grids).c_str()));
  // The ranks are the points of one grid; the others have one point each.
  if (ranks > 1 && RankGrid::of(spec).index < 0)
    return Status::error(format("--ranks %d: the ranks spread over several grids (%s); "
                                "moe-runner runs artifacts whose ranks lie in one grid",
                                ranks, grids.c_str()));
  return Status::success();
}

int runRankProcesses(char **argv, int ranks, bool gpu, const RankGrid &grid) {
  // How long the other ranks get to end by themselves after one failed (a
  // rank in a collective sees the aborted communicator at once; one that
  // computes, at its next collective) before they are killed: the
  // collectives' own timeout.
  double stopGraceSeconds = 0;
  check(collectiveTimeoutSeconds(&stopGraceSeconds).withPrefix("--ranks"));
  GpuPlacement placement;
  if (gpu) {
    placement = placeGpuRanks(ranks);
    const char *comm = std::getenv("MOE_GPU_COMM");
    if (placement.shared && comm && std::string(comm) == "nccl")
      fatal("--ranks: MOE_GPU_COMM=nccl, but ranks share a GPU (CUDA_VISIBLE_DEVICES), which "
            "NCCL refuses; use MOE_GPU_COMM=host or one GPU per rank");
    if (placement.shared)
      std::fprintf(stderr,
                   "moe-runner: %d ranks share GPUs: their collectives are staged through host "
                   "memory (MOE_GPU_COMM=host)\n",
                   ranks);
  }
  std::string commId;
  check(createShmCommunicator(ranks, 0, &commId).withPrefix("--ranks"));
  AxisCommunicators axisComms;
  Status made = axisComms.create(grid);
  if (!made.ok()) {
    removeSegments(commId, axisComms);
    check(made.withPrefix("--ranks"));
  }
  const std::string axisCommIds = axisComms.env();
  std::fflush(stdout);
  std::fflush(stderr);
  std::vector<RankProcess> procs(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    int out[2], err[2];
    if (pipe(out) != 0 || pipe(err) != 0)
      fatal(format("--ranks: pipe: %s", std::strerror(removeSegments(commId, axisComms))));
    pid_t pid = fork();
    if (pid < 0)
      fatal(format("--ranks: fork: %s", std::strerror(removeSegments(commId, axisComms))));
    if (pid == 0) {
      close(out[0]);
      close(err[0]);
      execRank(argv, r, ranks, commId, axisCommIds, gpu ? &placement : nullptr, out[1], err[1]);
    }
    close(out[1]);
    close(err[1]);
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(err[0], F_SETFL, O_NONBLOCK);
    RankProcess &p = procs[static_cast<size_t>(r)];
    p.pid = pid;
    p.outFd = out[0];
    p.errFd = err[0];
  }

  int firstFailed = -1;
  auto killAt = std::chrono::steady_clock::time_point::max();
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<std::pair<int, bool>> owner; // rank, is stderr
    for (int r = 0; r < ranks; ++r) {
      RankProcess &p = procs[static_cast<size_t>(r)];
      if (p.outFd >= 0) {
        fds.push_back({p.outFd, POLLIN, 0});
        owner.emplace_back(r, false);
      }
      if (p.errFd >= 0) {
        fds.push_back({p.errFd, POLLIN, 0});
        owner.emplace_back(r, true);
      }
    }
    bool allExited = true;
    for (const RankProcess &p : procs)
      allExited &= p.exited;
    if (fds.empty() && allExited)
      break;
    if (!fds.empty())
      poll(fds.data(), fds.size(), 100);
    else
      usleep(100 * 1000);
    for (size_t i = 0; i < fds.size(); ++i) {
      if (!fds[i].revents)
        continue;
      RankProcess &p = procs[static_cast<size_t>(owner[i].first)];
      int &fd = owner[i].second ? p.errFd : p.outFd;
      std::string *into = owner[i].second ? &p.errLine : &p.out;
      bool open = drain(fd, into);
      if (owner[i].second)
        forwardLines(owner[i].first, into, !open);
      if (!open) {
        close(fd);
        fd = -1;
      }
    }
    for (int r = 0; r < ranks; ++r) {
      RankProcess &p = procs[static_cast<size_t>(r)];
      if (p.exited || waitpid(p.pid, &p.status, WNOHANG) != p.pid)
        continue;
      p.exited = true;
      if (!succeeded(p) && firstFailed < 0) {
        firstFailed = r;
        abortAllFor(commId, axisComms, r, ranks,
                    format("rank %d ended with %s", r, describeStatus(p.status).c_str()));
        killAt = std::chrono::steady_clock::now() +
                 std::chrono::milliseconds(static_cast<int64_t>(stopGraceSeconds * 1000));
      }
    }
    if (std::chrono::steady_clock::now() >= killAt) {
      for (RankProcess &p : procs)
        if (!p.exited && !p.killed) {
          kill(p.pid, SIGKILL);
          p.killed = true;
        }
    }
  }
  removeSegments(commId, axisComms);

  for (int r = 0; r < ranks; ++r)
    printPrefixed(r, procs[static_cast<size_t>(r)].out);
  std::fflush(stdout);
  std::string failed;
  for (int r = 0; r < ranks; ++r) {
    const RankProcess &p = procs[static_cast<size_t>(r)];
    if (succeeded(p))
      continue;
    failed += (failed.empty() ? "" : "; ") +
              format("rank %d %s (%s)", r,
                     p.killed ? format("was stopped %g s after rank %d failed", stopGraceSeconds,
                                       firstFailed)
                                    .c_str()
                              : "failed",
                     describeStatus(p.status).c_str());
  }
  if (!failed.empty()) {
    std::fprintf(stderr, "moe-runner: error: --ranks %d: %s\n", ranks, failed.c_str());
    return kExitError;
  }
  return 0;
}

RankLayout joinRanks(const ArtifactSpec &spec) {
  auto intFrom = [](const char *name, long lo, long hi) {
    const char *text = std::getenv(name);
    uint64_t v = 0;
    if (!text || !parseUnsigned(text, &v) || static_cast<long>(v) < lo || static_cast<long>(v) > hi)
      fatal(format("rank process: %s is '%s', expected an integer in [%ld, %ld]", name,
                   text ? text : "(unset)", lo, hi));
    return static_cast<int>(v);
  };
  RankLayout layout;
  layout.ranks = intFrom("WORLD_SIZE", 1, 65536);
  layout.rank = intFrom("RANK", 0, layout.ranks - 1);
  const char *id = std::getenv("MOE_COMM_ID");
  if (!id || !*id)
    fatal("rank process: MOE_COMM_ID is not set (start ranks with moe-runner --ranks N)");
  check(checkWorldSize(spec, layout.ranks));
  layout.grid = RankGrid::of(spec);
  std::unique_ptr<Communicator> world;
  check(openShmCommunicator(id, layout.rank, layout.ranks, &world));
  layout.comm = world.get();
  // The world communicator serves the checks; an axis of every rank gets
  // its own handle on the same segment, an axis of fewer its group's.
  static std::unique_ptr<Communicator> keep;
  keep = std::move(world);
  const char *axisIds = std::getenv(kAxisCommIdsEnv);
  const std::string groups = axisIds ? axisIds : "";
  for (int64_t axis : layout.grid.communicatorAxes()) {
    const size_t a = static_cast<size_t>(axis);
    const int64_t size = layout.grid.shape[a];
    std::unique_ptr<Communicator> comm;
    if (size == layout.ranks) {
      check(openShmCommunicator(id, layout.rank, layout.ranks, &comm));
    } else {
      const std::string key = format("%lld.%lld=", static_cast<long long>(axis),
                                     static_cast<long long>(layout.grid.axisGroupIndex(
                                         layout.rank, axis)));
      size_t at = (";" + groups).find(";" + key);
      if (at == std::string::npos)
        fatal(format("rank process: %s has no communicator for axis %lld of rank %d (start "
                     "ranks with moe-runner --ranks N)",
                     kAxisCommIdsEnv, static_cast<long long>(axis), layout.rank));
      size_t begin = at + key.size(), end = groups.find(';', begin);
      const std::string groupId =
          groups.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
      check(openShmCommunicator(groupId, static_cast<int>(layout.grid.coordinates(layout.rank)[a]),
                                static_cast<int>(size), &comm));
    }
    check(registerCommunicator(layout.grid.index, axis, std::move(comm)));
  }
  return layout;
}

Status checkRanksAgree(const RankLayout &layout, const std::vector<RankAgreement> &items) {
  if (!layout.multiRank() || !layout.comm || items.empty())
    return Status::success();
  // An all-gather by sum: rank r fills its own row, the others are zero.
  const size_t n = items.size(), ranks = static_cast<size_t>(layout.ranks);
  std::vector<int64_t> table(n * ranks, 0);
  for (size_t i = 0; i < n; ++i) {
    int64_t bits;
    std::memcpy(&bits, &items[i].value, sizeof bits);
    table[static_cast<size_t>(layout.rank) * n + i] = bits;
  }
  MOERT_TRY(layout.comm->allReduceSum(table.data(), static_cast<int64_t>(table.size()), DType::I64)
                .withPrefix("comparing the ranks' artifacts and options"));
  // The first item that differs, and every rank whose value is not rank 0's
  // (when rank 0 is the odd one, that is all the others: say so).
  for (size_t i = 0; i < n; ++i) {
    std::string differing;
    size_t count = 0;
    for (size_t r = 1; r < ranks; ++r)
      if (table[r * n + i] != table[i]) {
        differing += (differing.empty() ? "" : ", ") + std::to_string(r);
        ++count;
      }
    if (count == 0)
      continue;
    std::string who = count == ranks - 1 && ranks > 2
                          ? "rank 0 differs from every other rank"
                          : format("rank%s %s and rank 0 differ", count > 1 ? "s" : "",
                                   differing.c_str());
    return Status::error(format("%s in %s: every rank must run the same artifact with the same "
                                "options; nothing was run",
                                who.c_str(), items[i].what.c_str()));
  }
  return Status::success();
}

Status fingerprintFiles(const std::vector<std::string> &paths, uint64_t *out) {
  uint64_t h = kFnv1aOffset;
  for (const std::string &path : paths) {
    std::string bytes;
    MOERT_TRY(readFile(path, &bytes));
    const uint64_t size = bytes.size();
    h = fnv1a64(&size, sizeof size, h);
    h = fnv1a64(bytes.data(), bytes.size(), h);
  }
  *out = h;
  return Status::success();
}

ArgSpec oneRankArg(const ArgSpec &local, const RankGrid &grid) {
  ArgSpec full = local;
  const int64_t shards = grid.shards(local.splitAxes);
  if (local.splitDim < 0 || shards == 1)
    return full;
  full.shape[static_cast<size_t>(local.splitDim)] *= shards;
  full.numElements *= static_cast<size_t>(shards);
  full.numBytes *= static_cast<size_t>(shards);
  return full;
}

void copyRankSlice(const ArgSpec &local, const RankGrid &grid, int rank, const void *full,
                   void *dst) {
  if (local.splitDim < 0) {
    std::memcpy(dst, full, local.numBytes);
    return;
  }
  const size_t shards = static_cast<size_t>(grid.shards(local.splitAxes));
  const size_t shard = static_cast<size_t>(grid.shardOf(rank, local.splitAxes));
  size_t outer = 1, inner = dtypeSize(local.dtype);
  for (int d = 0; d < local.splitDim; ++d)
    outer *= static_cast<size_t>(local.shape[static_cast<size_t>(d)]);
  for (size_t d = static_cast<size_t>(local.splitDim) + 1; d < local.shape.size(); ++d)
    inner *= static_cast<size_t>(local.shape[d]);
  const size_t n = static_cast<size_t>(local.shape[static_cast<size_t>(local.splitDim)]);
  const auto *src = static_cast<const unsigned char *>(full);
  auto *out = static_cast<unsigned char *>(dst);
  for (size_t o = 0; o < outer; ++o)
    std::memcpy(out + o * n * inner, src + (o * n * shards + shard * n) * inner, n * inner);
}

Status sumOverRanks(const RankLayout &layout, const ArgSpec &arg, const void *local,
                    AlignedBuffer *sum) {
  MOERT_TRY(sum->allocate(arg.numBytes));
  // One sum per axis of several ranks, over that axis's group.
  std::vector<Communicator *> comms;
  for (int64_t axis : layout.grid.axesOrAll(arg.partialAxes)) {
    if (layout.grid.shape[static_cast<size_t>(axis)] == 1)
      continue;
    Communicator *comm = findCommunicator(layout.grid.index, axis);
    if (!comm)
      return Status::error(format("no communicator for axis %lld in this rank",
                                  static_cast<long long>(axis)));
    comms.push_back(comm);
  }
  const size_t esize = dtypeSize(arg.dtype);
  const auto *in = static_cast<const unsigned char *>(local);
  auto *out = static_cast<unsigned char *>(sum->data());
  const int64_t count = static_cast<int64_t>(arg.numElements);
  if (isFloatDType(arg.dtype)) {
    std::vector<double> values(arg.numElements);
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = loadAsDouble(arg.dtype, in + i * esize);
    for (Communicator *comm : comms)
      MOERT_TRY(comm->allReduceSum(values.data(), count, DType::F64));
    for (size_t i = 0; i < values.size(); ++i)
      storeFloat(arg.dtype, values[i], out + i * esize);
  } else {
    std::vector<int64_t> values(arg.numElements);
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = loadAsInt(arg.dtype, in + i * esize);
    for (Communicator *comm : comms)
      MOERT_TRY(comm->allReduceSum(values.data(), count, DType::I64));
    for (size_t i = 0; i < values.size(); ++i)
      storeInt(arg.dtype, values[i], out + i * esize);
  }
  return Status::success();
}

} // namespace moe_runner
