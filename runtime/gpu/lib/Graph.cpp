//===- Graph.cpp - CUDA graphs of compiled calls --------------------------===//
//
// moe-runner --cuda-graph captures an entry's call once on the runtime
// stream and replays it: the capture records every kernel and library call
// of the entry; one that needs the host to wait fails by name.
//
//===----------------------------------------------------------------------===//
#include "moe_runtime/moe_runtime_gpu.h"
#include "moe_runtime/moe_runtime_mgpu.h"

#include "Internal.h"

#include <cuda.h>

#include <cstdio>

namespace {

CUstream runtimeStream() { return static_cast<CUstream>(moert_gpu_stream()); }

/// Reports `status` of `call` for `entry` (0 on success, -1 after a report).
int report(const char *entry, const char *call, CUresult status) {
  if (status == CUDA_SUCCESS)
    return 0;
  const char *name = nullptr;
  cuGetErrorName(status, &name);
  char msg[256];
  std::snprintf(msg, sizeof msg, "%s failed: %s (%d)", call, name ? name : "unknown error",
                static_cast<int>(status));
  moert_gpu::reportFailure(entry, msg);
  return -1;
}

} // namespace

int moert_gpu_capture_begin(void) {
  const char *entry = "moert_gpu_capture_begin";
  moert_gpu::ScopedContext context(entry);
  if (!context.ok())
    return -1;
  return report(entry, "cuStreamBeginCapture",
                cuStreamBeginCapture(runtimeStream(), CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
}

int moert_gpu_capture_end(void **exec) {
  const char *entry = "moert_gpu_capture_end";
  *exec = nullptr;
  moert_gpu::ScopedContext context(entry);
  if (!context.ok())
    return -1;
  CUgraph graph = nullptr;
  // Ends the capture even when a captured call failed (the stream is usable
  // again; the capture is then reported invalidated).
  if (report(entry, "cuStreamEndCapture", cuStreamEndCapture(runtimeStream(), &graph)) != 0)
    return -1;
  CUgraphExec instance = nullptr;
  int rc = report(entry, "cuGraphInstantiate", cuGraphInstantiate(&instance, graph, 0));
  cuGraphDestroy(graph);
  *exec = instance;
  return rc;
}

int moert_gpu_graph_launch(void *exec) {
  const char *entry = "moert_gpu_graph_launch";
  moert_gpu::ScopedContext context(entry);
  if (!context.ok())
    return -1;
  return report(entry, "cuGraphLaunch",
                cuGraphLaunch(static_cast<CUgraphExec>(exec), runtimeStream()));
}

void moert_gpu_graph_destroy(void *exec) {
  if (!exec)
    return;
  moert_gpu::ScopedContext context("moert_gpu_graph_destroy");
  if (context.ok())
    cuGraphExecDestroy(static_cast<CUgraphExec>(exec));
}
