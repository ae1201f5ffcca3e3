//===- Collectives.cpp - the communicators of this process ----------------===//
//
// The registry of communicators by (grid, axis) and the moert_coll_* C entry
// points compiled CPU code calls (moert_coll_abi.def).
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/Collectives.h"
#include "moe_runtime/moe_runtime.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

namespace moert {

namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::pair<int64_t, int64_t>, std::unique_ptr<Communicator>> comms;
};

Registry &registry() {
  static Registry *r = new Registry(); // never destroyed: atexit order
  return *r;
}

/// Reports a failed collective call, aborts its communicator and exits: the
/// compiled code that called it has no way to return an error.
[[noreturn]] void failCall(const char *call, int64_t grid, int64_t axis,
                           Communicator *comm, const std::string &why) {
  std::fprintf(stderr, "moe_runtime: %s (grid %lld, axis %lld): %s\n", call,
               static_cast<long long>(grid), static_cast<long long>(axis),
               why.c_str());
  if (comm)
    comm->abort(
        format("%s failed on rank %d: %s", call, comm->rank(), why.c_str()));
  std::fflush(stdout);
  std::exit(1);
}

Communicator *communicatorFor(const char *call, int64_t grid, int64_t axis) {
  Communicator *comm = findCommunicator(grid, axis);
  if (!comm)
    failCall(call, grid, axis, nullptr,
             "no communicator for this grid axis in this process (run the "
             "artifact on its "
             "ranks: moe-runner --ranks N)");
  return comm;
}

} // namespace

Status registerCommunicator(int64_t grid, int64_t axis,
                            std::unique_ptr<Communicator> comm) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto key = std::make_pair(grid, axis);
  if (r.comms.count(key))
    return Status::error(
        format("grid %lld axis %lld already has a communicator",
               static_cast<long long>(grid), static_cast<long long>(axis)));
  r.comms[key] = std::move(comm);
  return Status::success();
}

Communicator *findCommunicator(int64_t grid, int64_t axis) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.comms.find(std::make_pair(grid, axis));
  return it == r.comms.end() ? nullptr : it->second.get();
}

void abortCommunicators(const std::string &reason) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto &entry : r.comms)
    entry.second->abort(reason);
}

} // namespace moert

using namespace moert;

extern "C" {

MOERT_EXPORT void
moert_coll_all_to_all(int64_t grid, int64_t axis, const void *send,
                      const int32_t *send_sizes, int64_t chunks_per_rank,
                      int64_t send_rows, void *recv, int32_t *recv_sizes,
                      int64_t recv_rows, int64_t row_bytes) {
  const char *call = "moert_coll_all_to_all";
  Communicator *comm = communicatorFor(call, grid, axis);
  Status s = comm->allToAll(send, send_sizes, chunks_per_rank, send_rows, recv,
                            recv_sizes, recv_rows, row_bytes);
  if (!s.ok())
    failCall(call, grid, axis, comm, s.message());
}

MOERT_EXPORT void moert_coll_all_reduce(int64_t grid, int64_t axis, void *data,
                                        int64_t count, int32_t dtype_code) {
  const char *call = "moert_coll_all_reduce";
  Communicator *comm = communicatorFor(call, grid, axis);
  if (dtype_code < 0 || dtype_code >= kNumDTypes)
    failCall(call, grid, axis, comm,
             format("unknown element type code %d", dtype_code));
  Status s = comm->allReduceSum(data, count, static_cast<DType>(dtype_code));
  if (!s.ok())
    failCall(call, grid, axis, comm, s.message());
}

} // extern "C"
