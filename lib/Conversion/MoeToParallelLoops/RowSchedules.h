//===- RowSchedules.h - block-per-row schedules with vector access -*- C++
//-*-===//
//
// The bandwidth-bound moe ops on [rows, columns] buffers (permute's row
// copies, combine, glu) as a block of threads per row: an scf.parallel over
// rows mapped to GPU blocks holding one over the row's vectors mapped to
// threads (upstream's gpu.loop_dim_map mapping attributes, which
// gpu-launch-top-level-loops turns into the grid and the block). Each thread
// reads and writes `width` consecutive elements with one vector.load /
// vector.store (16 bytes for bf16 and f32), so a warp touches 512
// contiguous bytes of a row. Per element the arithmetic is the CPU
// reference's (elementToF32 / f32ToElement), so results agree bit for bit.
// On the CPU (moe-lower-to-cpu{gpu-schedules}) the two loops run in order.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_ROWSCHEDULES_H
#define MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_ROWSCHEDULES_H

#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::moe::gpu_schedules {

/// Bytes a thread moves per access: the widest load NVPTX has (ld.v4.b32).
constexpr int64_t kRowAccessBytes = 16;

/// Elements per access shared by row-major buffers whose rows all have the
/// same static number of columns: the largest power of two w with
/// w · element bytes ≤ kRowAccessBytes for every buffer and w dividing the
/// columns. 0 when a buffer is not a 2-D memref with the identity layout and
/// a static last dimension (such buffers keep the reference loops). With
/// the identity layout and allocations aligned to 16 bytes (gpu.alloc, the
/// entry arguments), every access is aligned to its size.
int64_t rowVectorWidth(ArrayRef<Value> buffers);

/// Maps the single dimension of `loop` to `processor`
/// (#gpu.loop_dim_map, read by gpu-launch-top-level-loops).
void mapLoopTo(scf::ParallelOp loop, gpu::Processor processor);

using ThreadBody = llvm::function_ref<void(OpBuilder &, Location, Value)>;
/// scf.parallel over [0, threads) mapped to thread_x: the threads of the
/// enclosing block loop; `body` gets the thread. Sibling thread loops of one
/// block loop are phases with barriers between them
/// (gpu-launch-top-level-loops).
void threadsFor(OpBuilder &b, Location loc, int64_t threads, ThreadBody body);

using RowVectorBody =
    llvm::function_ref<void(OpBuilder &, Location, Value row, Value col)>;
/// scf.parallel over rows [0, numRows) (blocks) holding one over the
/// column starts 0, width, 2·width, ... < numCols (threads); `body` gets the
/// row and the first column of its vector.
void rowVectorFor(OpBuilder &b, Location loc, Value numRows, int64_t numCols,
                  int64_t width, RowVectorBody body);

/// Lanes of a warp.
constexpr int64_t kWarpSize = 32;
using WarpItemBody = llvm::function_ref<void(
    OpBuilder &, Location, Value item, Value lane, Value inRange)>;
/// A warp (32 lanes) per item: blocks of `warpsPerBlock` items (block_x),
/// each warp's threads (thread_x) one item's lanes. `body` gets the item,
/// the lane and whether the item is below `numItems` (the last block's
/// warps past it must not store).
void warpPerItemFor(OpBuilder &b, Location loc, Value numItems,
                    int64_t warpsPerBlock, WarpItemBody body);
/// Whether this lane stores its warp's result (warpPerItemFor): lane 0 of
/// a warp whose item is below numItems.
Value storingLane(OpBuilder &b, Location loc, Value lane, Value inRange);
using ButterflyStep =
    llvm::function_ref<Value(OpBuilder &, Location, Value mine, Value other)>;
/// `step` folded over groups of `lanes` lanes `stride` apart (powers of
/// two, lanes · stride ≤ 32; stride 1: consecutive lanes), in every lane: a
/// butterfly of gpu.shuffle xor stride · lanes/2, ..., stride, each result
/// step(mine, shuffled).
Value warpButterfly(OpBuilder &b, Location loc, Value v, int64_t lanes,
                    int64_t stride, ButterflyStep step);
/// The f32 sum of `v` over the warp's 32 lanes, in every lane
/// (warpButterfly with arith.addf).
Value warpSum(OpBuilder &b, Location loc, Value v);
using RowPredicate =
    llvm::function_ref<Value(OpBuilder &, Location, Value row)>;
/// Rows that a pass visits only where `selected` (i1) holds for them, e.g.
/// the few rows an earlier pass did not write: a warp per 32 rows,
/// kSelectedRowGroupsPerBlock of them a block (block_x; thread_x the
/// block's warps' lanes). Lane l tests row 32 g + l (one coalesced load a
/// warp, not 32 lanes reading one row's value), a butterfly of shuffles
/// ORs the lanes' bits into the warp's mask, and the warp visits the
/// selected rows in order: `body` gets each one's vectors lane · width,
/// (lane + 32) · width, ... A warp (or a block) per row costs more than
/// the pass's work where nearly every row is skipped (24 us for the
/// 131072 rows of qwen3-30b-a3b's permute on one H200, a warp per row).
void selectedRowVectorFor(OpBuilder &b, Location loc, Value numRows,
                          int64_t numCols, int64_t width, RowPredicate selected,
                          RowVectorBody body);
constexpr int64_t kSelectedRowGroupsPerBlock = 4;
/// The `width` elements memref[row, col ...] with one vector.load, each as
/// an f32 (elementToF32).
SmallVector<Value> loadRowVectorAsF32(OpBuilder &b, Location loc, Value memref,
                                      Value row, Value col, int64_t width);
/// Stores `lanes` (f32, rounded as storeFromF32 does) at memref[row, col
/// ...] with one vector.store.
void storeRowVectorFromF32(OpBuilder &b, Location loc, ArrayRef<Value> lanes,
                           Value memref, Value row, Value col);
/// The bits of the `width` elements memref[row, col ...] (one vector.load),
/// as a vector of integers of the element's width: what copies move, with no
/// arithmetic on vectors of bf16 or FP8 that a target would need helpers for.
Value loadRowBits(OpBuilder &b, Location loc, Value memref, Value row,
                  Value col, int64_t width);
/// Stores a vector of loadRowBits's type at memref[row, col ...].
void storeRowBits(OpBuilder &b, Location loc, Value bits, Value memref,
                  Value row, Value col);
/// The lanes of `bits` (a vector of integers of `element`'s width) as f32
/// values of `element` (elementToF32).
SmallVector<Value> bitsAsF32(OpBuilder &b, Location loc, Value bits,
                             Type element);
/// `lanes` (f32) rounded to `element` as a store does (f32ToElement), as a
/// vector of integers of its width: what storeRowBits stores.
Value f32AsBits(OpBuilder &b, Location loc, ArrayRef<Value> lanes,
                Type element);

/// moe.combine, a block per token: each thread sums its `width` columns of
/// the token's K rows of y (f32, k ascending, as the reference) and stores
/// them once. Fails (the caller keeps the reference loops) where
/// rowVectorWidth finds no width for y and out.
LogicalResult emitCombineRows(OpBuilder &b, Location loc, Value y, Value rows,
                              Value weights, Value out);

/// moe.glu, a block per row; `up` null: `gate` is [R, 2F] (gate, then up).
/// Fails where rowVectorWidth finds no width.
LogicalResult emitGluRows(OpBuilder &b, Location loc, Activation act,
                          Value gate, Value up, Value h);

} // namespace mlir::moe::gpu_schedules

#endif // MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_ROWSCHEDULES_H
