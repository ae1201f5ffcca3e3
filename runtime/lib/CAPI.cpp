//===- CAPI.cpp - libmoe_runtime C ABI ------------------------------------===//

#include "moe_runtime/moe_runtime.h"

#include "moe_runtime/Artifact.h"
#include "moe_runtime/DType.h"
#include "moe_runtime/Npy.h"
#include "moe_runtime/Random.h"
#include "moe_runtime/Timing.h"

#include <memory>
#include <new>
#include <string>

using namespace moert;

struct moert_artifact {
  ArtifactSpec spec;
  SharedLibrary library;
};

namespace {

thread_local std::string lastError;

int fail(const Status &s) {
  lastError = s.message();
  return -1;
}

bool validDType(moert_dtype t) {
  return static_cast<int>(t) >= 0 && static_cast<int>(t) < kNumDTypes;
}

DType toDType(moert_dtype t) { return static_cast<DType>(static_cast<int>(t)); }

bool shapeFrom(const int64_t *shape, int rank, std::vector<int64_t> *out) {
  if (rank < 0 || (rank > 0 && !shape))
    return false;
  out->assign(shape, shape + rank);
  for (int64_t d : *out)
    if (d < 0)
      return false;
  return true;
}

const EntrySpec *entryAt(const moert_artifact *a, int entry) {
  if (!a || entry < 0 || static_cast<size_t>(entry) >= a->spec.entries.size())
    return nullptr;
  return &a->spec.entries[static_cast<size_t>(entry)];
}

} // namespace

