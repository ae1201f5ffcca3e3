// Finite-difference check of moe.sort_chunks' adjoint (the reorder with
// `inverse` flipped) and of the chunked one-rank moe.all_to_all's (the
// reverse exchange). counts are constants with uneven and empty chunks and
// Σ = 9 of the 12 rows of x, so rows 9..11 of x get a zero gradient and
// rows 9..11 of the output are zero.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=IR
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry sort --seed 1 --per-input | FileCheck %s --check-prefix=SORT
// RUN: moe-gradcheck %t --entry sort --seed 2 --per-input | FileCheck %s --check-prefix=SORT
// RUN: moe-gradcheck %t --entry sort_inverse --seed 1 --per-input | FileCheck %s --check-prefix=SORT
// RUN: moe-gradcheck %t --entry sort_inverse --seed 2 --per-input | FileCheck %s --check-prefix=SORT
// RUN: moe-gradcheck %t --entry exchange_chunks --seed 1 --per-input | FileCheck %s --check-prefix=SORT

// IR-LABEL: func.func @sort_bwd(
// IR:       moe.sort_chunks inverse {{.*}} : tensor<12x8xf32>, tensor<6xi32> -> tensor<12x8xf32>, tensor<3xi32>
// IR-LABEL: func.func @sort_inverse_bwd(
// IR:       moe.sort_chunks {{%.*}}, {{%.*}} outs({{.*}}) : tensor<12x8xf32>, tensor<6xi32> -> tensor<12x8xf32>, tensor<2xi32>
// IR-LABEL: func.func @exchange_chunks_bwd(
// IR:       moe.all_to_all {{.*}} on @one axis 0 outs({{.*}}) : tensor<14x8xf32>, tensor<3xi32> -> tensor<12x8xf32>, tensor<3xi32>

// SORT:      gradients: d_x [12, 8] f32 (all finite)
// SORT-NEXT: check x: {{.*}} ok
// SORT-NEXT: PASS

shard.grid @one(shape = 1)

// P = 3, C = 2: chunk (p, c) has counts[2p + c] rows.
func.func @sort(%x: tensor<12x8xf32> {moe.name = "x"}) -> (tensor<12x8xf32> {moe.name = "y"}) {
  %counts = arith.constant dense<[2, 1, 0, 3, 3, 0]> : tensor<6xi32>
  %y0 = tensor.empty() : tensor<12x8xf32>
  %s0 = tensor.empty() : tensor<2xi32>
  %y, %sizes = moe.sort_chunks %x, %counts outs(%y0, %s0) : tensor<12x8xf32>, tensor<6xi32> -> tensor<12x8xf32>, tensor<2xi32>
  return %y : tensor<12x8xf32>
}

func.func @sort_inverse(%x: tensor<12x8xf32> {moe.name = "x"}) -> (tensor<12x8xf32> {moe.name = "y"}) {
  %counts = arith.constant dense<[2, 1, 0, 3, 3, 0]> : tensor<6xi32>
  %y0 = tensor.empty() : tensor<12x8xf32>
  %s0 = tensor.empty() : tensor<3xi32>
  %y, %sizes = moe.sort_chunks inverse %x, %counts outs(%y0, %s0) : tensor<12x8xf32>, tensor<6xi32> -> tensor<12x8xf32>, tensor<3xi32>
  return %y : tensor<12x8xf32>
}

// C = 3 chunks for the one rank (a larger output, so that it does not fold).
func.func @exchange_chunks(%x: tensor<12x8xf32> {moe.name = "x"}) -> (tensor<14x8xf32> {moe.name = "y"}) {
  %send = arith.constant dense<[4, 0, 5]> : tensor<3xi32>
  %y0 = tensor.empty() : tensor<14x8xf32>
  %r0 = tensor.empty() : tensor<3xi32>
  %y, %recv = moe.all_to_all %x, %send on @one axis 0 outs(%y0, %r0) : tensor<12x8xf32>, tensor<3xi32> -> tensor<14x8xf32>, tensor<3xi32>
  return %y : tensor<14x8xf32>
}
