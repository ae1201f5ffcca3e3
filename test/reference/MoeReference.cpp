//===- MoeReference.cpp - independent plain C++ MoE forward ---------------===//
//
// Written from DESIGN.md "Exact semantics" and MoeOps.td only. See the header.
//
//===----------------------------------------------------------------------===//
#include "MoeReference.h"

#include "moe_runtime/DType.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <sstream>

namespace moe_ref {

// ----- Names -----------------------------------------------------------------

const char *toString(ScoreFunction v) {
  switch (v) {
  case ScoreFunction::Softmax: return "softmax";
  case ScoreFunction::Sigmoid: return "sigmoid";
  case ScoreFunction::SqrtSoftplus: return "sqrtsoftplus";
  case ScoreFunction::Identity: return "identity";
  }
  return "?";
}
const char *toString(GroupScore v) {
  return v == GroupScore::TopSum ? "top_sum" : "max";
}
const char *toString(Normalize v) {
  switch (v) {
  case Normalize::None: return "none";
  case Normalize::Sum: return "sum";
  case Normalize::Softmax: return "softmax";
  }
  return "?";
}
const char *toString(Activation v) {
  switch (v) {
  case Activation::Silu: return "silu";
  case Activation::Gelu: return "gelu";
  case Activation::GeluTanh: return "gelu_tanh";
  case Activation::Relu: return "relu";
  case Activation::Relu2: return "relu2";
  case Activation::Identity: return "identity";
  }
  return "?";
}
const char *toString(WeightLayout v) {
  return v == WeightLayout::KN ? "kn" : "nk";
}
const char *toString(AuxVariant v) {
  return v == AuxVariant::Batch ? "batch" : "sequence";
}
const char *toString(ElemType v) { return v == ElemType::BF16 ? "bf16" : "f32"; }

// ----- Config ------------------------------------------------------------------

namespace {

bool parseInt(const std::string &s, int64_t *out) {
  if (s.empty())
    return false;
  char *end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0')
    return false;
  *out = v;
  return true;
}

bool parseDouble(const std::string &s, double *out) {
  if (s.empty())
    return false;
  char *end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v))
    return false;
  *out = v;
  return true;
}

bool parseBool(const std::string &s, bool *out) {
  if (s.empty() || s == "1" || s == "true" || s == "yes") {
    *out = true;
    return true;
  }
  if (s == "0" || s == "false" || s == "no") {
    *out = false;
    return true;
  }
  return false;
}

template <typename E, size_t N>
bool parseEnum(const std::string &s, const std::pair<const char *, E> (&table)[N],
               E *out) {
  for (const auto &p : table)
    if (s == p.first) {
      *out = p.second;
      return true;
    }
  return false;
}

template <typename E, size_t N>
std::string enumChoices(const std::pair<const char *, E> (&table)[N]) {
  std::string r;
  for (const auto &p : table) {
    if (!r.empty())
      r += ", ";
    r += p.first;
  }
  return r;
}

const std::pair<const char *, ScoreFunction> kScoreFns[] = {
    {"softmax", ScoreFunction::Softmax},
    {"sigmoid", ScoreFunction::Sigmoid},
    {"sqrtsoftplus", ScoreFunction::SqrtSoftplus}};
const std::pair<const char *, GroupScore> kGroupScores[] = {
    {"top_sum", GroupScore::TopSum}, {"max", GroupScore::Max}};
const std::pair<const char *, Normalize> kNormalizes[] = {
    {"none", Normalize::None}, {"sum", Normalize::Sum},
    {"softmax", Normalize::Softmax}};
const std::pair<const char *, Activation> kActivations[] = {
    {"silu", Activation::Silu},   {"gelu", Activation::Gelu},
    {"gelu_tanh", Activation::GeluTanh}, {"relu", Activation::Relu},
    {"relu2", Activation::Relu2}, {"identity", Activation::Identity}};
const std::pair<const char *, WeightLayout> kLayouts[] = {
    {"kn", WeightLayout::KN}, {"nk", WeightLayout::NK}};
