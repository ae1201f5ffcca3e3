// Checked by scripts/test.sh: acme-opt, built against the installed package,
// runs moe-expand-layer on the small example.
// CHECK-LABEL: func.func @moe_layer
// CHECK: moe.gate
// CHECK-NEXT: moe.route softmax
// CHECK-NEXT: moe.topk softmax %{{.*}} k 2 {normalize = #moe<normalize sum>}
// CHECK-NEXT: moe.permute
// CHECK-COUNT-2: moe.grouped_matmul
// CHECK-NEXT: moe.glu silu
// CHECK-NEXT: moe.grouped_matmul
// CHECK-NEXT: moe.combine
// CHECK-NEXT: moe.aux_loss batch
// CHECK-NEXT: moe.z_loss
// CHECK-NOT: moe.layer
