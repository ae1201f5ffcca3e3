//===- Buffer.cpp - 64-byte aligned host buffers --------------------------===//

#include "moe_runtime/Buffer.h"

#include <cstdlib>
#include <cstring>
#include <utility>

#include <sys/mman.h>

namespace moert {

namespace {
/// From this size on, buffers are mapped rather than malloc'd and memset.
constexpr size_t kMapThreshold = size_t(1) << 20;
} // namespace

AlignedBuffer::AlignedBuffer(AlignedBuffer &&other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
      mappedBytes_(std::exchange(other.mappedBytes_, 0)) {}

AlignedBuffer &AlignedBuffer::operator=(AlignedBuffer &&other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mappedBytes_ = std::exchange(other.mappedBytes_, 0);
  }
  return *this;
}

AlignedBuffer::~AlignedBuffer() { release(); }

void AlignedBuffer::release() {
  if (mappedBytes_)
    munmap(data_, mappedBytes_);
  else
    std::free(data_);
  data_ = nullptr;
  size_ = 0;
  mappedBytes_ = 0;
}

Status AlignedBuffer::allocate(size_t bytes, bool zeroed) {
  release();
  size_t rounded = bytes == 0 ? kBufferAlignment
                              : (bytes + kBufferAlignment - 1) / kBufferAlignment *
                                    kBufferAlignment;
  if (rounded < bytes)
    return Status::error(format("cannot allocate %zu bytes", bytes));
  if (rounded >= kMapThreshold) {
    void *p = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      return Status::error(format("out of memory mapping %zu bytes (%.3g GiB)", bytes,
                                  static_cast<double>(bytes) / (1u << 30)));
    data_ = p; // page-aligned and zero
    size_ = bytes;
    mappedBytes_ = rounded;
    return Status::success();
  }
  void *p = std::aligned_alloc(kBufferAlignment, rounded);
  if (!p)
    return Status::error(format("out of memory allocating %zu bytes (%.3g GiB)", bytes,
                                static_cast<double>(bytes) / (1u << 30)));
  if (zeroed)
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
