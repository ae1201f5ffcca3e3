//===- UnitChecks.h - the check macros of the runtime's unit tests --------===//
//
// Each unit-test program counts its checks and failures, prints one
// "FAIL file:line: ..." line per failed check and ends with
// unitTestSummary(), which prints "<n> checks, <m> failures" (and
// "ALL PASSED" when m = 0) and gives the exit status. The lit tests match
// those lines.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_UNITTESTS_UNITCHECKS_H
#define MOE_RUNTIME_UNITTESTS_UNITCHECKS_H

#include "moe_runtime/Status.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

namespace moert::unittest {

inline int failures = 0;
inline int checks = 0;

inline int unitTestSummary() {
  std::printf("%d checks, %d failures\n", checks, failures);
  if (failures == 0)
    std::printf("ALL PASSED\n");
  return failures ? 1 : 0;
}

} // namespace moert::unittest

#define EXPECT(cond)                                                           \
  do {                                                                         \
    ++moert::unittest::checks;                                                 \
    if (!(cond)) {                                                             \
      ++moert::unittest::failures;                                             \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
    }                                                                          \
  } while (0)

#define EXPECT_EQ_U64(a, b)                                                    \
  do {                                                                         \
    ++moert::unittest::checks;                                                 \
    uint64_t va_ = (a), vb_ = (b);                                             \
    if (va_ != vb_) {                                                          \
      ++moert::unittest::failures;                                             \
      std::printf("FAIL %s:%d: %s == 0x%" PRIx64 ", expected 0x%" PRIx64 "\n", \
                  __FILE__, __LINE__, #a, va_, vb_);                           \
    }                                                                          \
  } while (0)

#define EXPECT_OK(status)                                                      \
  do {                                                                         \
    ++moert::unittest::checks;                                                 \
    moert::Status st_ = (status);                                              \
    if (!st_.ok()) {                                                           \
      ++moert::unittest::failures;                                             \
      std::printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #status,         \
                  st_.message().c_str());                                      \
    }                                                                          \
  } while (0)

/// Expects an error whose message contains `needle`.
#define EXPECT_ERROR(status, needle)                                           \
  do {                                                                         \
    ++moert::unittest::checks;                                                 \
    moert::Status st_ = (status);                                              \
    if (st_.ok() || st_.message().find(needle) == std::string::npos) {         \
      ++moert::unittest::failures;                                             \
      std::printf("FAIL %s:%d: %s: expected an error containing '%s', got "    \
                  "'%s'\n",                                                    \
                  __FILE__, __LINE__, #status, needle,                         \
                  st_.ok() ? "(ok)" : st_.message().c_str());                  \
    }                                                                          \
  } while (0)

#endif // MOE_RUNTIME_UNITTESTS_UNITCHECKS_H
