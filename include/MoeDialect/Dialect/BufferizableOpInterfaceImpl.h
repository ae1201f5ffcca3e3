//===- BufferizableOpInterfaceImpl.h - bufferization of moe ops -*- C++ -*-===//
#ifndef MOEDIALECT_DIALECT_BUFFERIZABLEOPINTERFACEIMPL_H
#define MOEDIALECT_DIALECT_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace moe {
/// Attaches BufferizableOpInterface to every moe op: each bufferizes in place
/// into the buffers of its destinations (moe.layer has to be expanded first).
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace moe
} // namespace mlir

#endif // MOEDIALECT_DIALECT_BUFFERIZABLEOPINTERFACEIMPL_H
