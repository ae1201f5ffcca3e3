//===- Execution.h - plan and run an artifact's entries ---------*- C++ -*-===//
//
// How moe-runner runs an entry, whatever the device: inputs are made on the
// host (Inputs.h: the same seeded values or --inputs files everywhere), an
// Executor places the argument buffers where the calls run (the host buffers
// themselves on the cpu; device copies on a GPU, GpuExecution.cpp), calls the
// entry (zeroing its outputs first, unless CallOptions say not
// to) and brings the outputs back into the host buffers, where the report,
// --dump and --check read them.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNNER_EXECUTION_H
#define MOE_RUNNER_EXECUTION_H

#include "Ranks.h"

#include "moe_runtime/Artifact.h"
#include "moe_runtime/EntryBuffers.h"
#include "moe_runtime/GpuDevice.h"
#include "moe_runtime/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace moe_runner {

/// One entry's arguments where its calls run. The host buffers given to
/// Executor::bind hold the inputs; fetchOutputs() copies the outputs of the
/// last call into them.
class BoundEntry {
public:
  virtual ~BoundEntry() = default;
  /// Zero the outputs (cpu; unless CallOptions::zeroOutputs is off), call `fn`
  /// once; `*ms` is the call's time (host clock on the cpu; events on the
  /// device's stream on a GPU). Errors the call recorded (GPU sticky errors)
  /// name the entry.
  virtual moert::Status call(moert::EntryFunction fn, double *ms) = 0;
  virtual moert::Status fetchOutputs() = 0;
  /// Replace the inputs where the calls run by `from`'s (same entry).
  virtual moert::Status loadInputs(const moert::EntryBuffers &from) {
    (void)from;
    return moert::Status::error("replacing the inputs of a bound entry is not supported here");
  }
  /// One call that does not replay a captured CUDA graph (= call elsewhere).
  virtual moert::Status callPlain(moert::EntryFunction fn) {
    double ms = 0.0;
    return call(fn, &ms);
  }
};

/// Where entries run.
class Executor {
public:
  virtual ~Executor() = default;
  /// "cpu" or "gpu".
  virtual const char *device() const = 0;
  /// The device's name for the report ("" on the cpu).
  virtual std::string deviceName() const { return ""; }
  /// Place `host` (allocated, inputs filled; must outlive *out) for calls.
  virtual moert::Status bind(moert::EntryBuffers *host, std::unique_ptr<BoundEntry> *out) = 0;
  /// Called after the artifact's .so is loaded: errors its loading recorded
  /// (a GPU artifact's constructor loads its kernels).
  virtual moert::Status checkLoaded(const std::string &artifact) {
    (void)artifact;
    return moert::Status::success();
  }
  /// Sets up the collectives (moert_*coll_* calls) of every axis of
  /// layout.grid with several ranks, one communicator per axis group: on the
  /// cpu the shared-memory communicators joinRanks registered serve them; a
  /// GPU makes its NCCL communicators.
  virtual moert::Status joinCollectives(const moert::ArtifactSpec &spec, const RankLayout &layout) {
    (void)spec, (void)layout;
    return moert::Status::success();
  }
  /// Whether startProfile/stopProfile work here (--profile).
  virtual bool canProfile() const { return false; }
  /// Time every kernel and runtime call from now on, per name.
  virtual moert::Status startProfile() {
    return moert::Status::error("no kernel profile on this device");
  }
  virtual moert::Status stopProfile(std::vector<moert::GpuDevice::ProfileRow> *rows) {
    (void)rows;
    return moert::Status::error("no kernel profile on this device");
  }
};

/// How an executor calls entries.
struct CallOptions {
  /// (gpu) Capture each bound entry's first call into a CUDA graph; every
  /// call (that one too) replays it.
  bool cudaGraph = false;
  /// Zero the outputs: on the cpu before every call, on a GPU once when the
  /// entry's buffers are placed (a memset per call would show in GPU
  /// timings and profiles; entries write all of their outputs). Without it
  /// they start as fresh
  /// buffers that are not zeroed (then hold the previous call's outputs), so
  /// that a memory checker (valgrind on the cpu, compute-sanitizer initcheck
  /// on a GPU) reports an output byte the entry never writes.
  bool zeroOutputs = true;
};

std::unique_ptr<Executor> makeCpuExecutor(const CallOptions &options = {});

/// Keeps each random input this process draws in `dir` as a file too
/// (created if missing), and reads an input from there instead of drawing
/// it when another process drew it before: the same (seed, name, dtype,
/// shape) gives the same values (Random.h). Drawing a DeepSeek-V3-sized
/// layer's 22 GB of weights takes most of a minute on 16 cores; reading it
/// from /dev/shm, seconds. Empty (the default): nothing is kept.
void setRandomInputCacheDir(const std::string &dir);

