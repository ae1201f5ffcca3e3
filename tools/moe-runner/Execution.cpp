//===- Execution.cpp - plan and run an artifact's entries -----------------===//

#include "Execution.h"

#include "moe_runtime/FileUtil.h"
#include "moe_runtime/Inputs.h"
#include "moe_runtime/Npy.h"
#include "moe_runtime/Random.h"
#include "moe_runtime/Timing.h"
#include "moe_runtime/Tool.h"

#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace moert;

namespace moe_runner {

namespace {

// ---- The cpu: calls in this process, on the host buffers -------------------

class CpuBoundEntry : public BoundEntry {
public:
  CpuBoundEntry(EntryBuffers *host, bool zeroOutputs) : host_(host), zeroOutputs_(zeroOutputs) {}
  Status call(EntryFunction fn, double *ms) override {
    if (zeroOutputs_)
      host_->zeroOutputs();
    uint64_t t0 = nowNanoseconds();
    fn(host_->pointers());
    uint64_t t1 = nowNanoseconds();
    *ms = static_cast<double>(t1 - t0) * 1e-6;
    return Status::success();
  }
  Status fetchOutputs() override { return Status::success(); }

private:
  EntryBuffers *host_;
  bool zeroOutputs_;
};

class CpuExecutor : public Executor {
public:
  explicit CpuExecutor(const CallOptions &options) : options_(options) {}
  const char *device() const override { return "cpu"; }
  Status bind(EntryBuffers *host, std::unique_ptr<BoundEntry> *out) override {
    if (!options_.zeroOutputs)
      MOERT_TRY(host->uninitializeOutputs());
    out->reset(new CpuBoundEntry(host, options_.zeroOutputs));
    return Status::success();
  }

private:
  CallOptions options_;
};

/// Reads `bytes` bytes into `dst` from `path` if the file is exactly
/// `header` followed by that many bytes; false otherwise (missing, another
/// key or size, a read error), leaving `dst` to be drawn.
bool readCachedInput(const std::string &path, const std::string &header, void *dst,
                     size_t bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  struct stat st;
  std::string got(header.size(), '\0');
  bool ok = ::fstat(fd, &st) == 0 &&
            static_cast<size_t>(st.st_size) == header.size() + bytes &&
            readFully(fd, got.data(), got.size()) && got == header &&
            readFully(fd, dst, bytes);
  ::close(fd);
  return ok;
}

/// Random inputs already drawn in this process, by (seed, name, dtype,
/// shape, standard deviation): an argument gets the same values in every
/// entry (Random.h), so a
/// run of several entries (X, X_fwd, and X_bwd with its X_fwd) draws each
/// only once -- for a DeepSeek-V3-sized layer that is 22 GB of weights and
/// most of a minute of drawing on 16 cores. Bounded by a quarter of the
/// physical memory; inputs past that are drawn again. With a directory
/// (setRandomInputCacheDir) each drawn input is also kept there as a file,
/// and later processes read it instead of drawing it.
class RandomInputCache {
public:
  void setDirectory(const std::string &dir) { dir_ = dir; }

