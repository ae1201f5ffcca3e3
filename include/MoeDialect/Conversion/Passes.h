//===- Passes.h - lowerings out of the moe dialect --------------*- C++ -*-===//
#ifndef MOEDIALECT_CONVERSION_PASSES_H
#define MOEDIALECT_CONVERSION_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::moe {
#define GEN_PASS_DECL
#include "MoeDialect/Conversion/Passes.h.inc"

/// The CPU reference lowering of every moe op on memrefs (what
/// convert-moe-to-loops applies); convert-moe-to-parallel-loops uses it for
/// the ops without a parallel schedule.
void populateMoeToLoopsPatterns(RewritePatternSet &patterns,
                                PatternBenefit benefit = 1);

/// Lowers every moe op under `root`: by `preferred` where one of its
/// patterns (benefit above 1) applies, else by the reference loops; then
/// drops the grids no op names any more. Fails, with the op's location,
/// on what cannot be lowered.
LogicalResult lowerMoeOps(Operation *root, RewritePatternSet &&preferred);

/// Moves the per-iteration scratch (memref.alloca) of scf.parallel bodies
/// in front of the outermost parallel loop: for targets that run the
/// iterations one after another (the CPU).
void hoistParallelScratch(Operation *root);

/// Erases the shard.grid ops under `root` that no op names any more (after
/// the moe ops that named them were lowered).
void eraseUnusedGrids(Operation *root);

#define GEN_PASS_REGISTRATION
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

#endif // MOEDIALECT_CONVERSION_PASSES_H