/// The GPU executor (GpuExecution.cpp): loads libmoe_runtime_gpu (GpuDevice.h)
/// and requires a CUDA device. Must be called before a GPU artifact's .so is
/// loaded. Errors: "cannot load libmoe_runtime_gpu.so (tried ...): ...",
/// "no CUDA device: ...".
moert::Status makeGpuExecutor(std::unique_ptr<Executor> *out, const CallOptions &options = {});

/// Whether a GPU can run artifacts here: the library loads and reports at
/// least one device (for the default target of a FILE.mlir).
bool gpuUsable();

/// `names` as "a, b, c" (for reports and errors).
std::string commaList(const std::vector<std::string> &names);

/// What one selected entry needs before it runs.
struct EntryPlan {
  const moert::EntrySpec *entry = nullptr;
  moert::EntryFunction fn = nullptr;
  std::vector<std::string> npyPaths; // per argument: the input's file; "" = random
  // For an X_bwd entry whose artifact has X_fwd: X_fwd, run first to make the
  // residual inputs and to give the inputs it shares with X_bwd
  // (sharedForwardInput; neither kind then has an npyPath).
  const moert::EntrySpec *fwd = nullptr;
  moert::EntryFunction fwdFn = nullptr;
  std::vector<std::string> fwdNpyPaths;
  // For an entry (or its X_fwd) that takes FP8 weights without --inputs
  // files for them, when the artifact has the layer's X_quantize_weights
  // (moe-fp8-weight-inputs): that entry, run first on its own inputs (the
  // bf16 weights of the same seed), whose outputs are those FP8 weights and
  // scales, as a trainer quantizes once per step.
  const moert::EntrySpec *quantizer = nullptr;
  moert::EntryFunction quantizerFn = nullptr;
  std::vector<std::string> quantizerNpyPaths;
};

/// Plan entry `e` of `spec`: its input files under `inputsDir` (none for what
/// X_fwd or X_quantize_weights gives), its X_fwd, its X_quantize_weights.
/// `*warning` is set when residual inputs will be random (no X_fwd, no file).
moert::Status planEntry(const moert::ArtifactSpec &spec, const moert::EntrySpec &e,
                        const std::string &inputsDir, EntryPlan *plan, std::string *warning);

/// Resolve the plan's entry symbols in `library`.
moert::Status resolveEntry(const moert::SharedLibrary &library, EntryPlan *plan);

struct RunSettings {
  uint64_t seed = 0;
  std::string dumpDir; // "" = no dump
  long warmup = 0;
  long iters = 1;
  bool profile = false; // profile the timed calls (Executor::canProfile())
  /// (--cuda-graph --graph-variants N) After the warm-up, N replays of the
  /// captured graph on other inputs (RunSettings::seed + k for the Input and
  /// Cotangent arguments; a chained X_fwd run on them for the residuals), each
  /// checked bit for bit against a plain call on the same inputs.
  long graphVariants = 0;
  /// Under --ranks: this rank's inputs are its slices of the one-rank inputs
  /// (see prepareArgs in Execution.cpp).
  RankLayout layout;
  /// FP8 weights to compute on instead of calling X_quantize_weights: another
  /// run's outputs of it (--reuse-fp8-weights: the checked run's, for its
  /// reference). Their entry must have the same outputs.
  const moert::EntryBuffers *fp8Weights = nullptr;
  /// Keep X_quantize_weights' outputs in EntryRun::fp8Weights.
  bool keepFp8Weights = false;
};

/// One entry's run: the timing samples and the host buffers (inputs and the
/// last call's outputs).
struct EntryRun {
  std::vector<double> samplesMs;
  std::vector<std::pair<std::string, std::string>> inputSources; // name, "random"|path|"entry X"
  std::string residualsFrom;              // X_fwd when chained, else ""
  std::vector<std::string> residualNames; // the residuals taken from it
  std::vector<std::string> sharedInputNames; // its inputs taken from it (x, weights)
  std::string weightsFrom;                   // X_quantize_weights when chained, else ""
  std::vector<std::string> quantizedWeightNames; // the inputs taken from it
  moert::EntryBuffers args;
  std::vector<moert::GpuDevice::ProfileRow> profile; // with RunSettings::profile
  /// X_quantize_weights' outputs, with RunSettings::keepFp8Weights.
  moert::EntryBuffers fp8Weights;
};

/// Run `plan` on `executor`: X_quantize_weights and X_fwd first (one
/// untimed call each) when chained, then `warmup` untimed and `iters` timed
/// calls (profiled per kernel when asked); the outputs are the last call's.
/// With a dump directory every argument of every call is written.
moert::Status runEntry(const RunSettings &settings, Executor &executor, const EntryPlan &plan,
                       EntryRun *run);

} // namespace moe_runner

#endif // MOE_RUNNER_EXECUTION_H
