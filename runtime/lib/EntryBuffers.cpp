//===- EntryBuffers.cpp - the argument buffers of one entry ---------------===//

#include "moe_runtime/EntryBuffers.h"

#include "moe_runtime/Npy.h"

namespace moert {

Status EntryBuffers::allocate(const EntrySpec &entry) {
  entry_ = &entry;
  buffers_.clear();
  buffers_.resize(entry.args.size());
  pointers_.assign(entry.args.size(), nullptr);
  for (size_t i = 0; i < entry.args.size(); ++i) {
    const ArgSpec &a = entry.args[i];
    MOERT_TRY(buffers_[i].allocate(a.numBytes).withPrefix(
        format("entry '%s', argument '%s' %s %s", entry.name.c_str(), a.name.c_str(),
               shapeToString(a.shape).c_str(), dtypeName(a.dtype))));
    pointers_[i] = buffers_[i].data();
  }
  return Status::success();
}

const void *EntryBuffers::find(const std::string &name) const {
  for (size_t i = 0; i < entry_->args.size(); ++i)
    if (entry_->args[i].name == name)
      return buffers_[i].data();
  return nullptr;
}

AlignedBuffer EntryBuffers::take(const std::string &name) {
  for (size_t i = 0; i < entry_->args.size(); ++i)
    if (entry_->args[i].name == name) {
      pointers_[i] = nullptr;
      return std::move(buffers_[i]);
    }
  return AlignedBuffer();
}

Status EntryBuffers::adopt(size_t i, AlignedBuffer &&buffer) {
  const ArgSpec &a = entry_->args[i];
  if (!buffer.data() || buffer.size() != a.numBytes)
    return Status::error(format("entry '%s', argument '%s': a buffer of %zu bytes cannot "
                                "hold its %zu bytes",
                                entry_->name.c_str(), a.name.c_str(), buffer.size(),
                                a.numBytes));
  buffers_[i] = std::move(buffer);
  pointers_[i] = buffers_[i].data();
  return Status::success();
}

void EntryBuffers::releaseInputs() {
  for (size_t i = 0; i < entry_->args.size(); ++i)
    if (entry_->args[i].isInput) {
      buffers_[i] = AlignedBuffer();
      pointers_[i] = nullptr;
    }
}

void EntryBuffers::zeroOutputs() {
  for (size_t i = 0; i < entry_->args.size(); ++i)
    if (!entry_->args[i].isInput)
      buffers_[i].zero();
}

Status EntryBuffers::uninitializeOutputs() {
  for (size_t i = 0; i < entry_->args.size(); ++i) {
    const ArgSpec &a = entry_->args[i];
    if (a.isInput)
      continue;
    MOERT_TRY(
        buffers_[i]
            .allocate(a.numBytes, /*zeroed=*/false)
            .withPrefix(format("entry '%s', output '%s'", entry_->name.c_str(), a.name.c_str())));
    pointers_[i] = buffers_[i].data();
  }
  return Status::success();
}

void EntryBuffers::call(EntryFunction fn) {
  zeroOutputs();
  fn(pointers());
}

} // namespace moert
