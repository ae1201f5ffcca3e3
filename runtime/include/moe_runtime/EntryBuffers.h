//===- EntryBuffers.h - the argument buffers of one entry -------*- C++ -*-===//
#ifndef MOE_RUNTIME_ENTRYBUFFERS_H
#define MOE_RUNTIME_ENTRYBUFFERS_H

#include "moe_runtime/Artifact.h"
#include "moe_runtime/Buffer.h"
#include "moe_runtime/Status.h"

#include <string>
#include <vector>

namespace moert {

/// One buffer per argument of an entry, in call order (64-byte aligned,
/// zeroed when allocated), and the `void **args` array its function takes.
class EntryBuffers {
public:
  /// Allocate the buffers of `entry`, which must outlive this object. Errors
  /// name the entry and the argument.
  Status allocate(const EntrySpec &entry);

  const EntrySpec &entry() const { return *entry_; }
  void *data(size_t i) { return buffers_[i].data(); }
  const void *data(size_t i) const { return buffers_[i].data(); }
  /// The buffer of the argument called `name`, or null.
  const void *find(const std::string &name) const;
  /// Move the buffer of the argument called `name` out (an empty buffer when
  /// there is none); its pointer here becomes null. Lets X_bwd take X_fwd's
  /// 22 GB of weights without a copy.
  AlignedBuffer take(const std::string &name);
  /// Replace argument i's buffer by `buffer`, which must have its size.
  Status adopt(size_t i, AlignedBuffer &&buffer);
  /// Free the input buffers (their pointers become null) once a call needs
  /// them no more: only the outputs are reported and compared.
  void releaseInputs();
  void **pointers() { return pointers_.data(); }

  /// Zero the output buffers (io "out"), as the ABI asks before every call.
  void zeroOutputs();
  /// Give the outputs fresh buffers that are not zeroed (moe-runner
  /// --uninitialized-outputs: a memory checker then reports an output byte
  /// the entry never writes).
  Status uninitializeOutputs();
  /// zeroOutputs(), then fn(pointers()).
  void call(EntryFunction fn);

private:
  const EntrySpec *entry_ = nullptr;
  std::vector<AlignedBuffer> buffers_;
  std::vector<void *> pointers_;
};

} // namespace moert

#endif // MOE_RUNTIME_ENTRYBUFFERS_H
