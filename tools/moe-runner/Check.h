//===- Check.h - compare an output against a reference ----------*- C++ -*-===//
//
// --check-against: each output of a run is compared with the same output of
// a reference run (DESIGN.md, "Correctness"): floats by relative L2 error
// ||x - ref||_2 / ||ref||_2 in double (the absolute L2 norm when
// ||ref||_2 = 0), against a tolerance by dtype (bf16, f16, fp8: 1e-2; f32:
// 1e-5; f64: 1e-12); integers and i1 exactly, element by element.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNNER_CHECK_H
#define MOE_RUNNER_CHECK_H

#include "moe_runtime/Artifact.h"

#include <cstdint>
#include <string>

namespace moe_runner {

struct OutputCheck {
  bool exact = false;      // integer/i1: element-wise equality
  bool absolute = false;   // float with ||ref|| = 0: `error` is ||x||_2
  double error = 0.0;      // relative (or absolute) L2 error; NaN/inf fail
  double tolerance = 0.0;  // 0 for exact
  uint64_t elements = 0;
  uint64_t mismatches = 0; // exact: elements that differ
  int64_t firstMismatch = -1;
  bool pass = false;
};

/// The DESIGN.md tolerance of a float dtype (0 for integers and i1).
double checkTolerance(moert::DType t);

/// The tolerance of output `arg` of `entry`: its dtype's, or that of the
/// least precise float argument of the entry when that is looser. An f32
/// output computed from bf16 values (e.g. the router-weight gradient of a
/// bf16 layer, which passes through bf16 activations) carries their rounding,
/// so the working precision, not the storage type, sets the bar.
double entryTolerance(const moert::EntrySpec &entry, const moert::ArgSpec &arg);

/// Compare `got` with `ref`, both `arg.numElements` elements of `arg.dtype`,
/// floats against `tolerance`.
/// Floats: elements that are NaN in both, or the same infinity in both, count
/// as equal; any other NaN or infinity makes the error infinite (FAIL).
OutputCheck compareOutput(const moert::ArgSpec &arg, const void *got, const void *ref,
                          double tolerance);

/// "rel_l2 1.5e-07", "abs_l2 0" or "2 of 3 differ (first at index 1)".
std::string describeError(const OutputCheck &c);
/// "1e-05", or "exact".
std::string describeTolerance(const OutputCheck &c);

} // namespace moe_runner

#endif // MOE_RUNNER_CHECK_H
