//===- LaunchTopLevelLoops.cpp - top-level loop nests → gpu.launch -------===//
//
// On the GPU target all buffers live in device memory, so every top-level
// op of a host function that touches memory must run on the device. Parallel
// loops become grids (one thread per iteration, collapsed to 1-D so any
// number of iterations fits the x dimension), except block-per-row loops
// (an scf.parallel mapped to block_x holding ones mapped to thread_x, as
// upstream's gpu.loop_dim_map attributes say): a block per row, its threads
// over the row, phase after phase (barriers between them), with the row
// body's workgroup allocas as shared memory. Sequential code becomes a
// single-thread kernel. Upstream gpu-kernel-outlining then makes kernels.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::moe {
#define GEN_PASS_DEF_GPULAUNCHTOPLEVELLOOPSPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

/// Whether `op` (a top-level op of a host function) reads or writes buffer
/// memory itself or in its regions, and so must run on the device.
bool touchesMemory(Operation *op) {
  auto isAccess = [](Operation *o) {
    return isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp,
               memref::GenericAtomicRMWOp, memref::AllocaOp,
               memref::AllocaScopeOp>(o);
  };
  return op->walk([&](Operation *o) {
             return isAccess(o) ? WalkResult::interrupt()
                                : WalkResult::advance();
           })
      .wasInterrupted();
}

/// Replaces each memref.alloca_scope directly in the launch body (not inside
/// a loop) by its contents: a thread runs the body once, so the scope only
/// matters on the CPU, where the same body runs in a loop.
void dissolveAllocaScopes(gpu::LaunchOp launch) {
  SmallVector<memref::AllocaScopeOp> scopes;
  launch.getBody().walk([&](memref::AllocaScopeOp scope) {
    for (Operation *p = scope->getParentOp(); p != launch; p = p->getParentOp())
      if (isa<LoopLikeOpInterface>(p))
        return;
    scopes.push_back(scope);
  });
  for (memref::AllocaScopeOp scope : scopes) {
    if (scope.getNumResults() != 0)
      continue;
    Block &body = scope.getBodyRegion().front();
    body.getTerminator()->erase();
    scope->getBlock()->getOperations().splice(Block::iterator(scope),
                                              body.getOperations());
    scope.erase();
  }
}

/// Clones into the kernel (at `b`) the host-side computations `op` uses
/// that read device memory: top-level memref.loads (e.g. of a rank-0
/// cotangent) and the side-effect-free ops between them and `op`. Their
/// host copies become dead (or are reported if host code still needs them).
void cloneDeviceReads(OpBuilder &b, Operation *op, IRMapping &mapping) {
  Block *top = op->getBlock();
  BackwardSliceOptions options;
  options.omitUsesFromAbove = false;
  options.omitBlockArguments = true;
  options.filter = [&](Operation *def) {
    if (def == op) // the root is filtered too
      return true;
    return def->getBlock() == top &&
           (isa<memref::LoadOp>(def) ||
            (def->getNumRegions() == 0 && isMemoryEffectFree(def) &&
             !isa<memref::AllocOp, gpu::AllocOp, memref::GetGlobalOp>(def)));
  };
  SetVector<Operation *> slice;
  (void)getBackwardSlice(op, &slice, options);
  bool readsDevice = llvm::any_of(
      slice, [](Operation *def) { return isa<memref::LoadOp>(def); });
  if (!readsDevice)
    return;
  for (Operation *def : slice) // topologically sorted
    b.clone(*def, mapping);
}

