//===- Tool.h - what the runtime's command-line tools share -----*- C++ -*-===//
//
// moe-runner and moe-gradcheck (and any tool like them) behave alike: one
// ARTIFACT argument, flags given as `--name value` or `--name=value`, `--`
// ending the flags, -h/--help printing the help; messages
// "<tool>: error: ..." on stderr after stdout is flushed; exit status 1 for
// an error, 2 for a bad command line.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_TOOL_H
#define MOE_RUNTIME_TOOL_H

#include "moe_runtime/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace moert {

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

/// The program name the messages below start with; set first thing in main.
void setToolName(const char *name);

/// "<tool>: error: <msg>" and a pointer to --help; exit kExitUsage.
[[noreturn]] void usageError(const std::string &msg);
/// "<tool>: error: <msg>"; exit kExitError.
[[noreturn]] void fatal(const std::string &msg);
/// fatal(s.message()) unless `s` is ok.
void check(const Status &s);
/// "<tool>: warning: <msg>".
void warning(const std::string &msg);
/// Progress lines of long work on stderr, off until enabled:
/// "<tool>: [  12.3 s] <msg>", the time since the tool started.
void enableProgress(bool on);
bool progressEnabled();
void progress(const std::string &msg);
/// Flush stdout; fatal if the report could not be written.
void finishReport();

/// Decimal, or hexadecimal with 0x (a leading 0 does not mean octal); no
/// sign, no blanks. False when `text` is not such a number or exceeds 64 bits.
bool parseUnsigned(const std::string &text, uint64_t *out);

/// CUDA_VISIBLE_DEVICES' entries in order (none when it is unset or empty):
/// how the tools that start one process per GPU name the GPUs.
std::vector<std::string> cudaVisibleDevices();

/// A tool's command line, read flag by flag:
///   ArtifactCommandLine cl(argc, argv, kHelp);
///   while (cl.nextFlag())
///     if (cl.flag() == "--seed") ... cl.value() ... else cl.unknownFlag();
/// Every error is a usageError.
class ArtifactCommandLine {
public:
  /// `help` is what -h, --help and -help print (then exit 0).
  ArtifactCommandLine(int argc, char **argv, const char *help);

  /// Moves to the next flag, taking the ARTIFACT argument on the way (a
  /// second one is an error); false at the end.
  bool nextFlag();
  /// The current flag ("--seed" also for "--seed=3").
  const std::string &flag() const { return flag_; }
  /// The current flag's value: after '=', else the next argument.
  std::string value();
  /// value(); "" is an error: "<flag> needs <what>".
  std::string nonEmptyValue(const char *what);
  /// value() as parseUnsigned reads it; anything else is an error.
  uint64_t unsignedValue();
  /// An error if the current flag was given a value with '='.
  void noValue() const;
  [[noreturn]] void unknownFlag() const;
  /// The ARTIFACT argument; "" when none was given.
  const std::string &artifact() const { return artifact_; }

private:
  int argc_;
  char **argv_;
  const char *help_;
  int next_ = 1;
  bool noMoreFlags_ = false;
  std::string arg_, flag_, value_;
  bool hasValue_ = false;
  std::string artifact_;
};

} // namespace moert

#endif // MOE_RUNTIME_TOOL_H
