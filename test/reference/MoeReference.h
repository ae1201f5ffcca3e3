//===- MoeReference.h - independent plain C++ MoE forward -------*- C++ -*-===//
//
// A reference implementation of the moe.layer forward, written from
// DESIGN.md ("Exact semantics") and the op descriptions in MoeOps.td only,
// independently of the compiler's CPU lowering. It is used to check compiled
// layers on larger random cases (moe-reference-check, test/reference/).
//
// Arithmetic follows the spec: router math in f32; every matmul, the GLU and
// the combine accumulate in f32 in the natural index order; with
// ElemType::BF16 the result of every op whose result type is bf16 (permute
// output - an exact copy -, each grouped_matmul, glu and combine) is rounded to
// bf16 (round-to-nearest-even), exactly where the op graph of moe-expand-layer
// would round it.
//
// Tensors are plain row-major std::vector<float>; bf16 values are held as
// the floats they represent exactly. No MLIR, no exceptions.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_REFERENCE_MOEREFERENCE_H
#define MOE_REFERENCE_MOEREFERENCE_H

#include <cstdint>
#include <string>
#include <vector>

namespace moe_ref {

enum class ScoreFunction { Softmax, Sigmoid, SqrtSoftplus, Identity };
enum class GroupScore { TopSum, Max };
enum class Normalize { None, Sum, Softmax };
enum class Activation { Silu, Gelu, GeluTanh, Relu, Relu2, Identity };
enum class WeightLayout { KN, NK };
enum class AuxVariant { Batch, Sequence };
/// How tokens form sequences for the `sequence` aux loss. Contiguous (the
/// reading of "per sequence of seq_length tokens"): sequence s holds tokens
/// [s·L, (s+1)·L). Strided (Megatron's [S, B] token order): sequence b holds
/// tokens t with t % (T/L) == b. Only Contiguous is the spec; Strided exists
/// to diagnose a mismatch.
enum class SeqLayout { Contiguous, Strided };
/// Element type of x, the expert weights and every activation.
enum class ElemType { BF16, F32 };

const char *toString(ScoreFunction v);
const char *toString(GroupScore v);
const char *toString(Normalize v);
const char *toString(Activation v);
const char *toString(WeightLayout v);
const char *toString(AuxVariant v);
const char *toString(ElemType v);

/// The attributes of moe.layer (defaults as in MoeOps.td).
struct LayerConfig {
  int64_t k = 1;
  ScoreFunction scoreFunction = ScoreFunction::Softmax;
  bool postSoftmax = false;
  int64_t numGroups = 1;
  int64_t groupTopk = 1;
  GroupScore groupScore = GroupScore::TopSum;
  int64_t groupScoreTopq = 0; // 0: default k / group_topk
  Normalize normalize = Normalize::None;
  double scalingFactor = 1.0;
  Activation activation = Activation::Silu;
  int64_t align = 1;
  WeightLayout weightLayout = WeightLayout::KN;
  double auxLossCoeff = 0.0;
  AuxVariant auxLossVariant = AuxVariant::Batch;
  int64_t seqLength = 0;
  double zLossCoeff = 0.0;
  ElemType elemType = ElemType::BF16;
  SeqLayout seqLayout = SeqLayout::Contiguous;

