//===- Check.cpp - compare an output against a reference ------------------===//

#include "Check.h"

#include "moe_runtime/Parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace moert;

namespace moe_runner {

double checkTolerance(DType t) {
  switch (t) {
  case DType::F64:
    return 1e-12;
  case DType::F32:
    return 1e-5;
  case DType::F8E4M3:
  case DType::F8E5M2:
    return kFp8Tolerance;
  default:
    return isFloatDType(t) ? 1e-2 : 0.0; // bf16, f16
  }
}

double entryTolerance(const EntrySpec &entry, const ArgSpec &arg) {
  double tolerance = checkTolerance(arg.dtype);
  if (!isFloatDType(arg.dtype))
    return tolerance;
  for (const ArgSpec &other : entry.args)
    if (isFloatDType(other.dtype))
      tolerance = std::max(tolerance, checkTolerance(other.dtype));
  if (entry.fp8)
    tolerance = std::max(tolerance, kFp8Tolerance);
  if (arg.numElements == 1 && (arg.dtype == DType::F32 || arg.dtype == DType::F64))
    tolerance = std::min(tolerance, kScalarLossTolerance);
  return tolerance;
}

namespace {

/// What one chunk of a comparison found.
struct ChunkCheck {
  double diff2 = 0.0, ref2 = 0.0;
  uint64_t mismatches = 0;
  int64_t firstMismatch = -1;
  uint64_t nonFiniteAlike = 0;
  uint64_t finite = 0; // elements finite in both
  bool refNonZero = false; // a finite reference element is not zero
};

/// The rows an output leaves out of its comparison: those of the tokens
/// flagged in `skip`, each `rowElements` elements long (none when `skip` is
/// null).
struct SkippedRows {
  const std::vector<uint8_t> *skip = nullptr;
  size_t rowElements = 1;
  bool contains(size_t i) const { return skip && (*skip)[i / rowElements]; }
};

ChunkCheck compareChunk(DType t, bool exact, const unsigned char *g, const unsigned char *r,
                        size_t begin, size_t end, SkippedRows skipped) {
  ChunkCheck c;
  const size_t esize = dtypeSize(t);
  auto mismatch = [&](size_t i) {
    if (c.mismatches++ == 0)
      c.firstMismatch = static_cast<int64_t>(i);
  };
  for (size_t i = begin; i < end; ++i) {
    if (skipped.contains(i))
      continue;
    if (exact) {
      if (loadAsInt(t, g + i * esize) != loadAsInt(t, r + i * esize))
        mismatch(i);
      continue;
    }
    double x = loadAsDouble(t, g + i * esize);
    double y = loadAsDouble(t, r + i * esize);
    if (!std::isfinite(x) || !std::isfinite(y)) {
      bool same = (std::isnan(x) && std::isnan(y)) || x == y;
      if (same)
        ++c.nonFiniteAlike;
      else
        mismatch(i);
      continue;
    }
    ++c.finite;
    c.refNonZero |= y != 0.0;
    c.diff2 += (x - y) * (x - y);
    c.ref2 += y * y;
  }
  return c;
}

/// OutputCheck::problem of a float check whose counts are set.
std::string floatProblem(const OutputCheck &c, Expectation expect) {
  if (c.mismatches)
    return "NaN or infinity not matched by the same value in the reference";
  if (c.nonFiniteAlike && !expect.nonFinite)
    return "NaN/inf in both, not declared with --expect-nonfinite";
  if (expect.nonFinite && !c.nonFiniteAlike)
    return "declared with --expect-nonfinite, but the reference has no NaN or "
           "infinity";
  if (c.referenceZero && !expect.zero && !expect.sliceOfNonZero)
    return "reference all zero, not declared with --expect-zero";
  if (expect.zero && !c.referenceZero)
    return "declared with --expect-zero, but the reference is not all zero";
  return "";
}

} // namespace

bool finiteAllZero(const ArgSpec &arg, const void *data) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  const size_t esize = dtypeSize(arg.dtype);
  bool anyFinite = false;
  for (size_t i = 0; i < arg.numElements; ++i) {
    double v = loadAsDouble(arg.dtype, bytes + i * esize);
    if (!std::isfinite(v))
      continue;
    if (v != 0.0)
      return false;
    anyFinite = true;
  }
  return anyFinite;
}

