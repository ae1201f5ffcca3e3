//===- GroupedMatmulToNVGPU.cpp - generated Hopper grouped GEMM kernels ---===//
//
// convert-grouped-matmul-to-nvgpu: a bf16 moe.grouped_matmul or
// moe.grouped_weight_grad on memrefs becomes, in its host function,
//
//   moert_entry_tensor_map_2d(aMap, A, rows, cols, boxRows, boxCols, bytes)
//   moert_entry_tensor_map_2d(bMap, B, rows, cols, boxRows, boxCols, bytes)
//   moert_entry_tensor_map_2d(cMap, c, rows, cols, 64, 64, 2)  (bf16 c)
//                                                   (host; boxes 128 bytes wide)
//   %scratch = memref.alloc : memref<numCtas x 16·maps x i64>    (device)
//   gpu.launch numCtas x (BM / 64 + 1) * 128 threads { GroupedGemmKernel.h }
//   memref.dealloc %scratch
//
// so the group sizes are read by the kernel on the device and the entry
// never waits for the device. A grouped matmul's epilogue region is applied
// to the accumulator registers before the store. A plain grouped matmul
// followed by one that `accumulate`s into its c (moe-fuse's
// accumulate-matmuls, which places them next to each other) becomes one
// kernel with both products' k-steps in its main loop: c = a1·b1 + a2·b2 is
// written once, and nothing reads it back. What the kernel cannot do yet
// is left to the runtime call of convert-moe-to-runtime-calls (or, with
// require-all, reported).
//
//===----------------------------------------------------------------------===//
#include "GroupedGemmConfig.h"
#include "GroupedGemmKernel.h"

#include "../MoeToRuntimeCalls/RuntimeAbi.h"

#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