struct LaunchLoopsPass
    : mlir::moe::impl::GpuLaunchTopLevelLoopsPassBase<LaunchLoopsPass> {
  using Base::Base;

  Value index(OpBuilder &b, Location loc, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  /// gpu.launch over `numBlocks` × `numThreads` (x only) at `op`'s place.
  gpu::LaunchOp createLaunch(OpBuilder &b, Location loc, Value numBlocks,
                             Value numThreads) {
    Value one = index(b, loc, 1);
    auto launch = gpu::LaunchOp::create(b, loc, numBlocks, one, one,
                                        numThreads, one, one);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(&launch.getBody().front());
    gpu::TerminatorOp::create(b, loc);
    return launch;
  }

  /// The loops over a row's vectors inside `rows` when `rows` is a
  /// block-per-row schedule (RowSchedules.h): a one-dimensional scf.parallel
  /// mapped to block_x whose body holds one or more mapped to thread_x (the
  /// block's phases, in order) and no other scf.parallel.
  static SmallVector<scf::ParallelOp> threadLoopsOf(scf::ParallelOp rows) {
    if (!isMappedTo(rows, gpu::Processor::BlockX))
      return {};
    SmallVector<scf::ParallelOp> phases;
    for (Operation &op : rows.getBody()->without_terminator()) {
      auto inner = dyn_cast<scf::ParallelOp>(op);
      if (!inner)
        continue;
      if (!isMappedTo(inner, gpu::Processor::ThreadX))
        return {};
      phases.push_back(inner);
    }
    return phases;
  }
  static bool isMappedTo(scf::ParallelOp loop, gpu::Processor processor) {
    auto mapping = loop->getAttrOfType<ArrayAttr>(gpu::getMappingAttrName());
    if (!mapping || mapping.size() != 1 || loop.getNumLoops() != 1 ||
        loop.getNumResults() != 0)
      return false;
    auto dim = dyn_cast<gpu::ParallelLoopDimMappingAttr>(mapping[0]);
    return dim && dim.getProcessor() == processor;
  }

  /// Trip count of the one dimension of `loop` (steps are positive).
  Value tripCount(OpBuilder &b, Location loc, scf::ParallelOp loop) {
    Value span = b.createOrFold<arith::SubIOp>(loc, loop.getUpperBound()[0],
                                               loop.getLowerBound()[0]);
    span = b.createOrFold<arith::MaxSIOp>(loc, span, index(b, loc, 0));
    return b.createOrFold<arith::CeilDivUIOp>(loc, span, loop.getStep()[0]);
  }

  /// How the threads of a row's block share its vectors.
  enum class VectorsPerThread { One, AtMostOne, Strided };

  /// The body of the thread loop `vectors` for thread `threadId` of
  /// `threads`: iteration lb + tid·step, guarded when some threads have none
  /// (AtMostOne), or every `threads`-th iteration from there (Strided).
  void cloneThreadLoop(OpBuilder &b, scf::ParallelOp vectors,
                       IRMapping &mapping, Value threadId, int64_t threads,
                       VectorsPerThread share) {
    Location loc = vectors.getLoc();
    Value lb = mapping.lookupOrDefault(vectors.getLowerBound()[0]);
    Value ub = mapping.lookupOrDefault(vectors.getUpperBound()[0]);
    Value step = mapping.lookupOrDefault(vectors.getStep()[0]);
    auto cloneBody = [&](OpBuilder &ib, Value iv) {
      mapping.map(vectors.getInductionVars()[0], iv);
      for (Operation &inner : vectors.getBody()->without_terminator())
        ib.clone(inner, mapping);
    };
    Value first = arith::AddIOp::create(
        b, loc, lb, arith::MulIOp::create(b, loc, threadId, step));
    switch (share) {
    case VectorsPerThread::One:
      cloneBody(b, first);
      return;
    case VectorsPerThread::AtMostOne: {
      Value inRange =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, first, ub);
      auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
      OpBuilder ib = OpBuilder::atBlockBegin(guard.thenBlock());
      cloneBody(ib, first);
      return;
    }
    case VectorsPerThread::Strided: {
      Value stride =
          arith::MulIOp::create(b, loc, step, index(b, loc, threads));
      auto loop = scf::ForOp::create(b, loc, first, ub, stride);
      OpBuilder ib = OpBuilder::atBlockBegin(loop.getBody());
      cloneBody(ib, loop.getInductionVar());
      return;
    }
    }
  }

  /// Whether `op` allocates memory the block's threads share: a
  /// memref.alloca in workgroup memory with a static shape.
  static bool isSharedAlloca(Operation &op) {
    auto alloca = dyn_cast<memref::AllocaOp>(op);
    if (!alloca || !alloca.getType().hasStaticShape())
      return false;
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
        alloca.getType().getMemorySpace());
    return space && space.getValue() == gpu::AddressSpace::Workgroup;
  }

  /// A block per row: the grid is the row loop's trip count, the block
  /// `threads` threads over the row's vectors. With static vector counts
  /// of at most 1024 in every phase, one thread per vector of the longest
  /// (rounded up to whole warps); otherwise `blockSize` threads stride over
  /// the vectors. Phases are separated by barriers; workgroup allocas of
  /// the row body become the launch's shared memory.
  LogicalResult launchRows(scf::ParallelOp rows,
                           ArrayRef<scf::ParallelOp> phases) {
    OpBuilder b(rows);
    Location loc = rows.getLoc();
    Value numRows = tripCount(b, loc, rows);
    std::optional<int64_t> staticRows = getConstantIntValue(numRows);
    SmallVector<std::optional<int64_t>> staticVectors;
    for (scf::ParallelOp vectors : phases) {
      std::optional<int64_t> lb =
          getConstantIntValue(vectors.getLowerBound()[0]);
      std::optional<int64_t> ub =
          getConstantIntValue(vectors.getUpperBound()[0]);
      std::optional<int64_t> step = getConstantIntValue(vectors.getStep()[0]);
      staticVectors.push_back(std::nullopt);
      if (lb && ub && step && *step > 0)
        staticVectors.back() =
            std::max<int64_t>(0, llvm::divideCeil(*ub - *lb, *step));
    }
    constexpr int64_t kWarp = 32, kMaxThreads = 1024;
    bool oneVectorPerThread =
        llvm::all_of(staticVectors, [](std::optional<int64_t> count) {
          return count && *count <= kMaxThreads;
        });
    int64_t threads = blockSize;
    if (oneVectorPerThread) {
      threads = kWarp;
      for (std::optional<int64_t> count : staticVectors)
        threads = std::max<int64_t>(threads, llvm::alignTo(*count, kWarp));
    }
    Value blocks = arith::MaxUIOp::create(b, loc, numRows, index(b, loc, 1));
    gpu::LaunchOp launch = createLaunch(b, loc, blocks, index(b, loc, threads));

    b.setInsertionPointToStart(&launch.getBody().front());
    Value blockId = launch.getBlockIds().x;
    Value threadId = launch.getThreadIds().x;
    if (!staticRows || *staticRows < 1) {
      Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            blockId, numRows);
      auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
      b.setInsertionPointToStart(guard.thenBlock());
    }
    IRMapping mapping;
    cloneDeviceReads(b, rows, mapping);
    mapping.map(rows.getInductionVars()[0],
                arith::AddIOp::create(
                    b, loc, rows.getLowerBound()[0],
                    arith::MulIOp::create(b, loc, blockId, rows.getStep()[0])));
    unsigned phase = 0;
    for (Operation &op : rows.getBody()->without_terminator()) {
      if (isSharedAlloca(op)) {
        auto alloca = cast<memref::AllocaOp>(op);
        mapping.map(alloca.getResult(), launch.addWorkgroupAttribution(
                                            alloca.getType(), alloca.getLoc()));
        continue;
      }
      if (phase == phases.size() || &op != phases[phase]) {
        b.clone(op, mapping);
        continue;
      }
      // What the previous phase wrote is visible to the next one's threads.
      if (phase != 0)
        gpu::BarrierOp::create(b, loc);
      VectorsPerThread share = !oneVectorPerThread ? VectorsPerThread::Strided
                               : threads == *staticVectors[phase]
                                   ? VectorsPerThread::One
                                   : VectorsPerThread::AtMostOne;
      cloneThreadLoop(b, phases[phase], mapping, threadId, threads, share);
      ++phase;
    }
    dissolveAllocaScopes(launch);
    rows.erase();
    return success();
  }

  LogicalResult launchParallel(scf::ParallelOp loop) {
    SmallVector<scf::ParallelOp> phases = threadLoopsOf(loop);
    if (!phases.empty())
      return launchRows(loop, phases);
    if (loop.getNumResults() != 0)
      return loop.emitOpError(
          "with reductions cannot run on the GPU target yet");
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    // Trip counts (steps are positive: scf.parallel requires it).
    SmallVector<Value> counts;
    Value total = index(b, loc, 1);
    for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(),
                                         loop.getUpperBound(),
                                         loop.getStep())) {
      Value span = arith::SubIOp::create(b, loc, ub, lb);
      span = arith::MaxSIOp::create(b, loc, span, index(b, loc, 0));
      Value count = arith::CeilDivUIOp::create(b, loc, span, step);
      counts.push_back(count);
      total = arith::MulIOp::create(b, loc, total, count);
    }
    Value threads = index(b, loc, blockSize);
    // At least one block: a zero-sized grid is a launch error; the guard
    // below makes the extra threads do nothing.
    Value blocks = arith::MaxUIOp::create(
        b, loc, arith::CeilDivUIOp::create(b, loc, total, threads),
        index(b, loc, 1));
    gpu::LaunchOp launch = createLaunch(b, loc, blocks, threads);

    b.setInsertionPointToStart(&launch.getBody().front());
    Value linear = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, launch.getBlockIds().x, threads),
        launch.getThreadIds().x);
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          linear, total);
    auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    b.setInsertionPointToStart(guard.thenBlock());
    // Delinearize, last dimension fastest (so consecutive threads walk the
    // innermost dimension: coalesced accesses for row-major buffers).
    IRMapping mapping;
    cloneDeviceReads(b, loop, mapping);
    Value rest = linear;
    for (int64_t d = counts.size() - 1; d >= 0; --d) {
      Value pos = d == 0 ? rest
                         : arith::RemUIOp::create(b, loc, rest, counts[d]);
      if (d != 0)
        rest = arith::DivUIOp::create(b, loc, rest, counts[d]);
      Value iv = arith::AddIOp::create(
          b, loc, loop.getLowerBound()[d],
          arith::MulIOp::create(b, loc, pos, loop.getStep()[d]));
      mapping.map(loop.getInductionVars()[d], iv);
    }
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, mapping);
    dissolveAllocaScopes(launch);
    loop.erase();
    return success();
  }

  LogicalResult launchSequential(Operation *op) {
    // Runtime calls and kernels inside host control flow (a moe op in an
    // scf.for, say) would end up in a kernel; not handled yet.
    WalkResult hostOnly = op->walk([](Operation *inner) {
      return isa<func::CallOp, gpu::LaunchOp>(inner) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
    });
    if (hostOnly.wasInterrupted())
      return op->emitOpError("contains runtime calls or kernels as well as "
                             "device code; moe ops inside host control flow "
                             "are not supported on the GPU target yet"),
             failure();
    for (Value result : op->getResults())
      if (!result.use_empty())
        return op->emitOpError("computes a value that host code uses; it "
                               "cannot be moved to the GPU"),
               failure();
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value one = index(b, loc, 1);
    gpu::LaunchOp launch = createLaunch(b, loc, one, one);
    b.setInsertionPointToStart(&launch.getBody().front());
    IRMapping mapping;
    cloneDeviceReads(b, op, mapping);
    b.clone(*op, mapping);
    dissolveAllocaScopes(launch);
    op->erase();
    return success();
  }

  /// Kernels re-read the top-level loads they use (cloneDeviceReads), at
  /// their launch, not where the load stood. Where a later op may write
  /// memory, the value is first copied to a one-element device buffer at the
  /// load's place (a one-thread kernel), and the kernels read that copy,
  /// which nothing writes again.
  void snapshotLoads(Block &block) {
    SmallVector<memref::LoadOp> loads;
    for (Operation &op : block)
      if (auto load = dyn_cast<memref::LoadOp>(op))
        loads.push_back(load);
    for (memref::LoadOp load : loads) {
      bool laterWrite = false;
      for (Operation *op = load->getNextNode(); op && !laterWrite;
           op = op->getNextNode())
        laterWrite = !isa<memref::LoadOp>(op) &&
                     !op->hasTrait<OpTrait::IsTerminator>() &&
                     !isMemoryEffectFree(op);
      if (!laterWrite || load.use_empty())
        continue;
      OpBuilder b(load->getContext());
      b.setInsertionPointAfter(load);
      Location loc = load.getLoc();
      auto scalar = MemRefType::get({}, load.getType());
      Value copy = memref::AllocOp::create(b, loc, scalar);
      auto store = memref::StoreOp::create(b, loc, load.getResult(), copy,
                                           ValueRange{});
      Value reread = memref::LoadOp::create(b, loc, copy, ValueRange{});
      load.getResult().replaceAllUsesExcept(reread, store);
      if (Operation *terminator = block.getTerminator()) {
        b.setInsertionPoint(terminator);
        memref::DeallocOp::create(b, loc, copy);
      }
    }
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    for (Block &block : func.getBody()) {
      snapshotLoads(block);
      SmallVector<Operation *> ops;
      for (Operation &op : block)
        if (!isa<memref::LoadOp>(op))
          ops.push_back(&op);
      for (Operation *op : ops) {
        LogicalResult result = success();
        if (auto loop = dyn_cast<scf::ParallelOp>(op))
          result = launchParallel(loop);
        else if (!isa<gpu::LaunchOp>(op) && touchesMemory(op))
          result = launchSequential(op);
        if (failed(result))
          return signalPassFailure();
      }
      // The host copies of what the kernels read: dead now, unless host
      // code needs a value from device memory.
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
        if (op.use_empty() && !op.hasTrait<OpTrait::IsTerminator>() &&
            (isa<memref::LoadOp>(op) ||
                               (op.getNumRegions() == 0 &&
                                isMemoryEffectFree(&op))))
          op.erase();
      for (Operation &op : block)
        if (auto load = dyn_cast<memref::LoadOp>(op)) {
          Operation *user = *load->user_begin();
          load.emitOpError("is read by host code (")
              << user->getName()
              << "); the GPU target cannot read device memory on the host";
          return signalPassFailure();
        }
    }
    nameKernels(func);
  }

  /// Names each launch's kernel "<function>_<n>_<what>", n counting the
  /// launches in order and <what> the op it came from (the NameLoc
  /// moe-name-kernel-sources put on its location), so that kernel names in
  /// profiles and driver errors say what they compute.
  void nameKernels(func::FuncOp func) {
    unsigned counter = 0;
    func.walk([&](gpu::LaunchOp launch) {
      std::string what = "kernel";
      launch.getLoc()->walk([&](Location loc) {
        if (auto name = dyn_cast<NameLoc>(loc)) {
          what = name.getName().str();
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      for (char &c : what)
        if (!llvm::isAlnum(c))
          c = '_';
      std::string kernel =
          (func.getName() + "_" + Twine(counter++) + "_" + what).str();
      if (!launch.getFunctionAttr())
        launch.setFunctionAttr(
            FlatSymbolRefAttr::get(func.getContext(), kernel));
    });
  }
};

} // namespace
