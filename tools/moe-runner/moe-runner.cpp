//===- moe-runner.cpp - run compiled moe-mlir artifacts --------------------===//
//
// Loads an artifact (<stem>.so + <stem>.json, written by moe-compile), makes
// its inputs (seeded random or .npy files), calls each entry, times it, and
// reports every output (sum, sum of |x|, FNV-1a hash of the bytes). No MLIR
// and no LLVM inside: it builds with a C++17 compiler alone.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"

#include "moe_runtime/Artifact.h"
#include "moe_runtime/EntryBuffers.h"
#include "moe_runtime/FileUtil.h"
#include "moe_runtime/Inputs.h"
#include "moe_runtime/Json.h"
#include "moe_runtime/Npy.h"
#include "moe_runtime/Random.h"
#include "moe_runtime/Timing.h"
#include "moe_runtime/Tool.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace moert;

namespace {

const char *kHelp = R"(moe-runner: run a compiled moe-mlir artifact (no MLIR needed).

USAGE
  moe-runner ARTIFACT|FILE.mlir [options]

ARTIFACT is what `moe-compile ... -o STEM` wrote: STEM.so + STEM.json. Give the
stem, the .so or the .json path. A FILE.mlir is first compiled with
`moe-compile FILE.mlir --target=cpu -o <cache>/<stem>` (the moe-compile next to
moe-runner, or --compiler PATH) and cached in
${MOE_CACHE_DIR:-$HOME/.cache/moe-mlir}/<hash>/, where the hash covers the
file's contents, the target and the compiler (path, size, mtime); any change
recompiles.

OPTIONS
  --entry NAME      Run only entry NAME (repeatable). Default: every entry.
  --device cpu|gpu  Where to run. Default: the artifact's target kind (a "cpu"
                    artifact runs on the cpu, in this process). A cpu artifact
                    cannot run on a gpu: compile with --target=sm_90a.
  --seed N          Seed of the random inputs (default 0; decimal or 0x hex).
  --inputs DIR      Read input argument NAME of entry E from DIR/E/NAME.npy or
                    else DIR/NAME.npy when present (float16/32/64, int8/32/64,
                    uint8 or bool, little-endian, C order; converted to the
                    argument's dtype; the shape must match). Other inputs are
                    random. Integer and i1 inputs must come from .npy files.
  --dump DIR        After the run write every argument (inputs and outputs) to
                    DIR/<entry>/<name>.npy (bf16/f16/fp8 as exact float32, i1
                    as bool). A dump directory is valid --inputs.
  --warmup N        Untimed calls before timing (default 1).
  --iters N         Timed calls (default 5); the median is reported. Outputs
                    are those of the last call; out buffers are zeroed before
                    every call.
  --json            Print one JSON object instead of tables (timings in ms
                    incl. every sample, outputs with shape/dtype/sum/abs_sum/
                    hash, and values with --print).
  --print           Also print every output's values, row-major, with 9
                    significant digits: `name = [v0, v1, ...]`.
  --compiler PATH   moe-compile to use for FILE.mlir.
  -h, --help        This help.

GRADIENTS (VJP ENTRIES)
  moe-generate-vjp turns a forward @f into @f, @f_fwd (f's arguments -> f's
  results, then residuals: role "residual") and @f_bwd (the residuals, then
  cotangents "d_<result>" -> gradients "d_<argument>"). Running an entry
  X_bwd of an artifact that also has X_fwd first calls X_fwd once, untimed,
  with exactly the inputs it would get when run alone (same seed, same
  --inputs files), and passes its residual outputs to X_bwd's residual
  inputs by name (no --inputs file is read for those). X_bwd's residual
  names, shapes and dtypes must equal X_fwd's, in order, or it is an error.
  Cotangents are random N(0, 1) or come from --inputs like any input;
  gradients (role gradient) are outputs. With --dump the X_fwd call is
  written too, to DIR/X_fwd/, so the directory reproduces the run. Without
  an X_fwd the residuals are random (or from --inputs), with a warning on
  stderr: the gradients then mean nothing. moe-gradcheck checks such
  gradients against finite differences.

RANDOM INPUTS
  Argument NAME of dtype T draws from N(0, s^2) and rounds to T
  (round-to-nearest-even; fp8 saturates), redrawing values that round to zero.
  s = 1 for inputs and cotangents (and any other role), 1/sqrt(shape[rank-2])
  for weights of rank >= 2, 0.01 for rank-0/1 weights. Streams are keyed by
  splitmix64(seed ^ fnv1a64(NAME)), so an argument gets the same values in
  every entry and on every machine. runtime/README.md has the exact scheme.

OUTPUT
  Per entry:  entry <name> on cpu: median <t> ms over <n> iterations
              (<w> warm-up)[, <x> GFLOP/s when the artifact gives a FLOP count]
  for an X_bwd entry fed by X_fwd:  residuals from entry X_fwd: <names>
  then one row per output argument: name, role, shape, dtype, sum, abs_sum
  (sums of the values and of their magnitudes, in double) and fnv1a64, the
  64-bit FNV-1a hash of the output's raw bytes (equal hashes = bit-identical).

EXIT STATUS
  0 success, 1 error (message on stderr: "moe-runner: error: ..."),
  2 bad command line.
)";