namespace mlir::moe {
#define GEN_PASS_DEF_CONVERTGROUPEDMATMULTONVGPUPASS
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;
using mlir::moe::runtime_abi::pointerArgument;
using namespace mlir::moe::grouped_gemm;

namespace {

std::string dimensionReason(StringRef name, int64_t size, int64_t multiple,
                            StringRef why) {
  return (name + " = " + Twine(size) + " (a multiple of " + Twine(multiple) +
          " is needed" + (why.empty() ? "" : ": ") + why + ")")
      .str();
}

/// What both ops need: bf16 operands (or, `fp8`, f8E4M3FN / f8E5M2 ones), a
/// bf16 or f32 result, i32 sizes, static identity-layout buffers (empty:
/// all there).
std::string operandReason(ArrayRef<Value> bf16Operands, Value sizes, Value c,
                          bool fp8 = false) {
  for (Value operand : bf16Operands) {
    Type element = cast<MemRefType>(operand.getType()).getElementType();
    if (fp8 && !isa<Float8E4M3FNType, Float8E5M2Type>(element))
      return "FP8 operands that are not f8E4M3FN or f8E5M2";
    if (!fp8 && !element.isBF16())
      return "operands that are not bf16";
  }
  Type cElement = cast<MemRefType>(c.getType()).getElementType();
  if (!cElement.isBF16() && !cElement.isF32())
    return "an output that is neither bf16 nor f32";
  if (!cast<MemRefType>(sizes.getType()).getElementType().isInteger(32))
    return "group sizes that are not i32";
  SmallVector<Value> all(bf16Operands);
  all.append({sizes, c});
  for (Value v : all) {
    auto type = cast<MemRefType>(v.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return "dynamic shapes or strided buffers";
    if (type.getNumElements() == 0)
      return "an empty operand";
  }
  return "";
}

/// Why the epilogue inputs or destinations past c cannot be read or
/// written by a generated kernel (empty: they can): it accesses them by
/// threads, two elements of a row at a time.
std::string epilogueOperandReason(GroupedMatmulOp op) {
  SmallVector<Value> buffers(op.getEpilogueInputs());
  llvm::append_range(buffers, op.getOuts().drop_front());
  for (Value v : buffers) {
    auto type = cast<MemRefType>(v.getType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return "epilogue inputs or destinations that are dynamic or strided";
    if (!isa<BFloat16Type, Float32Type>(type.getElementType()))
      return "epilogue inputs or destinations that are neither bf16 nor f32";
  }
  return "";
}

OperandType operandTypeOf(Value operand) {
  Type element = cast<MemRefType>(operand.getType()).getElementType();
  if (isa<Float8E4M3FNType>(element))
    return OperandType::e4m3;
  if (isa<Float8E5M2Type>(element))
    return OperandType::e5m2;
  return OperandType::bf16;
}

/// The kernel configuration of a grouped matmul: groups cut its R rows; A is
/// K-major, B is N-major (kn) or K-major (nk; FP8 B always: a kn FP8 weight
/// is transposed first, planKernel). `kSecond`: the K of a second product
/// summed into the same kernel (0: none), known before the tile and the
/// pipeline are chosen, since it can decide the shared-memory layout
/// (GroupedGemmConfig::pingpong).
GroupedGemmConfig configFor(GroupedMatmulOp op, const GemmChoices &choices,
                            int64_t kSecond = 0) {
  auto a = cast<MemRefType>(op.getA().getType());
  auto c = cast<MemRefType>(op.getCInit().getType());
  GroupedGemmConfig problem;
  problem.ragged = RaggedDim::M;
  problem.rows = problem.m = a.getDimSize(0);
  problem.n = c.getDimSize(1);
  problem.k = a.getDimSize(1);
  problem.groups = cast<MemRefType>(op.getGroupSizes().getType()).getDimSize(0);
  problem.aKMajor = true;
  problem.bKMajor = op.getWeightLayout() == WeightLayout::NK;
  problem.aType = operandTypeOf(op.getA());
  problem.bType = operandTypeOf(op.getB());
  if (Value aScale = op.getAScale()) {
    problem.bKMajor = true;
    problem.bScaleNK = op.getWeightLayout() == WeightLayout::NK;
    problem.scaling = cast<MemRefType>(aScale.getType()).getRank() == 0
                          ? Fp8Scaling::tensorwise
                          : Fp8Scaling::blockwise;
  }
  problem.f32Out = c.getElementType().isF32();
  problem.accumulatorsPerOutput = op.getAccumulatorsPerOutput();
  problem.upWeight = op.getBUp() != nullptr;
  problem.accumulate = op.getAccumulate();
  problem.numCtas = choices.numCtas;
  problem.tmaStoreAllowed = choices.tmaStore;
  problem.racecheckLayoutAllowed = choices.racecheckLayout;
  problem.pingpongAllowed = choices.pingpong;
  problem.pairedPromotionAllowed = choices.pairedPromotion;
  problem.kSecond = kSecond;
  return chooseConfig(problem, choices.blockN, choices.maxStages,
                      choices.panelTiles);
}

/// The operands of a weight gradient as the kernel's A and B (and their
/// scales): db[g] = a[rows of g]ᵀ · dc[rows of g] (kn), or its transpose
/// dc[..]ᵀ · a[..] (nk). Both are [R, ·], read transposed, or, with
/// `transposed_operands`, [·, R] and K-major.
struct WeightGradOperands {
  Value a, b, aScale, bScale;
};
WeightGradOperands weightGradOperands(GroupedWeightGradOp op) {
  if (op.getWeightLayout() == WeightLayout::NK)
    return {op.getDc(), op.getA(), op.getDcScale(), op.getAScale()};
  return {op.getA(), op.getDc(), op.getAScale(), op.getDcScale()};
}

GroupedGemmConfig configFor(GroupedWeightGradOp op, const GemmChoices &choices) {
  WeightGradOperands operands = weightGradOperands(op);
  auto db = cast<MemRefType>(op.getOuts().front().getType());
  bool transposed = op.getTransposedOperands();
  // The dimension of each operand that is R, and the other one.
  unsigned rowsDim = transposed ? 1 : 0, otherDim = 1 - rowsDim;
  GroupedGemmConfig problem;
  problem.ragged = RaggedDim::K;
  problem.rows = problem.k =
      cast<MemRefType>(op.getA().getType()).getDimSize(rowsDim);
  problem.m = cast<MemRefType>(operands.a.getType()).getDimSize(otherDim);
  problem.n = cast<MemRefType>(operands.b.getType()).getDimSize(otherDim);
  problem.groups = cast<MemRefType>(op.getGroupSizes().getType()).getDimSize(0);
  problem.aKMajor = problem.bKMajor = transposed;
  problem.aType = operandTypeOf(operands.a);
  problem.bType = operandTypeOf(operands.b);
  if (operands.aScale)
    problem.scaling = cast<MemRefType>(operands.aScale.getType()).getRank() == 0
                          ? Fp8Scaling::tensorwise
                          : Fp8Scaling::blockwise;
  problem.f32Out = db.getElementType().isF32();
  problem.numCtas = choices.numCtas;
  problem.tmaStoreAllowed = choices.tmaStore;
  problem.racecheckLayoutAllowed = choices.racecheckLayout;
  problem.pingpongAllowed = choices.pingpong;
  problem.pairedPromotionAllowed = choices.pairedPromotion;
  problem.heaviestGroupsFirstAllowed = choices.heaviestGroupsFirst;
  return chooseConfig(problem, choices.blockN, choices.maxStages,
                      choices.panelTiles);
}

/// What the configuration itself rules out (empty: nothing).
std::string pipelineReason(const GroupedGemmConfig &config) {
  // The kernel scans the group sizes (each clamped to [0, R]) in i32.
  if (config.groups * config.rows >= (int64_t{1} << 31))
    return ("G x R = " + Twine(config.groups) + " x " + Twine(config.rows) +
            " (the on-device size scan is 32-bit: G x R must stay below 2^31)")
        .str();
  if (config.stages < 2 ||
      config.sharedBytes() > GroupedGemmConfig::sharedCapacity)
    return ("G = " + Twine(config.groups) +
            " (the group-size scans leave shared memory for fewer than 2 "
            "pipeline stages)")
        .str();
  return "";
}

/// Why the scales `aScaleValue` and `bScaleValue` of FP8 operands cannot be
/// read by a generated kernel (empty: they can).
std::string scalesReason(Value aScaleValue, Value bScaleValue) {
  if (!aScaleValue || !bScaleValue)
    return "FP8 operands without scales";
  auto aScale = cast<MemRefType>(aScaleValue.getType());
  auto bScale = cast<MemRefType>(bScaleValue.getType());
  if ((aScale.getRank() == 0) != (bScale.getRank() == 0))
    return "tensor-wise and block scales mixed";
  for (auto type : {aScale, bScale})
    if (!type.getElementType().isF32() || !type.hasStaticShape() ||
        !type.getLayout().isIdentity())
      return "scales that are not static contiguous f32 buffers";
  return "";
}

/// Why an FP8 grouped matmul gets no generated kernel (empty: it gets one).
/// A block-scaled one that accumulates gets it only as the second product
/// of its pair's kernel (accumulatedProduct; the pass reports one left
/// alone).
std::string fp8Reason(GroupedMatmulOp op) {
  if (op.getEpilogueBlock())
    return "an epilogue on FP8 operands";
  if (op.getAccumulate() && !op.hasBlockScales())
    return "accumulate on tensor-wise scaled FP8 operands";
  return scalesReason(op.getAScale(), op.getBScale());
}

/// Why the pass's options leave the grouped GEMM `op` (FP8 when `fp8`) to
/// cuBLASLt (empty: they do not).
std::string selectionReason(Operation *op, const GemmChoices &choices,
                            bool fp8) {
  if (choices.fp8Only && !fp8)
    return "bf16 operands (fp8-only)";
  if (choices.autoSelect && !fp8 && !autoPrefersGeneratedKernel(op))
    return "bf16 operands where cuBLASLt is the faster (auto-select)";
  return "";
}

/// Why `op` gets no generated kernel (empty: it gets one).
std::string unsupportedReason(GroupedMatmulOp op, const GemmChoices &choices) {
  bool fp8 = op.getAScale() != nullptr;
  std::string reason = selectionReason(op, choices, fp8);
  if (!reason.empty())
    return reason;
  if (fp8) {
    reason = fp8Reason(op);
    if (!reason.empty())
      return reason;
  }
  reason = operandReason({op.getA(), op.getB()}, op.getGroupSizes(),
                         op.getCInit(), fp8);
  if (!reason.empty())
    return reason;
  reason = epilogueOperandReason(op);
  if (!reason.empty())
    return reason;
  int64_t k = cast<MemRefType>(op.getA().getType()).getDimSize(1);
  int64_t n = cast<MemRefType>(op.getCInit().getType()).getDimSize(1);
  // bf16: a last, partial k-step covers K's remainder (GroupedGemmConfig::
  // kTiles); A's rows are still whole 16-byte TMA rows.
  int64_t fp8BlockK = GroupedGemmConfig::swizzleRowElements(1);
  if (fp8 && k % fp8BlockK != 0)
    return dimensionReason("K", k, fp8BlockK,
                           "one k-step is one 128-wide scale block");
  if (k % 8 != 0)
    return dimensionReason("K", k, 8, "TMA rows are 16-byte aligned");
  if (n % 8 != 0)
    return dimensionReason("N", n, 8, "TMA rows are 16-byte aligned");
  return pipelineReason(configFor(op, choices));
}

std::string unsupportedReason(GroupedWeightGradOp op, const GemmChoices &choices) {
  bool fp8 = op.getAScale() != nullptr;
  std::string reason = selectionReason(op, choices, fp8);
  if (!reason.empty())
    return reason;
  if (fp8) {
    reason = scalesReason(op.getAScale(), op.getDcScale());
    if (!reason.empty())
      return reason;
  }
  Value db = op.getOuts().front();
  reason = operandReason({op.getA(), op.getDc()}, op.getGroupSizes(), db, fp8);
  if (!reason.empty())
    return reason;
  bool transposed = op.getTransposedOperands();
  unsigned otherDim = transposed ? 0 : 1;
  int64_t kd = cast<MemRefType>(op.getA().getType()).getDimSize(otherDim);
  int64_t n = cast<MemRefType>(op.getDc().getType()).getDimSize(otherDim);
  if (transposed) {
    // Each operand row holds R elements; TMA rows are 16-byte aligned.
    int64_t r = cast<MemRefType>(op.getA().getType()).getDimSize(1);
    int64_t multiple = 16 / (fp8 ? 1 : 2);
    if (r % multiple != 0)
      return dimensionReason("R", r, multiple,
                             "TMA rows of the transposed operands are "
                             "16-byte aligned");
  }
  // The rows of db (Kd, or N when nk) are the kernel's M. bf16: a last,
  // partial m-tile reads zeros past M (TMA) and stores its rows by threads;
  // FP8: whole tiles (the scale rows are per 64-row tile).
  bool nk = op.getWeightLayout() == WeightLayout::NK;
  if (fp8 && !nk && kd % GroupedGemmConfig::wgmmaM != 0)
    return dimensionReason("Kd", kd, GroupedGemmConfig::wgmmaM,
                           "db's rows are whole 64-row tiles");
  if (fp8 && nk && n % GroupedGemmConfig::wgmmaM != 0)
    return dimensionReason("N", n, GroupedGemmConfig::wgmmaM,
                           "db's rows (weight_layout nk) are whole 64-row "
                           "tiles");
  if (kd % 8 != 0)
    return dimensionReason("Kd", kd, 8, "TMA rows are 16-byte aligned");
  if (n % 8 != 0)
    return dimensionReason("N", n, 8, "TMA rows are 16-byte aligned");
  return pipelineReason(configFor(op, choices));
}

/// Encodes the TMA descriptor of the row-major matrix `base` (elements of
/// `elementBytes`: bf16 2, FP8 1) viewed as [rows, cols] on the host, for
/// boxes of boxRows x one 128-byte swizzle row; returns its 16 words. The words live on the
/// host stack as LLVM ops: host memory that gpu-launch-top-level-loops, which
/// moves every memref access of host code to the device, leaves alone.
SmallVector<Value, 16> encodeTensorMap(OpBuilder &b, Location loc, Value base,
                                       int64_t rows, int64_t cols,
                                       int64_t elementBytes, int64_t boxRows) {
  auto i64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 64).getResult();
  };
  auto i32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32).getResult();
  };
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Type words = LLVM::LLVMArrayType::get(b.getI64Type(), 16);
  Value storage = LLVM::AllocaOp::create(b, loc, ptrType, words, i64(1),
                                         /*alignment=*/64);
  runtime_abi::moert_entry_tensor_map_2d.call(
      b, loc,
      {storage, pointerArgument(b, loc, base), i64(rows), i64(cols),
       i32(boxRows), i32(GroupedGemmConfig::swizzleRowElements(elementBytes)),
       i32(elementBytes)});
  SmallVector<Value, 16> result;
  for (int32_t i = 0; i < 16; ++i) {
    Value word = LLVM::GEPOp::create(b, loc, ptrType, b.getI64Type(), storage,
                                     ArrayRef<LLVM::GEPArg>{i});
    result.push_back(LLVM::LoadOp::create(b, loc, b.getI64Type(), word));
  }
  return result;
}

