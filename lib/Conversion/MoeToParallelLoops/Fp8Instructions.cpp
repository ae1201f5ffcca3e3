//===- Fp8Instructions.cpp - FP8 conversions by NVVM cvt instructions -----===//
#include "Fp8Instructions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::moe::gpu_schedules {

Value encodeFp8ByInstructions(OpBuilder &b, Location loc, ArrayRef<Value> lanes,
                              Type fp8Type) {
  Type i8 = b.getI8Type();
  auto pairType = VectorType::get({2}, i8);
  SmallVector<Value> codes;
  for (size_t i = 0; i < lanes.size(); i += 2) {
    // An odd last lane is converted with itself.
    Value lo = lanes[i], hi = lanes[std::min(i + 1, lanes.size() - 1)];
    // The op puts its first operand in the high byte: element 1.
    Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
        b, loc, pairType, hi, lo, NVVM::FPRoundingMode::RN,
        NVVM::SaturationMode::SATFINITE, /*relu=*/false, fp8Type);
    codes.push_back(vector::ExtractOp::create(b, loc, pair, 0));
    if (i + 1 < lanes.size())
      codes.push_back(vector::ExtractOp::create(b, loc, pair, 1));
  }
  return vector::FromElementsOp::create(
      b, loc, VectorType::get({int64_t(codes.size())}, i8), codes);
}

SmallVector<Value> decodeFp8ByInstructions(OpBuilder &b, Location loc,
                                           Value codes, Type fp8Type) {
  int64_t n = cast<VectorType>(codes.getType()).getNumElements();
  auto pairType = VectorType::get({2}, b.getI8Type());
  auto halfPairType = VectorType::get({2}, b.getF16Type());
  SmallVector<Value> lanes;
  for (int64_t i = 0; i < n; i += 2) {
    Value lo = vector::ExtractOp::create(b, loc, codes, i);
    Value hi = i + 1 < n ? vector::ExtractOp::create(b, loc, codes, i + 1) : lo;
    Value pair =
        vector::FromElementsOp::create(b, loc, pairType, ValueRange{lo, hi});
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        b, loc, halfPairType, pair, /*relu=*/false, fp8Type);
    for (int64_t j = 0; j < 2 && i + j < n; ++j) {
      Value half = vector::ExtractOp::create(b, loc, halves, j);
      lanes.push_back(arith::ExtFOp::create(b, loc, b.getF32Type(), half));
    }
  }
  return lanes;
}

} // namespace mlir::moe::gpu_schedules
