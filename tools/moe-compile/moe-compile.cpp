//===- moe-compile.cpp - .mlir → artifact (.so + .json) --------------------===//
//
// Compiles a moe program for a target into an artifact that moe-runner (no
// MLIR inside) loads: <stem>.so with one `void <entry>_packed(void **args)`
// per public function, and <stem>.json describing every entry's arguments.
// Both files appear only when everything succeeded.
//
//===----------------------------------------------------------------------===//
#include "EntryMetadata.h"
#include "ObjectEmission.h"

#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Conversion/Pipelines.h"
#include "MoeDialect/InitMoe.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("moe-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<input .mlir>"),
                                      cl::cat(category));
static cl::opt<std::string>
    outputStem("o", cl::value_desc("stem"),
               cl::desc("Artifact path without extension: writes <stem>.so and "
                        "<stem>.json (default: the input's name, here)"),
               cl::cat(category));
static cl::opt<std::string>
    target("target", cl::init("cpu"),
           cl::desc("Target: cpu (the reference lowering, runs in moe-runner's "
                    "process) or an NVIDIA architecture sm_<NN>[a] such as "
                    "sm_90a (Hopper): kernels as cubin + calls into "
                    "libmoe_runtime_gpu; entries then take device pointers"),
           cl::cat(category));
static cl::opt<bool> gpuSchedules(
    "gpu-schedules",
    cl::desc("With --target=cpu: lower with the GPU target's parallel "
             "schedules (permute, combine_grad, aux/z losses, ...) run in "
             "order, instead of the reference loops -- to check the GPU "
             "algorithms against the reference on a machine without a GPU"),
    cl::cat(category));
static cl::opt<std::string>
    cudaPath("cuda-path",
             cl::desc("CUDA toolkit root for GPU targets (ptxas, libdevice); "
                      "default $CUDA_HOME, else /usr/local/cuda"),
             cl::cat(category));
static cl::opt<moe::GroupedGemmBackend> gemmBackend(
    "gemm", cl::init(moe::GroupedGemmBackend::automatic),
    cl::desc("GPU targets: how grouped matmuls are computed"),
    cl::values(
        clEnumValN(moe::GroupedGemmBackend::automatic, "auto",
                   "FP8: the generated kernels, the only FP8 path; bf16: "
                   "generated kernels with 32 or more groups (weight "
                   "gradients: also 128 or more rows a group) or with 4096 "
                   "or more rows a group, else cuBLASLt: the faster of the "
                   "two as measured (default)"),
        clEnumValN(moe::GroupedGemmBackend::generated, "generated",
                   "compiler-generated TMA + wgmma kernels where the op "
                   "allows (sm_90a), cuBLASLt for the rest"),
        clEnumValN(moe::GroupedGemmBackend::cublaslt, "cublaslt",
                   "a cuBLASLt call per group (group sizes read on the host)")),
    cl::cat(category));
static cl::opt<std::string> gemmBlockN(
    "gemm-block-n", cl::init("auto"),
    cl::desc("GPU targets, --gemm=generated: the generated grouped GEMMs' "
             "tile width (auto: 256 for weight gradients and grouped matmuls "
             "with N > 4096 where N allows and 3 stages fit, else 128; or "
             "128, 256)"),
    cl::cat(category));
static cl::opt<int64_t> gemmPanelTiles(
    "gemm-panel-tiles", cl::init(0),
    cl::desc("GPU targets, --gemm=generated: n-tiles of a panel of the "
             "generated grouped GEMMs' tile order (0: one panel where a "
             "group's B is below 24 MB, else about sqrt(132 * BM / BN); a "
             "value of at least N / BN: m-tile after m-tile)"),
    cl::cat(category));
static cl::opt<int64_t> gemmMaxStages(
    "gemm-max-stages", cl::init(0),
    cl::desc("GPU targets, --gemm=generated: at most this many pipeline "
             "stages in the generated grouped GEMMs (0: as many as shared "
             "memory holds; 3 for compute-sanitizer memcheck runs)"),
    cl::cat(category));
static cl::opt<bool> gemmTmaStore(
    "gemm-tma-store", cl::init(true),
    cl::desc("GPU targets, --gemm=generated: store whole bf16 tiles of the "
             "generated grouped GEMMs with TMA (=false: by threads, which "
             "compute-sanitizer initcheck sees)"),
    cl::cat(category));