/// The buffer `value` is a view of (itself when it is none).
Value viewedBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// The grouped matmul whose product `second` accumulates into, where the
/// two can be one kernel (GroupedGemmConfig::kSecond), or null. `first`
/// must be plain (no epilogue, not accumulating; bf16, or block-scaled FP8
/// of the same operand types as `second`) over the same group sizes,
/// weight layout and c, and between the two only ops that touch no
/// memory, allocations and deallocations (of buffers that `second`, which
/// reads them later, cannot be using): the kernel then runs at `first`
/// and reads `second`'s operands, which must already be defined there,
/// earlier than `second` would have. Operands of `second` that are views of
/// c's buffer would be read before the first product is in it: no pair.
GroupedMatmulOp accumulatedProduct(GroupedMatmulOp second,
                                   const llvm::SmallPtrSetImpl<Operation *>
                                       &generated,
                                   DominanceInfo &dominance) {
  if (!second.getAccumulate() || second.getEpilogueBlock() ||
      (second.getAScale() && !second.hasBlockScales()))
    return GroupedMatmulOp();
  for (Operation *between = second->getPrevNode(); between;
       between = between->getPrevNode()) {
    auto first = dyn_cast<GroupedMatmulOp>(between);
    if (!first) {
      if (isMemoryEffectFree(between) ||
          isa<memref::AllocOp, memref::DeallocOp>(between))
        continue;
      return GroupedMatmulOp();
    }
    auto elementOf = [](Value v) { return getElementTypeOrSelf(v.getType()); };
    if (first.getCInit() != second.getCInit() || first.getAccumulate() ||
        first.getEpilogueBlock() ||
        first.hasBlockScales() != second.hasBlockScales() ||
        (first.getAScale() && !first.hasBlockScales()) ||
        elementOf(first.getA()) != elementOf(second.getA()) ||
        elementOf(first.getB()) != elementOf(second.getB()) ||
        first.getGroupSizes() != second.getGroupSizes() ||
        first.getWeightLayout() != second.getWeightLayout() ||
        !generated.contains(first))
      return GroupedMatmulOp();
    Value cBuffer = viewedBuffer(second.getCInit());
    SmallVector<Value, 4> read = {second.getA(), second.getB()};
    if (second.hasBlockScales())
      read.append({second.getAScale(), second.getBScale()});
    for (Value operand : read)
      if (!dominance.properlyDominates(operand, first) ||
          viewedBuffer(operand) == cBuffer)
        return GroupedMatmulOp();
    return first;
  }
  return GroupedMatmulOp();
}

