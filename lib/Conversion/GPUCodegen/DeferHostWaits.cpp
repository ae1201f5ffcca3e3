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

namespace mlir::moe {
#define GEN_PASS_DEF_GPUDEFERHOSTWAITSPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

/// Whether `address` points into a stack allocation of the host function
/// (through GEPs).
bool isHostStackAddress(Value address) {
  while (auto gep = address.getDefiningOp<LLVM::GEPOp>())
    address = gep.getBase();
  return address.getDefiningOp<LLVM::AllocaOp>() ||
         address.getDefiningOp<memref::AllocaOp>();
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
      for (Value token : wait.getAsyncDependencies())
        next.addAsyncDependency(token);
      wait.erase();
    }
  }
};

} // namespace
