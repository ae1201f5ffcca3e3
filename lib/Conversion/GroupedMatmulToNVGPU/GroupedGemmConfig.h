//===- GroupedGemmConfig.h - shape and tiling of a generated grouped GEMM -===//
//
// What a generated grouped GEMM kernel is specialized to: the problem (which
// dimension the groups cut, how each operand is stored), the op's static
// shapes, the tile shape chosen for them, and the shared-memory layout that
// follows. One place computes it; the host side (launch geometry, tensor
// maps) and the kernel body read it.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_CONVERSION_GROUPEDMATMULTONVGPU_GROUPEDGEMMCONFIG_H
#define MOE_LIB_CONVERSION_GROUPEDMATMULTONVGPU_GROUPEDGEMMCONFIG_H

#include <cstdint>

namespace mlir::moe::grouped_gemm {

/// Which dimension of c_g[M, N] = A_g[M, K] · B_g[K, N] the groups cut.
enum class RaggedDim {
  /// moe.grouped_matmul: group g owns a ragged range of A's and c's R rows;
  /// B_g is expert g's weight, K and N are static.
  M,
  /// moe.grouped_weight_grad: group g owns a ragged range of the R rows both
  /// operands share (the reduction); c is [G, M, N], M and N static.
  K,
};

/// The element type of A and B as wgmma reads them. FP8 operands (e4m3 or
/// e5m2, mixed allowed) must both be K-major: wgmma transposes only 16-bit
/// operands.
enum class OperandType { bf16, e4m3, e5m2 };

/// How an FP8 product becomes c's values (moe.grouped_matmul's scales).
enum class Fp8Scaling {
  none,
  /// One f32 scale per operand: the accumulator times a_scale · b_scale in
  /// the epilogue.
  tensorwise,
  /// a_scale [R, K/128] (1 x 128 blocks), b_scale per 128 x 128 block: each
  /// 128-wide k-step's product is accumulated on its own and added to the
  /// running sum times the row's and the column block's scales (promotion
  /// in registers, as DeepSeek-V3 trains). RaggedDim::K: a_scale [M, R/128]
  /// and b_scale [N, R/128], 1 x 128 blocks along the reduction of both
  /// transposed operands: a scale per row and one per column.
  blockwise,
};

/// How the tile's width (blockN) is chosen: `automatic` takes 256 where it
/// pays (chooseConfig says when), the others force it where it fits.
enum class BlockNChoice { automatic, n128, n256 };

/// What the pass's options decide about every kernel it generates.
struct GemmChoices {
  int64_t numCtas = 132;
  BlockNChoice blockN = BlockNChoice::automatic;
  /// At most this many pipeline stages (0: as many as shared memory holds).
  /// compute-sanitizer's memcheck reports "Unknown Error" from kernels whose
  /// 4 or more stages fill shared memory; 3-stage builds of the same kernels
  /// run clean (scripts/gpu-sanitize.sh).
  int64_t maxStages = 0;
  /// Whether whole tiles of bf16 outputs are stored by TMA (the default) or,
  /// like every other tile, by threads (sanitizer builds: initcheck).
  bool tmaStore = true;
  /// Whether the operand stages start 1 KB further into shared memory
  /// (GroupedGemmConfig::racecheckGuardBytes; racecheck builds).
  bool racecheckLayout = false;
  /// Whether 128 x 128 tiles of grouped matmuls run whole on one consumer
  /// warpgroup each, the two taking turns (GroupedGemmConfig::pingpong).
  bool pingpong = true;
  /// Whether blockwise FP8 kernels promote k-steps in pairs
  /// (GroupedGemmConfig::pairedPromotion).
  bool pairedPromotion = true;
  /// Only FP8 grouped matmuls get kernels (the others stay with cuBLASLt).
  bool fp8Only = false;
  /// bf16/f32 ones get kernels only where autoPrefersGeneratedKernel says
  /// so (moe-lower-to-gpu gemm=auto).
  bool autoSelect = false;
  /// n-tiles of a panel of the tile order (0: chosen, chooseConfig).
  int64_t panelTiles = 0;
  /// Weight gradients run their groups' tiles heaviest group first, dealt
  /// to the CTAs in alternating directions
  /// (GroupedGemmConfig::heaviestGroupsFirst).
  bool heaviestGroupsFirst = true;
  /// The epilogue region's arithmetic with fast-math flags (afn, arcp,
  /// contract: approximate division and exp) in generated kernels.
  bool epilogueFastMath = true;
};

struct GroupedGemmConfig {
  RaggedDim ragged = RaggedDim::M;
  /// Rows of the ragged dimension (R), and the static extents of the one
  /// product a group computes: for RaggedDim::M, m is R and k the static K;
  /// for RaggedDim::K, k is R.
  int64_t rows = 0, m = 0, n = 0, k = 0, groups = 0;
  /// Whether A (or B) is stored with K contiguous (wgmma's "K-major"); else
  /// M (or N) is contiguous and wgmma reads it transposed.
  bool aKMajor = true, bKMajor = false;
  OperandType aType = OperandType::bf16, bType = OperandType::bf16;
  Fp8Scaling scaling = Fp8Scaling::none;
  /// Blockwise: b_scale is [G, N/128, K/128] (the weight stored nk) rather
  /// than [G, K/128, N/128] (kn, whatever layout B has in the kernel).
  bool bScaleNK = true;
  bool f32Out = false;
  /// Product columns per column of c: 2 when the epilogue pairs gate and up
  /// halves of B ([.., 2N] columns, gate then up); B's tile then holds BN/2
  /// columns of each half and c's tile is BN/2 wide.
  int64_t accumulatorsPerOutput = 1;
  /// Gate|up halves from two weights (a grouped matmul's `up_weight`): the
  /// up half's boxes come from b_up's tensor map (bUpSlot) at the gate
  /// half's coordinates, each weight having N columns (bWeightN).
  bool upWeight = false;
  /// Whether the epilogue adds c's current value to the product (a grouped
  /// matmul's `accumulate`): c is read as well as written.
  bool accumulate = false;
  /// RaggedDim::M: the K of a second product a2 [R, kSecond] · b2_g summed
  /// into the same accumulators (0: none). The k-steps of a2 and b2 follow
  /// those of A and B in one main loop, so a sum of two grouped matmuls
  /// over the same rows (a gated FFN's input gradient) is one kernel whose
  /// c is written once, instead of a second kernel reading it back.
  int64_t kSecond = 0;

