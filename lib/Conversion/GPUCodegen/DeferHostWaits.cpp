//===- DeferHostWaits.cpp - no host wait before stream-ordered host code --===//
//
// After gpu-async-region a host function is runs of asynchronous GPU ops,
// each started by `%t = gpu.wait async` and ended by a blocking
// `gpu.wait [%tokens]` in front of the next op with side effects. Where that
// op and everything up to the next run is a stream-ordered runtime call or
// touches only the host stack, the blocking wait only stalls the host (and
// leaves the GPU idle until the host has enqueued the next kernel); its
// tokens move to the next run's `gpu.wait async`, which gpu-to-llvm turns
// into an event the stream waits on.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Conversion/GPUCodegen/Passes.h"
#include "MoeDialect/Conversion/MoeToRuntimeCalls.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::moe {
#define GEN_PASS_DEF_GPUDEFERHOSTWAITSPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

/// Whether a GPU op uses `buffer` or a view of it (a copy from the device
/// into it, say): then its host accesses must wait for the stream.
bool usedByGpuOps(Value buffer) {
  SmallVector<Value> pending{buffer};
  while (!pending.empty()) {
    Value value = pending.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<gpu::GPUDialect>(user->getDialect()))
        return true;
      if (isa<LLVM::GEPOp, ViewLikeOpInterface>(user))
        llvm::append_range(pending, user->getResults());
    }
  }
  return false;
}

/// Whether `address` points into a stack allocation of the host function
/// (through GEPs) that no GPU op touches.
bool isHostStackAddress(Value address) {
  while (auto gep = address.getDefiningOp<LLVM::GEPOp>())
    address = gep.getBase();
  Operation *allocation = address.getDefiningOp();
  if (!isa_and_nonnull<LLVM::AllocaOp, memref::AllocaOp>(allocation))
    return false;
  return !usedByGpuOps(allocation->getResult(0));
}

/// Whether `op` reads or writes nothing but the host stack: it cannot see
/// what the stream's kernels have not finished yet.
bool touchesOnlyHostStack(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  // Stack allocations (LLVM's alloca declares no effects).
  if (isa<LLVM::AllocaOp, memref::AllocaOp>(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || op->getNumRegions() != 0)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::all_of(instances, [](const MemoryEffects::EffectInstance &e) {
    Value value = e.getValue();
    return value && isHostStackAddress(value);
  });
}

/// Whether `op` calls a runtime function that only enqueues work on the
/// stream.
bool callsStreamOrderedFunction(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return false;
  auto callee =
      SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, call.getCalleeAttr());
  return callee && callee->hasAttr(moe::kStreamOrderedAttr);
}

/// The `gpu.wait async` that starts the next run of GPU ops after the
/// blocking `wait`, when only host code that needs no device result lies
/// between them; null otherwise.
gpu::WaitOp nextRunNotNeedingTheWait(gpu::WaitOp wait) {
  for (Operation *op = wait->getNextNode(); op; op = op->getNextNode()) {
    if (auto next = dyn_cast<gpu::WaitOp>(op))
      return next.getAsyncToken() ? next : gpu::WaitOp();
    if (op->hasTrait<OpTrait::IsTerminator>())
      return {};
    if (!touchesOnlyHostStack(op) && !callsStreamOrderedFunction(op))
      return {};
  }
  return {};
}

struct DeferHostWaitsPass
    : mlir::moe::impl::GpuDeferHostWaitsPassBase<DeferHostWaitsPass> {
  void runOnOperation() override {
    SmallVector<gpu::WaitOp> blocking;
    getOperation().walk([&](gpu::WaitOp wait) {
      if (!wait.getAsyncToken() && !wait.getAsyncDependencies().empty())
        blocking.push_back(wait);
    });
    for (gpu::WaitOp wait : blocking) {
      gpu::WaitOp next = nextRunNotNeedingTheWait(wait);
      if (!next)
        continue;
      // addAsyncDependency prepends: in reverse, the tokens keep their order.
      for (Value token : llvm::reverse(wait.getAsyncDependencies()))
        next.addAsyncDependency(token);
      wait.erase();
    }
  }
};

} // namespace
