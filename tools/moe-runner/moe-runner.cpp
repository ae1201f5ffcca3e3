//===- moe-runner.cpp - run compiled moe-mlir artifacts
//--------------------===//
//
// Loads an artifact (<stem>.so + <stem>.json, written by moe-compile), makes
// its inputs (seeded random or .npy files), calls each entry, times it, and
// reports every output (sum, sum of |x|, FNV-1a hash of the bytes). No MLIR
// and no LLVM inside: it builds with a C++17 compiler alone.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "Compile.h"
#include "Execution.h"
#include "Ranks.h"

#include "moe_runtime/Artifact.h"
#include "moe_runtime/EntryBuffers.h"
#include "moe_runtime/FileUtil.h"
#include "moe_runtime/Inputs.h"
#include "moe_runtime/Json.h"
#include "moe_runtime/Npy.h"
#include "moe_runtime/Parallel.h"
#include "moe_runtime/Random.h"
#include "moe_runtime/Timing.h"
#include "moe_runtime/Tool.h"
#include "moe_runtime/Buffer.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace moert;

namespace {

const char *kHelp =
    R"(moe-runner: run a compiled moe-mlir artifact (no MLIR needed).

USAGE
  moe-runner ARTIFACT|FILE.mlir [options]

ARTIFACT is what `moe-compile ... -o STEM` wrote: STEM.so + STEM.json. Give the
stem, the .so or the .json path. A FILE.mlir is first compiled with
`moe-compile FILE.mlir --target=T -o <cache>/<stem>` (the moe-compile next to
moe-runner, or --compiler PATH) and cached in
${MOE_CACHE_DIR:-$HOME/.cache/moe-mlir}/<hash>/, where the hash covers the
file's contents, the target and the compiler (path, size, mtime); any change
recompiles. T is sm_90a with --device gpu, or without --device when a GPU is
usable (libmoe_runtime_gpu.so loads and reports a CUDA device); else cpu.

OPTIONS
  --entry NAME      Run only entry NAME (repeatable). Default: every entry.
  --device cpu|gpu  Where to run. Default: the artifact's target kind ("cpu"
                    runs on the cpu, in this process; any other target, e.g.
                    sm_90a, on the GPU). A cpu artifact cannot run on a GPU
                    (compile with --target=sm_90a) and a GPU artifact cannot
                    run on the cpu: both are errors.
  --seed N          Seed of the random inputs (default 0; decimal or 0x hex).
  --inputs DIR      Read input argument NAME of entry E from DIR/E/NAME.npy or
                    else DIR/NAME.npy when present (float16/32/64, int8/32/64,
                    uint8 or bool, little-endian, C order; converted to the
                    argument's dtype; the shape must match). Other inputs are
                    random. Integer and i1 inputs must come from .npy files.
  --input-cache DIR Keep each random input drawn as a file in DIR (created if
                    missing) and read it from there when a later run needs
                    the same (seed, name, dtype, shape): the values are the
                    same, without drawing them again. For benchmarks that
                    run several artifacts of one shape in separate
                    processes: a DeepSeek-V3-sized layer's 22 GB of weights
                    take most of a minute to draw on 16 cores, seconds to
                    read from /dev/shm. Default: $MOE_RUNNER_INPUT_CACHE
                    when set, else nothing is kept. A file that does not
                    hold exactly that input is drawn again; a failed write
                    (a full disk) is a warning.
  --dump DIR        After the run write every argument (inputs and outputs) to
                    DIR/<entry>/<name>.npy (bf16/f16/fp8 as exact float32, i1
                    as bool). A dump directory is valid --inputs, and a valid
                    --check-against reference.
  --warmup N        Untimed calls before timing (default 1).
  --iters N         Timed calls (default 5); the median is reported. Outputs
                    are those of the last call; out buffers are zeroed before
                    every call on the cpu, once before the first on a gpu
                    (see --uninitialized-outputs).
  --check-against PATH
                    Compare every output with a reference (see CHECKING).
                    PATH is another artifact (stem, .so or .json; normally the
                    cpu artifact of the same program) or a --dump directory.
  --check           For a FILE.mlir: compile the same file for the cpu too and
                    check against it (= --check-against <its cpu artifact>).
  --expect-zero NAME, --expect-nonfinite NAME
                    (with a check; repeatable) Declare that float output NAME
                    (of every entry run that has one; ENTRY/NAME for one
                    entry) is all zero in the reference, or holds NaN or
                    infinities there. Without the declaration such an output
                    FAILS the check (see CHECKING); with it, a reference that
                    is not so fails.
  --near-ties SCORES,INDICES[,BIAS]
                    (with a check; repeatable) Router indices may differ by
                    near-ties (see CHECKING): INDICES names an integer output
                    [T, K] (the top-k experts per token), SCORES a float output
                    [T, E] of the same entry holding the scores they were
                    selected on, BIAS an input [E] added to them for selection
                    (aux-loss-free expert bias). Each a NAME (every entry run
                    that has it) or ENTRY/NAME; every entry run with both
                    outputs is checked this way.
  --reuse-fp8-weights
                    (with a check) An entry that takes FP8 weights from
                    X_quantize_weights: the reference computes on the FP8
                    weights the checked run made instead of quantizing the
                    bf16 weights itself. Its quantize kernels must then be
                    checked on their own (scripts/gpu-fp8-quantize.sh: bit for
                    bit the CPU's); the layer's kernels are checked on the
                    same FP8 weights. Saves the CPU reference's weight
                    quantization: minutes for a DeepSeek-V3-sized layer.
  --profile         (gpu) Time every kernel and runtime call of the timed
                    calls with CUDA events and print, per entry, a table in
                    order of first launch: name (kernel symbol, or
                    moert_entry_* with its shape), launches per call, time
                    per call and its share of the summed time. The outputs
                    are zeroed once, before the first call: memsets in the
                    table are the entry's own.
                    Events around every launch add host work: the entry's
                    own median is then not a benchmark number.
  --cuda-graph      (gpu) Capture each entry's call once into a CUDA graph
                    (stream capture on the runtime stream) and time its
                    replays: what a training step replaying the layer pays.
                    An entry that makes the host wait for the device (the
                    cuBLASLt grouped GEMMs read their group sizes on the
                    host; compile with --gemm=generated) fails with the
                    call that waited. Each entry is called plainly once
                    before its capture (the runtime sets up lazily).
  --graph-variants N
                    (with --cuda-graph) After the warm-up, N replays of the
                    captured graph on other inputs: the activations and
                    cotangents (roles input, cotangent) redrawn from seed+k,
                    k = 1..N, the weights kept (a chained X_fwd runs on
                    them first): other routing each time. Each replay's
                    outputs must equal, bit for bit, a plain call's on the
                    same inputs (an error otherwise); then the timed calls
                    and checks run on the seed's inputs as usual.
  --exchange MODE   (gpu, --ranks) The ragged all-to-all of the ranks'
                    NCCL collectives: device (kernels through a symmetric
                    NCCL window, no host wait: capturable), host-counts
                    (counts to the host, then ncclSend/ncclRecv), or auto
                    (device where every rank reaches the others by
                    load/store, else host-counts). Sets MOE_EP_EXCHANGE.
  --uninitialized-outputs
                    Do not zero the out buffers: they start
                    as fresh buffers that are not zeroed (on the cpu, those
                    under 1 MiB), and a later call starts from the previous
                    call's outputs. A memory checker then reports an output
                    byte the entry never writes: compute-sanitizer --tool
                    initcheck when the outputs are copied back from the GPU
                    (scripts/gpu-sanitize.sh), valgrind when they are
                    printed or dumped on the cpu.
  --json            Print one JSON object instead of tables (timings in ms
                    incl. every sample, outputs with shape/dtype/sum/abs_sum/
                    hash, check results, and values with --print).
  --print           Also print every output's values, row-major, with 9
                    significant digits: `name = [v0, v1, ...]`.
  --progress, --no-progress
                    Progress lines on stderr ("moe-runner: [   12.3 s] entry
                    moe_layer_bwd on gpu: making its inputs"): making inputs,
                    each run, the reference, the comparison. Default: on
                    when an entry's arguments take 1 GiB or more (minutes of
                    host work at dsv3 size), else off.
  --ranks N         Run an expert-parallel artifact on its N ranks (see
                    RANKS); N must be its world size.
  --compiler PATH   moe-compile to use for FILE.mlir.
  -h, --help        This help.

GPU EXECUTION
  moe-runner links no CUDA. For --device gpu it dlopen()s
  libmoe_runtime_gpu.so (RTLD_NOW | RTLD_GLOBAL, before the artifact, whose
  mgpu* and moert_* references resolve to it) from the first place that has
  it: $MOE_RUNTIME_GPU_LIB (when set, only there); next to moe-runner; in
  ../lib relative to it; in the runtime's build tree; then by the dynamic
  loader's search (plain "libmoe_runtime_gpu.so"). Errors: "--device gpu:
  cannot load libmoe_runtime_gpu.so (tried ...): <why>" and "--device gpu: no
  CUDA device: <why>". Inputs are made on the host exactly as on the cpu (the
  same seed gives the same values on both) and copied to device buffers; the
  entry is called with device pointers. Everything runs on the library's one
  runtime stream; after every call the stream is waited for and any error the
  compiled code or the runtime recorded ends the run with a message naming
  the entry. Outputs are copied back for the report, --dump and checks.

TIMING
  cpu: host clock around each call. gpu: two events recorded on the runtime
  stream around each call (the outputs are zeroed once, at placement), so a
  sample is the GPU time of all the entry's work incl. any gaps the host
  leaves. The median and every sample are reported; TFLOP/s = the entry's
  "flops" (artifact metadata; shown only when > 0) / median time.

CHECKING (--check-against, --check)
  For each entry run, the reference artifact's entry of the same name runs
  once (on its own target's device) with the same seed and --inputs files; a
  dump directory gives DIR/<entry>/<output>.npy instead. For an X_bwd entry
  each side chains its own X_fwd residuals. Every output (outputs,
  residuals, gradients) is compared: floats by relative L2 error
  ||x - ref||_2 / ||ref||_2 in double over the elements finite in both,
  tolerance by dtype (DESIGN.md): bf16, f16 1e-2; f32 1e-5; f64 1e-12; fp8
  3e-2 (both sides round values that differ in their last bits to
  neighbouring fp8 codes, each 6-25 % of its value) -- the looser of the
  output's own and that of the entry's least precise float argument: an
  f32 tensor of a bf16 layer (its router-weight gradient) went through bf16
  values and is held to 1e-2, every output of an FP8-placed entry ("fp8":
  true in the metadata) to 3e-2 -- except that a scalar f32
  or f64 output (a loss: aux loss, z-loss) is held to 1e-4, or its dtype's
  tolerance when that is tighter. Integer and i1 outputs must match exactly
  (the count of differing elements and the first index are shown).
  Two sides that both computed nothing do not pass. A float output FAILS
  when:
    - a NaN or infinity in either is not matched by the same in the other
      (NaN by NaN, +inf by +inf), or
    - NaN/inf are in both, in the same places, and the output was not
      declared with --expect-nonfinite NAME (then they pass, and the finite
      rest is compared as above; the reference must hold at least one), or
    - the reference's finite elements are all zero and the output was not
      declared with --expect-zero NAME (then the error is the absolute L2
      norm ||x - ref||_2, against the same tolerance; a reference that is
      not all zero fails). Under --ranks the rule looks at the whole
      one-rank output: a rank's all-zero slice of an output that is not
      all zero (the weight gradients of experts that received no rows) is
      compared by the absolute norm without a declaration.
  The error column notes "<n> NaN/inf in both" and "reference all zero";
  the failure names the reason.
  Near-ties (--near-ties SCORES,INDICES[,BIAS]): the GPU may add in another
  order than the CPU reference, so two experts whose selection scores
  s = SCORES + BIAS are within 1e-5 relative may swap. A token's indices may
  then differ from the reference's where, at each differing position k, the
  reference's s of its expert and of the run's expert are within 1e-5
  relative (|a - b| <= 1e-5 max(|a|, |b|)) and the run's K experts are
  distinct and in [0, E). Such tokens are near-ties: counted ("near-ties:
  <n> tokens" per entry), and their rows are left out of every other output
  whose leading dimension is T (those outputs depend on which expert was
  chosen; the reference stays literal, and all other tokens are compared as
  above). Outputs not indexed by token (losses, permuted rows, group sizes,
  weight gradients) are compared whole. Any other index difference fails.
  The exit status is 1 when any output fails,
  and it is an error before anything runs when the reference lacks an entry
  or an argument, or an argument's io, shape or dtype differs, or when an
  --expect-* NAME names no float output of the entries run.

GRADIENTS (VJP ENTRIES)
  moe-generate-vjp turns a forward @f into @f, @f_fwd (f's arguments -> f's
  results, then residuals: role "residual") and @f_bwd (the primal arguments
  its adjoints need, under their own names and roles, e.g. x and the expert
  weights; the residuals; then cotangents "d_<result>" -> gradients
  "d_<argument>"). Running an entry X_bwd of an artifact that also has X_fwd
  first calls X_fwd once, untimed, with exactly the inputs it would get when
  run alone (same seed, same --inputs files), and passes its residual
  outputs to X_bwd's residual inputs by name, and its inputs to the inputs
  of X_bwd that have the same name, shape and dtype (no --inputs file is read
  for either), on the cpu and the GPU alike. X_bwd's residual names, shapes
  and dtypes must equal X_fwd's, in order, or it is an error; an input with
  an X_fwd input's name but another shape or dtype is an input of its own.
  Cotangents are random N(0, 1) or come from --inputs like any input;
  gradients (role gradient) are outputs. With --dump the X_fwd call is
  written too, to DIR/X_fwd/, so the directory reproduces the run. Without
  an X_fwd the residuals are random (or from --inputs), with a warning on
  stderr: the gradients then mean nothing.
  moe-gradcheck checks such gradients against finite differences.

FP8 WEIGHT INPUTS (moe-fp8-weight-inputs)
  An entry X, X_fwd or X_bwd whose weights are FP8 inputs (<w>_fp8,
  <w>_fp8_scale, and the K-major copies <w>_fp8_t, <w>_fp8_t_scale), of an
  artifact that also has X_quantize_weights (the bf16 weights -> those FP8
  weights and scales), gets them from it: the runner first calls
  X_quantize_weights once, untimed, on its inputs (the bf16 weights of the
  same seed, or --inputs files; under --ranks each rank's slice), and
  copies its outputs to the inputs of the same name, shape and dtype, of
  the entry and of its X_fwd, on the cpu and the GPU alike (a trainer
  quantizes once per optimizer step). --inputs files may give all of those
  inputs instead; some from files and the others from X_quantize_weights
  is an error. With --dump the quantizer's call is written to
  DIR/X_quantize_weights/. Time the quantization itself with
  --entry X_quantize_weights.

RANKS (--ranks N)
  An artifact whose metadata has "grids" runs on the product of their
  shapes' ranks (its world size; one grid holds them, the others have one
  rank): `--ranks N` with N the world size starts N processes of moe-runner,
  with RANK, LOCAL_RANK, WORLD_SIZE and LOCAL_WORLD_SIZE set as torchrun
  does. Rank r sits at the row-major coordinates of r in that grid; each
  axis of several ranks gets a shared-memory communicator per group of
  ranks that share the other coordinates (the world's id in MOE_COMM_ID,
  the groups' in MOE_COMM_AXIS_IDS), which the artifact's collectives
  (moert_coll_*) on that axis run over; on a GPU each rank gets
  the LOCAL_RANK-th visible device (CUDA_VISIBLE_DEVICES) and the GPU
  collectives (moert_entry_coll_*) run over NCCL. With MOE_GPU_COMM=host,
  or fewer visible devices than ranks (or one listed twice), the ranks
  share GPUs (round robin over CUDA_VISIBLE_DEVICES; device 0 when unset)
  and each GPU collective goes through host memory and the shared-memory
  communicator, as it does with a libmoe_runtime_gpu built without NCCL: a
  host wait per collective, for testing P ranks on one GPU
  (MOE_GPU_COMM=nccl insists on NCCL). Each rank makes
  the one-rank inputs of the same seed (or reads them, one-rank shapes, from
  --inputs) and takes its part: an argument with "split_dim": D gets slice
  [s n, (s+1) n) of dimension D (n = its size there; s = the rank's
  coordinates on "split_axes", every axis when absent, row-major: on a 1-D
  grid the rank); one with "partial": "sum" the whole value on the ranks
  at coordinate 0 of "partial_axes" (every axis when absent) and zeros
  elsewhere; any other (replicated) the whole value. X_bwd takes its
  residuals from X_fwd on the same rank. With --check-against
  ONE_RANK_ARTIFACT (whose argument shapes are the one-rank shapes:
  dimension split_dim times the shards of this artifact's) each rank runs
  the reference on the whole batch and compares each output with the
  matching part: a split output with its slice, a "partial": "sum" output
  summed over the ranks of its partial axes (in double, through their
  communicators) with the whole (or slice), a replicated one with the
  whole; residuals are rank-local and
  not compared. Before any entry runs the ranks compare the artifact's
  bytes, the entries, --warmup/--iters, --seed and the reference; a rank
  that differs from rank 0 is an error that names it and the item. Every
  line a rank prints is prefixed "rank R: " (stdout in
  rank order once all ended, stderr as it comes). When a rank fails, the
  communicator is aborted for it (the others' collectives fail at once) and
  ranks still running after MOE_COMM_TIMEOUT_S are killed; the exit status is 1 and the
  error names each rank that failed or was stopped. A collective waits at
  most MOE_COMM_TIMEOUT_S seconds (default 60) for the other ranks.
  Without --ranks an artifact of world size 1 with grids gets a one-rank
  communicator; one of a larger world size is an error.

RANDOM INPUTS
  Argument NAME of dtype T draws from N(0, s^2) and rounds to T
  (round-to-nearest-even; fp8 saturates), redrawing values that round to zero.
  s = 1 for inputs and cotangents (and any other role), 1/sqrt(shape[rank-2])
  for weights of rank >= 2, 0.01 for rank-0/1 weights. Streams are keyed by
  splitmix64(seed ^ fnv1a64(NAME)), so an argument gets the same values in
  every entry and on every machine. runtime/README.md has the exact scheme.

OUTPUT
  Per entry:  entry <name> on <cpu|gpu>[ [<GPU name> (sm_XY)]]: median <t> ms
              over <n> iterations (<w> warm-up)[, <x> TFLOP/s when the
              artifact gives a FLOP count]
  for an X_bwd entry fed by X_fwd:  residuals from entry X_fwd: <names>
                                    inputs from entry X_fwd: <names> (if any)
  for an entry fed FP8 weights:     FP8 weights from entry X_quantize_weights:
                                    <names> (or: through its X_fwd)
  then one row per output argument: name, role, shape, dtype, sum, abs_sum
  (sums of the values and of their magnitudes, in double, added per chunk
  of 2^20 elements and then over the chunks in order) and fnv1a64, the
  64-bit FNV-1a hash of the output's raw bytes (equal hashes = bit-identical;
  an output over 16 MiB: the FNV-1a hash of the little-endian FNV-1a hashes
  of its 16 MiB blocks, which are computed in parallel).
  With a check: "check against <reference>:" and per output its dtype, error
  (rel_l2 / abs_l2 and its notes, or <n> of <m> differ (first at index
  <i>)), tolerance and PASS or FAIL; after the last entry, "check: <n>
  outputs, <f> failed". --json: "tflops_per_s", "gflops_per_s", per output
  "check": {"rel_l2" (or "abs_l2"), "tolerance", "nonfinite_in_both",
  "reference_all_zero", "expect" (the declarations: "zero", "nonfinite"),
  "problem" (when there is one), "pass"} or {"mismatches",
  "first_mismatch", "tolerance": "exact", "pass"}, and a top-level "check".

EXIT STATUS
  0 success, 1 error or a failed check (message on stderr: "moe-runner:
  error: ..."), 2 bad command line.
)";

struct Options {
  std::string artifact;
  std::vector<std::string> entries;
  std::string device; // "" = the artifact's target kind
  uint64_t seed = 0;
  std::string inputsDir;
  std::string inputCache; // --input-cache DIR, else $MOE_RUNNER_INPUT_CACHE
  std::string dumpDir;
  long warmup = 1;
  long iters = 5;
  bool json = false;
  bool print = false;
  std::string compiler;
  std::string checkAgainst; // --check-against PATH
  bool check = false;       // --check (FILE.mlir: against its cpu compile)
  std::vector<std::string> expectZero;      // --expect-zero NAME|ENTRY/NAME
  std::vector<std::string> expectNonFinite; // --expect-nonfinite NAME|ENTRY/NAME
  std::vector<std::string> nearTies;        // --near-ties SCORES,INDICES[,BIAS]
  bool reuseFp8Weights = false;             // --reuse-fp8-weights
  bool profile = false;     // --profile
  bool cudaGraph = false;   // --cuda-graph
  long graphVariants = 0;   // --graph-variants
  std::string exchange;     // --exchange ("" = MOE_EP_EXCHANGE or auto)
  bool uninitializedOutputs = false; // --uninitialized-outputs
  int progress = -1;        // --progress 1, --no-progress 0, -1 by size
  long ranks = 0;           // --ranks N; 0 = one process
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
    } else if (name == "--input-cache") {
      o.inputCache = cl.nonEmptyValue("a directory");
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
    } else if (name == "--ranks") {
      o.ranks = parseCount("--ranks", cl.value(), 1);
    } else if (name == "--compiler") {
      o.compiler = cl.nonEmptyValue("a path");
    } else if (name == "--check-against") {
      o.checkAgainst = cl.nonEmptyValue("an artifact or a --dump directory");
    } else if (name == "--check") {
      cl.noValue();
      o.check = true;
    } else if (name == "--expect-zero") {
      o.expectZero.push_back(cl.nonEmptyValue("an output name (NAME or ENTRY/NAME)"));
    } else if (name == "--expect-nonfinite") {
      o.expectNonFinite.push_back(cl.nonEmptyValue("an output name (NAME or ENTRY/NAME)"));
    } else if (name == "--near-ties") {
      o.nearTies.push_back(cl.nonEmptyValue("SCORES,INDICES[,BIAS] (output and input names)"));
    } else if (name == "--reuse-fp8-weights") {
      cl.noValue();
      o.reuseFp8Weights = true;
    } else if (name == "--profile") {
      cl.noValue();
      o.profile = true;
    } else if (name == "--cuda-graph") {
      cl.noValue();
      o.cudaGraph = true;
    } else if (name == "--graph-variants") {
      o.graphVariants = parseCount("--graph-variants", cl.value(), 1);
    } else if (name == "--exchange") {
      o.exchange = cl.nonEmptyValue("MODE");
      if (o.exchange != "device" && o.exchange != "host-counts" && o.exchange != "auto")
        usageError("--exchange is '" + o.exchange + "'; expected device, host-counts or auto");
    } else if (name == "--uninitialized-outputs") {
      cl.noValue();
      o.uninitializedOutputs = true;
    } else if (name == "--progress" || name == "--no-progress") {
      cl.noValue();
      o.progress = name == "--progress";
    } else {
      cl.unknownFlag();
    }
  }
  o.artifact = cl.artifact();
  if (o.artifact.empty())
    usageError("no artifact given (moe-runner ARTIFACT|FILE.mlir [options])");
  if (o.check && !o.checkAgainst.empty())
    usageError("give --check or --check-against PATH, not both");
  if (o.check && !endsWith(o.artifact, ".mlir"))
    usageError("--check (no value) needs a FILE.mlir (it compiles the same "
               "file for the cpu); "
               "for an artifact use --check-against PATH");
  if (!o.check && o.checkAgainst.empty() && (!o.expectZero.empty() || !o.expectNonFinite.empty()))
    usageError(std::string(o.expectZero.empty() ? "--expect-nonfinite" : "--expect-zero") +
               " declares what a check expects: give --check or --check-against PATH");
  if (!o.check && o.checkAgainst.empty() && !o.nearTies.empty())
    usageError("--near-ties declares how a check compares router indices: give "
               "--check or "
               "--check-against PATH");
  if (!o.check && o.checkAgainst.empty() && o.reuseFp8Weights)
    usageError("--reuse-fp8-weights gives a check's reference the checked run's FP8 weights: "
               "give --check or --check-against PATH");
  if (o.reuseFp8Weights && o.ranks > 0)
    usageError("--reuse-fp8-weights applies to one process (without --ranks)");
  if (o.ranks > 0 && o.json)
    usageError("--json prints one report; with --ranks each rank prints its own (give no --json)");
  if (o.ranks > 1 && !o.nearTies.empty())
    usageError("--near-ties compares router indices token by token; it does not apply to the "
               "slices of --ranks");
  return o;
}

// ---- Per-entry results -----------------------------------------------------

struct OutputStats {
  const ArgSpec *spec = nullptr;
  double sum = 0.0;
  double absSum = 0.0;
  uint64_t hash = 0;
  std::vector<std::string> values; // each element (%.9g / integer) with --print
  bool checked = false;            // with --check-against
  moe_runner::Expectation expect;  // --expect-zero / --expect-nonfinite
  moe_runner::OutputCheck check;
};

struct EntryResult {
  const EntrySpec *spec = nullptr;
  std::vector<double> samplesMs;
  double medianMs = 0.0;
  std::vector<std::pair<std::string, std::string>> inputSources; // name, "random"|path|"entry X"
  std::string residualsFrom;              // X_fwd when chained, else ""
  std::vector<std::string> residualNames; // the residuals taken from it
  std::vector<std::string> sharedInputNames; // the inputs taken from it
  std::string weightsFrom;                   // X_quantize_weights when chained, else ""
  std::vector<std::string> quantizedWeightNames; // the inputs taken from it
  std::vector<OutputStats> outputs;
  std::vector<moert::GpuDevice::ProfileRow> profile; // with --profile
  bool nearTieAware = false;                         // --near-ties applies to this entry
  uint64_t nearTieTokens = 0; // tokens whose router indices differ by near-ties
};

std::string formatValue(DType t, const unsigned char *p) {
  if (isFloatDType(t))
    return format("%.9g", loadAsDouble(t, p));
  return format("%lld", static_cast<long long>(loadAsInt(t, p)));
}

/// Outputs larger than this are hashed per block (in parallel), then the
/// block digests hashed: fnv1a64 is a byte-serial chain (~1 GB/s).
constexpr size_t kHashBlock = size_t(16) << 20;

OutputStats summarize(const ArgSpec &arg, const void *data, bool withValues) {
  OutputStats s;
  s.spec = &arg;
  const unsigned char *p = static_cast<const unsigned char *>(data);
  size_t esize = dtypeSize(arg.dtype);
  size_t chunks = numChunks(arg.numElements);
  std::vector<double> sums(chunks, 0.0), absSums(chunks, 0.0);
  parallelFor(chunks, [&](size_t c) {
    size_t end = std::min(arg.numElements, (c + 1) * kChunkElements);
    for (size_t i = c * kChunkElements; i < end; ++i) {
      double v = loadAsDouble(arg.dtype, p + i * esize);
      sums[c] += v;
      absSums[c] += std::fabs(v);
    }
  });
  for (size_t c = 0; c < chunks; ++c) {
    s.sum += sums[c];
    s.absSum += absSums[c];
  }
  if (withValues)
    for (size_t i = 0; i < arg.numElements; ++i)
      s.values.push_back(formatValue(arg.dtype, p + i * esize));
  if (arg.numBytes <= kHashBlock) {
    s.hash = fnv1a64(p, arg.numBytes);
  } else {
    std::vector<uint64_t> digests((arg.numBytes + kHashBlock - 1) / kHashBlock);
    parallelFor(digests.size(), [&](size_t b) {
      size_t begin = b * kHashBlock;
      digests[b] = fnv1a64(p + begin, std::min(kHashBlock, arg.numBytes - begin));
    });
    s.hash = fnv1a64(digests.data(), digests.size() * sizeof(uint64_t));
  }
  return s;
}

// ---- The reference of --check-against ---------------------------------------

/// Another artifact (run here with the same seed and --inputs, on its own
/// target's device) or a --dump directory of a run.
struct Reference {
  std::string path;       // as given
  bool isDump = false;
  std::string description; // for the report: "<stem> (cpu)" or "dump <dir>"
  ArtifactPaths paths;
  ArtifactSpec spec;
  std::unique_ptr<moe_runner::Executor> ownExecutor; // when not the run's own
  moe_runner::Executor *executor = nullptr;
  SharedLibrary library;
  std::vector<moe_runner::EntryPlan> plans; // per selected entry (artifacts)
  moe_runner::RankGrid runGrid;             // where the run's ranks lie
};

/// The reference entry for `e` must take and give the same arguments (name,
/// io, shape, dtype), or the comparison means nothing. Under --ranks the
/// reference has the one-rank shapes (moe_runner::oneRankArg); residuals,
/// which are rank-local, may differ.
Status checkSameSignature(const EntrySpec &e, const EntrySpec &ref, const std::string &refName,
                          const moe_runner::RankGrid &grid) {
  for (const ArgSpec &local : e.args) {
    if (grid.ranks() > 1 && local.role == Role::Residual)
      continue;
    ArgSpec a = moe_runner::oneRankArg(local, grid);
    const ArgSpec *r = ref.findArg(a.name);
    if (!r)
      return Status::error(format("reference %s: entry '%s' has no argument '%s'",
                                  refName.c_str(), e.name.c_str(), a.name.c_str()));
    if (r->isInput != a.isInput || r->shape != a.shape || r->dtype != a.dtype)
      return Status::error(format(
          "reference %s: entry '%s', argument '%s' is %s %s %s there but %s %s %s here",
          refName.c_str(), e.name.c_str(), a.name.c_str(), r->isInput ? "in" : "out",
          shapeToString(r->shape).c_str(), dtypeName(r->dtype), a.isInput ? "in" : "out",
          shapeToString(a.shape).c_str(), dtypeName(a.dtype)));
  }
  return Status::success();
}

/// The reference values of entry `e`'s outputs, one host buffer per output
/// (in the order of e's outputs), of the one-rank shapes under --ranks
/// (residuals, rank-local, as the reference makes them).
Status referenceOutputs(const Options &o, Reference &ref, size_t k, const EntrySpec &e,
                        const moe_runner::EntryRun &checked, std::vector<AlignedBuffer> *out) {
  std::vector<ArgSpec> oneRank;
  for (const ArgSpec &a : e.args)
    if (!a.isInput)
      oneRank.push_back(moe_runner::oneRankArg(a, ref.runGrid));
  std::vector<const ArgSpec *> outs;
  for (const ArgSpec &a : oneRank)
    outs.push_back(&a);
  out->clear();
  out->resize(outs.size());
  if (ref.isDump) {
    for (size_t i = 0; i < outs.size(); ++i) {
      std::string file = joinPath(joinPath(ref.path, e.name), outs[i]->name + ".npy");
      if (!isRegularFile(file))
        return Status::error(format("reference dump %s has no %s (output '%s' of entry '%s')",
                                    ref.path.c_str(), file.c_str(), outs[i]->name.c_str(),
                                    e.name.c_str()));
      MOERT_TRY((*out)[i].allocate(outs[i]->numBytes));
      MOERT_TRY(loadInputNpy(e, *outs[i], file, (*out)[i].data())
                    .withPrefix("reading the reference (--check-against " + ref.path + ")"));
    }
    return Status::success();
  }
  moe_runner::RunSettings settings;
  settings.seed = o.seed;
  settings.warmup = 0;
  settings.iters = 1;
  if (o.reuseFp8Weights && !checked.weightsFrom.empty())
    settings.fp8Weights = &checked.fp8Weights;
  moe_runner::EntryRun run;
  MOERT_TRY(moe_runner::runEntry(settings, *ref.executor, ref.plans[k], &run)
                .withPrefix("running the reference " + ref.description));
  run.args.releaseInputs();
  for (size_t i = 0; i < outs.size(); ++i) {
    (*out)[i] = run.args.take(outs[i]->name); // moved, not copied
    // A residual under --ranks is rank-local and never compared: the
    // one-rank reference may not even have one of its name.
    if (ref.runGrid.ranks() > 1 && outs[i]->role == Role::Residual)
      continue;
    if (!(*out)[i].data() || (*out)[i].size() != outs[i]->numBytes)
      return Status::error(format("reference %s: entry '%s' has no output '%s'",
                                  ref.description.c_str(), e.name.c_str(),
                                  outs[i]->name.c_str()));
  }
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

double tflops(const EntryResult &r) { return gflops(r) * 1e-3; }

/// 4 significant digits, never in exponent notation for rates >= 0.001.
std::string formatRate(double v) {
  return v >= 0.001 ? format("%.4g", v) : format("%.3g", v);
}

/// Milliseconds with 4 significant digits, never in exponent notation (at
/// least 3 decimals, at most 9).
std::string formatMs(double ms) {
  int decimals = 3;
  if (ms > 0.0 && std::isfinite(ms))
    decimals = std::min(9, std::max(3, 3 - static_cast<int>(std::floor(std::log10(ms)))));
  return format("%.*f", decimals, ms);
}

void printRows(const std::vector<std::vector<std::string>> &rows, const char *indent) {
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto &row : rows)
    for (size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  for (const auto &row : rows) {
    std::string line = indent;
    for (size_t c = 0; c < row.size(); ++c) {
      line += " " + row[c];
      if (c + 1 < row.size())
        line.append(width[c] - row[c].size() + 1, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
}

void printTable(const Options &o, const std::string &device, const std::string &deviceName,
                const Reference *ref, const EntryResult &r) {
  std::printf("entry %s on %s", r.spec->name.c_str(), device.c_str());
  if (!deviceName.empty())
    std::printf(" [%s]", deviceName.c_str());
  std::printf(": median %s ms over %ld iterations (%ld warm-up)", formatMs(r.medianMs).c_str(),
              o.iters, o.warmup);
  if (r.spec->flops > 0)
    std::printf(", %s TFLOP/s", formatRate(tflops(r)).c_str());
  std::printf("\n");
  if (!r.residualsFrom.empty()) {
    std::string names = moe_runner::commaList(r.residualNames);
    std::printf("  residuals from entry %s: %s\n", r.residualsFrom.c_str(),
                names.empty() ? "(none)" : names.c_str());
    names = moe_runner::commaList(r.sharedInputNames);
    if (!names.empty())
      std::printf("  inputs from entry %s: %s\n", r.residualsFrom.c_str(), names.c_str());
  }
  if (!r.weightsFrom.empty()) {
    std::string names = moe_runner::commaList(r.quantizedWeightNames);
    std::printf("  FP8 weights from entry %s: %s\n", r.weightsFrom.c_str(),
                names.empty() ? "through its X_fwd" : names.c_str());
  }

  std::vector<std::vector<std::string>> rows;
  rows.push_back({"output", "role", "shape", "dtype", "sum", "abs_sum", "fnv1a64"});
  for (const OutputStats &s : r.outputs)
    rows.push_back({s.spec->name, roleName(s.spec->role), shapeToString(s.spec->shape),
                    dtypeName(s.spec->dtype), format("%.9g", s.sum), format("%.9g", s.absSum),
                    hashString(s.hash)});
  if (r.outputs.empty())
    std::printf("  (no outputs)\n");
  else
    printRows(rows, " ");
  if (ref) {
    std::printf("  check against %s:\n", ref->description.c_str());
    std::vector<std::vector<std::string>> checks;
    checks.push_back({"output", "dtype", "error", "tolerance", "result"});
    for (const OutputStats &s : r.outputs)
      if (s.checked)
        checks.push_back({s.spec->name, dtypeName(s.spec->dtype),
                          moe_runner::describeError(s.check),
                          moe_runner::describeTolerance(s.check), s.check.pass ? "PASS" : "FAIL"});
      else // a residual under --ranks: rank-local
        checks.push_back({s.spec->name, dtypeName(s.spec->dtype), "rank-local", "-", "-"});
    if (r.outputs.empty())
      std::printf("    (no outputs)\n");
    else
      printRows(checks, "   ");
    if (r.nearTieAware)
      std::printf("  near-ties: %llu tokens\n", static_cast<unsigned long long>(r.nearTieTokens));
  }
  if (!r.profile.empty()) {
    double total = 0.0;
    for (const auto &p : r.profile)
      total += p.totalMs;
    std::printf("  kernel profile (%ld calls; per call):\n", o.iters);
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"kernel", "launches", "us", "share"});
    for (const auto &p : r.profile)
      rows.push_back({p.name, format("%.4g", double(p.launches) / double(o.iters)),
                      format("%.1f", p.totalMs * 1e3 / double(o.iters)),
                      format("%.1f%%", total > 0.0 ? 100.0 * p.totalMs / total : 0.0)});
    rows.push_back({"(sum)", "", format("%.1f", total * 1e3 / double(o.iters)), ""});
    printRows(rows, "   ");
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

/// The declarations of an output as JSON array items: "\"zero\",
/// \"nonfinite\"".
std::string expectJson(moe_runner::Expectation expect) {
  std::string items;
  if (expect.zero)
    items += "\"zero\"";
  if (expect.nonFinite)
    items += std::string(items.empty() ? "" : ", ") + "\"nonfinite\"";
  return items;
}

std::string checkJson(const moe_runner::OutputCheck &c, moe_runner::Expectation expect) {
  std::string j = "{";
  if (c.exact)
    j += format("\"mismatches\": %llu, \"first_mismatch\": ",
                static_cast<unsigned long long>(c.mismatches)) +
         (c.mismatches ? format("%lld", static_cast<long long>(c.firstMismatch)) : "null") +
         ", \"tolerance\": \"exact\"";
  else
    j += std::string(c.absolute ? "\"abs_l2\": " : "\"rel_l2\": ") + jsonNumber(c.error) +
         ", \"tolerance\": " + jsonNumber(c.tolerance) +
         format(", \"nonfinite_in_both\": %llu, \"reference_all_zero\": %s, "
                "\"expect\": [%s]",
                static_cast<unsigned long long>(c.nonFiniteAlike),
                c.referenceZero ? "true" : "false", expectJson(expect).c_str()) +
         (c.problem.empty() ? "" : ", \"problem\": " + jsonQuote(c.problem));
  if (c.nearTieTokens)
    j += format(c.routerIndices ? ", \"near_tie_tokens\": %llu"
                                : ", \"near_tie_tokens_left_out\": %llu",
                static_cast<unsigned long long>(c.nearTieTokens));
  j += std::string(", \"pass\": ") + (c.pass ? "true" : "false") + "}";
  return j;
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
  j += "      \"tflops_per_s\": " + (r.spec->flops > 0 ? jsonNumber(tflops(r)) : "null") +
       ",\n";
  j += "      \"gflops_per_s\": " + (r.spec->flops > 0 ? jsonNumber(gflops(r)) : "null") +
       ",\n";
  if (!r.residualsFrom.empty())
    j += "      \"residuals_from\": " + jsonQuote(r.residualsFrom) + ",\n";
  if (!r.weightsFrom.empty())
    j += "      \"weights_from\": " + jsonQuote(r.weightsFrom) + ",\n";
  if (r.nearTieAware)
    j += format("      \"near_tie_tokens\": %llu,\n",
                static_cast<unsigned long long>(r.nearTieTokens));
  if (!r.profile.empty()) {
    j += "      \"profile\": [";
    for (size_t i = 0; i < r.profile.size(); ++i)
      j += std::string(i ? ",\n" : "\n") + "        {\"name\": " + jsonQuote(r.profile[i].name) +
           format(", \"launches\": %lld, \"total_ms\": ", (long long)r.profile[i].launches) +
           jsonNumber(r.profile[i].totalMs) + "}";
    j += "\n      ],\n";
  }
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
    if (s.checked)
      j += ", \"check\": " + checkJson(s.check, s.expect);
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

namespace {

/// The executor for `device`; "--device gpu: ..." errors are fatal.
std::unique_ptr<moe_runner::Executor> executorFor(const std::string &device,
                                                  const std::string &what,
                                                  const moe_runner::CallOptions &options = {}) {
  if (device == "cpu")
    return moe_runner::makeCpuExecutor(options);
  std::unique_ptr<moe_runner::Executor> e;
  check(moe_runner::makeGpuExecutor(&e, options).withPrefix(what));
  return e;
}

/// Open an artifact's .so on `executor` and resolve the plans' entries.
void openLibrary(const ArtifactPaths &paths, const ArtifactSpec &spec,
                 moe_runner::Executor &executor, SharedLibrary *library,
                 std::vector<moe_runner::EntryPlan> *plans,
                 const std::string &what) {
  auto prefixed = [&](const Status &s) { return what.empty() ? s : s.withPrefix(what); };
  check(prefixed(library->openArtifact(paths, spec)));
  check(prefixed(executor.checkLoaded(paths.so)));
  for (moe_runner::EntryPlan &plan : *plans)
    check(prefixed(moe_runner::resolveEntry(*library, &plan)));
}

// ---- The steps of a run, in the order main takes them ----------------------

/// The artifact to run and the reference to check against (a path; "" for
/// none). A FILE.mlir is compiled first (cached), for sm_90a when the run is
/// on a GPU (--device gpu, or no --device and a usable GPU), else for the
/// cpu; with --check, its cpu compile is the reference.
struct ArtifactChoice {
  std::string artifact;
  std::string reference;
};

ArtifactChoice compileIfSource(const Options &o) {
  ArtifactChoice choice{o.artifact, o.checkAgainst};
  if (!endsWith(choice.artifact, ".mlir")) {
    if (!o.compiler.empty())
      usageError("--compiler applies only to a FILE.mlir argument");
    return choice;
  }
  std::string target = "cpu";
  if (o.device == "gpu" || (o.device.empty() && moe_runner::gpuUsable()))
    target = "sm_90a";
  std::string stem;
  check(moe_runner::compileCached(choice.artifact, target, o.compiler, &stem));
  if (o.check) {
    std::string cpuStem = stem;
    if (target != "cpu")
      check(moe_runner::compileCached(choice.artifact, "cpu", o.compiler, &cpuStem)
                .withPrefix("--check (compiling the cpu reference)"));
    choice.reference = cpuStem;
  }
  choice.artifact = stem;
  return choice;
}

/// The entries to run: those named by --entry (in order, each once), else
/// all of the artifact's.
std::vector<const EntrySpec *> selectEntries(const Options &o, const ArtifactSpec &spec,
                                             const ArtifactPaths &paths) {
  std::vector<const EntrySpec *> selected;
  if (o.entries.empty()) {
    for (const EntrySpec &e : spec.entries)
      selected.push_back(&e);
    return selected;
  }
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
  return selected;
}

/// The device of the run: --device, else the kind of the artifact's target;
/// fatal where the artifact cannot run on it.
std::string runDevice(const Options &o, const ArtifactSpec &spec, const ArtifactPaths &paths) {
  std::string targetKind = targetDeviceKind(spec.target);
  std::string device = o.device.empty() ? targetKind : o.device;
  if (device == "gpu" && targetKind == "cpu")
    fatal(format("artifact %s was compiled for target cpu; compile with "
                 "--target=sm_90a to "
                 "run on a GPU",
                 paths.stem.c_str()));
  if (device == "cpu" && targetKind != "cpu")
    fatal(format("artifact %s was compiled for target %s; it runs only with "
                 "--device gpu",
                 paths.stem.c_str(), spec.target.c_str()));
  if (device != "cpu" && device != "gpu")
    fatal(format("artifact %s has target '%s', which runs on no device this "
                 "moe-runner knows",
                 paths.stem.c_str(), spec.target.c_str()));
  return device;
}

/// Progress lines when asked, or when an entry moves 1 GiB of host memory or
/// more.
void enableProgressFor(const Options &o, const std::vector<const EntrySpec *> &selected) {
  if (o.progress >= 0) {
    enableProgress(o.progress == 1);
    return;
  }
  size_t largest = 0;
  for (const EntrySpec *e : selected) {
    size_t bytes = 0;
    for (const ArgSpec &a : e->args)
      bytes += a.numBytes;
    largest = std::max(largest, bytes);
  }
  enableProgress(largest >= (size_t(1) << 30));
}

/// The inputs of every selected entry, planned before anything runs.
std::vector<moe_runner::EntryPlan> planEntries(const Options &o, const ArtifactSpec &spec,
                                               const std::vector<const EntrySpec *> &selected) {
  if (!o.inputsDir.empty() && !isDirectory(o.inputsDir))
    fatal("--inputs: " + o.inputsDir + " is not a directory");
  std::vector<moe_runner::EntryPlan> plans(selected.size());
  for (size_t k = 0; k < selected.size(); ++k) {
    std::string warn;
    check(moe_runner::planEntry(spec, *selected[k], o.inputsDir, &plans[k], &warn));
    if (!warn.empty())
      warning(warn);
  }
  return plans;
}

/// A reference artifact's spec, executor (the run's own when on the same
/// device) and one plan per selected entry, each checked against the run's
/// entry.
void planReferenceArtifact(const Options &o, Reference &ref,
                           const std::vector<const EntrySpec *> &selected,
                           const std::vector<moe_runner::EntryPlan> &plans,
                           const std::string &device, moe_runner::Executor &executor) {
  std::string what = "--check-against " + ref.path;
  ref.paths = artifactPathsFor(ref.path);
  check(loadArtifactSpec(ref.paths, &ref.spec).withPrefix(what));
  std::string refDevice = targetDeviceKind(ref.spec.target);
  if (refDevice.empty())
    fatal(format("%s: the reference's target '%s' runs on no device this "
                 "moe-runner knows",
                 what.c_str(), ref.spec.target.c_str()));
  ref.description = ref.paths.stem + " (" + refDevice + ")";
  if (ref.spec.worldSize() != 1)
    fatal(format("%s: the reference runs on %lld ranks; give a one-rank artifact", what.c_str(),
                 static_cast<long long>(ref.spec.worldSize())));
  if (refDevice == device) {
    ref.executor = &executor;
  } else {
    ref.ownExecutor = executorFor(refDevice, what + ": --device gpu");
    ref.executor = ref.ownExecutor.get();
  }
  ref.plans.resize(selected.size());
  for (size_t k = 0; k < selected.size(); ++k) {
    const EntrySpec &e = *selected[k];
    const EntrySpec *re = ref.spec.findEntry(e.name);
    if (!re)
      fatal(format("%s: the reference artifact %s has no entry '%s' (its entries: %s)",
                   what.c_str(), ref.paths.stem.c_str(), e.name.c_str(),
                   ref.spec.entryNames().c_str()));
    check(checkSameSignature(e, *re, ref.paths.stem, ref.runGrid).withPrefix(what));
    std::string warn;
    check(moe_runner::planEntry(ref.spec, *re, o.inputsDir, &ref.plans[k], &warn)
              .withPrefix(what));
    // Each side chains its own residuals: X_bwd needs X_fwd on both.
    if ((plans[k].fwd != nullptr) != (ref.plans[k].fwd != nullptr))
      fatal(format("%s: entry '%s' takes its residuals from entry '%s' on one side only",
                   what.c_str(), e.name.c_str(), vjpForwardEntryName(e.name).c_str()));
    // And its own FP8 weights: X_quantize_weights on both or neither.
    if ((plans[k].quantizer != nullptr) != (ref.plans[k].quantizer != nullptr))
      fatal(format("%s: entry '%s' takes its FP8 weights from entry '%s' on one side only",
                   what.c_str(), e.name.c_str(), weightQuantizerEntryName(e.name).c_str()));
  }
}

/// The reference of --check-against / --check (null without one): a --dump
/// directory, or an artifact planned (and its device set up) before anything
/// runs.
std::unique_ptr<Reference> prepareReference(const Options &o, const std::string &referenceArg,
                                            const std::vector<const EntrySpec *> &selected,
                                            const std::vector<moe_runner::EntryPlan> &plans,
                                            const std::string &device,
                                            moe_runner::Executor &executor,
                                            const moe_runner::RankGrid &runGrid) {
  if (referenceArg.empty())
    return nullptr;
  auto ref = std::make_unique<Reference>();
  ref->path = referenceArg;
  ref->runGrid = runGrid;
  if (isDirectory(referenceArg)) {
    ref->isDump = true;
    ref->description = "dump " + referenceArg;
  } else {
    planReferenceArtifact(o, *ref, selected, plans, device, executor);
  }
  return ref;
}

/// How every entry runs: seed, --dump directory (created here), iterations,
/// --profile (which needs a GPU).
moe_runner::RunSettings runSettings(const Options &o, const moe_runner::Executor &executor) {
  if (!o.dumpDir.empty())
    check(makeDirectories(o.dumpDir).withPrefix("--dump"));
  moe_runner::RunSettings settings;
  settings.seed = o.seed;
  settings.dumpDir = o.dumpDir;
  settings.warmup = o.warmup;
  settings.iters = o.iters;
  settings.profile = o.profile;
  settings.graphVariants = o.graphVariants;
  settings.keepFp8Weights = o.reuseFp8Weights;
  if (o.profile && !executor.canProfile())
    usageError(std::string("--profile needs --device gpu (the run is on ") + executor.device() +
               ")");
  return settings;
}

/// The arguments of an entry that --near-ties names: indices into its args,
/// -1 when absent (indices < 0: the entry's indices are compared exactly).
struct RouterArgs {
  int scores = -1;
  int indices = -1;
  int bias = -1; // an input, or -1 when the selection adds no bias
};

/// Runs one entry and summarizes its outputs; `run` keeps the output
/// buffers (the inputs are released) for the comparison with a reference,
/// and `bias` the input `router.bias` (the near-tie check needs it).
EntryResult runAndSummarize(const Options &o, const moe_runner::RunSettings &settings,
                            moe_runner::Executor &executor, const moe_runner::EntryPlan &plan,
                            const EntrySpec &entry, const std::string &device,
                            const RouterArgs &router, moe_runner::EntryRun *run,
                            AlignedBuffer *bias) {
  check(moe_runner::runEntry(settings, executor, plan, run));
  EntryResult r;
  r.spec = &entry;
  r.samplesMs = run->samplesMs;
  r.medianMs = median(r.samplesMs);
  // The median goes in the progress line too: a run stopped later (a
  // benchmark's timeout) still leaves the entries it finished on stderr.
  progress(format("entry %s on %s: done, median %.4g ms; summarizing its outputs",
                  entry.name.c_str(), device.c_str(), r.medianMs));
  r.inputSources = run->inputSources;
  r.residualsFrom = run->residualsFrom;
  r.residualNames = run->residualNames;
  r.sharedInputNames = run->sharedInputNames;
  r.weightsFrom = run->weightsFrom;
  r.quantizedWeightNames = run->quantizedWeightNames;
  r.profile = run->profile;
  for (size_t i = 0; i < entry.args.size(); ++i)
    if (!entry.args[i].isInput)
      r.outputs.push_back(summarize(entry.args[i], run->args.data(i), o.print));
  if (router.bias >= 0)
    *bias = run->args.take(entry.args[static_cast<size_t>(router.bias)].name);
  // Only the outputs are compared: the reference run gets the memory.
  run->args.releaseInputs();
  return r;
}

/// Whether NAME of --expect-zero/--expect-nonfinite (NAME or ENTRY/NAME)
/// names output `arg` of `entry`.
bool namesOutput(const std::string &name, const EntrySpec &entry, const ArgSpec &arg) {
  return !arg.isInput && (name == arg.name || name == entry.name + "/" + arg.name);
}

/// What the command line declares about output `arg` of `entry`.
moe_runner::Expectation expectationFor(const Options &o, const EntrySpec &entry,
                                       const ArgSpec &arg) {
  moe_runner::Expectation expect;
  for (const std::string &name : o.expectZero)
    expect.zero |= namesOutput(name, entry, arg);
  for (const std::string &name : o.expectNonFinite)
    expect.nonFinite |= namesOutput(name, entry, arg);
  return expect;
}

/// Every --expect-* NAME must name a float output of an entry run: a
/// misspelt name would otherwise declare nothing, silently.
void checkExpectationNames(const Options &o, const std::vector<const EntrySpec *> &selected) {
  auto checkNames = [&](const char *flag, const std::vector<std::string> &names) {
    for (const std::string &name : names) {
      bool found = false;
      for (const EntrySpec *e : selected)
        for (const ArgSpec &a : e->args) {
          if (!namesOutput(name, *e, a))
            continue;
          if (!isFloatDType(a.dtype))
            fatal(format("%s %s: output '%s' of entry '%s' is %s; integer and i1 outputs are "
                         "compared exactly, zeros included",
                         flag, name.c_str(), a.name.c_str(), e->name.c_str(), dtypeName(a.dtype)));
          found = true;
        }
      if (!found)
        fatal(format("%s %s: no entry run has an output of that name (NAME or ENTRY/NAME)", flag,
                     name.c_str()));
    }
  };
  checkNames("--expect-zero", o.expectZero);
  checkNames("--expect-nonfinite", o.expectNonFinite);
}

/// Whether NAME (NAME or ENTRY/NAME) names argument `arg` of `entry`.
bool namesArg(const std::string &name, const EntrySpec &entry, const ArgSpec &arg) {
  return name == arg.name || name == entry.name + "/" + arg.name;
}

/// The arguments of `entry` that one --near-ties SPEC names: `found` false
/// when the entry lacks its scores or indices output; fatal when they are
/// there but unfit (shapes, dtypes, a missing bias).
RouterArgs routerArgsOf(const std::string &spec, const std::vector<std::string> &names,
                        const EntrySpec &entry, bool *found) {
  RouterArgs router;
  auto find = [&](const std::string &name, bool input) {
    for (size_t i = 0; i < entry.args.size(); ++i)
      if (entry.args[i].isInput == input && namesArg(name, entry, entry.args[i]))
        return static_cast<int>(i);
    return -1;
  };
  router.scores = find(names[0], false);
  router.indices = find(names[1], false);
  *found = router.scores >= 0 && router.indices >= 0;
  if (!*found)
    return router;
  auto fail = [&](const std::string &why) {
    fatal(format("--near-ties %s: entry '%s': %s", spec.c_str(), entry.name.c_str(), why.c_str()));
  };
  const ArgSpec &scores = entry.args[static_cast<size_t>(router.scores)];
  const ArgSpec &indices = entry.args[static_cast<size_t>(router.indices)];
  if (!isFloatDType(scores.dtype) || scores.shape.size() != 2)
    fail(format("scores '%s' must be a float [T, E] output, not %s %s", scores.name.c_str(),
                shapeToString(scores.shape).c_str(), dtypeName(scores.dtype)));
  if (isFloatDType(indices.dtype) || indices.dtype == DType::I1 || indices.shape.size() != 2)
    fail(format("indices '%s' must be an integer [T, K] output, not %s %s", indices.name.c_str(),
                shapeToString(indices.shape).c_str(), dtypeName(indices.dtype)));
  if (indices.shape[0] != scores.shape[0] || indices.shape[1] > scores.shape[1])
    fail(format("indices '%s' %s do not select among scores '%s' %s "
                "(need [T, K], [T, E], K <= E)",
                indices.name.c_str(), shapeToString(indices.shape).c_str(), scores.name.c_str(),
                shapeToString(scores.shape).c_str()));
  if (names.size() == 3) {
    router.bias = find(names[2], true);
    if (router.bias < 0)
      fail("it has no input '" + names[2] + "' (the bias)");
    const ArgSpec &bias = entry.args[static_cast<size_t>(router.bias)];
    if (!isFloatDType(bias.dtype) || bias.shape != std::vector<int64_t>{scores.shape[1]})
      fail(format("bias '%s' must be a float [%lld] input, not %s %s", bias.name.c_str(),
                  static_cast<long long>(scores.shape[1]), shapeToString(bias.shape).c_str(),
                  dtypeName(bias.dtype)));
  }
  return router;
}

/// The router arguments of each selected entry under --near-ties; each SPEC
/// must apply to at least one entry run, and at most one SPEC to an entry.
std::vector<RouterArgs> nearTieRouters(const Options &o,
                                       const std::vector<const EntrySpec *> &selected) {
  std::vector<RouterArgs> routers(selected.size());
  std::vector<std::string> specOf(selected.size());
  for (const std::string &spec : o.nearTies) {
    std::vector<std::string> names;
    size_t begin = 0;
    for (size_t comma; (comma = spec.find(',', begin)) != std::string::npos; begin = comma + 1)
      names.push_back(spec.substr(begin, comma - begin));
    names.push_back(spec.substr(begin));
    bool empty = false;
    for (const std::string &n : names)
      empty |= n.empty();
    if (names.size() < 2 || names.size() > 3 || empty)
      usageError("--near-ties expects SCORES,INDICES[,BIAS] (NAME or ENTRY/NAME each), got '" +
                 spec + "'");
    bool applied = false;
    for (size_t k = 0; k < selected.size(); ++k) {
      bool found = false;
      RouterArgs router = routerArgsOf(spec, names, *selected[k], &found);
      if (!found)
        continue;
      if (!specOf[k].empty())
        fatal(format("--near-ties %s and --near-ties %s both apply to entry '%s'",
                     specOf[k].c_str(), spec.c_str(), selected[k]->name.c_str()));
      routers[k] = router;
      specOf[k] = spec;
      applied = true;
    }
    if (!applied)
      fatal("--near-ties " + spec + ": no entry run has both outputs (NAME or ENTRY/NAME)");
  }
  return routers;
}

/// The outcome of the comparisons with the reference so far.
struct CheckTally {
  size_t checkedOutputs = 0;
  uint64_t nearTieTokens = 0;
  std::vector<std::string> failures; // "<entry>/<output> (<error>...)"
};

/// Compares entry k's outputs (in `run`) with the reference's, recording
/// each check in `r` and the failed ones in `tally`; with `router` (from
/// --near-ties), its indices first, near-tie aware, and the near-tie tokens'
/// rows left out of the outputs indexed by token.
void compareWithReference(const Options &o, const moe_runner::RunSettings &settings, Reference &ref,
                          size_t k, const EntrySpec &entry, const moe_runner::EntryRun &run,
                          const RouterArgs &router, const AlignedBuffer &bias, EntryResult &r,
                          CheckTally &tally) {
  std::vector<AlignedBuffer> refOut;
  progress(format("reference %s: entry %s", ref.description.c_str(), entry.name.c_str()));
  check(referenceOutputs(o, ref, k, entry, run, &refOut));
  progress(format("comparing entry %s with the reference", entry.name.c_str()));
  // refOut holds the outputs in order: the n-th output of the entry.
  auto outputNumber = [&](int arg) {
    size_t n = 0;
    for (int i = 0; i < arg; ++i)
      n += !entry.args[static_cast<size_t>(i)].isInput;
    return n;
  };
  moe_runner::RouterIndicesCheck routing;
  if (router.indices >= 0) {
    const auto ii = static_cast<size_t>(router.indices), si = static_cast<size_t>(router.scores);
    const ArgSpec *biasSpec =
        router.bias >= 0 ? &entry.args[static_cast<size_t>(router.bias)] : nullptr;
    routing = moe_runner::compareRouterIndices(
        entry.args[ii], run.args.data(ii), refOut[outputNumber(router.indices)].data(),
        entry.args[si], refOut[outputNumber(router.scores)].data(), biasSpec, bias.data());
    r.nearTieAware = true;
    r.nearTieTokens = routing.indices.nearTieTokens;
    tally.nearTieTokens += r.nearTieTokens;
  }
  const std::vector<uint8_t> *skipTokens = r.nearTieTokens ? &routing.nearTie : nullptr;
  const moe_runner::RankLayout &layout = settings.layout;
  size_t n = 0;
  for (size_t i = 0; i < entry.args.size(); ++i) {
    if (entry.args[i].isInput)
      continue;
    const void *got = run.args.data(i);
    AlignedBuffer rankPart, summed;
    bool sliceOfNonZero = false;
    if (layout.multiRank()) {
      const ArgSpec &arg = entry.args[i];
      if (arg.role == Role::Residual) { // rank-local: nothing to compare
        ++n;
        continue;
      }
      if (arg.splitDim >= 0) {
        check(rankPart.allocate(arg.numBytes));
        moe_runner::copyRankSlice(arg, layout.grid, layout.rank, refOut[n].data(),
                                  rankPart.data());
        // The whole one-rank output is scanned only for an all-zero slice
        // (finiteAllZero stops at the first nonzero element).
        sliceOfNonZero =
            isFloatDType(arg.dtype) && moe_runner::finiteAllZero(arg, rankPart.data()) &&
            !moe_runner::finiteAllZero(moe_runner::oneRankArg(arg, layout.grid), refOut[n].data());
        refOut[n] = std::move(rankPart);
      }
      if (arg.partialSum) {
        check(moe_runner::sumOverRanks(layout, arg, got, &summed)
                  .withPrefix(format("entry '%s', output '%s': summing the partial sums",
                                     entry.name.c_str(), arg.name.c_str())));
        got = summed.data();
      }
    }
    OutputStats &s = r.outputs[n];
    s.checked = true;
    s.expect = expectationFor(o, entry, entry.args[i]);
    s.expect.sliceOfNonZero = sliceOfNonZero;
    if (static_cast<int>(i) == router.indices)
      s.check = routing.indices;
    else
      s.check = moe_runner::compareOutput(entry.args[i], got, refOut[n].data(),
                                          moe_runner::entryTolerance(entry, entry.args[i]),
                                          s.expect, skipTokens);
    ++tally.checkedOutputs;
    if (!s.check.pass)
      tally.failures.push_back(format("%s/%s (%s%s%s)", entry.name.c_str(),
                                      entry.args[i].name.c_str(),
                                      moe_runner::describeError(s.check).c_str(),
                                      s.check.exact || !s.check.problem.empty() ? ", " : " ",
                                      moe_runner::describeFailure(s.check).c_str()));
    ++n;
  }
}

/// The --json report: the run's header fields, the check's outcome and the
/// entries (entryJson each).
void printJsonReport(const Options &o, const ArtifactPaths &paths, const ArtifactSpec &spec,
                     const std::string &device, const std::string &deviceName,
                     const Reference *ref, const CheckTally &tally,
                     const std::vector<std::string> &jsonEntries) {
  std::printf("{\n  \"format\": \"moe-runner-1\",\n");
  std::printf("  \"artifact\": %s,\n", jsonQuote(paths.stem).c_str());
  std::printf("  \"source\": %s,\n", jsonQuote(spec.source).c_str());
  std::printf("  \"target\": %s,\n", jsonQuote(spec.target).c_str());
  std::printf("  \"device\": %s,\n", jsonQuote(device).c_str());
  if (!deviceName.empty())
    std::printf("  \"device_name\": %s,\n", jsonQuote(deviceName).c_str());
  std::printf("  \"seed\": %" PRIu64 ",\n", o.seed);
  if (ref)
    std::printf("  \"check\": {\"reference\": %s, \"kind\": %s, \"outputs\": %zu, "
                "\"failed\": %zu,%s \"pass\": %s},\n",
                jsonQuote(ref->path).c_str(), ref->isDump ? "\"dump\"" : "\"artifact\"",
                tally.checkedOutputs, tally.failures.size(),
                o.nearTies.empty() ? ""
                                   : format(" \"near_tie_tokens\": %llu,",
                                            static_cast<unsigned long long>(tally.nearTieTokens))
                                         .c_str(),
                tally.failures.empty() ? "true" : "false");
  std::printf("  \"entries\": [\n");
  for (size_t k = 0; k < jsonEntries.size(); ++k)
    std::printf("%s%s\n", jsonEntries[k].c_str(), k + 1 < jsonEntries.size() ? "," : "");
  std::printf("  ]\n}\n");
}

/// This process's rank. Without --ranks: rank 0 of 1 (an artifact with grids
/// of one rank gets a one-rank communicator for its collectives). The parent
/// of --ranks N runs the rank processes and exits with their status; a rank
/// process joins the communicator.
moe_runner::RankLayout ranksOf(const Options &o, const ArtifactSpec &spec, char **argv,
                               const std::string &device) {
  if (o.ranks == 0 && !moe_runner::isRankProcess()) {
    if (spec.worldSize() != 1)
      fatal(format("the artifact runs on %lld ranks (its \"grids\"); run it with --ranks %lld",
                   static_cast<long long>(spec.worldSize()),
                   static_cast<long long>(spec.worldSize())));
    if (spec.grids.empty())
      return {};
    std::string id;
    check(createShmCommunicator(1, 0, &id));
    setenv("MOE_COMM_ID", id.c_str(), 1);
    setenv("RANK", "0", 1);
    setenv("WORLD_SIZE", "1", 1);
    moe_runner::RankLayout one = moe_runner::joinRanks(spec);
    removeShmCommunicator(id); // the mappings stay
    return one;
  }
  if (!moe_runner::isRankProcess()) {
    check(moe_runner::checkWorldSize(spec, static_cast<int>(o.ranks)));
    std::exit(moe_runner::runRankProcesses(argv, static_cast<int>(o.ranks), device == "gpu",
                                           moe_runner::RankGrid::of(spec)));
  }
  moe_runner::RankLayout layout = moe_runner::joinRanks(spec);
  if (layout.ranks != o.ranks)
    fatal(format("rank process: WORLD_SIZE is %d but --ranks %ld", layout.ranks, o.ranks));
  return layout;
}

/// What every rank must hold alike before any entry runs: the artifact's
/// bytes, the entries, the call counts (each call makes the same collectives
/// on every rank), the seed and the reference.
/// MOE_RUNNER_TEST_FINGERPRINT=R:FILE (for tests) makes rank R fingerprint
/// FILE in place of its artifact's .so, as if it had loaded another build.
std::vector<moe_runner::RankAgreement> rankAgreement(const Options &o, const ArtifactPaths &paths,
                                                     const std::vector<const EntrySpec *> &selected,
                                                     const std::string &reference, int rank) {
  std::vector<std::string> files = {paths.so, paths.json};
  if (const char *test = std::getenv("MOE_RUNNER_TEST_FINGERPRINT")) {
    std::string spec = test;
    size_t colon = spec.find(':');
    uint64_t r = 0;
    if (colon == std::string::npos || !parseUnsigned(spec.substr(0, colon), &r))
      fatal(format("MOE_RUNNER_TEST_FINGERPRINT is '%s', expected RANK:FILE", test));
    if (static_cast<int>(r) == rank)
      files[0] = spec.substr(colon + 1);
  }
  uint64_t artifact = 0;
  check(moe_runner::fingerprintFiles(files, &artifact).withPrefix("fingerprinting the artifact"));
  std::string entries;
  for (const EntrySpec *e : selected)
    entries += e->name + ",";
  // The reference the run uses (--check-against, or --check's cpu compile):
  // an artifact's bytes where its files are there (a missing one is reported
  // later, by the reference's own checks), else its path.
  uint64_t referenceHash = fnv1a64(reference);
  if (!reference.empty() && !isDirectory(reference)) {
    ArtifactPaths ref = artifactPathsFor(reference);
    if (isRegularFile(ref.so) && isRegularFile(ref.json))
      check(moe_runner::fingerprintFiles({ref.so, ref.json}, &referenceHash)
                .withPrefix("fingerprinting the reference artifact"));
  }
  return {{"the artifact (" + paths.stem + ".so and .json)", artifact},
          {"the entries run", fnv1a64(entries)},
          {"--warmup and --iters", static_cast<uint64_t>(o.warmup) * 1000000007ULL +
                                       static_cast<uint64_t>(o.iters)},
          {"--seed", o.seed},
          {"the reference (--check-against, --check)", referenceHash}};
}

/// Fatal (exit 1) when a compared output failed its check.
void failOnMismatches(const Reference *ref, const CheckTally &tally) {
  if (tally.failures.empty())
    return;
  std::string list;
  for (const std::string &f : tally.failures)
    list += (list.empty() ? "" : "; ") + f;
  fatal(format("check against %s: %zu of %zu outputs failed: %s",
               ref->description.c_str(), tally.failures.size(), tally.checkedOutputs,
               list.c_str()));
}

} // namespace

int main(int argc, char **argv) {
  setToolName("moe-runner");
  Options o = parseCommandLine(argc, argv);
  if (o.inputCache.empty())
    if (const char *dir = std::getenv("MOE_RUNNER_INPUT_CACHE"); dir && *dir)
      o.inputCache = dir;
  moe_runner::setRandomInputCacheDir(o.inputCache);
  if (!o.exchange.empty())
    setenv("MOE_EP_EXCHANGE", o.exchange.c_str(), 1); // read by libmoe_runtime_gpu

  // 1. The artifact (compiled first from a FILE.mlir) and its entries.
  ArtifactChoice choice = compileIfSource(o);
  ArtifactPaths paths = artifactPathsFor(choice.artifact);
  ArtifactSpec spec;
  check(loadArtifactSpec(paths, &spec));
  std::vector<const EntrySpec *> selected = selectEntries(o, spec, paths);
  checkExpectationNames(o, selected);
  std::vector<RouterArgs> routers = nearTieRouters(o, selected);

  // 2. The device. A GPU's runtime library is loaded (RTLD_GLOBAL) before
  // any GPU artifact, whose mgpu*/moert_* references it resolves. Under
  // --ranks the parent starts the ranks and waits for them.
  std::string device = runDevice(o, spec, paths);
  moe_runner::RankLayout layout = ranksOf(o, spec, argv, device);
  if (moe_runner::isRankProcess() && layout.multiRank())
    check(moe_runner::checkRanksAgree(
              layout, rankAgreement(o, paths, selected, choice.reference, layout.rank))
              .withPrefix(format("rank %d", layout.rank)));
  if (o.cudaGraph && device != "gpu")
    usageError("--cuda-graph needs --device gpu");
  if (o.graphVariants > 0 && !o.cudaGraph)
    usageError("--graph-variants needs --cuda-graph");
  moe_runner::CallOptions calls;
  calls.cudaGraph = o.cudaGraph;
  calls.zeroOutputs = !o.uninitializedOutputs;
  std::unique_ptr<moe_runner::Executor> executor = executorFor(device, "--device gpu", calls);
  // Communicators only under --ranks or for a world of several ranks: on one
  // rank the compiled collectives are copies (or fold away) and call no
  // runtime, so a GPU runtime built without NCCL still runs such artifacts.
  if (layout.comm && (o.ranks > 0 || layout.multiRank()))
    check(executor->joinCollectives(spec, layout));
  enableProgressFor(o, selected);

  // 3. Plan the inputs of every entry, and the reference, before running
  // anything.
  std::vector<moe_runner::EntryPlan> plans = planEntries(o, spec, selected);
  std::unique_ptr<Reference> ref =
      prepareReference(o, choice.reference, selected, plans, device, *executor, layout.grid);

  // 4. Load the code and resolve every entry.
  SharedLibrary library;
  openLibrary(paths, spec, *executor, &library, &plans, "");
  if (ref && !ref->isDump)
    openLibrary(ref->paths, ref->spec, *ref->executor, &ref->library,
                &ref->plans, "--check-against " + ref->path);

  // 5. Run each entry (and compare it), then report.
  moe_runner::RunSettings settings = runSettings(o, *executor);
  settings.layout = layout;
  if (layout.multiRank() && !settings.dumpDir.empty()) {
    settings.dumpDir = joinPath(settings.dumpDir, format("rank%d", layout.rank));
    check(makeDirectories(settings.dumpDir).withPrefix("--dump"));
  }
  std::string deviceName = executor->deviceName();
  std::vector<std::string> jsonEntries;
  CheckTally tally;
  for (size_t k = 0; k < selected.size(); ++k) {
    const EntrySpec &entry = *selected[k];
    moe_runner::EntryRun run;
    AlignedBuffer bias;
    EntryResult r =
        runAndSummarize(o, settings, *executor, plans[k], entry, device, routers[k], &run, &bias);
    if (ref)
      compareWithReference(o, settings, *ref, k, entry, run, routers[k], bias, r, tally);
    if (o.json)
      jsonEntries.push_back(entryJson(o, device, r));
    else
      printTable(o, device, deviceName, ref.get(), r);
  }
  if (o.json)
    printJsonReport(o, paths, spec, device, deviceName, ref.get(), tally, jsonEntries);
  else if (ref && o.nearTies.empty())
    std::printf("check: %zu outputs, %zu failed\n", tally.checkedOutputs, tally.failures.size());
  else if (ref)
    std::printf("check: %zu outputs, %zu failed, near-ties: %llu tokens\n", tally.checkedOutputs,
                tally.failures.size(), static_cast<unsigned long long>(tally.nearTieTokens));
  finishReport();
  failOnMismatches(ref.get(), tally);
  return 0;
}