OutputCheck compareOutput(const ArgSpec &arg, const void *got, const void *ref, double tolerance,
                          Expectation expect, const std::vector<uint8_t> *skipTokens) {
  OutputCheck c;
  c.elements = arg.numElements;
  c.exact = !isFloatDType(arg.dtype);
  SkippedRows skipped;
  if (skipTokens && !arg.shape.empty() && arg.shape[0] > 0 &&
      static_cast<size_t>(arg.shape[0]) == skipTokens->size()) {
    skipped.skip = skipTokens;
    skipped.rowElements = arg.numElements / static_cast<size_t>(arg.shape[0]);
    c.nearTieTokens = static_cast<uint64_t>(std::count(skipTokens->begin(), skipTokens->end(), 1));
  }
  std::vector<ChunkCheck> chunks(numChunks(arg.numElements));
  parallelFor(chunks.size(), [&](size_t k) {
    chunks[k] = compareChunk(arg.dtype, c.exact, static_cast<const unsigned char *>(got),
                             static_cast<const unsigned char *>(ref), k * kChunkElements,
                             std::min(arg.numElements, (k + 1) * kChunkElements), skipped);
  });
  double diff2 = 0.0, ref2 = 0.0;
  uint64_t finite = 0;
  bool refNonZero = false;
  for (const ChunkCheck &k : chunks) { // in chunk order: thread-count independent
    refNonZero |= k.refNonZero;
    diff2 += k.diff2;
    ref2 += k.ref2;
    finite += k.finite;
    c.nonFiniteAlike += k.nonFiniteAlike;
    if (k.mismatches && c.mismatches == 0)
      c.firstMismatch = k.firstMismatch;
    c.mismatches += k.mismatches;
  }
  if (c.exact) {
    c.pass = c.mismatches == 0;
    return c;
  }
  c.tolerance = tolerance;
  // Element by element (as finiteAllZero): squares of f64 values below
  // 1e-162 underflow to a zero ref2.
  c.referenceZero = finite > 0 && !refNonZero;
  if (c.mismatches) {
    c.error = std::numeric_limits<double>::infinity();
  } else if (ref2 == 0.0) {
    c.absolute = true; // all zero, or no finite element
    c.error = std::sqrt(diff2);
  } else {
    c.error = std::sqrt(diff2) / std::sqrt(ref2);
  }
  c.problem = floatProblem(c, expect);
  c.pass = c.problem.empty() && c.error <= c.tolerance; // false for NaN and infinity
  return c;
}

