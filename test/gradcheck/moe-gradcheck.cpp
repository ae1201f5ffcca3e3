//===- moe-gradcheck.cpp - check VJP gradients by finite differences ------===//
//
// Loads an artifact with the entries moe-generate-vjp makes from a forward @f
// (@f, @f_fwd, @f_bwd), runs @f_fwd then @f_bwd (residuals chained by name,
// the arguments of @f that @f_bwd takes given the same values as to @f_fwd)
// on moe-runner's inputs, and compares the analytic directional derivative
// sum_a <g_a, u_a> with the central finite difference of
// phi(x) = sum_outputs <v, f(x)> along a random direction u. No MLIR and no
// LLVM inside: only libmoe_runtime (artifact, .npy, random and dtype code).
//
//===----------------------------------------------------------------------===//

#include "moe_runtime/Artifact.h"
#include "moe_runtime/DType.h"
#include "moe_runtime/EntryBuffers.h"
#include "moe_runtime/FileUtil.h"
#include "moe_runtime/Inputs.h"
#include "moe_runtime/Npy.h"
#include "moe_runtime/Random.h"
#include "moe_runtime/Tool.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace moert;

namespace {

constexpr double kDefaultEps = 1e-3;
constexpr double kDefaultRtol = 1e-2;
constexpr double kTiny = 1e-30;

const char *kHelp = R"(moe-gradcheck: check an artifact's VJP gradients by finite differences.

USAGE
  moe-gradcheck ARTIFACT --entry F [--seed N] [--eps E] [--rtol R]
                [--per-input] [--inputs DIR]

ARTIFACT is the stem, .so or .json of a cpu artifact (moe-compile -o STEM)
holding the entries that moe-generate-vjp makes from a forward function F:
  F      F's arguments -> F's results
  F_fwd  F's arguments -> F's results, then residuals (role residual)
  F_bwd  the arguments of F its adjoints need (same names, shapes, dtypes as
         in F) and the residuals (same names, shapes, dtypes, order as in
         F_fwd), then cotangents d_<result> (role cotangent) -> gradients
         d_<argument> (role gradient)

WHAT IS CHECKED
  x: F's inputs, made exactly as `moe-runner --entry F` makes them (seeded
     random, or .npy files from --inputs). Integer and i1 inputs need --inputs.
  v: the cotangents, made as `moe-runner --entry F_bwd` makes them (N(0, 1)
     seeded by name, or DIR/F_bwd/d_<result>.npy, DIR/d_<result>.npy).
     Integer results take no part.
  F_fwd(x) gives F's results (they must match F(x) within --rtol, relative L2)
  and the residuals; F_bwd(the arguments of F it takes, from x; residuals; v)
  gives the gradients g_a, which must all be finite.
  u: a random direction, N(0, 1) per element, only over the arguments a that
     have a gradient d_a, each scaled by rms(x_a) so that eps*u is a relative
     perturbation of size about eps.
  phi(x) = sum over F's float results r of <v_r, F(x)_r>, in double.
  FD = (phi(x+) - phi(x-)) / (2 eps), with x+- = x -+ eps*u rounded to each
       argument's dtype;
  AN = sum_a <g_a, (x+_a - x-_a) / (2 eps)>, in double: the direction actually
       applied after rounding.
  rel_err = |FD - AN| / max(|FD|, |AN|, 1e-30); the check passes when
  rel_err <= rtol. If an integer result of F (indices, counts) changes between
  x+, x and x-, a discrete decision flipped inside the step, FD means nothing,
  and the check fails: use a smaller --eps or another --seed.
  A failure whose |FD - AN| is within FD's estimated rounding noise
  (sum |v * F(x)| * the results' unit roundoff / eps) says so: it is
  inconclusive rather than proof of a wrong gradient. One random direction
  can also hide a wrong gradient by cancellation (rarely): --per-input and a
  few seeds make that unlikely.

OPTIONS
  --entry F       The forward entry (required); F_fwd and F_bwd must exist.
  --seed N        Seed of x, v and u (default 0; decimal or 0x hex).
  --eps E         Relative step (default 1e-3). Central differences in f32 lose
                  about 6e-8*sqrt(#outputs)/E to rounding: raise E for large
                  models, lower it if routing decisions flip.
  --rtol R        Largest relative error that passes (default 1e-2, meant for
                  f32 models; f64 models can use 1e-6).
  --per-input     One check per argument with a gradient (u nonzero on that
                  argument only), one line each; fails if any fails. Default:
                  one check along all of them at once.
  --inputs DIR    Read F's input NAME from DIR/F/NAME.npy or DIR/NAME.npy and
                  cotangent d_R from DIR/F_bwd/d_R.npy or DIR/d_R.npy, as
                  moe-runner --inputs does; others are random.
  -h, --help      This help.

PRECISION
  Use f32 (or f64) models. Perturbed inputs are rounded back to each
  argument's dtype, and bf16/f16/fp8 arguments or results make finite
  differences too coarse to mean anything (a warning says so); check the same
  model compiled in f32 instead.

OUTPUT
  gradcheck <artifact> entry F: seed N, eps E, rtol R
    forward: F_fwd results vs F: max rel L2 diff D (<names>)
    residuals: <name> <shape> <dtype>, ...
    arguments of F_bwd from x: <names>       (when F_bwd takes any)
    gradients: d_a <shape> <dtype>, ... (all finite)
    check <args>: fd <FD>, analytic <AN>, rel_err <e> ok|FAIL [(why)]
  PASS | FAIL: <n> of <m> checks failed

EXIT STATUS
  0 all checks pass, 1 a check fails or an error (message on stderr:
  "moe-gradcheck: error: ..."), 2 bad command line.
)";

struct Options {
  std::string artifact;
  std::string entry;
  uint64_t seed = 0;
  double eps = kDefaultEps;
  double rtol = kDefaultRtol;
  bool perInput = false;
  std::string inputsDir;
};

double parsePositive(const std::string &flag, const std::string &text) {
  errno = 0;
  char *end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || errno != 0 || !end || *end != '\0' || !std::isfinite(v) || v <= 0.0)
    usageError(format("%s expects a positive number, got '%s'", flag.c_str(), text.c_str()));
  return v;
}