const std::pair<const char *, AuxVariant> kAuxVariants[] = {
    {"batch", AuxVariant::Batch}, {"sequence", AuxVariant::Sequence}};
const std::pair<const char *, ElemType> kElemTypes[] = {
    {"bf16", ElemType::BF16}, {"f32", ElemType::F32}};
const std::pair<const char *, SeqLayout> kSeqLayouts[] = {
    {"contiguous", SeqLayout::Contiguous}, {"strided", SeqLayout::Strided}};

} // namespace

const char *LayerConfig::help() {
  return "  k=N                      top-k (required)\n"
         "  score=softmax|sigmoid|sqrtsoftplus            (score_function)\n"
         "  post_softmax[=0|1]       select on logits, softmax over the k chosen\n"
         "  groups=N                 num_groups (default 1)\n"
         "  group_topk=N             groups kept (default 1)\n"
         "  group_score=top_sum|max  (default top_sum)\n"
         "  topq=N                   group_score_topq (default k / group_topk)\n"
         "  normalize=none|sum|softmax                    (default none)\n"
         "  scale=F                  scaling_factor (default 1)\n"
         "  act=silu|gelu|gelu_tanh|relu|relu2|identity   (activation, default silu)\n"
         "  align=N                  permute alignment (default 1)\n"
         "  layout=kn|nk             weight_layout (default kn)\n"
         "  aux=F                    aux_loss_coeff (default 0)\n"
         "  aux_variant=batch|sequence                    (default batch)\n"
         "  seq_length=N             tokens per sequence (aux_variant=sequence)\n"
         "  z=F                      z_loss_coeff (default 0)\n"
         "  dtype=bf16|f32           element type of x, expert weights and\n"
         "                           activations (default bf16)\n"
         "  seq_layout=contiguous|strided  token order of sequences (diagnostic;\n"
         "                           the spec is contiguous)\n"
         "The attribute names of moe.layer are accepted as well (num_groups,\n"
         "group_score_topq, scaling_factor, activation, weight_layout,\n"
         "aux_loss_coeff, aux_loss_variant, z_loss_coeff, score_function).\n";
}

bool LayerConfig::parse(const std::string &spec, std::string *error) {
  bool sawK = false;
  size_t pos = 0;
  while (pos <= spec.size()) {
    size_t comma = spec.find(',', pos);
    if (comma == std::string::npos)
      comma = spec.size();
    std::string item = spec.substr(pos, comma - pos);
    pos = comma + 1;
    // Trim spaces.
    while (!item.empty() && item.front() == ' ')
      item.erase(item.begin());
    while (!item.empty() && item.back() == ' ')
      item.pop_back();
    if (item.empty())
      continue;
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq);
    std::string val = eq == std::string::npos ? "" : item.substr(eq + 1);
    bool ok = true;
    std::string expect;
    if (key == "k") {
      ok = parseInt(val, &k);
      sawK = true;
      expect = "an integer";
    } else if (key == "score" || key == "score_function") {
      ok = parseEnum(val, kScoreFns, &scoreFunction);
      expect = enumChoices(kScoreFns);
    } else if (key == "post_softmax") {
      ok = parseBool(val, &postSoftmax);
      expect = "0 or 1";
    } else if (key == "groups" || key == "num_groups") {
      ok = parseInt(val, &numGroups);
      expect = "an integer";
    } else if (key == "group_topk") {
      ok = parseInt(val, &groupTopk);
      expect = "an integer";
    } else if (key == "group_score") {
      ok = parseEnum(val, kGroupScores, &groupScore);
      expect = enumChoices(kGroupScores);
    } else if (key == "topq" || key == "group_score_topq") {
      ok = parseInt(val, &groupScoreTopq);
      expect = "an integer";
    } else if (key == "normalize") {
      ok = parseEnum(val, kNormalizes, &normalize);
      expect = enumChoices(kNormalizes);
    } else if (key == "scale" || key == "scaling_factor") {
      ok = parseDouble(val, &scalingFactor);
      expect = "a number";
    } else if (key == "act" || key == "activation") {
      ok = parseEnum(val, kActivations, &activation);
      expect = enumChoices(kActivations);
    } else if (key == "align") {
      ok = parseInt(val, &align);
      expect = "an integer";
    } else if (key == "layout" || key == "weight_layout") {
      ok = parseEnum(val, kLayouts, &weightLayout);
      expect = enumChoices(kLayouts);
    } else if (key == "aux" || key == "aux_loss_coeff") {
      ok = parseDouble(val, &auxLossCoeff);
      expect = "a number";
    } else if (key == "aux_variant" || key == "aux_loss_variant") {
      ok = parseEnum(val, kAuxVariants, &auxLossVariant);
      expect = enumChoices(kAuxVariants);
    } else if (key == "seq_length") {
      ok = parseInt(val, &seqLength);
      expect = "an integer";
    } else if (key == "z" || key == "z_loss_coeff") {
      ok = parseDouble(val, &zLossCoeff);
      expect = "a number";
    } else if (key == "dtype") {
      ok = parseEnum(val, kElemTypes, &elemType);
      expect = enumChoices(kElemTypes);
    } else if (key == "seq_layout") {
      ok = parseEnum(val, kSeqLayouts, &seqLayout);
      expect = enumChoices(kSeqLayouts);
    } else {
      *error = "unknown key '" + key + "'; known keys:\n" + help();
      return false;
    }
    if (!ok) {
      *error = "bad value '" + val + "' for '" + key + "': expected " + expect;
      return false;
    }
  }
  if (!sawK) {
    *error = "k=N is required";
    return false;
  }
  return true;
}