bool isNearTie(double a, double b, double relative) {
  return std::isfinite(a) && std::isfinite(b) &&
         std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

RouterIndicesCheck compareRouterIndices(const ArgSpec &indices, const void *got, const void *ref,
                                        const ArgSpec &scores, const void *refScores,
                                        const ArgSpec *bias, const void *biasData,
                                        double relative) {
  RouterIndicesCheck result;
  OutputCheck &c = result.indices;
  c.exact = true;
  c.routerIndices = true;
  c.elements = indices.numElements;
  const size_t tokens = static_cast<size_t>(indices.shape[0]);
  const size_t k = static_cast<size_t>(indices.shape[1]);
  const size_t experts = static_cast<size_t>(scores.shape[1]);
  const size_t isize = dtypeSize(indices.dtype), ssize = dtypeSize(scores.dtype);
  const auto *g = static_cast<const unsigned char *>(got);
  const auto *r = static_cast<const unsigned char *>(ref);
  const auto *s = static_cast<const unsigned char *>(refScores);
  auto index = [&](const unsigned char *p, size_t t, size_t j) {
    return loadAsInt(indices.dtype, p + (t * k + j) * isize);
  };
  auto selectionScore = [&](size_t t, int64_t e) {
    double v = loadAsDouble(scores.dtype, s + (t * experts + static_cast<size_t>(e)) * ssize);
    if (bias)
      v += loadAsDouble(bias->dtype, static_cast<const unsigned char *>(biasData) +
                                         static_cast<size_t>(e) * dtypeSize(bias->dtype));
    return v;
  };
  auto inRange = [&](int64_t e) { return e >= 0 && static_cast<uint64_t>(e) < experts; };
  result.nearTie.assign(tokens, 0);
  // Per token, in parallel: 0 equal, 1 near-tie, 2 mismatch.
  std::vector<uint8_t> verdict(tokens, 0);
  parallelFor(numChunks(tokens), [&](size_t chunk) {
    size_t end = std::min(tokens, (chunk + 1) * kChunkElements);
    for (size_t t = chunk * kChunkElements; t < end; ++t) {
      bool differs = false, explained = true;
      for (size_t j = 0; j < k; ++j) {
        int64_t a = index(g, t, j), b = index(r, t, j);
        if (a == b)
          continue;
        differs = true;
        if (!inRange(a) || !inRange(b) ||
            !isNearTie(selectionScore(t, b), selectionScore(t, a), relative))
          explained = false;
        for (size_t i = 0; i < j; ++i) // the GPU's experts must be distinct
          if (index(g, t, i) == a)
            explained = false;
      }
      verdict[t] = !differs ? 0 : explained ? 1 : 2;
    }
  });
  for (size_t t = 0; t < tokens; ++t) {
    if (verdict[t] == 1) {
      result.nearTie[t] = 1;
      ++c.nearTieTokens;
    } else if (verdict[t] == 2) {
      for (size_t j = 0; j < k; ++j)
        if (index(g, t, j) != index(r, t, j) && c.mismatches++ == 0)
          c.firstMismatch = static_cast<int64_t>(t * k + j);
    }
  }
  c.pass = c.mismatches == 0;
  return result;
}

std::string describeError(const OutputCheck &c) {
  std::string nearTies = c.nearTieTokens ? format("%llu near-tie tokens%s",
                                                  static_cast<unsigned long long>(c.nearTieTokens),
                                                  c.routerIndices ? "" : " left out")
                                         : "";
  if (c.exact) {
    std::string s = format("%llu of %llu differ", static_cast<unsigned long long>(c.mismatches),
                           static_cast<unsigned long long>(c.elements));
    if (c.mismatches)
      s += format(" (first at index %lld%s)", static_cast<long long>(c.firstMismatch),
                  nearTies.empty() ? "" : ("; " + nearTies).c_str());
    else if (!nearTies.empty())
      s += " (" + nearTies + ")";
    return s;
  }
  std::string s = format("%s %.3g", c.absolute ? "abs_l2" : "rel_l2", c.error);
  std::string notes;
  auto note = [&](const std::string &n) { notes += (notes.empty() ? "" : ", ") + n; };
  if (c.mismatches)
    note(format("%llu non-finite mismatches, first at index %lld",
                static_cast<unsigned long long>(c.mismatches),
                static_cast<long long>(c.firstMismatch)));
  if (c.nonFiniteAlike)
    note(format("%llu NaN/inf in both", static_cast<unsigned long long>(c.nonFiniteAlike)));
  if (c.referenceZero)
    note("reference all zero");
  if (c.nearTieTokens)
    note(nearTies);
  return notes.empty() ? s : s + " (" + notes + ")";
}

std::string describeTolerance(const OutputCheck &c) {
  return c.exact ? "exact" : format("%g", c.tolerance);
}

std::string describeFailure(const OutputCheck &c) {
  if (c.routerIndices)
    return format("must be equal apart from near-ties (selection scores within "
                  "%g relative)",
                  kNearTieTolerance);
  if (c.exact)
    return "must be equal";
  if (!c.problem.empty())
    return c.problem;
  return "> tolerance " + describeTolerance(c);
}

} // namespace moe_runner
