//===- Artifact.cpp - compiled artifacts ----------------------------------===//

#include "moe_runtime/Artifact.h"

#include "moe_runtime/FileUtil.h"
#include "moe_runtime/Npy.h"

#include <cmath>
#include <dlfcn.h>
#include <limits>

namespace moert {

const char *roleName(Role r) {
  switch (r) {
  case Role::Input: return "input";
  case Role::Weight: return "weight";
  case Role::Output: return "output";
  case Role::Residual: return "residual";
  case Role::Cotangent: return "cotangent";
  case Role::Gradient: return "gradient";
  }
  return "?";
}

bool parseRole(const std::string &name, Role *out) {
  const Role all[] = {Role::Input,    Role::Weight,    Role::Output,
                      Role::Residual, Role::Cotangent, Role::Gradient};
  for (Role r : all) {
    if (name == roleName(r)) {
      *out = r;
      return true;
    }
  }
  return false;
}

const EntrySpec *ArtifactSpec::findEntry(const std::string &name) const {
  for (const EntrySpec &e : entries)
    if (e.name == name)
      return &e;
  return nullptr;
}

int64_t ArtifactSpec::worldSize() const {
  int64_t ranks = 1;
  for (const GridSpec &g : grids)
    for (int64_t d : g.shape)
      ranks *= d;
  return ranks;
}

std::string ArtifactSpec::entryNames() const {
  std::string s;
  for (const EntrySpec &e : entries) {
    if (!s.empty())
      s += ", ";
    s += e.name;
  }
  return s;
}

const ArgSpec *EntrySpec::findArg(const std::string &argName) const {
  for (const ArgSpec &a : args)
    if (a.name == argName)
      return &a;
  return nullptr;
}

std::vector<const ArgSpec *> EntrySpec::residuals(bool inputs) const {
  std::vector<const ArgSpec *> out;
  for (const ArgSpec &a : args)
    if (a.role == Role::Residual && a.isInput == inputs)
      out.push_back(&a);
  return out;
}

std::string vjpForwardEntryName(const std::string &bwdName) {
  if (bwdName.size() <= 4 || !endsWith(bwdName, "_bwd"))
    return "";
  return bwdName.substr(0, bwdName.size() - 4) + "_fwd";
}

std::string weightQuantizerEntryName(const std::string &name) {
  static const std::string kSuffix = "_quantize_weights";
  if (name.empty() || endsWith(name, kSuffix))
    return "";
  std::string layer = name;
  if (layer.size() > 4 && (endsWith(layer, "_fwd") || endsWith(layer, "_bwd")))
    layer.resize(layer.size() - 4);
  return layer + kSuffix;
}

const ArgSpec *quantizedWeightOutput(const EntrySpec &quantizer, const ArgSpec &arg) {
  if (!arg.isInput || arg.role != Role::Weight)
    return nullptr;
  const ArgSpec *from = quantizer.findArg(arg.name);
  if (!from || from->isInput || from->shape != arg.shape || from->dtype != arg.dtype ||
      from->numBytes != arg.numBytes)
    return nullptr;
  return from;
}

const ArgSpec *sharedForwardInput(const EntrySpec &fwd, const ArgSpec &arg) {
  if (!arg.isInput || arg.role == Role::Residual)
    return nullptr;
  const ArgSpec *from = fwd.findArg(arg.name);
  if (!from || !from->isInput || from->role == Role::Residual || from->shape != arg.shape ||
      from->dtype != arg.dtype || from->numBytes != arg.numBytes)
    return nullptr;
  return from;
}

namespace {
std::string argTypeString(const ArgSpec &a) {
  return shapeToString(a.shape) + " " + dtypeName(a.dtype);
}

std::string argNameList(const std::vector<const ArgSpec *> &args) {
  if (args.empty())
    return "none";
  std::string s;
  for (const ArgSpec *a : args)
    s += (s.empty() ? "" : ", ") + a->name;
  return s;
}
} // namespace

Status checkResidualChain(const EntrySpec &fwd, const EntrySpec &bwd) {
  std::vector<const ArgSpec *> outs = fwd.residuals(/*inputs=*/false);
  std::vector<const ArgSpec *> ins = bwd.residuals(/*inputs=*/true);
  auto indexIn = [](const std::vector<const ArgSpec *> &list, const std::string &name) {
    for (size_t i = 0; i < list.size(); ++i)
      if (list[i]->name == name)
        return static_cast<long>(i);
    return -1L;
  };
  for (size_t i = 0; i < ins.size(); ++i) {
    long j = indexIn(outs, ins[i]->name);
    if (j < 0)
      return Status::error(format(
          "entry '%s' takes residual '%s', which entry '%s' does not return (its residual "
          "outputs: %s)",
          bwd.name.c_str(), ins[i]->name.c_str(), fwd.name.c_str(), argNameList(outs).c_str()));
    const ArgSpec &o = *outs[static_cast<size_t>(j)];
    if (o.shape != ins[i]->shape || o.dtype != ins[i]->dtype)
      return Status::error(format("residual '%s' is %s in entry '%s' but %s in entry '%s'",
                                  o.name.c_str(), argTypeString(o).c_str(), fwd.name.c_str(),
                                  argTypeString(*ins[i]).c_str(), bwd.name.c_str()));
  }
  for (const ArgSpec *o : outs)
    if (indexIn(ins, o->name) < 0)
      return Status::error(format(
          "entry '%s' returns residual '%s', which entry '%s' does not take (its residual "
          "inputs: %s)",
          fwd.name.c_str(), o->name.c_str(), bwd.name.c_str(), argNameList(ins).c_str()));
  // The sets of names are equal; check the order.
  for (size_t i = 0; i < ins.size(); ++i)
    if (ins[i]->name != outs[i]->name)
      return Status::error(format(
          "residual '%s' is residual input %zu of entry '%s' but residual output %ld of entry "
          "'%s' (the order must match: %s)",
          ins[i]->name.c_str(), i, bwd.name.c_str(), indexIn(outs, ins[i]->name),
          fwd.name.c_str(), argNameList(outs).c_str()));
  return Status::success();
}

std::string targetDeviceKind(const std::string &target) {
  if (target == "cpu")
    return "cpu";
  if (target.compare(0, 3, "sm_") == 0 || target.compare(0, 3, "gfx") == 0)
    return "gpu";
  return "";
}

namespace {

Status fieldError(const std::string &where, const std::string &what) {
  return Status::error(where + ": " + what);
}

Status getString(const JsonValue &obj, const std::string &key, const std::string &where,
                 std::string *out, bool required = true) {
  const JsonValue *v = obj.get(key);
  if (!v) {
    if (!required)
      return Status::success();
    return fieldError(where, "missing \"" + key + "\"");
  }
  if (!v->isString())
    return fieldError(where + "." + key, format("expected a string, found %s", v->kindName()));
  *out = v->stringValue;
  return Status::success();
}

/// A non-negative integer (a JSON integer, or a float holding one).
Status getCount(const JsonValue &v, const std::string &where, int64_t *out) {
  if (v.isInt()) {
    *out = v.intValue;
  } else if (v.kind == JsonValue::Kind::Double && v.doubleValue == std::floor(v.doubleValue) &&
             v.doubleValue >= 0 && v.doubleValue < 9.2e18) {
    *out = static_cast<int64_t>(v.doubleValue);
  } else {
    return fieldError(where, format("expected a non-negative integer, found %s", v.kindName()));
  }
  if (*out < 0)
    return fieldError(where, format("expected a non-negative integer, found %lld",
                                    static_cast<long long>(*out)));
  return Status::success();
}

/// Names become file names (--inputs, --dump): keep them simple.
Status checkName(const std::string &name, const std::string &where) {
  if (name.empty())
    return fieldError(where, "empty name");
  if (name == "." || name == "..")
    return fieldError(where, "invalid name \"" + name + "\"");
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.';
    if (!ok)
      return fieldError(where, "invalid name " + jsonQuote(name) +
                                   " (allowed: letters, digits, '_', '-', '.')");
  }
  return Status::success();
}

/// "split_axes" / "partial_axes": distinct grid axes, only next to `owner`.
Status parseAxes(const JsonValue &a, const char *key, const char *owner, bool ownerPresent,
                 const std::string &where, std::vector<int64_t> *out) {
  const JsonValue *list = a.get(key);
  if (!list)
    return Status::success();
  std::string at = where + "." + key;
  if (!ownerPresent)
    return fieldError(at, format("given without \"%s\"", owner));
  if (!list->isArray() || list->elements.empty())
    return fieldError(at, "expected a non-empty array of grid axes");
  for (size_t i = 0; i < list->elements.size(); ++i) {
    int64_t axis;
    MOERT_TRY(getCount(list->elements[i], format("%s[%zu]", at.c_str(), i), &axis));
    for (int64_t earlier : *out)
      if (earlier == axis)
        return fieldError(at, format("axis %lld named twice", static_cast<long long>(axis)));
    out->push_back(axis);
  }
  return Status::success();
}

Status parseArg(const JsonValue &a, const std::string &where, ArgSpec *out) {
  if (!a.isObject())
    return fieldError(where, format("expected an object, found %s", a.kindName()));
  MOERT_TRY(getString(a, "name", where, &out->name));
  MOERT_TRY(checkName(out->name, where + ".name"));
  std::string role, io, dtype;
  MOERT_TRY(getString(a, "role", where, &role));
  if (!parseRole(role, &out->role))
    return fieldError(where + ".role", "unknown role " + jsonQuote(role) +
                                           " (expected input, weight, output, residual, "
                                           "cotangent or gradient)");
  MOERT_TRY(getString(a, "io", where, &io));
  if (io != "in" && io != "out")
    return fieldError(where + ".io", "expected \"in\" or \"out\", found " + jsonQuote(io));
  out->isInput = io == "in";
  MOERT_TRY(getString(a, "dtype", where, &dtype));
  if (!parseDType(dtype, &out->dtype))
    return fieldError(where + ".dtype", "unknown dtype " + jsonQuote(dtype) + " (expected " +
                                            allDTypeNames() + ")");
  const JsonValue *shape = a.get("shape");
  if (!shape)
    return fieldError(where, "missing \"shape\"");
  if (!shape->isArray())
    return fieldError(where + ".shape", format("expected an array, found %s", shape->kindName()));
  if (shape->elements.size() > 16)
    return fieldError(where + ".shape", "more than 16 dimensions");
  out->shape.clear();
  size_t count = 1;
  bool overflow = false;
  for (size_t i = 0; i < shape->elements.size(); ++i) {
    int64_t d;
    MOERT_TRY(getCount(shape->elements[i], format("%s.shape[%zu]", where.c_str(), i), &d));
    out->shape.push_back(d);
    size_t next;
    if (__builtin_mul_overflow(count, static_cast<size_t>(d), &next))
      overflow = true;
    count = next;
  }
  size_t bytes = 0;
  if (overflow || __builtin_mul_overflow(count, dtypeSize(out->dtype), &bytes) ||
      bytes > (size_t(1) << 48))
    return fieldError(where + ".shape", "buffer size overflows (shape too large)");
  out->numElements = count;
  out->numBytes = bytes;
  if (const JsonValue *split = a.get("split_dim")) {
    int64_t dim;
    MOERT_TRY(getCount(*split, where + ".split_dim", &dim));
    if (dim >= static_cast<int64_t>(out->shape.size()))
      return fieldError(where + ".split_dim",
                        format("dimension %lld of a tensor of rank %zu",
                               static_cast<long long>(dim), out->shape.size()));
    out->splitDim = static_cast<int>(dim);
  }
  if (const JsonValue *partial = a.get("partial")) {
    if (!partial->isString() || partial->stringValue != "sum")
      return fieldError(where + ".partial",
                        "expected \"sum\", found " + (partial->isString()
                                                          ? jsonQuote(partial->stringValue)
                                                          : std::string(partial->kindName())));
    out->partialSum = true;
  }
  MOERT_TRY(parseAxes(a, "split_axes", "split_dim", out->splitDim >= 0, where, &out->splitAxes));
  MOERT_TRY(parseAxes(a, "partial_axes", "partial", out->partialSum, where, &out->partialAxes));
  if (out->splitDim >= 0 && out->partialSum) {
    bool disjoint = !out->splitAxes.empty() && !out->partialAxes.empty();
    for (int64_t axis : out->splitAxes)
      for (int64_t other : out->partialAxes)
        disjoint &= axis != other;
    if (!disjoint)
      return fieldError(where, "both \"split_dim\" and \"partial\" over the same axes: a "
                               "value is split or a partial sum over an axis, not both");
  }
  return Status::success();
}

/// "grids": [{"name": N, "shape": [positive sizes]}], names distinct.
Status parseGrids(const JsonValue &root, std::vector<GridSpec> *out) {
  const JsonValue *grids = root.get("grids");
  if (!grids)
    return Status::success();
  if (!grids->isArray())
    return fieldError("grids", format("expected an array, found %s", grids->kindName()));
  for (size_t i = 0; i < grids->elements.size(); ++i) {
    const JsonValue &g = grids->elements[i];
    std::string where = format("grids[%zu]", i);
    if (!g.isObject())
      return fieldError(where, format("expected an object, found %s", g.kindName()));
    GridSpec grid;
    MOERT_TRY(getString(g, "name", where, &grid.name));
    MOERT_TRY(checkName(grid.name, where + ".name"));
    for (const GridSpec &prev : *out)
      if (prev.name == grid.name)
        return fieldError(where + ".name", "duplicate grid " + jsonQuote(grid.name));
    const JsonValue *shape = g.get("shape");
    if (!shape)
      return fieldError(where, "missing \"shape\"");
    if (!shape->isArray() || shape->elements.empty())
      return fieldError(where + ".shape", "expected a non-empty array of sizes");
    int64_t ranks = 1;
    for (size_t j = 0; j < shape->elements.size(); ++j) {
      std::string dimWhere = format("%s.shape[%zu]", where.c_str(), j);
      int64_t d;
      MOERT_TRY(getCount(shape->elements[j], dimWhere, &d));
      if (d < 1 || d > 65536)
        return fieldError(dimWhere, format("a grid axis has 1 to 65536 ranks, not %lld",
                                           static_cast<long long>(d)));
      ranks *= d;
      if (ranks > 65536)
        return fieldError(where + ".shape", "more than 65536 ranks");
      grid.shape.push_back(d);
    }
    out->push_back(std::move(grid));
  }
  return Status::success();
}

/// Named axes belong to the artifact's one grid.
Status checkArgAxes(const ArgSpec &arg, const std::vector<GridSpec> &grids,
                    const std::string &where) {
  if (arg.splitAxes.empty() && arg.partialAxes.empty())
    return Status::success();
  if (grids.size() != 1)
    return fieldError(where, format("names grid axes, but the artifact has %zu grids (axes "
                                    "refer to its one grid)",
                                    grids.size()));
  for (const std::vector<int64_t> *axes : {&arg.splitAxes, &arg.partialAxes})
    for (int64_t axis : *axes)
      if (axis >= static_cast<int64_t>(grids[0].shape.size()))
        return fieldError(where, format("axis %lld does not exist in grid %s of rank %zu",
                                        static_cast<long long>(axis), grids[0].name.c_str(),
                                        grids[0].shape.size()));
  return Status::success();
}

} // namespace

