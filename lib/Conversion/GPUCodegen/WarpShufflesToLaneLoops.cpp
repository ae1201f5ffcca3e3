//===- WarpShufflesToLaneLoops.cpp - warp shuffles as lanes run in order --===//
//
// The CPU emulation of a thread loop whose lanes exchange values with
// gpu.shuffle (the warp schedules of WarpRouter.h): the loop body is cut
// at its shuffles into phases, each phase runs every lane before the next
// one starts, and values cross phases through per-lane scratch buffers.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::moe {
#define GEN_PASS_DEF_CONVERTWARPSHUFFLESTOLANELOOPSPASS
#include "MoeDialect/Conversion/GPUCodegen/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;

namespace {

bool isThreadLoop(scf::ParallelOp loop) {
  auto mapping = loop->getAttrOfType<ArrayAttr>(gpu::getMappingAttrName());
  if (!mapping || mapping.size() != 1 || loop.getNumLoops() != 1 ||
      loop.getNumResults() != 0)
    return false;
  auto dim = dyn_cast<gpu::ParallelLoopDimMappingAttr>(mapping[0]);
  return dim && dim.getProcessor() == gpu::Processor::ThreadX;
}

/// Whether a gpu.shuffle lies anywhere in `region`.
bool holdsShuffle(Region &region) {
  return region.walk([](gpu::ShuffleOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// One thread loop cut into phases at its shuffles.
struct LanePhases {
  explicit LanePhases(scf::ParallelOp loop)
      : loop(loop), body(loop.getBody()) {}

  scf::ParallelOp loop;
  Block *body;
  int64_t numLanes = 0;
  SmallVector<SmallVector<Operation *>> phases;
  DenseMap<Operation *, unsigned> phaseOf;
  /// The scratch buffer [numLanes] of each value a later phase reads.
  DenseMap<Value, Value> scratch;

  LogicalResult check() {
    for (auto [bound, expected] :
         {std::pair(loop.getLowerBound()[0], int64_t(0)),
          std::pair(loop.getStep()[0], int64_t(1))})
      if (getConstantIntValue(bound) != expected)
        return loop.emitOpError("with warp shuffles needs lanes [0, N) step 1");
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[0]);
    if (!ub)
      return loop.emitOpError("with warp shuffles needs a static lane count");
    numLanes = *ub;
    WalkResult result = body->walk([&](gpu::ShuffleOp shuffle) {
      std::optional<int64_t> width = getConstantIntValue(shuffle.getWidth());
      std::optional<int64_t> offset = getConstantIntValue(shuffle.getOffset());
      if (shuffle->getBlock() != body ||
          (shuffle.getMode() != gpu::ShuffleMode::XOR &&
           shuffle.getMode() != gpu::ShuffleMode::IDX) ||
          !width || !offset ||
          !llvm::isPowerOf2_64(*width) || *width > numLanes ||
          numLanes % *width != 0 || *offset < 0 || *offset >= *width) {
        shuffle.emitOpError("cannot run lanes in order: only shuffles xor "
                            "and idx with constant offset and width at the "
                            "top level of a thread loop are emulated");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  bool definedInBody(Value v) const {
    return v.getParentBlock() == body && !isa<BlockArgument>(v);
  }

  LogicalResult cut() {
    for (Operation &op : llvm::make_early_inc_range(body->without_terminator()))
      if (op.hasTrait<OpTrait::ConstantLike>() && op.getNumRegions() == 0)
        op.moveBefore(loop);
    phases.emplace_back();
    for (Operation &op : body->without_terminator()) {
      bool startsPhase = isa<gpu::ShuffleOp>(op) &&
                         llvm::any_of(phases.back(), [](Operation *o) {
                           return !isa<gpu::ShuffleOp>(o);
                         });
      if (startsPhase)
        phases.emplace_back();
      phaseOf[&op] = phases.size() - 1;
      phases.back().push_back(&op);
    }
    // A phase's shuffles read lanes of values complete before it starts.
    for (Operation &op : body->without_terminator()) {
      auto shuffle = dyn_cast<gpu::ShuffleOp>(op);
      if (shuffle && definedInBody(shuffle.getValue()) &&
          phaseOf.lookup(shuffle.getValue().getDefiningOp()) ==
              phaseOf.lookup(&op))
        return shuffle.emitOpError("shuffles the result of a shuffle of the "
                                   "same phase, which lanes run in order "
                                   "cannot emulate");
    }
    return success();
  }

  /// Scratch for every value used in a later phase or shuffled.
  LogicalResult allocateScratch(OpBuilder &entry) {
    for (Operation &op : body->without_terminator())
      for (Value result : op.getResults()) {
        bool crosses = llvm::any_of(result.getUsers(), [&](Operation *user) {
          Operation *top = body->findAncestorOpInBlock(*user);
          return phaseOf.lookup(top) > phaseOf.lookup(&op) ||
                 isa<gpu::ShuffleOp>(user);
        });
        if (!crosses)
          continue;
        Type type = result.getType();
        if (!type.isIntOrIndexOrFloat())
          return op.emitOpError("has a result of type ")
                 << type << " that lanes run in order cannot keep per lane";
        scratch[result] = memref::AllocaOp::create(
            entry, loop.getLoc(), MemRefType::get({numLanes}, type));
      }
    return success();
  }

  /// Phase `p` as an scf.for over the lanes.
  void emitPhase(OpBuilder &b, unsigned p) {
    Location loc = loop.getLoc();
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
    Value n = arith::ConstantIndexOp::create(b, loc, numLanes);
    auto lanes = scf::ForOp::create(b, loc, c0, n, c1);
    OpBuilder lb = OpBuilder::atBlockBegin(lanes.getBody());
    Value lane = lanes.getInductionVar();
    IRMapping mapping;
    mapping.map(loop.getInductionVars()[0], lane);
    // The values of earlier phases this phase reads in its own lane.
    for (Operation *op : phases[p]) {
      if (isa<gpu::ShuffleOp>(op))
        continue;
      op->walk([&](Operation *inner) {
        for (Value v : inner->getOperands())
          if (scratch.count(v) && !mapping.contains(v) &&
              phaseOf.lookup(v.getDefiningOp()) < p)
            mapping.map(v, memref::LoadOp::create(lb, loc, scratch[v],
                                                  ValueRange{lane}));
      });
    }
    for (Operation *op : phases[p]) {
      if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
        Value source = shuffle.getValue();
        Value result = source;
        if (definedInBody(source)) {
          Value offset = arith::ConstantIndexOp::create(
              lb, loc, *getConstantIntValue(shuffle.getOffset()));
          Value from;
          if (shuffle.getMode() == gpu::ShuffleMode::XOR) {
            from = arith::XOrIOp::create(lb, loc, lane, offset);
          } else { // idx: lane `offset` of this lane's width-wide segment
            Value width = arith::ConstantIndexOp::create(
                lb, loc, *getConstantIntValue(shuffle.getWidth()));
            Value first = arith::SubIOp::create(
                lb, loc, lane, arith::RemUIOp::create(lb, loc, lane, width));
            from = arith::AddIOp::create(lb, loc, first, offset);
          }
          result = memref::LoadOp::create(lb, loc, scratch[source],
                                          ValueRange{from});
        } else {
          result = mapping.lookupOrDefault(source);
        }
        mapping.map(shuffle.getShuffleResult(), result);
        mapping.map(shuffle.getValid(),
                    arith::ConstantOp::create(lb, loc, lb.getBoolAttr(true)));
      } else {
        lb.clone(*op, mapping);
      }
      for (Value result : op->getResults())
        if (scratch.count(result))
          memref::StoreOp::create(lb, loc, mapping.lookup(result),
                                  scratch[result], ValueRange{lane});
    }
  }
};

struct ConvertWarpShufflesToLaneLoopsPass
    : mlir::moe::impl::ConvertWarpShufflesToLaneLoopsPassBase<
          ConvertWarpShufflesToLaneLoopsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // A shuffle in an scf.for of a thread loop (a warp schedule's chunks)
    // runs in every iteration: the loop is unrolled first, so that its
    // shuffles stand in the thread loop's body, where phases are cut.
    // Only loops that stand in the thread loop's body through other
    // scf.for loops: a shuffle under an scf.if is reported below anyway.
    SmallVector<scf::ForOp> shuffleLoops;
    func.walk([&](scf::ForOp loop) {
      Operation *parent = loop->getParentOp();
      while (isa<scf::ForOp>(parent))
        parent = parent->getParentOp();
      auto thread = dyn_cast<scf::ParallelOp>(parent);
      if (thread && isThreadLoop(thread) && holdsShuffle(loop.getRegion()))
        shuffleLoops.push_back(loop);
    });
    // Outermost last: inner loops (walked first) are unrolled before the
    // loops that hold them.
    for (scf::ForOp loop : shuffleLoops) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips) {
        loop.emitOpError("with warp shuffles needs a constant trip count");
        return signalPassFailure();
      }
      if (trips->isZero()) { // runs no iteration: its results are its inits
        loop.replaceAllUsesWith(loop.getInitArgs());
        loop.erase();
        continue;
      }
      if (failed(loopUnrollFull(loop))) {
        loop.emitOpError("with warp shuffles could not be unrolled");
        return signalPassFailure();
      }
    }
    SmallVector<scf::ParallelOp> loops;
    func.walk([&](scf::ParallelOp loop) {
      if (isThreadLoop(loop) && holdsShuffle(loop.getRegion()))
        loops.push_back(loop);
    });
    OpBuilder entry = OpBuilder::atBlockBegin(&func.getBody().front());
    for (scf::ParallelOp loop : loops) {
      LanePhases phases(loop);
      if (failed(phases.check()))
        return signalPassFailure();
      if (failed(phases.cut()) || failed(phases.allocateScratch(entry)))
        return signalPassFailure();
      OpBuilder b(loop);
      for (unsigned p = 0; p < phases.phases.size(); ++p)
        phases.emitPhase(b, p);
      loop.erase();
    }
  }
};

} // namespace
