//===- GroupedGemmKernel.cpp - the body of a generated grouped GEMM -------===//
//
// One CTA = a consumer warpgroup per 64 rows of the tile and a producer
// warpgroup. The producer keeps one thread issuing TMA loads into a ring of
// `stages` shared-memory stages; each consumer runs wgmma on its 64 rows of
// each stage as it fills (B shared), then writes its rows of the tile
// through shared memory: as bf16 boxes that TMA stores where the rows are
// all the tile's, else row by row within the group (f32 staging). With
// `accumulate`, c's values are loaded before the tile's main loop. With a
// second product (GroupedGemmConfig::kSecond) the producer loads its a2 and
// b2 k-steps after A's and B's into the same ring; the consumers see one
// longer K. Both walk
// the same tiles: CTA i takes tiles i, i + numCtas, ... of a linear order that
// the group sizes, scanned on the device, decode:
//  - RaggedDim::M (grouped matmul): group after group, then the tiles of
//    the zero rows past the last group; only the rows of the tile's group
//    are stored;
//  - RaggedDim::K (weight gradient): group after group, largest group
//    first where the largest has more than twice the mean rows
//    (GroupedGemmConfig::heaviestGroupsFirst, each round of numCtas
//    tiles dealt in alternating directions), each tile reducing
//    over its group's rows; rows of the next group that a last,
//    partial k-step brings are zeroed in shared memory before the wgmma, and
//    an empty group's tiles store zeros.
// A group's tiles run in panels of a few n-tiles (m-tile after m-tile
// within a panel), so that the CTAs running at once share a few of B's
// column tiles and a range of A's rows in L2 instead of each streaming a
// different part of all of B (GroupedGemmConfig::panelTiles).
// Each stage has a "full" mbarrier (the producer's TMA transactions complete
// it) and an "empty" one (each consumer arrives when its wgmma no longer
// reads the stage). A running count of k-steps, shared by both sides'
// loops, gives each step's stage (count mod stages) and barrier phase
// (count / stages, mod 2) across tiles.
//
//===----------------------------------------------------------------------===//
#include "GroupedGemmKernel.h"

#include "MoeDialect/Conversion/GPUCodegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <array>
#include <optional>

using namespace mlir;
using namespace mlir::moe::grouped_gemm;

