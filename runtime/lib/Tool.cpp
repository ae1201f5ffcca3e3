//===- Tool.cpp - what the runtime's command-line tools share -------------===//

#include "moe_runtime/Tool.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace moert {

namespace {
const char *toolName = "moe-runtime";
bool progressOn = false;
const auto startTime = std::chrono::steady_clock::now();
} // namespace

void setToolName(const char *name) { toolName = name; }

void usageError(const std::string &msg) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: %s\nRun '%s --help' for usage.\n", toolName, msg.c_str(),
               toolName);
  std::exit(kExitUsage);
}

void fatal(const std::string &msg) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: %s\n", toolName, msg.c_str());
  std::exit(kExitError);
}

void check(const Status &s) {
  if (!s.ok())
    fatal(s.message());
}

void warning(const std::string &msg) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: warning: %s\n", toolName, msg.c_str());
}

void enableProgress(bool on) { progressOn = on; }
bool progressEnabled() { return progressOn; }

void progress(const std::string &msg) {
  if (!progressOn)
    return;
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - startTime).count();
  std::fflush(stdout);
  std::fprintf(stderr, "%s: [%7.1f s] %s\n", toolName, s, msg.c_str());
  std::fflush(stderr);
}

void finishReport() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    fatal(format("cannot write the report: %s", std::strerror(errno)));
}

std::vector<std::string> cudaVisibleDevices() {
  std::vector<std::string> ids;
  const char *visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!visible || !*visible)
    return ids;
  std::string all = visible;
  size_t begin = 0;
  for (size_t comma; (comma = all.find(',', begin)) != std::string::npos; begin = comma + 1)
    ids.push_back(all.substr(begin, comma - begin));
  ids.push_back(all.substr(begin));
  return ids;
}

bool parseUnsigned(const std::string &text, uint64_t *out) {
  if (text.empty() || text[0] == '-' || text[0] == '+' || text[0] == ' ')
    return false;
  bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  errno = 0;
  char *end = nullptr;
  unsigned long long v = std::strtoull(text.c_str() + (hex ? 2 : 0), &end, hex ? 16 : 10);
  if (errno != 0 || !end || *end != '\0')
    return false;
  *out = v;
  return true;
}

ArtifactCommandLine::ArtifactCommandLine(int argc, char **argv, const char *help)
    : argc_(argc), argv_(argv), help_(help) {}

bool ArtifactCommandLine::nextFlag() {
  while (next_ < argc_) {
    arg_ = argv_[next_++];
    if (noMoreFlags_ || arg_.empty() || arg_[0] != '-' || arg_ == "-") {
      if (!artifact_.empty())
        usageError(format("more than one artifact given ('%s' and '%s')", artifact_.c_str(),
                          arg_.c_str()));
      artifact_ = arg_;
      continue;
    }
    if (arg_ == "--") {
      noMoreFlags_ = true;
      continue;
    }
    if (arg_ == "-h" || arg_ == "--help" || arg_ == "-help") {
      std::fputs(help_, stdout);
      std::exit(0);
    }
    flag_ = arg_;
    value_.clear();
    size_t eq = arg_.find('=');
    hasValue_ = arg_.compare(0, 2, "--") == 0 && eq != std::string::npos;
    if (hasValue_) {
      flag_ = arg_.substr(0, eq);
      value_ = arg_.substr(eq + 1);
    }
    return true;
  }
  return false;
}

std::string ArtifactCommandLine::value() {
  if (hasValue_)
    return value_;
  if (next_ >= argc_)
    usageError(flag_ + " needs a value");
  return argv_[next_++];
}

std::string ArtifactCommandLine::nonEmptyValue(const char *what) {
  std::string v = value();
  if (v.empty())
    usageError(flag_ + " needs " + what);
  return v;
}

uint64_t ArtifactCommandLine::unsignedValue() {
  std::string v = value();
  uint64_t n;
  if (!parseUnsigned(v, &n))
    usageError(flag_ + " expects a non-negative 64-bit integer, got '" + v + "'");
  return n;
}

void ArtifactCommandLine::noValue() const {
  if (hasValue_)
    usageError(flag_ + " takes no value");
}

void ArtifactCommandLine::unknownFlag() const { usageError("unknown option '" + arg_ + "'"); }

} // namespace moert
