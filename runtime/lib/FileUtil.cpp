//===- FileUtil.cpp - small POSIX file helpers ----------------------------===//

#include "moe_runtime/FileUtil.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace moert {

Status readFile(const std::string &path, std::string *out) {
  out->clear();
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status::error(format("cannot open %s: %s", path.c_str(), std::strerror(errno)));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::error(format("cannot read %s: not a regular file", path.c_str()));
  }
  out->resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < out->size()) {
    ssize_t n = ::read(fd, &(*out)[done], out->size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return Status::error(format("cannot read %s: %s", path.c_str(), std::strerror(err)));
    }
    if (n == 0)
      break; // the file shrank meanwhile
    done += static_cast<size_t>(n);
  }
  out->resize(done);
  ::close(fd);
  return Status::success();
}

bool readFully(int fd, void *dst, size_t bytes) {
  char *p = static_cast<char *>(dst);
  while (bytes > 0) {
    ssize_t n = ::read(fd, p, bytes);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    bytes -= static_cast<size_t>(n);
  }
  return true;
}

namespace {
/// What writeFileAtomic names its temporary file: `path`.tmp-PID.
std::string tempPrefixFor(const std::string &path) { return path + ".tmp-"; }
} // namespace

Status writeFileAtomic(const std::string &path,
                       const std::vector<std::pair<const void *, size_t>> &pieces) {
  std::string tmp = format("%s%ld", tempPrefixFor(path).c_str(), static_cast<long>(::getpid()));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return Status::error(format("cannot create %s: %s", tmp.c_str(), std::strerror(errno)));
  for (const auto &piece : pieces) {
    const char *p = static_cast<const char *>(piece.first);
    size_t left = piece.second;
    while (left > 0) {
      ssize_t n = ::write(fd, p, left);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        int err = n < 0 ? errno : EIO;
        ::close(fd);
        ::unlink(tmp.c_str());
        return Status::error(format("cannot write %s: %s", path.c_str(), std::strerror(err)));
      }
      p += n;
      left -= static_cast<size_t>(n);
    }
  }
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Status::error(format("cannot write %s: %s", path.c_str(), std::strerror(err)));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Status::error(format("cannot rename %s to %s: %s", tmp.c_str(),
                                path.c_str(), std::strerror(err)));
  }
  return Status::success();
}

void removeAbandonedTempFiles(const std::string &path) {
  std::string dir = parentPath(path);
  std::string prefix = baseName(tempPrefixFor(path));
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return;
  while (const dirent *entry = ::readdir(d)) {
    std::string name = entry->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0)
      continue;
    char *end = nullptr;
    long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
    if (pid > 0 && end && *end == '\0' && ::kill(static_cast<pid_t>(pid), 0) != 0 &&
        errno == ESRCH)
      ::unlink(joinPath(dir, name).c_str());
  }
  ::closedir(d);
}

Status makeDirectories(const std::string &path) {
  if (path.empty() || isDirectory(path))
    return Status::success();
  std::string parent = parentPath(path);
  if (parent != path && parent != "." && parent != "/")
    MOERT_TRY(makeDirectories(parent));
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
    return Status::error(format("cannot create directory %s: %s", path.c_str(),
                                std::strerror(errno)));
  if (!isDirectory(path))
    return Status::error(format("cannot create directory %s: a file of that name exists",
                                path.c_str()));
  return Status::success();
}

void removeFlatDirectory(const std::string &path) {
  if (DIR *d = ::opendir(path.c_str())) {
    while (struct dirent *e = ::readdir(d)) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0)
        continue;
      ::unlink(joinPath(path, e->d_name).c_str());
    }
    ::closedir(d);
  }
  ::rmdir(path.c_str());
}

bool pathExists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

bool isDirectory(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool isRegularFile(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string joinPath(const std::string &a, const std::string &b) {
  if (a.empty())
    return b;
  if (a.back() == '/')
    return a + b;
  return a + "/" + b;
}

std::string parentPath(const std::string &path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/')
    p.pop_back();
  size_t slash = p.find_last_of('/');
  if (slash == std::string::npos)
    return ".";
  if (slash == 0)
    return "/";
  return p.substr(0, slash);
}

std::string baseName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string currentExecutablePath() {
  char buf[PATH_MAX + 1];
  ssize_t n = ::readlink("/proc/self/exe", buf, PATH_MAX);
  if (n <= 0)
    return "";
  buf[n] = '\0';
  return buf;
}

} // namespace moert
