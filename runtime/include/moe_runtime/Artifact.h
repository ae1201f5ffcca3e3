//===- Artifact.h - compiled artifacts (<stem>.so + <stem>.json) -*- C++ -*-===//
//
// An artifact made by moe-compile is a shared object with one exported C
// function per entry, `void symbol(void **args)`, and a JSON metadata file
// ("format": "moe-artifact-1") describing each entry's arguments in call
// order. See runtime/README.md, "Artifact ABI".
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_ARTIFACT_H
#define MOE_RUNTIME_ARTIFACT_H

#include "moe_runtime/DType.h"
#include "moe_runtime/Json.h"
#include "moe_runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace moert {

constexpr const char *kArtifactFormat = "moe-artifact-1";
/// The exported symbol under which moe-compile embeds the text of the .json
/// it writes (NUL-terminated) in the .so, so that a .json that does not
/// describe the code is caught before buffers of the wrong size reach it.
constexpr const char *kEmbeddedMetadataSymbol = "moe_artifact_metadata";

enum class Role { Input, Weight, Output, Residual, Cotangent, Gradient };

const char *roleName(Role r);
bool parseRole(const std::string &name, Role *out);

struct ArgSpec {
  std::string name;
  Role role = Role::Input;
  bool isInput = true; // io "in": the caller fills it; "out": the callee writes
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
  size_t numElements = 1;
  size_t numBytes = 0;
  /// Expert parallelism ("split_dim", "partial"): each rank holds slice
  /// [s·n, (s+1)·n) of dimension splitDim of the one-rank tensor
  /// (n = shape[splitDim]), s its index among the shards, i.e. its grid
  /// coordinates on splitAxes taken row-major; and/or, with partialSum, a
  /// term of the one-rank value, which is the sum over the ranks that
  /// differ on partialAxes. Empty axes: every axis of the grid (on a 1-D
  /// grid s is the rank). Neither: replicated (every rank's value is the
  /// one-rank value). Residuals are rank-local.
  int splitDim = -1;
  bool partialSum = false;
  std::vector<int64_t> splitAxes, partialAxes;
};

/// A grid of ranks ("grids"); collectives name one by its index.
struct GridSpec {
  std::string name;
  std::vector<int64_t> shape;
};

struct EntrySpec {
  std::string name;
  std::string symbol;
  uint64_t flops = 0;
  /// "fp8": true -- the entry computes through FP8 values (moe-fp8-placement).
  bool fp8 = false;
  std::vector<ArgSpec> args;

  /// The argument called `name`, or null.
  const ArgSpec *findArg(const std::string &name) const;
  /// The residual arguments (role residual) with io "in" (`inputs`) or "out",
  /// in call order.
  std::vector<const ArgSpec *> residuals(bool inputs) const;
};

struct ArtifactSpec {
  std::string format;
  std::string target; // "cpu", "sm_90a", ...
  std::string source;
  std::vector<GridSpec> grids; // empty: one rank
  std::vector<EntrySpec> entries;

  /// The ranks the artifact runs on: the product of every grid's shape (1
  /// without grids).
  int64_t worldSize() const;

  const EntrySpec *findEntry(const std::string &name) const;
  /// "a, b, c".
  std::string entryNames() const;
};

/// The kind of device a target runs on: "cpu" for "cpu", "gpu" for NVIDIA
/// (sm_*) and AMD (gfx*) targets, "" for anything else.
std::string targetDeviceKind(const std::string &target);

/// The VJP entries made by moe-generate-vjp from a forward @f: @f_fwd (f's
/// arguments -> f's results, then residuals) and @f_bwd (the arguments of f
/// its adjoints need, under their own names, and the residuals; then
/// cotangents "d_<result>" -> gradients "d_<argument>"). For "X_bwd" this
/// returns "X_fwd", the entry whose residual outputs feed X_bwd's residual
/// inputs; "" for any other name.
std::string vjpForwardEntryName(const std::string &bwdName);