static cl::opt<bool> gemmRacecheckLayout(
    "gemm-racecheck-layout", cl::init(false),
    cl::desc("GPU targets, --gemm=generated: start the generated grouped "
             "GEMMs' operand stages 1 KB further into shared memory "
             "(compute-sanitizer racecheck builds: the tool takes stores "
             "to the stages' first bytes for accesses to the kernel's "
             "mbarriers)"),
    cl::cat(category));
static cl::opt<int64_t> gemmCtas(
    "gemm-ctas", cl::init(132),
    cl::desc("GPU targets, --gemm=generated: CTAs of the persistent grouped "
             "GEMMs (default 132, an H100/H200's SMs; fewer give each CTA "
             "more tiles, as tests of the tile loop want)"),
    cl::cat(category));
static cl::opt<bool> gemmPingpong(
    "gemm-pingpong", cl::init(true),
    cl::desc("GPU targets, --gemm=generated: 128 x 128 tiles of grouped "
             "matmuls run whole on one consumer warpgroup, the two taking "
             "turns (=false: both share every tile, to compare)"),
    cl::cat(category));
static cl::opt<bool> gemmPairedPromotion(
    "gemm-paired-promotion", cl::init(true),
    cl::desc("GPU targets, generated blockwise FP8 grouped GEMMs: issue two "
             "k-steps' wgmmas before promoting the first, whose promotion "
             "then runs while the second multiplies (=false: one k-step at "
             "a time, to compare)"),
    cl::cat(category));
static cl::opt<bool> gemmEpilogueFusion(
    "gemm-epilogue-fusion", cl::init(true),
    cl::desc("GPU targets, generated grouped GEMMs: fold the backward's "
             "activation adjoint and recomputed activation into the down "
             "projection's dgrad epilogue (moe-fuse elementwise-epilogue, "
             "recompute-in-epilogue; =false: keep them apart, to compare)"),
    cl::cat(category));
static cl::opt<bool> gemmGateUpWeights(
    "gemm-gate-up-weights", cl::init(true),
    cl::desc("GPU targets, generated grouped GEMMs: gate and up weights "
             "apart as one grouped GEMM on both with the gated activation in "
             "its epilogue, where nothing else reads the gate and up "
             "products (an inference entry; moe-fuse gate-up-weights; "
             "=false: two GEMMs and a glu kernel, to compare)"),
    cl::cat(category));
static cl::opt<bool> fp8QuantizeWithTranspose(
    "fp8-quantize-with-transpose", cl::init(true),
    cl::desc("GPU targets: quantize a gradient rowwise and columnwise "
             "(1x128 blocks both ways) in one kernel that reads it once "
             "(moe-fuse quantize-with-transpose; on one H200 0.48 ms for "
             "qwen3-30b-a3b's dy where the two kernels take 0.55)"),
    cl::cat(category));
static cl::opt<bool> gemmHeaviestGroupsFirst(
    "gemm-heaviest-groups-first", cl::init(true),
    cl::desc("GPU targets, --gemm=generated: weight gradients run their "
             "largest groups' tiles first, dealt to the CTAs in alternating "
             "directions, so that hot experts do not pile up on a few SMs "
             "(=false: group after group, to compare)"),
    cl::cat(category));
static cl::opt<bool> deferHostWaits(
    "defer-host-waits", cl::init(true),
    cl::desc("GPU targets: the host does not wait for the stream before "
             "runtime calls that only enqueue work on it (cuBLASLt GEMMs, "
             "TMA descriptors); =false: it waits before each, to compare"),
    cl::cat(category));
static cl::opt<bool> denseMatmuls(
    "dense-matmuls", cl::init(true),
    cl::desc("GPU targets: the router projection and the f32 contractions "
             "of its adjoint as cuBLASLt GEMMs on split bf16 operands "
             "(=false: the compiler's own kernels, slower; for "
             "compute-sanitizer racecheck, which fails inside cuBLASLt's "
             "split-K kernel)"),
    cl::cat(category));
static cl::opt<bool> tiledTransposes(
    "tiled-transposes", cl::init(true),
    cl::desc("GPU targets: transposes of the last two dimensions as a block "
             "per tile staged in shared memory (=false: one thread per "
             "element, to compare)"),
    cl::cat(category));
static cl::opt<bool> fp8GluQuantize(
    "fp8-glu-quantize", cl::init(true),
    cl::desc("GPU targets and --gpu-schedules: the block_1x128 quantize of a "
             "moe.glu output that nothing else reads computes the glu "
             "itself, one kernel instead of two (the same bits; on one "
             "H200 207 us for qwen3-30b-a3b's where the two take 251)"),
    cl::cat(category));
