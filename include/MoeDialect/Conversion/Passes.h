//===- Passes.h - lowerings out of the moe dialect --------------*- C++ -*-===//
#ifndef MOEDIALECT_CONVERSION_PASSES_H
#define MOEDIALECT_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::moe {
#define GEN_PASS_DECL
#include "MoeDialect/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

#endif // MOEDIALECT_CONVERSION_PASSES_H