bool LayerConfig::validate(int64_t T, int64_t E, bool hasBias,
                           std::string *error) const {
  std::ostringstream os;
  if (k < 1 || k > E)
    os << "k = " << k << " must be in [1, E = " << E << "]";
  else if (numGroups < 1 || E % numGroups != 0)
    os << "E = " << E << " is not divisible by num_groups = " << numGroups;
  else if (groupTopk < 1 || groupTopk > numGroups)
    os << "group_topk = " << groupTopk << " must be in [1, num_groups = "
       << numGroups << "]";
  else if (numGroups > 1 && k % groupTopk != 0)
    os << "k = " << k << " is not divisible by group_topk = " << groupTopk;
  else if (numGroups > 1 && k > groupTopk * (E / numGroups))
    os << "k = " << k << " exceeds the experts in the kept groups";
  else if (groupScoreTopq < 0 ||
           (numGroups > 1 && groupScoreTopq > E / numGroups))
    os << "group_score_topq = " << groupScoreTopq << " exceeds the group size";
  else if (hasBias && scoreFunction == ScoreFunction::Softmax)
    os << "a bias needs score=sigmoid or sqrtsoftplus";
  else if (postSoftmax && (scoreFunction != ScoreFunction::Softmax ||
                           normalize != Normalize::None))
    os << "post_softmax needs score=softmax and normalize=none";
  else if (align < 1)
    os << "align = " << align << " must be at least 1";
  else if (auxLossVariant == AuxVariant::Sequence && auxLossCoeff > 0 &&
           (seqLength < 1 || T % seqLength != 0))
    os << "aux_variant=sequence needs seq_length dividing T = " << T
       << " (got " << seqLength << ")";
  std::string msg = os.str();
  if (!msg.empty()) {
    *error = msg;
    return false;
  }
  return true;
}

std::string LayerConfig::str() const {
  std::ostringstream os;
  os << "k=" << k << " score=" << toString(scoreFunction);
  if (postSoftmax)
    os << " post_softmax";
  if (numGroups > 1) {
    os << " groups=" << numGroups << " group_topk=" << groupTopk
       << " group_score=" << toString(groupScore);
    if (groupScore == GroupScore::TopSum)
      os << " topq=" << (groupScoreTopq > 0 ? groupScoreTopq : k / groupTopk);
  }
  os << " normalize=" << toString(normalize) << " scale=" << scalingFactor
     << " act=" << toString(activation) << " align=" << align
     << " layout=" << toString(weightLayout);
  if (auxLossCoeff > 0) {
    os << " aux=" << auxLossCoeff << " aux_variant=" << toString(auxLossVariant);
    if (auxLossVariant == AuxVariant::Sequence)
      os << " seq_length=" << seqLength
         << (seqLayout == SeqLayout::Strided ? " seq_layout=strided" : "");
  }
  if (zLossCoeff > 0)
    os << " z=" << zLossCoeff;
  os << " dtype=" << toString(elemType);
  return os.str();
}

