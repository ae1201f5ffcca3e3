//===- GroupedGemmKernel.cpp - the body of a generated grouped GEMM -------===//
//
// One CTA = a consumer warpgroup per 64 rows of the tile and a producer
// warpgroup. The producer keeps one thread issuing TMA loads into a ring of
// `stages` shared-memory stages; each consumer runs wgmma on its 64 rows of
// each stage as it fills (B shared), then writes its rows of the tile
// through shared memory, those of the tile's group only. Both walk the same
// tiles: CTA i takes tiles i, i + numCtas, ... of the linear order
// (m-tile, n-tile), m-tiles numbered group after group, then the tiles of the
// zero rows past the last group. Each stage has a "full" mbarrier (the
// producer's TMA transactions complete it) and an "empty" one (the consumer
// arrives when its wgmma no longer reads the stage). A running count of
// k-steps, shared by both sides' loops, gives each step's stage (count mod
// stages) and barrier phase (count / stages, mod 2) across tiles.
//
//===----------------------------------------------------------------------===//
#include "GroupedGemmKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::moe::grouped_gemm;

namespace {

/// Where a tile's rows and columns are.
struct TileCoordinates {
  Value isGroupTile; // i1: rows of a group (else zero rows past the groups)
  Value group;       // index; meaningful where isGroupTile
  Value rowBegin, rowEnd, colBegin; // index; rows [rowBegin, rowEnd) are stored
};

class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, Location loc, const GroupedGemmConfig &config,
                const GroupedGemmKernelOperands &operands)
      : b(b), loc(loc), config(config), operands(operands), ctx(b.getContext()),
        workgroup(
            gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)) {}

  void build() {
    setUpThreadIds();
    setUpSharedMemory();
    initBarriers();
    scanGroupSizes();
    gpu::BarrierOp::create(b, loc);
    Value isProducer = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge, threadId,
        index(config.consumers() * GroupedGemmConfig::warpgroupSize));
    auto roles = scf::IfOp::create(b, loc, isProducer, /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(roles.thenBlock());
      emitProducer();
      b.setInsertionPointToStart(roles.elseBlock());
      emitConsumer();
    }
  }

