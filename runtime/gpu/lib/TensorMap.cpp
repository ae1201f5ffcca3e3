//===- TensorMap.cpp - TMA descriptors for the generated GEMM kernels -----===//
//
// moert_entry_tensor_map_2d: the host half of a generated grouped GEMM's
// TMA setup. cuTensorMapEncodeTiled only fills 128 bytes on the host; the
// kernel copies them into device memory and fences them itself, so no
// entry allocates, copies or waits for a descriptor (and a CUDA graph
// capture of the entry holds the bytes as kernel arguments).
//
//===----------------------------------------------------------------------===//
#include "moe_runtime/moe_runtime_gpu.h"

#include "Internal.h"

#include <cuda.h>

#include <cstdio>
#include <cstring>

static_assert(sizeof(CUtensorMap) == 16 * sizeof(uint64_t),
              "moert_entry_tensor_map_2d writes a CUtensorMap as 16 words");

void moert_entry_tensor_map_2d(uint64_t *out, const void *base, int64_t rows,
                               int64_t cols, int32_t box_rows, int32_t box_cols,
                               int32_t element_bytes) {
  const char *entry = "moert_entry_tensor_map_2d";
  std::memset(out, 0, sizeof(CUtensorMap));
  char msg[320];
  // The 128-byte swizzle that the kernels' wgmma descriptors assume needs
  // boxes exactly one 128-byte row wide; TMA needs 16-byte aligned rows.
  bool knownElement = element_bytes == 1 || element_bytes == 2;
  if (!knownElement || box_cols * element_bytes != 128 || box_rows <= 0 ||
      box_rows > 256 || rows <= 0 || cols <= 0 ||
      (cols * element_bytes) % 16 != 0 ||
      reinterpret_cast<uintptr_t>(base) % 16 != 0) {
    std::snprintf(msg, sizeof msg,
                  "unsupported tensor map: %lld x %lld elements of %d bytes at "
                  "%p, box %d x %d (needs 1- or 2-byte elements, a box 128 "
                  "bytes wide, at most 256 rows, rows of a multiple of 16 "
                  "bytes, a 16-byte aligned base)",
                  static_cast<long long>(rows), static_cast<long long>(cols),
                  element_bytes, base, box_rows, box_cols);
    moert_gpu::reportFailure(entry, msg);
    return;
  }
  // The driver wants a current context even for this host-only encoding.
  moert_gpu::ScopedContext context(entry);
  if (!context.ok())
    return;
  // Innermost dimension first, as the driver wants them.
  cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  cuuint64_t strides[1] = {static_cast<cuuint64_t>(cols) * element_bytes};
  cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols),
                       static_cast<cuuint32_t>(box_rows)};
  cuuint32_t elementStrides[2] = {1, 1};
  CUresult status = cuTensorMapEncodeTiled(
      reinterpret_cast<CUtensorMap *>(out),
      element_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_UINT8,
      /*tensorRank=*/2, const_cast<void *>(base), dims, strides, box, elementStrides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (!moert_gpu::checkDriver(status, entry, "cuTensorMapEncodeTiled"))
    std::memset(out, 0, sizeof(CUtensorMap));
}
