//===- BufferizableOpInterfaceImpl.cpp - bufferization of moe ops ---------===//
//
// Every moe op but moe.layer is in destination-passing style, so one
// external model built on upstream's DstBufferizableOpInterfaceExternalModel
// serves all of them: each result is equivalent to its destination, and the
// op is rebuilt on buffers writing into the destinations' buffers.
// Destinations are write-only, except the amax history of delayed
// quantization, which is read and then rolled: one-shot-bufferize copies it
// when the caller's history is still needed.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/BufferizableOpInterfaceImpl.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace mlir::moe {
namespace {

/// A destination-style moe op bufferizes in place into the buffers of its
/// destinations (upstream's DstBufferizableOpInterfaceExternalModel), rebuilt
/// on the buffers of its operands without results. Destinations are only
/// written unless the op says it reads one (the amax history of delayed
/// quantization), so an out-of-place destination is not copied needlessly.
template <typename OpTy>
struct DestinationStyleBufferization
    : public DstBufferizableOpInterfaceExternalModel<
          DestinationStyleBufferization<OpTy>, OpTy> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    auto moeOp = cast<OpTy>(op);
    return !moeOp.isDpsInit(&operand) || moeOp.isDpsInitRead(operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto moeOp = cast<OpTy>(op);
    if (moeOp.hasPureBufferSemantics())
      return success();
    if (!moeOp.hasPureTensorSemantics())
      return op->emitOpError("mixes tensor and memref operands");
    rewriter.setInsertionPoint(op);
    SmallVector<Value> buffers;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    // Same attributes and properties (operand segments included: the
    // operand groups keep their sizes), buffers for operands, no results;
    // regions (a grouped matmul's scalar epilogue) move over unchanged.
    Operation *onBuffers = Operation::create(
        op->getLoc(), op->getName(), /*resultTypes=*/TypeRange(), buffers,
        NamedAttrList(op->getDiscardableAttrDictionary()),
        op->getPropertiesStorage(), /*successors=*/BlockRange(),
        op->getNumRegions());
    for (auto [from, to] : llvm::zip(op->getRegions(), onBuffers->getRegions()))
      to.takeBody(from);
    rewriter.insert(onBuffers);
    SmallVector<Value> results(
        ArrayRef(buffers).take_back(moeOp.getNumDpsInits()));
    replaceOpWithBufferizedValues(rewriter, op, results);
    return success();
  }
};

/// moe.layer has no buffer form: its meaning is the graph moe-expand-layer
/// builds, and that graph bufferizes. Say so instead of "not bufferized".
struct LayerBufferization
    : public BufferizableOpInterface::ExternalModel<LayerBufferization,
                                                    LayerOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &,
                          const BufferizationOptions &,
                          BufferizationState &) const {
    return op->emitOpError("has no buffer form: run moe-expand-layer before "
                           "bufferization");
  }
};

template <typename... OpTys> void attach(MLIRContext *ctx) {
  (OpTys::template attachInterface<DestinationStyleBufferization<OpTys>>(*ctx),
   ...);
}

} // namespace

void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, MoeDialect *) {
    attach<GateOp, RouteOp, TopKOp, AuxLossOp, ZLossOp, ExpertBiasUpdateOp,
           PermuteOp, PermuteRowsOp, GroupedMatmulOp, GroupedWeightGradOp,
           GluOp, AllToAllOp, SortChunksOp, AllReduceOp, CombineOp,
           CombineGradOp, QuantizeOp, QuantizeWithTransposeOp,
           DequantizeOp>(ctx);
    LayerOp::attachInterface<LayerBufferization>(*ctx);
  });
}

} // namespace mlir::moe