static cl::opt<bool> fp8CombineGradQuantize(
    "fp8-combine-grad-quantize", cl::init(false),
    cl::desc("GPU targets and --gpu-schedules: the both-ways quantize of a "
             "moe.combine_grad's dy that nothing else reads gathers dy's "
             "rows itself, dy never stored (the same bits; off until "
             "measured on a GPU)"),
    cl::cat(category));
static cl::opt<bool> fp8Instructions(
    "fp8-instructions", cl::init(true),
    cl::desc("GPU targets sm_89 and newer: FP8 quantize/dequantize kernels "
             "convert with cvt instructions (=false: integer arithmetic, "
             "the same results, to compare)"),
    cl::cat(category));
static cl::opt<bool> bf16Instructions(
    "bf16-instructions", cl::init(true),
    cl::desc("GPU targets sm_80 and newer: kernels round f32 to bf16 with "
             "cvt.rn instructions (=false: integer arithmetic, the same "
             "bits, to compare)"),
    cl::cat(category));
enum class Emit { Artifact, LoweredMLIR, LLVMIR };
static cl::opt<Emit> emit(
    "emit", cl::init(Emit::Artifact), cl::desc("What to produce"),
    cl::values(clEnumValN(Emit::Artifact, "artifact",
                          "<stem>.so and <stem>.json (default)"),
               clEnumValN(Emit::LoweredMLIR, "mlir",
                          "print the module lowered to the LLVM dialect"),
               clEnumValN(Emit::LLVMIR, "llvm",
                          "print the optimized LLVM IR")),
    cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("No progress lines"),
                           cl::cat(category));

namespace {
/// sm_<digits> with an optional architecture-specific suffix "a".
bool isNvidiaArch(llvm::StringRef name) {
  if (!name.consume_front("sm_"))
    return false;
  name.consume_back("a");
  return !name.empty() && llvm::all_of(name, [](char c) { return c >= '0' && c <= '9'; });
}

/// Progress lines on stderr: long compiles say what they are doing.
class Progress {
public:
  explicit Progress(int steps) : steps(steps) {}
  void step(llvm::StringRef what) {
    finish();
    ++current;
    if (!quiet)
      llvm::errs() << "moe-compile: [" << current << "/" << steps << "] "
                   << what << "...";
    start = std::chrono::steady_clock::now();
    open = true;
  }
  void finish() {
    if (!open)
      return;
    open = false;
    if (quiet)
      return;
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count();
    llvm::errs() << " " << ms << " ms\n";
  }
  /// Ends the current line before a diagnostic is printed.
  void fail() {
    if (open && !quiet)
      llvm::errs() << " failed\n";
    open = false;
  }

private:
  int steps, current = 0;
  bool open = false;
  std::chrono::steady_clock::time_point start;
};

/// Temporary files next to the final ones, removed unless committed.
struct PendingFiles {
  llvm::SmallVector<std::string> paths;
  bool committed = false;
  ~PendingFiles() {
    if (!committed)
      for (const std::string &p : paths)
        llvm::sys::fs::remove(p);
  }
  std::string add(llvm::StringRef finalPath) {
    paths.push_back((finalPath + ".tmp" + llvm::Twine(llvm::sys::Process::getProcessId())).str());
    return paths.back();
  }
};
} // namespace

/// Where the artifact goes must be usable before anything is compiled: a
/// stem naming a directory ("out/", "."), a missing or unwritable directory,
/// or a directory already sitting at <stem>.so / <stem>.json.
static bool checkOutputStem(llvm::StringRef stem) {
  namespace fs = llvm::sys::fs;
  namespace path = llvm::sys::path;
  auto error = [&](const llvm::Twine &what) {
    llvm::errs() << "moe-compile: error: " << what << "\n";
    return false;
  };
  llvm::StringRef file = path::filename(stem);
  if (stem.empty() || path::is_separator(stem.back()) || file == "." ||
      file == "..")
    return error("-o '" + stem +
                 "' names a directory; give a path without extension, e.g. " +
                 "-o dir/model for dir/model.so and dir/model.json");
  llvm::StringRef parent = path::parent_path(stem);
  if (parent.empty())
    parent = ".";
  if (!fs::is_directory(parent))
    return error("cannot write the artifact " + stem + ".{so,json}: '" +
                 parent + "' is not a directory");
  if (fs::access(parent, fs::AccessMode::Write))
    return error("cannot write the artifact " + stem + ".{so,json}: the "
                 "directory '" + parent + "' is not writable");
  for (const char *ext : {".so", ".json"})
    if (fs::is_directory(stem + ext))
      return error("cannot write the artifact: '" + stem + ext +
                   "' is a directory");
  return true;
}

