//===- Compile.h - compile .mlir files with moe-compile, cached ----------===//
#ifndef MOE_RUNNER_COMPILE_H
#define MOE_RUNNER_COMPILE_H

#include "moe_runtime/Status.h"

#include <string>

namespace moe_runner {

/// Compile `mlirPath` for `target` with moe-compile (`compilerOverride`, or
/// the moe-compile next to this executable) into the cache
/// ${MOE_CACHE_DIR:-$HOME/.cache/moe-mlir}/<hash>/<stem>.{so,json}, unless it
/// is there already; the hash covers the file's contents, the target and the
/// compiler (path, size, mtime). On success *stemOut is the artifact stem.
moert::Status compileCached(const std::string &mlirPath, const std::string &target,
                            const std::string &compilerOverride, std::string *stemOut);

} // namespace moe_runner

#endif // MOE_RUNNER_COMPILE_H
