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

namespace {

CUstream runtimeStream() { return static_cast<CUstream>(moert_gpu_stream()); }

/// 0 on success; -1 after the failure of `call` is reported for `entry`.
int status(CUresult result, const char *entry, const char *call) {
  return moert_gpu::checkDriver(result, entry, call) ? 0 : -1;
}

} // namespace

int moert_gpu_capture_begin(void) {
  const char *entry = "moert_gpu_capture_begin";
  moert_gpu::ScopedContext context(entry);
  if (!context.ok())
    return -1;
  return status(cuStreamBeginCapture(runtimeStream(), CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                entry, "cuStreamBeginCapture");
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
  if (status(cuStreamEndCapture(runtimeStream(), &graph), entry, "cuStreamEndCapture") != 0)
    return -1;
  CUgraphExec instance = nullptr;
  int rc = status(cuGraphInstantiate(&instance, graph, 0), entry, "cuGraphInstantiate");
  cuGraphDestroy(graph);
  *exec = instance;
  return rc;
}

int moert_gpu_graph_launch(void *exec) {
  const char *entry = "moert_gpu_graph_launch";
  moert_gpu::ScopedContext context(entry);
  if (!context.ok())
    return -1;
  return status(cuGraphLaunch(static_cast<CUgraphExec>(exec), runtimeStream()), entry,
                "cuGraphLaunch");
}

void moert_gpu_graph_destroy(void *exec) {
  if (!exec)
    return;
  moert_gpu::ScopedContext context("moert_gpu_graph_destroy");
  if (context.ok())
    cuGraphExecDestroy(static_cast<CUgraphExec>(exec));
}