struct Options {
  std::string artifact;
  std::vector<std::string> entries;
  std::string device; // "" = the artifact's target kind
  uint64_t seed = 0;
  std::string inputsDir;
  std::string dumpDir;
  long warmup = 1;
  long iters = 5;
  bool json = false;
  bool print = false;
  std::string compiler;
};

long parseCount(const std::string &flag, const std::string &text, long minValue) {
  uint64_t v;
  if (!parseUnsigned(text, &v) || v > 1000000000ULL || static_cast<long>(v) < minValue)
    usageError(format("%s expects an integer >= %ld, got '%s'", flag.c_str(), minValue,
                      text.c_str()));
  return static_cast<long>(v);
}

Options parseCommandLine(int argc, char **argv) {
  Options o;
  ArtifactCommandLine cl(argc, argv, kHelp);
  while (cl.nextFlag()) {
    const std::string &name = cl.flag();
    if (name == "--entry") {
      o.entries.push_back(cl.nonEmptyValue("a name"));
    } else if (name == "--device") {
      o.device = cl.value();
      if (o.device != "cpu" && o.device != "gpu")
        usageError("--device expects cpu or gpu, got '" + o.device + "'");
    } else if (name == "--seed") {
      o.seed = cl.unsignedValue();
    } else if (name == "--inputs") {
      o.inputsDir = cl.nonEmptyValue("a directory");
    } else if (name == "--dump") {
      o.dumpDir = cl.nonEmptyValue("a directory");
    } else if (name == "--iters") {
      o.iters = parseCount("--iters", cl.value(), 1);
    } else if (name == "--warmup") {
      o.warmup = parseCount("--warmup", cl.value(), 0);
    } else if (name == "--json") {
      cl.noValue();
      o.json = true;
    } else if (name == "--print") {
      cl.noValue();
      o.print = true;
    } else if (name == "--compiler") {
      o.compiler = cl.nonEmptyValue("a path");
    } else {
      cl.unknownFlag();
    }
  }
  o.artifact = cl.artifact();
  if (o.artifact.empty())
    usageError("no artifact given (moe-runner ARTIFACT|FILE.mlir [options])");
  return o;
}

// ---- Per-entry work --------------------------------------------------------

/// What one selected entry needs before it runs.
struct EntryPlan {
  const EntrySpec *entry = nullptr;
  EntryFunction fn = nullptr;
  std::vector<std::string> npyPaths; // per argument: the input's file; "" = random
  // For an X_bwd entry whose artifact has X_fwd: X_fwd, run first to make the
  // residual inputs (which then have no npyPath).
  const EntrySpec *fwd = nullptr;
  EntryFunction fwdFn = nullptr;
  std::vector<std::string> fwdNpyPaths;
};

struct OutputStats {
  const ArgSpec *spec = nullptr;
  double sum = 0.0;
  double absSum = 0.0;
  uint64_t hash = 0;
  std::vector<std::string> values; // each element (%.9g / integer) with --print
};

struct EntryResult {
  const EntrySpec *spec = nullptr;
  std::vector<double> samplesMs;
  double medianMs = 0.0;
  std::vector<std::pair<std::string, std::string>> inputSources; // name, "random"|path
  std::string residualsFrom;              // X_fwd when chained, else ""
  std::vector<std::string> residualNames; // the residuals taken from it
  std::vector<OutputStats> outputs;
};