static int fail(Progress &progress) {
  progress.fail();
  return 1;
}

/// The CUDA toolkit: --cuda-path, else $CUDA_HOME, else /usr/local/cuda.
static std::string cudaToolkit() {
  if (!cudaPath.empty())
    return cudaPath;
  if (const char *env = std::getenv("CUDA_HOME"))
    if (*env)
      return env;
  return "/usr/local/cuda";
}

/// Whether `toolkit` has the ptxas that a GPU target's gpu-module-to-binary
/// runs (else says so).
static bool hasPtxas(StringRef toolkit) {
  llvm::SmallString<256> ptxas(toolkit);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (llvm::sys::fs::can_execute(ptxas))
    return true;
  llvm::errs() << "moe-compile: error: target " << target << " needs ptxas: "
               << ptxas << " not found (set --cuda-path or CUDA_HOME)\n";
  return false;
}

/// The lowering to the LLVM dialect for --target, inside the entry ABI
/// (void <entry>_packed(void **args)): the passes that moe-opt runs as
/// moe-prepare-entries, moe-reserve-entry-names, <pipeline>{out-params},
/// moe-restore-entry-names, moe-add-packed-wrappers.
static void addLowering(PassManager &pm, bool gpuTarget, StringRef toolkit) {
  pm.addPass(moe::createMoePrepareEntriesPass());
  pm.addPass(moe::createMoeReserveEntryNamesPass());
  if (gpuTarget) {
    moe::MoeLowerToGpuOptions options;
    options.chip = target;
    options.toolkit = toolkit.str();
    options.gemm = gemmBackend;
    options.gemmBlockN = gemmBlockN;
    options.gemmPanelTiles = gemmPanelTiles;
    options.gemmMaxStages = gemmMaxStages;
    options.gemmTmaStore = gemmTmaStore;
    options.gemmRacecheckLayout = gemmRacecheckLayout;
    options.gemmPingpong = gemmPingpong;
    options.gemmPairedPromotion = gemmPairedPromotion;
    options.gemmHeaviestGroupsFirst = gemmHeaviestGroupsFirst;
    options.gemmEpilogueFusion = gemmEpilogueFusion;
    options.gemmGateUpWeights = gemmGateUpWeights;
    options.fp8QuantizeWithTranspose = fp8QuantizeWithTranspose;
    options.gemmCtas = gemmCtas;
    options.denseMatmuls = denseMatmuls;
    options.deferHostWaits = deferHostWaits;
    options.tiledTransposes = tiledTransposes;
    options.fp8Instructions = fp8Instructions;
    options.bf16Instructions = bf16Instructions;
    options.fp8GluQuantize = fp8GluQuantize;
    options.fp8CombineGradQuantize = fp8CombineGradQuantize;
    options.outParams = true;
    moe::buildMoeLowerToGpuPipeline(pm, options);
  } else {
    moe::MoeLowerToCpuOptions options;
    options.gpuSchedules = gpuSchedules;
    options.fp8GluQuantize = fp8GluQuantize;
    options.fp8CombineGradQuantize = fp8CombineGradQuantize;
    options.outParams = true;
    moe::buildMoeLowerToCpuPipeline(pm, options);
  }
  pm.addPass(moe::createMoeRestoreEntryNamesPass());
  pm.addPass(moe::createMoeAddPackedWrappersPass());
}