// ----- Ops ---------------------------------------------------------------------

float roundBF16(float v) {
  return static_cast<float>(moert::bf16ToDouble(moert::roundToBF16(v)));
}

bool isBF16(float v) {
  if (std::isnan(v))
    return true;
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return (bits & 0xFFFFu) == 0;
}

std::vector<float> gate(const float *x, const float *w, int64_t T, int64_t H,
                        int64_t E) {
  std::vector<float> logits(T * E);
  for (int64_t t = 0; t < T; ++t)
    for (int64_t e = 0; e < E; ++e) {
      float acc = 0.0f;
      for (int64_t h = 0; h < H; ++h)
        acc += x[t * H + h] * w[h * E + e];
      logits[t * E + e] = acc;
    }
  return logits;
}

namespace {

float sigmoidf(float x) { return 1.0f / (1.0f + std::exp(-x)); }

float softplusf(float x) { return x > 20.0f ? x : std::log1p(std::exp(x)); }

/// In-place softmax of n values.
void softmaxInPlace(float *v, int64_t n) {
  float m = -std::numeric_limits<float>::infinity();
  for (int64_t i = 0; i < n; ++i)
    m = std::max(m, v[i]);
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    v[i] = std::exp(v[i] - m);
    sum += v[i];
  }
  for (int64_t i = 0; i < n; ++i)
    v[i] = v[i] / sum;
}

/// Indices 0..n-1 ordered by descending value, ties to the lower index.
std::vector<int64_t> orderDescending(const float *v, int64_t n) {
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return v[a] > v[b] || (v[a] == v[b] && a < b);
  });
  return order;
}

/// How far the selection of the first `keep` of `v` (n values, `order` their
/// indices by descending value, -inf = masked) is from changing: the gap
/// between the last kept and the first dropped value. An exact tie there is
/// decided by index (lower first), which any implementation reproduces; then
/// the distance from the tied value to the nearest other value counts.
float boundaryMargin(const float *v, const std::vector<int64_t> &order,
                     int64_t keep) {
  const float inf = std::numeric_limits<float>::infinity();
  const int64_t n = static_cast<int64_t>(order.size());
  if (keep >= n || v[order[keep]] == -inf)
    return inf;
  const float last = v[order[keep - 1]], first = v[order[keep]];
  if (last != first)
    return last - first;
  float m = inf;
  for (int64_t i = 0; i < n; ++i)
    if (v[i] != last && v[i] != -inf)
      m = std::min(m, std::fabs(v[i] - last));
  return m;
}

} // namespace

std::vector<float> route(ScoreFunction fn, const std::vector<float> &logits,
                         int64_t T, int64_t E) {
  std::vector<float> s(logits);
  switch (fn) {
  case ScoreFunction::Softmax:
    for (int64_t t = 0; t < T; ++t)
      softmaxInPlace(&s[t * E], E);
    break;
  case ScoreFunction::Sigmoid:
    for (float &v : s)
      v = sigmoidf(v);
    break;
  case ScoreFunction::SqrtSoftplus:
    for (float &v : s)
      v = std::sqrt(softplusf(v));
    break;
  case ScoreFunction::Identity:
    break;
  }
  return s;
}