Options parseCommandLine(int argc, char **argv) {
  Options o;
  ArtifactCommandLine cl(argc, argv, kHelp);
  while (cl.nextFlag()) {
    const std::string &name = cl.flag();
    if (name == "--entry") {
      if (!o.entry.empty())
        usageError("--entry given twice (moe-gradcheck checks one entry)");
      o.entry = cl.nonEmptyValue("a name");
    } else if (name == "--seed") {
      o.seed = cl.unsignedValue();
    } else if (name == "--eps") {
      o.eps = parsePositive("--eps", cl.value());
    } else if (name == "--rtol") {
      o.rtol = parsePositive("--rtol", cl.value());
    } else if (name == "--per-input") {
      cl.noValue();
      o.perInput = true;
    } else if (name == "--inputs") {
      o.inputsDir = cl.nonEmptyValue("a directory");
    } else {
      cl.unknownFlag();
    }
  }
  o.artifact = cl.artifact();
  if (o.artifact.empty())
    usageError("no artifact given (moe-gradcheck ARTIFACT --entry F)");
  if (o.entry.empty())
    usageError("no --entry given (the forward entry F; F_fwd and F_bwd must exist)");
  return o;
}

std::string typeString(const ArgSpec &a) {
  return shapeToString(a.shape) + " " + dtypeName(a.dtype);
}

/// Half the distance between 1 and the next value of float type t (the
/// relative rounding error of one value).
double unitRoundoff(DType t) {
  switch (t) {
  case DType::F64: return std::ldexp(1.0, -53);
  case DType::F32: return std::ldexp(1.0, -24);
  case DType::F16: return std::ldexp(1.0, -11);
  case DType::BF16: return std::ldexp(1.0, -8);
  case DType::F8E4M3: return std::ldexp(1.0, -4);
  case DType::F8E5M2: return std::ldexp(1.0, -3);
  default: return 0.5;
  }
}

// ---- The three entries and how they connect --------------------------------

