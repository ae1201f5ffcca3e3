// Checked by scripts/test.sh: acme-opt, built against the installed package,
// runs moe-expand-layer on the small example.
// CHECK-LABEL: func.func @moe_layer
// CHECK: moe.gate
// CHECK: moe.route softmax
// CHECK: moe.topk softmax %{{.*}} k 2 outs(%{{.*}}, %{{.*}}) {normalize = #moe<normalize sum>}
// CHECK: moe.permute
// CHECK: moe.grouped_matmul
// CHECK: moe.grouped_matmul
// CHECK: moe.glu silu
// CHECK: moe.grouped_matmul
// CHECK: moe.combine
// CHECK: moe.aux_loss batch
// CHECK: moe.z_loss
// CHECK-NOT: moe.layer
