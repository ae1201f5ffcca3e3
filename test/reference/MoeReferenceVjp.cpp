//===- MoeReferenceVjp.cpp - the layer's VJP in plain C++ -----------------===//
//
// The reverse-mode derivative of runLayer (MoeReference.cpp), derived by hand
// from DESIGN.md "Exact semantics" and MoeOps.td, not from the compiler's
// adjoints. The forward, with the routing held fixed:
//
//   l = x·Wr                                   logits [T,E]
//   s = route(l)                               scores [T,E]
//   w[t,k] = scale · normalize(s[t, idx[t,k]]) weights [T,K]
//   xs[row(t,k)] = x[t]                        permute
//   g = xs·Wg[e], u = xs·Wu[e]                 per expert e of the row
//   h = act(g) ⊙ u;  y = h·Wd[e]
//   out[t] = Σ_k w[t,k] · y[row(t,k)]
//   loss = aux(p(dense scores), counts) + z(l)
//
// and the VJP runs it backwards. Everything here is double; the forward's
// values come from `fwd`, so bf16 rounding points are where the forward
// put them and count as the identity for the derivative.
//
//===----------------------------------------------------------------------===//
#include "MoeReference.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moe_ref {

namespace {

const double kPi = 3.14159265358979323846;

double activation(Activation act, double x) {
  switch (act) {
  case Activation::Silu:
    return x / (1.0 + std::exp(-x));
  case Activation::Gelu:
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
  case Activation::GeluTanh: {
    const double c = std::sqrt(2.0 / kPi);
    return 0.5 * x * (1.0 + std::tanh(c * (x + 0.044715 * x * x * x)));
  }
  case Activation::Relu:
    return x > 0 ? x : 0.0;
  case Activation::Relu2:
    return x > 0 ? x * x : 0.0;
  case Activation::Identity:
    return x;
  }
  return x;
}

/// d act(x) / dx. relu and relu2 take the derivative 0 at x = 0.
double activationDerivative(Activation act, double x) {
  switch (act) {
  case Activation::Silu: {
    const double sig = 1.0 / (1.0 + std::exp(-x));
    return sig * (1.0 + x * (1.0 - sig));
  }
  case Activation::Gelu: {
    // Φ(x) + x·φ(x).
    const double cdf = 0.5 * (1.0 + std::erf(x / std::sqrt(2.0)));
    const double pdf = std::exp(-0.5 * x * x) / std::sqrt(2.0 * kPi);
    return cdf + x * pdf;
  }
  case Activation::GeluTanh: {
    const double c = std::sqrt(2.0 / kPi);
    const double th = std::tanh(c * (x + 0.044715 * x * x * x));
    return 0.5 * (1.0 + th) +
           0.5 * x * (1.0 - th * th) * c * (1.0 + 3.0 * 0.044715 * x * x);
  }
  case Activation::Relu:
    return x > 0 ? 1.0 : 0.0;
  case Activation::Relu2:
    return x > 0 ? 2.0 * x : 0.0;
  case Activation::Identity:
    return 1.0;
  }
  return 1.0;
}

/// Softmax of one row of n values, in double.
template <typename V> std::vector<double> softmaxRow(const V *l, int64_t n) {
  double m = -std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < n; ++i)
    m = std::max(m, double(l[i]));
  std::vector<double> p(n);
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    p[i] = std::exp(double(l[i]) - m);
    sum += p[i];
  }
  for (double &v : p)
    v /= sum;
  return p;
}

/// The backward of p = softmax(v) for one row: dv = p ⊙ (dp − ⟨p, dp⟩).
void softmaxRowBackward(const std::vector<double> &p, const double *dp,
                        double *dv) {
  double dot = 0;
  for (size_t i = 0; i < p.size(); ++i)
    dot += p[i] * dp[i];
  for (size_t i = 0; i < p.size(); ++i)
    dv[i] += p[i] * (dp[i] - dot);
}