std::string formatValue(DType t, const unsigned char *p) {
  if (isFloatDType(t))
    return format("%.9g", loadAsDouble(t, p));
  return format("%lld", static_cast<long long>(loadAsInt(t, p)));
}

OutputStats summarize(const ArgSpec &arg, const void *data, bool withValues) {
  OutputStats s;
  s.spec = &arg;
  const unsigned char *p = static_cast<const unsigned char *>(data);
  size_t esize = dtypeSize(arg.dtype);
  for (size_t i = 0; i < arg.numElements; ++i) {
    double v = loadAsDouble(arg.dtype, p + i * esize);
    s.sum += v;
    s.absSum += std::fabs(v);
    if (withValues)
      s.values.push_back(formatValue(arg.dtype, p + i * esize));
  }
  s.hash = fnv1a64(p, arg.numBytes);
  return s;
}

/// Allocate every argument of `entry` (zeroed) and fill its inputs: a
/// residual input from `residualSource` (X_fwd's arguments) when given, else
/// from its file in `npyPaths`, else random. `sources` gets (name, source)
/// for every input.
Status prepareArgs(const Options &o, const EntrySpec &entry,
                   const std::vector<std::string> &npyPaths,
                   const EntryBuffers *residualSource, EntryBuffers *args,
                   std::vector<std::pair<std::string, std::string>> *sources) {
  MOERT_TRY(args->allocate(entry));
  for (size_t i = 0; i < entry.args.size(); ++i) {
    const ArgSpec &a = entry.args[i];
    if (!a.isInput)
      continue;
    std::string source;
    if (residualSource && a.role == Role::Residual) {
      const EntrySpec &fwd = residualSource->entry();
      const ArgSpec *from = fwd.findArg(a.name);
      if (!from || from->isInput || from->role != Role::Residual ||
          from->numBytes != a.numBytes) // checked when planning
        return Status::error(format("entry '%s': no residual '%s' from entry '%s'",
                                    entry.name.c_str(), a.name.c_str(), fwd.name.c_str()));
      std::memcpy(args->data(i), residualSource->find(a.name), a.numBytes);
      source = "entry " + fwd.name;
    } else {
      MOERT_TRY(makeInput(entry, a, npyPaths[i], o.seed, args->data(i)));
      source = npyPaths[i].empty() ? "random" : npyPaths[i];
    }
    if (sources)
      sources->emplace_back(a.name, source);
  }
  return Status::success();
}

Status dumpArgs(const Options &o, const EntryBuffers &args) {
  const EntrySpec &entry = args.entry();
  std::string dir = joinPath(o.dumpDir, entry.name);
  MOERT_TRY(makeDirectories(dir));
  for (size_t i = 0; i < entry.args.size(); ++i)
    MOERT_TRY(writeNpy(joinPath(dir, entry.args[i].name + ".npy"), entry.args[i].dtype,
                       entry.args[i].shape, args.data(i)));
  return Status::success();
}

Status runEntry(const Options &o, const EntryPlan &plan, EntryResult *result) {
  const EntrySpec &entry = *plan.entry;
  result->spec = &entry;

  // X_bwd: one untimed call of X_fwd, with the inputs it gets when run alone,
  // makes the residuals.
  EntryBuffers fwdArgs;
  if (plan.fwd) {
    MOERT_TRY(prepareArgs(o, *plan.fwd, plan.fwdNpyPaths, nullptr, &fwdArgs, nullptr)
                  .withPrefix(format("entry '%s' (making the residuals of entry '%s')",
                                     plan.fwd->name.c_str(), entry.name.c_str())));
    plan.fwdFn(fwdArgs.pointers());
    if (!o.dumpDir.empty())
      MOERT_TRY(dumpArgs(o, fwdArgs));
    result->residualsFrom = plan.fwd->name;
    for (const ArgSpec *r : entry.residuals(/*inputs=*/true))
      result->residualNames.push_back(r->name);
  }

  EntryBuffers args;
  MOERT_TRY(prepareArgs(o, entry, plan.npyPaths, plan.fwd ? &fwdArgs : nullptr, &args,
                        &result->inputSources));

  for (long w = 0; w < o.warmup; ++w)
    args.call(plan.fn);
  for (long it = 0; it < o.iters; ++it) {
    args.zeroOutputs();
    uint64_t t0 = nowNanoseconds();
    plan.fn(args.pointers());
    uint64_t t1 = nowNanoseconds();
    result->samplesMs.push_back(static_cast<double>(t1 - t0) * 1e-6);
  }
  result->medianMs = median(result->samplesMs);

  for (size_t i = 0; i < entry.args.size(); ++i)
    if (!entry.args[i].isInput)
      result->outputs.push_back(summarize(entry.args[i], args.data(i), o.print));

  if (!o.dumpDir.empty())
    MOERT_TRY(dumpArgs(o, args));
  return Status::success();
}