  Status fill(const EntrySpec &entry, const ArgSpec &arg, uint64_t seed, void *dst) {
    // The standard deviation too: it follows the role (a weight's is
    // 1/sqrt(fan-in)), which another entry may give the same name.
    std::string key = format("%llu/%s/%s/%s/%.17g", static_cast<unsigned long long>(seed),
                             arg.name.c_str(), dtypeName(arg.dtype),
                             shapeToString(arg.shape).c_str(), randomStddev(arg));
    auto it = values_.find(key);
    if (it != values_.end()) {
      std::memcpy(dst, it->second.data(), arg.numBytes);
      return Status::success();
    }
    // The file starts with the scheme's version and the whole key, so that
    // a hash collision or an old file is never taken for the input.
    std::string header = "moe-runner random input 1\n" + key + "\n";
    std::string path =
        dir_.empty() ? std::string()
                     : joinPath(dir_, format("%016llx.bin", static_cast<unsigned long long>(
                                                                fnv1a64(key))));
    if (path.empty() || !readCachedInput(path, header, dst, arg.numBytes)) {
      MOERT_TRY(fillRandomInput(entry, arg, seed, dst));
      if (!path.empty())
        keepFile(path, header, dst, arg.numBytes);
    }
    if (bytes_ + arg.numBytes <= limit()) {
      const unsigned char *p = static_cast<const unsigned char *>(dst);
      values_.emplace(key, std::vector<unsigned char>(p, p + arg.numBytes));
      bytes_ += arg.numBytes;
    }
    return Status::success();
  }

private:
  /// Writes the drawn input for later processes; a failure (a full disk)
  /// is reported once and ends the writing: the run goes on drawing.
  void keepFile(const std::string &path, const std::string &header, const void *data,
                size_t bytes) {
    if (writeFailed_)
      return;
    Status s = makeDirectories(dir_);
    if (s.ok()) {
      // What a process killed while writing this input left (up to its
      // whole size, which in /dev/shm holds memory).
      removeAbandonedTempFiles(path);
      s = writeFileAtomic(path, {{header.data(), header.size()}, {data, bytes}});
    }
    if (!s.ok()) {
      writeFailed_ = true;
      std::fprintf(stderr, "moe-runner: warning: --input-cache %s: %s; drawn inputs are not kept\n",
                   dir_.c_str(), s.message().c_str());
    }
  }

