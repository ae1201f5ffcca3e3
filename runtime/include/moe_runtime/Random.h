//===- Random.h - reproducible random inputs --------------------*- C++ -*-===//
//
// The random-input scheme of moe-runner. It is a contract: the GPU runner and
// any other tool must reproduce it bit for bit (the simplest way is to call
// fillNormal on the host). See runtime/README.md, "Random inputs".
//
//   S   = splitmix64(seed ^ fnv1a64(argument name))      stream seed
//   s_i = splitmix64(S + i * 0x9E3779B97F4A7C15)           element i's seed
//         (i = 0-based row-major element index; arithmetic mod 2^64)
//   element i draws from a splitmix64 generator with state s_i:
//     u1 = ((next() >> 11) + 1) * 2^-53                    in (0, 1]
//     u2 = (next() >> 11) * 2^-53                          in [0, 1)
//     z  = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)   (double)
//     x  = stddev * z, rounded to the element type (DType.h rules)
//   if x rounds to (+/-) zero, draw u1, u2 again from the same generator
//   (at most kMaxNormalAttempts draws in all).
//
// splitmix64(x) = mix(x + 0x9E3779B97F4A7C15) where
//   mix(z): z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
//           z = (z ^ (z >> 27)) * 0x94D049BB133111EB;  return z ^ (z >> 31)
// i.e. the first output of the standard splitmix64 generator seeded with x.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_RANDOM_H
#define MOE_RUNTIME_RANDOM_H

#include "moe_runtime/DType.h"
#include "moe_runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace moert {

constexpr uint64_t kSplitMixGamma = 0x9E3779B97F4A7C15ULL;
constexpr uint64_t kFnv1aOffset = 0xCBF29CE484222325ULL;
constexpr uint64_t kFnv1aPrime = 0x100000001B3ULL;
constexpr int kMaxNormalAttempts = 1000;

inline uint64_t splitmix64Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// The first output of a splitmix64 generator seeded with x.
inline uint64_t splitmix64(uint64_t x) { return splitmix64Mix(x + kSplitMixGamma); }

/// The standard splitmix64 generator (Steele, Lea, Flood 2014).
struct SplitMix64 {
  uint64_t state;
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    state += kSplitMixGamma;
    return splitmix64Mix(state);
  }
};

/// 64-bit FNV-1a over bytes; `h` continues a previous hash.
uint64_t fnv1a64(const void *data, size_t size, uint64_t h = kFnv1aOffset);
inline uint64_t fnv1a64(const std::string &s) { return fnv1a64(s.data(), s.size()); }

/// S = splitmix64(seed ^ fnv1a64(name)).
inline uint64_t argumentStreamSeed(uint64_t seed, const std::string &name) {
  return splitmix64(seed ^ fnv1a64(name));
}

/// s_i, the seed of element i's generator.
inline uint64_t elementSeed(uint64_t streamSeed, uint64_t index) {
  return splitmix64(streamSeed + index * kSplitMixGamma);
}

/// One standard normal draw (Box-Muller, cosine branch) from two uniforms.
double drawStandardNormal(SplitMix64 &g);

/// Fill `count` elements of float type `t` at `dst` with N(0, stddev^2)
/// values following the scheme above. Fails (naming the element) only when an
/// element rounds to zero kMaxNormalAttempts times in a row, i.e. when
/// `stddev` is far below the type's smallest value. Large fills are spread
/// over threads; the result does not depend on the number of threads.
Status fillNormal(void *dst, DType t, size_t count, double stddev,
                  uint64_t streamSeed);

} // namespace moert

#endif // MOE_RUNTIME_RANDOM_H
