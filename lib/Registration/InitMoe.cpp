//===- InitMoe.cpp - one call to register everything moe -------------------===//
#include "MoeDialect/InitMoe.h"

#include "MoeDialect/Conversion/GPUCodegen/Passes.h"
#include "MoeDialect/Conversion/Passes.h"
#include "MoeDialect/Conversion/Pipelines.h"
#include "MoeDialect/Dialect/BufferizableOpInterfaceImpl.h"
#include "MoeDialect/Dialect/MoeDialect.h"
#include "MoeDialect/Dialect/UpstreamVJPInterfaceImpl.h"
#include "MoeDialect/Dialect/VJPInterfaceImpl.h"
#include "MoeDialect/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::moe::registerMoeDialects(DialectRegistry &registry) {
  registry.insert<MoeDialect, arith::ArithDialect, func::FuncDialect,
                  linalg::LinalgDialect, math::MathDialect, shard::ShardDialect,
                  tensor::TensorDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
  registerVJPInterfaceExternalModels(registry);
  registerUpstreamVJPInterfaceExternalModels(registry);
}

void mlir::moe::registerMoePasses() {
  registerMoeTransformsPasses();
  registerMoeConversionPasses();
  registerMoeGPUCodegenPasses();
  registerMoePipelines();
}
