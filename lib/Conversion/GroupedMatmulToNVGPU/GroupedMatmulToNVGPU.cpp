//===- GroupedMatmulToNVGPU.cpp - generated Hopper grouped GEMM kernels ---===//
//
// convert-grouped-matmul-to-nvgpu: a bf16 moe.grouped_matmul on memrefs
// becomes, in its host function,
//
//   moert_entry_tensor_map_bf16_2d(aMap, a, R, K, BM, 64)      (host only)
//   moert_entry_tensor_map_bf16_2d(bMap, b, G*K, N, 64, 64)
//   %scratch = memref.alloc : memref<numCtas x 32 x i64>        (device)
//   gpu.launch numCtas x (BM / 64 + 1) * 128 threads { GroupedGemmKernel.h }
//   memref.dealloc %scratch
//
// so the group sizes are read by the kernel on the device and the entry
// never waits for the device. What the kernel cannot do yet is left to the
// runtime call of convert-moe-to-runtime-calls (or, with require-all,
// reported).
//
//===----------------------------------------------------------------------===//
#include "GroupedGemmConfig.h"
#include "GroupedGemmKernel.h"

#include "../MoeToRuntimeCalls/RuntimeAbi.h"

#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::moe {
#define GEN_PASS_DEF_CONVERTGROUPEDMATMULTONVGPUPASS
#include "MoeDialect/Conversion/Passes.h.inc"
} // namespace mlir::moe

using namespace mlir;
using namespace mlir::moe;
using mlir::moe::runtime_abi::pointerArgument;
using namespace mlir::moe::grouped_gemm;

namespace {

/// Why `op` gets no generated kernel (empty: it gets one).
std::string unsupportedReason(GroupedMatmulOp op) {
  if (op.getAScale() || op.getBScale())
    return "FP8 scales";
  auto a = cast<MemRefType>(op.getA().getType());
  auto b = cast<MemRefType>(op.getB().getType());
  auto sizes = cast<MemRefType>(op.getGroupSizes().getType());
  auto c = cast<MemRefType>(op.getCInit().getType());
  if (!a.getElementType().isBF16() || !b.getElementType().isBF16())
    return "operands that are not bf16";
  if (!c.getElementType().isBF16() && !c.getElementType().isF32())
    return "an output that is neither bf16 nor f32";
  if (!sizes.getElementType().isInteger(32))
    return "group sizes that are not i32";
  if (op.getWeightLayout() != WeightLayout::KN)
    return "weight_layout nk (b stored [G, N, K]; only kn is generated)";
  for (MemRefType type : {a, b, sizes, c})
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return "dynamic shapes or strided buffers";
  if (a.getDimSize(1) % GroupedGemmConfig::blockK != 0)
    return "K = " + std::to_string(a.getDimSize(1)) + " (a multiple of " +
           std::to_string(GroupedGemmConfig::blockK) + " is needed)";
  if (c.getDimSize(1) % 8 != 0)
    return "N = " + std::to_string(c.getDimSize(1)) +
           " (a multiple of 8 is needed: TMA rows are 16-byte aligned)";
  if (a.getDimSize(0) == 0 || sizes.getDimSize(0) == 0)
    return "an empty operand";
  return "";
}

/// Encodes the TMA descriptor of the row-major bf16 matrix `base` viewed as
/// [rows, cols] on the host; returns its 16 words. The words live on the
/// host stack as LLVM ops: host memory that gpu-launch-top-level-loops, which
/// moves every memref access of host code to the device, leaves alone.
SmallVector<Value, 16> encodeTensorMap(OpBuilder &b, Location loc, Value base,
                                       int64_t rows, int64_t cols,
                                       int64_t boxRows) {
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
  runtime_abi::moert_entry_tensor_map_bf16_2d.call(
      b, loc,
      {storage, pointerArgument(b, loc, base), i64(rows), i64(cols),
       i32(boxRows), i32(GroupedGemmConfig::boxWidth)});
  SmallVector<Value, 16> result;
  for (int32_t i = 0; i < 16; ++i) {
    Value word = LLVM::GEPOp::create(b, loc, ptrType, b.getI64Type(), storage,
                                     ArrayRef<LLVM::GEPArg>{i});
    result.push_back(LLVM::LoadOp::create(b, loc, b.getI64Type(), word));
  }
  return result;
}

void generateKernel(IRRewriter &rewriter, GroupedMatmulOp op, int64_t numCtas) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto a = cast<MemRefType>(op.getA().getType());
  auto c = cast<MemRefType>(op.getCInit().getType());
  auto sizes = cast<MemRefType>(op.getGroupSizes().getType());
  GroupedGemmConfig config =
      chooseConfig(a.getDimSize(0), a.getDimSize(1), c.getDimSize(1),
                   sizes.getDimSize(0), c.getElementType().isF32(), numCtas);

  GroupedGemmKernelOperands operands;
  operands.a = op.getA();
  operands.b = op.getB();
  operands.groupSizes = op.getGroupSizes();
  operands.c = op.getCInit();
  operands.aMapWords = encodeTensorMap(rewriter, loc, op.getA(), config.rows,
                                       config.kDim, config.blockM);
  operands.bMapWords =
      encodeTensorMap(rewriter, loc, op.getB(), config.groups * config.kDim,
                      config.n, GroupedGemmConfig::blockK);
  operands.descriptorScratch = memref::AllocOp::create(
      rewriter, loc,
      MemRefType::get({config.numCtas, 32}, rewriter.getI64Type()));

  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value one = constant(1);
  Value sharedBytes =
      arith::ConstantIntOp::create(rewriter, loc, config.sharedBytes(), 32);
  // The op's location names the kernel (moe-name-kernel-sources made it
  // "grouped_matmul"; gpu-launch-top-level-loops reads it).
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
  rewriter.eraseOp(op);
}

struct ConvertGroupedMatmulToNVGPUPass
    : mlir::moe::impl::ConvertGroupedMatmulToNVGPUPassBase<
          ConvertGroupedMatmulToNVGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    if (numCtas < 1) {
      getOperation().emitError("convert-grouped-matmul-to-nvgpu: num-ctas "
                               "must be at least 1, got ")
          << static_cast<int64_t>(numCtas);
      return signalPassFailure();
    }
    SmallVector<GroupedMatmulOp> generated;
    bool failed = false;
    getOperation().walk([&](GroupedMatmulOp op) {
      if (!op.hasPureBufferSemantics())
        return;
      std::string reason = unsupportedReason(op);
      if (reason.empty()) {
        generated.push_back(op);
      } else if (requireAll) {
        op.emitOpError("has no generated GPU kernel for ") << reason;
        failed = true;
      }
    });
    if (failed)
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    for (GroupedMatmulOp op : generated)
      generateKernel(rewriter, op, numCtas);
  }
};

} // namespace
