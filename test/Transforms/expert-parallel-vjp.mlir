// RUN: moe-opt %moe_src_root/examples/small.mlir --moe-expert-parallel=ranks=2 --moe-generate-vjp | FileCheck %s
// RUN: moe-opt %moe_src_root/examples/small.mlir --moe-generate-vjp | FileCheck %s --check-prefix=ONE

// The backward of the partitioned small layer (P = 2): the sharding
// annotations go through moe-generate-vjp. Primal arguments keep theirs,
// d_out is split like out, d_aux_loss is replicated like aux_loss, d_x and
// the expert-weight gradients are split like their arguments, and the
// router weight's gradient is this rank's partial sum. Residuals are
// rank-local: no annotation.

// CHECK-LABEL: func.func @moe_layer_fwd
// CHECK-SAME:    tensor<32x32xbf16> {moe.name = "x", moe.role = "input", moe.split_dim = 0 : i64}
// CHECK-SAME:    tensor<32x8xf32> {moe.name = "router_weight", moe.role = "weight"}
// CHECK-SAME:    tensor<4x32x48xbf16> {moe.name = "w_gate", moe.role = "weight", moe.split_dim = 0 : i64}
// CHECK-SAME:    -> (tensor<32x32xbf16> {moe.name = "out", moe.role = "output", moe.split_dim = 0 : i64},
// CHECK-SAME:        tensor<f32> {moe.name = "aux_loss", moe.role = "output"},
// CHECK-SAME:        {moe.name = "res0", moe.role = "residual"}
// CHECK-NOT:     moe.partial_sum
// CHECK-SAME:    {

// The exchange and its adjoints are in the backward.
// CHECK-LABEL: func.func @moe_layer_bwd
// CHECK-SAME:    tensor<4x48x32xbf16> {moe.name = "w_down", moe.role = "weight", moe.split_dim = 0 : i64}
// CHECK-SAME:    tensor<32x32xbf16> {moe.name = "x", moe.role = "input", moe.split_dim = 0 : i64}
// CHECK-SAME:    tensor<32x8xf32> {moe.name = "router_weight", moe.role = "weight"}
// CHECK-SAME:    tensor<32x32xbf16> {moe.name = "d_out", moe.role = "cotangent", moe.split_dim = 0 : i64}
// CHECK-SAME:    tensor<f32> {moe.name = "d_aux_loss", moe.role = "cotangent"})
// CHECK-SAME:    -> (tensor<32x32xbf16> {moe.name = "d_x", moe.role = "gradient", moe.split_dim = 0 : i64},
// CHECK-SAME:        tensor<32x8xf32> {moe.name = "d_router_weight", moe.partial_sum, moe.role = "gradient"},
// CHECK-SAME:        tensor<4x32x48xbf16> {moe.name = "d_w_gate", moe.role = "gradient", moe.split_dim = 0 : i64},
// CHECK-SAME:        tensor<4x32x48xbf16> {moe.name = "d_w_up", moe.role = "gradient", moe.split_dim = 0 : i64},
// CHECK-SAME:        tensor<4x48x32xbf16> {moe.name = "d_w_down", moe.role = "gradient", moe.split_dim = 0 : i64})
// CHECK-DAG:   moe.all_to_all {{.*}} on @ep axis 0
// CHECK-DAG:   moe.sort_chunks inverse
// CHECK-DAG:   moe.grouped_weight_grad {{.*}} : tensor<128x32xbf16>, tensor<128x48xbf16>, tensor<4xi32> -> tensor<4x32x48xbf16>

// An unpartitioned function gets no annotation.
// ONE-LABEL: func.func @moe_layer_bwd
// ONE-NOT:   moe.split_dim
// ONE-NOT:   moe.partial_sum