  /// Parses "k=2,score=softmax,normalize=sum,..." (see configHelp()). On
  /// error returns false and sets *error.
  bool parse(const std::string &spec, std::string *error);
  /// Checks the attribute rules of MoeOps.td against E and T.
  bool validate(int64_t T, int64_t E, bool hasBias, std::string *error) const;
  std::string str() const;
  static const char *help();
};

/// Inputs of one layer. Pointers to row-major data; `bias` may be null.
/// x [T,H], routerWeight [H,E], bias [E]; wGate, wUp [E,H,F] and wDown
/// [E,F,H] for KN, [E,F,H], [E,F,H], [E,H,F] for NK.
struct LayerInputs {
  int64_t T = 0, H = 0, E = 0, F = 0;
  const float *x = nullptr;
  const float *routerWeight = nullptr;
  const float *bias = nullptr;
  const float *wGate = nullptr;
  const float *wUp = nullptr;
  const float *wDown = nullptr;
};

/// moe.topk results plus how close each token's selection was to changing.
struct TopKResult {
  std::vector<float> weights;   // [T,K]
  std::vector<int32_t> indices; // [T,K]
  /// Per token: the smallest gap at a selection boundary - between the K-th
  /// chosen and the best unchosen selection score among the kept groups,
  /// and between the group_topk-th and the next group score. +inf when no
  /// boundary exists. A token whose margin is below the rounding noise of
  /// the router may legitimately be routed differently by another
  /// implementation. An exact tie at a boundary is decided by the spec
  /// (lower index first), so there the margin is the distance from the tied
  /// value to the nearest different one.
  std::vector<float> margin; // [T]
};

struct PermuteResult {
  std::vector<float> permuted;      // [R,H]
  std::vector<int32_t> groupSizes;  // [E]
  std::vector<int32_t> rows;        // [T,K]
  int64_t R = 0;
};

/// Everything the forward computes, for diagnostics.
struct LayerResult {
  int64_t T = 0, H = 0, E = 0, F = 0, K = 0, R = 0;
  std::vector<float> logits;      // [T,E]
  std::vector<float> scores;      // [T,E] (identity = logits with post_softmax)
  TopKResult topk;
  PermuteResult perm;
  std::vector<float> gate, up;    // [R,F]
  std::vector<float> h;           // [R,F]
  std::vector<float> y;           // [R,H]
  std::vector<float> out;         // [T,H]
  std::vector<float> auxScores;   // [T,E] the dense scores used by aux loss
  float auxLoss = 0.0f;           // the aux_loss term (0 when off)
  float zLoss = 0.0f;             // the z_loss term (0 when off)
  float loss = 0.0f;              // the layer's aux_loss result: sum of both
};

// ----- The ops (each literally as specified) --------------------------------

/// Rounds to bf16 (round-to-nearest-even) and back to float.
float roundBF16(float v);
/// True when v is exactly representable in bf16.
bool isBF16(float v);

/// logits[t,e] = Σ_h x[t,h]·w[h,e], f32.
std::vector<float> gate(const float *x, const float *w, int64_t T, int64_t H,
                        int64_t E);
/// Score function over [T,E].
std::vector<float> route(ScoreFunction fn, const std::vector<float> &logits,
                         int64_t T, int64_t E);
/// Selection with optional bias [E] (may be null) and group limiting;
/// weights normalized and scaled.
TopKResult topk(const std::vector<float> &scores, const float *bias,
                int64_t T, int64_t E, int64_t K, int64_t numGroups,
                int64_t groupTopk, GroupScore groupScore, int64_t topq,
                Normalize normalize, double scalingFactor);
/// Dense scores normalized as moe.aux_loss uses them: softmax as they are;
/// sigmoid/sqrtsoftplus divided per token by (sum + 1e-20).
std::vector<float> auxLossScores(ScoreFunction fn,
                                 const std::vector<float> &scores, int64_t T,
                                 int64_t E);
/// moe.aux_loss batch/sequence. `p` from auxLossScores. seqLength 0 = batch.
float auxLoss(const std::vector<float> &p, const std::vector<int32_t> &indices,
              int64_t T, int64_t E, int64_t K, double coeff, int64_t seqLength,
              SeqLayout layout);
/// coeff · mean_t(logsumexp_e(logits)²).
float zLoss(const std::vector<float> &logits, int64_t T, int64_t E,
            double coeff);
PermuteResult permute(const float *x, const std::vector<int32_t> &indices,
                      int64_t T, int64_t H, int64_t K, int64_t E,
                      int64_t align);
/// c[r] = a[r]·b[g] (KN: b [G,Kd,N]; NK: b [G,N,Kd]), rows past Σ sizes zero;
/// rounded to bf16 when `roundToBF16`.
std::vector<float> groupedMatmul(const std::vector<float> &a, int64_t R,
                                 int64_t Kd, const float *b, int64_t G,
                                 int64_t N, WeightLayout layout,
                                 const std::vector<int32_t> &sizes,
                                 bool roundToBF16);
float activate(Activation act, float x);
std::vector<float> glu(Activation act, const std::vector<float> &gate,
                       const std::vector<float> &up, bool roundToBF16);
std::vector<float> combine(const std::vector<float> &y, int64_t H,
                           const std::vector<int32_t> &rows,
                           const std::vector<float> &weights, int64_t T,
                           int64_t K, bool roundToBF16);

/// The whole moe.layer forward: the op graph of moe-expand-layer.
LayerResult runLayer(const LayerConfig &cfg, const LayerInputs &in);

// ----- The layer's VJP ------------------------------------------------------

/// Gradients of ⟨dOut, out⟩ + dLoss · aux_loss with respect to the layer's
/// differentiable inputs, in double, each shaped like its input. The expert
/// bias has none (it only steers selection).
struct LayerGradients {
  std::vector<double> dx;            // [T,H]
  std::vector<double> dRouterWeight; // [H,E]
  std::vector<double> dWGate, dWUp;  // like wGate, wUp
  std::vector<double> dWDown;        // like wDown
  /// L2 norms of the three parts of d logits: through the top-k weights,
  /// the aux loss and the z-loss (to see that each path carries signal).
  double dLogitsNormWeights = 0, dLogitsNormAux = 0, dLogitsNormZ = 0;
};

/// The VJP of runLayer, derived by hand from the op semantics (DESIGN.md
/// "Exact semantics"), at the forward point `fwd` (which runLayer(cfg, in)
/// returned). The routing (indices, rows, group sizes) and the aux loss's
/// expert counts are constants; gradients reach the router logits through
/// the selected scores' weights (normalize, scaling), the aux loss's dense
/// scores and the z-loss. bf16 rounding in the forward passes gradients
/// through unchanged. Every product and sum is evaluated in double from the
/// forward's values (which hold the forward's bf16 roundings).
LayerGradients runLayerVjp(const LayerConfig &cfg, const LayerInputs &in,
                           const LayerResult &fwd, const float *dOut,
                           float dLoss);

} // namespace moe_ref

#endif // MOE_REFERENCE_MOEREFERENCE_H