// ---- Reports ---------------------------------------------------------------

std::string hashString(uint64_t h) {
  return format("%016" PRIx64, h);
}

double gflops(const EntryResult &r) {
  if (r.spec->flops == 0 || r.medianMs <= 0.0)
    return 0.0;
  return static_cast<double>(r.spec->flops) / (r.medianMs * 1e-3) / 1e9;
}

/// Milliseconds with 4 significant digits, never in exponent notation (at
/// least 3 decimals, at most 9).
std::string formatMs(double ms) {
  int decimals = 3;
  if (ms > 0.0 && std::isfinite(ms))
    decimals = std::min(9, std::max(3, 3 - static_cast<int>(std::floor(std::log10(ms)))));
  return format("%.*f", decimals, ms);
}

void printTable(const Options &o, const std::string &device, const EntryResult &r) {
  std::printf("entry %s on %s: median %s ms over %ld iterations (%ld warm-up)",
              r.spec->name.c_str(), device.c_str(), formatMs(r.medianMs).c_str(), o.iters,
              o.warmup);
  if (r.spec->flops > 0)
    std::printf(", %.3f GFLOP/s", gflops(r));
  std::printf("\n");
  if (!r.residualsFrom.empty()) {
    std::string names;
    for (const std::string &n : r.residualNames)
      names += (names.empty() ? "" : ", ") + n;
    std::printf("  residuals from entry %s: %s\n", r.residualsFrom.c_str(),
                names.empty() ? "(none)" : names.c_str());
  }

  std::vector<std::vector<std::string>> rows;
  rows.push_back({"output", "role", "shape", "dtype", "sum", "abs_sum", "fnv1a64"});
  for (const OutputStats &s : r.outputs)
    rows.push_back({s.spec->name, roleName(s.spec->role), shapeToString(s.spec->shape),
                    dtypeName(s.spec->dtype), format("%.9g", s.sum), format("%.9g", s.absSum),
                    hashString(s.hash)});
  if (r.outputs.empty()) {
    std::printf("  (no outputs)\n");
  } else {
    std::vector<size_t> width(rows[0].size(), 0);
    for (const auto &row : rows)
      for (size_t c = 0; c < row.size(); ++c)
        width[c] = std::max(width[c], row[c].size());
    for (const auto &row : rows) {
      std::string line = " ";
      for (size_t c = 0; c < row.size(); ++c) {
        line += " " + row[c];
        if (c + 1 < row.size())
          line.append(width[c] - row[c].size() + 1, ' ');
      }
      std::printf("%s\n", line.c_str());
    }
  }
  if (o.print) {
    for (const OutputStats &s : r.outputs) {
      std::string line = s.spec->name + " = [";
      for (size_t i = 0; i < s.values.size(); ++i)
        line += (i ? ", " : "") + s.values[i];
      std::printf("%s]\n", line.c_str());
    }
  }
  std::fflush(stdout);
}

std::string shapeJson(const std::vector<int64_t> &shape) {
  return shapeToString(shape); // "[64, 32]" is valid JSON
}