TopKResult topk(const std::vector<float> &scores, const float *bias,
                int64_t T, int64_t E, int64_t K, int64_t numGroups,
                int64_t groupTopk, GroupScore groupScore, int64_t topq,
                Normalize normalize, double scalingFactor) {
  const float inf = std::numeric_limits<float>::infinity();
  TopKResult r;
  r.weights.assign(T * K, 0.0f);
  r.indices.assign(T * K, 0);
  r.margin.assign(T, inf);
  if (topq <= 0)
    topq = K / groupTopk;
  const int64_t groupSize = E / numGroups;
  std::vector<float> sel(E);
  for (int64_t t = 0; t < T; ++t) {
    const float *sc = &scores[t * E];
    // Selection score: scores + bias (bias only steers selection).
    for (int64_t e = 0; e < E; ++e)
      sel[e] = sc[e] + (bias ? bias[e] : 0.0f);
    float margin = inf;
    if (numGroups > 1) {
      std::vector<float> gscore(numGroups);
      for (int64_t g = 0; g < numGroups; ++g) {
        const float *gs = &sel[g * groupSize];
        if (groupScore == GroupScore::Max) {
          float m = -inf;
          for (int64_t i = 0; i < groupSize; ++i)
            m = std::max(m, gs[i]);
          gscore[g] = m;
        } else {
          std::vector<int64_t> o = orderDescending(gs, groupSize);
          float sum = 0.0f;
          for (int64_t i = 0; i < topq; ++i)
            sum += gs[o[i]];
          gscore[g] = sum;
        }
      }
      std::vector<int64_t> gorder = orderDescending(gscore.data(), numGroups);
      margin = std::min(margin,
                        boundaryMargin(gscore.data(), gorder, groupTopk));
      for (int64_t i = groupTopk; i < numGroups; ++i)
        for (int64_t j = 0; j < groupSize; ++j)
          sel[gorder[i] * groupSize + j] = -inf;
    }
    std::vector<int64_t> order = orderDescending(sel.data(), E);
    margin = std::min(margin, boundaryMargin(sel.data(), order, K));
    r.margin[t] = margin;
    float *w = &r.weights[t * K];
    for (int64_t i = 0; i < K; ++i) {
      r.indices[t * K + i] = static_cast<int32_t>(order[i]);
      w[i] = sc[order[i]]; // the unbiased score
    }
    switch (normalize) {
    case Normalize::None:
      break;
    case Normalize::Sum:
      if (K > 1) { // a no-op when K = 1
        float sum = 0.0f;
        for (int64_t i = 0; i < K; ++i)
          sum += w[i];
        for (int64_t i = 0; i < K; ++i)
          w[i] = w[i] / (sum + 1e-20f);
      }
      break;
    case Normalize::Softmax:
      softmaxInPlace(w, K);
      break;
    }
    const float sf = static_cast<float>(scalingFactor);
    for (int64_t i = 0; i < K; ++i)
      w[i] = w[i] * sf;
  }
  return r;
}

std::vector<float> auxLossScores(ScoreFunction fn,
                                 const std::vector<float> &scores, int64_t T,
                                 int64_t E) {
  std::vector<float> p(scores);
  if (fn == ScoreFunction::Sigmoid || fn == ScoreFunction::SqrtSoftplus) {
    for (int64_t t = 0; t < T; ++t) {
      float sum = 0.0f;
      for (int64_t e = 0; e < E; ++e)
        sum += p[t * E + e];
      for (int64_t e = 0; e < E; ++e)
        p[t * E + e] = p[t * E + e] / (sum + 1e-20f);
    }
  }
  return p;
}

float auxLoss(const std::vector<float> &p, const std::vector<int32_t> &indices,
              int64_t T, int64_t E, int64_t K, double coeff, int64_t seqLength,
              SeqLayout layout) {
  const int64_t L = seqLength > 0 ? seqLength : T;
  const int64_t numSeq = T / L;
  double total = 0.0;
  for (int64_t s = 0; s < numSeq; ++s) {
    std::vector<float> P(E, 0.0f);
    std::vector<int64_t> c(E, 0);
    for (int64_t i = 0; i < L; ++i) {
      int64_t t = layout == SeqLayout::Contiguous ? s * L + i : i * numSeq + s;
      for (int64_t e = 0; e < E; ++e)
        P[e] += p[t * E + e];
      for (int64_t k = 0; k < K; ++k)
        c[indices[t * K + k]] += 1;
    }
    float dot = 0.0f;
    for (int64_t e = 0; e < E; ++e)
      dot += P[e] * static_cast<float>(c[e]);
    const double scale = static_cast<double>(E) * coeff /
                         (static_cast<double>(K) * double(L) * double(L));
    total += scale * dot;
  }
  return static_cast<float>(total / static_cast<double>(numSeq));
}

