//===- Internal.h - shared between libmoe_runtime_gpu's sources -*- C++ -*-===//
#ifndef MOE_RUNTIME_GPU_LIB_INTERNAL_H
#define MOE_RUNTIME_GPU_LIB_INTERNAL_H

namespace moert_gpu {
// Sets the message moert_gpu_last_error() returns on this thread
// (GroupedGemm.cpp owns it).
void setLastError(const char *msg);
} // namespace moert_gpu

#endif