std::string entryJson(const Options &o, const std::string &device, const EntryResult &r) {
  std::string j = "    {\n";
  j += "      \"name\": " + jsonQuote(r.spec->name) + ",\n";
  j += "      \"symbol\": " + jsonQuote(r.spec->symbol) + ",\n";
  j += "      \"device\": " + jsonQuote(device) + ",\n";
  j += format("      \"flops\": %" PRIu64 ",\n", r.spec->flops);
  j += format("      \"warmup\": %ld,\n      \"iterations\": %ld,\n", o.warmup, o.iters);
  j += "      \"median_ms\": " + jsonNumber(r.medianMs) + ",\n";
  j += "      \"samples_ms\": [";
  for (size_t i = 0; i < r.samplesMs.size(); ++i)
    j += (i ? ", " : "") + jsonNumber(r.samplesMs[i]);
  j += "],\n";
  j += "      \"gflops_per_s\": " + (r.spec->flops > 0 ? jsonNumber(gflops(r)) : "null") +
       ",\n";
  if (!r.residualsFrom.empty())
    j += "      \"residuals_from\": " + jsonQuote(r.residualsFrom) + ",\n";
  j += "      \"inputs\": [";
  for (size_t i = 0; i < r.inputSources.size(); ++i)
    j += std::string(i ? ",\n" : "\n") + "        {\"name\": " +
         jsonQuote(r.inputSources[i].first) + ", \"source\": " +
         jsonQuote(r.inputSources[i].second) + "}";
  j += r.inputSources.empty() ? "],\n" : "\n      ],\n";
  j += "      \"outputs\": [";
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    const OutputStats &s = r.outputs[i];
    j += std::string(i ? ",\n" : "\n") + "        {\"name\": " + jsonQuote(s.spec->name) +
         ", \"role\": " + jsonQuote(roleName(s.spec->role)) +
         ", \"shape\": " + shapeJson(s.spec->shape) +
         ", \"dtype\": " + jsonQuote(dtypeName(s.spec->dtype)) +
         ", \"sum\": " + jsonNumber(s.sum) + ", \"abs_sum\": " + jsonNumber(s.absSum) +
         ", \"hash\": " + jsonQuote(hashString(s.hash));
    if (o.print) {
      j += ", \"values\": [";
      for (size_t i = 0; i < s.values.size(); ++i) {
        const std::string &tok = s.values[i];
        double d = std::strtod(tok.c_str(), nullptr);
        // %.9g and %lld give JSON numbers, except for NaN and infinities.
        j += (i ? ", " : "") + (std::isfinite(d) ? tok : jsonNumber(d));
      }
      j += "]";
    }
    j += "}";
  }
  j += r.outputs.empty() ? "]\n" : "\n      ]\n";
  j += "    }";
  return j;
}

} // namespace

