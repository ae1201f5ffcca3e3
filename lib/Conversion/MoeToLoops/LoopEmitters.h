//===- LoopEmitters.h - moe op semantics as scf/arith/math/memref -*- C++ -*-===//
//
// The CPU reference lowering. Each emitter writes the loops that implement
// one moe op literally as DESIGN.md states it, on buffers: memrefs with the
// identity layout, static or dynamic dims. Every emitter writes EVERY element
// of its output buffers (outputs are not assumed zeroed). All arithmetic is
// in f32 (activations are loaded with loadAsF32 and stored with storeFromF32),
// integer offsets in i64/index.
//
// The ConvertMoeToLoops patterns unpack the moe ops on memrefs and call
// these; the ops' verifiers have already checked shapes and attributes.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_CONVERSION_MOETOLOOPS_LOOPEMITTERS_H
#define MOE_LIB_CONVERSION_MOETOLOOPS_LOOPEMITTERS_H

#include "MoeDialect/Dialect/MoeOps.h"
#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::moe::loops {

//===-- Router (RouterLoops.cpp) ------------------------------------------===//

/// logits[t, e] = Σ_h x[t, h] · w[h, e] (f32 accumulation).
void emitGate(OpBuilder &b, Location loc, Value x, Value w, Value logits);

/// scores = fn(logits) row by row (softmax over E with max subtraction).
void emitRoute(OpBuilder &b, Location loc, ScoreFunction fn, Value logits,
               Value scores);

struct TopKConfig {
  int64_t k;
  ScoreFunction scoreFunction;
  int64_t numGroups;
  int64_t groupTopk;
  GroupScore groupScore;
  int64_t groupScoreTopq; ///< effective q (attribute or k / group_topk)
  Normalize normalize;
  double scalingFactor;
};
/// The configuration `op`'s attributes state (q defaulted to k / group_topk).
TopKConfig topKConfigOf(TopKOp op);
/// `bias` may be null.
void emitTopK(OpBuilder &b, Location loc, const TopKConfig &config,
              Value scores, Value bias, Value weights, Value indices);

struct AuxLossConfig {
  AuxLossVariant variant;
  ScoreFunction scoreFunction;
  double coeff;
  int64_t seqLength; ///< only for the sequence variant
  /// The global variant over several ranks: T_g = T · ranks in the factor,
  /// and the i64 counts [E] summed over the ranks (in place) by this hook
  /// before they are used.
  int64_t ranks = 1;
  std::function<void(OpBuilder &, Location, Value)> sumCountsOverRanks;
};
/// `loss` is a rank-0 f32 buffer: this rank's share for the global variant,
/// which on one rank equals batch.
void emitAuxLoss(OpBuilder &b, Location loc, const AuxLossConfig &config,
                 Value scores, Value indices, Value loss);
void emitZLoss(OpBuilder &b, Location loc, double coeff, Value logits,
               Value loss);
void emitExpertBiasUpdate(OpBuilder &b, Location loc, double rate, Value bias,
                          Value counts, Value updatedBias);

//===-- Dispatch (DispatchLoops.cpp) --------------------------------------===//

void emitPermute(OpBuilder &b, Location loc, int64_t numExperts, int64_t align,
                 Value x, Value indices, Value permuted, Value groupSizes,
                 Value rows);
/// moe.permute_rows: permuted[rows[t, k]] = x[t] for the pairs whose row
/// is in [0, R), in (t, k) order; every other row zero.
void emitPermuteRows(OpBuilder &b, Location loc, Value x, Value rows,
                     Value permuted);
void emitCombine(OpBuilder &b, Location loc, Value y, Value rows, Value weights,
                 Value out);
/// The one-rank exchange: output rows [0, Σ send_sizes) = input rows, the
/// rest zero; recv_sizes = send_sizes.
void emitAllToAllOneRank(OpBuilder &b, Location loc, Value input,
                         Value sendSizes, Value output, Value recvSizes);

/// The P × C chunks of moe.sort_chunks (index values): P·C ≤ N = counts'
/// length; C is sizes' length (forward) or N / it (inverse), P the other.
struct ChunkGrid {
  Value ranks;
  Value chunksPerRank;
};
ChunkGrid chunkGridOf(OpBuilder &b, Location loc, Value counts, Value sizes,
                      bool inverse);
/// counts[k] as i64, a negative count as 0.
Value chunkRowCount(OpBuilder &b, Location loc, Value counts, Value k);
using ChunkBody =
    llvm::function_ref<Value(OpBuilder &, Location, Value k, Value acc)>;
/// Visits the chunks in (p, c) row-major order, or (c, p) order when
/// `chunkMajor`, carrying `acc` (k = p·C + c, the index into counts).
Value foldChunks(OpBuilder &b, Location loc, const ChunkGrid &grid,
                 bool chunkMajor, Value init, ChunkBody body);
/// starts[k] (i64 buffer of N) = chunk k's first row when the chunks are laid
/// out in the order foldChunks visits them; returns the total rows (i64).
Value emitChunkStarts(OpBuilder &b, Location loc, const ChunkGrid &grid,
                      Value counts, bool chunkMajor, Value starts);