/// The backward of q = v / (Σv + 1e-20) for one row of n values:
/// dv_j = dq_j / (S + ε) − Σ_i dq_i v_i / (S + ε)².
void sumNormalizeBackward(const double *v, const double *dq, int64_t n,
                          double *dv) {
  double denom = 1e-20, dot = 0;
  for (int64_t i = 0; i < n; ++i) {
    denom += v[i];
    dot += dq[i] * v[i];
  }
  for (int64_t i = 0; i < n; ++i)
    dv[i] += dq[i] / denom - dot / (denom * denom);
}

/// The dense scores the aux loss reads (before its per-token normalization),
/// in double: softmax(logits) for post-softmax routing, else route(logits).
std::vector<double> routeScores(ScoreFunction fn, const float *l, int64_t E) {
  if (fn == ScoreFunction::Softmax)
    return softmaxRow(l, E);
  std::vector<double> s(E);
  for (int64_t e = 0; e < E; ++e) {
    const double x = l[e];
    switch (fn) {
    case ScoreFunction::Sigmoid:
      s[e] = 1.0 / (1.0 + std::exp(-x));
      break;
    case ScoreFunction::SqrtSoftplus:
      s[e] = std::sqrt(x > 20 ? x : std::log1p(std::exp(x)));
      break;
    default:
      s[e] = x;
      break;
    }
  }
  return s;
}

/// dl += ds · d route(l) / dl for one row (s = route(l)).
void routeBackward(ScoreFunction fn, const float *l,
                   const std::vector<double> &s, const double *ds, int64_t E,
                   double *dl) {
  switch (fn) {
  case ScoreFunction::Softmax:
    softmaxRowBackward(s, ds, dl);
    return;
  case ScoreFunction::Sigmoid:
    for (int64_t e = 0; e < E; ++e)
      dl[e] += ds[e] * s[e] * (1.0 - s[e]);
    return;
  case ScoreFunction::SqrtSoftplus:
    // s = √softplus(l): ds/dl = softplus'(l) / (2s), softplus' = σ(l) below
    // the x > 20 cut and 1 above it (softplus(l) = l there).
    for (int64_t e = 0; e < E; ++e) {
      const double x = l[e];
      const double dsp = x > 20 ? 1.0 : 1.0 / (1.0 + std::exp(-x));
      dl[e] += ds[e] * dsp / (2.0 * s[e]);
    }
    return;
  case ScoreFunction::Identity:
    for (int64_t e = 0; e < E; ++e)
      dl[e] += ds[e];
    return;
  }
}

} // namespace

