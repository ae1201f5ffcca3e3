//===- Status.h - error reporting without exceptions ------------*- C++ -*-===//
//
// The runtime is built with -fno-exceptions (the main project uses LLVM's
// flags), so every fallible function returns a Status: ok, or an error with a
// complete, human-readable message.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_RUNTIME_STATUS_H
#define MOE_RUNTIME_STATUS_H

#include <string>
#include <utility>

namespace moert {

/// printf into a std::string.
std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

class [[nodiscard]] Status {
public:
  Status() = default;
  static Status success() { return Status(); }
  static Status error(std::string message) {
    Status s;
    s.failed_ = true;
    s.message_ = std::move(message);
    return s;
  }
  bool ok() const { return !failed_; }
  const std::string &message() const { return message_; }
  /// "<prefix>: <message>" (no-op when ok).
  Status withPrefix(const std::string &prefix) const {
    if (ok())
      return *this;
    return error(prefix + ": " + message_);
  }

private:
  bool failed_ = false;
  std::string message_;
};

/// Propagate an error Status to the caller.
#define MOERT_TRY(expr)                                                        \
  do {                                                                         \
    ::moert::Status moert_try_status_ = (expr);                                \
    if (!moert_try_status_.ok())                                               \
      return moert_try_status_;                                                \
  } while (0)

} // namespace moert

#endif // MOE_RUNTIME_STATUS_H