float zLoss(const std::vector<float> &logits, int64_t T, int64_t E,
            double coeff) {
  float sum = 0.0f;
  for (int64_t t = 0; t < T; ++t) {
    const float *l = &logits[t * E];
    float m = -std::numeric_limits<float>::infinity();
    for (int64_t e = 0; e < E; ++e)
      m = std::max(m, l[e]);
    float se = 0.0f;
    for (int64_t e = 0; e < E; ++e)
      se += std::exp(l[e] - m);
    float lse = m + std::log(se);
    sum += lse * lse;
  }
  return static_cast<float>(coeff) * (sum / static_cast<float>(T));
}

PermuteResult permute(const float *x, const std::vector<int32_t> &indices,
                      int64_t T, int64_t H, int64_t K, int64_t E,
                      int64_t align) {
  PermuteResult r;
  r.R = T * K + E * (align - 1);
  r.permuted.assign(r.R * H, 0.0f);
  r.rows.assign(T * K, -1);
  std::vector<int64_t> count(E, 0);
  for (int64_t i = 0; i < T * K; ++i)
    count[indices[i]] += 1;
  std::vector<int64_t> offset(E, 0);
  r.groupSizes.assign(E, 0);
  int64_t off = 0;
  for (int64_t e = 0; e < E; ++e) {
    offset[e] = off;
    int64_t padded = (count[e] + align - 1) / align * align;
    r.groupSizes[e] = static_cast<int32_t>(padded);
    off += padded;
  }
  // Stable in (t, k): visit pairs in row-major order.
  std::vector<int64_t> next(offset);
  for (int64_t t = 0; t < T; ++t)
    for (int64_t k = 0; k < K; ++k) {
      int64_t e = indices[t * K + k];
      int64_t row = next[e]++;
      r.rows[t * K + k] = static_cast<int32_t>(row);
      std::memcpy(&r.permuted[row * H], &x[t * H], sizeof(float) * H);
    }
  return r;
}

std::vector<float> groupedMatmul(const std::vector<float> &a, int64_t R,
                                 int64_t Kd, const float *b, int64_t G,
                                 int64_t N, WeightLayout layout,
                                 const std::vector<int32_t> &sizes,
                                 bool roundToBF16) {
  std::vector<float> c(R * N, 0.0f);
  int64_t off = 0;
  for (int64_t g = 0; g < G; ++g) {
    const float *bg = b + g * Kd * N;
    for (int64_t r = off; r < off + sizes[g]; ++r) {
      const float *ar = &a[r * Kd];
      for (int64_t n = 0; n < N; ++n) {
        float acc = 0.0f;
        if (layout == WeightLayout::KN)
          for (int64_t kd = 0; kd < Kd; ++kd)
            acc += ar[kd] * bg[kd * N + n];
        else
          for (int64_t kd = 0; kd < Kd; ++kd)
            acc += ar[kd] * bg[n * Kd + kd];
        c[r * N + n] = roundToBF16 ? roundBF16(acc) : acc;
      }
    }
    off += sizes[g];
  }
  return c;
}

float activate(Activation act, float x) {
  switch (act) {
  case Activation::Silu:
    // x·σ(x), as x / (1 + e^-x): one rounding fewer than x · (1 / (1 + e^-x)).
    return x / (1.0f + std::exp(-x));
  case Activation::Gelu:
    return 0.5f * x * (1.0f + std::erf(x * 0.70710678118654752f));
  case Activation::GeluTanh: {
    const float c = 0.79788456080286536f; // sqrt(2/pi)
    return 0.5f * x * (1.0f + std::tanh(c * (x + 0.044715f * x * x * x)));
  }
  case Activation::Relu:
    return x > 0.0f ? x : 0.0f;
  case Activation::Relu2: {
    float r = x > 0.0f ? x : 0.0f;
    return r * r;
  }
  case Activation::Identity:
    return x;
  }
  return x;
}

