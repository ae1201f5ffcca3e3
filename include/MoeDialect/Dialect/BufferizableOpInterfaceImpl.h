//===- BufferizableOpInterfaceImpl.h - bufferization of moe ops -*- C++ -*-===//
#ifndef MOEDIALECT_DIALECT_BUFFERIZABLEOPINTERFACEIMPL_H
#define MOEDIALECT_DIALECT_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace moe {
/// Attaches BufferizableOpInterface to every tensor-form moe op: each
/// bufferizes to its moe.buffer.* form writing into new allocations.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace moe
} // namespace mlir

#endif // MOEDIALECT_DIALECT_BUFFERIZABLEOPINTERFACEIMPL_H
