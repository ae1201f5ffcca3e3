//===- Random.cpp - reproducible random inputs ----------------------------===//

#include "moe_runtime/Random.h"

#include "moe_runtime/Parallel.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace moert {

uint64_t fnv1a64(const void *data, size_t size, uint64_t h) {
  const unsigned char *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= kFnv1aPrime;
  }
  return h;
}

double drawStandardNormal(SplitMix64 &g) {
  const double kTwoPow53Inv = 1.0 / 9007199254740992.0; // 2^-53
  double u1 = static_cast<double>((g.next() >> 11) + 1) * kTwoPow53Inv;
  double u2 = static_cast<double>(g.next() >> 11) * kTwoPow53Inv;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

namespace {

/// Fills elements [begin, end); returns the index of the first element that
/// could not be made nonzero, or `end` when all succeeded.
size_t fillRange(unsigned char *dst, DType t, size_t begin, size_t end,
                 double stddev, uint64_t streamSeed) {
  size_t esize = dtypeSize(t);
  for (size_t i = begin; i < end; ++i) {
    SplitMix64 g(elementSeed(streamSeed, i));
    unsigned char *p = dst + i * esize;
    int attempt = 0;
    for (;; ++attempt) {
      if (attempt == kMaxNormalAttempts)
        return i;
      storeFloat(t, stddev * drawStandardNormal(g), p);
      if (loadAsDouble(t, p) != 0.0)
        break;
    }
  }
  return end;
}

} // namespace

Status fillNormal(void *dstVoid, DType t, size_t count, double stddev,
                  uint64_t streamSeed) {
  if (!isFloatDType(t))
    return Status::error(format("cannot draw random values of integer type %s",
                                dtypeName(t)));
  if (!(stddev > 0.0) || !std::isfinite(stddev))
    return Status::error(format("invalid standard deviation %g", stddev));
  unsigned char *dst = static_cast<unsigned char *>(dstVoid);

  // Element values depend on their index only (elementSeed), not on the
  // chunking; the first chunk that failed names the first failed element.
  std::vector<size_t> failed(numChunks(count));
  parallelFor(failed.size(), [&](size_t k) {
    size_t begin = k * kChunkElements, end = std::min(count, begin + kChunkElements);
    failed[k] = fillRange(dst, t, begin, end, stddev, streamSeed);
  });
  for (size_t k = 0; k < failed.size(); ++k)
    if (failed[k] != std::min(count, (k + 1) * kChunkElements))
      return Status::error(format(
          "element %zu rounded to zero in %d draws of N(0, %g^2) in %s; the "
          "standard deviation is too small for the type",
          failed[k], kMaxNormalAttempts, stddev, dtypeName(t)));
  return Status::success();
}

} // namespace moert
