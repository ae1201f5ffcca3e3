// A tensor.dim or memref.dim whose constant index is outside [0, rank) is
// undefined behaviour that the verifiers accept; both pipelines reject it at
// the op before anything runs (upstream memref.dim canonicalization indexed
// a memref.alloc's shape with it: fuzz seed 79, case 1552).
// RUN: not moe-opt %s -split-input-file --pass-pipeline='builtin.module(moe-lower-to-gpu{chip=sm_90a})' 2>&1 | FileCheck %s
// RUN: not moe-opt %s -split-input-file --pass-pipeline='builtin.module(moe-lower-to-cpu)' 2>&1 | FileCheck %s

// CHECK: error: 'tensor.dim' op index -1 is out of range for its rank-2 operand (0 to 1)
func.func @negative(%y: tensor<?x?xf16>) -> tensor<?x32xf16> {
  %c = arith.constant -1 : index
  %r = tensor.dim %y, %c : tensor<?x?xf16>
  %e = tensor.empty(%r) : tensor<?x32xf16>
  return %e : tensor<?x32xf16>
}

// -----

// CHECK: error: 'memref.dim' op index 2 is out of range for its rank-2 operand (0 to 1)
func.func @past_rank(%y: memref<?x?xf32>) -> index {
  %c = arith.constant 2 : index
  %r = memref.dim %y, %c : memref<?x?xf32>
  return %r : index
}