/// stem.so and stem.json from the optimized `llvmModule` (its metadata
/// already embedded) and `metadata`: written under temporary names, then
/// moved into place together, so that a failure leaves neither half.
static LogicalResult writeArtifact(llvm::Module &llvmModule,
                                   StringRef metadata, StringRef stem,
                                   Progress &progress) {
  PendingFiles pending;
  std::string soPath = (stem + ".so").str(), jsonPath = (stem + ".json").str();
  std::string objectPath = pending.add((stem + ".o").str());
  std::string soTemp = pending.add(soPath), jsonTemp = pending.add(jsonPath);
  progress.step("emit object code");
  if (failed(moe::compile::emitObject(llvmModule, objectPath))) {
    progress.fail();
    return failure();
  }
  progress.step("link " + soPath + " (lld)");
  if (failed(moe::compile::linkSharedLibrary(objectPath, soTemp))) {
    progress.fail();
    return failure();
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream json(jsonTemp, ec);
    if (ec) {
      progress.fail();
      llvm::errs() << "moe-compile: error: cannot write " << jsonTemp << ": "
                   << ec.message() << "\n";
      return failure();
    }
    json << metadata;
  }
  // Only what this run wrote is removed on failure: never a directory or a
  // file that was there before.
  bool soMoved = false;
  std::error_code moveError = llvm::sys::fs::rename(soTemp, soPath);
  if (!moveError) {
    soMoved = true;
    moveError = llvm::sys::fs::rename(jsonTemp, jsonPath);
  }
  if (moveError) {
    progress.fail();
    llvm::errs() << "moe-compile: error: cannot move the artifact into place at "
                 << stem << ".{so,json}: " << moveError.message() << "\n";
    if (soMoved)
      llvm::sys::fs::remove(soPath);
    return failure();
  }
  pending.committed = true;
  llvm::sys::fs::remove(objectPath);
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  // --mlir-print-ir-after=PASS etc., for debugging a lowering: the options
  // name passes by their argument, so every pass the pipelines use is
  // registered (first: the options read the registry when they are made).
  registerAllPasses();
  moe::registerMoePasses();
  registerPassManagerCLOptions();
  cl::ParseCommandLineOptions(
      argc, argv,
      "moe-compile: compile a moe program (.mlir) into an artifact for "
      "moe-runner\n\n"
      "  moe-compile model.mlir --target=cpu -o build/model\n"
      "writes build/model.so (entry points `void <fn>_packed(void **args)`) "
      "and build/model.json (each entry's arguments: name, role, shape, "
      "dtype; expert-FFN FLOPs). Every public func.func with a body is an "
      "entry; its tensor arguments are inputs and its results outputs.\n");

  bool gpuTarget = target != "cpu";
  if (gpuTarget && !isNvidiaArch(target)) {
    llvm::errs() << "moe-compile: error: unknown target '" << target
                 << "' (known: cpu, sm_<NN>[a] e.g. sm_90a)\n";
    return 2;
  }
  std::string toolkit = cudaToolkit();
  if (gpuTarget && !hasPtxas(toolkit))
    return 2;
  std::string stem = outputStem;
  if (outputStem.getNumOccurrences() == 0)
    stem = llvm::sys::path::stem(inputFile).str();
  if (emit == Emit::Artifact && !checkOutputStem(stem))
    return 1;

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  moe::registerMoeDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point at the source line; a dump of the (half-lowered)
  // operation after each one helps nobody who wrote the input.
  context.printOpOnDiagnostic(false);

  Progress progress(emit == Emit::Artifact ? 5 : 2);
  progress.step("parse and verify " + inputFile);
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    progress.fail();
    llvm::errs() << "moe-compile: error: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  // Runs first (the newest handler does): ends an open progress line so that
  // the diagnostic starts on a line of its own, then lets it through.
  ScopedDiagnosticHandler endProgressLine(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      progress.fail();
    return failure();
  });
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail(progress);
  auto entries = moe::compile::describeEntries(*module);
  if (failed(entries))
    return fail(progress);
  auto grids = moe::compile::describeGrids(*module);
  if (failed(grids))
    return fail(progress);

  progress.step(gpuTarget ? "lower to the LLVM dialect and cubin "
                            "(moe-lower-to-gpu{chip=" + target + "})"
                          : std::string("lower to the LLVM dialect "
                                        "(moe-lower-to-cpu)"));
  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return fail(progress);
  addLowering(pm, gpuTarget, toolkit);
  if (failed(pm.run(*module)) || failed(verify(*module)))
    return fail(progress);
  if (emit == Emit::LoweredMLIR) {
    progress.finish();
    module->print(llvm::outs());
    return 0;
  }

  progress.step("translate to LLVM IR and optimize (O3)");
  llvm::LLVMContext llvmContext;
  auto llvmModule = moe::compile::translateAndOptimize(*module, llvmContext);
  if (failed(llvmModule))
    return fail(progress);
  if (emit == Emit::LLVMIR) {
    progress.finish();
    (*llvmModule)->print(llvm::outs(), nullptr);
    return 0;
  }

  std::string metadata;
  {
    llvm::raw_string_ostream os(metadata);
    moe::compile::writeArtifactJson(os, target, inputFile, *grids, *entries);
  }
  if (failed(moe::compile::embedArtifactMetadata(**llvmModule, metadata)))
    return fail(progress);

  if (failed(writeArtifact(**llvmModule, metadata, stem, progress)))
    return 1;
  progress.finish();
  if (!quiet)
    llvm::errs() << "moe-compile: wrote " << stem << ".so and " << stem << ".json"
                 << " (" << entries->size() << " entr"
                 << (entries->size() == 1 ? "y" : "ies") << ")\n";
  return 0;
}