/// F, F_fwd and F_bwd, validated against the VJP contract.
struct VjpEntries {
  const EntrySpec *f = nullptr, *fwd = nullptr, *bwd = nullptr;
  EntryFunction fFn = nullptr, fwdFn = nullptr, bwdFn = nullptr;
  /// For each gradient output of bwd: the index of the argument of f it is
  /// the gradient of.
  std::vector<std::pair<size_t, size_t>> gradients; // (bwd arg index, f arg index)
  /// For each cotangent input of bwd: the index of f's result it belongs to
  /// (bwd arg index, f arg index).
  std::vector<std::pair<size_t, size_t>> cotangents;
  /// The inputs of bwd that are arguments of f (sharedForwardInput): bwd arg
  /// indices.
  std::vector<size_t> primalInputs;
};

Status findEntries(const ArtifactSpec &spec, const std::string &stem, const std::string &name,
                   VjpEntries *out) {
  const std::string names[3] = {name, name + "_fwd", name + "_bwd"};
  const EntrySpec **slots[3] = {&out->f, &out->fwd, &out->bwd};
  for (int k = 0; k < 3; ++k) {
    *slots[k] = spec.findEntry(names[k]);
    if (!*slots[k])
      return Status::error(format(
          "artifact %s has no entry '%s'%s; available entries: %s", stem.c_str(),
          names[k].c_str(),
          k == 0 ? ""
                 : format(" (moe-gradcheck needs '%s', '%s_fwd' and '%s_bwd', as "
                          "moe-generate-vjp makes them)",
                          name.c_str(), name.c_str(), name.c_str())
                       .c_str(),
          spec.entryNames().c_str()));
  }
  return Status::success();
}

Status validate(VjpEntries *v) {
  const EntrySpec &f = *v->f, &fwd = *v->fwd, &bwd = *v->bwd;
  // F_fwd takes F's arguments.
  for (const ArgSpec &a : f.args) {
    const ArgSpec *b = fwd.findArg(a.name);
    const char *what = a.isInput ? "argument" : "result";
    if (!b || b->isInput != a.isInput || (!a.isInput && b->role != Role::Output))
      return Status::error(format("entry '%s' lacks %s '%s' of entry '%s'%s", fwd.name.c_str(),
                                  what, a.name.c_str(), f.name.c_str(),
                                  a.isInput ? "" : " (as an output of role output)"));
    if (b->shape != a.shape || b->dtype != a.dtype)
      return Status::error(format("%s '%s' is %s in entry '%s' but %s in entry '%s'", what,
                                  a.name.c_str(), typeString(a).c_str(), f.name.c_str(),
                                  typeString(*b).c_str(), fwd.name.c_str()));
  }
  for (const ArgSpec &b : fwd.args) {
    if (b.role == Role::Residual && !b.isInput)
      continue;
    if (!f.findArg(b.name))
      return Status::error(format("entry '%s' has %s '%s' (role %s), which is neither in entry "
                                  "'%s' nor a residual output",
                                  fwd.name.c_str(), b.isInput ? "input" : "output",
                                  b.name.c_str(), roleName(b.role), f.name.c_str()));
  }
  MOERT_TRY(checkResidualChain(fwd, bwd));

  // F_bwd: arguments of F and residuals, then cotangents d_<result> ->
  // gradients d_<argument>.
  for (size_t i = 0; i < bwd.args.size(); ++i) {
    const ArgSpec &b = bwd.args[i];
    if (b.isInput) {
      if (b.role == Role::Residual)
        continue;
      if (sharedForwardInput(f, b)) {
        v->primalInputs.push_back(i);
        continue;
      }
      if (const ArgSpec *a = f.findArg(b.name); a && a->isInput)
        return Status::error(format("input '%s' of entry '%s' is %s, but argument '%s' of entry "
                                    "'%s' is %s",
                                    b.name.c_str(), bwd.name.c_str(), typeString(b).c_str(),
                                    a->name.c_str(), f.name.c_str(), typeString(*a).c_str()));
      const ArgSpec *r = b.name.compare(0, 2, "d_") == 0 ? f.findArg(b.name.substr(2)) : nullptr;
      if (b.role != Role::Cotangent || !r || r->isInput)
        return Status::error(format(
            "entry '%s' input '%s' (role %s) is neither an argument of entry '%s', a residual of "
            "entry '%s' nor a cotangent d_<result> of a result of entry '%s'",
            bwd.name.c_str(), b.name.c_str(), roleName(b.role), f.name.c_str(),
            fwd.name.c_str(), f.name.c_str()));
      if (r->shape != b.shape)
        return Status::error(format("cotangent '%s' of entry '%s' is %s, but result '%s' of "
                                    "entry '%s' is %s",
                                    b.name.c_str(), bwd.name.c_str(), typeString(b).c_str(),
                                    r->name.c_str(), f.name.c_str(), typeString(*r).c_str()));
      v->cotangents.emplace_back(i, static_cast<size_t>(r - f.args.data()));
    } else if (b.role == Role::Gradient) {
      const ArgSpec *a = b.name.compare(0, 2, "d_") == 0 ? f.findArg(b.name.substr(2)) : nullptr;
      if (!a || !a->isInput)
        return Status::error(format("gradient '%s' of entry '%s' names no argument of entry "
                                    "'%s' (expected d_<argument>)",
                                    b.name.c_str(), bwd.name.c_str(), f.name.c_str()));
      if (!isFloatDType(a->dtype))
        return Status::error(format("entry '%s' has gradient '%s' of integer argument '%s' (%s)",
                                    bwd.name.c_str(), b.name.c_str(), a->name.c_str(),
                                    dtypeName(a->dtype)));
      if (!isFloatDType(b.dtype) || b.shape != a->shape)
        return Status::error(format("gradient '%s' of entry '%s' is %s, but argument '%s' of "
                                    "entry '%s' is %s",
                                    b.name.c_str(), bwd.name.c_str(), typeString(b).c_str(),
                                    a->name.c_str(), f.name.c_str(), typeString(*a).c_str()));
      v->gradients.emplace_back(i, static_cast<size_t>(a - f.args.data()));
    }
  }
  // Every float result has its cotangent.
  for (const ArgSpec &r : f.args) {
    if (r.isInput || !isFloatDType(r.dtype))
      continue;
    if (!bwd.findArg("d_" + r.name))
      return Status::error(format("entry '%s' has no cotangent input 'd_%s' for result '%s' of "
                                  "entry '%s'",
                                  bwd.name.c_str(), r.name.c_str(), r.name.c_str(),
                                  f.name.c_str()));
  }
  if (v->gradients.empty())
    return Status::error(format("entry '%s' returns no gradients (role gradient, named "
                                "d_<argument>): nothing to check",
                                bwd.name.c_str()));
  return Status::success();
}

