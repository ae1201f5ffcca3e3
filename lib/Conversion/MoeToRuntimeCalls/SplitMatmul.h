//===- SplitMatmul.h - f32 contractions on bf16 tensor cores ----*- C++ -*-===//
//
// The router projection and its adjoints are f32 contractions (DESIGN.md:
// router math is fp32). True fp32 GEMMs run on CUDA cores, several times
// slower than bf16 tensor cores. An f32 value v is the sum of three bf16
// values to f32 precision (hi = bf16(v), mid = bf16(v − hi), lo = bf16(v −
// hi − mid)), and a product of bf16 values is exact in an f32 accumulator,
// so the contraction becomes bf16 GEMMs (moert_entry_matmul_bf16):
//   - both operands bf16 (x and its cotangent): one GEMM;
//   - one f32 operand (the router weight, dlogits) and one bf16 (x): three
//     GEMMs, one per part: hi into the output, mid and lo into a correction
//     added where it is finite (an infinite x times the smaller parts would
//     make NaN where fp32 gives ±inf: inf·0, inf − inf);
//   - both f32 (dlogits·Wᵀ): one GEMM over the six products whose exponents
//     reach f32 precision (hi·hi, hi·mid, mid·hi, hi·lo, lo·hi, mid·mid),
//     the parts laid side by side along the contraction (K' = 6K), so the
//     output is read and written once.
// A non-finite v is its hi part alone (inf·x stays inf, not NaN), and a
// finite v that rounds to a bf16 infinity keeps the largest finite bf16 as
// hi. In dlogits·Wᵀ an infinite element of one operand times a zero part of
// the other still gives NaN where fp32 gives ±inf (no adversarial layer's
// dlogits holds an infinity; README, non-finite inputs).
//
//===----------------------------------------------------------------------===//
#ifndef MOE_CONVERSION_MOETORUNTIMECALLS_SPLITMATMUL_H
#define MOE_CONVERSION_MOETORUNTIMECALLS_SPLITMATMUL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::moe::split_matmul {

/// out[i, j] += Σ_l A(i, l)·B(l, j) at the rewriter's insertion point, for
/// rank-2 memrefs of the identity layout: a stored [m, k] or, transposed,
/// [k, m]; b stored [k, n] or [n, k]; a and b bf16 or f32, out f32 [m, n].
/// The split kernels are linalg.generic ops named split_bf16.
void buildMatmul(RewriterBase &rewriter, Location loc, Value a, bool aTransposed,
                 Value b, bool bTransposed, Value out);

} // namespace mlir::moe::split_matmul

#endif // MOE_CONVERSION_MOETORUNTIMECALLS_SPLITMATMUL_H
