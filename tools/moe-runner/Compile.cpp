//===- Compile.cpp - compile .mlir files with moe-compile, cached --------===//

#include "Compile.h"

#include "moe_runtime/FileUtil.h"
#include "moe_runtime/Random.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace moert;

namespace moe_runner {

namespace {

Status findCompiler(const std::string &override, std::string *out) {
  std::string path = override;
  if (path.empty()) {
    std::string self = currentExecutablePath();
    if (self.empty())
      return Status::error("cannot locate moe-compile (cannot read /proc/self/exe); "
                           "pass --compiler PATH");
    path = joinPath(parentPath(self), "moe-compile");
    if (!isRegularFile(path))
      return Status::error("cannot find moe-compile next to moe-runner (looked for " +
                           path + "); build it or pass --compiler PATH");
  } else if (!isRegularFile(path)) {
    return Status::error("compiler " + path + " does not exist or is not a file");
  }
  if (::access(path.c_str(), X_OK) != 0)
    return Status::error("compiler " + path + " is not executable");
  *out = path;
  return Status::success();
}

Status cacheRoot(std::string *out) {
  const char *dir = std::getenv("MOE_CACHE_DIR");
  if (dir && *dir) {
    *out = dir;
    return Status::success();
  }
  const char *home = std::getenv("HOME");
  if (!home || !*home)
    return Status::error("neither MOE_CACHE_DIR nor HOME is set: no place for the "
                         "compilation cache");
  *out = joinPath(joinPath(home, ".cache"), "moe-mlir");
  return Status::success();
}

bool artifactComplete(const std::string &stem) {
  return isRegularFile(stem + ".json") && isRegularFile(stem + ".so");
}

/// Run argv[0] with argv, its stdout sent to our stderr (stdout may be JSON).
Status runCompiler(const std::vector<std::string> &args) {
  std::vector<char *> argv;
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid;
  int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    return Status::error(format("cannot run %s: %s", args[0].c_str(), std::strerror(rc)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      return Status::error(format("waiting for %s: %s", args[0].c_str(), std::strerror(errno)));
  }
  std::string cmd;
  for (const std::string &a : args)
    cmd += (cmd.empty() ? "" : " ") + a;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
    return Status::success();
  if (WIFEXITED(status))
    return Status::error(format("compilation failed (exit status %d): %s", WEXITSTATUS(status),
                                cmd.c_str()));
  if (WIFSIGNALED(status))
    return Status::error(format("compilation crashed (signal %d: %s): %s", WTERMSIG(status),
                                strsignal(WTERMSIG(status)), cmd.c_str()));
  return Status::error("compilation failed: " + cmd);
}

} // namespace

Status compileCached(const std::string &mlirPath, const std::string &target,
                     const std::string &compilerOverride, std::string *stemOut) {
  std::string source;
  MOERT_TRY(readFile(mlirPath, &source));
  std::string compiler;
  MOERT_TRY(findCompiler(compilerOverride, &compiler));
  struct stat st;
  if (::stat(compiler.c_str(), &st) != 0)
    return Status::error("cannot stat " + compiler + ": " + std::strerror(errno));

  // The key: what the artifact depends on. The compiler is identified by its
  // path, size and modification time (a rebuilt compiler recompiles).
  std::string key = format("moe-runner cache v1\ntarget=%s\ncompiler=%s\ncompiler-size=%lld\n"
                           "compiler-mtime=%lld.%09ld\nsource-bytes=%zu\n",
                           target.c_str(), compiler.c_str(),
                           static_cast<long long>(st.st_size),
                           static_cast<long long>(st.st_mtim.tv_sec),
                           static_cast<long>(st.st_mtim.tv_nsec), source.size());
  uint64_t h = fnv1a64(key.data(), key.size());
  h = fnv1a64(source.data(), source.size(), h);
  std::string hash = format("%016llx", static_cast<unsigned long long>(h));

  std::string base = baseName(mlirPath);
  std::string stemName = endsWith(base, ".mlir") ? base.substr(0, base.size() - 5) : base;
  if (stemName.empty())
    stemName = "artifact";

  std::string root;
  MOERT_TRY(cacheRoot(&root));
  std::string dir = joinPath(root, hash);
  std::string stem = joinPath(dir, stemName);
  if (artifactComplete(stem)) {
    *stemOut = stem;
    return Status::success();
  }
  if (isDirectory(dir))
    removeFlatDirectory(dir); // incomplete (should not happen: we rename whole dirs)

  MOERT_TRY(makeDirectories(root));
  std::string tmpTemplate = joinPath(root, ".tmp-" + hash + "-XXXXXX");
  std::vector<char> tmpl(tmpTemplate.begin(), tmpTemplate.end());
  tmpl.push_back('\0');
  if (!::mkdtemp(tmpl.data()))
    return Status::error(format("cannot create a directory in %s: %s", root.c_str(),
                                std::strerror(errno)));
  std::string tmp = tmpl.data();
  std::string tmpStem = joinPath(tmp, stemName);

  Status s = runCompiler({compiler, mlirPath, "--target=" + target, "-o", tmpStem});
  if (s.ok() && !artifactComplete(tmpStem))
    s = Status::error(format("%s succeeded but did not write %s.so and %s.json",
                             compiler.c_str(), tmpStem.c_str(), tmpStem.c_str()));
  if (s.ok()) {
    std::string info = key + "source=" + mlirPath + "\n";
    s = writeFileAtomic(joinPath(tmp, "cache-key.txt"), {{info.data(), info.size()}});
  }
  if (!s.ok()) {
    removeFlatDirectory(tmp);
    return s;
  }
  if (::rename(tmp.c_str(), dir.c_str()) != 0) {
    int err = errno;
    removeFlatDirectory(tmp);
    // Another moe-runner may have finished the same compilation first.
    if (!artifactComplete(stem))
      return Status::error(format("cannot move %s to %s: %s", tmp.c_str(), dir.c_str(),
                                  std::strerror(err)));
  }
  *stemOut = stem;
  return Status::success();
}

} // namespace moe_runner