extern "C" {

int moert_abi_version(void) { return MOERT_ABI_VERSION; }

const char *moert_last_error(void) { return lastError.c_str(); }

size_t moert_dtype_size(moert_dtype t) { return validDType(t) ? dtypeSize(toDType(t)) : 0; }

const char *moert_dtype_name(moert_dtype t) {
  return validDType(t) ? dtypeName(toDType(t)) : nullptr;
}

int moert_dtype_from_name(const char *name, moert_dtype *out) {
  DType t;
  if (!name || !out || !parseDType(name, &t))
    return fail(Status::error(format("unknown dtype '%s'", name ? name : "(null)")));
  *out = static_cast<moert_dtype>(static_cast<int>(t));
  return 0;
}

uint16_t moert_f64_to_bf16(double v) { return roundToBF16(v); }
uint16_t moert_f64_to_f16(double v) { return roundToF16(v); }
uint8_t moert_f64_to_f8e4m3(double v) { return roundToF8E4M3(v); }
uint8_t moert_f64_to_f8e5m2(double v) { return roundToF8E5M2(v); }
uint8_t moert_f64_to_f8e8m0(double v) { return roundToF8E8M0(v); }
double moert_bf16_to_f64(uint16_t b) { return bf16ToDouble(b); }
double moert_f16_to_f64(uint16_t b) { return f16ToDouble(b); }
double moert_f8e4m3_to_f64(uint8_t b) { return f8e4m3ToDouble(b); }
double moert_f8e5m2_to_f64(uint8_t b) { return f8e5m2ToDouble(b); }
double moert_f8e8m0_to_f64(uint8_t b) { return f8e8m0ToDouble(b); }

uint64_t moert_splitmix64(uint64_t x) { return splitmix64(x); }
uint64_t moert_fnv1a64(const void *data, size_t size) {
  return fnv1a64(data, data ? size : 0);
}
uint64_t moert_stream_seed(uint64_t seed, const char *name) {
  return argumentStreamSeed(seed, name ? name : "");
}

int moert_fill_normal(void *dst, moert_dtype t, size_t count, double stddev,
                      uint64_t streamSeed) {
  if (!validDType(t) || (!dst && count))
    return fail(Status::error("moert_fill_normal: invalid arguments"));
  Status s = fillNormal(dst, toDType(t), count, stddev, streamSeed);
  return s.ok() ? 0 : fail(s);
}

int moert_npy_read(const char *path, moert_dtype t, const int64_t *shape, int rank,
                   void *dst) {
  std::vector<int64_t> want;
  if (!path || !validDType(t) || !shapeFrom(shape, rank, &want) || !dst)
    return fail(Status::error("moert_npy_read: invalid arguments"));
  NpyArray a;
  Status s = readNpy(path, &a);
  if (!s.ok())
    return fail(s);
  if (a.shape != want)
    return fail(Status::error(format("%s: shape %s, expected %s", path,
                                     shapeToString(a.shape).c_str(),
                                     shapeToString(want).c_str())));
  s = convertNpyTo(a, toDType(t), dst);
  return s.ok() ? 0 : fail(s.withPrefix(path));
}

int moert_npy_write(const char *path, moert_dtype t, const int64_t *shape, int rank,
                    const void *data) {
  std::vector<int64_t> dims;
  if (!path || !validDType(t) || !shapeFrom(shape, rank, &dims) || !data)
    return fail(Status::error("moert_npy_write: invalid arguments"));
  Status s = writeNpy(path, toDType(t), dims, data);
  return s.ok() ? 0 : fail(s);
}

moert_artifact *moert_artifact_open(const char *path) {
  if (!path) {
    fail(Status::error("moert_artifact_open: null path"));
    return nullptr;
  }
  std::unique_ptr<moert_artifact> a(new (std::nothrow) moert_artifact());
  if (!a) {
    fail(Status::error("out of memory"));
    return nullptr;
  }
  ArtifactPaths paths = artifactPathsFor(path);
  Status s = loadArtifactSpec(paths.json, &a->spec);
  if (s.ok() && targetDeviceKind(a->spec.target) != "cpu")
    s = Status::error(format("artifact %s was compiled for target %s, not cpu",
                             paths.stem.c_str(), a->spec.target.c_str()));
  if (s.ok())
    s = a->library.open(paths.so);
  if (s.ok())
    s = checkLibraryMatchesSpec(paths, a->spec, a->library);
  if (!s.ok()) {
    fail(s);
    return nullptr;
  }
  return a.release();
}

void moert_artifact_close(moert_artifact *a) { delete a; }

const char *moert_artifact_target(const moert_artifact *a) {
  return a ? a->spec.target.c_str() : nullptr;
}

int moert_artifact_num_entries(const moert_artifact *a) {
  return a ? static_cast<int>(a->spec.entries.size()) : 0;
}

int moert_artifact_find_entry(const moert_artifact *a, const char *name) {
  if (!a || !name)
    return -1;
  for (size_t i = 0; i < a->spec.entries.size(); ++i)
    if (a->spec.entries[i].name == name)
      return static_cast<int>(i);
  return -1;
}

const char *moert_artifact_entry_name(const moert_artifact *a, int entry) {
  const EntrySpec *e = entryAt(a, entry);
  return e ? e->name.c_str() : nullptr;
}

uint64_t moert_artifact_entry_flops(const moert_artifact *a, int entry) {
  const EntrySpec *e = entryAt(a, entry);
  return e ? e->flops : 0;
}

int moert_artifact_num_args(const moert_artifact *a, int entry) {
  const EntrySpec *e = entryAt(a, entry);
  return e ? static_cast<int>(e->args.size()) : -1;
}

int moert_artifact_arg_info(const moert_artifact *a, int entry, int arg,
                            moert_arg_info *out) {
  const EntrySpec *e = entryAt(a, entry);
  if (!e || !out || arg < 0 || static_cast<size_t>(arg) >= e->args.size())
    return fail(Status::error("moert_artifact_arg_info: invalid arguments"));
  const ArgSpec &s = e->args[static_cast<size_t>(arg)];
  out->name = s.name.c_str();
  out->role = roleName(s.role);
  out->is_input = s.isInput ? 1 : 0;
  out->dtype = static_cast<moert_dtype>(static_cast<int>(s.dtype));
  out->rank = static_cast<int>(s.shape.size());
  out->shape = s.shape.data();
  out->num_elements = s.numElements;
  out->num_bytes = s.numBytes;
  return 0;
}

moert_entry_fn moert_artifact_entry_function(moert_artifact *a, int entry) {
  const EntrySpec *e = entryAt(a, entry);
  if (!e) {
    fail(Status::error("moert_artifact_entry_function: invalid entry"));
    return nullptr;
  }
  EntryFunction fn = nullptr;
  Status s = a->library.lookup(e->symbol, &fn);
  if (!s.ok()) {
    fail(s);
    return nullptr;
  }
  return fn;
}

uint64_t moert_now_ns(void) { return nowNanoseconds(); }

} // extern "C"
