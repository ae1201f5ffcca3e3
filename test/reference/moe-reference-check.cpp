//===- moe-reference-check.cpp - compiled moe.layer vs the C++ reference --===//
//
// moe-reference-check --dump DIR/<entry> --config "k=2,score=softmax,..."
//
// Reads what `moe-runner --dump` wrote for one moe.layer entry (inputs x,
// router_weight, bias?, w_gate, w_up, w_down; outputs out, aux_loss),
// recomputes the layer with the independent reference (MoeReference.h) and
// compares:
//   * out by relative L2 error (bf16 layer 1e-2, f32 layer 1e-5), over the
//     tokens whose routing is not a near-tie. A token whose selection margin
//     (MoeReference.h, TopKResult::margin) is below --tie-margin may
//     legitimately be routed to another expert by the compiled code; such
//     tokens are reported and left out, and more than 1% of them is a
//     failure. Each remaining token must also be close on its own (a
//     misrouted token shows up there even when the global error is small).
//   * aux_loss by relative error (1e-4); each near-tie token widens the
//     tolerance by the most its re-routing could change the loss.
//
// With --backward DIR/<entry>_bwd (the dump of the layer's moe-generate-vjp
// backward; --dump then names the <entry>_fwd directory, which holds every
// input), it also reads the cotangents d_out and d_aux_loss, computes the
// reference VJP (runLayerVjp, MoeReferenceVjp.cpp) and compares each
// gradient by relative L2 error: d_x, d_w_gate, d_w_up and d_w_down by the
// layer's element type (bf16 1e-2, f32 1e-5). d_router_weight is f32 in
// every layer and mostly sees values both sides compute alike (x, the
// cotangent, the f32 logits); in a bf16 layer the expert outputs it reads
// are the reference's own bf16 roundings, which now and then land one ulp
// away from the compiled layer's, so it is held to 1e-3 there (measured up
// to 1e-4) and to 1e-5 in f32 layers. Any other gradient (d_bias) is a
// failure. Gradients sum over tokens, so a near-tie token, whose routing may
// differ in the compiled layer, makes them incomparable: that is a failure
// too (choose another seed).
// Exit status: 0 pass, 1 mismatch, 2 bad usage or unreadable input.
//
//===----------------------------------------------------------------------===//
#include "MoeReference.h"

#include "moe_runtime/DType.h"
#include "moe_runtime/Npy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <limits>
#include <set>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace moe_ref;