// ---- Buffers and calls -------------------------------------------------------

double element(const ArgSpec &a, const void *base, size_t i) {
  return loadAsDouble(a.dtype, static_cast<const unsigned char *>(base) + i * dtypeSize(a.dtype));
}

/// Copy the inputs of `from` (an entry with the same input arguments) into the
/// inputs of `to`, by name.
void copyInputsByName(const EntryBuffers &from, EntryBuffers *to) {
  for (size_t i = 0; i < to->entry().args.size(); ++i) {
    const ArgSpec &a = to->entry().args[i];
    if (!a.isInput)
      continue;
    if (const void *src = from.find(a.name))
      std::memcpy(to->data(i), src, a.numBytes);
  }
}

struct Evaluation {
  double phi = 0.0;
  double noise = 0.0; // sum |v * F(x)| * unit roundoff of F(x)'s type: phi's rounding error
  std::vector<std::string> integerResults; // bytes of each integer result, in order
};

/// Call F on `x` and compute phi = sum_r <v_r, F(x)_r> over F's float results.
Evaluation evaluate(const VjpEntries &v, EntryBuffers &x, const EntryBuffers &bwdArgs) {
  x.call(v.fFn);
  Evaluation ev;
  for (const auto &c : v.cotangents) {
    const ArgSpec &r = v.f->args[c.second];
    const ArgSpec &cot = v.bwd->args[c.first];
    if (!isFloatDType(r.dtype) || !isFloatDType(cot.dtype))
      continue;
    double ur = unitRoundoff(r.dtype);
    for (size_t i = 0; i < r.numElements; ++i) {
      double term = element(cot, bwdArgs.data(c.first), i) * element(r, x.data(c.second), i);
      ev.phi += term;
      if (std::isfinite(term))
        ev.noise += std::fabs(term) * ur;
    }
  }
  for (size_t i = 0; i < v.f->args.size(); ++i) {
    const ArgSpec &r = v.f->args[i];
    if (!r.isInput && !isFloatDType(r.dtype))
      ev.integerResults.emplace_back(static_cast<const char *>(x.data(i)), r.numBytes);
  }
  return ev;
}