/// sizes[c] = Σ_p counts[p·C + c], or with `inverse` sizes[p] = Σ_c.
void emitSortChunksSizes(OpBuilder &b, Location loc, const ChunkGrid &grid,
                         bool inverse, Value counts, Value sizes);
/// moe.sort_chunks: output holds x's chunks reordered from (p, c) to (c, p)
/// order (from (c, p) to (p, c) with `inverse`), rows past them zero.
void emitSortChunks(OpBuilder &b, Location loc, bool inverse, Value x,
                    Value counts, Value output, Value sizes);
/// moe.all_reduce over one rank: output = input.
void emitAllReduceOneRank(OpBuilder &b, Location loc, Value input,
                          Value output);

//===-- Combine adjoint (CombineGradLoops.cpp) ----------------------------===//

/// dy[r, h] = Σ_{(t, k) : rows[t, k] = r} weights[t, k] · dout[t, h] (f32, in
/// (t, k) order; zero where no pair maps); dweights[t, k] = Σ_h dout[t, h] ·
/// y[rows[t, k], h] (f32, h in order). Pairs whose row is outside [0, rows of
/// y) are skipped and get dweights 0, as in emitCombine.
void emitCombineGrad(OpBuilder &b, Location loc, Value dout, Value y,
                     Value rows, Value weights, Value dy, Value dweights);
/// dot(t, r) = Σ_h dout[t, h] · y[r, h] in f32, h ascending.
using RowDotProduct =
    llvm::function_ref<Value(OpBuilder &, Location, Value t, Value r)>;
/// The dweights half of emitCombineGrad, one parallel iteration per pair;
/// `dot` (default: element by element) computes a valid pair's sum.
void emitCombineWeightGrad(OpBuilder &b, Location loc, Value dout, Value y,
                           Value rows, Value dweights,
                           RowDotProduct dot = nullptr);

//===-- Grouped matmuls (MatmulLoops.cpp) ---------------------------------===//

/// `aScale`/`bScale` are null unless a and b are FP8; then they are rank-0
/// (tensor-wise) or block scales (see moe.grouped_matmul). `withEpilogue` is
/// the op itself when it has an epilogue region (its region and row_scale
/// are read from it), else null.
void emitGroupedMatmul(OpBuilder &b, Location loc, WeightLayout layout, Value a,
                       Value bWeights, Value sizes, Value aScale, Value bScale,
                       Value c, GroupedMatmulOp withEpilogue = {},
                       bool accumulate = false);
/// Row r of c from a row of f32 accumulators `rowAcc` ([N] of the product)
/// through the epilogue.
void emitEpilogueRow(OpBuilder &b, Location loc, GroupedMatmulOp withEpilogue,
                     Value rowAcc, Value r, Value c);
/// `transposed`: a is [Kd, R] and dc [N, R] (else [R, Kd] and [R, N]).
/// `aScale`/`dcScale` are null unless a and dc are FP8; then they are rank-0
/// (tensor-wise) or the block_1x128 scales of the transposed operands
/// ([Kd, ⌈R/128⌉], [N, ⌈R/128⌉]).
void emitGroupedWeightGrad(OpBuilder &b, Location loc, WeightLayout layout,
                           bool transposed, Value a, Value dc, Value sizes,
                           Value aScale, Value dcScale, Value db);

//===-- Activations and FP8 (ActivationLoops.cpp, QuantLoops.cpp) ---------===//

/// `up` null: `gate` is [R, 2F] holding gate then up.
void emitGlu(OpBuilder &b, Location loc, Activation act, Value gate, Value up,
             Value h);
/// `amaxHistory`/`newAmaxHistory` are null unless the recipe is delayed.
void emitQuantize(OpBuilder &b, Location loc, QuantRecipe recipe, Value input,
                  Value amaxHistory, Value output, Value scale,
                  Value newAmaxHistory);
void emitDequantize(OpBuilder &b, Location loc, QuantRecipe recipe,
                    Value input, Value scale, Value output);
/// moe.quantize's amax step: acc ← max(acc, |x|) with arith.maxnumf, so a
/// NaN x leaves acc unchanged. From an initial 0 the result is the maximum
/// of the non-NaN |x|, whatever the order of the steps (the GPU schedules
/// reduce in another order and get the same bits).
Value accumulateAmax(OpBuilder &b, Location loc, Value acc, Value x);
/// A block's scale: amax / fp8Max, and 1 where that is 0.
Value scaleFromAmax(OpBuilder &b, Location loc, Value amax, double fp8Max);
/// Delayed scaling: max(amax_history) (arith.maxnumf from 0, in order).
Value amaxHistoryMax(OpBuilder &b, Location loc, Value amaxHistory);
/// Delayed scaling's history update: new[i] = old[i - 1] written back to
/// front (right when the two buffers are one), then new[0] = amax.
void rollAmaxHistory(OpBuilder &b, Location loc, Value amaxHistory,
                     Value newAmaxHistory, Value amax);

} // namespace mlir::moe::loops

#endif // MOE_LIB_CONVERSION_MOETOLOOPS_LOOPEMITTERS_H