  static size_t limit() {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? static_cast<size_t>(pages) * pageSize / 4 : 0;
  }
  std::map<std::string, std::vector<unsigned char>> values_;
  size_t bytes_ = 0;
  std::string dir_;
  bool writeFailed_ = false;
};

RandomInputCache &randomInputCache() {
  static RandomInputCache cache;
  return cache;
}

/// Input `arg` of one rank of `layout`, made from the one-rank input of the
/// same seed (or file, which holds the one-rank shape): a split argument
/// gets its slice; a partial sum is the one-rank value (or slice) on the
/// ranks at coordinate 0 of its axes and zero on the others (their sum is
/// the one-rank value).
Status makeRankInput(RandomInputCache &cache, uint64_t seed, const EntrySpec &entry,
                     const ArgSpec &arg, const std::string &npyPath, const RankLayout &layout,
                     void *dst) {
  if (arg.partialSum && !layout.grid.atOrigin(layout.rank, arg.partialAxes))
    return Status::success(); // allocated zeroed
  ArgSpec full = oneRankArg(arg, layout.grid);
  AlignedBuffer buffer;
  MOERT_TRY(buffer.allocate(full.numBytes));
  if (npyPath.empty())
    MOERT_TRY(cache.fill(entry, full, seed, buffer.data()));
  else
    MOERT_TRY(makeInput(entry, full, npyPath, seed, buffer.data()));
  copyRankSlice(arg, layout.grid, layout.rank, buffer.data(), dst);
  return Status::success();
}

/// Allocate every argument of `entry` (zeroed) and fill its inputs: when
/// `residualSource` (X_fwd's arguments) is given, a residual input from its
/// residual output and an input X_fwd shares (sharedForwardInput: a primal
/// argument X_bwd takes directly) from X_fwd's input of that name — moved
/// out of `residualSource`, not copied (a layer's weights can be most of the
/// host's memory); any other input from its file in `npyPaths`, else random.
/// `sources` gets (name, source) for every input. A nonzero `variant`
/// redraws the Input and Cotangent arguments from seed + variant (random,
/// even where --inputs gives a file): other activations, other routing, the
/// same weights (--graph-variants). Under --ranks (`layout`),
/// split and partial-sum inputs come from the one-rank input (makeRankInput).
Status prepareArgs(uint64_t seed, const RankLayout &layout, const EntrySpec &entry,
                   const std::vector<std::string> &npyPaths, EntryBuffers *residualSource,
                   const EntryBuffers *weightSource, EntryBuffers *args,
                   std::vector<std::pair<std::string, std::string>> *sources,
                   uint64_t variant = 0) {
  MOERT_TRY(args->allocate(entry));
  static const std::string kNoFile;
  for (size_t i = 0; i < entry.args.size(); ++i) {
    const ArgSpec &a = entry.args[i];
    if (!a.isInput)
      continue;
    // A variant redraws the activations and cotangents (other routing), not
    // the weights, from seed + variant, whatever --inputs gave.
    const bool redrawn = variant != 0 && (a.role == Role::Input || a.role == Role::Cotangent);
    const uint64_t argSeed = redrawn ? seed + variant : seed;
    const std::string &npyPath = redrawn ? kNoFile : npyPaths[i];
    std::string source;
    const ArgSpec *quantized =
        weightSource && npyPath.empty() ? quantizedWeightOutput(weightSource->entry(), a) : nullptr;
    if (residualSource &&
        (a.role == Role::Residual || sharedForwardInput(residualSource->entry(), a))) {
      const EntrySpec &fwd = residualSource->entry();
      const ArgSpec *from = fwd.findArg(a.name);
      if (a.role == Role::Residual &&
          (!from || from->isInput || from->role != Role::Residual ||
           from->numBytes != a.numBytes)) // checked when planning
        return Status::error(format("entry '%s': no residual '%s' from entry '%s'",
                                    entry.name.c_str(), a.name.c_str(), fwd.name.c_str()));
      MOERT_TRY(args->adopt(i, residualSource->take(a.name)));
      source = "entry " + fwd.name;
    } else if (quantized) {
      // Copied, not moved: X_fwd and X_bwd (and graph variants) read them.
      const EntrySpec &q = weightSource->entry();
      std::memcpy(args->data(i), weightSource->data(static_cast<size_t>(quantized - q.args.data())),
                  a.numBytes);
      source = "entry " + q.name;
    } else if (layout.multiRank() && (a.splitDim >= 0 || a.partialSum)) {
      MOERT_TRY(
          makeRankInput(randomInputCache(), argSeed, entry, a, npyPath, layout, args->data(i)));
      source = (npyPath.empty() ? std::string("random") : npyPath) +
               (a.splitDim >= 0
                    ? format(", slice %lld of %lld along dim %d",
                             static_cast<long long>(layout.grid.shardOf(layout.rank, a.splitAxes)),
                             static_cast<long long>(layout.grid.shards(a.splitAxes)), a.splitDim)
                    : std::string()) +
               (a.partialSum ? std::string(", partial sum (the ranks at coordinate 0 hold it)")
                             : std::string());
    } else if (npyPath.empty()) {
      MOERT_TRY(randomInputCache().fill(entry, a, argSeed, args->data(i)));
      source = "random";
    } else {
      MOERT_TRY(makeInput(entry, a, npyPath, argSeed, args->data(i)));
      source = npyPath;
    }
    if (sources)
      sources->emplace_back(a.name, source);
  }
  return Status::success();
}

Status dumpArgs(const std::string &dumpDir, const EntryBuffers &args) {
  const EntrySpec &entry = args.entry();
  std::string dir = joinPath(dumpDir, entry.name);
  MOERT_TRY(makeDirectories(dir));
  for (size_t i = 0; i < entry.args.size(); ++i)
    MOERT_TRY(writeNpy(joinPath(dir, entry.args[i].name + ".npy"), entry.args[i].dtype,
                       entry.args[i].shape, args.data(i)));
  return Status::success();
}

} // namespace

void setRandomInputCacheDir(const std::string &dir) { randomInputCache().setDirectory(dir); }

std::unique_ptr<Executor> makeCpuExecutor(const CallOptions &options) {
  return std::unique_ptr<Executor>(new CpuExecutor(options));
}

namespace {

/// The FP8 weight inputs of `entry` that `quantizer` makes, split by
/// whether --inputs gives them (`npyPaths`, per argument); those that its
/// X_fwd (`fwd`, or null) gives are neither.
void sortQuantizedWeights(const EntrySpec &quantizer, const EntrySpec &entry,
                          const std::vector<std::string> &npyPaths, const EntrySpec *fwd,
                          std::vector<std::string> *fromFiles,
                          std::vector<std::string> *fromQuantizer) {
  for (size_t i = 0; i < entry.args.size(); ++i) {
    const ArgSpec &a = entry.args[i];
    if (!quantizedWeightOutput(quantizer, a) || (fwd && sharedForwardInput(*fwd, a)))
      continue;
    (npyPaths[i].empty() ? fromQuantizer : fromFiles)->push_back(a.name);
  }
}

/// The X_quantize_weights of plan->entry (and of its X_fwd), when the
/// artifact has it and either takes an FP8 weight it makes that no --inputs
/// file gives. Some from files and the others from it would compute on two
/// sets of weights: an error.
Status planWeightQuantizer(const ArtifactSpec &spec, const EntrySpec &e,
                           const std::string &inputsDir, EntryPlan *plan) {
  std::string name = weightQuantizerEntryName(e.name);
  const EntrySpec *q = name.empty() ? nullptr : spec.findEntry(name);
  if (!q)
    return Status::success();
  std::vector<std::string> fromFiles, fromQuantizer;
  sortQuantizedWeights(*q, e, plan->npyPaths, plan->fwd, &fromFiles, &fromQuantizer);
  if (plan->fwd)
    sortQuantizedWeights(*q, *plan->fwd, plan->fwdNpyPaths, nullptr, &fromFiles,
                         &fromQuantizer);
  if (fromQuantizer.empty())
    return Status::success();
  if (!fromFiles.empty())
    return Status::error(format(
        "entry '%s': --inputs gives the FP8 weight inputs %s but not %s, which entry '%s' "
        "would make from other weights; give all of them or none",
        e.name.c_str(), commaList(fromFiles).c_str(), commaList(fromQuantizer).c_str(),
        name.c_str()));
  plan->quantizer = q;
  plan->quantizerNpyPaths.assign(q->args.size(), "");
  for (size_t i = 0; i < q->args.size(); ++i)
    if (q->args[i].isInput)
      MOERT_TRY(planInput(inputsDir, *q, q->args[i], &plan->quantizerNpyPaths[i])
                    .withPrefix(format("entry '%s' needs entry '%s' for its FP8 weights",
                                       e.name.c_str(), name.c_str())));
  return Status::success();
}

} // namespace

std::string commaList(const std::vector<std::string> &names) {
  std::string list;
  for (const std::string &n : names)
    list += (list.empty() ? "" : ", ") + n;
  return list;
}

Status planEntry(const ArtifactSpec &spec, const EntrySpec &e, const std::string &inputsDir,
                 EntryPlan *plan, std::string *warning) {
  plan->entry = &e;
  // X_bwd takes its residuals from X_fwd when the artifact has it.
  std::string fwdName = vjpForwardEntryName(e.name);
  plan->fwd = fwdName.empty() ? nullptr : spec.findEntry(fwdName);
  if (plan->fwd) {
    MOERT_TRY(checkResidualChain(*plan->fwd, e)
                  .withPrefix(format("entry '%s' cannot take its residuals from entry '%s'",
                                     e.name.c_str(), fwdName.c_str())));
    plan->fwdNpyPaths.assign(plan->fwd->args.size(), "");
    for (size_t i = 0; i < plan->fwd->args.size(); ++i)
      if (plan->fwd->args[i].isInput)
        MOERT_TRY(planInput(inputsDir, *plan->fwd, plan->fwd->args[i], &plan->fwdNpyPaths[i])
                      .withPrefix(format("entry '%s' needs entry '%s' for its residuals",
                                         e.name.c_str(), fwdName.c_str())));
  }
  plan->npyPaths.assign(e.args.size(), "");
  std::string randomResiduals;
  for (size_t i = 0; i < e.args.size(); ++i) {
    const ArgSpec &a = e.args[i];
    // Residuals and the inputs X_fwd shares come from X_fwd's call.
    if (!a.isInput ||
        (plan->fwd && (a.role == Role::Residual || sharedForwardInput(*plan->fwd, a))))
      continue;
    MOERT_TRY(planInput(inputsDir, e, a, &plan->npyPaths[i]));
    if (a.role == Role::Residual && plan->npyPaths[i].empty())
      randomResiduals += (randomResiduals.empty() ? "" : ", ") + a.name;
  }
  MOERT_TRY(planWeightQuantizer(spec, e, inputsDir, plan));
  warning->clear();
  if (!randomResiduals.empty()) {
    std::string why = fwdName.empty()
                          ? "no entry makes them (an entry X_bwd takes its residuals from X_fwd)"
                          : "the artifact has no entry '" + fwdName + "' to make them";
    *warning = format("entry '%s': residual inputs %s are random, since %s; its outputs mean "
                      "nothing (give the residuals with --inputs)",
                      e.name.c_str(), randomResiduals.c_str(), why.c_str());
  }
  return Status::success();
}

Status resolveEntry(const SharedLibrary &library, EntryPlan *plan) {
  MOERT_TRY(library.lookup(plan->entry->symbol, &plan->fn)
                .withPrefix(format("entry '%s'", plan->entry->name.c_str())));
  if (plan->fwd)
    MOERT_TRY(library.lookup(plan->fwd->symbol, &plan->fwdFn)
                  .withPrefix(format("entry '%s' (which makes the residuals of entry '%s')",
                                     plan->fwd->name.c_str(), plan->entry->name.c_str())));
  if (plan->quantizer)
    MOERT_TRY(library.lookup(plan->quantizer->symbol, &plan->quantizerFn)
                  .withPrefix(format("entry '%s' (which makes the FP8 weights of entry '%s')",
                                     plan->quantizer->name.c_str(), plan->entry->name.c_str())));
  return Status::success();
}

/// A chained entry (X_quantize_weights, X_fwd) on its inputs (variant
/// `variant`; 0: the seed's; FP8 weights from `weights` when given), called
/// once plainly (never captured: one call needs no graph) and its outputs
/// fetched into *args, for the inputs of the entry it serves.
Status callChained(const RunSettings &settings, Executor &executor, const EntrySpec &entry,
                   EntryFunction fn, const std::vector<std::string> &npyPaths,
                   const EntryBuffers *weights, uint64_t variant, EntryBuffers *args,
                   const std::string &why) {
  MOERT_TRY(prepareArgs(settings.seed, settings.layout, entry, npyPaths, nullptr, weights, args,
                        nullptr, variant)
                .withPrefix(why));
  std::unique_ptr<BoundEntry> bound;
  MOERT_TRY(executor.bind(args, &bound).withPrefix(why));
  MOERT_TRY(bound->callPlain(fn).withPrefix(why));
  return bound->fetchOutputs().withPrefix(why);
}

/// X_fwd, for X_bwd's residuals.
Status runForward(const RunSettings &settings, Executor &executor, const EntryPlan &plan,
                  uint64_t variant, const EntryBuffers *weights, EntryBuffers *fwdArgs,
                  const std::string &why) {
  return callChained(settings, executor, *plan.fwd, plan.fwdFn, plan.fwdNpyPaths, weights,
                     variant, fwdArgs, why);
}

/// Variant k of the inputs (X_fwd run plainly on them for the residuals)
/// into `bound`: a plain call, then a replay of its captured graph; every
/// output of the two bit for bit the same. Outputs land in `host`.
Status checkGraphVariant(const RunSettings &settings, Executor &executor, const EntryPlan &plan,
                         const EntryBuffers *weights, BoundEntry &bound, EntryBuffers &host,
                         uint64_t k) {
  const EntrySpec &entry = *plan.entry;
  std::string why = format("entry '%s', graph variant %llu", entry.name.c_str(),
                           static_cast<unsigned long long>(k));
  progress(format("entry %s on %s: graph replay %llu on other inputs (seed %llu + %llu)",
                  entry.name.c_str(), executor.device(), static_cast<unsigned long long>(k),
                  static_cast<unsigned long long>(settings.seed),
                  static_cast<unsigned long long>(k)));
  EntryBuffers fwdArgs, args;
  if (plan.fwd)
    MOERT_TRY(runForward(settings, executor, plan, k, weights, &fwdArgs, why));
  MOERT_TRY(prepareArgs(settings.seed, settings.layout, entry, plan.npyPaths,
                        plan.fwd ? &fwdArgs : nullptr, weights, &args, nullptr, k)
                .withPrefix(why));
  MOERT_TRY(bound.loadInputs(args).withPrefix(why));
  MOERT_TRY(bound.callPlain(plan.fn).withPrefix(why + " (plain call)"));
  MOERT_TRY(bound.fetchOutputs().withPrefix(why));
  std::vector<std::vector<unsigned char>> plain;
  for (size_t i = 0; i < entry.args.size(); ++i)
    if (!entry.args[i].isInput) {
      const auto *p = static_cast<const unsigned char *>(host.data(i));
      plain.emplace_back(p, p + entry.args[i].numBytes);
    }
  double ms = 0.0;
  MOERT_TRY(bound.call(plan.fn, &ms).withPrefix(why + " (graph replay)"));
  MOERT_TRY(bound.fetchOutputs().withPrefix(why));
  size_t o = 0, outputs = 0;
  for (size_t i = 0; i < entry.args.size(); ++i) {
    const ArgSpec &a = entry.args[i];
    if (a.isInput)
      continue;
    const auto *p = static_cast<const unsigned char *>(host.data(i));
    size_t differing = 0;
    for (size_t b = 0; b < a.numBytes; ++b)
      differing += p[b] != plain[o][b];
    ++o;
    ++outputs;
    if (differing)
      return Status::error(format("%s: output '%s' of the graph replay differs from the plain "
                                  "call on the same inputs in %zu of %zu bytes",
                                  why.c_str(), a.name.c_str(), differing, a.numBytes));
  }
  std::printf("graph variant %llu of entry %s: %zu outputs of the replay bit-identical to a "
              "plain call\n",
              static_cast<unsigned long long>(k), entry.name.c_str(), outputs);
  std::fflush(stdout);
  return Status::success();
}

Status runEntry(const RunSettings &settings, Executor &executor, const EntryPlan &plan,
                EntryRun *run) {
  const EntrySpec &entry = *plan.entry;

  // FP8 weight inputs: one untimed call of X_quantize_weights on the bf16
  // weights makes them, for the entry and its X_fwd.
  EntryBuffers weights;
  const EntryBuffers *weightSource = plan.quantizer ? &weights : nullptr;
  if (plan.quantizer && settings.fp8Weights) {
    // Another run's FP8 weights (--reuse-fp8-weights): every output of this
    // artifact's quantizer must be there, as this artifact has it.
    const EntrySpec &given = settings.fp8Weights->entry();
    for (const ArgSpec &a : plan.quantizer->args) {
      if (a.isInput)
        continue;
      const ArgSpec *from = given.findArg(a.name);
      if (!from || from->isInput || from->shape != a.shape || from->dtype != a.dtype)
        return Status::error(format("entry '%s': the FP8 weights given from entry '%s' have "
                                    "no output '%s' (%s %s) as '%s' makes it",
                                    entry.name.c_str(), given.name.c_str(), a.name.c_str(),
                                    shapeToString(a.shape).c_str(), dtypeName(a.dtype),
                                    plan.quantizer->name.c_str()));
    }
    progress(format("entry %s on %s: FP8 weights from the checked run's %s (not quantized "
                    "again here)",
                    entry.name.c_str(), executor.device(), given.name.c_str()));
    weightSource = settings.fp8Weights;
    run->weightsFrom = given.name + " (the checked run's)";
  } else if (plan.quantizer) {
    std::string why = format("entry '%s' (making the FP8 weights of entry '%s')",
                             plan.quantizer->name.c_str(), entry.name.c_str());
    progress(format("entry %s on %s: making the inputs of %s and running it for the FP8 "
                    "weights",
                    entry.name.c_str(), executor.device(), plan.quantizer->name.c_str()));
    MOERT_TRY(callChained(settings, executor, *plan.quantizer, plan.quantizerFn,
                          plan.quantizerNpyPaths, nullptr, /*variant=*/0, &weights, why));
    if (!settings.dumpDir.empty())
      MOERT_TRY(dumpArgs(settings.dumpDir, weights));
    // Only its outputs are read from here on: the bf16 weights go.
    for (const ArgSpec &a : plan.quantizer->args)
      if (a.isInput)
        weights.take(a.name);
    run->weightsFrom = plan.quantizer->name;
  }
  if (plan.quantizer) {
    std::vector<std::string> fromFiles;
    sortQuantizedWeights(*plan.quantizer, entry, plan.npyPaths, plan.fwd, &fromFiles,
                         &run->quantizedWeightNames);
  }

  // X_bwd: one untimed call of X_fwd, with the inputs it gets when run alone,
  // makes the residuals (brought back to the host, then placed like any input).
  EntryBuffers fwdArgs;
  if (plan.fwd) {
    std::string why = format("entry '%s' (making the residuals of entry '%s')",
                             plan.fwd->name.c_str(), entry.name.c_str());
    progress(format("entry %s on %s: making the inputs of %s and running it for the "
                    "residuals",
                    entry.name.c_str(), executor.device(), plan.fwd->name.c_str()));
    MOERT_TRY(runForward(settings, executor, plan, /*variant=*/0, weightSource, &fwdArgs, why));
    if (!settings.dumpDir.empty())
      MOERT_TRY(dumpArgs(settings.dumpDir, fwdArgs));
    run->residualsFrom = plan.fwd->name;
    for (const ArgSpec *r : entry.residuals(/*inputs=*/true))
      run->residualNames.push_back(r->name);
    for (const ArgSpec &a : entry.args)
      if (sharedForwardInput(*plan.fwd, a))
        run->sharedInputNames.push_back(a.name);
  }

  progress(format("entry %s on %s: making its inputs", entry.name.c_str(), executor.device()));
  MOERT_TRY(prepareArgs(settings.seed, settings.layout, entry, plan.npyPaths,
                        plan.fwd ? &fwdArgs : nullptr, weightSource, &run->args,
                        &run->inputSources));
  fwdArgs = EntryBuffers(); // what X_bwd did not take
  std::unique_ptr<BoundEntry> bound;
  MOERT_TRY(executor.bind(&run->args, &bound)
                .withPrefix(format("entry '%s'", entry.name.c_str())));
  progress(format("entry %s on %s: %ld warm-up and %ld timed calls", entry.name.c_str(),
                  executor.device(), settings.warmup, settings.iters));
  double ms = 0.0;
  for (long w = 0; w < settings.warmup; ++w)
    MOERT_TRY(bound->call(plan.fn, &ms));
  for (long k = 1; k <= settings.graphVariants; ++k)
    MOERT_TRY(checkGraphVariant(settings, executor, plan, weightSource, *bound, run->args,
                                uint64_t(k)));
  if (settings.graphVariants > 0)
    MOERT_TRY(bound->loadInputs(run->args));
  if (settings.profile)
    MOERT_TRY(executor.startProfile());
  for (long it = 0; it < settings.iters; ++it) {
    MOERT_TRY(bound->call(plan.fn, &ms));
    run->samplesMs.push_back(ms);
  }
  if (settings.profile)
    MOERT_TRY(executor.stopProfile(&run->profile));
  MOERT_TRY(bound->fetchOutputs().withPrefix(format("entry '%s'", entry.name.c_str())));
  if (!settings.dumpDir.empty())
    MOERT_TRY(dumpArgs(settings.dumpDir, run->args));
  if (settings.keepFp8Weights && weightSource == &weights)
    run->fp8Weights = std::move(weights);
  return Status::success();
}

} // namespace moe_runner
