//===- Check.h - compare an output against a reference ----------*- C++ -*-===//
//
// --check-against: each output of a run is compared with the same output of
// a reference run (DESIGN.md, "Correctness"): floats by relative L2 error
// ||x - ref||_2 / ||ref||_2 in double over the finite elements, against a
// tolerance by dtype (bf16, f16, fp8: 1e-2; f32: 1e-5; f64: 1e-12; a scalar
// f32/f64 output, a loss: 1e-4 or its dtype's when tighter); integers and i1
// exactly, element by element.
//
// A check cannot be passed by two sides that computed nothing: a float
// output whose reference is all zero, or that holds NaN or an infinity (even
// in the same places in both), fails unless the output is declared to be so
// (Expectation: --expect-zero, --expect-nonfinite), and a declaration that
// does not hold fails too.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNNER_CHECK_H
#define MOE_RUNNER_CHECK_H

#include "moe_runtime/Artifact.h"

#include <cstdint>
#include <string>

namespace moe_runner {

/// What a float output is declared to hold (moe-runner --expect-zero NAME,
/// --expect-nonfinite NAME). Each is an assertion about the reference: it
/// allows what would otherwise fail and fails when it does not hold.
struct Expectation {
  /// The reference's finite elements are all zero: the error is then the
  /// absolute L2 norm ||x - ref||_2 (instead of a failure).
  bool zero = false;
  /// The reference holds NaN or infinities: each must be matched by the same
  /// (NaN by NaN, an infinity by the same infinity); the finite rest is
  /// compared as usual.
  bool nonFinite = false;
};

struct OutputCheck {
  bool exact = false;     // integer/i1: element-wise equality
  bool absolute = false;  // float with an all-zero reference: `error` is ||x||_2
  double error = 0.0;     // relative (or absolute) L2 error over the finite elements
  double tolerance = 0.0; // 0 for exact
  uint64_t elements = 0;
  uint64_t mismatches = 0; // exact: elements that differ; float: NaN or an
                           // infinity not matched by the same in the other
  int64_t firstMismatch = -1;
  uint64_t nonFiniteAlike = 0; // float: NaN in both, or the same infinity
  bool referenceZero = false;  // float: the reference has finite elements, all zero
  /// Why a float check fails other than by its error: a non-finite mismatch,
  /// an undeclared all-zero reference or NaN/inf, a declaration that does
  /// not hold. Empty when none.
  std::string problem;
  bool pass = false;
};

/// The DESIGN.md tolerance of a float dtype (0 for integers and i1).
double checkTolerance(moert::DType t);

/// The tolerance of a scalar f32/f64 output (a loss), DESIGN.md: "scalar
/// losses <= 1e-4 relative".
constexpr double kScalarLossTolerance = 1e-4;

/// The tolerance of output `arg` of `entry`: its dtype's, or that of the
/// least precise float argument of the entry when that is looser. An f32
/// output computed from bf16 values (e.g. the router-weight gradient of a
/// bf16 layer, which passes through bf16 activations) carries their rounding,
/// so the working precision, not the storage type, sets the bar. A scalar
/// f32 or f64 output (a loss: the aux loss, the z-loss) is a sum over the
/// whole batch, held to kScalarLossTolerance whatever the working precision
/// (an off-by-one in a normaliser over 128 tokens is 0.8 %).
double entryTolerance(const moert::EntrySpec &entry, const moert::ArgSpec &arg);

/// Compare `got` with `ref`, both `arg.numElements` elements of `arg.dtype`,
/// floats against `tolerance` and `expect` (see OutputCheck::problem).
OutputCheck compareOutput(const moert::ArgSpec &arg, const void *got, const void *ref,
                          double tolerance, Expectation expect = {});

/// "rel_l2 1.5e-07", "abs_l2 0 (reference all zero)", "rel_l2 0 (2 NaN/inf
/// in both)" or "2 of 3 differ (first at index 1)".
std::string describeError(const OutputCheck &c);
/// "1e-05", or "exact".
std::string describeTolerance(const OutputCheck &c);
/// Why a failed check failed: "must be equal", "> tolerance 1e-05", or its
/// problem ("reference all zero, not declared with --expect-zero").
std::string describeFailure(const OutputCheck &c);

} // namespace moe_runner

#endif // MOE_RUNNER_CHECK_H