std::vector<float> glu(Activation act, const std::vector<float> &gate,
                       const std::vector<float> &up, bool roundToBF16) {
  std::vector<float> h(gate.size());
  for (size_t i = 0; i < gate.size(); ++i) {
    float v = activate(act, gate[i]) * up[i];
    h[i] = roundToBF16 ? roundBF16(v) : v;
  }
  return h;
}

std::vector<float> combine(const std::vector<float> &y, int64_t H,
                           const std::vector<int32_t> &rows,
                           const std::vector<float> &weights, int64_t T,
                           int64_t K, bool roundToBF16) {
  std::vector<float> out(T * H);
  for (int64_t t = 0; t < T; ++t)
    for (int64_t h = 0; h < H; ++h) {
      float acc = 0.0f;
      for (int64_t k = 0; k < K; ++k)
        acc += weights[t * K + k] * y[int64_t(rows[t * K + k]) * H + h];
      out[t * H + h] = roundToBF16 ? roundBF16(acc) : acc;
    }
  return out;
}

LayerResult runLayer(const LayerConfig &cfg, const LayerInputs &in) {
  LayerResult r;
  const int64_t T = in.T, H = in.H, E = in.E, F = in.F, K = cfg.k;
  const bool bf16 = cfg.elemType == ElemType::BF16;
  r.T = T, r.H = H, r.E = E, r.F = F, r.K = K;

  r.logits = gate(in.x, in.routerWeight, T, H, E);
  const ScoreFunction routeFn =
      cfg.postSoftmax ? ScoreFunction::Identity : cfg.scoreFunction;
  r.scores = route(routeFn, r.logits, T, E);
  const Normalize norm = cfg.postSoftmax ? Normalize::Softmax : cfg.normalize;
  r.topk = topk(r.scores, in.bias, T, E, K, cfg.numGroups, cfg.groupTopk,
                cfg.groupScore, cfg.groupScoreTopq, norm, cfg.scalingFactor);

  r.perm = permute(in.x, r.topk.indices, T, H, K, E, cfg.align);
  r.R = r.perm.R;
  // permute is an exact copy: x already holds bf16 values in a bf16 layer.
  r.gate = groupedMatmul(r.perm.permuted, r.R, H, in.wGate, E, F,
                         cfg.weightLayout, r.perm.groupSizes, bf16);
  r.up = groupedMatmul(r.perm.permuted, r.R, H, in.wUp, E, F, cfg.weightLayout,
                       r.perm.groupSizes, bf16);
  r.h = glu(cfg.activation, r.gate, r.up, bf16);
  r.y = groupedMatmul(r.h, r.R, F, in.wDown, E, H, cfg.weightLayout,
                      r.perm.groupSizes, bf16);
  r.out = combine(r.y, H, r.perm.rows, r.topk.weights, T, K, bf16);

  // Dense scores for the aux loss: post-softmax routing uses softmax(logits).
  const ScoreFunction auxFn = cfg.scoreFunction;
  const std::vector<float> dense =
      cfg.postSoftmax ? route(ScoreFunction::Softmax, r.logits, T, E)
                      : r.scores;
  r.auxScores = auxLossScores(auxFn, dense, T, E);
  if (cfg.auxLossCoeff > 0)
    r.auxLoss = auxLoss(r.auxScores, r.topk.indices, T, E, K, cfg.auxLossCoeff,
                        cfg.auxLossVariant == AuxVariant::Sequence
                            ? cfg.seqLength
                            : 0,
                        cfg.seqLayout);
  if (cfg.zLossCoeff > 0)
    r.zLoss = zLoss(r.logits, T, E, cfg.zLossCoeff);
  r.loss = r.auxLoss + r.zLoss;
  return r;
}

} // namespace moe_ref