namespace {

/// Where a tile's operands and results are (all index values).
struct TileCoordinates {
  Value group; // meaningful where the tile has k-steps
  /// Rows [rowBegin, rowEnd) of c are stored, columns from colBegin.
  Value rowBegin, rowEnd, colBegin;
  /// The tile's first M index in A: a row of a (RaggedDim::M) or a column
  /// of the transposed operand (RaggedDim::K).
  Value aBegin;
  /// RaggedDim::K: the group's rows of both operands, and the row where its
  /// first k-step starts (reductionBegin, or the blockK-row block holding it
  /// where GroupedGemmConfig::kMajorReduction).
  Value reductionBegin, reductionEnd, stepBegin;
  Value kSteps;
};

class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, Location loc, const GroupedGemmConfig &config,
                const GroupedGemmKernelOperands &operands)
      : b(b), loc(loc), config(config), operands(operands), ctx(b.getContext()),
        workgroup(
            gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)),
        stagedEpilogue(
            operands.epilogue && config.pingpong() && !config.f32Out &&
            config.accumulatorsPerOutput == 1 &&
            (!operands.epilogueInputs.empty() ||
             !operands.extraOutputs.empty())) {}

  void build() {
    setUpThreadIds();
    setUpSharedMemory();
    initBarriers();
    scanGroupSizes();
    if (config.tmaStore())
      publishOutputTensorMap();
    gpu::BarrierOp::create(b, loc);
    if (config.heaviestGroupsFirst()) {
      orderGroupsBySize();
      gpu::BarrierOp::create(b, loc);
      decideSkewedSchedule();
    }
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
  /// Makes this thread's generic-proxy writes to shared memory visible to
  /// the async proxy (TMA stores, wgmma reads).
  void fenceSharedForAsyncProxy() {
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  }
  /// bar.sync on named barrier `id` (i32) among `threads` threads.
  void namedBarrier(Value id, int64_t threads) {
    NVVM::BarrierOp::create(b, loc, /*res=*/Type(), id, i32(threads),
                            /*reductionOp=*/nullptr,
                            /*reductionPredicate=*/Value());
  }

  // --- set-up -------------------------------------------------------------
  void setUpThreadIds() {
    threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  }

  /// The dynamic shared memory's base rounded up to 1024 bytes (the
  /// mbarriers are static shared memory, which comes first), plus
  /// GroupedGemmConfig::racecheckGuardBytes.
  void setUpSharedMemory() {
    auto bytes = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                 AffineMap(), workgroup);
    dynamicShared = gpu::DynamicSharedMemoryOp::create(b, loc, bytes);
    sharedBase =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, dynamicShared);
    alignPad =
        remU(sub(index(1024), remU(sharedBase, index(1024))), index(1024));
    if (int64_t guard = config.racecheckGuardBytes())
      alignPad = add(alignPad, index(guard));
    scanTiles = sharedView({config.scanLength()}, b.getI32Type(),
                           index(config.scanOffset()));
    scanRows = sharedView({config.scanLength()}, b.getI32Type(),
                          index(config.scanOffset() + config.scanLength() * 4));
    if (config.heaviestGroupsFirst())
      groupOrder = sharedView(
          {config.scanLength()}, b.getI32Type(),
          index(config.scanOffset() + 2 * config.scanLength() * 4));
  }

  void initBarriers() {
    // GroupedGemmConfig::producerZeroes: full barriers [stages, 2 stages)
    // are the "loaded" barriers of partial k-steps (loadedBarrier).
    int64_t fulls = config.stages * (config.producerZeroes() ? 2 : 1);
    auto type = nvgpu::MBarrierGroupType::get(ctx, workgroup, fulls);
    fullBarriers = nvgpu::MBarrierCreateOp::create(b, loc, type);
    // Pingpong: one more empty barrier, never waited on, that takes the
    // arrivals of a release that has nothing to release (arriveEmpty).
    int64_t empties = config.stages + (config.pingpong() ? 1 : 0);
    emptyBarriers = nvgpu::MBarrierCreateOp::create(
        b, loc, nvgpu::MBarrierGroupType::get(ctx, workgroup, empties));
    Value first = cmp(arith::CmpIPredicate::eq, threadId, index(0));
    for (int64_t s = config.stages; s < fulls; ++s)
      nvgpu::MBarrierInitOp::create(b, loc, fullBarriers, index(1), index(s),
                                    first);
    for (int64_t s = 0; s < empties; ++s) {
      if (s < config.stages)
        nvgpu::MBarrierInitOp::create(b, loc, fullBarriers, index(1),
                                      index(s), first);
      // Every consumer warpgroup releases each stage (stageReleasers).
      nvgpu::MBarrierInitOp::create(b, loc, emptyBarriers,
                                    index(stageReleasers()), index(s), first);
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
      // Sizes outside [0, R] (invalid) are clamped, so that no tile and no
      // k-step reaches past the operands and the i32 sums cannot wrap
      // (pipelineReason keeps G x R below 2^31).
      size = arith::MaxSIOp::create(b, loc, size, i32(0));
      size = arith::MinSIOp::create(b, loc, size, i32(config.rows));
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

  /// GroupedGemmConfig::heaviestGroupsFirst: groupOrder[i] = the group
  /// with the i-th most rows (ties: the lower group first), from the row
  /// scan (after a barrier). Each thread ranks the groups it owns against
  /// all G: G steps of two shared loads, once per CTA.
  void orderGroupsBySize() {
    int64_t perThread = config.scanLength() / config.threads();
    for (int64_t j = 0; j < perThread; ++j) {
      Value g = add(threadId, index(j * config.threads()));
      ifThen(cmp(arith::CmpIPredicate::ult, g, index(config.groups)), [&] {
        Value size = toI32(rowsOfGroup(g));
        auto loop = scf::ForOp::create(b, loc, index(0), index(config.groups),
                                       index(1), ValueRange{i32(0), i32(0)});
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(loop.getBody());
          Value h = loop.getInductionVar();
          Value rank = loop.getRegionIterArg(0);
          Value through =
              memref::LoadOp::create(b, loc, scanRows, ValueRange{h});
          Value other = sub(through, loop.getRegionIterArg(1));
          Value heavier = arith::OrIOp::create(
              b, loc, cmp(arith::CmpIPredicate::sgt, other, size),
              andI(cmp(arith::CmpIPredicate::eq, other, size),
                   cmp(arith::CmpIPredicate::ult, h, g)));
          Value one = arith::ExtUIOp::create(b, loc, b.getI32Type(), heavier);
          scf::YieldOp::create(b, loc, ValueRange{add(rank, one), through});
        }
        memref::StoreOp::create(b, loc, toI32(g), groupOrder,
                                ValueRange{toIndex(loop.getResult(0))});
      });
    }
  }

  /// Whether the largest group (groupOrder[0], after a barrier) has more
  /// than twice the mean rows: only then do the tiles run heaviest first.
  /// With near-equal groups group order is as balanced, and its rounds
  /// were 2-3 % faster on qwen3-30b-a3b's balanced weight gradients
  /// (bench/results/2026-11-30-h200-heaviest-first run1).
  void decideSkewedSchedule() {
    Value largest = toIndex(
        memref::LoadOp::create(b, loc, groupOrder, ValueRange{index(0)}));
    Value largestRows = rowsOfGroup(largest);
    Value totalRows = scanAt(scanRows, index(config.groups - 1));
    skewedSchedule =
        cmp(arith::CmpIPredicate::ugt, mul(largestRows, index(config.groups)),
            mul(totalRows, index(2)));
  }

  /// The schedule's extent, read from the scans (after a barrier).
  void readScheduleExtent() {
    if (config.ragged == RaggedDim::K) {
      totalTiles = index(config.groups * config.mTiles() * config.nTiles());
      return;
    }
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
  /// The exclusive scan at `g`: the inclusive one at g - 1, 0 for group 0.
  Value scanBefore(Value array, Value g) {
    Value hasPrevious = cmp(arith::CmpIPredicate::ugt, g, index(0));
    Value previous = select(hasPrevious, sub(g, index(1)), index(0));
    return select(hasPrevious, scanAt(array, previous), index(0));
  }
  /// Group `g`'s rows (its clamped size) from the row scan.
  Value rowsOfGroup(Value g) {
    return sub(scanAt(scanRows, g), scanBefore(scanRows, g));
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
    return config.ragged == RaggedDim::M ? decodeRowGroupTile(tile)
                                         : decodeReductionTile(tile);
  }

  /// The (m-tile, n-tile) of the `i`th of a group's mTiles x nTiles tiles
  /// in panel order (GroupedGemmConfig::panelTiles): panel after panel of
  /// panelTiles n-tiles (the last one narrower), m-tile after m-tile
  /// within a panel, n-tile after n-tile within an m-tile's row of it.
  std::pair<Value, Value> panelOrder(Value i, Value mTiles) {
    Value nTiles = index(config.nTiles());
    if (config.panelTiles >= config.nTiles()) // one panel: row-major
      return {divU(i, nTiles), remU(i, nTiles)};
    Value panelTiles = index(config.panelTiles);
    Value panel = divU(i, mul(mTiles, panelTiles));
    Value firstColumn = mul(panel, panelTiles);
    Value inPanel = sub(i, mul(panel, mul(mTiles, panelTiles)));
    Value width = minU(panelTiles, sub(nTiles, firstColumn));
    return {divU(inPanel, width), add(firstColumn, remU(inPanel, width))};
  }

  /// RaggedDim::M: group after group, each group's tiles in panel order;
  /// then the zero rows' tiles, m-tile after m-tile.
  TileCoordinates decodeRowGroupTile(Value tile) {
    Value nTiles = index(config.nTiles());
    // Group g's tiles are [tilesBefore(g), tilesThrough(g)) x nTiles, so
    // the m-tile of the row-major order finds the group.
    Value rowMajorMTile = divU(tile, nTiles);
    TileCoordinates t;
    Value isGroupTile =
        cmp(arith::CmpIPredicate::ult, rowMajorMTile, groupTiles);
    t.group = findGroup(rowMajorMTile);
    Value hasPrevious = cmp(arith::CmpIPredicate::ugt, t.group, index(0));
    Value previous = select(hasPrevious, sub(t.group, index(1)), index(0));
    Value zero = index(0);
    Value tilesBefore = select(hasPrevious, scanAt(scanTiles, previous), zero);
    Value rowsBefore = select(hasPrevious, scanAt(scanRows, previous), zero);
    Value rowsThrough = scanAt(scanRows, t.group);
    Value mInGroup, nTile = remU(tile, nTiles);
    Value outBlockN = index(config.outBlockN());
    if (config.panelTiles >= config.nTiles()) {
      t.colBegin = mul(nTile, outBlockN);
      mInGroup = sub(rowMajorMTile, tilesBefore);
    } else {
      // A tail tile decodes as the first tile of a one-m-tile group (its
      // coordinates are not used), so that no width or divisor is zero.
      Value groupMTiles = sub(scanAt(scanTiles, t.group), tilesBefore);
      auto [m, n] = panelOrder(
          select(isGroupTile, sub(tile, mul(tilesBefore, nTiles)), zero),
          select(isGroupTile, groupMTiles, index(1)));
      mInGroup = m;
      t.colBegin = mul(select(isGroupTile, n, nTile), outBlockN);
    }
    Value blockM = index(config.blockM);
    Value groupBegin = add(rowsBefore, mul(mInGroup, blockM));
    Value groupEnd = minU(rowsThrough, index(config.rows));
    Value tailBegin =
        add(groupRowsEnd, mul(sub(rowMajorMTile, groupTiles), blockM));
    t.rowBegin = select(isGroupTile, groupBegin, tailBegin);
    t.rowEnd = select(isGroupTile, groupEnd, index(config.rows));
    t.aBegin = t.rowBegin;
    // Tiles of the zero rows past the groups multiply nothing.
    t.kSteps = select(isGroupTile, index(config.kTiles()), zero);
    return t;
  }

  /// GroupedGemmConfig::heaviestGroupsFirst: the place in the group-ordered
  /// tile sequence of the loop's tile `tile` (blockId + r numCtas): round
  /// r's tiles go to the CTAs in reverse where r is odd. The last round
  /// reverses over the tiles it has.
  Value alternatingRoundPosition(Value tile) {
    Value numCtas = index(config.numCtas);
    tile = minU(tile, sub(totalTiles, index(1)));
    Value round = divU(tile, numCtas);
    Value roundBegin = mul(round, numCtas);
    Value inRound = sub(tile, roundBegin);
    Value width = minU(numCtas, sub(totalTiles, roundBegin));
    Value odd = cmp(arith::CmpIPredicate::ne, remU(round, index(2)), index(0));
    return add(roundBegin,
               select(odd, sub(sub(width, index(1)), inRound), inRound));
  }

  /// RaggedDim::K: group after group (by size, heaviest first, where
  /// GroupedGemmConfig::heaviestGroupsFirst), each group's tiles in panel
  /// order; k-steps over the group's rows.
  TileCoordinates decodeReductionTile(Value tile) {
    Value tilesPerGroup = index(config.mTiles() * config.nTiles());
    TileCoordinates t;
    if (config.heaviestGroupsFirst()) {
      tile = select(skewedSchedule, alternatingRoundPosition(tile), tile);
      Value slot = divU(tile, tilesPerGroup);
      Value heaviest = toIndex(
          memref::LoadOp::create(b, loc, groupOrder, ValueRange{slot}));
      t.group = select(skewedSchedule, heaviest, slot);
    } else {
      t.group = divU(tile, tilesPerGroup);
    }
    auto [mTile, nTile] =
        panelOrder(remU(tile, tilesPerGroup), index(config.mTiles()));
    t.aBegin = mul(mTile, index(config.blockM));
    t.colBegin = mul(nTile, index(config.outBlockN()));
    t.rowBegin = add(mul(t.group, index(config.m)), t.aBegin);
    // The last m-tile of an M that is not a multiple of blockM is partial.
    t.rowEnd = add(t.rowBegin,
                   minU(index(config.blockM), sub(index(config.m), t.aBegin)));
    Value rowsBefore = scanBefore(scanRows, t.group);
    // Sizes past R (invalid) never reach past the operands.
    t.reductionBegin = minU(rowsBefore, index(config.rows));
    t.reductionEnd = minU(scanAt(scanRows, t.group), index(config.rows));
    t.stepBegin = t.reductionBegin;
    if (config.kMajorReduction())
      t.stepBegin = mul(divU(t.reductionBegin, index(config.blockK())),
                        index(config.blockK()));
    // An empty group has no k-steps (its block may still start before it).
    Value rows = sub(t.reductionEnd, t.reductionBegin);
    Value stepRows = sub(t.reductionEnd, t.stepBegin);
    t.kSteps = select(
        cmp(arith::CmpIPredicate::eq, rows, index(0)), index(0),
        arith::CeilDivUIOp::create(b, loc, stepRows, index(config.blockK())));
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

  /// The coordinates of a tile as loop-carried values (the fields this
  /// kernel's ragged dimension sets, in a fixed order), and back.
  static constexpr std::array<Value TileCoordinates::*, 9> tileFields = {
      &TileCoordinates::group,          &TileCoordinates::rowBegin,
      &TileCoordinates::rowEnd,         &TileCoordinates::colBegin,
      &TileCoordinates::aBegin,         &TileCoordinates::reductionBegin,
      &TileCoordinates::reductionEnd,   &TileCoordinates::stepBegin,
      &TileCoordinates::kSteps};
  SmallVector<Value> packTile(const TileCoordinates &t) {
    SmallVector<Value> values;
    for (auto field : tileFields)
      if (t.*field)
        values.push_back(t.*field);
    return values;
  }
  TileCoordinates unpackTile(const TileCoordinates &shape, ValueRange values) {
    TileCoordinates t;
    for (auto field : tileFields)
      if (shape.*field) {
        t.*field = values.front();
        values = values.drop_front();
      }
    return t;
  }

  /// forEachTile whose body also gets `decodeNext`, which decodes the
  /// CTA's next tile (its last one again past the end) where the body
  /// calls it, and returns (count, the next tile's coordinates): the
  /// consumers decode the next tile while the current one's last wgmmas
  /// run, instead of between its epilogue and the next main loop.
  template <typename Body> void forEachTileDecodedAhead(Body &&body) {
    Value lastTile = sub(totalTiles, index(1));
    auto decodeAt = [&](Value tile) { return decodeTile(minU(tile, lastTile)); };
    TileCoordinates first = decodeAt(blockId);
    SmallVector<Value> initial{index(0)};
    llvm::append_range(initial, packTile(first));
    auto loop = scf::ForOp::create(b, loc, blockId, totalTiles,
                                   index(config.numCtas), initial);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value tile = loop.getInductionVar();
    TileCoordinates current =
        unpackTile(first, loop.getRegionIterArgs().drop_front());
    auto decodeNext = [&, tile] {
      return decodeAt(add(tile, index(config.numCtas)));
    };
    auto [count, next] =
        body(current, loop.getRegionIterArg(0), decodeNext);
    SmallVector<Value> yielded{count};
    llvm::append_range(yielded, packTile(next));
    scf::YieldOp::create(b, loc, yielded);
  }

  Value stageOf(Value count) { return remU(count, index(config.stages)); }
  /// The parity of the barrier phase that k-step `count` waits for.
  Value phaseOf(Value count) {
    Value round = divU(count, index(config.stages));
    return arith::TruncIOp::create(b, loc, b.getI1Type(),
                                   toI32(remU(round, index(2))));
  }

  // --- TMA descriptors ------------------------------------------------------
  /// What shared memory holds of A and B: bf16, or FP8 as bytes (wgmma
  /// reads the format from its instruction, TMA only moves bytes).
  Type operandElementType() {
    return config.fp8() ? Type(b.getI8Type()) : Type(b.getBF16Type());
  }
  /// Elements of one 128-byte swizzle row of an operand box.
  int64_t operandBoxColumns() {
    return GroupedGemmConfig::swizzleRowElements(config.elementBytes());
  }

  nvgpu::TensorMapDescriptorType tensorMapType(int64_t boxRows,
                                               Type element,
                                               int64_t boxColumns) {
    auto box = MemRefType::get({boxRows, boxColumns}, element, AffineMap(),
                               workgroup);
    return nvgpu::TensorMapDescriptorType::get(
        ctx, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  }

  /// The generic address of this CTA's copy of descriptor `which` (a
  /// GroupedGemmConfig slot) in the scratch buffer.
  Value descriptorAddress(int64_t which) {
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, operands.descriptorScratch);
    Value offset = mul(
        add(mul(blockId, index(config.descriptorWords())), index(16 * which)),
        index(8));
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
    SmallVector<std::pair<int64_t, ArrayRef<Value>>, 4> loaded = {
        {GroupedGemmConfig::aSlot, operands.aMapWords},
        {GroupedGemmConfig::bSlot, operands.bMapWords}};
    if (config.kSecond) {
      loaded.push_back({GroupedGemmConfig::a2Slot, operands.a2MapWords});
      loaded.push_back({GroupedGemmConfig::b2Slot, operands.b2MapWords});
    }
    if (config.upWeight)
      loaded.push_back({GroupedGemmConfig::bUpSlot, operands.bUpMapWords});
    for (auto [slot, words] : loaded)
      for (int64_t i = 0; i < 16; ++i)
        memref::StoreOp::create(b, loc, words[i], operands.descriptorScratch,
                                ValueRange{blockId, index(16 * slot + i)});
    NVVM::FenceProxyReleaseOp::create(b, loc, NVVM::MemScopeKind::GPU);
    for (auto [slot, words] : loaded)
      NVVM::FenceProxyAcquireOp::create(b, loc, NVVM::MemScopeKind::GPU,
                                        descriptorAddress(slot), i32(128));
  }

  /// Thread 0 copies c's descriptor into this CTA's scratch slot before the
  /// barrier that ends the set-up; the consumers acquire it after
  /// (emitConsumer), whether or not their first tile has k-steps to wait
  /// for.
  void publishOutputTensorMap() {
    ifThen(cmp(arith::CmpIPredicate::eq, threadId, index(0)), [&] {
      for (int64_t i = 0; i < 16; ++i)
        memref::StoreOp::create(b, loc, operands.cMapWords[i],
                                operands.descriptorScratch,
                                ValueRange{blockId,
                                           index(16 * GroupedGemmConfig::cSlot +
                                                 i)});
      NVVM::FenceProxyReleaseOp::create(b, loc, NVVM::MemScopeKind::GPU);
    });
  }

  // --- shared-memory stages ---------------------------------------------
  Value aStageOffset(Value stage) {
    return mul(stage, index(config.aStageBytes()));
  }
  Value bStageOffset(Value stage) {
    return add(index(config.bOffset(0)),
               mul(stage, index(config.bStageBytes())));
  }
  Value scaleStageOffset(Value stage) {
    return add(index(config.scaleOffset(0)),
               mul(stage, index(config.scaleStageBytes())));
  }
  /// Box `box` of a stage at `stageOffset`: boxRows swizzle rows, boxes
  /// one after another (GroupedGemmConfig::aBoxRows says how they tile an
  /// operand).
  Value stageBox(Value stageOffset, int64_t boxRows, int64_t box) {
    int64_t boxBytes = boxRows * GroupedGemmConfig::swizzleRowBytes;
    return sharedView({boxRows, operandBoxColumns()}, operandElementType(),
                      add(stageOffset, index(box * boxBytes)));
  }

  // --- producer -------------------------------------------------------------
  void emitProducer() {
    NVVM::SetMaxRegisterOp::create(b, loc, GroupedGemmConfig::producerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
    Value leader =
        cmp(arith::CmpIPredicate::eq, threadId,
            index(config.consumers() * GroupedGemmConfig::warpgroupSize));
    ifThen(leader, [&] {
      publishDescriptors();
      OperandMaps first = operandMaps(
          GroupedGemmConfig::aSlot, GroupedGemmConfig::bSlot,
          config.upWeight ? std::optional<int64_t>(GroupedGemmConfig::bUpSlot)
                          : std::nullopt);
      std::optional<OperandMaps> second;
      if (config.kSecond)
        second = operandMaps(GroupedGemmConfig::a2Slot,
                             GroupedGemmConfig::b2Slot);
      readScheduleExtent();
      forEachTile([&](const TileCoordinates &t, Value count) {
        return emitTileLoads(t, count, first, second);
      });
    });
    if (config.producerZeroes()) {
      Value zeroer = sub(threadId, index(config.consumers() *
                                             GroupedGemmConfig::warpgroupSize +
                                         GroupedGemmConfig::warpSize));
      ifThen(cmp(arith::CmpIPredicate::sge, zeroer, index(0)),
             [&] { emitZeroingThreads(zeroer); });
    }
  }

  /// Full barrier index of stage `stage`'s loaded barrier
  /// (GroupedGemmConfig::producerZeroes).
  Value loadedBarrier(Value stage) {
    return add(stage, index(config.stages));
  }

  /// GroupedGemmConfig::producerZeroes: the producer warpgroup's threads
  /// past its first warp (`zeroer` 0 to zeroingThreads - 1) walk the same
  /// tiles and k-steps as the loads. Only a tile's first and last k-steps
  /// can be partial; for each that is, they wait for its loaded barrier,
  /// zero the stage's bytes outside the group in all of A's and B's rows,
  /// fence them for the async proxy (wgmma reads through it), synchronize,
  /// and one of them completes the stage's full barrier. A loaded barrier
  /// completes only on partial steps, so its phases are counted apart: bit
  /// s of a carried i32 is stage s's.
  void emitZeroingThreads(Value zeroer) {
    readScheduleExtent();
    Value zero32 = i32(0);
    auto tiles =
        scf::ForOp::create(b, loc, blockId, totalTiles, index(config.numCtas),
                           ValueRange{index(0), zero32});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(tiles.getBody());
    TileCoordinates t = decodeTile(tiles.getInductionVar());
    Value count = tiles.getRegionIterArg(0);
    // Candidate j = 0: the first k-step, j = 1: the last (if another).
    auto candidates = scf::ForOp::create(b, loc, index(0), index(2), index(1),
                                         ValueRange{tiles.getRegionIterArg(1)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(candidates.getBody());
      Value j = candidates.getInductionVar();
      Value phases = candidates.getRegionIterArg(0);
      Value kStep = select(cmp(arith::CmpIPredicate::eq, j, index(0)),
                           index(0), sub(t.kSteps, index(1)));
      Value valid = cmp(arith::CmpIPredicate::ugt, t.kSteps, j);
      Value stage = stageOf(add(count, kStep));
      GroupBytes bytes = stepBytesInGroup(t, kStep);
      Value act = andI(valid, bytes.partial);
      Value bit = arith::ShLIOp::create(b, loc, i32(1), toI32(stage));
      ifThen(act, [&] {
        Value parity = cmp(arith::CmpIPredicate::ne,
                           arith::AndIOp::create(b, loc, phases, bit), zero32);
        nvgpu::MBarrierTryWaitParityOp::create(b, loc, fullBarriers, parity,
                                               index(10000000),
                                               loadedBarrier(stage));
        int64_t threads = GroupedGemmConfig::zeroingThreads;
        zeroSwizzledBytesOutside(aStageOffset(stage), config.blockM, bytes.lo,
                                 bytes.hi, zeroer, threads,
                                 bStageOffset(stage), config.blockN);
        fenceSharedForAsyncProxy();
        namedBarrier(i32(zeroingBarrierId()), threads);
        ifThen(cmp(arith::CmpIPredicate::eq, zeroer, index(0)), [&] {
          nvgpu::MBarrierArriveOp::create(b, loc, fullBarriers, stage);
        });
      });
      scf::YieldOp::create(
          b, loc,
          select(act, arith::XOrIOp::create(b, loc, phases, bit), phases));
    }
    scf::YieldOp::create(
        b, loc, ValueRange{add(count, t.kSteps), candidates.getResult(0)});
  }

  /// The named barrier of the zeroing threads (after the consumers' and
  /// pingpong's).
  int64_t zeroingBarrierId() const { return config.consumers() + 4; }

  /// The tensor maps of one product's A and B (descriptor slots), fetched
  /// into the cache before the first load.
  /// `bUp`: GroupedGemmConfig::upWeight's map of the up half (else null).
  struct OperandMaps {
    Value a, b, bUp;
  };
  OperandMaps operandMaps(int64_t aSlot, int64_t bSlot,
                          std::optional<int64_t> bUpSlot = std::nullopt) {
    OperandMaps maps;
    maps.a = asTensorMap(descriptorAddress(aSlot),
                         tensorMapType(config.aBoxRows(), operandElementType(),
                                       operandBoxColumns()));
    auto bType = tensorMapType(config.bBoxRows(), operandElementType(),
                               operandBoxColumns());
    maps.b = asTensorMap(descriptorAddress(bSlot), bType);
    nvgpu::TmaPrefetchOp::create(b, loc, maps.a, Value());
    nvgpu::TmaPrefetchOp::create(b, loc, maps.b, Value());
    if (bUpSlot) {
      maps.bUp = asTensorMap(descriptorAddress(*bUpSlot), bType);
      nvgpu::TmaPrefetchOp::create(b, loc, maps.bUp, Value());
    }
    return maps;
  }

  /// TMA loads of one operand's k-step into its stage, box i from
  /// `origins[i]` along M (or N). A K-major operand (stored [M or N, K]) has
  /// its boxes at (k, origin); an M- or N-major one (stored [K, M or N]) at
  /// (origin, k). TMA coordinates are innermost first. With `upMap`, boxes
  /// from `firstUpBox` on come from that map (GroupedGemmConfig::upWeight).
  void loadOperand(Value map, Value stageOffset, bool kMajor, int64_t boxRows,
                   ArrayRef<Value> origins, Value k, Value barrier,
                   Value upMap = Value(), int64_t firstUpBox = 0) {
    for (auto [box, origin] : llvm::enumerate(origins)) {
      Value boxMap = upMap && int64_t(box) >= firstUpBox ? upMap : map;
      SmallVector<Value, 2> coordinates;
      if (kMajor)
        coordinates = {k, origin};
      else
        coordinates = {origin, k};
      nvgpu::TmaAsyncLoadOp::create(b, loc, stageBox(stageOffset, boxRows, box),
                                    fullBarriers, boxMap, coordinates, barrier,
                                    Value(), Value());
    }
  }

  /// Where each of A's boxes of tile `t` starts along M.
  SmallVector<Value> aBoxOrigins(const TileCoordinates &t) {
    SmallVector<Value> origins;
    for (int64_t box = 0; box < config.aBoxes(); ++box)
      origins.push_back(
          add(t.aBegin, index(box * GroupedGemmConfig::boxWidth)));
    return origins;
  }

  /// Where each of B's boxes of tile `t` starts along N (as B is viewed:
  /// [G * N, K] when K-major). With gate|up halves, the first half of the
  /// boxes cover the tile's columns of the gate half and the rest the same
  /// columns of the up half, N columns further (or, with
  /// GroupedGemmConfig::upWeight, at the same place in b_up).
  SmallVector<Value> bBoxOrigins(const TileCoordinates &t) {
    int64_t perHalf = config.bBoxes() / config.accumulatorsPerOutput;
    Value base = t.colBegin;
    if (config.ragged == RaggedDim::M && config.bKMajor)
      base = add(mul(t.group, index(config.bWeightN())), base);
    int64_t halfOffset = config.upWeight ? 0 : config.n;
    SmallVector<Value> origins;
    for (int64_t box = 0; box < config.bBoxes(); ++box) {
      int64_t half = box / perHalf;
      int64_t offset =
          half * halfOffset + (box % perHalf) * config.bBoxColumns();
      origins.push_back(add(base, index(offset)));
    }
    return origins;
  }

  /// Loads A's and B's k-step `k` (elements along the product's K, whose
  /// extent is `productK`) of tile `t` into `stage`, completing on full
  /// barrier `barrier`.
  void loadStep(const TileCoordinates &t, const OperandMaps &maps, Value k,
                int64_t productK, Value stage, Value barrier) {
    Value aK = k, bK = k;
    if (config.ragged == RaggedDim::K) {
      // The k-step's rows of both operands ([R, M or N], or [M or N, R]).
      aK = bK = add(t.stepBegin, k);
    } else if (!config.bKMajor) {
      bK = add(mul(t.group, index(productK)), k); // b as [G*K, N]
    }
    loadOperand(maps.a, aStageOffset(stage), config.aKMajor, config.aBoxRows(),
                aBoxOrigins(t), aK, barrier);
    loadOperand(maps.b, bStageOffset(stage), config.bKMajor, config.bBoxRows(),
                bBoxOrigins(t), bK, barrier, maps.bUp,
                config.bBoxes() / config.accumulatorsPerOutput);
  }

  /// GroupedGemmConfig::stagedScales: the scales one k-step of tile `t`
  /// copies into its stage (copyStepScales), clipped at M and N: the bytes
  /// the stage's full barrier expects besides the TMA loads'.
  Value stepScaleBytes(const TileCoordinates &t) {
    return add(scaleRowBytes(config.m, t.aBegin, config.blockM),
               scaleRowBytes(config.n, t.colBegin, config.blockN));
  }
  /// Bytes of the f32 scales [first, first + count) of a row of `length`.
  Value scaleRowBytes(int64_t length, Value first, int64_t count) {
    return mul(minU(index(count), sub(index(length), first)), index(4));
  }

  /// GroupedGemmConfig::stagedScales: copies k-step `kStep`'s scales of
  /// tile `t` (the row of each scale buffer of the step's block of R) into
  /// `stage`, a_scale's of the tile's rows then b_scale's of its columns,
  /// completing on full barrier `barrierIndex`. The slots of a tile's columns
  /// past N keep stale values: those columns' products are zeros (TMA fills
  /// B's rows past N with zeros) and their sums are never stored.
  void copyStepScales(const TileCoordinates &t, Value kStep, Value stage,
                      Value barrierIndex) {
    Value block = add(divU(t.stepBegin, index(config.blockK())), kStep);
    Value barrier = nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(),
                                                 fullBarriers, barrierIndex);
    Value stageOffset = scaleStageOffset(stage);
    bulkCopyScaleRow(operands.aScale, config.m, block, t.aBegin,
                     config.blockM, stageOffset, barrier);
    bulkCopyScaleRow(operands.bScale, config.n, block, t.colBegin,
                     config.blockN, add(stageOffset, index(config.blockM * 4)),
                     barrier);
  }

  /// One bulk copy of `scales[block, first : first + count]` ([R/128,
  /// length] f32, clipped at `length`) to the shared memory at
  /// `sharedOffset`, completing its bytes on `barrier` (a shared address).
  /// The copy needs 16-byte aligned addresses and sizes: `scales` is a
  /// fresh buffer (the conversion's transposed copy, allocated by the
  /// runtime 256-byte aligned), `length` a multiple of 8 and `first` of 64.
  void bulkCopyScaleRow(Value scales, int64_t length, Value block, Value first,
                        int64_t count, Value sharedOffset, Value barrier) {
    assert(cast<MemRefType>(scales.getType()).getLayout().isIdentity() &&
           "the scales start at their buffer's aligned pointer");
    Value source = add(
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, scales),
        mul(add(mul(block, index(length)), first), index(4)));
    auto globalPointer = LLVM::LLVMPointerType::get(ctx, 1);
    auto sharedPointer = LLVM::LLVMPointerType::get(ctx, 3);
    auto clusterPointer = LLVM::LLVMPointerType::get(ctx, 7);
    Value sourceAddress =
        arith::IndexCastOp::create(b, loc, b.getI64Type(), source);
    Value src = LLVM::IntToPtrOp::create(b, loc, globalPointer, sourceAddress);
    Value shared = LLVM::IntToPtrOp::create(
        b, loc, sharedPointer,
        toI32(add(sharedBase, add(alignPad, sharedOffset))));
    Value dst = LLVM::AddrSpaceCastOp::create(b, loc, clusterPointer, shared);
    Value mbar = LLVM::IntToPtrOp::create(b, loc, sharedPointer, barrier);
    NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
        b, loc, dst, src, mbar, toI32(scaleRowBytes(length, first, count)),
        /*multicastMask=*/Value(), /*l2CacheHint=*/Value());
  }

  Value emitTileLoads(const TileCoordinates &t, Value count,
                      const OperandMaps &first,
                      const std::optional<OperandMaps> &second) {
    auto loop = scf::ForOp::create(b, loc, index(0), t.kSteps, index(1),
                                   ValueRange{count});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value step = loop.getRegionIterArg(0);
    Value stage = stageOf(step);
    // A stage is free once the consumers released its previous use; the
    // first round waits on the phase before the barriers' first, which
    // counts as complete.
    Value freePhase = arith::XOrIOp::create(b, loc, phaseOf(step), i1(true));
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, emptyBarriers, freePhase,
                                           index(10000000), stage);
    Value kStep = loop.getInductionVar();
    Value bytes = index(config.stageTransactionBytes());
    if (config.stagedScales())
      bytes = add(bytes, stepScaleBytes(t));
    // GroupedGemmConfig::producerZeroes: a partial step's loads complete on
    // its loaded barrier; the zeroing threads then complete the full one.
    Value barrier = stage;
    if (config.producerZeroes())
      barrier = select(stepBytesInGroup(t, kStep).partial,
                       loadedBarrier(stage), stage);
    nvgpu::MBarrierArriveExpectTxOp::create(b, loc, fullBarriers, bytes,
                                            barrier, Value());
    if (config.stagedScales())
      copyStepScales(t, kStep, stage, barrier);
    if (!second) {
      loadStep(t, first, mul(kStep, index(config.blockK())), config.k, stage,
               barrier);
    } else {
      // The first product's k-steps, then the second's from its own k = 0.
      Value inFirst = cmp(arith::CmpIPredicate::ult, kStep,
                          index(config.firstKTiles()));
      auto branch = scf::IfOp::create(b, loc, inFirst, /*withElseRegion=*/true);
      b.setInsertionPointToStart(branch.thenBlock());
      loadStep(t, first, mul(kStep, index(config.blockK())), config.k, stage,
               barrier);
      b.setInsertionPointToStart(branch.elseBlock());
      Value secondStep = sub(kStep, index(config.firstKTiles()));
      loadStep(t, *second, mul(secondStep, index(config.blockK())),
               config.kSecond, stage, barrier);
      b.setInsertionPointAfter(branch);
    }
    scf::YieldOp::create(b, loc, add(step, index(1)));
    return loop.getResult(0);
  }

  // --- consumer -------------------------------------------------------------
  void emitConsumer() {
    NVVM::SetMaxRegisterOp::create(b, loc, GroupedGemmConfig::consumerRegisters,
                                   NVVM::SetMaxRegisterAction::increase);
    readScheduleExtent();
    Value size = index(GroupedGemmConfig::warpgroupSize);
    consumer = divU(threadId, size);
    consumerThread = remU(threadId, size);
    isConsumerLeader = cmp(arith::CmpIPredicate::eq, consumerThread, index(0));
    if (config.tmaStore()) {
      Value address = descriptorAddress(GroupedGemmConfig::cSlot);
      ifThen(isConsumerLeader, [&] {
        NVVM::FenceProxyAcquireOp::create(b, loc, NVVM::MemScopeKind::GPU,
                                          address, i32(128));
      });
      outputMap = asTensorMap(
          address, tensorMapType(GroupedGemmConfig::wgmmaM, b.getBF16Type(),
                                 GroupedGemmConfig::boxWidth));
    }
    if (config.scaling == Fp8Scaling::tensorwise)
      tensorScale = arith::MulFOp::create(
          b, loc, memref::LoadOp::create(b, loc, operands.aScale, ValueRange{}),
          memref::LoadOp::create(b, loc, operands.bScale, ValueRange{}));
    if (config.pingpong()) {
      emitPingpongTiles();
    } else {
      rowBlock = consumer;
      forEachTileDecodedAhead([&](const TileCoordinates &t, Value count,
                                  auto decodeNext) {
        // c's values that `accumulate` adds are loaded before the main
        // loop, so that their latency hides behind it.
        SmallVector<Value> old;
        if (config.accumulate)
          old = prefetchOutput(t);
        TileCoordinates nextTile;
        auto [accumulator, next] =
            emitTileMma(t, count, [&] { nextTile = decodeNext(); });
        emitEpilogue(t, accumulator, old);
        return std::make_pair(next, nextTile);
      });
    }
    // The last TMA stores complete before the CTA's shared memory goes.
    if (config.tmaStore())
      ifThen(isConsumerLeader, [&] {
        NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, 0, UnitAttr());
      });
  }

  /// GroupedGemmConfig::pingpong: consumer w runs the CTA's tiles w, w + 2,
  /// ... (tile blockId + n numCtas for the CTA's n-th), both 64-row blocks
  /// of each. RaggedDim::M: its k-step count before tile n is kTiles for
  /// each earlier tile of the CTA inside the groups (the zero rows' tiles,
  /// which come last, have none). RaggedDim::K: tiles have their group's
  /// k-steps, so the count is carried: each tile adds its own and the
  /// other consumer's next tile's. The two main loops take turns, ordered
  /// by a pair of
  /// named barriers: consumer w arrives on its own once its tile's last
  /// wgmmas are issued (where the CTA has a next tile) and waits on the
  /// other's before its main loop (past the CTA's first tile). Without the
  /// turns a consumer could wait on a stage's full barrier two phases
  /// early, which its parity would not tell from the phase it wants.
  void emitPingpongTiles() {
    Value numCtas = index(config.numCtas);
    Value pending = arith::MaxSIOp::create(b, loc, sub(totalTiles, blockId),
                                           index(0));
    Value ctaTiles = arith::CeilDivUIOp::create(b, loc, pending, numCtas);
    bool carriedCount = config.ragged == RaggedDim::K;
    // The k-steps of the CTA's n-th tile (its last one past the end).
    Value lastTile = sub(totalTiles, index(1));
    auto ctaTileSteps = [&](Value n) {
      return decodeTile(minU(add(blockId, mul(n, numCtas)), lastTile)).kSteps;
    };
    Value ctaGroupTiles;
    SmallVector<Value> initialCount;
    if (carriedCount) {
      // Consumer 1 starts after the CTA's first tile, consumer 0's.
      Value second = cmp(arith::CmpIPredicate::eq, consumer, index(1));
      initialCount.push_back(
          select(second, ctaTileSteps(index(0)), index(0)));
    } else {
      Value groupTileCount = mul(groupTiles, index(config.nTiles()));
      Value groupPending = arith::MaxSIOp::create(
          b, loc, sub(groupTileCount, blockId), index(0));
      ctaGroupTiles = arith::CeilDivUIOp::create(b, loc, groupPending, numCtas);
    }
    auto turnBarrier = [&](Value which, bool arrive) {
      Value id = add(toI32(which), i32(config.consumers() + 2));
      int64_t threads = config.consumers() * GroupedGemmConfig::warpgroupSize;
      if (arrive)
        NVVM::BarrierArriveOp::create(b, loc, id, i32(threads));
      else
        namedBarrier(id, threads);
    };
    Value other = sub(index(1), consumer);
    auto loop = scf::ForOp::create(b, loc, consumer, ctaTiles,
                                   index(config.consumers()), initialCount);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value n = loop.getInductionVar();
    TileCoordinates t = decodeTile(add(blockId, mul(n, numCtas)));
    Value count =
        carriedCount ? loop.getRegionIterArg(0)
                     : mul(minU(n, ctaGroupTiles), index(config.kTiles()));
    ifThen(cmp(arith::CmpIPredicate::ugt, n, index(0)),
           [&] { turnBarrier(other, /*arrive=*/false); });
    Value nextN = add(n, index(1));
    Value hasNext = cmp(arith::CmpIPredicate::ult, nextN, ctaTiles);
    // The other consumer's next tile, decoded before this one's main loop.
    Value otherSteps;
    if (carriedCount)
      otherSteps = ctaTileSteps(nextN);
    SmallVector<Value> accumulators = emitPingpongTileMma(t, count, [&] {
      ifThen(hasNext, [&] { turnBarrier(consumer, /*arrive=*/true); });
    });
    emitPingpongEpilogue(t, accumulators);
    if (carriedCount)
      scf::YieldOp::create(b, loc, add(count, add(t.kSteps, otherSteps)));
  }

  /// A whole tile's epilogue on one consumer (pingpong). Every value is
  /// read out of the accumulators into the consumer's bf16 boxes (64-row
  /// block after block, 128-byte swizzled as for the TMA store) before any
  /// branch: an accumulator still live in a branch taken by some threads
  /// only makes ptxas serialize every wgmma of the kernel (C7520, "WG.AR in
  /// divergent path"). Then each block goes out by TMA where its rows are
  /// whole, else (and every block without TMA stores) row by row from the
  /// boxes, masked at the group's end.
  void emitPingpongEpilogue(const TileCoordinates &t,
                            ArrayRef<Value> accumulators) {
    int64_t boxes = config.outBlockN() / GroupedGemmConfig::boxWidth;
    int64_t blocks = config.rowBlocksPerConsumer();
    // The previous tile's TMA stores have read the boxes (only the leader
    // has bulk groups; the others' wait returns at once); its row stores
    // have, once every thread passes the barrier.
    if (config.tmaStore())
      NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, 0, b.getUnitAttr());
    consumerBarrier();
    Value base = consumerStaging();
    SmallVector<SmallVector<Value>> boxViews;
    for (int64_t block = 0; block < blocks; ++block)
      boxViews.push_back(
          stagingBoxes(add(base, index(block * boxes * outputBoxBytes))));
    for (int64_t block = 0; block < blocks; ++block) {
      rowBlock = index(block);
      writeBoxes(t, accumulators[block], boxViews[block]);
    }
    if (stagedEpilogue) {
      // Every thread's products are in the boxes before any is read back.
      consumerBarrier();
      for (int64_t block = 0; block < blocks; ++block)
        applyEpilogueInBoxes(t, block,
                             add(base, index(block * boxes * outputBoxBytes)));
    }
    if (config.tmaStore())
      fenceSharedForAsyncProxy();
    consumerBarrier();
    // A weight gradient whose M is a multiple of the tile has only whole
    // blocks: no row-by-row path.
    bool everyBlockWhole = !config.maskedStores();
    SmallVector<Value> whole(blocks, i1(false));
    if (config.tmaStore()) {
      for (int64_t block = 0; block < blocks && !everyBlockWhole; ++block) {
        rowBlock = index(block);
        whole[block] = consumerRowsWhole(t);
      }
      ifThen(isConsumerLeader, [&] {
        for (int64_t block = 0; block < blocks; ++block) {
          auto store = [&, block] {
            storeBoxesByTma(t, boxViews[block],
                            add(t.rowBegin, index(block * 64)));
          };
          if (everyBlockWhole)
            store();
          else
            ifThen(whole[block], store);
        }
        NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
      });
    }
    if (everyBlockWhole)
      return;
    for (int64_t block = 0; block < blocks; ++block) {
      Value partial = arith::XOrIOp::create(b, loc, whole[block], i1(true));
      ifThen(partial, [&] {
        Value blockBoxes = sharedView(
            {boxes * GroupedGemmConfig::wgmmaM, GroupedGemmConfig::boxWidth},
            b.getBF16Type(), add(base, index(block * boxes * outputBoxBytes)));
        storeBoxRows(t, blockBoxes, index(block * 64));
      });
    }
  }

  /// stagedEpilogue: the epilogue over one 64-row block of products staged
  /// as bf16 boxes (from byte `blockBase`), 8 columns of a row a thread at a
  /// time in a loop (its ops emitted once, not once per accumulator
  /// register as in forEachOutputPair, which for an epilogue of a few
  /// dozen instructions grows the kernel past what the instruction cache
  /// keeps): each thread reads its 8 products back from the boxes, loads
  /// the inputs' 8 elements (16-byte accesses, a row's 128 columns from 16
  /// threads), writes c's values back in place for the boxes' stores, and
  /// stores the extra destinations under c's row mask. The products are
  /// thus rounded to bf16 before the epilogue.
  void applyEpilogueInBoxes(const TileCoordinates &t, int64_t block,
                            Value blockBase) {
    constexpr int64_t width = 8;
    int64_t threadsPerRow = config.outBlockN() / width;
    int64_t rowsPerPass = GroupedGemmConfig::warpgroupSize / threadsPerRow;
    Value column =
        mul(remU(consumerThread, index(threadsPerRow)), index(width));
    Value box = divU(column, index(GroupedGemmConfig::boxWidth));
    Value boxChunk = divU(remU(column, index(GroupedGemmConfig::boxWidth)),
                          index(width));
    Value boxView =
        sharedView({GroupedGemmConfig::wgmmaM, GroupedGemmConfig::boxWidth},
                   b.getBF16Type(),
                   add(blockBase, mul(box, index(outputBoxBytes))));
    Value globalColumn = add(t.colBegin, column);
    auto bf16x8 = VectorType::get({width}, b.getBF16Type());
    auto f32x8 = VectorType::get({width}, b.getF32Type());
    Value blockRow = add(t.rowBegin, index(block * 64));
    // The inputs' 8 elements of row `row` of the block, as loaded.
    auto loadInputs = [&](Value row) {
      return loadEpilogueInputs(add(blockRow, row), globalColumn, width);
    };
    // Software-pipelined: each pass loads the next pass's inputs before
    // its own arithmetic, so their latency hides behind it.
    Value firstRow = divU(consumerThread, index(threadsPerRow));
    auto rows = scf::ForOp::create(b, loc, firstRow,
                                   index(GroupedGemmConfig::wgmmaM),
                                   index(rowsPerPass), loadInputs(firstRow));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(rows.getBody());
    Value row = rows.getInductionVar();
    SmallVector<Value> next =
        loadInputs(minU(add(row, index(rowsPerPass)),
                        index(GroupedGemmConfig::wgmmaM - 1)));
    Value swizzled = arith::XOrIOp::create(b, loc, boxChunk,
                                           remU(row, index(8)));
    Value boxColumn = mul(swizzled, index(width));
    Value staged = vector::LoadOp::create(b, loc, bf16x8, boxView,
                                          ValueRange{row, boxColumn});
    Value products = arith::ExtFOp::create(b, loc, f32x8, staged);
    Value globalRow = add(blockRow, row);
    Value rowScale = loadRowScale(globalRow);
    SmallVector<Value> inputs;
    for (Value values : rows.getRegionIterArgs())
      inputs.push_back(widenToF32(values));
    Value zeros = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(f32x8, b.getF32FloatAttr(0.0f)));
    SmallVector<Value> results(1 + operands.extraOutputs.size(), zeros);
    for (int64_t e = 0; e < width; ++e) {
      SmallVector<Value> arguments{
          vector::ExtractOp::create(b, loc, products, e)};
      if (rowScale)
        arguments.push_back(rowScale);
      for (Value values : inputs)
        arguments.push_back(vector::ExtractOp::create(b, loc, values, e));
      SmallVector<Value, 3> values = operands.epilogue(b, arguments);
      for (auto [result, value] : llvm::zip(results, values))
        result = vector::InsertOp::create(b, loc, value, result, e);
    }
    vector::StoreOp::create(
        b, loc, arith::TruncFOp::create(b, loc, bf16x8, results.front()),
        boxView, ValueRange{row, boxColumn});
    storeExtraOutputs(t, globalRow, globalColumn,
                      ArrayRef(results).drop_front(), width);
    scf::YieldOp::create(b, loc, next);
  }

  /// The rows of a 64-row block staged as swizzled bf16 boxes (`boxes`: the
  /// block's boxes one after another, [boxes x 64, 64]) that lie in the
  /// tile's group, and columns inside N, 4 columns (8 bytes, inside one
  /// 16-byte chunk) a thread at a time; `firstRow` is the block's row in
  /// the tile.
  void storeBoxRows(const TileCoordinates &t, Value boxes, Value firstRow) {
    constexpr int64_t width = 4;
    int64_t threadsPerRow = config.outBlockN() / width;
    int64_t rowsPerPass = GroupedGemmConfig::warpgroupSize / threadsPerRow;
    Value tileColumn =
        mul(remU(consumerThread, index(threadsPerRow)), index(width));
    Value boxRows = mul(divU(tileColumn, index(GroupedGemmConfig::boxWidth)),
                        index(GroupedGemmConfig::wgmmaM));
    Value inBox = remU(tileColumn, index(GroupedGemmConfig::boxWidth));
    Value globalColumn = add(t.colBegin, tileColumn);
    Value columnInside =
        cmp(arith::CmpIPredicate::ult, globalColumn, index(config.n));
    auto rows = scf::ForOp::create(
        b, loc, divU(consumerThread, index(threadsPerRow)),
        index(GroupedGemmConfig::wgmmaM), index(rowsPerPass));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(rows.getBody());
    Value row = rows.getInductionVar();
    Value globalRow = add(t.rowBegin, add(firstRow, row));
    Value inside = andI(cmp(arith::CmpIPredicate::ult, globalRow, t.rowEnd),
                        columnInside);
    ifThen(inside, [&] {
      // The column's 16-byte chunk sits at chunk xor (row mod 8).
      Value chunk = arith::XOrIOp::create(b, loc, divU(inBox, index(8)),
                                          remU(row, index(8)));
      Value at = add(mul(chunk, index(8)), remU(inBox, index(8)));
      auto type = VectorType::get({width}, b.getBF16Type());
      Value values = vector::LoadOp::create(b, loc, type, boxes,
                                            ValueRange{add(boxRows, row), at});
      vector::StoreOp::create(b, loc, values, operands.c,
                              ValueRange{globalRow, globalColumn},
                              /*nontemporal=*/false, outputVectorAlignment());
    });
  }

  /// The main loop of a whole tile on one consumer (pingpong): each
  /// k-step's wgmmas for every 64-row block, one commit group, at most one
  /// in flight. `afterLastIssue` runs once the last are issued. The stage
  /// to release after a step's wait is carried from the step before (the
  /// spare barrier before the first): a release under a condition on the
  /// step (a branch, or a select that LLVM peels the first iteration for)
  /// puts wgmmas in a path that not every thread takes, and ptxas then
  /// serializes every wgmma of the kernel (C7520, "WG.AR in divergent
  /// path"). Every consumer thread arrives, so no arrival is a leader's
  /// branch either.
  SmallVector<Value>
  emitPingpongTileMma(const TileCoordinates &t, Value count,
                      llvm::function_ref<void()> afterLastIssue) {
    int64_t blocks = config.rowBlocksPerConsumer();
    Value zero = LLVM::ZeroOp::create(b, loc, accumulatorType());
    SmallVector<Value> initial(blocks, zero);
    initial.push_back(count);
    initial.push_back(index(config.stages));
    auto loop =
        scf::ForOp::create(b, loc, index(0), t.kSteps, index(1), initial);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value step = loop.getRegionIterArg(blocks);
      Value stage = stageOf(step);
      nvgpu::MBarrierTryWaitParityOp::create(
          b, loc, fullBarriers, phaseOf(step), index(10000000), stage);
      if (config.ragged == RaggedDim::K)
        zeroOutsideGroup(t, loop.getInductionVar(), stage);
      SmallVector<Value> results;
      for (int64_t block = 0; block < blocks; ++block)
        results.push_back(issueStageMma(stage, loop.getRegionIterArg(block),
                                        index(block), /*fence=*/block == 0));
      NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
      // The previous step's wgmmas are done: its stage is free.
      arriveEmpty(loop.getRegionIterArg(blocks + 1));
      results.push_back(add(step, index(1)));
      results.push_back(stage);
      scf::YieldOp::create(b, loc, results);
    }
    afterLastIssue();
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    SmallVector<Value> accumulators;
    for (Value accumulator : loop.getResults().take_front(blocks))
      accumulators.push_back(fenceAccumulator(accumulator));
    arriveEmpty(loop.getResult(blocks + 1));
    return accumulators;
  }

  /// A consumer's accumulator: the 64 x BN f32 register fragments of one
  /// m64nBNk16 wgmma, as the LLVM struct NVVM's wgmma takes and returns.
  LLVM::LLVMStructType accumulatorType() {
    SmallVector<Type> perThread(config.blockN / 2, b.getF32Type());
    return LLVM::LLVMStructType::getLiteral(ctx, perThread);
  }

  /// `accumulator` passed through an empty volatile inline asm that ties
  /// each register to itself (it emits nothing), right after the wgmma wait
  /// that completes it: the reads that follow stay after the wait. The
  /// values are the wgmma asm's outputs, so LLVM may otherwise schedule a
  /// cheap read (a cvt to bf16) above the wait, and ptxas then serializes
  /// every wgmma of the kernel (C7514), as CUTLASS's
  /// warpgroup_fence_operand prevents.
  Value fenceAccumulator(Value accumulator) {
    int64_t registers = config.blockN / 2;
    SmallVector<Value> values;
    std::string constraints;
    for (int64_t i = 0; i < registers; ++i) {
      values.push_back(LLVM::ExtractValueOp::create(b, loc, accumulator, i));
      constraints += "=f,";
    }
    for (int64_t i = 0; i < registers; ++i)
      constraints += std::to_string(i) + (i + 1 < registers ? "," : "");
    return LLVM::InlineAsmOp::create(
               b, loc, accumulatorType(), values, /*asm_string=*/"",
               constraints, /*has_side_effects=*/true,
               /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
               LLVM::AsmDialectAttr(), ArrayAttr())
        .getResult(0);
  }

  /// Arrivals that release a stage: one by each consumer warpgroup's
  /// leader once its wgmmas (async proxy) finished reading the stage; with
  /// GroupedGemmConfig::stagedScales, one by every consumer thread, since
  /// each reads the stage's scales itself and its arrival orders those
  /// reads before the producer's next copy into the stage.
  int64_t stageReleasers() const {
    // Pingpong: every thread of the one consumer that ran the stage's
    // k-step (emitPingpongTileMma).
    if (config.pingpong())
      return GroupedGemmConfig::warpgroupSize;
    return config.stagedScales()
               ? config.consumers() * GroupedGemmConfig::warpgroupSize
               : config.consumers();
  }

  /// Releases the stage of k-step `step` to the producer.
  void releaseStage(Value step) { arriveEmpty(stageOf(step)); }

  /// Arrives on empty barrier `barrier`: a stage, or with pingpong the
  /// spare one (index `stages`) where there is nothing to release.
  void arriveEmpty(Value barrier) {
    nvgpu::MBarrierArriveOp::create(b, loc, emptyBarriers, barrier);
  }

  /// The tile's main loop; `afterLastIssue` runs once its last wgmmas are
  /// issued, before they are waited for.
  std::pair<Value, Value>
  emitTileMma(const TileCoordinates &t, Value count,
              llvm::function_ref<void()> afterLastIssue) {
    if (config.scaling == Fp8Scaling::blockwise) {
      auto result = emitBlockScaledTileMma(t, count);
      afterLastIssue();
      return result;
    }
    Value zero = LLVM::ZeroOp::create(b, loc, accumulatorType());
    auto loop = scf::ForOp::create(b, loc, index(0), t.kSteps, index(1),
                                   ValueRange{zero, count});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value accumulator = loop.getRegionIterArg(0);
      Value step = loop.getRegionIterArg(1);
      Value stage = stageOf(step);
      nvgpu::MBarrierTryWaitParityOp::create(
          b, loc, fullBarriers, phaseOf(step), index(10000000), stage);
      if (config.ragged == RaggedDim::K)
        zeroOutsideGroup(t, loop.getInductionVar(), stage);
      else
        zeroRowsPastK(loop.getInductionVar(), stage);
      Value result = emitStageMma(stage, accumulator);
      // The wgmma group of this step waits until at most one is in flight:
      // the previous step's is done, so its stage is free.
      Value notFirst =
          cmp(arith::CmpIPredicate::ugt, loop.getInductionVar(), index(0));
      ifThen(andI(notFirst, isConsumerLeader),
             [&] { releaseStage(sub(step, index(1))); });
      scf::YieldOp::create(b, loc, ValueRange{result, add(step, index(1))});
    }
    afterLastIssue();
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    Value accumulator = fenceAccumulator(loop.getResult(0));
    Value next = loop.getResult(1);
    Value anySteps = cmp(arith::CmpIPredicate::ugt, t.kSteps, index(0));
    ifThen(andI(anySteps, isConsumerLeader),
           [&] { releaseStage(sub(next, index(1))); });
    return {accumulator, next};
  }

  /// Blockwise FP8: each k-step (128 of K, one block of both operands'
  /// scales) is multiplied into a zeroed accumulator and waited for, its
  /// stage released, and the product added to the running sum times its
  /// scales. RaggedDim::M loads the scales from global memory before the
  /// wait (measured faster than loading them a step ahead,
  /// bench/results/2026-11-29-h200-fp8-wgrad run3); RaggedDim::K reads them
  /// from the stage. The other consumer's wgmmas keep the tensor cores busy
  /// while this one promotes.
  /// With a second product (GroupedGemmConfig::kSecond) its k-steps run
  /// in a loop of their own after the first's, promoted with a2_scale and
  /// b2_scale at k - firstKTiles (no per-step choice of the scales).
  std::pair<Value, Value> emitBlockScaledTileMma(const TileCoordinates &t,
                                                 Value count) {
    Value zero = LLVM::ZeroOp::create(b, loc, accumulatorType());
    std::array<Value, 2> rows;
    if (config.ragged == RaggedDim::M)
      rows = accumulatorRowsOfA(t);
    if (!config.kSecond)
      return emitBlockScaledSteps(t, rows, index(0), t.kSteps, index(0),
                                  operands.aScale, operands.bScale, zero,
                                  count);
    Value firstSteps = index(config.firstKTiles());
    auto [sum, step] = emitBlockScaledSteps(
        t, rows, index(0), minU(t.kSteps, firstSteps), index(0),
        operands.aScale, operands.bScale, zero, count);
    return emitBlockScaledSteps(t, rows, firstSteps, t.kSteps, firstSteps,
                                operands.a2Scale, operands.b2Scale, sum, step);
  }

  /// K-steps [from, to) of emitBlockScaledTileMma, RaggedDim::M's scales
  /// read from `aScales` and `bScales` at k-step - `scaleBase`, summed into
  /// `sum`; returns the sum and the pipeline step after them.
  std::pair<Value, Value>
  emitBlockScaledSteps(const TileCoordinates &t, ArrayRef<Value> rows,
                       Value from, Value to, Value scaleBase, Value aScales,
                       Value bScales, Value sumIn, Value count) {
    if (config.pairedPromotion())
      return emitPairedBlockScaledSteps(t, rows, from, to, scaleBase, aScales,
                                        bScales, sumIn, count);
    // Each step's product starts from nothing: its first wgmma overwrites
    // the registers (scale-d 0), so no zeros are moved in a step.
    Value unset = LLVM::UndefOp::create(b, loc, accumulatorType());
    auto loop = scf::ForOp::create(b, loc, from, to, index(1),
                                   ValueRange{sumIn, count});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value sum = loop.getRegionIterArg(0);
      Value step = loop.getRegionIterArg(1);
      Value stage = stageOf(step);
      Value kStep = loop.getInductionVar();
      std::function<Value(int64_t)> factorOf;
      if (config.ragged == RaggedDim::M)
        factorOf = blockScaleFactors(t, rows, sub(kStep, scaleBase), aScales,
                                     bScales);
      nvgpu::MBarrierTryWaitParityOp::create(
          b, loc, fullBarriers, phaseOf(step), index(10000000), stage);
      if (config.ragged == RaggedDim::K) {
        zeroOutsideGroup(t, kStep, stage);
        factorOf = reductionScaleFactors(loadStagedScales(stage));
      }
      Value product = fenceAccumulator(emitStageMma(
          stage, unset, /*inFlight=*/0, /*overwrite=*/true));
      if (config.stagedScales())
        releaseStage(step);
      else
        ifThen(isConsumerLeader, [&] { releaseStage(step); });
      sum = promote(sum, product, factorOf);
      scf::YieldOp::create(b, loc, ValueRange{sum, add(step, index(1))});
    }
    return {loop.getResult(0), loop.getResult(1)};
  }

  /// GroupedGemmConfig::pairedPromotion: emitBlockScaledSteps two k-steps
  /// at a time, each into its own product registers, both issued before
  /// either is waited for: the first step's promotion runs while the
  /// second's wgmmas do, so only every other promotion leaves the tensor
  /// cores to the other consumer. An odd last step is paired with itself:
  /// its stage, still held, is multiplied again and the second product is
  /// not added (selected away, whatever its values), so no wgmma is in a
  /// branch (ptxas serializes wgmmas on a path it cannot prove every thread
  /// takes, C7520) and no stage is read that was not waited for.
  std::pair<Value, Value>
  emitPairedBlockScaledSteps(const TileCoordinates &t, ArrayRef<Value> rows,
                             Value from, Value to, Value scaleBase,
                             Value aScales, Value bScales, Value sumIn,
                             Value count) {
    Value unset = LLVM::UndefOp::create(b, loc, accumulatorType());
    Value steps = arith::MaxSIOp::create(b, loc, sub(to, from), index(0));
    Value pairs = arith::CeilDivUIOp::create(b, loc, steps, index(2));
    auto loop = scf::ForOp::create(b, loc, index(0), pairs, index(1),
                                   ValueRange{sumIn, count});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value sum = loop.getRegionIterArg(0);
      Value firstStep = loop.getRegionIterArg(1);
      Value firstK = add(from, mul(loop.getInductionVar(), index(2)));
      Value hasSecond =
          cmp(arith::CmpIPredicate::ult, add(firstK, index(1)), to);
      Value secondK = select(hasSecond, add(firstK, index(1)), firstK);
      Value secondStep = select(hasSecond, add(firstStep, index(1)), firstStep);
      std::function<Value(int64_t)> firstFactor, secondFactor;
      if (config.ragged == RaggedDim::M) {
        firstFactor = blockScaleFactors(t, rows, sub(firstK, scaleBase),
                                        aScales, bScales);
        secondFactor = blockScaleFactors(t, rows, sub(secondK, scaleBase),
                                         aScales, bScales);
      }
      auto issue = [&](Value step, Value kStep) {
        Value stage = stageOf(step);
        nvgpu::MBarrierTryWaitParityOp::create(
            b, loc, fullBarriers, phaseOf(step), index(10000000), stage);
        if (config.ragged == RaggedDim::K)
          zeroOutsideGroup(t, kStep, stage);
        Value product = issueStageMma(stage, unset, rowBlock, /*fence=*/true,
                                      /*overwrite=*/true);
        NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
        return product;
      };
      Value firstProduct = issue(firstStep, firstK);
      Value secondProduct = issue(secondStep, secondK);
      // By every consumer thread (stagedScales) or each consumer's leader,
      // where `condition` (if any) holds.
      auto release = [&](Value step, Value condition) {
        if (!config.stagedScales())
          condition = condition ? andI(condition, isConsumerLeader)
                                : isConsumerLeader;
        if (!condition)
          return releaseStage(step);
        ifThen(condition, [&] { releaseStage(step); });
      };
      // The first step's product is done; the second's may still run.
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
      firstProduct = fenceAccumulator(firstProduct);
      if (config.ragged == RaggedDim::K)
        firstFactor = lazyStagedScaleFactors(stageOf(firstStep));
      sum = promote(sum, firstProduct, firstFactor);
      // A lone step's stage is released after its second reading.
      release(firstStep, hasSecond);
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
      secondProduct = fenceAccumulator(secondProduct);
      if (config.ragged == RaggedDim::K)
        secondFactor = lazyStagedScaleFactors(stageOf(secondStep));
      sum = promote(sum, secondProduct, secondFactor, hasSecond);
      release(secondStep, Value());
      scf::YieldOp::create(b, loc, ValueRange{sum, add(secondStep, index(1))});
    }
    return {loop.getResult(0), loop.getResult(1)};
  }

  /// After the consumers zeroed parts of a stage: their writes fenced for
  /// the async proxy (wgmma reads the stage through it), then every
  /// consumer waits for the others (they share B's tile). With pingpong
  /// one consumer zeroed the whole stage and waits for its own threads.
  void publishZeroedStage() {
    fenceSharedForAsyncProxy();
    if (config.pingpong()) {
      consumerBarrier();
      return;
    }
    namedBarrier(i32(config.consumers() + 1),
                 config.consumers() * GroupedGemmConfig::warpgroupSize);
  }

  /// RaggedDim::K: a k-step's rows outside the group become zeros before
  /// the wgmma reads them.
  /// With GroupedGemmConfig::producerZeroes the producer's zeroing threads
  /// did it before the stage's full barrier completed.
  void zeroOutsideGroup(const TileCoordinates &t, Value kStep, Value stage) {
    if (config.producerZeroes())
      return;
    if (config.kMajorReduction())
      zeroColumnsOutsideGroup(t, kStep, stage);
    else
      zeroRowsPastGroup(t, kStep, stage);
  }

  /// GroupedGemmConfig::kMajorReduction: the bytes [lo, hi) of each
  /// swizzle row of k-step `kStep` of tile `t` that hold the group's rows of
  /// R, and whether that is not all of them.
  struct GroupBytes {
    Value lo, hi, partial;
  };
  GroupBytes stepBytesInGroup(const TileCoordinates &t, Value kStep) {
    Value elementBytes = index(config.elementBytes());
    Value first = add(t.stepBegin, mul(kStep, index(config.blockK())));
    Value lo =
        mul(sub(arith::MaxUIOp::create(b, loc, t.reductionBegin, first), first),
            elementBytes);
    Value hi = mul(minU(sub(t.reductionEnd, first), index(config.blockK())),
                   elementBytes);
    Value partial = arith::OrIOp::create(
        b, loc, cmp(arith::CmpIPredicate::ugt, lo, index(0)),
        cmp(arith::CmpIPredicate::ult, hi,
            index(GroupedGemmConfig::swizzleRowBytes)));
    return {lo, hi, partial};
  }

  /// GroupedGemmConfig::kMajorReduction: a k-step covers one block of
  /// blockK rows of R, which may begin before the group (its first step) or
  /// run past it (its last). Those rows are K-columns of the stage's tiles:
  /// bytes [lo, hi) of each 128-byte swizzle row are the group's, the rest
  /// are zeroed, A's rows of this consumer and its share of B's rows, 16
  /// bytes at a time (the 128-byte swizzle moves whole 16-byte chunks: the
  /// chunk c of row r is at chunk c xor (r mod 8)). Then the writes are
  /// fenced for the async proxy and the consumers synchronized, as they
  /// share B.
  void zeroColumnsOutsideGroup(const TileCoordinates &t, Value kStep,
                               Value stage) {
    GroupBytes bytes = stepBytesInGroup(t, kStep);
    Value lo = bytes.lo, hi = bytes.hi;
    ifThen(bytes.partial, [&] {
      constexpr int64_t rowBytes = GroupedGemmConfig::swizzleRowBytes;
      // This consumer's rows of A and share of B's; with pingpong all.
      int64_t aShare = config.pingpong() ? config.blockM
                                         : GroupedGemmConfig::wgmmaM;
      int64_t bShare = config.pingpong() ? config.blockN
                                         : config.blockN / config.consumers();
      Value sharer = config.pingpong() ? index(0) : consumer;
      Value aRows =
          add(aStageOffset(stage), mul(sharer, index(aShare * rowBytes)));
      zeroSwizzledBytesOutside(aRows, aShare, lo, hi, consumerThread,
                               GroupedGemmConfig::warpgroupSize);
      Value bRows =
          add(bStageOffset(stage), mul(sharer, index(bShare * rowBytes)));
      zeroSwizzledBytesOutside(bRows, bShare, lo, hi, consumerThread,
                               GroupedGemmConfig::warpgroupSize);
      publishZeroedStage();
    });
  }

  /// Zeroes, in `rows` 128-byte-swizzled rows at `byteOffset`, the bytes of
  /// each row's logical positions outside [lo, hi), by `threads` threads
  /// (`thread` is this one's index among them), a 16-byte chunk each at a
  /// time. A thread visits chunk t, t + threads, ... (t = `thread`), always
  /// the same logical chunk of a row (t mod 8), so what it keeps of its
  /// chunks is one mask computed once: all of them kept, nothing to do;
  /// none, zero stores; else each chunk is read, masked by words and
  /// stored.
  void zeroSwizzledBytesOutside(Value byteOffset, int64_t rows, Value lo,
                                Value hi, Value thread, int64_t threads,
                                Value secondOffset = Value(),
                                int64_t secondRows = 0) {
    constexpr int64_t chunkBytes = 16, wordBytes = 4;
    constexpr int64_t rowBytes = GroupedGemmConfig::swizzleRowBytes;
    constexpr int64_t chunksPerRow = rowBytes / chunkBytes;
    static_assert(GroupedGemmConfig::warpgroupSize % chunksPerRow == 0 &&
                      GroupedGemmConfig::zeroingThreads % chunksPerRow == 0,
                  "a thread's chunks share their logical position");
    constexpr int64_t wordsPerChunk = chunkBytes / wordBytes;
    Type wordType = b.getI32Type();
    auto chunkType = VectorType::get({wordsPerChunk}, wordType);
    Value logical = remU(thread, index(chunksPerRow));
    SmallVector<Value, 4> maskWords;
    Value keepAll = i1(true), keepNone = i1(true);
    for (int64_t word = 0; word < wordsPerChunk; ++word) {
      Value mask = keptBytesMask(
          add(mul(logical, index(chunkBytes)), index(word * wordBytes)), lo,
          hi);
      maskWords.push_back(mask);
      keepAll = andI(keepAll, cmp(arith::CmpIPredicate::eq, mask, i32(-1)));
      keepNone = andI(keepNone, cmp(arith::CmpIPredicate::eq, mask, i32(0)));
    }
    Value mask = vector::FromElementsOp::create(b, loc, chunkType, maskWords);
    Value zeros = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(chunkType, b.getZeroAttr(wordType)));
    // With a second run of rows (`secondRows` at `secondOffset`), one loop
    // covers both, through a view of all the operand stages.
    Value view =
        secondRows ? sharedView({config.bOffset(config.stages) / wordBytes},
                                wordType, index(0))
                   : sharedView({rows * rowBytes / wordBytes}, wordType,
                                byteOffset);
    Value notAll = arith::XOrIOp::create(b, loc, keepAll, i1(true));
    ifThen(notAll, [&] {
      auto chunks = scf::ForOp::create(
          b, loc, thread, index((rows + secondRows) * chunksPerRow),
          index(threads));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(chunks.getBody());
      Value row = divU(chunks.getInductionVar(), index(chunksPerRow));
      // The swizzle's row is the row within its run (runs start at
      // multiples of 8 rows).
      Value physical =
          arith::XOrIOp::create(b, loc, logical, remU(row, index(8)));
      Value at = add(mul(row, index(rowBytes / wordBytes)),
                     mul(physical, index(wordsPerChunk)));
      if (secondRows) {
        // Run 1's row r is at byteOffset + 128 r, run 2's row r at
        // secondOffset + 128 (r - rows).
        Value inSecond = cmp(arith::CmpIPredicate::uge, row, index(rows));
        Value base = select(inSecond,
                            sub(secondOffset, index(rows * rowBytes)),
                            byteOffset);
        at = add(at, divU(base, index(wordBytes)));
      }
      auto branch =
          scf::IfOp::create(b, loc, keepNone, /*withElseRegion=*/true);
      b.setInsertionPointToStart(branch.thenBlock());
      vector::StoreOp::create(b, loc, zeros, view, ValueRange{at});
      b.setInsertionPointToStart(branch.elseBlock());
      Value words =
          vector::LoadOp::create(b, loc, chunkType, view, ValueRange{at});
      vector::StoreOp::create(b, loc, arith::AndIOp::create(b, loc, words, mask),
                              view, ValueRange{at});
    });
  }

  /// The mask of the bytes of the 4-byte word at logical byte `first` of a
  /// swizzle row that lie in [lo, hi) (byte j of the word is bits 8j to
  /// 8j + 7, little-endian): the bytes below min(hi - first, 4), less those
  /// below max(lo - first, 0), both clamped to [0, 4].
  Value keptBytesMask(Value first, Value lo, Value hi) {
    // In i32 (a 64-bit shift would take register pairs): a whole word
    // where n = 4, whose shift by 32 would be poison.
    auto bytesBelow = [&](Value bound) {
      Value n = arith::MaxSIOp::create(b, loc, sub(bound, first), index(0));
      n = arith::MinSIOp::create(b, loc, n, index(4));
      Value bits = toI32(mul(n, index(8)));
      Value below = arith::SubIOp::create(
          b, loc, arith::ShLIOp::create(b, loc, i32(1), bits), i32(1));
      return select(cmp(arith::CmpIPredicate::eq, n, index(4)), i32(-1),
                    below);
    };
    Value notBelowLo = arith::XOrIOp::create(b, loc, bytesBelow(lo), i32(-1));
    return arith::AndIOp::create(b, loc, bytesBelow(hi), notBelowLo);
  }

  /// RaggedDim::K: a group's last k-step may bring rows of the next group
  /// (TMA fills zeros past R only). Before the wgmma reads the stage, those
  /// rows are zeroed in A's box of this consumer and in its share of B's
  /// boxes (a row is one 128-byte swizzle row, whatever the swizzle), the
  /// writes fenced for the async proxy, and all consumers synchronized
  /// since they share B.
  void zeroRowsPastGroup(const TileCoordinates &t, Value kStep, Value stage) {
    Value first =
        add(t.reductionBegin, mul(kStep, index(config.blockK())));
    Value valid = sub(t.reductionEnd, first);
    Value partial =
        cmp(arith::CmpIPredicate::ult, valid, index(config.blockK()));
    ifThen(partial, [&] {
      // A is M-major here: this consumer's M-columns are its own box (with
      // pingpong, its tile's every box).
      if (config.pingpong()) {
        for (int64_t box = 0; box < config.rowBlocksPerConsumer(); ++box)
          zeroRowsFrom(stageBoxAt(aStageOffset(stage), index(box)), valid);
      } else {
        zeroRowsFrom(stageBoxAt(aStageOffset(stage), consumer), valid);
      }
      zeroBRowsFrom(stage, valid);
      publishZeroedStage();
    });
  }

  /// RaggedDim::M with an N-major B: a product's last k-step, where K is
  /// not a multiple of blockK, brings the next group's first rows of B
  /// (or zeros past the last group). A's columns there are zeros, but a
  /// non-finite weight times zero is NaN: the rows become zeros before the
  /// wgmma reads them.
  void zeroRowsPastK(Value kStep, Value stage) {
    auto zeroTail = [&](int64_t lastStep, int64_t validRows) {
      ifThen(cmp(arith::CmpIPredicate::eq, kStep, index(lastStep)), [&] {
        zeroBRowsFrom(stage, index(validRows));
        publishZeroedStage();
      });
    };
    if (int64_t rows = config.kTailRows(config.k))
      zeroTail(config.firstKTiles() - 1, rows);
    if (int64_t rows = config.kTailRows(config.kSecond))
      zeroTail(config.kTiles() - 1, rows);
  }

  /// Zeroes rows [firstRow, 64) of each of B's 64 x 64 boxes in `stage`,
  /// the boxes dealt out to the consumers in turn (they share B; with
  /// pingpong the one consumer zeroes every box).
  void zeroBRowsFrom(Value stage, Value firstRow) {
    for (int64_t box = 0; box < config.bBoxes(); ++box) {
      Value mine = config.pingpong()
                       ? i1(true)
                       : cmp(arith::CmpIPredicate::eq,
                             index(box % config.consumers()), consumer);
      ifThen(mine, [&] {
        zeroRowsFrom(stageBoxAt(bStageOffset(stage), index(box)), firstRow);
      });
    }
  }

  /// Box `box` (a run-time index) of 64 x 64 at `stageOffset`.
  Value stageBoxAt(Value stageOffset, Value box) {
    int64_t boxBytes = config.blockK() * GroupedGemmConfig::swizzleRowBytes;
    return sharedView({config.blockK(), GroupedGemmConfig::boxWidth},
                      b.getBF16Type(),
                      add(stageOffset, mul(box, index(boxBytes))));
  }

  /// Zeroes rows [firstRow, 64) of a 64 x 64 bf16 box, 16 bytes a thread at
  /// a time.
  void zeroRowsFrom(Value box, Value firstRow) {
    constexpr int64_t vectorWidth = 8;
    int64_t chunksPerRow = GroupedGemmConfig::boxWidth / vectorWidth;
    auto vectorType = VectorType::get({vectorWidth}, b.getBF16Type());
    Value zeros = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(vectorType, b.getZeroAttr(b.getBF16Type())));
    auto chunks = scf::ForOp::create(
        b, loc, consumerThread, index(config.blockK() * chunksPerRow),
        index(GroupedGemmConfig::warpgroupSize));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(chunks.getBody());
    Value chunk = chunks.getInductionVar();
    Value row = divU(chunk, index(chunksPerRow));
    Value column = mul(remU(chunk, index(chunksPerRow)), index(vectorWidth));
    ifThen(cmp(arith::CmpIPredicate::uge, row, firstRow), [&] {
      vector::StoreOp::create(b, loc, zeros, box, ValueRange{row, column});
    });
  }

  /// The wgmma shared-memory matrix descriptor of the operand tile at
  /// `byteOffset` (from the aligned base): its address, the leading-
  /// dimension byte offset (between 64-column boxes of an M/N-major
  /// operand), the 1024-byte stride between 8-row groups, and the 128-byte
  /// swizzle. Fields hold byte counts divided by 16.
  Value matrixDescriptor(Value byteOffset, int64_t leadingBytes) {
    auto i64 = b.getI64Type();
    auto constant = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, loc, v, 64).getResult();
    };
    Value address = arith::IndexCastOp::create(
        b, loc, i64, add(sharedBase, add(alignPad, byteOffset)));
    Value addressField = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, address, constant(4)),
        constant(0x3FFF));
    constexpr int64_t strideBytes = 8 * GroupedGemmConfig::swizzleRowBytes;
    int64_t fields = (int64_t{1} << 62) | ((strideBytes >> 4) << 32) |
                     ((leadingBytes >> 4) << 16);
    return arith::OrIOp::create(b, loc, addressField, constant(fields));
  }

  static NVVM::WGMMATypes wgmmaType(OperandType type) {
    switch (type) {
    case OperandType::bf16:
      return NVVM::WGMMATypes::bf16;
    case OperandType::e4m3:
      return NVVM::WGMMATypes::e4m3;
    case OperandType::e5m2:
      return NVVM::WGMMATypes::e5m2;
    }
    llvm_unreachable("unknown operand type");
  }

  /// This consumer's wgmmas on stage `stage`: its 64 rows, 64 x BN +=
  /// 64 x BK · BK x BN as BK / wgmmaK m64nBNkK instructions, one commit
  /// group, of which at most `inFlight` stay in flight when it returns.
  Value emitStageMma(Value stage, Value accumulator, int64_t inFlight = 1,
                     bool overwrite = false) {
    accumulator = issueStageMma(stage, accumulator, rowBlock, /*fence=*/true,
                                overwrite);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, inFlight);
    return accumulator;
  }

  /// The wgmmas of 64-row block `block` of the tile on stage `stage`, not
  /// committed, after a wgmma fence where `fence` says (the first block's);
  /// with `overwrite` the first one ignores `accumulator` (scale-d 0),
  /// which may then be undef. A K-major operand advances 32 bytes of K per instruction,
  /// an M/N-major one 16 rows (2 KiB); A's 64 rows of the block start 64
  /// swizzle rows into the stage either way (a K-major box's rows, or the
  /// block's 64 x 64 box of an M-major one).
  Value issueStageMma(Value stage, Value accumulator, Value block,
                      bool fence, bool overwrite = false) {
    constexpr int64_t rowBytes = GroupedGemmConfig::swizzleRowBytes;
    Value aBase =
        add(aStageOffset(stage),
            mul(block, index(GroupedGemmConfig::wgmmaM * rowBytes)));
    Value bBase = bStageOffset(stage);
    int64_t wgmmaK = config.wgmmaK();
    auto kStride = [&](bool kMajor) {
      return kMajor ? wgmmaK * config.elementBytes() : wgmmaK * rowBytes;
    };
    int64_t aLeading = config.aKMajor ? config.aBoxRows() * rowBytes
                                      : config.blockK() * rowBytes;
    int64_t bLeading = config.bKMajor ? config.bBoxRows() * rowBytes
                                      : config.blockK() * rowBytes;
    auto shape = NVVM::MMAShapeAttr::get(ctx, GroupedGemmConfig::wgmmaM,
                                         config.blockN, wgmmaK);
    // wgmma's layouts: A "row" and B "col" are K-major.
    auto layoutA = config.aKMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col;
    auto layoutB = config.bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row;
    // The k-slices' descriptors are the stage's plus their byte offset / 16
    // in the address field: shared addresses stay below 2^18 (228 KiB), so
    // the 14-bit field never carries into the next one. One add a slice
    // keeps the integer work between the wgmmas small.
    Value aStageDescriptor = matrixDescriptor(aBase, aLeading);
    Value bStageDescriptor = matrixDescriptor(bBase, bLeading);
    auto advanced = [&](Value descriptor, int64_t bytes) {
      if (bytes == 0)
        return descriptor;
      return arith::AddIOp::create(
                 b, loc, descriptor,
                 arith::ConstantIntOp::create(b, loc, bytes >> 4, 64))
          .getResult();
    };
    if (fence)
      NVVM::WgmmaFenceAlignedOp::create(b, loc);
    for (int64_t kk = 0; kk < config.blockK() / wgmmaK; ++kk) {
      Value aDescriptor =
          advanced(aStageDescriptor, kk * kStride(config.aKMajor));
      Value bDescriptor =
          advanced(bStageDescriptor, kk * kStride(config.bKMajor));
      accumulator = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, accumulatorType(), accumulator, aDescriptor, bDescriptor,
          shape, wgmmaType(config.aType), wgmmaType(config.bType),
          NVVM::WGMMATypes::f32,
          overwrite && kk == 0 ? NVVM::WGMMAScaleOut::zero
                               : NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, layoutA, layoutB,
          /*satfinite=*/NVVM::MMAIntOverflowAttr());
    }
    return accumulator;
  }

  /// The first of the two rows of its consumer's 64 that this thread's
  /// accumulator registers hold (wgmma's layout: 16 (t / 32) + (t mod 32) /
  /// 4; the other is 8 further).
  Value accumulatorRow() {
    Value lane = remU(consumerThread, index(32));
    return add(mul(divU(consumerThread, index(32)), index(16)),
               divU(lane, index(4)));
  }

  // --- blockwise FP8 scaling ------------------------------------------------
  /// RaggedDim::M: the two rows of a tile this thread's accumulators hold
  /// (accumulatorRow), as rows of A, clamped to R - 1 (rows past R are not
  /// stored).
  std::array<Value, 2> accumulatorRowsOfA(const TileCoordinates &t) {
    Value row = add(add(t.aBegin, mul(consumer, index(64))), accumulatorRow());
    Value last = index(config.rows - 1);
    return {minU(row, last), minU(add(row, index(8)), last)};
  }

  /// The factors a_scale[row, kStep] · b_scale[group, n-block, kStep] (of
  /// `aScales` and `bScales`) that k-step `kStep`'s product of this thread's
  /// accumulators takes, by accumulator register (its row half and its
  /// column's n-block): the scales are loaded and multiplied here, before
  /// the step's wait.
  std::function<Value(int64_t)> blockScaleFactors(const TileCoordinates &t,
                                                  ArrayRef<Value> rows,
                                                  Value kStep, Value aScales,
                                                  Value bScales) {
    int64_t tileBlocks = (config.blockN + 127) / 128;
    SmallVector<Value> factors =
        loadBlockScaleFactors(t, rows, kStep, aScales, bScales);
    return [factors, tileBlocks](int64_t reg) {
      int64_t chunk = reg / 4, half = (reg / 2) % 2;
      return factors[half * tileBlocks + chunk * 8 / 128];
    };
  }

  /// a_scale[row, kStep] · b_scale[group, n-block, kStep] for each of
  /// `rows` (outer) and each 128-column block of the tile (inner).
  SmallVector<Value> loadBlockScaleFactors(const TileCoordinates &t,
                                           ArrayRef<Value> rows, Value kStep,
                                           Value aScales, Value bScales) {
    int64_t nBlocks = (config.n + 127) / 128;
    int64_t tileBlocks = (config.blockN + 127) / 128;
    Value firstBlock = divU(t.colBegin, index(128));
    SmallVector<Value, 2> bScale;
    for (int64_t i = 0; i < tileBlocks; ++i) {
      Value nBlock = minU(add(firstBlock, index(i)), index(nBlocks - 1));
      SmallVector<Value, 3> at = {t.group, nBlock, kStep};
      if (!config.bScaleNK)
        std::swap(at[1], at[2]);
      bScale.push_back(memref::LoadOp::create(b, loc, bScales, at).getResult());
    }
    SmallVector<Value> factors;
    for (Value row : rows) {
      Value aScale =
          memref::LoadOp::create(b, loc, aScales, ValueRange{row, kStep});
      for (Value s : bScale)
        factors.push_back(arith::MulFOp::create(b, loc, aScale, s));
    }
    return factors;
  }

  /// RaggedDim::K (GroupedGemmConfig::stagedScales): the scales of the
  /// k-step in `stage`, which the producer copied there: a_scale of the
  /// thread's two rows, then b_scale of its BN / 4 columns, register order
  /// (forEachOutputPair: register 4 j + 2 h + i holds row `rows[h]` and
  /// column 8 j + 2 (lane mod 4) + i of the tile). Read after the stage's
  /// full barrier and before its release.
  SmallVector<Value> loadStagedScales(Value stage) {
    assert(config.stagedScales() && "scales are staged with the operands");
    Value view = sharedView({config.blockM + config.blockN}, b.getF32Type(),
                            scaleStageOffset(stage));
    Value row =
        add(mul(consumer, index(GroupedGemmConfig::wgmmaM)), accumulatorRow());
    SmallVector<Value> scales;
    for (int64_t half = 0; half < 2; ++half)
      scales.push_back(memref::LoadOp::create(
          b, loc, view, ValueRange{add(row, index(8 * half))}));
    // The thread's columns come in pairs (2 (lane mod 4) + 8 j and the
    // next): one 8-byte load a pair.
    Value lane = remU(consumerThread, index(32));
    Value firstColumn =
        add(index(config.blockM), mul(remU(lane, index(4)), index(2)));
    auto pairType = VectorType::get({2}, b.getF32Type());
    for (int64_t chunk = 0; chunk < config.blockN / 8; ++chunk) {
      Value pair = vector::LoadOp::create(
          b, loc, pairType, view,
          ValueRange{add(firstColumn, index(chunk * 8))},
          /*nontemporal=*/false, b.getI64IntegerAttr(8));
      for (int64_t i = 0; i < 2; ++i)
        scales.push_back(vector::ExtractOp::create(b, loc, pair, i));
    }
    return scales;
  }

  /// loadStagedScales' factors for pairedPromotion, whose two products
  /// and sum leave no room for the BN / 4 column scales at once: the rows'
  /// scales are read first, each column pair's when promote first asks for
  /// it (one 8-byte load, then its four registers).
  std::function<Value(int64_t)> lazyStagedScaleFactors(Value stage) {
    assert(config.stagedScales() && "scales are staged with the operands");
    Value view = sharedView({config.blockM + config.blockN}, b.getF32Type(),
                            scaleStageOffset(stage));
    Value row =
        add(mul(consumer, index(GroupedGemmConfig::wgmmaM)), accumulatorRow());
    SmallVector<Value, 2> rowScales;
    for (int64_t half = 0; half < 2; ++half)
      rowScales.push_back(memref::LoadOp::create(
          b, loc, view, ValueRange{add(row, index(8 * half))}));
    Value lane = remU(consumerThread, index(32));
    Value firstColumn =
        add(index(config.blockM), mul(remU(lane, index(4)), index(2)));
    auto columnPairs = std::make_shared<DenseMap<int64_t, Value>>();
    return [this, view, rowScales, firstColumn,
            columnPairs](int64_t reg) -> Value {
      int64_t chunk = reg / 4, half = (reg / 2) % 2, i = reg % 2;
      Value &pair = (*columnPairs)[chunk];
      if (!pair)
        pair = vector::LoadOp::create(
            b, loc, VectorType::get({2}, b.getF32Type()), view,
            ValueRange{add(firstColumn, index(chunk * 8))},
            /*nontemporal=*/false, b.getI64IntegerAttr(8));
      return arith::MulFOp::create(b, loc, rowScales[half],
                                   vector::ExtractOp::create(b, loc, pair, i));
    };
  }

  /// The factor a_scale · b_scale of each accumulator register from a
  /// step's loadReductionScales, multiplied where promote asks for it, so
  /// that BN / 2 products are not live across the wgmma.
  std::function<Value(int64_t)> reductionScaleFactors(ValueRange scales) {
    SmallVector<Value> owned(scales);
    return [this, owned](int64_t reg) -> Value {
      int64_t chunk = reg / 4, half = (reg / 2) % 2, i = reg % 2;
      return arith::MulFOp::create(b, loc, owned[half],
                                   owned[2 + chunk * 2 + i]);
    };
  }

  /// accumulator += product · factorOf(register), register by register;
  /// with `valid`, only where it holds (else the accumulator is kept as it
  /// is, a NaN or infinite product included).
  Value promote(Value accumulator, Value product,
                const std::function<Value(int64_t)> &factorOf,
                Value valid = Value()) {
    for (int64_t reg = 0; reg < config.blockN / 2; ++reg) {
      Value old = LLVM::ExtractValueOp::create(b, loc, accumulator, reg);
      Value part = LLVM::ExtractValueOp::create(b, loc, product, reg);
      Value sum = LLVM::FMAOp::create(b, loc, part, factorOf(reg), old);
      if (valid)
        sum = select(valid, sum, old);
      accumulator = LLVM::InsertValueOp::create(b, loc, accumulator, sum, reg);
    }
    return accumulator;
  }

  // --- epilogue -------------------------------------------------------------
  /// Synchronizes this consumer warpgroup only (named barrier 1 + its
  /// index; the producer runs ahead, the other consumer has its own rows).
  void consumerBarrier() {
    namedBarrier(add(toI32(consumer), i32(1)),
                 GroupedGemmConfig::warpgroupSize);
  }

  /// Calls `store(row, chunk, pair)` for each pair of output values this
  /// thread holds, the epilogue applied: thread t of the warpgroup holds,
  /// for every 8-column chunk j and half h, columns 8j + 2 (t mod 4) and the
  /// next of row 16 (t / 32) + (t mod 32) / 4 + 8h of its consumer's 64
  /// (the wgmma accumulator layout), as registers 4j + 2h and 4j + 2h + 1.
  /// An output column's gate and up accumulators are then in one thread:
  /// chunk j and chunk j + BN / 16. `row` is the consumer's (0 to 63),
  /// `chunk` c's tile's, `pair` a vector<2xf32>; only chunks [firstChunk,
  /// endChunk) of c's tile are visited (all by default).
  void forEachOutputPair(const TileCoordinates &t, Value accumulator,
                         llvm::function_ref<void(Value, int64_t, Value)> store,
                         int64_t firstChunk = 0, int64_t endChunk = -1) {
    Value row = accumulatorRow();
    auto pairType = VectorType::get({2}, b.getF32Type());
    Value pair0 = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(pairType, b.getF32FloatAttr(0.0f)));
    int64_t outChunks = config.outBlockN() / 8;
    if (endChunk < 0)
      endChunk = outChunks;
    Value consumerRows = mul(rowBlock, index(GroupedGemmConfig::wgmmaM));
    Value pairColumn =
        mul(remU(remU(consumerThread, index(32)), index(4)), index(2));
    for (int64_t half = 0; half < 2; ++half) {
      Value halfRow = add(row, index(8 * half));
      Value globalRow = add(t.rowBegin, add(consumerRows, halfRow));
      Value rowScale = stagedEpilogue ? Value() : loadRowScale(globalRow);
      // Inputs and extra destinations here only where the epilogue runs on
      // the registers (not stagedEpilogue): a chunk's input pairs loaded
      // with it (loading a half row's first drew spills at 255 registers).
      bool inRegisters = operands.epilogue && !stagedEpilogue;
      for (int64_t chunk = firstChunk; chunk < endChunk; ++chunk) {
        Value globalColumn =
            add(t.colBegin, add(index(8 * chunk), pairColumn));
        SmallVector<Value> inputPairs;
        if (inRegisters)
          for (Value pair : loadEpilogueInputs(globalRow, globalColumn, 2))
            inputPairs.push_back(widenToF32(pair));
        SmallVector<Value> extraPairs(
            inRegisters ? operands.extraOutputs.size() : 0, pair0);
        Value pair = pair0;
        for (int64_t k = 0; k < 2; ++k) {
          SmallVector<Value, 3> values;
          for (int64_t which = 0; which < config.accumulatorsPerOutput;
               ++which) {
            Value value = LLVM::ExtractValueOp::create(
                b, loc, accumulator,
                ArrayRef<int64_t>{4 * (chunk + which * outChunks) + 2 * half +
                                  k});
            if (tensorScale)
              value = arith::MulFOp::create(b, loc, value, tensorScale);
            values.push_back(value);
          }
          Value v = values.front();
          if (inRegisters) {
            if (rowScale)
              values.push_back(rowScale);
            for (Value inputPair : inputPairs)
              values.push_back(vector::ExtractOp::create(b, loc, inputPair, k));
            SmallVector<Value, 3> results = operands.epilogue(b, values);
            v = results.front();
            for (auto [extraPair, extra] :
                 llvm::zip(extraPairs, ArrayRef(results).drop_front()))
              extraPair = vector::InsertOp::create(b, loc, extra, extraPair, k);
          }
          pair = vector::InsertOp::create(b, loc, v, pair, k);
        }
        store(halfRow, chunk, pair);
        storeExtraOutputs(t, globalRow, globalColumn, extraPairs, 2);
      }
    }
  }

  /// Each epilogue input's `width` elements of row `globalRow` from column
  /// `globalColumn`, as stored (bf16 or f32); rows past R read row R - 1 and
  /// columns past N the last `width` (their values are not stored).
  SmallVector<Value> loadEpilogueInputs(Value globalRow, Value globalColumn,
                                        int64_t width) {
    SmallVector<Value> loaded;
    if (operands.epilogueInputs.empty())
      return loaded;
    Value row = minU(globalRow, index(config.rows - 1));
    Value column = minU(globalColumn, index(config.n - width));
    for (Value input : operands.epilogueInputs) {
      Type element = cast<MemRefType>(input.getType()).getElementType();
      loaded.push_back(vector::LoadOp::create(
          b, loc, VectorType::get({width}, element), input,
          ValueRange{row, column}, /*nontemporal=*/false,
          epilogueAccessAlignment(element, width)));
    }
    return loaded;
  }

  /// The epilogue's f32 values (`width` columns each) for the destinations
  /// past c, stored by this thread with c's row mask: rows of the tile's
  /// group (or the zero rows past the groups) and columns inside N.
  void storeExtraOutputs(const TileCoordinates &t, Value globalRow,
                         Value globalColumn, ArrayRef<Value> values,
                         int64_t width) {
    if (values.empty())
      return;
    Value inside =
        andI(cmp(arith::CmpIPredicate::ult, globalRow, t.rowEnd),
             cmp(arith::CmpIPredicate::ult, globalColumn, index(config.n)));
    ifThen(inside, [&] {
      for (auto [value, output] : llvm::zip(values, operands.extraOutputs)) {
        Type element = cast<MemRefType>(output.getType()).getElementType();
        Value stored = value;
        if (!element.isF32())
          stored = arith::TruncFOp::create(
              b, loc, VectorType::get({width}, element), value);
        vector::StoreOp::create(b, loc, stored, output,
                                ValueRange{globalRow, globalColumn},
                                /*nontemporal=*/false,
                                epilogueAccessAlignment(element, width));
      }
    });
  }

  /// A thread's access of `width` elements of an epilogue input or extra
  /// destination: aligned to its size up to 16 bytes (its column is a
  /// multiple of `width`, rows a multiple of 16 bytes: N % 8 == 0).
  llvm::MaybeAlign epilogueAccessAlignment(Type element, int64_t width) {
    int64_t bytes = width * element.getIntOrFloatBitWidth() / 8;
    return llvm::MaybeAlign(std::min<int64_t>(bytes, 16));
  }

  /// `values` (bf16 or f32 elements) as f32.
  Value widenToF32(Value values) {
    auto type = cast<VectorType>(values.getType());
    if (type.getElementType().isF32())
      return values;
    return arith::ExtFOp::create(
        b, loc, VectorType::get(type.getShape(), b.getF32Type()), values);
  }

  /// The epilogue's row scale of c's row `globalRow` (null without one);
  /// rows past R, which are not stored, read row R - 1.
  Value loadRowScale(Value globalRow) {
    if (!operands.rowScale)
      return Value();
    Value clamped = minU(globalRow, index(config.rows - 1));
    return memref::LoadOp::create(b, loc, operands.rowScale,
                                  ValueRange{clamped});
  }

  /// Accumulator -> epilogue -> c, by TMA where this consumer's rows are
  /// whole, else through the row-masked stores. `old` holds c's values
  /// prefetched for `accumulate`.
  void emitEpilogue(const TileCoordinates &t, Value accumulator,
                    ArrayRef<Value> old) {
    // The previous tile's reads of the staging, by this consumer's threads
    // and by its TMA stores, are done.
    if (config.tmaStore())
      ifThen(isConsumerLeader, [&] {
        NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, 0, b.getUnitAttr());
      });
    consumerBarrier();
    if (!config.tmaStore())
      return emitMaskedStores(t, accumulator, old);
    if (!config.maskedStores())
      return emitTmaStores(t, accumulator);
    auto paths =
        scf::IfOp::create(b, loc, consumerRowsWhole(t), /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(paths.thenBlock());
    emitTmaStores(t, accumulator);
    b.setInsertionPointToStart(paths.elseBlock());
    emitMaskedStores(t, accumulator, old);
  }

  /// Whether every row of this consumer's 64 belongs to the
  /// tile (its group's rows, or the zero rows past the groups), or those
  /// that do not lie past c's last row, where the tensor map clips them.
  Value consumerRowsWhole(const TileCoordinates &t) {
    Value begin = add(t.rowBegin, mul(rowBlock, index(64)));
    Value end = add(begin, index(64));
    Value whole = cmp(arith::CmpIPredicate::uge, t.rowEnd, end);
    // RaggedDim::K: db's rows of the tile, which c's [G * M, N] tensor map
    // would not clip at the group's end.
    if (config.ragged == RaggedDim::K)
      return whole;
    Value rows = index(config.rows);
    Value clipped = andI(cmp(arith::CmpIPredicate::eq, t.rowEnd, rows),
                         cmp(arith::CmpIPredicate::ult, begin, rows));
    return arith::OrIOp::create(b, loc, whole, clipped);
  }

  /// This consumer's 64 rows as bf16 boxes of 64 x 64 in shared memory,
  /// 128-byte swizzled as c's tensor map has them (the 16-byte chunk j of
  /// row r at chunk j xor (r mod 8): the 8 rows a warp writes at once fall
  /// in different banks), then one thread stores them by TMA. The stores
  /// complete while the next tile's main loop runs; the next epilogue
  /// waits for their reads of the boxes.
  void emitTmaStores(const TileCoordinates &t, Value accumulator) {
    SmallVector<Value> boxViews = stagingBoxes(consumerStaging());
    writeBoxes(t, accumulator, boxViews);
    // The generic-proxy writes are visible to TMA's reads (async proxy).
    fenceSharedForAsyncProxy();
    consumerBarrier();
    ifThen(isConsumerLeader, [&] {
      storeBoxesByTma(t, boxViews, add(t.rowBegin, mul(rowBlock, index(64))));
      NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    });
  }

  /// Where this consumer's bf16 boxes start (GroupedGemmConfig::
  /// tmaStagingStride).
  Value consumerStaging() {
    return add(index(config.epilogueOffset()),
               mul(consumer, index(config.tmaStagingStride())));
  }
  /// The 64 x 64 bf16 boxes of one 64-row block, one after another from
  /// byte `base` of the layout.
  SmallVector<Value> stagingBoxes(Value base) {
    int64_t boxes = config.outBlockN() / GroupedGemmConfig::boxWidth;
    SmallVector<Value> boxViews;
    for (int64_t box = 0; box < boxes; ++box)
      boxViews.push_back(
          sharedView({GroupedGemmConfig::wgmmaM, GroupedGemmConfig::boxWidth},
                     b.getBF16Type(), add(base, index(box * outputBoxBytes))));
    return boxViews;
  }
  static constexpr int64_t outputBoxBytes =
      GroupedGemmConfig::wgmmaM * GroupedGemmConfig::swizzleRowBytes;
  /// The accumulator's values (of block `rowBlock`), epilogue applied, as
  /// bf16 into `boxViews`, 128-byte swizzled as c's tensor map has them
  /// (the 16-byte chunk j of row r at chunk j xor (r mod 8): the 8 rows a
  /// warp writes at once fall in different banks).
  void writeBoxes(const TileCoordinates &t, Value accumulator,
                  ArrayRef<Value> boxViews) {
    Value lane = remU(consumerThread, index(32));
    Value swizzle = divU(lane, index(4)); // every row this thread holds, mod 8
    Value column = mul(remU(lane, index(4)), index(2));
    auto bf16Pair = VectorType::get({2}, b.getBF16Type());
    forEachOutputPair(
        t, accumulator, [&](Value row, int64_t chunk, Value pair) {
          int64_t chunksPerBox = GroupedGemmConfig::boxWidth / 8;
          Value swizzled = arith::XOrIOp::create(
              b, loc, index(chunk % chunksPerBox), swizzle);
          Value value = arith::TruncFOp::create(b, loc, bf16Pair, pair);
          vector::StoreOp::create(
              b, loc, value, boxViews[chunk / chunksPerBox],
              ValueRange{row, add(mul(swizzled, index(8)), column)});
        });
  }

  /// One thread's TMA stores of a 64-row block's boxes to c's rows from
  /// `row`, not committed.
  void storeBoxesByTma(const TileCoordinates &t, ArrayRef<Value> boxViews,
                       Value row) {
    for (int64_t box = 0; box < static_cast<int64_t>(boxViews.size()); ++box) {
      Value columnBegin =
          add(t.colBegin, index(box * GroupedGemmConfig::boxWidth));
      auto store = [&] {
        nvgpu::TmaAsyncStoreOp::create(b, loc, boxViews[box], outputMap,
                                       ValueRange{columnBegin, row}, Value());
      };
      // A box wholly past N (the last column tile's, where N is not a
      // multiple of the tile's width) is not stored.
      if (box > 0 && config.n % config.outBlockN() != 0)
        ifThen(cmp(arith::CmpIPredicate::ult, columnBegin, index(config.n)),
               store);
      else
        store();
    }
  }

  /// Which rows and columns each thread of a consumer moves in the
  /// row-masked stores of slab `slab` (GroupedGemmConfig::slabColumns
  /// columns of c's tile): 4 columns of a row at a time, rowsPerPass rows
  /// of the consumer's 64 a pass.
  struct RowStores {
    static constexpr int64_t vectorWidth = 4;
    int64_t rowsPerPass, passes;
    Value firstRow, column, globalColumn, columnInside;
  };
  RowStores rowStores(const TileCoordinates &t, int64_t slab) {
    RowStores r;
    int64_t threadsPerRow = config.slabColumns() / RowStores::vectorWidth;
    r.rowsPerPass = GroupedGemmConfig::warpgroupSize / threadsPerRow;
    r.passes = GroupedGemmConfig::wgmmaM / r.rowsPerPass;
    r.column = mul(remU(consumerThread, index(threadsPerRow)),
                   index(RowStores::vectorWidth));
    r.firstRow = add(mul(consumer, index(64)),
                     divU(consumerThread, index(threadsPerRow)));
    r.globalColumn =
        add(t.colBegin, add(index(slab * config.slabColumns()), r.column));
    r.columnInside =
        cmp(arith::CmpIPredicate::ult, r.globalColumn, index(config.n));
    return r;
  }

  VectorType outputVectorType() {
    return VectorType::get({RowStores::vectorWidth},
                           config.f32Out ? b.getF32Type() : b.getBF16Type());
  }
  /// A row-masked access of c is aligned to its size (its column is a
  /// multiple of 4, c's rows of 16 bytes): one 8- or 16-byte access, where
  /// the element's alignment alone splits it into 4 of 2 or 4 bytes.
  llvm::MaybeAlign outputVectorAlignment() {
    return llvm::MaybeAlign(RowStores::vectorWidth * (config.f32Out ? 4 : 2));
  }

  /// `accumulate`: the values of c this thread's row-masked stores add to,
  /// one vector a pass of each slab (slab after slab), loaded where the
  /// stores will be (zeros elsewhere).
  SmallVector<Value> prefetchOutput(const TileCoordinates &t) {
    VectorType type = outputVectorType();
    Value zeros = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
    SmallVector<Value> old;
    for (int64_t slab = 0; slab < config.slabs(); ++slab) {
      RowStores r = rowStores(t, slab);
      for (int64_t pass = 0; pass < r.passes; ++pass) {
        Value globalRow =
            add(t.rowBegin, add(r.firstRow, index(pass * r.rowsPerPass)));
        Value inside = andI(cmp(arith::CmpIPredicate::ult, globalRow, t.rowEnd),
                            r.columnInside);
        auto load = scf::IfOp::create(b, loc, TypeRange{type}, inside,
                                      /*withElseRegion=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(load.thenBlock());
        Value values = vector::LoadOp::create(
            b, loc, type, operands.c, ValueRange{globalRow, r.globalColumn},
            /*nontemporal=*/false, outputVectorAlignment());
        scf::YieldOp::create(b, loc, values);
        b.setInsertionPointToStart(load.elseBlock());
        scf::YieldOp::create(b, loc, zeros);
        old.push_back(load.getResult(0));
      }
    }
    return old;
  }

  /// Accumulator -> epilogue -> shared memory (f32) -> the tile's rows of c,
  /// one slab of at most 128 columns at a time: each consumer moves its own
  /// 64 rows, each thread 4 columns of a row at a time; rows and columns
  /// past the tile's group or past N are not written. With `accumulate`,
  /// the passes are unrolled and add `old`.
  void emitMaskedStores(const TileCoordinates &t, Value accumulator,
                        ArrayRef<Value> old) {
    Value staging =
        sharedView({config.blockM, GroupedGemmConfig::epilogueRowFloats},
                   b.getF32Type(), index(config.epilogueOffset()));
    Value stagingColumn =
        mul(remU(remU(consumerThread, index(32)), index(4)), index(2));
    Value consumerRows = mul(consumer, index(GroupedGemmConfig::wgmmaM));
    int64_t slabChunks = config.slabColumns() / 8;
    for (int64_t slab = 0; slab < config.slabs(); ++slab) {
      // The previous slab's rows are read before this one overwrites them.
      if (slab > 0)
        consumerBarrier();
      forEachOutputPair(
          t, accumulator,
          [&](Value row, int64_t chunk, Value pair) {
            Value column =
                add(stagingColumn, index(8 * (chunk - slab * slabChunks)));
            vector::StoreOp::create(b, loc, pair, staging,
                                    ValueRange{add(consumerRows, row), column});
          },
          slab * slabChunks, (slab + 1) * slabChunks);
      consumerBarrier();
      RowStores r = rowStores(t, slab);
      ArrayRef<Value> slabOld;
      if (!old.empty())
        slabOld = old.slice(slab * r.passes, r.passes);
      storeSlabRows(t, r, staging, slabOld);
    }
  }

  /// The row-masked stores of one slab staged in `staging`.
  void storeSlabRows(const TileCoordinates &t, const RowStores &r,
                     Value staging, ArrayRef<Value> old) {
    auto storeRow = [&](Value row, Value oldValues) {
      Value globalRow = add(t.rowBegin, row);
      Value rowInside = cmp(arith::CmpIPredicate::ult, globalRow, t.rowEnd);
      ifThen(andI(rowInside, r.columnInside), [&] {
        auto f32x4 = VectorType::get({RowStores::vectorWidth}, b.getF32Type());
        Value values = vector::LoadOp::create(b, loc, f32x4, staging,
                                              ValueRange{row, r.column});
        VectorType outType = outputVectorType();
        if (oldValues) {
          Value wide = oldValues;
          if (!config.f32Out)
            wide = arith::ExtFOp::create(b, loc, f32x4, wide);
          values = arith::AddFOp::create(b, loc, wide, values);
        }
        if (!config.f32Out)
          values = arith::TruncFOp::create(b, loc, outType, values);
        vector::StoreOp::create(b, loc, values, operands.c,
                                ValueRange{globalRow, r.globalColumn},
                                /*nontemporal=*/false, outputVectorAlignment());
      });
    };
    if (!old.empty()) {
      for (int64_t pass = 0; pass < r.passes; ++pass)
        storeRow(add(r.firstRow, index(pass * r.rowsPerPass)), old[pass]);
      return;
    }
    auto rows = scf::ForOp::create(
        b, loc, r.firstRow,
        add(mul(consumer, index(64)), index(GroupedGemmConfig::wgmmaM)),
        index(r.rowsPerPass));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(rows.getBody());
    storeRow(rows.getInductionVar(), Value());
  }

  OpBuilder &b;
  Location loc;
  const GroupedGemmConfig &config;
  const GroupedGemmKernelOperands &operands;
  MLIRContext *ctx;
  gpu::AddressSpaceAttr workgroup;

  Value threadId, blockId;
  Value dynamicShared, sharedBase, alignPad;
  Value scanTiles, scanRows;
  Value fullBarriers, emptyBarriers;
  Value groupTiles, groupRowsEnd, totalTiles;
  Value groupOrder; // GroupedGemmConfig::heaviestGroupsFirst
  Value skewedSchedule; // i1: run the tiles heaviest group first
  Value consumer, consumerThread, isConsumerLeader;
  /// The 64-row block of the tile that the consumer's wgmmas and epilogue
  /// work on: its own (`consumer`), or with pingpong each block in turn.
  Value rowBlock;
  Value outputMap; // c's tensor map where the kernel TMA-stores
  Value tensorScale; // tensorwise FP8: a_scale · b_scale
  /// The epilogue runs over the staged bf16 boxes (applyEpilogueInBoxes)
  /// instead of on the accumulator registers: pingpong kernels whose
  /// epilogue has inputs or extra destinations.
  const bool stagedEpilogue;
};

} // namespace

void mlir::moe::grouped_gemm::buildGroupedGemmKernel(
    OpBuilder &builder, Location loc, const GroupedGemmConfig &config,
    const GroupedGemmKernelOperands &operands) {
  // A second product is summed into plain accumulators only (bf16, or
  // blockwise FP8, each k-step promoted with its product's scales): no
  // ragged reduction, tensor-wise scales, epilogue, gate|up halves or
  // loaded c. (Either product's K may end in a partial k-step:
  // zeroRowsPastK.)
  assert((!config.kSecond ||
          (config.ragged == RaggedDim::M &&
           (!config.fp8() || (config.scaling == Fp8Scaling::blockwise &&
                              operands.a2Scale && operands.b2Scale)) &&
           !operands.epilogue && config.accumulatorsPerOutput == 1 &&
           !config.accumulate)) &&
         "a second product on a kernel that cannot sum it");
  KernelBuilder(builder, loc, config, operands).build();
}
