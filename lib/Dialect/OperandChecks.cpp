//===- OperandChecks.cpp - diagnostics helpers for moe verifiers ---------===//
#include "OperandChecks.h"

#include "MoeDialect/Dialect/Utils/OpMath.h"

#include "mlir/IR/TypeRange.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <system_error>

namespace mlir::moe::checks {

std::string str(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

std::string dimStr(int64_t dim) {
  return ShapedType::isDynamic(dim) ? "?" : std::to_string(dim);
}

std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += ", ";
    s += dimStr(d);
  }
  return s + "]";
}

bool isActivationType(Type type) {
  return type.isBF16() || type.isF16() || type.isF32();
}

bool isFp8Type(Type type) { return opmath::isFp8DataType(type); }

static bool matchesElem(Type t, Elem kind) {
  switch (kind) {
  case Elem::Activation:
    return isActivationType(t);
  case Elem::F32:
    return t.isF32();
  case Elem::I32:
    return t.isInteger(32);
  case Elem::Fp8:
    return isFp8Type(t);
  case Elem::ActivationOrFp8:
    return isActivationType(t) || isFp8Type(t);
  case Elem::Count:
    return t.isInteger(32) || t.isInteger(64) || t.isF32();
  }
  llvm_unreachable("unknown element class");
}

static StringRef describeElem(Elem kind) {
  switch (kind) {
  case Elem::Activation:
    return "bf16, f16 or f32";
  case Elem::F32:
    return "f32";
  case Elem::I32:
    return "i32";
  case Elem::Fp8:
    return "f8E4M3FN or f8E5M2";
  case Elem::ActivationOrFp8:
    return "bf16, f16, f32, f8E4M3FN or f8E5M2";
  case Elem::Count:
    return "i32, i64 or f32";
  }
  llvm_unreachable("unknown element class");
}

FailureOr<RankedTensorType> expectTensor(ErrorSink err, StringRef name,
                                                 Type type, int64_t rank,
                                                 StringRef dims, Elem kind) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) {
    (void)err("'" + name + "' must be a ranked tensor " + dims + ", got " +
              str(type));
    return failure();
  }
  if (tensor.getRank() != rank) {
    (void)err("'" + name + "' must be a rank-" + Twine(rank) + " tensor " +
              dims + ", got rank " + Twine(tensor.getRank()) + " (" +
              str(type) + ")");
    return failure();
  }
  if (!matchesElem(tensor.getElementType(), kind)) {
    (void)err("'" + name + "' must have " + describeElem(kind) +
              " elements, got " + str(tensor.getElementType()));
    return failure();
  }
  return tensor;
}

LogicalResult expectSameDim(ErrorSink err, const Twine &symbol,
                                    StringRef nameA, RankedTensorType a,
                                    int64_t dimA, StringRef nameB,
                                    RankedTensorType b, int64_t dimB) {
  int64_t x = a.getDimSize(dimA), y = b.getDimSize(dimB);
  if (ShapedType::isDynamic(x) || ShapedType::isDynamic(y) || x == y)
    return success();
  return err(symbol + " mismatch: '" + nameA + "' dim " + Twine(dimA) +
             " is " + Twine(x) + " but '" + nameB + "' dim " + Twine(dimB) +
             " is " + Twine(y));
}

LogicalResult expectResult(ErrorSink err, StringRef name, Type actual,
                                   ArrayRef<int64_t> expected, Type elem,
                                   StringRef rule) {
  auto tensor = dyn_cast<RankedTensorType>(actual);
  bool ok = tensor && tensor.getRank() == (int64_t)expected.size() &&
            tensor.getElementType() == elem;
  if (ok)
    for (auto [have, want] : llvm::zip(tensor.getShape(), expected))
      if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(want) &&
          have != want)
        ok = false;
  if (ok)
    return success();
  return err("result '" + name + "' must be " + shapeStr(expected) + " of " +
             str(elem) + " (" + rule + "), got " + str(actual));
}

bool sameRankedTensorKinds(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != actual.size())
    return false;
  for (auto [i, a] : llvm::zip(inferred, actual)) {
    auto ti = dyn_cast<RankedTensorType>(i);
    auto ta = dyn_cast<RankedTensorType>(a);
    if (!ti || !ta || ti.getRank() != ta.getRank())
      return false;
  }
  return true;
}

int64_t mulDims(int64_t a, int64_t b) {
  if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
    return ShapedType::kDynamic;
  return a * b;
}

// The shortest text that reads back as `value` (formatv("{0}") rounds to two
// decimals, so 1e-3 became "0.00").
std::string num(double value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (ec != std::errc())
    return llvm::formatv("{0:e}", value).str();
  return std::string(buffer, end);
}

int64_t ceilDivDim(int64_t a, int64_t b) {
  if (ShapedType::isDynamic(a))
    return ShapedType::kDynamic;
  return (a + b - 1) / b;
}

} // namespace mlir::moe::checks