namespace {

const char *kUsage =
    "usage: moe-reference-check --dump DIR --config SPEC [options]\n"
    "\n"
    "DIR is one entry's directory of a `moe-runner --dump` (DIR/x.npy, ...).\n"
    "SPEC is a comma-separated list of the layer's attributes:\n"
    "%s"
    "\n"
    "options:\n"
    "  --tie-margin F     selection margin below which a token counts as a\n"
    "                     near-tie and is excluded (default 1e-5)\n"
    "  --max-excluded F   largest excluded fraction of tokens (default 0.01)\n"
    "  --out-tol F        relative L2 tolerance of out (default 1e-2 for "
    "bf16,\n"
    "                     1e-5 for f32)\n"
    "  --token-tol F      relative L2 tolerance of each token's out row\n"
    "                     (default 5e-2 for bf16, 1e-4 for f32)\n"
    "  --aux-tol F        relative tolerance of aux_loss (default 1e-4)\n"
    "  --backward DIR     also check the gradients the layer's backward\n"
    "                     entry wrote to DIR (a `moe-runner --dump` of\n"
    "                     <entry>_bwd; --dump is then the <entry>_fwd\n"
    "                     directory) against the reference VJP\n"
    "  --grad-tol F       relative L2 tolerance of d_x and the expert\n"
    "                     weights' gradients (default 1e-2 for bf16, 1e-5\n"
    "                     for f32)\n"
    "  --router-grad-tol F  relative L2 tolerance of d_router_weight (f32 in\n"
    "                     every layer; default 1e-3 for bf16, 1e-5 for f32)\n"
    "  -v                 also print the first mismatching values\n"
    "  --self-test        check the reference's ops on hand-derived values\n";

int usageError(const std::string &msg) {
  std::fprintf(stderr, "moe-reference-check: error: %s\n", msg.c_str());
  return 2;
}

struct Array {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

bool fileExists(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool loadArray(const std::string &dir, const char *name, Array *out,
               std::string *error) {
  std::string path = dir + "/" + name + ".npy";
  moert::NpyArray npy;
  moert::Status st = moert::readNpy(path, &npy);
  if (!st.ok()) {
    *error = st.message();
    return false;
  }
  if (npy.kind != 'f') {
    *error = path + ": expected a float array, got " + npy.typeName();
    return false;
  }
  out->shape = npy.shape;
  out->data.resize(npy.numElements());
  st = moert::convertNpyTo(npy, moert::DType::F32, out->data.data());
  if (!st.ok()) {
    *error = path + ": " + st.message();
    return false;
  }
  return true;
}

bool checkShape(const char *name, const Array &a,
                const std::vector<int64_t> &want, std::string *error) {
  if (a.shape == want)
    return true;
  *error = std::string(name) + " has shape " + moert::shapeToString(a.shape) +
           ", expected " + moert::shapeToString(want);
  return false;
}

bool parseNumber(const char *s, double *out) {
  char *end = nullptr;
  double v = std::strtod(s, &end);
  if (end == s || *end != '\0' || !std::isfinite(v) || v < 0)
    return false;
  *out = v;
  return true;
}

/// Fraction of the values that are exactly bf16.
double bf16Fraction(const std::vector<float> &v) {
  if (v.empty())
    return 1.0;
  size_t n = 0;
  for (float f : v)
    n += isBF16(f);
  return double(n) / double(v.size());
}

/// Names of the files DIR/d_*.npy (without ".npy").
std::set<std::string> gradientFiles(const std::string &dir) {
  std::set<std::string> names;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (struct dirent *ent = ::readdir(d)) {
      std::string n = ent->d_name;
      if (n.size() > 6 && n.compare(0, 2, "d_") == 0 &&
          n.compare(n.size() - 4, 4, ".npy") == 0)
        names.insert(n.substr(0, n.size() - 4));
    }
    ::closedir(d);
  }
  return names;
}

struct GradientCheck {
  std::string dir;
  const LayerConfig &cfg;
  const LayerInputs &in;
  const LayerResult &fwd;
  std::vector<int64_t> upShape, downShape; // shapes of w_gate/w_up, w_down
  double tolerance;       // d_x and the expert weights' gradients
  double routerTolerance; // d_router_weight
  int64_t nearTies;
  bool verbose;
};

/// The backward entry's gradients against runLayerVjp. Adds a "FAIL: ..."
/// line per mismatching gradient to *failures; returns false (with *error)
/// when the backward dump is unusable.
bool checkGradients(const GradientCheck &c, std::vector<std::string> *failures,
                    std::string *error) {
  const int64_t T = c.in.T, H = c.in.H, E = c.in.E;
  Array dOut, dLoss;
  if (!loadArray(c.dir, "d_out", &dOut, error) ||
      !loadArray(c.dir, "d_aux_loss", &dLoss, error))
    return false;
  if (!checkShape("d_out", dOut, {T, H}, error) ||
      !checkShape("d_aux_loss", dLoss, {}, error))
    return false;
  const LayerGradients ref =
      runLayerVjp(c.cfg, c.in, c.fwd, dOut.data.data(), dLoss.data[0]);
  std::printf("backward: %s, cotangent d_aux_loss %.9g\n", c.dir.c_str(),
              (double)dLoss.data[0]);
  std::printf("backward: d logits L2 norm through the top-k weights %.4g, "
              "the aux loss %.4g, the z-loss %.4g\n",
              ref.dLogitsNormWeights, ref.dLogitsNormAux, ref.dLogitsNormZ);

  struct Expected {
    const char *name;
    std::vector<int64_t> shape;
    const std::vector<double> *want;
    double tolerance;
  };
  const Expected expected[] = {
      {"d_x", {T, H}, &ref.dx, c.tolerance},
      {"d_router_weight", {H, E}, &ref.dRouterWeight, c.routerTolerance},
      {"d_w_gate", c.upShape, &ref.dWGate, c.tolerance},
      {"d_w_up", c.upShape, &ref.dWUp, c.tolerance},
      {"d_w_down", c.downShape, &ref.dWDown, c.tolerance}};

  // Every d_*.npy is a cotangent or one of the expected gradients: the
  // expert bias only steers the selection and has no gradient.
  std::set<std::string> known = {"d_out", "d_aux_loss"};
  for (const Expected &e : expected)
    known.insert(e.name);
  for (const std::string &n : gradientFiles(c.dir))
    if (!known.count(n))
      failures->push_back(n + ": the backward returns a gradient the layer "
                              "does not have");

  if (c.nearTies > 0)
    failures->push_back(
        "gradients: " + std::to_string(c.nearTies) +
        " near-tie tokens may be routed differently by the compiled layer, "
        "so the gradients (sums over tokens) are not comparable: use another "
        "seed");

  for (const Expected &e : expected) {
    Array got;
    if (!loadArray(c.dir, e.name, &got, error) ||
        !checkShape(e.name, got, e.shape, error))
      return false;
    double num = 0, den = 0;
    int64_t nonFinite = 0;
    for (size_t i = 0; i < got.data.size(); ++i) {
      const double g = got.data[i], r = (*e.want)[i];
      if (!std::isfinite(g))
        ++nonFinite;
      num += (g - r) * (g - r);
      den += r * r;
    }
    const double rel = std::sqrt(num) / std::max(std::sqrt(den), 1e-300);
    std::printf("%s: rel L2 error %.3e (tolerance %g), reference L2 norm "
                "%.4g\n",
                e.name, rel, e.tolerance, std::sqrt(den));
    if (c.verbose && !(rel <= e.tolerance)) {
      // The largest differences, by flat index.
      std::vector<size_t> order(got.data.size());
      for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
      auto diff = [&](size_t i) {
        return std::fabs(double(got.data[i]) - (*e.want)[i]);
      };
      const size_t n = std::min<size_t>(5, order.size());
      std::partial_sort(order.begin(), order.begin() + n, order.end(),
                        [&](size_t a, size_t b) { return diff(a) > diff(b); });
      for (size_t j = 0; j < n; ++j)
        std::printf("  %s[%zu]: got %.9g, reference %.9g\n", e.name, order[j],
                    (double)got.data[order[j]], (*e.want)[order[j]]);
    }
    char buf[200];
    if (den == 0) {
      std::snprintf(buf, sizeof buf,
                    "%s: the reference gradient is all zeros (no signal)",
                    e.name);
      failures->push_back(buf);
    }
    if (nonFinite) {
      std::snprintf(buf, sizeof buf, "%s: %lld values are not finite", e.name,
                    (long long)nonFinite);
      failures->push_back(buf);
    }
    if (!(rel <= e.tolerance)) {
      std::snprintf(buf, sizeof buf,
                    "%s: relative L2 error %.3e above tolerance %g", e.name,
                    rel, e.tolerance);
      failures->push_back(buf);
    }
  }
  return true;
}

/// The reference VJP against central differences of the reference forward
/// on a tiny all-f32 layer: for each differentiable input, the derivative
/// of f = ⟨dOut, out⟩ + dLoss · aux_loss along a random direction of that
/// input vs ⟨direction, gradient⟩. The loss coefficients are large so that
/// the router's paths weigh in. A step that changes the routing is halved.
/// Returns the number of mismatches; prints one line per config.
int vjpSelfTest(const char *spec, bool withBias, int *checks) {
  LayerConfig cfg;
  std::string err;
  if (!cfg.parse(spec, &err)) {
    std::printf("self-test FAIL: vjp config '%s': %s\n", spec, err.c_str());
    return 1;
  }
  const int64_t T = 8, H = 4, F = 6, E = 4;
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto uniform = [&]() { // in [-1, 1)
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return double(state >> 11) / double(1ull << 52) - 1.0;
  };
  auto fill = [&](int64_t n, double scale) {
    std::vector<float> v(n);
    for (float &f : v)
      f = float(scale * uniform());
    return v;
  };
  std::vector<float> x = fill(T * H, 1.5), wr = fill(H * E, 1.0),
                     bias = fill(E, 0.2), wg = fill(E * H * F, 0.8),
                     wu = fill(E * H * F, 0.8), wd = fill(E * F * H, 0.8),
                     dOut = fill(T * H, 1.0);
  const float dLoss = 0.75f;
  auto inputsOf = [&](std::vector<float> *p[5]) {
    LayerInputs in;
    in.T = T, in.H = H, in.E = E, in.F = F;
    in.x = p[0]->data(), in.routerWeight = p[1]->data();
    in.bias = withBias ? bias.data() : nullptr;
    in.wGate = p[2]->data(), in.wUp = p[3]->data(), in.wDown = p[4]->data();
    return in;
  };
  std::vector<float> *params[5] = {&x, &wr, &wg, &wu, &wd};
  const LayerInputs in = inputsOf(params);
  const LayerResult base = runLayer(cfg, in);
  const LayerGradients grad = runLayerVjp(cfg, in, base, dOut.data(), dLoss);
  const std::vector<double> *grads[5] = {
      &grad.dx, &grad.dRouterWeight, &grad.dWGate, &grad.dWUp, &grad.dWDown};
  const char *names[5] = {"x", "router_weight", "w_gate", "w_up", "w_down"};

  auto objective = [&](const LayerResult &r) {
    double f = double(dLoss) * r.loss;
    for (int64_t i = 0; i < T * H; ++i)
      f += double(dOut[i]) * r.out[i];
    return f;
  };
  int failed = 0;
  std::string line;
  for (int p = 0; p < 5; ++p) {
    ++*checks;
    std::vector<float> dir = fill(int64_t(params[p]->size()), 1.0);
    double analytic = 0;
    for (size_t i = 0; i < dir.size(); ++i)
      analytic += double(dir[i]) * (*grads[p])[i];
    double fd = 0;
    bool routed = false;
    for (double eps = 1e-3; eps > 1e-6 && !routed; eps /= 2) {
      std::vector<float> plus(*params[p]), minus(*params[p]);
      for (size_t i = 0; i < dir.size(); ++i) {
        plus[i] = float(plus[i] + eps * dir[i]);
        minus[i] = float(minus[i] - eps * dir[i]);
      }
      std::vector<float> *pp[5] = {&x, &wr, &wg, &wu, &wd};
      pp[p] = &plus;
      LayerResult rp = runLayer(cfg, inputsOf(pp));
      pp[p] = &minus;
      LayerResult rm = runLayer(cfg, inputsOf(pp));
      if (rp.topk.indices != base.topk.indices ||
          rm.topk.indices != base.topk.indices)
        continue;
      routed = true;
      // The step actually taken (the perturbed values are rounded to f32).
      double step = 0, norm = 0;
      for (size_t i = 0; i < dir.size(); ++i) {
        step += (double(plus[i]) - double(minus[i])) * dir[i];
        norm += double(dir[i]) * dir[i];
      }
      fd = (objective(rp) - objective(rm)) / (step / norm);
    }
    const double tol = 2e-3 * std::fabs(analytic) + 2e-4;
    const bool ok = routed && std::fabs(fd - analytic) <= tol;
    char buf[160];
    std::snprintf(buf, sizeof buf, " %s %s", names[p], ok ? "ok" : "FAIL");
    line += buf;
    if (!ok) {
      ++failed;
      std::printf("self-test FAIL: vjp [%s] d%s along a random direction: "
                  "reference VJP %.9g, central difference %.9g%s\n",
                  spec, names[p], analytic, fd,
                  routed ? "" : " (every step changed the routing)");
    }
  }
  return failed;
}

/// Hand-derived values for each op of the reference (a check of the
/// reference itself, independent of the compiler).
int selfTest() {
  int checks = 0, failed = 0;
  auto near = [&](const char *what, double got, double want) {
    ++checks;
    if (std::fabs(got - want) <= 1e-6 * std::max(1.0, std::fabs(want)))
      return;
    ++failed;
    std::printf("self-test FAIL: %s = %.9g, expected %.9g\n", what, got, want);
  };
  auto same = [&](const char *what, const std::vector<int32_t> &got,
                  const std::vector<int32_t> &want) {
    ++checks;
    if (got == want)
      return;
    ++failed;
    std::printf("self-test FAIL: %s:", what);
    for (int32_t v : got)
      std::printf(" %d", v);
    std::printf(", expected");
    for (int32_t v : want)
      std::printf(" %d", v);
    std::printf("\n");
  };
  // route: softmax([0, ln 2, ln 4]) = [1, 2, 4] / 7; sigmoid(0) = 1/2;
  // sqrtsoftplus(0) = sqrt(ln 2), sqrtsoftplus(30) = sqrt(30) (x > 20).
  {
    std::vector<float> sm = route(ScoreFunction::Softmax,
                                  {0.0f, std::log(2.0f), std::log(4.0f)}, 1, 3);
    near("softmax[0]", sm[0], 1.0 / 7), near("softmax[2]", sm[2], 4.0 / 7);
    near("sigmoid(0)", route(ScoreFunction::Sigmoid, {0.0f}, 1, 1)[0], 0.5);
    std::vector<float> sp =
        route(ScoreFunction::SqrtSoftplus, {0.0f, 30.0f}, 1, 2);
    near("sqrtsoftplus(0)", sp[0], std::sqrt(std::log(2.0)));
    near("sqrtsoftplus(30)", sp[1], std::sqrt(30.0));
  }
  // topk: ties to the lower index, ordered by descending score.
  {
    std::vector<float> s = {0.1f, 0.4f, 0.4f, 0.3f};
    TopKResult r = topk(s, nullptr, 1, 4, 2, 1, 1, GroupScore::TopSum, 0,
                        Normalize::None, 1.0);
    same("topk k=2 tie", r.indices, {1, 2});
    near("topk k=2 tie margin", r.margin[0], 0.1);
    r = topk(s, nullptr, 1, 4, 3, 1, 1, GroupScore::TopSum, 0,
             Normalize::Sum, 1.0);
    same("topk k=3", r.indices, {1, 2, 3});
    near("topk k=3 sum w[2]", r.weights[2], 0.3 / 1.1);
    // The bias steers the selection only: sel = [.1 .4 .4 .5] -> 3, 1;
    // weights = unbiased [.3 .4], normalized [3/7 4/7], scaled by 2.
    const float bias[4] = {0, 0, 0, 0.2f};
    r = topk(s, bias, 1, 4, 2, 1, 1, GroupScore::TopSum, 0, Normalize::Sum,
             2.0);
    same("topk bias", r.indices, {3, 1});
    near("topk bias w[0]", r.weights[0], 6.0 / 7);
    near("topk bias w[1]", r.weights[1], 8.0 / 7);
    // normalize=sum is a no-op for k = 1.
    r = topk(s, nullptr, 1, 4, 1, 1, 1, GroupScore::TopSum, 0, Normalize::Sum,
             1.0);
    same("topk k=1 tie", r.indices, {1});
    near("topk k=1 sum no-op", r.weights[0], 0.4);
    // softmax over the chosen: [1, 0] -> [e/(e+1), 1/(e+1)].
    r = topk({1.0f, -2.0f, 0.0f}, nullptr, 1, 3, 2, 1, 1, GroupScore::TopSum,
             0, Normalize::Softmax, 1.0);
    same("topk softmax", r.indices, {0, 2});
    near("topk softmax w[0]", r.weights[0], std::exp(1.0) / (std::exp(1.0) + 1));
  }
  // Groups {0,1} {2,3} of [.1 .9 .5 .6], keep 1, k = 2: top-sum (q = 2)
  // scores 1.0 vs 1.1 -> group 1; max scores .9 vs .6 -> group 0; top-sum
  // with q = 1 is the max.
  {
    std::vector<float> s = {0.1f, 0.9f, 0.5f, 0.6f};
    TopKResult r = topk(s, nullptr, 1, 4, 2, 2, 1, GroupScore::TopSum, 0,
                        Normalize::None, 1.0);
    same("groups top_sum", r.indices, {3, 2});
    near("groups top_sum margin", r.margin[0], 0.1);
    r = topk(s, nullptr, 1, 4, 2, 2, 1, GroupScore::Max, 0, Normalize::None,
             1.0);
    same("groups max", r.indices, {1, 0});
    r = topk(s, nullptr, 1, 4, 2, 2, 1, GroupScore::TopSum, 1,
             Normalize::None, 1.0);
    same("groups topq=1", r.indices, {1, 0});
    // Tied groups: the lower one stays.
    r = topk({0.2f, 0.7f, 0.7f, 0.2f}, nullptr, 1, 4, 2, 2, 1,
             GroupScore::TopSum, 0, Normalize::None, 1.0);
    same("groups tie", r.indices, {1, 0});
  }
  // aux loss, T = 2, E = 2, K = 1, p = [[.75 .25] [.5 .5]], indices [0, 1]:
  // batch: E/(K T²) · (1.25·1 + .75·1) = 1; sequence L = 1: (2·.75 + 2·.5)/2.
  // Sigmoid scores are normalized per token first.
  {
    std::vector<float> p = {0.75f, 0.25f, 0.5f, 0.5f};
    near("aux batch", auxLoss(p, {0, 1}, 2, 2, 1, 1.0, 0, SeqLayout::Contiguous),
         1.0);
    near("aux sequence",
         auxLoss(p, {0, 1}, 2, 2, 1, 1.0, 1, SeqLayout::Contiguous), 1.25);
    std::vector<float> q =
        auxLossScores(ScoreFunction::Sigmoid, {0.3f, 0.1f}, 1, 2);
    near("aux sigmoid p[0]", q[0], 0.75);
    near("z loss", zLoss({0.0f, 0.0f, 1.0f, 1.0f}, 2, 2, 1.0),
         (std::pow(std::log(2.0), 2) + std::pow(1 + std::log(2.0), 2)) / 2);
  }
  // permute, T = 3, K = 1, E = 2, indices [1 0 1], align 2: sizes [2 2],
  // rows [2 0 3], R = 3 + 2 = 5, padding rows 1 and 4 zero.
  {
    const float x[3] = {10, 20, 30};
    PermuteResult r = permute(x, {1, 0, 1}, 3, 1, 1, 2, 2);
    same("permute sizes", r.groupSizes, {2, 2});
    same("permute rows", r.rows, {2, 0, 3});
    near("permute R", double(r.R), 5);
    near("permute row 0", r.permuted[0], 20);
    near("permute row 1 (padding)", r.permuted[1], 0);
    near("permute row 3", r.permuted[3], 30);
    // grouped matmul on it, Kd = N = 1: group 0 × 2, group 1 × 3, NK = KN.
    const float b[2] = {2, 3};
    std::vector<float> c = groupedMatmul(r.permuted, 5, 1, b, 2, 1,
                                         WeightLayout::NK, r.groupSizes, false);
    near("grouped_matmul row 2", c[2], 30), near("grouped_matmul row 3", c[3], 90);
    // combine with weight 0.5: token 2 = 0.5 · 90.
    std::vector<float> out =
        combine(c, 1, r.rows, {0.5f, 0.5f, 0.5f}, 3, 1, false);
    near("combine token 2", out[2], 45);
  }
  // activations at 1 (and relu2 at -1, 2).
  near("silu(1)", activate(Activation::Silu, 1), 0.7310585786);
  near("gelu(1)", activate(Activation::Gelu, 1), 0.8413447461);
  near("gelu_tanh(1)", activate(Activation::GeluTanh, 1), 0.8411919906);
  near("relu(-1)", activate(Activation::Relu, -1), 0);
  near("relu2(-1)", activate(Activation::Relu2, -1), 0);
  near("relu2(2)", activate(Activation::Relu2, 2), 4);
  near("identity(-3)", activate(Activation::Identity, -3), -3);
  near("bf16(1 + 2^-8) ties to even", roundBF16(1.0f + 1.0f / 256), 1.0);
  // The reference VJP against central differences, one layer per router
  // mode and activation (large loss coefficients).
  {
    const std::pair<const char *, bool> vjpLayers[] = {
        {"k=2,score=softmax,normalize=sum,act=silu,aux=1,z=1,dtype=f32", false},
        {"k=2,score=softmax,post_softmax,act=gelu,aux=1,z=1,dtype=f32", false},
        {"k=2,score=sigmoid,groups=2,group_topk=1,normalize=sum,scale=2.5,"
         "act=relu2,aux=1,aux_variant=sequence,seq_length=4,z=1,dtype=f32",
         true},
        {"k=3,score=sqrtsoftplus,normalize=none,act=gelu_tanh,layout=nk,"
         "align=4,aux=1,dtype=f32",
         true},
        {"k=2,score=sigmoid,groups=2,group_topk=1,group_score=max,"
         "normalize=softmax,act=identity,aux=1,z=1,dtype=f32",
         false},
        {"k=1,score=sigmoid,normalize=sum,act=relu,aux=1,dtype=f32", false},
        {"k=2,score=softmax,groups=2,group_topk=2,normalize=none,scale=1.5,"
         "act=silu,z=1,dtype=f32",
         false}};
    for (const auto &[spec, withBias] : vjpLayers)
      failed += vjpSelfTest(spec, withBias, &checks);
  }
  std::printf("self-test: %d of %d checks passed\n", checks - failed, checks);
  return failed ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  std::string dumpDir, spec;
  double tieMargin = 1e-5, maxExcluded = 0.01, auxTol = 1e-4;
  double outTol = -1, tokenTol = -1, gradTol = -1, routerGradTol = -1;
  std::string backwardDir;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *opt) -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "moe-reference-check: error: %s needs a value\n",
                     opt);
        std::exit(2);
      }
      return argv[++i];
    };
    auto number = [&](const char *opt, double *out) {
      const char *v = value(opt);
      if (!parseNumber(v, out)) {
        std::fprintf(stderr,
                     "moe-reference-check: error: %s: bad number '%s'\n", opt,
                     v);
        std::exit(2);
      }
    };
    if (a == "--dump")
      dumpDir = value("--dump");
    else if (a == "--config")
      spec = value("--config");
    else if (a == "--tie-margin")
      number("--tie-margin", &tieMargin);
    else if (a == "--max-excluded")
      number("--max-excluded", &maxExcluded);
    else if (a == "--out-tol")
      number("--out-tol", &outTol);
    else if (a == "--token-tol")
      number("--token-tol", &tokenTol);
    else if (a == "--aux-tol")
      number("--aux-tol", &auxTol);
    else if (a == "--backward")
      backwardDir = value("--backward");
    else if (a == "--grad-tol")
      number("--grad-tol", &gradTol);
    else if (a == "--router-grad-tol")
      number("--router-grad-tol", &routerGradTol);
    else if (a == "-v")
      verbose = true;
    else if (a == "--self-test")
      return selfTest();
    else if (a == "-h" || a == "--help") {
      std::printf(kUsage, LayerConfig::help());
      return 0;
    } else {
      std::fprintf(stderr, kUsage, LayerConfig::help());
      return usageError("unknown argument '" + a + "'");
    }
  }
  if (dumpDir.empty() || spec.empty()) {
    std::fprintf(stderr, kUsage, LayerConfig::help());
    return usageError("--dump and --config are required");
  }

  LayerConfig cfg;
  std::string err;
  if (!cfg.parse(spec, &err))
    return usageError("--config: " + err);
  const bool bf16 = cfg.elemType == ElemType::BF16;
  if (outTol < 0)
    outTol = bf16 ? 1e-2 : 1e-5;
  if (tokenTol < 0)
    tokenTol = bf16 ? 5e-2 : 1e-4;
  if (gradTol < 0)
    gradTol = bf16 ? 1e-2 : 1e-5;
  if (routerGradTol < 0)
    routerGradTol = bf16 ? 1e-3 : 1e-5;

  // ----- Load the dump ---------------------------------------------------------
  Array x, wr, bias, wg, wu, wd, out, aux;
  const bool hasBias = fileExists(dumpDir + "/bias.npy");
  if (!loadArray(dumpDir, "x", &x, &err) ||
      !loadArray(dumpDir, "router_weight", &wr, &err) ||
      (hasBias && !loadArray(dumpDir, "bias", &bias, &err)) ||
      !loadArray(dumpDir, "w_gate", &wg, &err) ||
      !loadArray(dumpDir, "w_up", &wu, &err) ||
      !loadArray(dumpDir, "w_down", &wd, &err) ||
      !loadArray(dumpDir, "out", &out, &err) ||
      !loadArray(dumpDir, "aux_loss", &aux, &err))
    return usageError(err);
  if (x.shape.size() != 2 || wr.shape.size() != 2 || wg.shape.size() != 3)
    return usageError("x and router_weight must be rank 2 and w_gate rank 3");
  const int64_t T = x.shape[0], H = x.shape[1], E = wr.shape[1];
  const bool kn = cfg.weightLayout == WeightLayout::KN;
  if (wg.shape[0] != E || wg.shape[kn ? 1 : 2] != H)
    return usageError("w_gate has shape " + moert::shapeToString(wg.shape) +
                      ", which is not " + (kn ? "[E, H, F]" : "[E, F, H]") +
                      " (layout=" + toString(cfg.weightLayout) + ") for E = " +
                      std::to_string(E) + ", H = " + std::to_string(H) +
                      " (is layout= right?)");
  const int64_t F = kn ? wg.shape[2] : wg.shape[1];
  if (!checkShape("router_weight", wr, {H, E}, &err) ||
      (hasBias && !checkShape("bias", bias, {E}, &err)) ||
      !checkShape("w_gate", wg, kn ? std::vector<int64_t>{E, H, F}
                                   : std::vector<int64_t>{E, F, H}, &err) ||
      !checkShape("w_up", wu, wg.shape, &err) ||
      !checkShape("w_down", wd, kn ? std::vector<int64_t>{E, F, H}
                                   : std::vector<int64_t>{E, H, F}, &err) ||
      !checkShape("out", out, {T, H}, &err) ||
      !checkShape("aux_loss", aux, {}, &err))
    return usageError(err + " (is layout= right?)");
  if (!cfg.validate(T, E, hasBias, &err))
    return usageError("--config: " + err);
  // The dump has bf16 as float32: make sure dtype= says what the layer used.
  {
    double fx = bf16Fraction(x.data), fw = bf16Fraction(wg.data),
           fo = bf16Fraction(out.data);
    if (bf16 && (fx < 1 || fw < 1 || fo < 1))
      return usageError("dtype=bf16, but x/w_gate/out hold values that are "
                        "not bf16: pass dtype=f32");
    if (!bf16 && fx == 1 && fw == 1)
      return usageError("dtype=f32, but x and w_gate hold only bf16 values: "
                        "pass dtype=bf16");
  }

  // ----- Reference -------------------------------------------------------------
  LayerInputs in;
  in.T = T, in.H = H, in.E = E, in.F = F;
  in.x = x.data.data();
  in.routerWeight = wr.data.data();
  in.bias = hasBias ? bias.data.data() : nullptr;
  in.wGate = wg.data.data();
  in.wUp = wu.data.data();
  in.wDown = wd.data.data();
  LayerResult ref = runLayer(cfg, in);
  const int64_t K = cfg.k;

  std::printf("moe-reference-check: %s\n", dumpDir.c_str());
  std::printf("layer: T=%lld H=%lld F=%lld E=%lld K=%lld R=%lld, bias %s\n",
              (long long)T, (long long)H, (long long)F, (long long)E,
              (long long)K, (long long)ref.R, hasBias ? "yes" : "no");
  std::printf("config: %s\n", cfg.str().c_str());

  // ----- Routing: near-ties and coverage ---------------------------------------
  std::vector<char> excluded(T, 0);
  int64_t numExcluded = 0;
  float minMargin = std::numeric_limits<float>::infinity();
  for (int64_t t = 0; t < T; ++t) {
    float m = ref.topk.margin[t];
    minMargin = std::min(minMargin, m);
    if (!(m >= tieMargin)) {
      excluded[t] = 1;
      ++numExcluded;
    }
  }
  std::vector<int64_t> load(E, 0);
  for (int32_t e : ref.topk.indices)
    load[e] += 1;
  int64_t minLoad = *std::min_element(load.begin(), load.end());
  int64_t maxLoad = *std::max_element(load.begin(), load.end());
  int64_t emptyExperts = std::count(load.begin(), load.end(), 0);
  std::printf("routing: %lld of %lld tokens are near-ties (margin < %g), "
              "excluded; smallest margin %.3g\n",
              (long long)numExcluded, (long long)T, tieMargin, minMargin);
  std::printf("routing: expert load min %lld max %lld, %lld empty\n",
              (long long)minLoad, (long long)maxLoad, (long long)emptyExperts);
  auto countChanged = [&](const TopKResult &other) {
    int64_t n = 0;
    for (int64_t t = 0; t < T; ++t) {
      std::vector<int32_t> a(&ref.topk.indices[t * K],
                             &ref.topk.indices[t * K] + K);
      std::vector<int32_t> b(&other.indices[t * K], &other.indices[t * K] + K);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      n += a != b;
    }
    return n;
  };
  const Normalize norm = cfg.postSoftmax ? Normalize::Softmax : cfg.normalize;
  if (hasBias) {
    TopKResult nb = topk(ref.scores, nullptr, T, E, K, cfg.numGroups,
                         cfg.groupTopk, cfg.groupScore, cfg.groupScoreTopq,
                         norm, cfg.scalingFactor);
    std::printf("routing: the bias steers %lld of %lld tokens\n",
                (long long)countChanged(nb), (long long)T);
  }
  if (cfg.numGroups > 1) {
    TopKResult ng = topk(ref.scores, in.bias, T, E, K, 1, 1, cfg.groupScore, 0,
                         norm, cfg.scalingFactor);
    std::printf("routing: group limiting changes %lld of %lld tokens\n",
                (long long)countChanged(ng), (long long)T);
  }
  if (cfg.align > 1) {
    int64_t used = 0;
    for (int32_t s : ref.perm.groupSizes)
      used += s;
    std::printf("permute: %lld padding rows of %lld used rows (R = %lld)\n",
                (long long)(used - T * K), (long long)used, (long long)ref.R);
  }

  std::vector<std::string> failures;
  if (double(numExcluded) > maxExcluded * double(T)) {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "%lld near-tie tokens exceed %g of %lld tokens",
                  (long long)numExcluded, maxExcluded, (long long)T);
    failures.push_back(buf);
  }

  // ----- out -------------------------------------------------------------------
  {
    double num = 0, den = 0, worst = -1;
    int64_t worstTok = -1, badTokens = 0, nonFinite = 0, compared = 0;
    for (int64_t t = 0; t < T; ++t) {
      if (excluded[t])
        continue;
      ++compared;
      double tn = 0, td = 0;
      for (int64_t h = 0; h < H; ++h) {
        double g = out.data[t * H + h], r = ref.out[t * H + h];
        if (!std::isfinite(g))
          ++nonFinite;
        tn += (g - r) * (g - r);
        td += r * r;
      }
      num += tn;
      den += td;
      double rel = std::sqrt(tn) / std::max(std::sqrt(td), 1e-30);
      if (!(rel <= tokenTol)) {
        ++badTokens;
        if (verbose && badTokens <= 5) {
          std::printf("  token %lld: rel error %.3g; expert",
                      (long long)t, rel);
          for (int64_t k = 0; k < K; ++k)
            std::printf(" %d (w %.5g)", ref.topk.indices[t * K + k],
                        ref.topk.weights[t * K + k]);
          std::printf("\n    got");
          for (int64_t h = 0; h < std::min<int64_t>(H, 6); ++h)
            std::printf(" %.6g", out.data[t * H + h]);
          std::printf("\n    ref");
          for (int64_t h = 0; h < std::min<int64_t>(H, 6); ++h)
            std::printf(" %.6g", ref.out[t * H + h]);
          std::printf("\n");
        }
      }
      if (!(rel <= worst)) {
        worst = rel;
        worstTok = t;
      }
    }
    double rel = std::sqrt(num) / std::max(std::sqrt(den), 1e-30);
    std::printf("out: rel L2 error %.3e (tolerance %g) over %lld tokens; worst "
                "token %lld at %.3e (tolerance %g), %lld above\n",
                rel, outTol, (long long)compared, (long long)worstTok, worst,
                tokenTol, (long long)badTokens);
    if (den == 0)
      failures.push_back("out: the reference is all zeros (no signal)");
    if (nonFinite)
      failures.push_back("out: " + std::to_string(nonFinite) +
                         " values are not finite");
    if (!(rel <= outTol))
      failures.push_back("out: relative L2 error above tolerance");
    if (badTokens)
      failures.push_back("out: " + std::to_string(badTokens) +
                         " tokens above the per-token tolerance");
  }

  // ----- aux_loss ----------------------------------------------------------------
  {
    // Re-routing a near-tie token moves its K counts between experts of its
    // sequence: bound the change by coef · K · (max_e P_e - min_e P_e).
    double slack = 0;
    if (cfg.auxLossCoeff > 0 && numExcluded > 0) {
      const int64_t L = cfg.auxLossVariant == AuxVariant::Sequence
                            ? cfg.seqLength
                            : T;
      const int64_t numSeq = T / L;
      const double coef = double(E) * cfg.auxLossCoeff /
                          (double(K) * double(L) * double(L)) / double(numSeq);
      for (int64_t t = 0; t < T; ++t) {
        if (!excluded[t])
          continue;
        int64_t s = cfg.seqLayout == SeqLayout::Contiguous ? t / L : t % numSeq;
        std::vector<double> P(E, 0.0);
        for (int64_t i = 0; i < L; ++i) {
          int64_t u = cfg.seqLayout == SeqLayout::Contiguous ? s * L + i
                                                             : i * numSeq + s;
          for (int64_t e = 0; e < E; ++e)
            P[e] += ref.auxScores[u * E + e];
        }
        slack += coef * double(K) *
                 (*std::max_element(P.begin(), P.end()) -
                  *std::min_element(P.begin(), P.end()));
      }
    }
    const double got = aux.data[0], want = ref.loss;
    const double diff = std::fabs(got - want);
    const double rel = diff / std::max(std::fabs(want), 1e-30);
    const double allowed = auxTol * std::fabs(want) + slack;
    std::printf("aux_loss: got %.9g, reference %.9g (aux %.9g + z %.9g), rel "
                "error %.3e (tolerance %g",
                got, want, (double)ref.auxLoss, (double)ref.zLoss,
                want == 0 && got == 0 ? 0.0 : rel, auxTol);
    if (slack > 0)
      std::printf(" + near-tie slack %.3g", slack);
    std::printf(")\n");
    if (!std::isfinite(got) || !(diff <= allowed)) {
      failures.push_back("aux_loss: relative error above tolerance");
      // Diagnose the other reading of "sequence".
      if (cfg.auxLossCoeff > 0 &&
          cfg.auxLossVariant == AuxVariant::Sequence) {
        SeqLayout other = cfg.seqLayout == SeqLayout::Contiguous
                              ? SeqLayout::Strided
                              : SeqLayout::Contiguous;
        float alt = auxLoss(ref.auxScores, ref.topk.indices, T, E, K,
                            cfg.auxLossCoeff, cfg.seqLength, other) +
                    ref.zLoss;
        std::printf("aux_loss: with the %s sequence layout the reference "
                    "would be %.9g\n",
                    other == SeqLayout::Strided ? "strided" : "contiguous",
                    (double)alt);
      }
    }
  }

  if (!backwardDir.empty()) {
    GradientCheck gc{backwardDir, cfg,      in,      ref,
                     wg.shape,    wd.shape, gradTol, routerGradTol,
                     numExcluded, verbose};
    if (!checkGradients(gc, &failures, &err))
      return usageError(err);
  }

  if (failures.empty()) {
    std::printf("PASS\n");
    return 0;
  }
  for (const std::string &f : failures)
    std::printf("FAIL: %s\n", f.c_str());
  return 1;
}
