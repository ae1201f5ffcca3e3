//===- Timing.cpp - timing helpers ----------------------------------------===//

#include "moe_runtime/Timing.h"

#include <algorithm>
#include <chrono>

namespace moert {

uint64_t nowNanoseconds() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

double median(std::vector<double> samples) {
  if (samples.empty())
    return 0.0;
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  if (n % 2)
    return samples[n / 2];
  return 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

} // namespace moert