/// A generated kernel's operands as the kernel sees them: A and B viewed as
/// 2-D row-major matrices (for their tensor maps) and c as a 2-D buffer.
struct KernelPlan {
  GroupedGemmConfig config;
  Value a, b, groupSizes, c;
  /// GroupedGemmConfig::upWeight: the up half's weight, viewed as b is.
  Value bUp;
  int64_t aRows, aCols, bRows, bCols;
  /// GroupedGemmConfig::kSecond: the second product's operands, viewed as
  /// A and B are, and its op, replaced by the same kernel.
  Value a2, b2, a2Scale, b2Scale;
  int64_t a2Cols = 0, b2Rows = 0, b2Cols = 0;
  Operation *secondOp = nullptr;
  std::function<SmallVector<Value, 3>(OpBuilder &, ValueRange)> epilogue;
  Value rowScale;
  SmallVector<Value> epilogueInputs, extraOutputs;
  Value aScale, bScale;
  /// Temporaries the kernel reads (the transposed FP8 weight, a weight
  /// gradient's transposed block scales), freed after the launch.
  SmallVector<Value, 2> scratch;
};

/// `value` with its last two dimensions swapped, in a new buffer.
Value transposedLastTwo(IRRewriter &rewriter, Location loc, Value value) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
  std::swap(permutation[shape.size() - 1], permutation[shape.size() - 2]);
  Value transposed = memref::AllocOp::create(
      rewriter, loc, MemRefType::get(shape, type.getElementType()));
  linalg::TransposeOp::create(rewriter, loc, value, transposed, permutation);
  return transposed;
}

