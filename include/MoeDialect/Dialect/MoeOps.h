//===- MoeOps.h - operations of the moe dialect -----------------*- C++ -*-===//
#ifndef MOEDIALECT_DIALECT_MOEOPS_H
#define MOEDIALECT_DIALECT_MOEOPS_H

#include "MoeDialect/Dialect/MoeDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "MoeDialect/Dialect/VJPContext.h"

#include "MoeDialect/Dialect/MoeEnums.h.inc"
#include "MoeDialect/Dialect/MoeInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "MoeDialect/Dialect/MoeAttrs.h.inc"

namespace mlir::moe {
/// Side-effect resource of collective communication: moe.all_to_all reads
/// and writes it, so collectives are neither removed nor reordered.
struct CommunicationResource
    : public SideEffects::Resource::Base<CommunicationResource> {
  StringRef getName() final { return "moe.communication"; }
};

//===----------------------------------------------------------------------===//
// Destination-passing style (Moe_DpsOp in MoeOps.td)
//===----------------------------------------------------------------------===//

/// Checks what every destination-style moe op shares: all operands tensors or
/// all memrefs; `numDestinations` destinations (up to `numOptional` more);
/// on tensors one result per destination, of its type; on memrefs none.
LogicalResult verifyDestinations(Operation *op, unsigned numDestinations,
                                 unsigned numOptional);

template <typename ConcreteType>
class DestinationsMatchResults
    : public OpTrait::TraitBase<ConcreteType, DestinationsMatchResults> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyDestinations(op, ConcreteType::kNumDestinations,
                              ConcreteType::kNumOptionalDestinations);
  }
};

/// The result types of a destination-style moe op: those of its tensor
/// destinations (none on memrefs).
LogicalResult inferDestinationTypes(ValueRange outs,
                                    SmallVectorImpl<Type> &inferred);

/// Memory effects on buffers: the inputs are read, each destination is
/// written (and read first where `isInitRead` says so). None on tensors.
void getDestinationStyleEffects(
    Operation *op, function_ref<bool(OpOperand &)> isInitRead,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects);
template <typename OpT>
void getDestinationStyleEffects(
    OpT op, SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                &effects) {
  getDestinationStyleEffects(
      op, [&](OpOperand &init) { return op.isDpsInitRead(init); }, effects);
}

/// Names the results of an op with more than one (`names` in CamelCase,
/// printed in snake_case: `%weights, %indices = moe.topk ...`).
void setResultNames(Operation *op, ArrayRef<StringLiteral> names,
                    OpAsmSetValueNameFn setNameFn);

/// The destinations of a moe op built without them: one tensor.empty per
/// type of `types`. Dim d of a dynamic types[i] gets the size
/// `dynamicSize(i, d)`.
SmallVector<Value>
createEmptyDestinations(OpBuilder &b, Location loc, TypeRange types,
                        function_ref<Value(unsigned, unsigned)> dynamicSize);
} // namespace mlir::moe

#define GET_OP_CLASSES
#include "MoeDialect/Dialect/MoeOps.h.inc"

namespace mlir::moe {
/// gemm=auto's backend choice (opmath::autoPrefersGeneratedGroupedGemm) for
/// a bf16/f32 moe.grouped_matmul or moe.grouped_weight_grad, on tensors or
/// buffers, from its group count and its ragged rows; true for FP8 ones
/// (always generated); false for other ops.
bool autoPrefersGeneratedKernel(Operation *groupedGemm);
} // namespace mlir::moe

#endif // MOEDIALECT_DIALECT_MOEOPS_H
