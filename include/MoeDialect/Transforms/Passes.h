//===- Passes.h - moe → moe transformations ---------------------*- C++ -*-===//
#ifndef MOEDIALECT_TRANSFORMS_PASSES_H
#define MOEDIALECT_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::moe {
#define GEN_PASS_DECL
#include "MoeDialect/Transforms/Passes.h.inc"

/// The rewrite behind moe-expand-layer, for passes that expand on the way.
void populateExpandLayerPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "MoeDialect/Transforms/Passes.h.inc"
} // namespace mlir::moe

#endif // MOEDIALECT_TRANSFORMS_PASSES_H
