//===- MoeDialect.h - the moe dialect ---------------------------*- C++ -*-===//
#ifndef MOEDIALECT_DIALECT_MOEDIALECT_H
#define MOEDIALECT_DIALECT_MOEDIALECT_H

#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/IR/Dialect.h"

#include "MoeDialect/Dialect/MoeDialect.h.inc"

#endif // MOEDIALECT_DIALECT_MOEDIALECT_H
