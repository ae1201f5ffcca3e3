//===- VJPInterfaceImpl.h - adjoints of the moe ops -------------*- C++ -*-===//
#ifndef MOEDIALECT_DIALECT_VJPINTERFACEIMPL_H
#define MOEDIALECT_DIALECT_VJPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace moe {
/// Attaches VJPOpInterface (the adjoint) to every differentiable moe op.
void registerVJPInterfaceExternalModels(DialectRegistry &registry);
} // namespace moe
} // namespace mlir

#endif // MOEDIALECT_DIALECT_VJPINTERFACEIMPL_H