  bool fp8() const { return aType != OperandType::bf16; }
  /// A weight gradient whose operands are stored with the reduction (R)
  /// contiguous (both K-major). Its k-steps then cover whole blockK-row
  /// blocks counted from row 0 (the blocks of the operands' scales), and
  /// the columns of a step outside the group are zeroed in shared memory.
  bool kMajorReduction() const {
    return ragged == RaggedDim::K && aKMajor && bKMajor;
  }
  /// Blockwise FP8 weight gradients (stagedScales): a partial k-step's rows
  /// outside the group (its first step's before it, its last step's after
  /// it) are zeroed by the producer warpgroup's spare warps (zeroingThreads)
  /// between the step's TMA loads and the consumers' wgmma, off the
  /// consumers' path. Zeroed by the consumers themselves, with a barrier of
  /// both, routed (unaligned) group sizes took 30-40 % longer than
  /// multiples of 128 (bench/results/2026-12-01-h200-wgrad-release run1).
  /// The other kMajorReduction kernels (bf16, tensor-wise FP8) keep the
  /// consumers' zeroing: without it in their main loop, LLVM peels its first
  /// step and ptxas serializes the wgmmas (C7519).
  bool producerZeroes() const { return stagedScales(); }
  int64_t elementBytes() const { return fp8() ? 1 : 2; }
  /// Blockwise FP8 weight gradients (kMajorReduction): a k-step's scales,
  /// one f32 per row of the tile (a_scale) and per column (b_scale), are
  /// contiguous in the transposed scale buffers, so the producer copies
  /// them into the stage with the operands (one bulk copy each, counted by
  /// the stage's full barrier). The consumers then read them from shared
  /// memory instead of issuing BN / 4 + 2 global loads a k-step, whose
  /// latency held their wgmma back (bench/results/2026-11-29-h200-fp8-wgrad).
  bool stagedScales() const {
    return scaling == Fp8Scaling::blockwise && kMajorReduction();
  }
  /// Bytes of one stage's scales (stagedScales; else 0): blockM a_scale
  /// values, then blockN b_scale values.
  int64_t scaleStageBytes() const {
    return stagedScales() ? (blockM + blockN) * 4 : 0;
  }