private:
  // --- small IR helpers -------------------------------------------------
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value i1(bool v) { return arith::ConstantIntOp::create(b, loc, v, 1); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value divU(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value remU(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value minU(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value toIndex(Value i32Value) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i32Value);
  }
  Value toI32(Value indexValue) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), indexValue);
  }
  /// A static-shaped view of `shape` x `element` at `byteOffset` of the
  /// aligned shared memory (an offset computed at run time where it depends
  /// on the k-step's stage or the consumer).
  Value sharedView(ArrayRef<int64_t> shape, Type element, Value byteOffset) {
    auto type = MemRefType::get(shape, element, AffineMap(), workgroup);
    return memref::ViewOp::create(b, loc, type, dynamicShared,
                                  add(alignPad, byteOffset), ValueRange{});
  }
  /// Runs `body` under `condition` (an scf.if without results).
  template <typename Body> void ifThen(Value condition, Body &&body) {
    auto op = scf::IfOp::create(b, loc, condition, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(op.thenBlock());
    body();
  }

  // --- set-up -------------------------------------------------------------
  void setUpThreadIds() {
    threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  }

  /// The dynamic shared memory's base rounded up to 1024 bytes (the
  /// mbarriers are static shared memory, which comes first).
  void setUpSharedMemory() {
    auto bytes = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 AffineMap(), workgroup);
    dynamicShared = gpu::DynamicSharedMemoryOp::create(b, loc, bytes);
    Value base =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, dynamicShared);
    alignPad = remU(sub(index(1024), remU(base, index(1024))), index(1024));
    scanTiles = sharedView({config.scanLength()}, b.getI32Type(),
                           index(config.scanOffset()));
    scanRows = sharedView({config.scanLength()}, b.getI32Type(),
                          index(config.scanOffset() + config.scanLength() * 4));
  }

  void initBarriers() {
    auto type = nvgpu::MBarrierGroupType::get(ctx, workgroup, config.stages);
    fullBarriers = nvgpu::MBarrierCreateOp::create(b, loc, type);
    emptyBarriers = nvgpu::MBarrierCreateOp::create(b, loc, type);
    Value first = cmp(arith::CmpIPredicate::eq, threadId, index(0));
    for (int64_t s = 0; s < config.stages; ++s) {
      nvgpu::MBarrierInitOp::create(b, loc, fullBarriers, index(1), index(s),
                                    first);
      // Every consumer warpgroup releases each stage.
      nvgpu::MBarrierInitOp::create(b, loc, emptyBarriers,
                                    index(config.consumers()), index(s), first);
    }
    // The initialized barriers must be visible to the async proxy (TMA's
    // complete_tx) too, not only to the threads past the next bar.sync.
    ifThen(first, [&] { NVVM::FenceMbarrierInitOp::create(b, loc); });
  }

  // --- the tile scheduler -------------------------------------------------
  /// Inclusive prefix sums of the tiles per group (ceil(size / BM)) and of
  /// the group sizes, in shared memory: Hillis-Steele, every thread owning
  /// scanLength / threads entries, log2(G) rounds.
  void scanGroupSizes() {
    int64_t perThread = config.scanLength() / config.threads();
    SmallVector<Value> owned;
    for (int64_t j = 0; j < perThread; ++j)
      owned.push_back(add(threadId, index(j * config.threads())));
    for (Value i : owned) {
      Value inRange = cmp(arith::CmpIPredicate::ult, i, index(config.groups));
      Value clamped = minU(i, index(config.groups - 1));
      Value size = memref::LoadOp::create(b, loc, operands.groupSizes,
                                          ValueRange{clamped});
      size = arith::MaxSIOp::create(b, loc, size, i32(0));
      size = select(inRange, size, i32(0));
      Value tiles =
          arith::CeilDivUIOp::create(b, loc, size, i32(config.blockM));
      memref::StoreOp::create(b, loc, tiles, scanTiles, ValueRange{i});
      memref::StoreOp::create(b, loc, size, scanRows, ValueRange{i});
    }
    for (int64_t distance = 1; distance < config.groups; distance *= 2) {
      gpu::BarrierOp::create(b, loc);
      SmallVector<std::pair<Value, Value>> sums;
      for (Value i : owned) {
        Value hasPrevious = cmp(arith::CmpIPredicate::uge, i, index(distance));
        Value previous = select(hasPrevious, sub(i, index(distance)), index(0));
        auto sumWith = [&](Value array) {
          Value mine = memref::LoadOp::create(b, loc, array, ValueRange{i});
          Value theirs =
              memref::LoadOp::create(b, loc, array, ValueRange{previous});
          return add(mine, select(hasPrevious, theirs, i32(0)));
        };
        sums.emplace_back(sumWith(scanTiles), sumWith(scanRows));
      }
      gpu::BarrierOp::create(b, loc);
      for (auto [i, sum] : llvm::zip(owned, sums)) {
        memref::StoreOp::create(b, loc, sum.first, scanTiles, ValueRange{i});
        memref::StoreOp::create(b, loc, sum.second, scanRows, ValueRange{i});
      }
    }
  }

  /// The schedule's extent, read from the scans (after a barrier).
  void readScheduleExtent() {
    Value last = index(config.groups - 1);
    groupTiles =
        toIndex(memref::LoadOp::create(b, loc, scanTiles, ValueRange{last}));
    Value sumRows =
        toIndex(memref::LoadOp::create(b, loc, scanRows, ValueRange{last}));
    // More rows in the groups than the buffer has (invalid sizes) never
    // reach past the buffer.
    groupRowsEnd = minU(sumRows, index(config.rows));
    Value tailTiles = arith::CeilDivUIOp::create(
        b, loc, sub(index(config.rows), groupRowsEnd), index(config.blockM));
    totalTiles = mul(add(groupTiles, tailTiles), index(config.nTiles()));
  }

  Value scanAt(Value array, Value i) {
    return toIndex(memref::LoadOp::create(b, loc, array, ValueRange{i}));
  }

  /// The group of m-tile `mTile` (the first g with tiles[0..g] > mTile), by
  /// a binary search over the inclusive tile scan.
  Value findGroup(Value mTile) {
    int64_t steps = 1;
    while ((int64_t{1} << steps) <= config.groups)
      ++steps;
    Value lo = index(0), hi = index(config.groups);
    auto loop = scf::ForOp::create(b, loc, index(0), index(steps), index(1),
                                   ValueRange{lo, hi});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value curLo = loop.getRegionIterArg(0), curHi = loop.getRegionIterArg(1);
      Value active = cmp(arith::CmpIPredicate::ult, curLo, curHi);
      Value mid = divU(add(curLo, curHi), index(2));
      Value tilesThrough =
          scanAt(scanTiles, minU(mid, index(config.groups - 1)));
      Value right = cmp(arith::CmpIPredicate::ule, tilesThrough, mTile);
      Value newLo = select(andI(active, right), add(mid, index(1)), curLo);
      Value notRight = arith::XOrIOp::create(b, loc, right, i1(true));
      Value newHi = select(andI(active, notRight), mid, curHi);
      scf::YieldOp::create(b, loc, ValueRange{newLo, newHi});
    }
    return minU(loop.getResult(0), index(config.groups - 1));
  }

  TileCoordinates decodeTile(Value tile) {
    Value nTiles = index(config.nTiles());
    Value mTile = divU(tile, nTiles);
    TileCoordinates t;
    t.colBegin = mul(remU(tile, nTiles), index(GroupedGemmConfig::blockN));
    t.isGroupTile = cmp(arith::CmpIPredicate::ult, mTile, groupTiles);
    t.group = findGroup(mTile);
    Value hasPrevious = cmp(arith::CmpIPredicate::ugt, t.group, index(0));
    Value previous = select(hasPrevious, sub(t.group, index(1)), index(0));
    Value zero = index(0);
    Value tilesBefore = select(hasPrevious, scanAt(scanTiles, previous), zero);
    Value rowsBefore = select(hasPrevious, scanAt(scanRows, previous), zero);
    Value rowsThrough = scanAt(scanRows, t.group);
    Value blockM = index(config.blockM);
    Value groupBegin = add(rowsBefore, mul(sub(mTile, tilesBefore), blockM));
    Value groupEnd = minU(rowsThrough, index(config.rows));
    Value tailBegin = add(groupRowsEnd, mul(sub(mTile, groupTiles), blockM));
    t.rowBegin = select(t.isGroupTile, groupBegin, tailBegin);
    t.rowEnd = select(t.isGroupTile, groupEnd, index(config.rows));
    return t;
  }

  /// for tile = blockId; tile < totalTiles; tile += numCtas, carrying the
  /// k-step count; `body` gets the tile and the count and returns the new
  /// count.
  template <typename Body> void forEachTile(Body &&body) {
    auto loop = scf::ForOp::create(b, loc, blockId, totalTiles,
                                   index(config.numCtas), ValueRange{index(0)});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value count =
        body(decodeTile(loop.getInductionVar()), loop.getRegionIterArg(0));
    scf::YieldOp::create(b, loc, count);
  }

  /// K-steps of a tile: all of K for a group's tile, none for zero rows.
  Value kStepsOf(const TileCoordinates &t) {
    return select(t.isGroupTile, index(config.kTiles()), index(0));
  }

  Value stageOf(Value count) { return remU(count, index(config.stages)); }
  /// The parity of the barrier phase that k-step `count` waits for.
  Value phaseOf(Value count) {
    Value round = divU(count, index(config.stages));
    return arith::TruncIOp::create(b, loc, b.getI1Type(),
                                   toI32(remU(round, index(2))));
  }

  // --- TMA descriptors ------------------------------------------------------
  nvgpu::TensorMapDescriptorType tensorMapType(int64_t boxRows) {
    auto box = MemRefType::get({boxRows, GroupedGemmConfig::boxWidth},
                               b.getBF16Type(), AffineMap(), workgroup);
    return nvgpu::TensorMapDescriptorType::get(
        ctx, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  }

  /// The generic address of this CTA's copy of descriptor `which` (0: A,
  /// 1: B) in the scratch buffer.
  Value descriptorAddress(int64_t which) {
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, operands.descriptorScratch);
    Value offset =
        mul(add(mul(blockId, index(32)), index(16 * which)), index(8));
    Value address =
        arith::IndexCastOp::create(b, loc, b.getI64Type(), add(base, offset));
    return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                                    address);
  }

  /// Views the descriptor at `address` as the nvgpu type its ops take
  /// (convert-nvgpu-to-nvvm lowers that type to the pointer again).
  Value asTensorMap(Value address, nvgpu::TensorMapDescriptorType type) {
    return UnrealizedConversionCastOp::create(b, loc, type, address)
        .getResult(0);
  }

  /// The producer's thread copies the host-encoded descriptors into this
  /// CTA's scratch slots, then orders those generic-proxy writes before the
  /// tensor-map proxy reads TMA makes of them.
  void publishDescriptors() {
    for (int64_t i = 0; i < 16; ++i) {
      memref::StoreOp::create(b, loc, operands.aMapWords[i],
                              operands.descriptorScratch,
                              ValueRange{blockId, index(i)});
      memref::StoreOp::create(b, loc, operands.bMapWords[i],
                              operands.descriptorScratch,
                              ValueRange{blockId, index(16 + i)});
    }
    NVVM::FenceProxyReleaseOp::create(b, loc, NVVM::MemScopeKind::GPU);
    for (int64_t which = 0; which < 2; ++which)
      NVVM::FenceProxyAcquireOp::create(b, loc, NVVM::MemScopeKind::GPU,
                                        descriptorAddress(which), i32(128));
  }

  // --- shared-memory stages
  // ---------------------------------------------------
  Value aStageOffset(Value stage) {
    return mul(stage, index(config.aStageBytes()));
  }
  Value bStageOffset(Value stage) {
    return add(index(config.bOffset(0)),
               mul(stage, index(config.bStageBytes())));
  }
  /// A's stage: BM x BK, K contiguous.
  Value aStage(Value stage) {
    return sharedView({config.blockM, GroupedGemmConfig::blockK},
                      b.getBF16Type(), aStageOffset(stage));
  }
  /// B's stage as wgmma reads it: BK x BN, made of BN / 64 TMA boxes of
  /// BK x 64 one after another.
  Value bStage(Value stage) {
    return sharedView({GroupedGemmConfig::blockK, GroupedGemmConfig::blockN},
                      b.getBF16Type(), bStageOffset(stage));
  }
  Value bStageBox(Value stage, int64_t box) {
    int64_t boxBytes =
        GroupedGemmConfig::blockK * GroupedGemmConfig::boxWidth * 2;
    return sharedView({GroupedGemmConfig::blockK, GroupedGemmConfig::boxWidth},
                      b.getBF16Type(),
                      add(bStageOffset(stage), index(box * boxBytes)));
  }

  // --- producer
  // ---------------------------------------------------------------
  void emitProducer() {
    NVVM::SetMaxRegisterOp::create(b, loc, GroupedGemmConfig::producerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
    Value leader =
        cmp(arith::CmpIPredicate::eq, threadId,
            index(config.consumers() * GroupedGemmConfig::warpgroupSize));
    ifThen(leader, [&] {
      publishDescriptors();
      Value aMap =
          asTensorMap(descriptorAddress(0), tensorMapType(config.blockM));
      Value bMap = asTensorMap(descriptorAddress(1),
                               tensorMapType(GroupedGemmConfig::blockK));
      nvgpu::TmaPrefetchOp::create(b, loc, aMap, Value());
      nvgpu::TmaPrefetchOp::create(b, loc, bMap, Value());
      readScheduleExtent();
      forEachTile([&](const TileCoordinates &t, Value count) {
        return emitTileLoads(t, count, aMap, bMap);
      });
    });
  }

  Value emitTileLoads(const TileCoordinates &t, Value count, Value aMap,
                      Value bMap) {
    auto loop = scf::ForOp::create(b, loc, index(0), kStepsOf(t), index(1),
                                   ValueRange{count});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value step = loop.getRegionIterArg(0);
    Value stage = stageOf(step);
    // A stage is free once the consumer released its previous use; the
    // first round waits on the phase before the barriers' first, which
    // counts as complete.
    Value freePhase = arith::XOrIOp::create(b, loc, phaseOf(step), i1(true));
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, emptyBarriers, freePhase,
                                           index(10000000), stage);
    nvgpu::MBarrierArriveExpectTxOp::create(
        b, loc, fullBarriers, index(config.stageTransactionBytes()), stage,
        Value());
    Value k = mul(loop.getInductionVar(), index(GroupedGemmConfig::blockK));
    Value bRow = add(mul(t.group, index(config.kDim)), k);
    // TMA coordinates are innermost first: (column, row).
    nvgpu::TmaAsyncLoadOp::create(b, loc, aStage(stage), fullBarriers, aMap,
                                  ValueRange{k, t.rowBegin}, stage, Value(),
                                  Value());
    int64_t boxes = GroupedGemmConfig::blockN / GroupedGemmConfig::boxWidth;
    for (int64_t box = 0; box < boxes; ++box) {
      Value column = add(t.colBegin, index(box * GroupedGemmConfig::boxWidth));
      nvgpu::TmaAsyncLoadOp::create(b, loc, bStageBox(stage, box), fullBarriers,
                                    bMap, ValueRange{column, bRow}, stage,
                                    Value(), Value());
    }
    scf::YieldOp::create(b, loc, add(step, index(1)));
    return loop.getResult(0);
  }

  // --- consumer
  // ---------------------------------------------------------------
  void emitConsumer() {
    NVVM::SetMaxRegisterOp::create(b, loc, GroupedGemmConfig::consumerRegisters,
                                   NVVM::SetMaxRegisterAction::increase);
    readScheduleExtent();
    // The consumer never issues TMA: the descriptor values only carry the
    // swizzle that wgmma's shared-memory descriptors must match.
    Value aMap =
        asTensorMap(descriptorAddress(0), tensorMapType(config.blockM));
    Value bMap = asTensorMap(descriptorAddress(1),
                             tensorMapType(GroupedGemmConfig::blockK));
    Value size = index(GroupedGemmConfig::warpgroupSize);
    consumer = divU(threadId, size);
    consumerThread = remU(threadId, size);
    isConsumerLeader = cmp(arith::CmpIPredicate::eq, consumerThread, index(0));
    forEachTile([&](const TileCoordinates &t, Value count) {
      auto [accumulator, next] = emitTileMma(t, count, aMap, bMap);
      emitEpilogue(t, accumulator);
      return next;
    });
  }

  nvgpu::WarpgroupAccumulatorType accumulatorType() {
    auto fragment =
        VectorType::get({64, GroupedGemmConfig::blockN}, b.getF32Type());
    return nvgpu::WarpgroupAccumulatorType::get(ctx, fragment);
  }

  /// Releases the stage of k-step `step` to the producer.
  void releaseStage(Value step) {
    nvgpu::MBarrierArriveOp::create(b, loc, emptyBarriers, stageOf(step));
  }

  std::pair<Value, Value> emitTileMma(const TileCoordinates &t, Value count,
                                      Value aMap, Value bMap) {
    Value zero =
        nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accumulatorType());
    Value kSteps = kStepsOf(t);
    auto loop = scf::ForOp::create(b, loc, index(0), kSteps, index(1),
                                   ValueRange{zero, count});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value accumulator = loop.getRegionIterArg(0);
      Value step = loop.getRegionIterArg(1);
      Value stage = stageOf(step);
      nvgpu::MBarrierTryWaitParityOp::create(
          b, loc, fullBarriers, phaseOf(step), index(10000000), stage);
      Value result = emitStageMma(stage, accumulator, aMap, bMap);
      // warpgroup.mma waits until at most one wgmma group is in flight:
      // the previous step's is done, so its stage is free.
      Value notFirst =
          cmp(arith::CmpIPredicate::ugt, loop.getInductionVar(), index(0));
      ifThen(andI(notFirst, isConsumerLeader),
             [&] { releaseStage(sub(step, index(1))); });
      scf::YieldOp::create(b, loc, ValueRange{result, add(step, index(1))});
    }
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    Value next = loop.getResult(1);
    Value anySteps = cmp(arith::CmpIPredicate::ugt, kSteps, index(0));
    ifThen(andI(anySteps, isConsumerLeader),
           [&] { releaseStage(sub(next, index(1))); });
    return {loop.getResult(0), next};
  }

  /// This consumer's warpgroup MMA on stage `stage`: its 64 rows,
  /// 64 x BN += 64 x BK · BK x BN (A's rows are 128-byte swizzle rows, so
  /// 64 of them start on a 1024-byte boundary).
  Value emitStageMma(Value stage, Value accumulator, Value aMap, Value bMap) {
    Value rowsBefore = mul(consumer, index(64 * GroupedGemmConfig::blockK * 2));
    Value aTile = sharedView({64, GroupedGemmConfig::blockK}, b.getBF16Type(),
                             add(aStageOffset(stage), rowsBefore));
    Value bTile = bStage(stage);
    auto aDescriptor = nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, loc,
        nvgpu::WarpgroupMatrixDescriptorType::get(
            ctx, cast<MemRefType>(aTile.getType())),
        aTile, aMap);
    auto bDescriptor = nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, loc,
        nvgpu::WarpgroupMatrixDescriptorType::get(
            ctx, cast<MemRefType>(bTile.getType())),
        bTile, bMap);
    // B is [K, N] with N contiguous: wgmma reads it transposed (MN-major).
    return nvgpu::WarpgroupMmaOp::create(
        b, loc, accumulatorType(), aDescriptor, bDescriptor,
        /*waitGroup=*/b.getI64IntegerAttr(1), /*transposeA=*/UnitAttr(),
        /*transposeB=*/b.getUnitAttr(), accumulator);
  }

  // --- epilogue
  // ---------------------------------------------------------------
  /// Synchronizes this consumer warpgroup only (named barrier 1 + its
  /// index; the producer runs ahead, the other consumer has its own rows).
  void consumerBarrier() {
    Value id = add(toI32(consumer), i32(1));
    NVVM::BarrierOp::create(b, loc, /*res=*/Type(), /*barrierId=*/id,
                            /*numberOfThreads=*/
                            i32(GroupedGemmConfig::warpgroupSize),
                            /*reductionOp=*/nullptr,
                            /*reductionPredicate=*/Value());
  }

  /// The accumulator as the LLVM struct convert-nvgpu-to-nvvm makes of it:
  /// one inner struct of BN / 2 f32, the register fragments of one
  /// m64nBNk16 wgmma (the two casts fold away in that conversion).
  Value accumulatorFragments(Value accumulator) {
    SmallVector<Type> perThread(GroupedGemmConfig::blockN / 2, b.getF32Type());
    auto inner = LLVM::LLVMStructType::getLiteral(ctx, perThread);
    auto type = LLVM::LLVMStructType::getLiteral(ctx, {inner});
    return UnrealizedConversionCastOp::create(b, loc, type, accumulator)
        .getResult(0);
  }

  /// Writes this consumer's 64 x BN accumulator into its rows of `staging`:
  /// thread t of the warpgroup holds, for every 8-column chunk j and half h,
  /// columns 8j + 2 (t mod 4) and the next of row 16 (t / 32) + (t mod 32) / 4
  /// + 8h (the wgmma accumulator layout), as registers 4j + 2h and 4j + 2h + 1.
  void stageAccumulator(Value accumulator, Value staging) {
    Value fragments = accumulatorFragments(accumulator);
    Value lane = remU(consumerThread, index(32));
    Value row = add(mul(consumer, index(64)),
                    add(mul(divU(consumerThread, index(32)), index(16)),
                        divU(lane, index(4))));
    Value column = mul(remU(lane, index(4)), index(2));
    auto pairType = VectorType::get({2}, b.getF32Type());
    Value pair0 = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(pairType, b.getF32FloatAttr(0.0f)));
    for (int64_t half = 0; half < 2; ++half)
      for (int64_t chunk = 0; chunk < GroupedGemmConfig::blockN / 8; ++chunk) {
        Value pair = pair0;
        for (int64_t k = 0; k < 2; ++k) {
          Value v = LLVM::ExtractValueOp::create(
              b, loc, fragments,
              ArrayRef<int64_t>{0, 4 * chunk + 2 * half + k});
          pair = vector::InsertOp::create(b, loc, v, pair, k);
        }
        vector::StoreOp::create(b, loc, pair, staging,
                                ValueRange{add(row, index(8 * half)),
                                           add(column, index(8 * chunk))});
      }
  }

  /// Accumulator -> shared memory (f32) -> the tile's rows of c: each
  /// consumer moves its own 64 rows, each thread 4 columns of a row at a
  /// time; rows and columns past the tile's group or past N are not written.
  void emitEpilogue(const TileCoordinates &t, Value accumulator) {
    Value staging =
        sharedView({config.blockM, GroupedGemmConfig::epilogueRowFloats},
                   b.getF32Type(), index(config.epilogueOffset()));
    consumerBarrier(); // the previous tile's reads of `staging` are done
    stageAccumulator(accumulator, staging);
    consumerBarrier();
    constexpr int64_t vectorWidth = 4;
    int64_t threadsPerRow = GroupedGemmConfig::blockN / vectorWidth;
    int64_t rowsPerPass = GroupedGemmConfig::warpgroupSize / threadsPerRow;
    Value column =
        mul(remU(consumerThread, index(threadsPerRow)), index(vectorWidth));
    Value myRows = mul(consumer, index(64));
    Value firstRow = add(myRows, divU(consumerThread, index(threadsPerRow)));
    Value globalColumn = add(t.colBegin, column);
    Value columnInside =
        cmp(arith::CmpIPredicate::ult, globalColumn, index(config.n));
    auto rows = scf::ForOp::create(b, loc, firstRow, add(myRows, index(64)),
                                   index(rowsPerPass));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(rows.getBody());
    Value row = rows.getInductionVar();
    Value globalRow = add(t.rowBegin, row);
    Value rowInside = cmp(arith::CmpIPredicate::ult, globalRow, t.rowEnd);
    ifThen(andI(rowInside, columnInside), [&] {
      auto f32x4 = VectorType::get({vectorWidth}, b.getF32Type());
      Value values = vector::LoadOp::create(b, loc, f32x4, staging,
                                            ValueRange{row, column});
      if (!config.f32Out)
        values = arith::TruncFOp::create(
            b, loc, VectorType::get({vectorWidth}, b.getBF16Type()), values);
      vector::StoreOp::create(b, loc, values, operands.c,
                              ValueRange{globalRow, globalColumn});
    });
  }

  OpBuilder &b;
  Location loc;
  const GroupedGemmConfig &config;
  const GroupedGemmKernelOperands &operands;
  MLIRContext *ctx;
  gpu::AddressSpaceAttr workgroup;

  Value threadId, blockId;
  Value dynamicShared, alignPad;
  Value scanTiles, scanRows;
  Value fullBarriers, emptyBarriers;
  Value groupTiles, groupRowsEnd, totalTiles;
  Value consumer, consumerThread, isConsumerLeader;
};

} // namespace

void mlir::moe::grouped_gemm::buildGroupedGemmKernel(
    OpBuilder &builder, Location loc, const GroupedGemmConfig &config,
    const GroupedGemmKernelOperands &operands) {
  KernelBuilder(builder, loc, config, operands).build();
}
