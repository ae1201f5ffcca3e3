// Finite-difference check of moe.all_to_all's adjoint (the reverse exchange
// with the received counts) on a one-rank grid, where the op is the identity
// on the rows it sends and zero elsewhere. The output has more rows than the
// input so that the op does not fold away. The send count comes from the
// group sizes of a one-expert moe.permute of `sel` (16 rows of the 20 in x are
// sent; the other 4 rows get a zero gradient). a2a_dispatch sends the
// permuted rows of x itself, so x's gradient goes through both adjoints.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=IR
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: moe-gradcheck %t --entry a2a --seed 1 --per-input | FileCheck %s --check-prefix=A2A
// RUN: moe-gradcheck %t --entry a2a --seed 2 --per-input | FileCheck %s --check-prefix=A2A
// RUN: moe-gradcheck %t --entry a2a_dispatch --seed 1 --per-input | FileCheck %s --check-prefix=DISPATCH
// RUN: moe-gradcheck %t --entry a2a_dispatch --seed 2 --per-input | FileCheck %s --check-prefix=DISPATCH

// The backward exchanges back (the adjoint is itself a moe.all_to_all).
// IR-LABEL: func.func @a2a_bwd(
// IR:       moe.all_to_all {{.*}} on @ep axis 0 outs({{.*}}) : tensor<24x8xf32>, tensor<1xi32> -> tensor<20x8xf32>, tensor<1xi32>

// A2A:      gradients: d_x [20, 8] f32 (all finite)
// A2A-NEXT: check x: {{.*}} ok
// A2A-NEXT: PASS

// DISPATCH:      gradients: d_x [16, 8] f32 (all finite)
// DISPATCH-NEXT: check x: {{.*}} ok
// DISPATCH-NEXT: PASS

shard.grid @ep(shape = 1)

func.func @a2a(%x: tensor<20x8xf32> {moe.name = "x"}, %sel: tensor<16x1xf32> {moe.name = "sel"})
    -> (tensor<24x8xf32> {moe.name = "y"}) {
  %init1 = tensor.empty() : tensor<16x1xf32>
  %init2 = tensor.empty() : tensor<16x1xi32>
  %w, %i = moe.topk softmax %sel k 1 outs(%init1, %init2) : tensor<16x1xf32> -> tensor<16x1xf32>, tensor<16x1xi32>
  %init3 = tensor.empty() : tensor<16x1xf32>
  %init4 = tensor.empty() : tensor<1xi32>
  %init5 = tensor.empty() : tensor<16x1xi32>
  %xs, %sizes, %rows = moe.permute %sel, %i experts 1 align 1 outs(%init3, %init4, %init5) : tensor<16x1xf32>, tensor<16x1xi32> -> tensor<16x1xf32>, tensor<1xi32>, tensor<16x1xi32>
  %init6 = tensor.empty() : tensor<24x8xf32>
  %init7 = tensor.empty() : tensor<1xi32>
  %y, %recv = moe.all_to_all %x, %sizes on @ep axis 0 outs(%init6, %init7) : tensor<20x8xf32>, tensor<1xi32> -> tensor<24x8xf32>, tensor<1xi32>
  return %y : tensor<24x8xf32>
}

func.func @a2a_dispatch(%x: tensor<16x8xf32> {moe.name = "x"}, %sel: tensor<16x1xf32> {moe.name = "sel"})
    -> (tensor<24x8xf32> {moe.name = "y"}) {
  %init8 = tensor.empty() : tensor<16x1xf32>
  %init9 = tensor.empty() : tensor<16x1xi32>
  %w, %i = moe.topk softmax %sel k 1 outs(%init8, %init9) : tensor<16x1xf32> -> tensor<16x1xf32>, tensor<16x1xi32>
  %init10 = tensor.empty() : tensor<16x8xf32>
  %init11 = tensor.empty() : tensor<1xi32>
  %init12 = tensor.empty() : tensor<16x1xi32>
  %xs, %sizes, %rows = moe.permute %x, %i experts 1 align 1 outs(%init10, %init11, %init12) : tensor<16x8xf32>, tensor<16x1xi32> -> tensor<16x8xf32>, tensor<1xi32>, tensor<16x1xi32>
  %init13 = tensor.empty() : tensor<24x8xf32>
  %init14 = tensor.empty() : tensor<1xi32>
  %y, %recv = moe.all_to_all %xs, %sizes on @ep axis 0 outs(%init13, %init14) : tensor<16x8xf32>, tensor<1xi32> -> tensor<24x8xf32>, tensor<1xi32>
  return %y : tensor<24x8xf32>
}