KernelPlan planKernel(IRRewriter &rewriter, GroupedMatmulOp op,
                      const GemmChoices &choices, int64_t kSecond = 0) {
  KernelPlan plan;
  plan.config = configFor(op, choices, kSecond);
  const GroupedGemmConfig &config = plan.config;
  plan.a = op.getA();
  plan.b = op.getB();
  plan.aScale = op.getAScale();
  plan.bScale = op.getBScale();
  if (config.fp8() && op.getWeightLayout() == WeightLayout::KN)
    // b [G, K, N] copied to [G, N, K]: FP8 wgmma reads B K-major only.
    plan.scratch.push_back(
        plan.b = transposedLastTwo(rewriter, op.getLoc(), plan.b));
  plan.groupSizes = op.getGroupSizes();
  plan.c = op.getCInit();
  plan.aRows = config.rows;
  plan.aCols = config.k;
  // b as [G * K, N] (kn) or [G * N, K] (nk), N the product's columns (each
  // weight's with upWeight).
  plan.bUp = op.getBUp();
  plan.bRows = config.groups * (config.bKMajor ? config.bWeightN() : config.k);
  plan.bCols = config.bKMajor ? config.k : config.bWeightN();
  if (op.getEpilogueBlock()) {
    bool fastMath = choices.epilogueFastMath;
    plan.epilogue = [op, fastMath](OpBuilder &b,
                                   ValueRange arguments) mutable {
      return op.cloneEpilogueAt(b, arguments, [&](Operation *clone) {
        auto flagged = dyn_cast<arith::ArithFastMathInterface>(clone);
        if (flagged && fastMath)
          clone->setAttr(flagged.getFastMathAttrName(),
                         arith::FastMathFlagsAttr::get(
                             b.getContext(), arith::FastMathFlags::afn |
                                                 arith::FastMathFlags::arcp |
                                                 arith::FastMathFlags::contract));
      });
    };
    plan.rowScale = op.getRowScale();
    plan.epilogueInputs = llvm::to_vector(op.getEpilogueInputs());
    plan.extraOutputs = llvm::to_vector(op.getOuts().drop_front());
  }
  return plan;
}

