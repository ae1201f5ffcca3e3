//===- Passes.h - GPU code generation passes --------------------*- C++ -*-===//
//
// Passes on upstream dialects that prepare host functions for the GPU (see
// Passes.td): split and accumulate linalg reductions, elementwise ops as
// 16-byte vector accesses, launch top-level loop nests, put host buffers in
// device memory.
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_CONVERSION_GPUCODEGEN_PASSES_H
#define MOEDIALECT_CONVERSION_GPUCODEGEN_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::moe {
#define GEN_PASS_DECL
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

#endif // MOEDIALECT_CONVERSION_GPUCODEGEN_PASSES_H
