//===- Inputs.cpp - the input arguments of an entry -----------------------===//

#include "moe_runtime/Inputs.h"

#include "moe_runtime/DType.h"
#include "moe_runtime/FileUtil.h"
#include "moe_runtime/Npy.h"
#include "moe_runtime/Random.h"

namespace moert {

std::string findInputFile(const std::string &inputsDir, const std::string &entryName,
                          const std::string &argName) {
  if (inputsDir.empty())
    return "";
  std::string perEntry = joinPath(joinPath(inputsDir, entryName), argName + ".npy");
  if (isRegularFile(perEntry))
    return perEntry;
  std::string flat = joinPath(inputsDir, argName + ".npy");
  if (isRegularFile(flat))
    return flat;
  return "";
}

Status planInput(const std::string &inputsDir, const EntrySpec &entry, const ArgSpec &arg,
                 std::string *npyPath) {
  *npyPath = findInputFile(inputsDir, entry.name, arg.name);
  if (npyPath->empty() && !isFloatDType(arg.dtype)) {
    std::string where =
        inputsDir.empty()
            ? std::string("pass --inputs DIR with ") + arg.name + ".npy"
            : "no " + joinPath(inputsDir, arg.name + ".npy") + " (or " +
                  joinPath(joinPath(inputsDir, entry.name), arg.name + ".npy") + ")";
    return Status::error(format("entry '%s': input '%s' has integer type %s, which cannot be "
                                "made up at random; %s",
                                entry.name.c_str(), arg.name.c_str(), dtypeName(arg.dtype),
                                where.c_str()));
  }
  return Status::success();
}

Status loadInputNpy(const EntrySpec &entry, const ArgSpec &arg, const std::string &npyPath,
                    void *dst) {
  std::string what = format("entry '%s', input '%s' (%s %s)", entry.name.c_str(),
                            arg.name.c_str(), shapeToString(arg.shape).c_str(),
                            dtypeName(arg.dtype));
  NpyArray npy;
  MOERT_TRY(readNpy(npyPath, &npy).withPrefix(what));
  if (npy.shape != arg.shape)
    return Status::error(format("%s: %s has shape %s (%s), expected shape %s", what.c_str(),
                                npyPath.c_str(), shapeToString(npy.shape).c_str(),
                                npy.typeName().c_str(), shapeToString(arg.shape).c_str()));
  return convertNpyTo(npy, arg.dtype, dst)
      .withPrefix(format("%s: cannot convert %s (%s) to %s", what.c_str(), npyPath.c_str(),
                         npy.typeName().c_str(), dtypeName(arg.dtype)));
}

Status fillRandomInput(const EntrySpec &entry, const ArgSpec &arg, uint64_t seed, void *dst) {
  if (!isFloatDType(arg.dtype))
    return Status::error(format("entry '%s', input '%s': integer type %s cannot be random",
                                entry.name.c_str(), arg.name.c_str(), dtypeName(arg.dtype)));
  return fillNormal(dst, arg.dtype, arg.numElements, randomStddev(arg),
                    argumentStreamSeed(seed, arg.name))
      .withPrefix(format("entry '%s', input '%s'", entry.name.c_str(), arg.name.c_str()));
}

Status makeInput(const EntrySpec &entry, const ArgSpec &arg, const std::string &npyPath,
                 uint64_t seed, void *dst) {
  if (!npyPath.empty())
    return loadInputNpy(entry, arg, npyPath, dst);
  return fillRandomInput(entry, arg, seed, dst);
}

} // namespace moert