  // Tile: blockM rows x blockN product columns, K in blockK steps of one
  // 128-byte swizzle row (64 bf16 or 128 FP8). Each consumer runs one
  // m64nBNkK wgmma per 32 bytes of K (k16 bf16, k32 FP8): BN = 128 or 256
  // (BN / 2 f32 accumulator registers a thread).
  int64_t blockM = 128;
  int64_t blockN = 128;
  static constexpr int64_t swizzleRowBytes = 128;
  /// Elements of `elementBytes` bytes in one swizzle row.
  static constexpr int64_t swizzleRowElements(int64_t elementBytes) {
    return swizzleRowBytes / elementBytes;
  }
  int64_t blockK() const { return swizzleRowElements(elementBytes()); }
  // TMA boxes are one 128-byte swizzle row wide: blockK elements of a
  // K-major operand; 64 bf16 of an M/N-major operand and of c's boxes.
  static constexpr int64_t boxWidth = 64;
  /// Pipeline depth: as many stages as shared memory holds, up to
  /// maxStages (chooseConfig).
  int64_t stages = 4;
  static constexpr int64_t maxStages = 8;
  /// Dynamic shared memory a kernel may use on sm_90 (227 KiB), less what
  /// the mbarriers take statically.
  static constexpr int64_t sharedCapacity = 232448 - 2 * maxStages * 8;

  // One consumer warpgroup per 64 rows of the tile (wgmma + epilogue of
  // its rows), then one producer warpgroup (TMA).
  static constexpr int64_t warpgroupSize = 128;
  static constexpr int64_t warpSize = 32;
  /// The producer warpgroup's threads past its first warp (whose lane 0
  /// issues the loads): producerZeroes' zeroing threads.
  static constexpr int64_t zeroingThreads = warpgroupSize - warpSize;
  static constexpr int64_t wgmmaM = 64;
  int64_t wgmmaK() const { return 32 / elementBytes(); }
  int64_t consumers() const { return blockM / wgmmaM; }
  int64_t threads() const { return (consumers() + 1) * warpgroupSize; }
  /// The producer's setmaxnreg decrease frees exactly what the consumers'
  /// increase takes (384 threads start at 168: 128 x (168 - 40) = 256 x
  /// (232 - 168)). setmaxnreg.inc waits until the registers are free, so a
  /// producer that keeps more hangs the kernel (a 48-register producer did,
  /// bench/results/2026-12-01-h200-wgrad-release run2).
  static constexpr int64_t producerRegisters = 40;
  static constexpr int64_t consumerRegisters = 232;
  static constexpr int64_t entryRegisters =
      65536 / (3 * warpgroupSize) / 8 * 8;
  static_assert(warpgroupSize * (entryRegisters - producerRegisters) >=
                    2 * warpgroupSize * (consumerRegisters - entryRegisters),
                "the consumers' setmaxnreg increase must find its registers");

  int64_t numCtas = 132;

  /// n-tiles of one panel of a group's tiles (chooseConfig). The numCtas
  /// tiles running at once read about numCtas / panelTiles m-tiles of A and
  /// panelTiles n-tiles of B: where a group's B is larger than L2
  /// (mixtral-8x7b: 117 MB an expert), m-tile after m-tile over all
  /// n-tiles re-reads all of B from memory every few m-tiles. nTiles() or
  /// more: m-tile after m-tile.
  int64_t panelTiles = 1;

  /// K-steps of every tile where K is static (RaggedDim::M): A's, then
  /// a2's. A K that is not a multiple of blockK ends in a partial step:
  /// TMA fills A's (and a K-major B's) columns past K with zeros, and the
  /// consumers zero the rows past K of an N-major B's boxes, which hold the
  /// next group's first rows (kTailRows).
  int64_t firstKTiles() const { return (k + blockK() - 1) / blockK(); }
  int64_t secondKTiles() const {
    return (kSecond + blockK() - 1) / blockK();
  }
  int64_t kTiles() const { return firstKTiles() + secondKTiles(); }
  /// The rows of B's last k-step of a product of reduction `productK` that
  /// are the group's (0: all of them, or a K-major B that needs no
  /// zeroing).
  int64_t kTailRows(int64_t productK) const {
    if (ragged != RaggedDim::M || bKMajor)
      return 0;
    return productK % blockK();
  }
  int64_t mTiles() const { return (m + blockM - 1) / blockM; }
  /// Columns of c one tile stores, and B's columns (n is c's).
  int64_t outBlockN() const { return blockN / accumulatorsPerOutput; }
  int64_t productN() const { return n * accumulatorsPerOutput; }
  /// The N extent of one B tensor: the product's, or, with upWeight, each
  /// weight's.
  int64_t bWeightN() const { return upWeight ? n : productN(); }
  int64_t nTiles() const { return (n + outBlockN() - 1) / outBlockN(); }
  /// Group-size scan arrays, padded to a multiple of the block's threads.
  int64_t scanLength() const {
    return (groups + threads() - 1) / threads() * threads();
  }

