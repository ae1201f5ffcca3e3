//===- AlignWorkgroupBuffers.cpp - shared memory aligned for vectors ------===//
//
// The alignment of a kernel's workgroup buffers (Passes.td says why): an
// `llvm.align` attribute on each memref workgroup attribution of a gpu.func,
// which convert-gpu-to-nvvm puts on the buffer's global.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::moe {
#define GEN_PASS_DEF_GPUALIGNWORKGROUPBUFFERSPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

struct AlignWorkgroupBuffersPass
    : mlir::moe::impl::GpuAlignWorkgroupBuffersPassBase<
          AlignWorkgroupBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    StringRef alignName = LLVM::LLVMDialect::getAlignAttrName();
    auto alignValue =
        IntegerAttr::get(IntegerType::get(&getContext(), 64), alignment);
    getOperation().walk([&](gpu::GPUFuncOp func) {
      for (auto [i, buffer] :
           llvm::enumerate(func.getWorkgroupAttributions())) {
        if (!isa<MemRefType>(buffer.getType()) ||
            func.getWorkgroupAttributionAttr(i, alignName))
          continue;
        func.setWorkgroupAttributionAttr(i, alignName, alignValue);
      }
    });
  }
};

} // namespace