Status parseArtifactSpec(const JsonValue &root, ArtifactSpec *out) {
  *out = ArtifactSpec();
  if (!root.isObject())
    return Status::error(format("expected a JSON object at the top level, found %s",
                                root.kindName()));
  const JsonValue *fmt = root.get("format");
  if (!fmt || !fmt->isString())
    return Status::error(format("missing \"format\": not a moe-compile artifact (expected "
                                "\"format\": \"%s\")",
                                kArtifactFormat));
  if (fmt->stringValue != kArtifactFormat)
    return Status::error("unsupported artifact format " + jsonQuote(fmt->stringValue) +
                         " (this moe-runner reads \"" + kArtifactFormat + "\")");
  out->format = fmt->stringValue;
  MOERT_TRY(getString(root, "target", "artifact", &out->target));
  if (targetDeviceKind(out->target).empty())
    return fieldError("target", "unknown target " + jsonQuote(out->target) +
                                    " (expected cpu or an sm_* GPU target)");
  MOERT_TRY(getString(root, "source", "artifact", &out->source, /*required=*/false));
  MOERT_TRY(parseGrids(root, &out->grids));
  const JsonValue *entries = root.get("entries");
  if (!entries)
    return Status::error("missing \"entries\"");
  if (!entries->isArray())
    return fieldError("entries", format("expected an array, found %s", entries->kindName()));
  if (entries->elements.empty())
    return fieldError("entries", "the artifact has no entries");
  for (size_t i = 0; i < entries->elements.size(); ++i) {
    const JsonValue &e = entries->elements[i];
    std::string where = format("entries[%zu]", i);
    if (!e.isObject())
      return fieldError(where, format("expected an object, found %s", e.kindName()));
    EntrySpec entry;
    MOERT_TRY(getString(e, "name", where, &entry.name));
    MOERT_TRY(checkName(entry.name, where + ".name"));
    if (out->findEntry(entry.name))
      return fieldError(where + ".name", "duplicate entry " + jsonQuote(entry.name));
    MOERT_TRY(getString(e, "symbol", where, &entry.symbol));
    if (entry.symbol.empty())
      return fieldError(where + ".symbol", "empty symbol");
    if (const JsonValue *flops = e.get("flops")) {
      int64_t f;
      MOERT_TRY(getCount(*flops, where + ".flops", &f));
      entry.flops = static_cast<uint64_t>(f);
    }
    if (const JsonValue *fp8 = e.get("fp8")) {
      if (!fp8->isBool())
        return fieldError(where + ".fp8", format("expected true or false, found %s", fp8->kindName()));
      entry.fp8 = fp8->boolValue;
    }
    const JsonValue *args = e.get("args");
    if (!args)
      return fieldError(where, "missing \"args\"");
    if (!args->isArray())
      return fieldError(where + ".args", format("expected an array, found %s", args->kindName()));
    for (size_t j = 0; j < args->elements.size(); ++j) {
      std::string argWhere = format("%s.args[%zu]", where.c_str(), j);
      ArgSpec arg;
      MOERT_TRY(parseArg(args->elements[j], argWhere, &arg));
      for (const ArgSpec &prev : entry.args)
        if (prev.name == arg.name)
          return fieldError(argWhere + ".name", "duplicate argument " + jsonQuote(arg.name));
      MOERT_TRY(checkArgAxes(arg, out->grids, argWhere));
      entry.args.push_back(std::move(arg));
    }
    out->entries.push_back(std::move(entry));
  }
  return Status::success();
}