  /// RaggedDim::K, where the largest group has more than twice the mean
  /// rows (decided on the device, per launch): the tiles run in the order
  /// of their groups' sizes, largest first, and round r of the persistent
  /// loop deals its numCtas
  /// tiles to CTAs 0, 1, ... (even r) or ..., 1, 0 (odd r). A weight
  /// gradient's tile costs its group's rows; with skewed routing a few hot
  /// groups' tiles cost ten times the mean, and dealt in group order
  /// (CTA i takes tiles i, i + numCtas, ...) they pile up on the same
  /// CTAs: on qwen3-30b-a3b's skewed loads the busiest CTA then gets 13 %
  /// more k-steps than the mean; heaviest first, alternating, 2 %. Every
  /// tile still reduces its group's rows in one CTA, so the result does
  /// not depend on the order (same bits). The CTAs rank the groups by
  /// size in shared memory (groupOrder) after the scan.
  bool heaviestGroupsFirstAllowed = true;
  bool heaviestGroupsFirst() const {
    return ragged == RaggedDim::K && heaviestGroupsFirstAllowed;
  }
  /// i32 arrays after the epilogue staging: the two scans, and the group
  /// order where heaviestGroupsFirst.
  int64_t scanArrays() const { return heaviestGroupsFirst() ? 3 : 2; }

  // TMA boxes: an operand stored K-major arrives as one box of (its tile
  // rows) x 64 K-columns; one stored M- or N-major as boxes of 64 K-rows x
  // 64 columns, one after another along M (or N).
  // A K-major B with gate|up halves arrives as one box per half.
  int64_t aBoxRows() const { return aKMajor ? blockM : blockK(); }
  int64_t bBoxRows() const { return bKMajor ? outBlockN() : blockK(); }
  int64_t aBoxes() const { return aKMajor ? 1 : blockM / boxWidth; }
  int64_t bBoxes() const {
    return bKMajor ? accumulatorsPerOutput : blockN / boxWidth;
  }
  /// B's N extent of one box.
  int64_t bBoxColumns() const { return bKMajor ? bBoxRows() : boxWidth; }

  // Shared memory, in bytes from a 1024-byte aligned base (the 128-byte
  // swizzle repeats every 1024 bytes; TMA and wgmma need tiles on it).
  int64_t aStageBytes() const { return blockM * blockK() * elementBytes(); }
  int64_t bStageBytes() const { return blockK() * blockN * elementBytes(); }
  int64_t aOffset(int64_t stage) const { return stage * aStageBytes(); }
  int64_t bOffset(int64_t stage) const {
    return stages * aStageBytes() + stage * bStageBytes();
  }
  /// Stage `stage`'s scales (stagedScales), after every stage's operands.
  int64_t scaleOffset(int64_t stage) const {
    return stages * (aStageBytes() + bStageBytes()) + stage * scaleStageBytes();
  }
  /// The epilogue's staging, on a 1024-byte boundary after the stages.
  int64_t epilogueOffset() const {
    return (scaleOffset(stages) + 1023) / 1024 * 1024;
  }

