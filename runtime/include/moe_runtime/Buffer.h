//===- Buffer.h - 64-byte aligned host buffers ------------------*- C++ -*-===//
#ifndef MOE_RUNTIME_BUFFER_H
#define MOE_RUNTIME_BUFFER_H

#include "moe_runtime/Status.h"

#include <cstddef>

namespace moert {

constexpr size_t kBufferAlignment = 64;

/// A zero-initialised, 64-byte aligned allocation; never null once allocated
/// (a 0-byte buffer still gets 64 bytes), move-only. Buffers of 1 MiB and
/// more are anonymous mappings: their zero pages take memory only once
/// written, so allocating one costs no memset (a host buffer that only
/// receives a GPU output is written once, by the copy back; the CPU path
/// still zeroes outputs before every call, as the entry ABI asks).
class AlignedBuffer {
public:
  AlignedBuffer() = default;
  AlignedBuffer(const AlignedBuffer &) = delete;
  AlignedBuffer &operator=(const AlignedBuffer &) = delete;
  AlignedBuffer(AlignedBuffer &&other) noexcept;
  AlignedBuffer &operator=(AlignedBuffer &&other) noexcept;
  ~AlignedBuffer();

  /// Allocate `bytes` bytes, zeroed unless `zeroed` is false (then they are
  /// what the allocator gives, except that a mapping, 1 MiB or more, is
  /// always zero); an error (with the size) if out of memory.
  Status allocate(size_t bytes, bool zeroed = true);
  void zero();
  void *data() { return data_; }
  const void *data() const { return data_; }
  size_t size() const { return size_; }

private:
  void release();
  void *data_ = nullptr;
  size_t size_ = 0;
  size_t mappedBytes_ = 0; ///< nonzero: data_ is an mmap of this many bytes
};

} // namespace moert

#endif // MOE_RUNTIME_BUFFER_H
