//===- SplitMatmul.h - f32 contractions on bf16 tensor cores ----*- C++ -*-===//
//
// The router projection and its adjoints are f32 contractions (DESIGN.md:
// router math is fp32). True fp32 GEMMs run on CUDA cores, several times
// slower than bf16 tensor cores. An f32 value v is the sum of three bf16
// values (hi = bf16(v), mid = bf16(v − hi), lo = bf16(v − hi − mid): exact
// for |v| ≥ 2^-110, |mid| ≤ 2^-8 |v|, |lo| ≤ 2^-17 |v|), and a product of
// bf16 values is exact in an f32 accumulator, so the contraction becomes
// bf16 GEMMs (moert_entry_matmul_bf16) whose error is the f32 accumulation's
// (over a long k the tensor cores' accumulation is somewhat less exact than
// fp32 CUDA cores: xᵀ·dlogits over T = 8192 tokens measured rel_l2 4.4e-6
// against 4.1e-7, far inside DESIGN.md's 1e-2):
//   - both operands bf16 (x and its cotangent): one GEMM;
//   - one f32 operand (the router weight, dlogits) and one bf16 (x): one
//     GEMM over the three parts side by side along the dimension of the
//     output that the f32 operand indexes (x·[hi | mid | lo]), so that x is
//     read once; a kernel adds hi to the output, and the correction
//     lo + mid where it is finite (an infinite x times the smaller parts
//     would make NaN where fp32 gives ±inf: inf·0, inf − inf);
//   - both f32 (dlogits·Wᵀ): one GEMM over the six products whose exponents
//     reach f32 precision (hi·hi, hi·mid, mid·hi, hi·lo, lo·hi, mid·mid;
//     the dropped ones are below 2^-24 |a||b|), the parts laid side by side
//     along the contraction (K' = 6K), smallest first, so the output is read
//     and written once.
// A non-finite v is its hi part alone (inf·x stays inf, not NaN), and a
// finite v that rounds to a bf16 infinity keeps the largest finite bf16 as
// hi. Where results differ from fp32 (README, non-finite inputs): in
// dlogits·Wᵀ an infinite element of one operand times the other's parts
// gives NaN where fp32 gives ±inf whenever the other's mid or lo is zero or
// of the opposite sign (no adversarial layer's dlogits holds an infinity;
// a finite-only correction as in the x·w case would cost a [T, H] f32
// temporary); |hi| may exceed |v| by 2^-9 |v|, so x·hi can overflow within
// 0.4 % of FLT_MAX where fp32 stays finite; a nonzero |w| < 2^-134 has
// hi = 0, so an infinite x times it is NaN, not ±inf.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_CONVERSION_MOETORUNTIMECALLS_SPLITMATMUL_H
#define MOE_CONVERSION_MOETORUNTIMECALLS_SPLITMATMUL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::moe::split_matmul {

/// out[i, j] += Σ_l A(i, l)·B(l, j) (out[i, j] = ... unless `accumulate`:
/// out is then only written) at the rewriter's insertion point, for rank-2
/// memrefs of the identity layout: a stored [m, k] or, transposed, [k, m];
/// b stored [k, n] or [n, k]; a and b bf16 or f32, out f32 [m, n]. The
/// split kernels are linalg.generic ops named split_bf16.
void buildMatmul(RewriterBase &rewriter, Location loc, Value a, bool aTransposed,
                 Value b, bool bTransposed, Value out, bool accumulate);

} // namespace mlir::moe::split_matmul

#endif // MOE_CONVERSION_MOETORUNTIMECALLS_SPLITMATMUL_H