/// One kernel for `first`'s product plus `second`'s (accumulatedProduct).
KernelPlan planKernel(IRRewriter &rewriter, GroupedMatmulOp first,
                      GroupedMatmulOp second, const GemmChoices &choices) {
  KernelPlan plan =
      planKernel(rewriter, first, choices,
                 cast<MemRefType>(second.getA().getType()).getDimSize(1));
  GroupedGemmConfig &config = plan.config;
  plan.a2 = second.getA();
  plan.b2 = second.getB();
  plan.a2Scale = second.getAScale();
  plan.b2Scale = second.getBScale();
  if (config.fp8() && second.getWeightLayout() == WeightLayout::KN)
    plan.scratch.push_back(
        plan.b2 = transposedLastTwo(rewriter, second.getLoc(), plan.b2));
  plan.a2Cols = config.kSecond;
  plan.b2Rows =
      config.groups * (config.bKMajor ? config.productN() : config.kSecond);
  plan.b2Cols = config.bKMajor ? config.kSecond : config.productN();
  plan.secondOp = second;
  return plan;
}

KernelPlan planKernel(IRRewriter &rewriter, GroupedWeightGradOp op,
                      const GemmChoices &choices) {
  KernelPlan plan;
  plan.config = configFor(op, choices);
  const GroupedGemmConfig &config = plan.config;
  WeightGradOperands operands = weightGradOperands(op);
  plan.a = operands.a;
  plan.b = operands.b;
  plan.aScale = operands.aScale;
  plan.bScale = operands.bScale;
  if (config.scaling == Fp8Scaling::blockwise) {
    // Block scales [M or N, R/128] copied to [R/128, M or N]: a k-step's
    // scales of the tile's rows and columns are then contiguous (a warp's
    // loads of one step fall in one or two sectors instead of a line per
    // column).
    plan.scratch.push_back(
        plan.aScale = transposedLastTwo(rewriter, op.getLoc(), plan.aScale));
    plan.scratch.push_back(
        plan.bScale = transposedLastTwo(rewriter, op.getLoc(), plan.bScale));
  }
  plan.groupSizes = op.getGroupSizes();
  plan.c = memref::CollapseShapeOp::create(
      rewriter, op.getLoc(), op.getOuts().front(),
      ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  if (config.kMajorReduction()) {
    // [M, R] and [N, R].
    plan.aRows = config.m;
    plan.bRows = config.n;
    plan.aCols = plan.bCols = config.rows;
  } else {
    plan.aRows = plan.bRows = config.rows;
    plan.aCols = config.m;
    plan.bCols = config.n;
  }
  return plan;
}

void generateKernel(IRRewriter &rewriter, Operation *op,
                    const KernelPlan &plan) {
  Location loc = op->getLoc();
  const GroupedGemmConfig &config = plan.config;
  GroupedGemmKernelOperands operands;
  operands.groupSizes = plan.groupSizes;
  operands.c = plan.c;
  operands.epilogue = plan.epilogue;
  operands.rowScale = plan.rowScale;
  operands.epilogueInputs = plan.epilogueInputs;
  operands.extraOutputs = plan.extraOutputs;
  operands.aScale = plan.aScale;
  operands.bScale = plan.bScale;
  operands.a2Scale = plan.a2Scale;
  operands.b2Scale = plan.b2Scale;
  // An A operand's map (boxes of A's rows) and a B operand's.
  auto aMap = [&](Value a, int64_t cols) {
    return encodeTensorMap(rewriter, loc, a, plan.aRows, cols,
                           config.elementBytes(), config.aBoxRows());
  };
  auto bMap = [&](Value b, int64_t rows, int64_t cols) {
    return encodeTensorMap(rewriter, loc, b, rows, cols, config.elementBytes(),
                           config.bBoxRows());
  };
  operands.aMapWords = aMap(plan.a, plan.aCols);
  operands.bMapWords = bMap(plan.b, plan.bRows, plan.bCols);
  if (config.upWeight)
    operands.bUpMapWords = bMap(plan.bUp, plan.bRows, plan.bCols);
  if (config.kSecond) {
    operands.a2MapWords = aMap(plan.a2, plan.a2Cols);
    operands.b2MapWords = bMap(plan.b2, plan.b2Rows, plan.b2Cols);
  }
  if (config.tmaStore()) {
    auto cType = cast<MemRefType>(plan.c.getType());
    operands.cMapWords =
        encodeTensorMap(rewriter, loc, plan.c, cType.getDimSize(0),
                        cType.getDimSize(1), /*elementBytes=*/2,
                        GroupedGemmConfig::wgmmaM);
  }
  operands.descriptorScratch = memref::AllocOp::create(
      rewriter, loc,
      MemRefType::get({config.numCtas, config.descriptorWords()},
                      rewriter.getI64Type()));

  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value one = constant(1);
  Value sharedBytes =
      arith::ConstantIntOp::create(rewriter, loc, config.sharedBytes(), 32);
  // The op's location names the kernel (moe-name-kernel-sources made it
  // "grouped_matmul" or "grouped_weight_grad"; gpu-launch-top-level-loops
  // reads it).
  auto launch =
      gpu::LaunchOp::create(rewriter, loc, constant(config.numCtas), one, one,
                            constant(config.threads()), one, one, sharedBytes);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(&launch.getBody().front());
    auto terminator = gpu::TerminatorOp::create(rewriter, loc);
    rewriter.setInsertionPoint(terminator);
    buildGroupedGemmKernel(rewriter, loc, config, operands);
  }
  memref::DeallocOp::create(rewriter, loc, operands.descriptorScratch);
  for (Value scratch : plan.scratch)
    memref::DeallocOp::create(rewriter, loc, scratch);
  rewriter.eraseOp(op);
  if (plan.secondOp)
    rewriter.eraseOp(plan.secondOp);
}