  /// Whether each consumer warpgroup runs whole tiles (both 64-row blocks,
  /// two accumulators), the CTA's tiles alternating between the two, and
  /// their main loops taking turns: one warpgroup's epilogue then runs
  /// while the other's main loop keeps the tensor cores busy, where the
  /// shared tile (one 64-row block each) has both wait for the stores
  /// (CUTLASS's "pingpong" against its "cooperative" schedule). With K of
  /// 768 (12 k-steps a tile) the stores and the pipeline's drain and refill
  /// cost about 1.2 us a tile, 20 % of qwen3-30b-a3b's fc2 forward. For
  /// 128 x 128 bf16 tiles. Not with FP8 operands (their
  /// test cases have fewer than 4 k-steps: not yet run on a GPU), f32
  /// outputs (the epilogue stages bf16 boxes; without TMA stores, as in
  /// sanitizer builds, threads store every block from the boxes),
  /// `accumulate` (c's prefetched values take the registers),
  /// gate|up halves of one concatenated weight (their activation's
  /// temporaries; halves from two weights, upWeight, run pingpong: on one
  /// H200 their epilogue's extra destinations, the saved gate and up, cost
  /// the cooperative kernel about 270 us at qwen3-30b-a3b's fc1, and
  /// ptxas keeps the kernel at 168 registers without spills). RaggedDim::M: not
  /// where a k-step's rows of an N-major B past K need zeroing (the
  /// consumers zero them together), nor with fewer than 4 k-steps (LLVM
  /// peels or unrolls so short a main loop behind a test of its trip
  /// count, which puts wgmmas in a branch, and ptxas then serializes them:
  /// C7520). RaggedDim::K (weight gradients): a tile's k-steps are its
  /// group's rows, known at run time, and a consumer zeroes the rows
  /// outside the group in the whole stage itself; short tiles (small
  /// groups) are where the other consumer's main loop hides an epilogue
  /// most.
  bool pingpong() const {
    bool tile = pingpongAllowed && blockM == 128 && blockN == 128 &&
                !f32Out && !fp8() && !accumulate &&
                (accumulatorsPerOutput == 1 || upWeight);
    if (ragged == RaggedDim::K)
      return tile;
    return tile && kTailRows(k) == 0 && kTailRows(kSecond) == 0 &&
           kTiles() >= 4;
  }
  /// GemmChoices::pingpong.
  bool pingpongAllowed = true;
  /// Blockwise FP8: a consumer issues two k-steps' wgmmas, each into its
  /// own product registers (64 x BN / 128 f32 a thread, next to the sum's),
  /// before it waits for the first, and promotes the first while the
  /// second runs. One step at a time, every promotion (BN / 2 fma a thread
  /// after the wgmmas' wait) leaves the tensor cores idle unless the other
  /// consumer, which waits on the same stages, happens to be multiplying.
  /// Weight gradients (stagedScales) only: the grouped matmuls' consumers,
  /// which keep their scale tensors' addresses and the tile's rows of A,
  /// spill with the second product's registers (60 bytes, ptxas 13.0).
  bool pairedPromotionAllowed = true;
  bool pairedPromotion() const {
    return pairedPromotionAllowed && stagedScales();
  }
  /// 64-row blocks of a tile that one consumer multiplies and stores.
  int64_t rowBlocksPerConsumer() const {
    return pingpong() ? blockM / wgmmaM : 1;
  }

