//===- Timing.h - timing helpers --------------------------------*- C++ -*-===//
#ifndef MOE_RUNTIME_TIMING_H
#define MOE_RUNTIME_TIMING_H

#include <cstdint>
#include <vector>

namespace moert {

/// std::chrono::steady_clock, in nanoseconds.
uint64_t nowNanoseconds();

/// The median (mean of the two middle values for an even count; 0 if empty).
double median(std::vector<double> samples);

} // namespace moert

#endif // MOE_RUNTIME_TIMING_H
