//===- Inputs.h - the input arguments of an entry ---------------*- C++ -*-===//
//
// How moe-runner (and every tool that must agree with it, such as
// moe-gradcheck) makes an entry's input arguments: from `--inputs DIR`
// (DIR/<entry>/<name>.npy, else DIR/<name>.npy) or seeded random values
// (Random.h; stddev from randomStddev()). Integer and i1 inputs are never
// random. See runtime/README.md, "Random inputs" and ".npy".
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_INPUTS_H
#define MOE_RUNTIME_INPUTS_H

#include "moe_runtime/Artifact.h"
#include "moe_runtime/Status.h"

#include <cstdint>
#include <string>

namespace moert {

/// The .npy file for argument `argName` of entry `entryName` under
/// `inputsDir`: DIR/<entry>/<name>.npy if it is a regular file, else
/// DIR/<name>.npy if it is, else "" (also when `inputsDir` is "").
std::string findInputFile(const std::string &inputsDir, const std::string &entryName,
                          const std::string &argName);

/// Where input `arg` of `entry` comes from: `*npyPath` = findInputFile(...),
/// "" meaning random. An integer or i1 input without a file is an error that
/// says which file to provide.
Status planInput(const std::string &inputsDir, const EntrySpec &entry, const ArgSpec &arg,
                 std::string *npyPath);

/// Read `npyPath` into `dst` (arg.numBytes bytes): the shape must equal the
/// argument's; values are converted to its dtype (Npy.h rules). Errors start
/// with "entry 'E', input 'N' ([shape] dtype)".
Status loadInputNpy(const EntrySpec &entry, const ArgSpec &arg, const std::string &npyPath,
                    void *dst);

/// Fill float argument `arg` at `dst` with the run's seeded random values:
/// N(0, randomStddev(arg)^2) from stream argumentStreamSeed(seed, arg.name).
Status fillRandomInput(const EntrySpec &entry, const ArgSpec &arg, uint64_t seed, void *dst);

/// Make input `arg` of `entry` at `dst` as planInput decided: from
/// `npyPath` (loadInputNpy), or random (fillRandomInput) when it is "".
Status makeInput(const EntrySpec &entry, const ArgSpec &arg, const std::string &npyPath,
                 uint64_t seed, void *dst);

} // namespace moert

#endif // MOE_RUNTIME_INPUTS_H