struct ConvertGroupedMatmulToNVGPUPass
    : mlir::moe::impl::ConvertGroupedMatmulToNVGPUPassBase<
          ConvertGroupedMatmulToNVGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<GemmChoices> choices = parseChoices();
    if (!choices)
      return signalPassFailure();
    SmallVector<Operation *> generated;
    if (failed(collectGenerated(*choices, generated)))
      return signalPassFailure();
    llvm::DenseMap<Operation *, GroupedMatmulOp> secondOf =
        pairAccumulatedProducts(generated, *choices);
    llvm::SmallPtrSet<Operation *, 8> inPairs;
    for (auto [first, second] : secondOf)
      inPairs.insert(second);
    if (failed(checkFp8Accumulations(generated, inPairs)))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    for (Operation *op : generated) {
      if (inPairs.contains(op))
        continue;
      rewriter.setInsertionPoint(op);
      KernelPlan plan =
          TypeSwitch<Operation *, KernelPlan>(op)
              .Case([&](GroupedMatmulOp matmul) {
                auto second = secondOf.find(op);
                if (second != secondOf.end())
                  return planKernel(rewriter, matmul, second->second,
                                    *choices);
                return planKernel(rewriter, matmul, *choices);
              })
              .Case([&](GroupedWeightGradOp weightGrad) {
                return planKernel(rewriter, weightGrad, *choices);
              });
      generateKernel(rewriter, op, plan);
    }
  }