Status loadArtifactSpec(const std::string &jsonPath, ArtifactSpec *out) {
  std::string text;
  MOERT_TRY(readFile(jsonPath, &text));
  JsonValue root;
  Status s = parseJson(text, &root);
  if (!s.ok())
    return Status::error(jsonPath + ": invalid JSON: " + s.message());
  return parseArtifactSpec(root, out).withPrefix(jsonPath);
}

ArtifactPaths artifactPathsFor(const std::string &arg) {
  ArtifactPaths p;
  p.stem = arg;
  if (endsWith(arg, ".so"))
    p.stem = arg.substr(0, arg.size() - 3);
  else if (endsWith(arg, ".json"))
    p.stem = arg.substr(0, arg.size() - 5);
  p.json = p.stem + ".json";
  p.so = p.stem + ".so";
  return p;
}

Status loadArtifactSpec(const ArtifactPaths &paths, ArtifactSpec *out) {
  if (!pathExists(paths.json))
    return Status::error(format("cannot find artifact metadata %s (ARTIFACT is the stem, .so or "
                                ".json written by moe-compile -o STEM)",
                                paths.json.c_str()));
  return loadArtifactSpec(paths.json, out);
}

double randomStddev(const ArgSpec &arg) {
  if (arg.role == Role::Weight) {
    size_t rank = arg.shape.size();
    if (rank >= 2) {
      int64_t fanIn = arg.shape[rank - 2];
      return fanIn > 0 ? 1.0 / std::sqrt(static_cast<double>(fanIn)) : 1.0;
    }
    return 0.01;
  }
  return 1.0;
}