int main(int argc, char **argv) {
  setToolName("moe-runner");
  Options o = parseCommandLine(argc, argv);

  // 1. The artifact: compile a .mlir first (cached).
  std::string artifactArg = o.artifact;
  if (endsWith(artifactArg, ".mlir")) {
    if (o.device == "gpu")
      fatal("moe-runner compiles FILE.mlir for the cpu only; to run on a GPU, compile it "
            "with moe-compile --target=sm_90a and run the artifact");
    std::string stem;
    check(moe_runner::compileCached(artifactArg, "cpu", o.compiler, &stem));
    artifactArg = stem;
  } else if (!o.compiler.empty()) {
    usageError("--compiler applies only to a FILE.mlir argument");
  }
  ArtifactPaths paths = artifactPathsFor(artifactArg);
  ArtifactSpec spec;
  check(loadArtifactSpec(paths, &spec));

  // 2. Which entries.
  std::vector<const EntrySpec *> selected;
  if (o.entries.empty()) {
    for (const EntrySpec &e : spec.entries)
      selected.push_back(&e);
  } else {
    for (const std::string &name : o.entries) {
      const EntrySpec *e = spec.findEntry(name);
      if (!e)
        fatal(format("artifact %s has no entry '%s'; available entries: %s",
                     paths.stem.c_str(), name.c_str(), spec.entryNames().c_str()));
      bool dup = false;
      for (const EntrySpec *s : selected)
        dup |= s == e;
      if (!dup)
        selected.push_back(e);
    }
  }

  // 3. Which device.
  std::string targetKind = targetDeviceKind(spec.target);
  std::string device = o.device.empty() ? targetKind : o.device;
  if (device == "gpu" && targetKind == "cpu")
    fatal(format("artifact %s was compiled for target cpu; compile with --target=sm_90a to "
                 "run on a GPU",
                 paths.stem.c_str()));
  if (device == "cpu" && targetKind != "cpu")
    fatal(format("artifact %s was compiled for target %s; it runs only with --device gpu",
                 paths.stem.c_str(), spec.target.c_str()));
  if (device == "gpu")
    fatal(format("artifact %s targets %s, but this moe-runner cannot run on GPUs yet (GPU "
                 "execution arrives with the GPU runtime)",
                 paths.stem.c_str(), spec.target.c_str()));

  // 4. Plan the inputs of every entry before running anything.
  if (!o.inputsDir.empty() && !isDirectory(o.inputsDir))
    fatal("--inputs: " + o.inputsDir + " is not a directory");
  std::vector<EntryPlan> plans(selected.size());
  for (size_t k = 0; k < selected.size(); ++k) {
    const EntrySpec &e = *selected[k];
    EntryPlan &plan = plans[k];
    plan.entry = &e;
    // X_bwd takes its residuals from X_fwd when the artifact has it.
    std::string fwdName = vjpForwardEntryName(e.name);
    plan.fwd = fwdName.empty() ? nullptr : spec.findEntry(fwdName);
    if (plan.fwd) {
      check(checkResidualChain(*plan.fwd, e)
                .withPrefix(format("entry '%s' cannot take its residuals from entry '%s'",
                                   e.name.c_str(), fwdName.c_str())));
      plan.fwdNpyPaths.resize(plan.fwd->args.size());
      for (size_t i = 0; i < plan.fwd->args.size(); ++i)
        if (plan.fwd->args[i].isInput)
          check(planInput(o.inputsDir, *plan.fwd, plan.fwd->args[i], &plan.fwdNpyPaths[i])
                    .withPrefix(format("entry '%s' needs entry '%s' for its residuals",
                                       e.name.c_str(), fwdName.c_str())));
    }
    plan.npyPaths.resize(e.args.size());
    std::string randomResiduals;
    for (size_t i = 0; i < e.args.size(); ++i) {
      const ArgSpec &a = e.args[i];
      if (!a.isInput || (plan.fwd && a.role == Role::Residual))
        continue;
      check(planInput(o.inputsDir, e, a, &plan.npyPaths[i]));
      if (a.role == Role::Residual && plan.npyPaths[i].empty())
        randomResiduals += (randomResiduals.empty() ? "" : ", ") + a.name;
    }
    if (!randomResiduals.empty()) {
      std::string why =
          fwdName.empty()
              ? "no entry makes them (an entry X_bwd takes its residuals from X_fwd)"
              : "the artifact has no entry '" + fwdName + "' to make them";
      warning(format("entry '%s': residual inputs %s are random, since %s; its outputs mean "
                     "nothing (give the residuals with --inputs)",
                     e.name.c_str(), randomResiduals.c_str(), why.c_str()));
    }
  }

  // 5. Load the code and resolve every entry.
  SharedLibrary library;
  check(library.openArtifact(paths));
  for (EntryPlan &plan : plans) {
    check(library.lookup(plan.entry->symbol, &plan.fn)
              .withPrefix(format("entry '%s'", plan.entry->name.c_str())));
    if (plan.fwd)
      check(library.lookup(plan.fwd->symbol, &plan.fwdFn)
                .withPrefix(format("entry '%s' (which makes the residuals of entry '%s')",
                                   plan.fwd->name.c_str(), plan.entry->name.c_str())));
  }

  // 6. Run.
  if (!o.dumpDir.empty())
    check(makeDirectories(o.dumpDir).withPrefix("--dump"));
  std::vector<std::string> jsonEntries;
  for (size_t k = 0; k < selected.size(); ++k) {
    EntryResult r;
    check(runEntry(o, plans[k], &r));
    if (o.json)
      jsonEntries.push_back(entryJson(o, device, r));
    else
      printTable(o, device, r);
  }

  if (o.json) {
    std::printf("{\n  \"format\": \"moe-runner-1\",\n");
    std::printf("  \"artifact\": %s,\n", jsonQuote(paths.stem).c_str());
    std::printf("  \"source\": %s,\n", jsonQuote(spec.source).c_str());
    std::printf("  \"target\": %s,\n", jsonQuote(spec.target).c_str());
    std::printf("  \"device\": %s,\n", jsonQuote(device).c_str());
    std::printf("  \"seed\": %" PRIu64 ",\n", o.seed);
    std::printf("  \"entries\": [\n");
    for (size_t k = 0; k < jsonEntries.size(); ++k)
      std::printf("%s%s\n", jsonEntries[k].c_str(), k + 1 < jsonEntries.size() ? "," : "");
    std::printf("  ]\n}\n");
  }
  finishReport();
  return 0;
}
