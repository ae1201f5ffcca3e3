//===- Buffer.cpp - 64-byte aligned host buffers --------------------------===//

#include "moe_runtime/Buffer.h"

#include <cstdlib>
#include <cstring>
#include <utility>

namespace moert {

AlignedBuffer::AlignedBuffer(AlignedBuffer &&other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

AlignedBuffer &AlignedBuffer::operator=(AlignedBuffer &&other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

AlignedBuffer::~AlignedBuffer() { std::free(data_); }

Status AlignedBuffer::allocate(size_t bytes) {
  std::free(data_);
  data_ = nullptr;
  size_ = 0;
  size_t rounded = bytes == 0 ? kBufferAlignment
                              : (bytes + kBufferAlignment - 1) / kBufferAlignment *
                                    kBufferAlignment;
  if (rounded < bytes)
    return Status::error(format("cannot allocate %zu bytes", bytes));
  void *p = std::aligned_alloc(kBufferAlignment, rounded);
  if (!p)
    return Status::error(format("out of memory allocating %zu bytes (%.3g GiB)", bytes,
                                static_cast<double>(bytes) / (1u << 30)));
  std::memset(p, 0, rounded);
  data_ = p;
  size_ = bytes;
  return Status::success();
}

void AlignedBuffer::zero() {
  if (data_ && size_)
    std::memset(data_, 0, size_);
}

} // namespace moert
