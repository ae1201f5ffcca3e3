//===- BufferizableOpInterfaceImpl.cpp - bufferization of moe ops ---------===//
//
// Every tensor-form moe op bufferizes the same way: its results become new
// allocations, its operands are only read, and the op is replaced by its
// buffer form (moe.buffer.*) that writes into those allocations. So one
// external model, parameterized by the (tensor op, buffer op) pair, serves
// all of them; upstream one-shot-bufferize does the rest.
//
// moe.quantize with delayed scaling is the one op with an in-out buffer:
// its new amax history is a copy of the old one that the buffer op rolls.
//
//===----------------------------------------------------------------------===//
#include "MoeDialect/Dialect/BufferizableOpInterfaceImpl.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace mlir::moe {
namespace {

/// Allocates a buffer for `result`; dynamic dims are not supported yet
/// (artifacts need static shapes anyway).
FailureOr<Value> allocateResult(RewriterBase &rewriter, Operation *op,
                                OpResult result,
                                const BufferizationOptions &options) {
  auto type = cast<RankedTensorType>(result.getType());
  if (!type.hasStaticShape())
    return op->emitOpError("result #")
           << result.getResultNumber() << " has the dynamic shape " << type
           << "; bufferizing dynamic moe results is not supported yet";
  auto memref = MemRefType::get(type.getShape(), type.getElementType());
  return options.createAlloc(rewriter, op->getLoc(), memref, {});
}

/// The tensor op's properties without operand-segment bookkeeping, which the
/// buffer forms do not have.
DictionaryAttr bufferProperties(Operation *op) {
  auto props = dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute());
  if (!props)
    return DictionaryAttr::get(op->getContext());
  SmallVector<NamedAttribute> kept;
  for (NamedAttribute attr : props)
    if (attr.getName() != "operandSegmentSizes")
      kept.push_back(attr);
  return DictionaryAttr::get(op->getContext(), kept);
}

/// The analysis answers every moe op shares: operands are only read, and no
/// result aliases an operand.
template <typename ConcreteModel, typename ConcreteOp>
struct ReadOnlyOperandsModel
    : public BufferizableOpInterface::ExternalModel<ConcreteModel, ConcreteOp> {
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
};

template <typename TensorOp, typename BufferOp>
struct MoeOpBufferization
    : public ReadOnlyOperandsModel<MoeOpBufferization<TensorOp, BufferOp>,
                                   TensorOp> {
  bool bufferizesToAllocation(Operation *, Value) const { return true; }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
    }
    SmallVector<Value> results;
    for (OpResult result : op->getResults()) {
      FailureOr<Value> buffer = allocateResult(rewriter, op, result, options);
      if (failed(buffer))
        return failure();
      results.push_back(*buffer);
    }
    // Delayed quantization: the history result is a rolled copy, updated in
    // place by the buffer op instead of being an output.
    ValueRange outputs = results;
    if constexpr (std::is_same_v<TensorOp, QuantizeOp>) {
      if (cast<QuantizeOp>(op).getAmaxHistory()) {
        constexpr unsigned historyOperand = 1; // (input, amax_history)
        Value copy = results.back();
        memref::CopyOp::create(rewriter, op->getLoc(), operands[historyOperand],
                               copy);
        operands[historyOperand] = copy;
        outputs = outputs.drop_back();
      }
    }
    operands.append(outputs.begin(), outputs.end());

    OperationState bufferOpState(op->getLoc(), BufferOp::getOperationName());
    bufferOpState.addOperands(operands);
    // Inherent attributes land in the buffer op's properties.
    bufferOpState.addAttributes(bufferProperties(op).getValue());
    bufferOpState.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
    rewriter.create(bufferOpState);
    replaceOpWithBufferizedValues(rewriter, op, results);
    return success();
  }
};

/// moe.layer has no buffer form: its meaning is the graph moe-expand-layer
/// builds, and that graph bufferizes. Say so instead of "not bufferized".
struct LayerBufferization
    : public ReadOnlyOperandsModel<LayerBufferization, LayerOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &,
                          const BufferizationOptions &,
                          BufferizationState &) const {
    return op->emitOpError("has no buffer form: run moe-expand-layer before "
                           "bufferization");
  }
};

template <typename TensorOp, typename BufferOp>
void attach(MLIRContext *ctx) {
  TensorOp::template attachInterface<MoeOpBufferization<TensorOp, BufferOp>>(
      *ctx);
}

} // namespace

void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, MoeDialect *) {
    attach<GateOp, BufferGateOp>(ctx);
    attach<RouteOp, BufferRouteOp>(ctx);
    attach<TopKOp, BufferTopKOp>(ctx);
    attach<AuxLossOp, BufferAuxLossOp>(ctx);
    attach<ZLossOp, BufferZLossOp>(ctx);
    attach<ExpertBiasUpdateOp, BufferExpertBiasUpdateOp>(ctx);
    attach<PermuteOp, BufferPermuteOp>(ctx);
    attach<GroupedMatmulOp, BufferGroupedMatmulOp>(ctx);
    attach<GroupedWeightGradOp, BufferGroupedWeightGradOp>(ctx);
    attach<GluOp, BufferGluOp>(ctx);
    attach<AllToAllOp, BufferAllToAllOp>(ctx);
    attach<CombineOp, BufferCombineOp>(ctx);
    attach<CombineGradOp, BufferCombineGradOp>(ctx);
    attach<QuantizeOp, BufferQuantizeOp>(ctx);
    attach<DequantizeOp, BufferDequantizeOp>(ctx);
    LayerOp::attachInterface<LayerBufferization>(*ctx);
  });
}

} // namespace mlir::moe