std::string firstChangedIntegerResult(const EntrySpec &f, const Evaluation &a,
                                      const Evaluation &b) {
  size_t k = 0;
  for (const ArgSpec &r : f.args) {
    if (r.isInput || isFloatDType(r.dtype))
      continue;
    if (a.integerResults[k] != b.integerResults[k])
      return r.name;
    ++k;
  }
  return "";
}

std::string joinNames(const std::vector<std::string> &names) {
  std::string s;
  for (const std::string &n : names)
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

} // namespace

int main(int argc, char **argv) {
  setToolName("moe-gradcheck");
  Options o = parseCommandLine(argc, argv);

  // 1. The artifact and its three entries.
  ArtifactPaths paths = artifactPathsFor(o.artifact);
  ArtifactSpec spec;
  check(loadArtifactSpec(paths, &spec));
  if (targetDeviceKind(spec.target) != "cpu")
    fatal(format("artifact %s was compiled for target %s; moe-gradcheck runs cpu artifacts "
                 "only (compile with --target=cpu)",
                 paths.stem.c_str(), spec.target.c_str()));
  VjpEntries v;
  check(findEntries(spec, paths.stem, o.entry, &v));
  check(validate(&v).withPrefix(format("artifact %s: entries '%s', '%s' and '%s' do not form "
                                       "a VJP",
                                       paths.stem.c_str(), v.f->name.c_str(),
                                       v.fwd->name.c_str(), v.bwd->name.c_str())));
  const EntrySpec &f = *v.f, &fwd = *v.fwd, &bwd = *v.bwd;

  // 2. Plan the inputs (x of F, cotangents of F_bwd) before loading code.
  if (!o.inputsDir.empty() && !isDirectory(o.inputsDir))
    fatal("--inputs: " + o.inputsDir + " is not a directory");
  std::vector<std::string> xFiles(f.args.size()), vFiles(bwd.args.size());
  for (size_t i = 0; i < f.args.size(); ++i)
    if (f.args[i].isInput)
      check(planInput(o.inputsDir, f, f.args[i], &xFiles[i]));
  // The cotangents of float results; those of integer results stay zero.
  std::vector<bool> floatCotangent(bwd.args.size(), false);
  for (const auto &c : v.cotangents) {
    if (!isFloatDType(bwd.args[c.first].dtype) || !isFloatDType(f.args[c.second].dtype))
      continue;
    floatCotangent[c.first] = true;
    check(planInput(o.inputsDir, bwd, bwd.args[c.first], &vFiles[c.first]));
  }

  // 3. Load the code.
  SharedLibrary library;
  check(library.openArtifact(paths, spec));
  check(library.lookup(f.symbol, &v.fFn).withPrefix(format("entry '%s'", f.name.c_str())));
  check(library.lookup(fwd.symbol, &v.fwdFn).withPrefix(format("entry '%s'", fwd.name.c_str())));
  check(library.lookup(bwd.symbol, &v.bwdFn).withPrefix(format("entry '%s'", bwd.name.c_str())));

  std::printf("gradcheck %s entry %s: seed %" PRIu64 ", eps %g, rtol %g\n", paths.stem.c_str(),
              f.name.c_str(), o.seed, o.eps, o.rtol);
  std::vector<std::string> lowPrecision;
  for (const ArgSpec &a : f.args)
    if (isNarrowFloatDType(a.dtype))
      lowPrecision.push_back(a.name + " (" + dtypeName(a.dtype) + ")");
  if (!lowPrecision.empty())
    warning(joinNames(lowPrecision) +
            ": finite differences in low precision mean little; check an f32 build of the "
            "model");

  // 4. x: F's inputs, as moe-runner --entry F makes them.
  EntryBuffers x;
  check(x.allocate(f));
  for (size_t i = 0; i < f.args.size(); ++i)
    if (f.args[i].isInput)
      check(makeInput(f, f.args[i], xFiles[i], o.seed, x.data(i)));

  // 5. F_fwd(x): results (vs F(x)) and residuals.
  EntryBuffers fwdArgs;
  check(fwdArgs.allocate(fwd));
  copyInputsByName(x, &fwdArgs);
  fwdArgs.call(v.fwdFn);
  EntryBuffers fAtX;
  check(fAtX.allocate(f));
  copyInputsByName(x, &fAtX);
  fAtX.call(v.fFn);
  int failures = 0, checks = 0;
  {
    double worst = 0.0;
    std::vector<std::string> names;
    for (size_t i = 0; i < f.args.size(); ++i) {
      const ArgSpec &r = f.args[i];
      if (r.isInput)
        continue;
      names.push_back(r.name);
      const void *got = fwdArgs.find(r.name);
      double diff2 = 0.0, ref2 = 0.0;
      for (size_t k = 0; k < r.numElements; ++k) {
        double a = element(r, got, k), b = element(r, fAtX.data(i), k);
        double d = a - b;
        if (std::isnan(a) != std::isnan(b) || (!std::isnan(a) && a != b))
          diff2 += std::isfinite(d) ? d * d : HUGE_VAL;
        if (std::isfinite(b))
          ref2 += b * b;
      }
      double rel = diff2 == 0.0 ? 0.0 : std::sqrt(diff2) / std::max(std::sqrt(ref2), kTiny);
      if (!isFloatDType(r.dtype) && diff2 != 0.0)
        rel = HUGE_VAL; // integer results must be equal
      worst = std::max(worst, rel);
    }
    ++checks;
    bool ok = worst <= o.rtol;
    failures += !ok;
    std::printf("  forward: %s results vs %s: max rel L2 diff %.3g (%s)%s\n", fwd.name.c_str(),
                f.name.c_str(), worst, names.empty() ? "no results" : joinNames(names).c_str(),
                ok ? "" : " FAIL");
  }
  {
    std::string list;
    for (const ArgSpec *r : fwd.residuals(/*inputs=*/false))
      list += (list.empty() ? "" : ", ") + r->name + " " + typeString(*r);
    std::printf("  residuals: %s\n", list.empty() ? "none" : list.c_str());
    list.clear();
    for (size_t i : v.primalInputs)
      list += (list.empty() ? "" : ", ") + bwd.args[i].name;
    if (!list.empty())
      std::printf("  arguments of %s from x: %s\n", bwd.name.c_str(), list.c_str());
  }

  // 6. F_bwd(arguments of F, residuals, v): the gradients. The arguments of
  // F it takes get x's values, as F_fwd did (sharedForwardInput).
  EntryBuffers bwdArgs;
  check(bwdArgs.allocate(bwd));
  for (size_t i = 0; i < bwd.args.size(); ++i) {
    const ArgSpec &b = bwd.args[i];
    if (!b.isInput)
      continue;
    if (b.role == Role::Residual)
      std::memcpy(bwdArgs.data(i), fwdArgs.find(b.name), b.numBytes);
    else if (sharedForwardInput(f, b))
      std::memcpy(bwdArgs.data(i), x.find(b.name), b.numBytes);
    else if (floatCotangent[i]) // those of integer results stay zero
      check(makeInput(bwd, b, vFiles[i], o.seed, bwdArgs.data(i)));
  }
  bwdArgs.call(v.bwdFn);
  {
    std::string list, bad;
    for (const auto &g : v.gradients) {
      const ArgSpec &b = bwd.args[g.first];
      list += (list.empty() ? "" : ", ") + b.name + " " + typeString(b);
      for (size_t k = 0; k < b.numElements && bad.empty(); ++k) {
        double e = element(b, bwdArgs.data(g.first), k);
        if (!std::isfinite(e))
          bad = format("%s[%zu] = %g", b.name.c_str(), k, e);
      }
    }
    ++checks;
    failures += !bad.empty();
    std::printf("  gradients: %s (%s)\n", list.c_str(),
                bad.empty() ? "all finite" : ("FAIL: not finite: " + bad).c_str());
  }

  // 7. The direction u: N(0, 1) per element of each argument with a gradient,
  // scaled by rms(x_a).
  std::vector<std::vector<double>> u(v.gradients.size());
  for (size_t k = 0; k < v.gradients.size(); ++k) {
    const ArgSpec &a = f.args[v.gradients[k].second];
    u[k].resize(a.numElements);
    check(fillNormal(u[k].data(), DType::F64, a.numElements, 1.0,
                     argumentStreamSeed(o.seed, "moe-gradcheck.direction." + a.name)));
    double sum2 = 0.0;
    for (size_t i = 0; i < a.numElements; ++i) {
      double e = element(a, x.data(v.gradients[k].second), i);
      sum2 += std::isfinite(e) ? e * e : 0.0;
    }
    double rms = a.numElements ? std::sqrt(sum2 / static_cast<double>(a.numElements)) : 0.0;
    if (!(rms > 0.0) || !std::isfinite(rms))
      rms = 1.0;
    for (double &e : u[k])
      e *= rms;
  }

  // 8. The checks: all arguments at once, or one per argument.
  std::vector<std::vector<size_t>> groups;
  if (o.perInput) {
    for (size_t k = 0; k < v.gradients.size(); ++k)
      groups.push_back({k});
  } else {
    groups.emplace_back();
    for (size_t k = 0; k < v.gradients.size(); ++k)
      groups.back().push_back(k);
  }
  Evaluation atX = evaluate(v, fAtX, bwdArgs);
  EntryBuffers xp, xm;
  check(xp.allocate(f));
  check(xm.allocate(f));
  for (const std::vector<size_t> &group : groups) {
    copyInputsByName(x, &xp);
    copyInputsByName(x, &xm);
    double an = 0.0;
    std::vector<std::string> names;
    for (size_t k : group) {
      size_t ai = v.gradients[k].second, gi = v.gradients[k].first;
      const ArgSpec &a = f.args[ai];
      const ArgSpec &g = bwd.args[gi];
      names.push_back(a.name);
      size_t es = dtypeSize(a.dtype);
      for (size_t i = 0; i < a.numElements; ++i) {
        double x0 = element(a, x.data(ai), i);
        unsigned char *pp = static_cast<unsigned char *>(xp.data(ai)) + i * es;
        unsigned char *pm = static_cast<unsigned char *>(xm.data(ai)) + i * es;
        storeFloat(a.dtype, x0 + o.eps * u[k][i], pp);
        storeFloat(a.dtype, x0 - o.eps * u[k][i], pm);
        double du = (loadAsDouble(a.dtype, pp) - loadAsDouble(a.dtype, pm)) / (2.0 * o.eps);
        an += element(g, bwdArgs.data(gi), i) * du;
      }
    }
    Evaluation plus = evaluate(v, xp, bwdArgs);
    Evaluation minus = evaluate(v, xm, bwdArgs);
    double fd = (plus.phi - minus.phi) / (2.0 * o.eps);
    double err = std::fabs(fd - an) / std::max({std::fabs(fd), std::fabs(an), kTiny});
    std::string flipped = firstChangedIntegerResult(f, atX, plus);
    if (flipped.empty())
      flipped = firstChangedIntegerResult(f, atX, minus);
    bool ok = std::isfinite(fd) && std::isfinite(an) && err <= o.rtol && flipped.empty();
    ++checks;
    failures += !ok;
    std::string why;
    double noise = (plus.noise + minus.noise) / (2.0 * o.eps);
    if (!flipped.empty())
      why = " (integer result '" + flipped +
            "' changed within the step: a discrete decision flipped; use a smaller --eps or "
            "another --seed)";
    else if (!ok && std::fabs(fd - an) <= 4.0 * noise)
      why = format(" (|fd - analytic| = %.3g is within the rounding noise of fd, about %.3g: "
                   "inconclusive; raise --eps or try another --seed)",
                   std::fabs(fd - an), noise);
    std::printf("  check %s: fd %.9e, analytic %.9e, rel_err %.3g %s%s\n",
                joinNames(names).c_str(), fd, an, err, ok ? "ok" : "FAIL", why.c_str());
  }

  if (failures == 0)
    std::printf("PASS\n");
  else
    std::printf("FAIL: %d of %d checks failed\n", failures, checks);
  finishReport();
  return failures == 0 ? 0 : kExitError;
}
