//===- Check.h - compare an output against a reference ----------*- C++ -*-===//
//
// --check-against: each output of a run is compared with the same output of
// a reference run (DESIGN.md, "Correctness"): floats by relative L2 error
// ||x - ref||_2 / ||ref||_2 in double over the finite elements, against a
// tolerance by dtype (bf16, f16: 1e-2; fp8: 3e-2; f32: 1e-5; f64: 1e-12; a scalar
// f32/f64 output, a loss: 1e-4 or its dtype's when tighter); integers and i1
// exactly, element by element.
//
// A check cannot be passed by two sides that computed nothing: a float
// output whose reference is all zero, or that holds NaN or an infinity (even
// in the same places in both), fails unless the output is declared to be so
// (Expectation: --expect-zero, --expect-nonfinite), and a declaration that
// does not hold fails too.
//
// Router indices may differ only by near-ties (compareRouterIndices): where
// the reference's selection scores of the two experts a position holds on
// either side are within kNearTieTolerance relative. Such tokens are counted,
// and their rows are left out of every output indexed by token.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNNER_CHECK_H
#define MOE_RUNNER_CHECK_H

#include "moe_runtime/Artifact.h"

#include <cstdint>
#include <string>
#include <vector>

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
  /// Under --ranks: the reference is this rank's slice of a one-rank output
  /// that is not all zero (a rank's experts may receive no rows, so their
  /// weight gradients are zero there). An all-zero slice is then no sign
  /// of a broken run; the error is the absolute L2 norm, as with `zero`.
  bool sliceOfNonZero = false;
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
  /// Tokens whose rows were left out (near-ties, see compareOutput); for
  /// the router indices themselves, the near-tie tokens (not mismatches).
  uint64_t nearTieTokens = 0;
  bool routerIndices = false; // compareRouterIndices: near-tie aware, not left out
  /// Why a float check fails other than by its error: a non-finite mismatch,
  /// an undeclared all-zero reference or NaN/inf, a declaration that does
  /// not hold. Empty when none.
  std::string problem;
  bool pass = false;
};

/// The DESIGN.md tolerance of a float dtype (0 for integers and i1).
double checkTolerance(moert::DType t);

/// The tolerance of fp8 (e4m3, e5m2) outputs, and through entryTolerance of
/// every float output of an entry that computes through FP8 values (an
/// FP8-placed layer: "fp8": true in the artifact's metadata, or an fp8
/// argument). Both sides quantize bf16 values that differ in their last bits
/// (another summation order upstream), so some elements land on neighbouring
/// fp8 codes: one e4m3 code is 6-12 % of the value, one e5m2 code 12-25 %.
/// The examples' FP8 layers measured 0.5-1.2e-2 GPU against CPU on one H200
/// (bench/results/2026-11-29-h200-fp8-examples); a GPU that skipped the
/// quantization would be ~6.5e-2 off (README, FP8 vs bf16), a wrong scale or
/// block O(1).
constexpr double kFp8Tolerance = 3e-2;

/// The tolerance of a scalar f32/f64 output (a loss), DESIGN.md: "scalar
/// losses <= 1e-4 relative".
constexpr double kScalarLossTolerance = 1e-4;

/// The tolerance of output `arg` of `entry`: its dtype's, or that of the
/// least precise float argument of the entry (kFp8Tolerance for an entry
/// that computes through FP8) when that is looser. An f32
/// output computed from bf16 values (e.g. the router-weight gradient of a
/// bf16 layer, which passes through bf16 activations) carries their rounding,
/// so the working precision, not the storage type, sets the bar. A scalar
/// f32 or f64 output (a loss: the aux loss, the z-loss) is a sum over the
/// whole batch, held to kScalarLossTolerance whatever the working precision
/// (an off-by-one in a normaliser over 128 tokens is 0.8 %).
double entryTolerance(const moert::EntrySpec &entry, const moert::ArgSpec &arg);

/// Whether the finite elements of `data` (`arg.numElements` floats of
/// `arg.dtype`) are all zero and there is at least one.
bool finiteAllZero(const moert::ArgSpec &arg, const void *data);

/// Compare `got` with `ref`, both `arg.numElements` elements of `arg.dtype`,
/// floats against `tolerance` and `expect` (see OutputCheck::problem).
/// With `skipTokens` (one flag per token, from compareRouterIndices), an
/// output whose leading dimension is the number of tokens leaves out the
/// rows of flagged tokens; other outputs are compared whole.
OutputCheck compareOutput(const moert::ArgSpec &arg, const void *got, const void *ref,
                          double tolerance, Expectation expect = {},
                          const std::vector<uint8_t> *skipTokens = nullptr);

/// DESIGN.md, "Correctness": router indices may differ where the reference's
/// two candidates' selection scores are within 1e-5 relative (the GPU may
/// add in another order than the CPU reference).
constexpr double kNearTieTolerance = 1e-5;

/// Whether selection scores `a` and `b` (both finite) are within `relative`
/// of each other: |a - b| <= relative * max(|a|, |b|).
bool isNearTie(double a, double b, double relative = kNearTieTolerance);

/// The near-tie aware check of router indices.
struct RouterIndicesCheck {
  /// The indices' check: `mismatches` counts the elements of tokens whose
  /// differences are not near-ties, `nearTieTokens` the tokens whose are.
  OutputCheck indices;
  /// Per token: its indices differ from the reference's, only by near-ties.
  std::vector<uint8_t> nearTie;
};

/// Compares router indices `got` with `ref` (`indices`: [T, K], integer),
/// given the reference's selection scores `refScores` (`scores`: [T, E],
/// float) and, when the selection adds one, the expert bias (`bias`: [E],
/// float; null without). A token whose K indices equal the reference's
/// passes. One whose indices differ is a near-tie when `got`'s are K
/// distinct experts in [0, E) and, at every position k where they differ,
/// the reference's selection scores s = scores + bias of ref[t][k] and
/// got[t][k] are within `relative` (isNearTie): an order of additions that
/// perturbs each score by at most eps moves the k-th largest score by at most
/// eps, so the expert a GPU ranks k-th has a reference score within 2 eps of
/// the reference's k-th. Any other difference is a mismatch. Group-limited
/// routing is judged on the same per-expert scores: a group that flips
/// between near-tied groups is a mismatch.
RouterIndicesCheck compareRouterIndices(const moert::ArgSpec &indices, const void *got,
                                        const void *ref, const moert::ArgSpec &scores,
                                        const void *refScores, const moert::ArgSpec *bias,
                                        const void *biasData, double relative = kNearTieTolerance);

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