  // Epilogue. A consumer whose 64 rows of c are all the tile's (or end at
  // c's last row) writes its tile as bf16 boxes of 64 x 64, 128-byte
  // swizzled, that TMA stores (c's tensor map clips columns past N); the
  // others stage f32 and store the rows inside the tile's group one thread
  // at a time. f32 outputs (no f32 tensor map) and `accumulate` (c is read
  // where it is stored) always take the row-masked path.
  bool tmaStore() const { return tmaStoreAllowed && !f32Out && !accumulate; }
  /// GemmChoices::tmaStore: false stores every tile through the row-masked
  /// path (plain st.global, which compute-sanitizer's initcheck tracks; it
  /// does not see TMA bulk stores).
  bool tmaStoreAllowed = true;
  /// Whether some tile may need the row-masked path: a weight gradient's
  /// tiles are whole unless M is not a multiple of the tile's rows.
  bool maskedStores() const {
    return ragged == RaggedDim::M || !tmaStore() || m % blockM != 0;
  }
  /// The f32 staging of the row-masked path holds at most 128 columns of
  /// the tile at a time (a 256-wide tile is staged and stored in two
  /// slabs, so that its staging leaves room for 3 stages), rows padded by
  /// 4 floats so that the 8 rows a warp writes at once fall in different
  /// banks.
  static constexpr int64_t epilogueColumns = 128;
  static constexpr int64_t epilogueRowFloats = epilogueColumns + 4;
  int64_t slabColumns() const {
    return outBlockN() < epilogueColumns ? outBlockN() : epilogueColumns;
  }
  int64_t slabs() const { return outBlockN() / slabColumns(); }
  /// A consumer's bf16 boxes for the TMA store: 64 rows x outBlockN.
  int64_t tmaStagingBytes() const { return wgmmaM * outBlockN() * 2; }
  /// Where consumer `consumer`'s TMA boxes start, from epilogueOffset: on
  /// a 1024-byte boundary (the swizzle's period) inside that consumer's own
  /// f32 rows where those exist, so neither path of one consumer touches
  /// another's staging.
  int64_t tmaStagingStride() const {
    if (pingpong()) // every 64-row block's boxes, then the next consumer's
      return rowBlocksPerConsumer() * tmaStagingBytes();
    if (!maskedStores())
      return tmaStagingBytes();
    return (wgmmaM * epilogueRowFloats * 4 + 1023) / 1024 * 1024;
  }
  int64_t epilogueBytes() const {
    if (pingpong()) // bf16 boxes only: partial blocks are stored from them
      return consumers() * tmaStagingStride();
    if (!maskedStores())
      return consumers() * tmaStagingBytes();
    int64_t staging = blockM * epilogueRowFloats * 4;
    if (!tmaStore())
      return staging;
    int64_t boxesEnd =
        (consumers() - 1) * tmaStagingStride() + tmaStagingBytes();
    return boxesEnd > staging ? boxesEnd : staging;
  }
  int64_t scanOffset() const { return epilogueOffset() + epilogueBytes(); }
  /// TMA descriptors the kernel uses, 16 words each in each CTA's scratch
  /// slot: A's, B's, c's where it TMA-stores (slot 2), and with a second
  /// product a2's and b2's (slots 3 and 4, slot 2 unused without the
  /// store), or, with upWeight, b_up's (slot 3).
  static constexpr int64_t aSlot = 0, bSlot = 1, cSlot = 2, a2Slot = 3,
                           b2Slot = 4, bUpSlot = 3;
  int64_t tensorMaps() const {
    if (kSecond)
      return 5;
    if (upWeight)
      return 4;
    return tmaStore() ? 3 : 2;
  }
  int64_t descriptorWords() const { return 16 * tensorMaps(); }
  /// compute-sanitizer racecheck (2025.3) takes a thread's store to the
  /// first bytes of the 1024-aligned base (the shared window's 0x800 on,
  /// past the 1 KB sm_90 reserves and the static mbarriers at 0x400) for
  /// an access to the mbarrier 1 KB below it, and reports the stage's
  /// refill as racing with it: the K-major zeroing of a group's first
  /// k-step writes there (bench/results/2026-11-30-h200x2-racecheck-clean
  /// run3: 8936 errors so, none with the stages 1 KB up). Racecheck
  /// builds leave that kilobyte unused (GemmChoices::racecheckLayout).
  bool racecheckLayoutAllowed = false;
  int64_t racecheckGuardBytes() const {
    return racecheckLayoutAllowed ? 1024 : 0;
  }
  /// What the kernel asks for: the layout plus up to 1023 bytes of padding
  /// to align the dynamic shared memory's base.
  int64_t sharedBytes() const {
    return 1024 + racecheckGuardBytes() + scanOffset() +
           scanArrays() * scanLength() * 4;
  }
  /// Bytes one stage's TMA loads bring (the mbarrier's transaction count;
  /// with stagedScales, the scale copies' bytes come on top).
  int64_t stageTransactionBytes() const {
    return aStageBytes() + bStageBytes();
  }
};

/// The tile choice for `problem` (its problem fields set: ragged, the
/// shapes, the layouts, f32Out, accumulatorsPerOutput, accumulate,
/// numCtas). RaggedDim::M: BM = 128 where groups average at least 128 rows,
/// else 64 (a small group wastes less of a 64-row tile). RaggedDim::K:
/// BM = 128 where M is a multiple of 128, else 64. BN = 256 (automatic)
/// for weight gradients and for grouped matmuls with N > 4096, where c's
/// N is a multiple of the tile's output width (256, or 128 with gate|up
/// halves), at least 3 stages fit, and the epilogue does not
/// `accumulate` (its prefetched values would not fit the registers next to
/// 128 accumulators); n256 takes 256 wherever 2 stages fit; else 128 (and
/// always 128 with blockwise FP8 scaling, whose k-step products take a
/// second set of accumulator registers). Then
/// the deepest pipeline that fits shared memory, at most `maxStages` (0: no
/// limit; a tile that needs 3 stages to pay stays 128 wide when the limit is
/// lower). Panels (panelTiles; 0: chosen) where a group's B is 24 MB or
/// more, of about sqrt(numCtas * blockM / blockN) n-tiles: the A and B
/// bytes that the tiles running at once read, numCtas / P * blockM +
/// P * blockN per k-column, are fewest there (8 n-tiles for 128 x 256
/// tiles on 132 SMs); else one panel (m-tile after m-tile).
GroupedGemmConfig chooseConfig(const GroupedGemmConfig &problem,
                               BlockNChoice blockNChoice,
                               int64_t maxStages = 0, int64_t panelTiles = 0);

} // namespace mlir::moe::grouped_gemm

#endif