SharedLibrary::~SharedLibrary() {
  // Artifacts stay loaded until exit: code they started (threads, atexit
  // handlers) may still refer to them.
}

Status SharedLibrary::open(const std::string &path) {
  // Without a '/', dlopen searches the library path instead of the file.
  std::string p = path.find('/') == std::string::npos ? "./" + path : path;
  ::dlerror();
  void *h = ::dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = ::dlerror();
    return Status::error(format("cannot load %s: %s", path.c_str(), e ? e : "unknown error"));
  }
  handle_ = h;
  path_ = path;
  return Status::success();
}

Status SharedLibrary::openArtifact(const ArtifactPaths &paths,
                                   const ArtifactSpec &spec) {
  if (!isRegularFile(paths.so))
    return Status::error(format("cannot find %s, the shared object of artifact %s",
                                paths.so.c_str(), paths.stem.c_str()));
  MOERT_TRY(open(paths.so));
  return checkLibraryMatchesSpec(paths, spec, *this);
}

const void *SharedLibrary::findSymbol(const std::string &symbol) const {
  return handle_ ? ::dlsym(handle_, symbol.c_str()) : nullptr;
}

Status SharedLibrary::lookup(const std::string &symbol, EntryFunction *out) const {
  if (!handle_)
    return Status::error("no library loaded");
  ::dlerror();
  void *sym = ::dlsym(handle_, symbol.c_str());
  const char *e = ::dlerror();
  if (e || !sym)
    return Status::error(format("symbol %s not found in %s: %s", symbol.c_str(), path_.c_str(),
                                e ? e : "null symbol"));
  // POSIX guarantees object <-> function pointer conversion for dlsym.
  *out = reinterpret_cast<EntryFunction>(sym);
  return Status::success();
}

