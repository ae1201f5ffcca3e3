//===- FileUtil.h - small POSIX file helpers --------------------*- C++ -*-===//
#ifndef MOE_RUNTIME_FILEUTIL_H
#define MOE_RUNTIME_FILEUTIL_H

#include "moe_runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace moert {

/// Read a whole regular file. Errors name the path and the reason.
Status readFile(const std::string &path, std::string *out);

/// Write the concatenation of `pieces` to `path` atomically: into a temporary
/// file next to it, then rename. On failure nothing is left behind.
Status writeFileAtomic(const std::string &path,
                       const std::vector<std::pair<const void *, size_t>> &pieces);

/// Removes the temporary files that writeFileAtomic(`path`, ...) left in
/// processes that no longer run (killed while writing); best effort.
void removeAbandonedTempFiles(const std::string &path);

/// Reads exactly `bytes` bytes from `fd` into `dst` (retrying interrupted
/// and short reads); false on an error or an early end of file.
bool readFully(int fd, void *dst, size_t bytes);

/// mkdir -p.
Status makeDirectories(const std::string &path);
/// Remove a directory and the files directly inside it (not recursive into
/// subdirectories); best effort.
void removeFlatDirectory(const std::string &path);

bool pathExists(const std::string &path);
bool isDirectory(const std::string &path);
bool isRegularFile(const std::string &path);

std::string joinPath(const std::string &a, const std::string &b);
/// "a/b/c.so" -> "a/b"; "c.so" -> ".".
std::string parentPath(const std::string &path);
/// "a/b/c.so" -> "c.so".
std::string baseName(const std::string &path);
bool endsWith(const std::string &s, const std::string &suffix);

/// The running executable's path (/proc/self/exe), or "" if unknown.
std::string currentExecutablePath();

} // namespace moert

#endif // MOE_RUNTIME_FILEUTIL_H
