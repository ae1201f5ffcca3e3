//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reads .npy format versions 1.0, 2.0 and 3.0 holding little-endian, C-order
// arrays of float16/32/64, int8/32/64, uint8 or bool; writes version 1.0.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_NPY_H
#define MOE_RUNTIME_NPY_H

#include "moe_runtime/DType.h"
#include "moe_runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace moert {

struct NpyArray {
  std::string descr; // as in the header, e.g. "<f4"
  char kind = 'f';   // 'f' float, 'i' signed, 'u' unsigned, 'b' bool
  size_t itemSize = 0;
  std::vector<int64_t> shape;
  std::string data; // raw little-endian, C order; numElements() * itemSize bytes

  size_t numElements() const;
  /// NumPy's name of the element type: "float32", "int64", "bool", ...
  std::string typeName() const;
};

/// Read and validate a .npy file. Errors name the path.
Status readNpy(const std::string &path, NpyArray *out);

/// Convert every element of `src` into type `t` at `dst` (numElements()
/// elements). Float targets round (DType.h rules). Integer targets take
/// integers, bools, and floats that hold exact integers, all range-checked; i1
/// takes only 0 and 1. Errors name the first offending element.
Status convertNpyTo(const NpyArray &src, DType t, void *dst);

/// The .npy element type written for a buffer of type t: bf16, f16 and the
/// fp8 types are widened to float32 (exactly), the rest keep their type
/// (i1 -> bool).
const char *npyDescrFor(DType t);

/// Write `count` elements of type `t` with `shape` to `path` (atomically).
Status writeNpy(const std::string &path, DType t, const std::vector<int64_t> &shape,
                const void *data);

/// "[64, 32]" ("[]" for a scalar).
std::string shapeToString(const std::vector<int64_t> &shape);

} // namespace moert

#endif // MOE_RUNTIME_NPY_H
