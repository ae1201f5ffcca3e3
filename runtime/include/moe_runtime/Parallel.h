//===- Parallel.h - chunked loops over large buffers ------------*- C++ -*-===//
//
// Drawing inputs and summarizing or checking outputs of many GB (a dsv3-size
// layer's weights and weight gradients are 22 GB each) run on several
// threads, chunk by chunk. Sums are taken per chunk of kChunkElements, then
// the chunk sums in chunk order, so results do not depend on the number of
// threads.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_PARALLEL_H
#define MOE_RUNTIME_PARALLEL_H

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace moert {

constexpr size_t kChunkElements = size_t(1) << 20;

inline size_t numChunks(size_t elements) {
  return (elements + kChunkElements - 1) / kChunkElements;
}

/// Runs body(k) for k in [0, n) on up to 16 threads.
template <typename Body> void parallelFor(size_t n, Body body) {
  size_t threads =
      std::min<size_t>({n, 16, std::max(1u, std::thread::hardware_concurrency())});
  if (threads <= 1) {
    for (size_t k = 0; k < n; ++k)
      body(k);
    return;
  }
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (size_t k = t; k < n; k += threads)
        body(k);
    });
  for (std::thread &th : pool)
    th.join();
}

} // namespace moert

#endif // MOE_RUNTIME_PARALLEL_H
