//===- Check.cpp - compare an output against a reference ------------------===//

#include "Check.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace moert;

namespace moe_runner {

double checkTolerance(DType t) {
  switch (t) {
  case DType::F64:
    return 1e-12;
  case DType::F32:
    return 1e-5;
  default:
    return isFloatDType(t) ? 1e-2 : 0.0; // bf16, f16, fp8
  }
}

double entryTolerance(const EntrySpec &entry, const ArgSpec &arg) {
  double tolerance = checkTolerance(arg.dtype);
  if (!isFloatDType(arg.dtype))
    return tolerance;
  for (const ArgSpec &other : entry.args)
    if (isFloatDType(other.dtype))
      tolerance = std::max(tolerance, checkTolerance(other.dtype));
  return tolerance;
}

OutputCheck compareOutput(const ArgSpec &arg, const void *got, const void *ref,
                          double tolerance) {
  OutputCheck c;
  const unsigned char *g = static_cast<const unsigned char *>(got);
  const unsigned char *r = static_cast<const unsigned char *>(ref);
  const size_t esize = dtypeSize(arg.dtype);
  c.elements = arg.numElements;
  if (!isFloatDType(arg.dtype)) {
    c.exact = true;
    for (size_t i = 0; i < arg.numElements; ++i)
      if (loadAsInt(arg.dtype, g + i * esize) != loadAsInt(arg.dtype, r + i * esize)) {
        if (c.mismatches++ == 0)
          c.firstMismatch = static_cast<int64_t>(i);
      }
    c.pass = c.mismatches == 0;
    return c;
  }
  c.tolerance = tolerance;
  double diff2 = 0.0, ref2 = 0.0;
  bool nonFinite = false;
  for (size_t i = 0; i < arg.numElements; ++i) {
    double x = loadAsDouble(arg.dtype, g + i * esize);
    double y = loadAsDouble(arg.dtype, r + i * esize);
    if (!std::isfinite(x) || !std::isfinite(y)) {
      bool same = (std::isnan(x) && std::isnan(y)) || x == y;
      if (!same) {
        nonFinite = true;
        if (c.mismatches++ == 0)
          c.firstMismatch = static_cast<int64_t>(i);
      }
      continue;
    }
    diff2 += (x - y) * (x - y);
    ref2 += y * y;
  }
  if (nonFinite) {
    c.error = std::numeric_limits<double>::infinity();
  } else if (ref2 == 0.0) {
    c.absolute = true;
    c.error = std::sqrt(diff2);
  } else {
    c.error = std::sqrt(diff2) / std::sqrt(ref2);
  }
  c.pass = c.error <= c.tolerance; // false for NaN and infinity
  return c;
}

std::string describeError(const OutputCheck &c) {
  if (c.exact) {
    std::string s = format("%llu of %llu differ", static_cast<unsigned long long>(c.mismatches),
                           static_cast<unsigned long long>(c.elements));
    if (c.mismatches)
      s += format(" (first at index %lld)", static_cast<long long>(c.firstMismatch));
    return s;
  }
  std::string s = format("%s %.3g", c.absolute ? "abs_l2" : "rel_l2", c.error);
  if (c.mismatches)
    s += format(" (%llu non-finite mismatches, first at index %lld)",
                static_cast<unsigned long long>(c.mismatches),
                static_cast<long long>(c.firstMismatch));
  return s;
}

std::string describeTolerance(const OutputCheck &c) {
  return c.exact ? "exact" : format("%g", c.tolerance);
}

} // namespace moe_runner
