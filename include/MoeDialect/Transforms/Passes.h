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

/// The rewrite behind moe-expand-layer, for passes that expand on the way;
/// `align` pads each expert's rows to a multiple of it too (the permute's
/// align is the lcm of the layer's and this).
void populateExpandLayerPatterns(RewritePatternSet &patterns,
                                 int64_t align = 1);

#define GEN_PASS_REGISTRATION
#include "MoeDialect/Transforms/Passes.h.inc"
} // namespace mlir::moe

#endif // MOEDIALECT_TRANSFORMS_PASSES_H