/// For an input `arg` of a backward entry: the input of `fwd` (X_fwd, or f
/// itself) that it is, i.e. a primal argument the backward takes directly:
/// `arg` is not a residual and `fwd` has an input of the same name, shape and
/// dtype. Null otherwise (then `arg` is an input of its own).
const ArgSpec *sharedForwardInput(const EntrySpec &fwd, const ArgSpec &arg);

/// The entry moe-fp8-weight-inputs made to quantize the expert weights of
/// entry `name`'s layer: "<layer>_quantize_weights", <layer> being `name`
/// without a "_fwd" or "_bwd" suffix; "" when `name` is such an entry.
std::string weightQuantizerEntryName(const std::string &name);

/// For an input `arg` of an entry that takes FP8 weights: the output of
/// `quantizer` (its X_quantize_weights) that it is, i.e. `arg` is a weight
/// and `quantizer` has an output of the same name, shape and dtype. Null
/// otherwise.
const ArgSpec *quantizedWeightOutput(const EntrySpec &quantizer, const ArgSpec &arg);

/// The VJP contract between a forward entry and its backward: `bwd`'s
/// residual inputs are exactly `fwd`'s residual outputs, with the same names,
/// shapes and dtypes, in the same order. The error names the residual and
/// both entries. (Inputs `bwd` shares with `fwd`, sharedForwardInput, are
/// not residuals and not checked here.)
Status checkResidualChain(const EntrySpec &fwd, const EntrySpec &bwd);

/// Validate metadata already parsed from JSON. Errors say what is wrong and
/// where ("entries[1].args[2].shape: ...").
Status parseArtifactSpec(const JsonValue &root, ArtifactSpec *out);
/// Read and validate `<stem>.json`. Errors name the file.
Status loadArtifactSpec(const std::string &jsonPath, ArtifactSpec *out);

struct ArtifactPaths {
  std::string stem; // as given, without .so / .json
  std::string json;
  std::string so;
};

/// ARTIFACT may be given as the stem, the .so or the .json path.
ArtifactPaths artifactPathsFor(const std::string &arg);

/// loadArtifactSpec(paths.json); when there is no such file, the error says
/// what ARTIFACT may be.
Status loadArtifactSpec(const ArtifactPaths &paths, ArtifactSpec *out);

/// Standard deviation of random values for an argument (README, "Random
/// inputs"): input, cotangent and any other role: 1; weight of rank >= 2:
/// 1/sqrt(shape[rank-2]); weight of rank 0 or 1: 0.01.
double randomStddev(const ArgSpec &arg);

using EntryFunction = void (*)(void **);

/// A dlopen()ed artifact shared object.
class SharedLibrary {
public:
  SharedLibrary() = default;
  SharedLibrary(const SharedLibrary &) = delete;
  SharedLibrary &operator=(const SharedLibrary &) = delete;
  ~SharedLibrary();

  /// dlopen(path, RTLD_NOW | RTLD_LOCAL); errors carry dlerror().
  Status open(const std::string &path);
  /// open() the artifact's .so; when there is no such file, the error names
  /// the artifact. Then checkLibraryMatchesSpec.
  Status openArtifact(const ArtifactPaths &paths, const ArtifactSpec &spec);
  /// dlsym; errors carry dlerror().
  Status lookup(const std::string &symbol, EntryFunction *out) const;
  /// The address of `symbol`, or null when the library does not define it.
  const void *findSymbol(const std::string &symbol) const;
  const std::string &path() const { return path_; }

private:
  void *handle_ = nullptr;
  std::string path_;
};

/// Checks that `spec`, read from paths.json, describes the code in `library`:
/// the metadata moe-compile embedded there (kEmbeddedMetadataSymbol) has the
/// same target and the same entries, symbols and arguments (name, role,
/// direction, shape, dtype) in the same order. The error names the first
/// difference. A library without embedded metadata (made by hand, not by
/// moe-compile) is taken as it is.
Status checkLibraryMatchesSpec(const ArtifactPaths &paths,
                               const ArtifactSpec &spec,
                               const SharedLibrary &library);

} // namespace moert

#endif // MOE_RUNTIME_ARTIFACT_H
