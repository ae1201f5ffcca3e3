//===- InitMoe.h - one call to register everything moe ----------*- C++ -*-===//
//
// For embedders: registerMoeDialects(registry) adds the moe dialect and the
// upstream dialects moe programs use; registerMoePasses() registers every moe
// pass so that they can be named in textual pipelines.
//
//===----------------------------------------------------------------------===//
#ifndef MOEDIALECT_INITMOE_H
#define MOEDIALECT_INITMOE_H

namespace mlir {
class DialectRegistry;
namespace moe {
void registerMoeDialects(DialectRegistry &registry);
void registerMoePasses();
} // namespace moe
} // namespace mlir

#endif // MOEDIALECT_INITMOE_H
