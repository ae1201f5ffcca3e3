//===- Contraction.h - f32 contractions the GPU runtime computes -*- C++ -*-===//
//
// Autodiff writes the router adjoints as linalg.generic contractions
// (dlogits·Wᵀ and xᵀ·dlogits): out[i, j] += Σ_l a(.., l)·b(.., l) with f32
// accumulation. One thread per output with an H- or T-long loop is far from
// a GEMM; on the GPU target convert-moe-to-runtime-calls hands them to
// cuBLASLt (bf16 tensor-core GEMMs on split operands, SplitMatmul.h), and
// split-long-reductions leaves them whole.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_CONVERSION_MOETORUNTIMECALLS_CONTRACTION_H
#define MOE_CONVERSION_MOETORUNTIMECALLS_CONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::moe::gpu_contraction {

/// out[i, j] += Σ_l A(i, l)·B(l, j): `a` is the input indexed by the
/// output's first dimension, `b` by its second; a stored as [l, i] or b as
/// [j, l] is transposed.
struct Contraction {
  OpOperand *a = nullptr, *b = nullptr;
  bool aTransposed = false, bTransposed = false;
};

/// A linalg.generic with two rank-2 inputs (bf16 or f32), one rank-2 f32
/// output, two parallel loops indexing the output and one reduction loop
/// indexing both inputs, whose body is acc + a·b (each factor possibly
/// extended from bf16 to f32); tensor or buffer form.
std::optional<Contraction> matchContraction(linalg::LinalgOp op);

} // namespace mlir::moe::gpu_contraction

#endif // MOE_CONVERSION_MOETORUNTIMECALLS_CONTRACTION_H