namespace {
/// "name: role, io, [shape] dtype" of an argument.
std::string describeArg(const ArgSpec &a) {
  auto axes = [](const std::vector<int64_t> &list) {
    std::string text;
    for (int64_t axis : list)
      text += (text.empty() ? " over axes " : ",") + std::to_string(axis);
    return text;
  };
  std::string layout;
  if (a.splitDim >= 0)
    layout += format(", split_dim %d", a.splitDim) + axes(a.splitAxes);
  if (a.partialSum)
    layout += ", partial sum" + axes(a.partialAxes);
  return a.name + ": " + roleName(a.role) + ", " + (a.isInput ? "in" : "out") + ", " +
         argTypeString(a) + layout;
}

std::string describeGrids(const ArtifactSpec &spec) {
  std::string s;
  for (const GridSpec &g : spec.grids)
    s += (s.empty() ? "" : ", ") + g.name + shapeToString(g.shape);
  return s.empty() ? "none" : s;
}
} // namespace

Status checkLibraryMatchesSpec(const ArtifactPaths &paths,
                               const ArtifactSpec &spec,
                               const SharedLibrary &library) {
  const char *embedded =
      static_cast<const char *>(library.findSymbol(kEmbeddedMetadataSymbol));
  if (!embedded)
    return Status::success();
  JsonValue root;
  ArtifactSpec built;
  Status readable = parseJson(embedded, &root);
  if (readable.ok())
    readable = parseArtifactSpec(root, &built);
  if (!readable.ok())
    return Status::error(
        format("%s: the metadata moe-compile embedded (%s) is unreadable: %s",
               library.path().c_str(), kEmbeddedMetadataSymbol,
               readable.message().c_str()));
  auto mismatch = [&](const std::string &what) {
    return Status::error(
        format("%s does not describe %s (it is not the .json moe-compile "
               "wrote with it): %s",
               paths.json.c_str(), library.path().c_str(), what.c_str()));
  };
  if (spec.target != built.target)
    return mismatch("target " + jsonQuote(spec.target) +
                    ", but the code is for " + jsonQuote(built.target));
  if (describeGrids(spec) != describeGrids(built))
    return mismatch("grids " + describeGrids(spec) + ", but the code's are " +
                    describeGrids(built));
  if (spec.entries.size() != built.entries.size())
    return mismatch(format("%zu entries, but the code has %zu (%s)",
                           spec.entries.size(), built.entries.size(),
                           built.entryNames().c_str()));
  for (size_t i = 0; i < spec.entries.size(); ++i) {
    const EntrySpec &e = spec.entries[i], &b = built.entries[i];
    if (e.name != b.name || e.symbol != b.symbol)
      return mismatch(
          format("entries[%zu] is '%s' (symbol %s), but the code's is '%s' "
                 "(symbol %s)",
                 i, e.name.c_str(), e.symbol.c_str(), b.name.c_str(),
                 b.symbol.c_str()));
    if (e.args.size() != b.args.size())
      return mismatch(
          format("entry '%s' has %zu arguments, but the code takes %zu",
                 e.name.c_str(), e.args.size(), b.args.size()));
    for (size_t j = 0; j < e.args.size(); ++j) {
      std::string have = describeArg(e.args[j]), want = describeArg(b.args[j]);
      if (have != want)
        return mismatch(
            format("entry '%s' argument %zu is {%s}, but the code takes {%s}",
                   e.name.c_str(), j, have.c_str(), want.c_str()));
    }
  }
  return Status::success();
}

} // namespace moert