private:
  /// The pass options as GemmChoices, or nullopt after an error naming the
  /// option that is out of range.
  std::optional<GemmChoices> parseChoices() {
    if (numCtas < 1) {
      getOperation().emitError("convert-grouped-matmul-to-nvgpu: num-ctas "
                               "must be at least 1, got ")
          << static_cast<int64_t>(numCtas);
      return std::nullopt;
    }
    std::optional<BlockNChoice> blockN =
        llvm::StringSwitch<std::optional<BlockNChoice>>(blockNOption)
            .Case("auto", BlockNChoice::automatic)
            .Case("128", BlockNChoice::n128)
            .Case("256", BlockNChoice::n256)
            .Default(std::nullopt);
    if (!blockN) {
      getOperation().emitError("convert-grouped-matmul-to-nvgpu: block-n "
                               "must be auto, 128 or 256, got '")
          << blockNOption << "'";
      return std::nullopt;
    }
    if (maxStages < 0 || maxStages == 1 ||
        maxStages > GroupedGemmConfig::maxStages) {
      getOperation().emitError("convert-grouped-matmul-to-nvgpu: max-stages "
                               "must be 0 (as many as fit) or in [2, ")
          << GroupedGemmConfig::maxStages << "], got "
          << static_cast<int64_t>(maxStages);
      return std::nullopt;
    }
    if (panelTiles < 0) {
      getOperation().emitError("convert-grouped-matmul-to-nvgpu: panel-tiles "
                               "must be 0 (chosen) or positive, got ")
          << static_cast<int64_t>(panelTiles);
      return std::nullopt;
    }
    GemmChoices choices;
    choices.numCtas = numCtas;
    choices.blockN = *blockN;
    choices.maxStages = maxStages;
    choices.tmaStore = tmaStore;
    choices.racecheckLayout = racecheckLayout;
    choices.pingpong = pingpong;
    choices.pairedPromotion = pairedPromotion;
    choices.heaviestGroupsFirst = heaviestGroupsFirst;
    choices.epilogueFastMath = epilogueFastMath;
    choices.fp8Only = fp8Only;
    choices.autoSelect = autoSelect;
    choices.panelTiles = panelTiles;
    return choices;
  }

  /// The grouped ops on buffers that get a generated kernel, in walk order;
  /// with require-all, an error on each one that cannot.
  LogicalResult collectGenerated(const GemmChoices &choices,
                                 SmallVectorImpl<Operation *> &generated) {
    bool anyFailed = false;
    getOperation().walk([&](Operation *op) {
      auto grouped = dyn_cast<DestinationStyleOpInterface>(op);
      if (!isa<GroupedMatmulOp, GroupedWeightGradOp>(op) ||
          !grouped.hasPureBufferSemantics())
        return;
      std::string reason =
          TypeSwitch<Operation *, std::string>(op)
              .Case<GroupedMatmulOp, GroupedWeightGradOp>([&](auto op) {
                return unsupportedReason(op, choices);
              });
      if (reason.empty()) {
        generated.push_back(op);
      } else if (requireAll) {
        op->emitOpError("has no generated GPU kernel for ") << reason;
        anyFailed = true;
      }
    });
    return failure(anyFailed);
  }

  /// Accumulating matmuls that share a kernel with the product they add to:
  /// first product -> its accumulating second.
  llvm::DenseMap<Operation *, GroupedMatmulOp>
  pairAccumulatedProducts(ArrayRef<Operation *> generated,
                          const GemmChoices &choices) {
    llvm::SmallPtrSet<Operation *, 8> eligible(generated.begin(),
                                               generated.end());
    DominanceInfo dominance(getOperation());
    llvm::DenseMap<Operation *, GroupedMatmulOp> secondOf;
    for (Operation *op : generated)
      if (auto second = dyn_cast<GroupedMatmulOp>(op))
        if (GroupedMatmulOp first =
                accumulatedProduct(second, eligible, dominance)) {
          // The pair's own configuration (its second K can change the
          // layout) must fit as well as each product's did.
          int64_t kSecond =
              cast<MemRefType>(second.getA().getType()).getDimSize(1);
          if (pipelineReason(configFor(first, choices, kSecond)).empty())
            secondOf[first] = second;
        }
    return secondOf;
  }

  /// A block-scaled FP8 product that accumulates has a kernel only as the
  /// second of a pair (and cuBLASLt has no FP8 grouped path): an error on
  /// each one that is not.
  LogicalResult
  checkFp8Accumulations(ArrayRef<Operation *> generated,
                        const llvm::SmallPtrSetImpl<Operation *> &inPairs) {
    bool anyFailed = false;
    for (Operation *op : generated)
      if (auto matmul = dyn_cast<GroupedMatmulOp>(op);
          matmul && matmul.getAccumulate() && matmul.getAScale() &&
          !inPairs.contains(op)) {
        op->emitOpError("has no generated GPU kernel for an FP8 product "
                        "accumulating into c on its own: it needs the "
                        "block-scaled FP8 grouped matmul that writes c right "
                        "before it, over the same group sizes, weight layout "
                        "and operand types (moe-fuse accumulate-matmuls "
                        "places it so)");
        anyFailed = true;
      }
    return failure(anyFailed);
  }
};

} // namespace
