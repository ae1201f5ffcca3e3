//===- OpMath.h - the numeric semantics of the moe ops ----------*- C++ -*-===//
//
// What the moe ops compute element by element, written once: the GLU
// activations and their derivatives, the router's score functions and
// softmax pieces, the normalization epsilon, the FP8 formats and the
// quantization block shapes. The verifiers, the adjoints
// (VJPInterfaceImpl.cpp), the CPU loops (MoeToLoops) and the GPU schedules
// (MoeToParallelLoops) all take them from here, so a forward and its adjoint, or the
// CPU and the GPU, cannot compute two different things.
//
// The builders emit arith/math ops on one float scalar; their constants take
// the operand's type. They work in linalg.generic and scf bodies and in GPU
// kernels alike. The lowerings call them on f32 (bf16/f16 elements are
// widened first).
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_DIALECT_UTILS_OPMATH_H
#define MOEDIALECT_DIALECT_UTILS_OPMATH_H

#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/IR/Builders.h"

#include <cstdint>
#include <limits>
#include <optional>

namespace mlir::moe::opmath {

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// Added to the sum that sum-normalization divides by (moe.topk's
/// normalize = sum, moe.aux_loss's per-token normalization of sigmoid and
/// sqrtsoftplus scores), so that an all-zero row gives zeros, not NaN.
inline constexpr double kNormalizeEpsilon = 1e-20;
/// softplus(x) is taken as x above this: log1p(e^x) rounds to x in f32 there,
/// and e^x alone would overflow for larger x.
inline constexpr double kSoftplusThreshold = 20.0;
/// The start of a running maximum (the identity of max).
inline constexpr double kMaxIdentity = -std::numeric_limits<double>::infinity();

/// An arith.constant of float type `type` holding `value` (rounded to
/// nearest even).
Value floatConst(OpBuilder &b, Location loc, Type type, double value);

//===----------------------------------------------------------------------===//
// GLU activations (moe.glu: h = act(gate) · up)
//===----------------------------------------------------------------------===//

/// act(x):
///   silu       x / (1 + e^-x)                        (= x · σ(x))
///   gelu       0.5 · x · erfc(-x/√2)                 (= 0.5 · x · (1 + erf(x/√2)))
///   gelu_tanh  x / (1 + e^(-2u)), u = √(2/π)(x + 0.044715 x³)
///                                                    (= 0.5 · x · (1 + tanh u))
///   relu       maximumf(x, 0)
///   relu2      maximumf(x, 0)²
///   identity   x
/// The erfc and e^(-2u) forms avoid the cancellation of 1 + erf and 1 + tanh
/// near -1 for negative x. NaN in gives NaN out for every activation.
Value buildActivation(OpBuilder &b, Location loc, Activation act, Value x);

/// act'(x), of the same forms as buildActivation:
///   silu       σ(x) · (1 + x · (1 - σ(x)))
///   gelu       Φ(x) + x · φ(x), Φ(x) = 0.5 · erfc(-x/√2), φ(x) = e^(-x²/2)/√(2π)
///   gelu_tanh  s + 2 · x · s · (1 - s) · u'(x), s = 1 / (1 + e^(-2u)),
///              u'(x) = √(2/π)(1 + 3 · 0.044715 x²)
///   relu       1 for x > 0, else 0
///   relu2      2 · maximumf(x, 0)
///   identity   1
/// NaN in gives NaN out for every activation, as in the forward: an
/// adjoint's dgate = dh · up · act'(gate) is NaN where gate is.
Value buildActivationDerivative(OpBuilder &b, Location loc, Activation act,
                                Value x);

//===----------------------------------------------------------------------===//
// Router score functions (moe.route) and softmax pieces
//===----------------------------------------------------------------------===//

/// σ(x) = 1 / (1 + e^-x).
Value buildSigmoid(OpBuilder &b, Location loc, Value x);
/// softplus(x) = log1p(e^x), and x above kSoftplusThreshold.
Value buildSoftplus(OpBuilder &b, Location loc, Value x);
/// softplus'(x) = σ(x), and 1 above kSoftplusThreshold (where softplus is x).
Value buildSoftplusDerivative(OpBuilder &b, Location loc, Value x);
/// √softplus(x), the sqrtsoftplus score.
Value buildSqrtSoftplus(OpBuilder &b, Location loc, Value x);

/// One step of a running maximum: maximumf(acc, x), so a NaN makes the
/// maximum NaN (from kMaxIdentity).
Value buildMaxStep(OpBuilder &b, Location loc, Value acc, Value x);
/// e^(x - max): softmax's numerator with the row maximum subtracted.
Value buildShiftedExp(OpBuilder &b, Location loc, Value x, Value max);
/// log Σ e^x = max + log(Σ e^(x - max)).
Value buildLogSumExp(OpBuilder &b, Location loc, Value max, Value sumExp);
/// The adjoint of p = softmax(x) for a row: dx = p · (dp - Σ p·dp), given
/// `dot` = Σ p·dp.
Value buildSoftmaxGrad(OpBuilder &b, Location loc, Value p, Value dp,
                       Value dot);

/// Σ + kNormalizeEpsilon: what sum-normalization divides by.
Value buildNormalizeDenominator(OpBuilder &b, Location loc, Value sum);
/// The adjoint of w_j = r_j / Z with Z = Σ r + kNormalizeEpsilon:
/// dr_j = dw_j / Z - (Σ dw·r) / Z², given `sum` = Σ r and `dot` = Σ dw·r.
Value buildNormalizeGrad(OpBuilder &b, Location loc, Value dw, Value sum,
                         Value dot);

//===----------------------------------------------------------------------===//
// FP8 formats and quantization blocks
//===----------------------------------------------------------------------===//

/// f8E4M3FN or f8E5M2: the types FP8 data is stored in.
bool isFp8DataType(Type type);
/// An FP8 data type, or f8E8M0FNU (the power-of-two MX block scale).
bool isFp8Type(Type type);

/// The layout of a sign/exponent/mantissa FP8 data type:
///   f8E4M3FN  S.EEEE.MMM  bias 7,  no infinities, NaN = S.1111.111, max 448
///   f8E5M2    S.EEEEE.MM  bias 15, IEEE-like (inf S.11111.00, NaN otherwise),
///                         max finite 57344
struct Fp8Format {
  int mantissaBits;
  int bias;
  int32_t maxFiniteCode; ///< magnitude bits of the largest finite value
  bool ieeeSpecials;     ///< all-ones exponent = inf/NaN (e5m2)
};
/// The layout of f8E4M3FN or f8E5M2.
Fp8Format fp8Format(Type fp8DataType);
/// Largest finite magnitude of an FP8 type: 448 (e4m3), 57344 (e5m2),
/// 2^127 (e8m0).
double fp8MaxFinite(Type fp8Type);

/// The scaling block of a block recipe over the last two dims [..., M, N].
struct QuantBlockShape {
  int64_t rows;
  int64_t cols;
};
/// block_1x128 → 1×128 (activations, DeepSeek-V3), block_128x128 → 128×128
/// (weights), mx_1x32 → 1×32; std::nullopt for the recipes with one scale
/// per tensor (tensorwise, delayed).
std::optional<QuantBlockShape> quantBlockShape(QuantRecipe recipe);
/// The element type of a recipe's scale: f8E8M0FNU for mx_1x32, f32 else.
Type quantScaleElementType(QuantRecipe recipe, MLIRContext *ctx);

/// moe-lower-to-gpu `gemm=auto`'s choice for a bf16/f32 grouped GEMM (a
/// grouped matmul, or a weight gradient when `weightGrad`) over `groups`
/// groups that cut `rows` ragged rows: true where the generated Hopper
/// kernel is the faster, false where cuBLASLt (a call per group, after the
/// group sizes reach the host) is. Measured on one H200 and one H100
/// (README, "gemm=auto"): with 128 and 256 groups the generated grouped
/// matmuls are as fast or faster (a library call per group costs more than
/// the persistent kernel's scheduling); with 8 groups of 2048 rows
/// (mixtral-8x7b) cuBLASLt's main loop is the faster (the layer 10 %),
/// with 8 groups of 8192 rows (seed-test) the layer ties (forward 2-4 %
/// slower, backward 2 % faster) and, with no host wait, replays from a
/// CUDA graph (bench/results/2026-11-30-h200-heaviest-first run4). A
/// weight gradient of short groups is mostly epilogue (a tile's k-loop has
/// few steps to hide its stores behind): at 128 rows a group (dsv3-1gpu)
/// cuBLASLt was the faster until the epilogue rounded by cvt.rn pairs; now
/// dsv3-1gpu's backward takes 18.51 ms with generated weight gradients
/// against 19.08 and 19.12 with cuBLASLt's (one H200, same call,
/// bench/results/2026-12-02-h200-profile-share run3). Groups averaging
/// fewer rows than that were not measured again and stay with cuBLASLt.
bool autoPrefersGeneratedGroupedGemm(int64_t groups, int64_t rows,
                                     bool weightGrad);
/// The thresholds of autoPrefersGeneratedGroupedGemm: generated with
/// kAutoGeneratedMinGroups or more groups (weight gradients: averaging
/// kAutoGeneratedWeightGradMinRowsPerGroup rows or more), or with groups
/// averaging kAutoGeneratedMinRowsPerGroup rows or more, however few.
constexpr int64_t kAutoGeneratedMinGroups = 32;
constexpr int64_t kAutoGeneratedWeightGradMinRowsPerGroup = 128;
constexpr int64_t kAutoGeneratedMinRowsPerGroup = 4096;

} // namespace mlir::moe::opmath

#endif // MOEDIALECT_DIALECT_UTILS_OPMATH_H
