//===- HostBuffersToDevice.cpp - host buffers in device memory -----------===//
#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::moe {
#define GEN_PASS_DEF_GPUHOSTBUFFERSTODEVICEPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

struct HostMemoryPass
    : mlir::moe::impl::GpuHostBuffersToDevicePassBase<HostMemoryPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    // Kernels (gpu.launch bodies) keep their memref ops.
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
              memref::GetGlobalOp>(op))
        ops.push_back(op);
      return WalkResult::advance();
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      Location loc = op->getLoc();
      if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
        // A constant (e.g. a dense tensor literal) lives in host memory:
        // kernels read a device copy, made once per call at the function's
        // entry (dominating every use and every return) and freed at the
        // end.
        Block &entry = getOperation().getBody().front();
        global->moveBefore(&entry, entry.begin());
        rewriter.setInsertionPointAfter(global);
        auto copy = gpu::AllocOp::create(
            rewriter, loc, global.getType(), Type(), ValueRange{}, ValueRange{},
            ValueRange{}, /*hostShared=*/false);
        auto upload = gpu::MemcpyOp::create(rewriter, loc, Type(), ValueRange{},
                                            copy.getMemref(), global);
        global.getResult().replaceAllUsesExcept(copy.getMemref(), upload);
        for (Block &block : getOperation().getBody())
          if (block.mightHaveTerminator() &&
              isa<func::ReturnOp>(block.getTerminator())) {
            rewriter.setInsertionPoint(block.getTerminator());
            gpu::DeallocOp::create(rewriter, loc, Type(), ValueRange{},
                                   copy.getMemref());
          }
      } else if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        auto gpuAlloc = gpu::AllocOp::create(
            rewriter, loc, alloc.getType(), /*asyncToken=*/Type(),
            /*asyncDependencies=*/ValueRange{}, alloc.getDynamicSizes(),
            alloc.getSymbolOperands(), /*hostShared=*/false);
        rewriter.replaceOp(alloc, gpuAlloc.getMemref());
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        gpu::DeallocOp::create(rewriter, loc, /*asyncToken=*/Type(),
                               ValueRange{}, dealloc.getMemref());
        rewriter.eraseOp(dealloc);
      } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        auto isContiguous = [](Value v) {
          auto type = cast<MemRefType>(v.getType());
          return type.getLayout().isIdentity();
        };
        if (!isContiguous(copy.getSource()) ||
            !isContiguous(copy.getTarget())) {
          copy.emitOpError("between strided buffers is not supported on the "
                           "GPU target");
          return signalPassFailure();
        }
        gpu::MemcpyOp::create(rewriter, loc, /*asyncToken=*/Type(),
                              ValueRange{}, copy.getTarget(),
                              copy.getSource());
        rewriter.eraseOp(copy);
      }
    }
  }
};

} // namespace
