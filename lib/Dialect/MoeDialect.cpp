//===- MoeDialect.cpp - the moe dialect ------------------------------------===//
#include "MoeDialect/Dialect/MoeDialect.h"
#include "MoeDialect/Dialect/MoeOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::moe;

#include "MoeDialect/Dialect/MoeDialect.cpp.inc"
#include "MoeDialect/Dialect/MoeEnums.cpp.inc"
#include "MoeDialect/Dialect/MoeInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "MoeDialect/Dialect/MoeAttrs.cpp.inc"

void MoeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "MoeDialect/Dialect/MoeOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "MoeDialect/Dialect/MoeAttrs.cpp.inc"
      >();
}