LayerGradients runLayerVjp(const LayerConfig &cfg, const LayerInputs &in,
                           const LayerResult &fwd, const float *dOut,
                           float dLoss) {
  const int64_t T = in.T, H = in.H, E = in.E, F = in.F, K = cfg.k;
  const bool kn = cfg.weightLayout == WeightLayout::KN;
  const double dL = dLoss;
  LayerGradients g;
  g.dx.assign(T * H, 0.0);
  g.dRouterWeight.assign(H * E, 0.0);
  g.dWGate.assign(E * H * F, 0.0);
  g.dWUp.assign(E * H * F, 0.0);
  g.dWDown.assign(E * F * H, 0.0);

  // Index helpers for the two weight layouts. gate/up: element (h, f) of
  // expert e; down: element (f, h).
  auto upIdx = [&](int64_t e, int64_t h, int64_t f) {
    return kn ? (e * H + h) * F + f : (e * F + f) * H + h;
  };
  auto downIdx = [&](int64_t e, int64_t f, int64_t h) {
    return kn ? (e * F + f) * H + h : (e * H + h) * F + f;
  };

  // Which expert owns each permuted row (-1: padding past the last group).
  const int64_t R = fwd.R;
  std::vector<int64_t> rowExpert(R, -1);
  {
    int64_t off = 0;
    for (int64_t e = 0; e < E; ++e) {
      for (int64_t r = off; r < off + fwd.perm.groupSizes[e]; ++r)
        rowExpert[r] = e;
      off += fwd.perm.groupSizes[e];
    }
  }

  // ----- combine: out[t] = Σ_k w[t,k]·y[row(t,k)] -------------------------
  std::vector<double> dWeights(T * K, 0.0); // d out / d w[t,k]
  std::vector<double> dy(R * H, 0.0);
  for (int64_t t = 0; t < T; ++t)
    for (int64_t k = 0; k < K; ++k) {
      const int64_t row = fwd.perm.rows[t * K + k];
      const double w = fwd.topk.weights[t * K + k];
      double dot = 0;
      for (int64_t h = 0; h < H; ++h) {
        dot += double(dOut[t * H + h]) * fwd.y[row * H + h];
        dy[row * H + h] += w * dOut[t * H + h];
      }
      dWeights[t * K + k] = dot;
    }

  // ----- experts: y = (act(g) ⊙ u)·Wd, g = xs·Wg, u = xs·Wu ---------------
  std::vector<double> dxs(R * H, 0.0);
  std::vector<double> dh(F), dg(F), du(F);
  for (int64_t r = 0; r < R; ++r) {
    const int64_t e = rowExpert[r];
    if (e < 0)
      continue;
    // down projection
    for (int64_t f = 0; f < F; ++f) {
      double acc = 0;
      for (int64_t h = 0; h < H; ++h) {
        acc += dy[r * H + h] * in.wDown[downIdx(e, f, h)];
        g.dWDown[downIdx(e, f, h)] += double(fwd.h[r * F + f]) * dy[r * H + h];
      }
      dh[f] = acc;
    }
    // GLU
    for (int64_t f = 0; f < F; ++f) {
      const double gv = fwd.gate[r * F + f], uv = fwd.up[r * F + f];
      dg[f] = dh[f] * uv * activationDerivative(cfg.activation, gv);
      du[f] = dh[f] * activation(cfg.activation, gv);
    }
    // gate and up projections
    for (int64_t h = 0; h < H; ++h) {
      const double xv = fwd.perm.permuted[r * H + h];
      double acc = 0;
      for (int64_t f = 0; f < F; ++f) {
        acc +=
            dg[f] * in.wGate[upIdx(e, h, f)] + du[f] * in.wUp[upIdx(e, h, f)];
        g.dWGate[upIdx(e, h, f)] += xv * dg[f];
        g.dWUp[upIdx(e, h, f)] += xv * du[f];
      }
      dxs[r * H + h] = acc;
    }
  }
  // permute: x[t] was copied to every row(t,k).
  for (int64_t t = 0; t < T; ++t)
    for (int64_t k = 0; k < K; ++k) {
      const int64_t row = fwd.perm.rows[t * K + k];
      for (int64_t h = 0; h < H; ++h)
        g.dx[t * H + h] += dxs[row * H + h];
    }

  // ----- router: d logits ----------------------------------------------------
  const ScoreFunction routeFn =
      cfg.postSoftmax ? ScoreFunction::Identity : cfg.scoreFunction;
  const Normalize norm = cfg.postSoftmax ? Normalize::Softmax : cfg.normalize;
  std::vector<double> dLogits(T * E, 0.0);

  // The aux loss's expert counts per sequence (constants).
  const bool aux = cfg.auxLossCoeff > 0;
  const int64_t L =
      aux && cfg.auxLossVariant == AuxVariant::Sequence ? cfg.seqLength : T;
  const int64_t numSeq = T / L;
  std::vector<double> counts(numSeq * E, 0.0);
  auto sequenceOf = [&](int64_t t) {
    return cfg.seqLayout == SeqLayout::Contiguous ? t / L : t % numSeq;
  };
  if (aux)
    for (int64_t t = 0; t < T; ++t)
      for (int64_t k = 0; k < K; ++k)
        counts[sequenceOf(t) * E + fwd.topk.indices[t * K + k]] += 1;
  // loss_aux = (1/numSeq) Σ_s E·coeff/(K·L²) Σ_e P_e(s)·c_e(s), P_e(s) the
  // sum over the sequence's tokens of the normalized dense score p[t,e].
  const double auxScale = double(E) * cfg.auxLossCoeff /
                          (double(K) * double(L) * double(L)) / double(numSeq);

  std::vector<double> dScores(E), dRaw(K), raw(K), dNorm(K), dp(E);
  std::vector<double> dlWeights(E), dlAux(E), dlZ(E);
  double sqWeights = 0, sqAux = 0, sqZ = 0;
  for (int64_t t = 0; t < T; ++t) {
    const float *l = &fwd.logits[t * E];
    const std::vector<double> s = routeScores(routeFn, l, E);
    std::fill(dlWeights.begin(), dlWeights.end(), 0.0);
    std::fill(dlAux.begin(), dlAux.end(), 0.0);
    std::fill(dlZ.begin(), dlZ.end(), 0.0);
    std::fill(dScores.begin(), dScores.end(), 0.0);

    // topk weights: w = scale · normalize(s[idx]).
    for (int64_t k = 0; k < K; ++k) {
      raw[k] = s[fwd.topk.indices[t * K + k]];
      dNorm[k] = cfg.scalingFactor * dWeights[t * K + k];
      dRaw[k] = 0;
    }
    switch (norm) {
    case Normalize::None:
      for (int64_t k = 0; k < K; ++k)
        dRaw[k] = dNorm[k];
      break;
    case Normalize::Sum:
      if (K == 1)
        dRaw[0] = dNorm[0];
      else
        sumNormalizeBackward(raw.data(), dNorm.data(), K, dRaw.data());
      break;
    case Normalize::Softmax:
      softmaxRowBackward(softmaxRow(raw.data(), K), dNorm.data(), dRaw.data());
      break;
    }
    for (int64_t k = 0; k < K; ++k)
      dScores[fwd.topk.indices[t * K + k]] += dRaw[k];
    routeBackward(routeFn, l, s, dScores.data(), E, dlWeights.data());

    // aux loss: dp[t,e] = auxScale · c_e(seq(t)), through the per-token
    // normalization of sigmoid/sqrtsoftplus scores, then to the dense
    // scores: the routed scores, or softmax(logits) with post-softmax.
    if (aux) {
      for (int64_t e = 0; e < E; ++e)
        dp[e] = dL * auxScale * counts[sequenceOf(t) * E + e];
      if (cfg.postSoftmax) {
        softmaxRowBackward(softmaxRow(l, E), dp.data(), dlAux.data());
      } else {
        std::fill(dScores.begin(), dScores.end(), 0.0);
        if (cfg.scoreFunction == ScoreFunction::Softmax)
          for (int64_t e = 0; e < E; ++e)
            dScores[e] = dp[e];
        else
          sumNormalizeBackward(s.data(), dp.data(), E, dScores.data());
        routeBackward(routeFn, l, s, dScores.data(), E, dlAux.data());
      }
    }

    // z loss: coeff · (1/T) Σ_t lse_t² → 2·coeff/T · lse_t · softmax(l_t).
    if (cfg.zLossCoeff > 0) {
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t e = 0; e < E; ++e)
        m = std::max(m, double(l[e]));
      double se = 0;
      for (int64_t e = 0; e < E; ++e)
        se += std::exp(double(l[e]) - m);
      const double lse = m + std::log(se);
      for (int64_t e = 0; e < E; ++e)
        dlZ[e] = dL * cfg.zLossCoeff * 2.0 / double(T) * lse *
                 std::exp(double(l[e]) - lse);
    }
    for (int64_t e = 0; e < E; ++e) {
      dLogits[t * E + e] = dlWeights[e] + dlAux[e] + dlZ[e];
      sqWeights += dlWeights[e] * dlWeights[e];
      sqAux += dlAux[e] * dlAux[e];
      sqZ += dlZ[e] * dlZ[e];
    }
  }
  g.dLogitsNormWeights = std::sqrt(sqWeights);
  g.dLogitsNormAux = std::sqrt(sqAux);
  g.dLogitsNormZ = std::sqrt(sqZ);

  // ----- gate: l = x·Wr
  // --------------------------------------------------------
  for (int64_t t = 0; t < T; ++t)
    for (int64_t h = 0; h < H; ++h) {
      const double xv = in.x[t * H + h];
      double acc = 0;
      for (int64_t e = 0; e < E; ++e) {
        acc += dLogits[t * E + e] * in.routerWeight[h * E + e];
        g.dRouterWeight[h * E + e] += xv * dLogits[t * E + e];
      }
      g.dx[t * H + h] += acc;
    }
  return g;
}

} // namespace moe_ref
