//===- QuantSchedules.h - moe.quantize / moe.dequantize on the GPU -*- C++
//-*-===//
//
// The GPU schedules of FP8 quantization, bit for bit the CPU reference's
// (QuantLoops.cpp): every element's arithmetic is the reference's (x / scale
// encoded by encodeFp8, decode(q) · scale), and the only reassociated
// reduction is the amax, a maximum of non-NaN values (arith.maxnumf from
// 0), which is exact and does not depend on the order. Buffers are viewed
// as rows of their last dimension ([..., N] → [rows, N]) and read and
// written with vectors of up to 16 bytes.
//
//   tensorwise, delayed   1. blocks of 256 threads stride over the tensor's
//                            vectors (four loads in flight a thread), a
//                            warp's maximum by a shuffle butterfly, one
//                            partial amax a warp;
//                         2. one warp: the partials' maximum, the scale
//                            (delayed: from the history, which lane 0 then
//                            rolls as the reference does);
//                         3. a thread per vector: the cast.
//   block_1x128           16 lanes per (row, 128-column block), 8 columns
//                         each: one pass, loads kept in registers across
//                         the shuffle butterfly (xor 8, 4, 2, 1).
//   block_1x128 of a      (a linalg.transpose [1, 0] copy that only the
//   transposed copy       quantize reads: the columnwise operands of FP8
//                         weight gradients) read through the transpose, the
//                         copy erased. 16-bit sources of whole 128 x 128
//                         tiles: the staged schedule, a block of 256 threads
//                         per tile, which it stages in shared memory (16
//                         bytes of a row a lane, whole rows a half-warp);
//                         then a thread per (2 columns, 32 rows) reads them
//                         back, a column's amax over them then xor 2, 1, and
//                         stores 32 FP8 bytes of each column's output row.
//                         Other sources: a warp per (128 source rows, 4 × 16
//                         bytes of columns), 16 rows a lane in registers, a
//                         column's amax over them then xor 16, 8, 4; each
//                         column an output row, 16 bytes a lane. A column's
//                         values are divided by the scale's reciprocal and
//                         two FMA corrections (the division's bits), the
//                         division where the scale lies outside
//                         [2^-60, 2^120].
//   ... of a dequantized  (moe.dequantize block_1x128 → transpose →
//   transposed copy       quantize, the copies used by nothing else) the same,
//                         reading the FP8 rows (8 bytes a load) and their
//                         scales, each value dequantized and rounded to the
//                         copy's type as the two copies would have held it
//                         (the staged schedule's tile holds the copy's bits).
//   quantize_with_        16-bit sources: the staged schedule, whose first
//   transpose             step also quantizes the rows it stages (a row's
//                         amax over its 16 lanes, xor 8 ... 1); f32 sources:
//                         a warp per tile, chunks of columns in an scf.for,
//                         then the rows again.
//   block_128x128         a warp per 128 × 128 tile ([..., M, N], batched
//                         over the leading dims): the two half-warps take
//                         alternate rows, four rows of loads in flight;
//                         the butterfly (xor 16 ... 1); then the tile again
//                         (mostly from L2), cast and stored.
//   dequantize            a thread per vector, its block's scale.
//
// mx_1x32 keeps the reference loops (moe-lower-to-gpu rejects it before
// sm_100). The FP8 codes are computed by integer arithmetic (encodeFp8,
// decodeFp8) or, on sm_89 and newer, by the cvt instructions
// (Fp8Instructions.h), with the same results. On the CPU
// (moe-lower-to-cpu{gpu-schedules}) the loops run in order, the shuffles
// lane by lane, and the conversions are the arithmetic ones.
//
//===----------------------------------------------------------------------===//
#ifndef MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_QUANTSCHEDULES_H
#define MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_QUANTSCHEDULES_H

#include "Fp8Instructions.h"

#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::moe::gpu_schedules {

/// moe.quantize on buffers; `amaxHistory` (delayed only, else null) is
/// read and rolled in place. Fails (the caller keeps the reference loops)
/// for mx_1x32 and for buffers that are not row-major with a static last
/// dimension.
LogicalResult emitQuantizeGpu(OpBuilder &b, Location loc, QuantRecipe recipe,
                              Value input, Value amaxHistory, Value output,
                              Value scale, Fp8Conversion conversion);

/// moe.dequantize on buffers; fails where emitQuantizeGpu does.
LogicalResult emitDequantizeGpu(OpBuilder &b, Location loc, QuantRecipe recipe,
                                Value input, Value scale, Value output,
                                Fp8Conversion conversion);

/// Each moe.quantize block_1x128 of a transposed copy of a dequantized copy
/// (moe.dequantize block_1x128 → linalg.transpose [1, 0] → moe.quantize,
/// what moe-fp8-placement makes of an FP8 residual that a weight gradient
/// needs columnwise), where only that chain uses the two copies, becomes the
/// transposed schedule reading the FP8 residual and its scales directly:
/// one pass over FP8 instead of three kernels (dequantize, and the
/// transposed quantize of its bf16 output), bit for bit the same. Runs
/// before the patterns, which would lower the dequantize on its own first.
void fuseDequantizedTransposedQuantizes(Operation *root,
                                        Fp8Conversion conversion,
                                        bool workgroupTiles);

/// Each moe.quantize block_1x128 of a moe.glu's output that nothing else
/// uses (the forward's fc2 input, which moe-fp8-placement quantizes for the
/// FP8 down projection) becomes the row-block schedule computing the glu's
/// values from gate and up itself: h is neither written nor read again,
/// and the values are those the glu would have stored, bit for bit. Runs
/// before the patterns, which would lower the glu on its own first.
void fuseGluQuantizes(Operation *root, Fp8Conversion conversion);

/// Each moe.quantize_with_transpose of a moe.combine_grad's dy that nothing
/// else uses (the blockwise backward's fc2 output gradient) becomes the
/// staged schedule gathering dy's rows itself: each row's pair (t, k) from
/// a row → pair map made where the combine_grad was (with its dweights),
/// weights[t, k] · dout[t] rounded to dy's type as its store would. dy is
/// neither written nor read again, bit for bit the same outputs. Runs
/// before the patterns, which would lower the combine_grad on its own
/// first.
void fuseCombineGradQuantizes(Operation *root, Fp8Conversion conversion,
                              bool workgroupTiles);

/// moe.quantize / moe.dequantize on buffers → these schedules, converting
/// by `conversion`; `workgroupTiles`: tiles a block shares live in workgroup
/// memory (GPU targets), else in plain memory that the caller hoists (the
/// CPU, blocks in order).
void populateQuantSchedulePatterns(RewritePatternSet &patterns,
                                   PatternBenefit benefit,
                                   Fp8Conversion conversion,
                                   bool workgroupTiles);

} // namespace mlir::moe::gpu_schedules

#endif // MOE_LIB_CONVERSION_MOETOPARALLELLOOPS_QUANTSCHEDULES_H
