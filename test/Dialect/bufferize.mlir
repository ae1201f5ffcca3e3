// RUN: moe-opt %s -split-input-file -verify-diagnostics \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | FileCheck %s
// The ops on memrefs round-trip through the generic form:
// RUN: moe-opt %s -split-input-file -verify-diagnostics \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --mlir-print-op-generic | moe-opt -split-input-file | FileCheck %s

// Every moe op bufferizes in place into the buffers of its destinations
// (tensor.empty ones become new allocations) and is rebuilt on memrefs
// without results; operands are only read.

// CHECK-LABEL: func.func @router
// CHECK-SAME: (%[[X:.*]]: memref<4x8xbf16>, %[[W:.*]]: memref<8x4xf32>, %[[B:.*]]: memref<4xf32>)
// CHECK:      %[[L:.*]] = memref.alloc() {{.*}} : memref<4x4xf32>
// CHECK-NEXT: moe.gate %[[X]], %[[W]] outs(%[[L]]) : memref<4x8xbf16>, memref<8x4xf32> -> memref<4x4xf32>
// CHECK-NEXT: %[[S:.*]] = memref.alloc() {{.*}} : memref<4x4xf32>
// CHECK-NEXT: moe.route sigmoid %[[L]] outs(%[[S]]) : memref<4x4xf32> -> memref<4x4xf32>
// CHECK-NEXT: %[[WT:.*]] = memref.alloc() {{.*}} : memref<4x2xf32>
// CHECK-NEXT: %[[IDX:.*]] = memref.alloc() {{.*}} : memref<4x2xi32>
// CHECK-NEXT: moe.topk sigmoid %[[S]] bias %[[B]] k 2 outs(%[[WT]], %[[IDX]]) {normalize = #moe<normalize sum>} : memref<4x4xf32>, memref<4xf32> -> memref<4x2xf32>, memref<4x2xi32>
// CHECK-NEXT: %[[LOSS:.*]] = memref.alloc() {{.*}} : memref<f32>
// CHECK-NEXT: moe.aux_loss batch %[[S]], %[[IDX]] from sigmoid coeff 1.000000e-02 outs(%[[LOSS]]) : memref<4x4xf32>, memref<4x2xi32> -> memref<f32>
// CHECK: return %[[WT]], %[[IDX]], %[[LOSS]]
func.func @router(%x: tensor<4x8xbf16>, %w: tensor<8x4xf32>, %b: tensor<4xf32>)
    -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<f32>) {
  %init1 = tensor.empty() : tensor<4x4xf32>
  %l = moe.gate %x, %w outs(%init1) : tensor<4x8xbf16>, tensor<8x4xf32> -> tensor<4x4xf32>
  %init2 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route sigmoid %l outs(%init2) : tensor<4x4xf32> -> tensor<4x4xf32>
  %init3 = tensor.empty() : tensor<4x2xf32>
  %init4 = tensor.empty() : tensor<4x2xi32>
  %wt, %idx = moe.topk sigmoid %s bias %b k 2 outs(%init3, %init4) {normalize = #moe<normalize sum>} : tensor<4x4xf32>, tensor<4xf32> -> tensor<4x2xf32>, tensor<4x2xi32>
  %init5 = tensor.empty() : tensor<f32>
  %loss = moe.aux_loss batch %s, %idx from sigmoid coeff 1.0e-02 outs(%init5) : tensor<4x4xf32>, tensor<4x2xi32> -> tensor<f32>
  return %wt, %idx, %loss : tensor<4x2xf32>, tensor<4x2xi32>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @experts
// CHECK:      %[[XS:.*]] = memref.alloc() {{.*}} : memref<8x4xbf16>
// CHECK-NEXT: %[[SZ:.*]] = memref.alloc() {{.*}} : memref<4xi32>
// CHECK-NEXT: %[[ROWS:.*]] = memref.alloc() {{.*}} : memref<4x2xi32>
// CHECK-NEXT: moe.permute %{{.*}}, %{{.*}} experts 4 align 1 outs(%[[XS]], %[[SZ]], %[[ROWS]])
// CHECK:      moe.grouped_matmul %[[XS]], %{{.*}}, %[[SZ]] outs(%[[G:.*]]) {weight_layout = #moe<weight_layout nk>}
// CHECK:      moe.glu relu2 %[[G]] outs(%[[H:.*]]) : memref<8x12xbf16> -> memref<8x6xbf16>
// CHECK:      moe.combine %{{.*}}, %[[ROWS]], %{{.*}} outs(%[[OUT:.*]]) :
// CHECK:      return %[[OUT]]
func.func @experts(%x: tensor<4x4xbf16>, %idx: tensor<4x2xi32>, %w: tensor<4x2xf32>,
                   %wgu: tensor<4x12x4xbf16>, %wd: tensor<4x4x6xbf16>) -> tensor<4x4xbf16> {
  %init6 = tensor.empty() : tensor<8x4xbf16>
  %init7 = tensor.empty() : tensor<4xi32>
  %init8 = tensor.empty() : tensor<4x2xi32>
  %xs, %sz, %rows = moe.permute %x, %idx experts 4 align 1 outs(%init6, %init7, %init8) : tensor<4x4xbf16>, tensor<4x2xi32> -> tensor<8x4xbf16>, tensor<4xi32>, tensor<4x2xi32>
  %init9 = tensor.empty() : tensor<8x12xbf16>
  %gu = moe.grouped_matmul %xs, %wgu, %sz outs(%init9) {weight_layout = #moe<weight_layout nk>} : tensor<8x4xbf16>, tensor<4x12x4xbf16>, tensor<4xi32> -> tensor<8x12xbf16>
  %init10 = tensor.empty() : tensor<8x6xbf16>
  %h = moe.glu relu2 %gu outs(%init10) : tensor<8x12xbf16> -> tensor<8x6xbf16>
  %init11 = tensor.empty() : tensor<8x4xbf16>
  %y = moe.grouped_matmul %h, %wd, %sz outs(%init11) {weight_layout = #moe<weight_layout nk>} : tensor<8x6xbf16>, tensor<4x4x6xbf16>, tensor<4xi32> -> tensor<8x4xbf16>
  %init12 = tensor.empty() : tensor<4x4xbf16>
  %out = moe.combine %y, %rows, %w outs(%init12) : tensor<8x4xbf16>, tensor<4x2xi32>, tensor<4x2xf32> -> tensor<4x4xbf16>
  return %out : tensor<4x4xbf16>
}

// -----

// Delayed scaling: the history is a destination that the op reads and then
// rolls. A writable history that is not used afterwards (here the function
// argument) is rolled in place.
// CHECK-LABEL: func.func @delayed
// CHECK-SAME: (%[[X:.*]]: memref<4x8xbf16>, %[[H:.*]]: memref<16xf32>)
// CHECK:      %[[Q:.*]] = memref.alloc() {{.*}} : memref<4x8xf8E4M3FN>
// CHECK-NEXT: %[[S:.*]] = memref.alloc() {{.*}} : memref<f32>
// CHECK-NEXT: moe.quantize delayed %[[X]] outs(%[[Q]], %[[S]], %[[H]]) : memref<4x8xbf16> -> memref<4x8xf8E4M3FN>, memref<f32>, memref<16xf32>
// CHECK-NEXT: return %[[Q]], %[[S]], %[[H]]
func.func @delayed(%x: tensor<4x8xbf16>, %h: tensor<16xf32>)
    -> (tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>) {
  %init13 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %init14 = tensor.empty() : tensor<f32>
  %q, %s, %nh = moe.quantize delayed %x outs(%init13, %init14, %h) : tensor<4x8xbf16> -> tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>
  return %q, %s, %nh : tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>
}

// -----

// When the old history is still used after the op, the op rolls a copy:
// the history is read, so the copy carries its values.
// CHECK-LABEL: func.func @delayed_history_reused
// CHECK-SAME: (%[[X:.*]]: memref<4x8xbf16>, %[[H:.*]]: memref<16xf32>)
// CHECK:      %[[NH:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// CHECK-NEXT: memref.copy %[[H]], %[[NH]]
// CHECK-NEXT: moe.quantize delayed %[[X]] outs(%{{.*}}, %{{.*}}, %[[NH]])
// CHECK-NEXT: return %[[NH]], %[[H]]
func.func @delayed_history_reused(%x: tensor<4x8xbf16>, %h: tensor<16xf32>)
    -> (tensor<16xf32>, tensor<16xf32>) {
  %q0 = tensor.empty() : tensor<4x8xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s, %nh = moe.quantize delayed %x outs(%q0, %s0, %h) : tensor<4x8xbf16> -> tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>
  return %nh, %h : tensor<16xf32>, tensor<16xf32>
}

// -----

// FP8 matmul scales stay the optional scale operands.
// CHECK-LABEL: func.func @fp8
// CHECK: moe.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} scales(%{{.*}}, %{{.*}}) outs(%{{.*}}) : memref<16x256xf8E4M3FN>, memref<2x256x128xf8E4M3FN>, memref<2xi32>, memref<16x2xf32>, memref<2x2x1xf32> -> memref<16x128xbf16>
func.func @fp8(%a: tensor<16x256xf8E4M3FN>, %b: tensor<2x256x128xf8E4M3FN>, %sz: tensor<2xi32>,
               %as: tensor<16x2xf32>, %bs: tensor<2x2x1xf32>) -> tensor<16x128xbf16> {
  %init15 = tensor.empty() : tensor<16x128xbf16>
  %c = moe.grouped_matmul %a, %b, %sz scales(%as, %bs) outs(%init15) : tensor<16x256xf8E4M3FN>, tensor<2x256x128xf8E4M3FN>, tensor<2xi32>, tensor<16x2xf32>, tensor<2x2x1xf32> -> tensor<16x128xbf16>
  return %c : tensor<16x128xbf16>
}

// -----

// The collective bufferizes like the rest; its grid stays named.
// CHECK-LABEL: func.func @exchange
// CHECK: moe.all_to_all %{{.*}}, %{{.*}} on @ep axis 0 outs(%{{.*}}, %{{.*}}) : memref<8x4xbf16>, memref<4xi32> -> memref<16x4xbf16>, memref<4xi32>
shard.grid @ep(shape = 4)
func.func @exchange(%x: tensor<8x4xbf16>, %send: tensor<4xi32>) -> (tensor<16x4xbf16>, tensor<4xi32>) {
  %init16 = tensor.empty() : tensor<16x4xbf16>
  %init17 = tensor.empty() : tensor<4xi32>
  %y, %r = moe.all_to_all %x, %send on @ep axis 0 outs(%init16, %init17) : tensor<8x4xbf16>, tensor<4xi32> -> tensor<16x4xbf16>, tensor<4xi32>
  return %y, %r : tensor<16x4xbf16>, tensor<4xi32>
}

// -----

// sort_chunks and all_reduce write into their destinations' buffers; the
// reordered rows feed the sum's operand unchanged.
// CHECK-LABEL: func.func @chunks_and_sum
// CHECK-SAME: (%[[X:.*]]: memref<8x4xbf16>, %[[C:.*]]: memref<6xi32>, %[[L:.*]]: memref<f32>)
// CHECK:      %[[Y:.*]] = memref.alloc() {{.*}} : memref<8x4xbf16>
// CHECK-NEXT: %[[S:.*]] = memref.alloc() {{.*}} : memref<3xi32>
// CHECK-NEXT: moe.sort_chunks inverse %[[X]], %[[C]] outs(%[[Y]], %[[S]]) : memref<8x4xbf16>, memref<6xi32> -> memref<8x4xbf16>, memref<3xi32>
// CHECK-NEXT: %[[T:.*]] = memref.alloc() {{.*}} : memref<f32>
// CHECK-NEXT: moe.all_reduce %[[L]] on @ep_sum axes [0] outs(%[[T]]) : memref<f32> -> memref<f32>
// CHECK: return %[[Y]], %[[S]], %[[T]]
shard.grid @ep_sum(shape = 4)
func.func @chunks_and_sum(%x: tensor<8x4xbf16>, %c: tensor<6xi32>, %l: tensor<f32>) -> (tensor<8x4xbf16>, tensor<3xi32>, tensor<f32>) {
  %y0 = tensor.empty() : tensor<8x4xbf16>
  %s0 = tensor.empty() : tensor<3xi32>
  %y, %s = moe.sort_chunks inverse %x, %c outs(%y0, %s0) : tensor<8x4xbf16>, tensor<6xi32> -> tensor<8x4xbf16>, tensor<3xi32>
  %t0 = tensor.empty() : tensor<f32>
  %t = moe.all_reduce %l on @ep_sum axes [0] outs(%t0) : tensor<f32> -> tensor<f32>
  return %y, %s, %t : tensor<8x4xbf16>, tensor<3xi32>, tensor<f32>
}

// -----

func.func @layer_first(%x: tensor<4x4xbf16>, %wr: tensor<4x4xf32>, %wg: tensor<4x4x4xbf16>,
                       %wu: tensor<4x4x4xbf16>, %wd: tensor<4x4x4xbf16>) -> tensor<4x4xbf16> {
  // expected-error @+2 {{'moe.layer' op has no buffer form: run moe-expand-layer before bufferization}}
  // expected-error @+1 {{failed to bufferize op}}
  %out, %aux = moe.layer %x, %wr experts(%wg, %wu, %wd)
      {k = 2 : i64, score_function = #moe<score_function softmax>}
      : (tensor<4x4xbf16>, tensor<4x4xf32>, tensor<4x4x4xbf16>, tensor<4x4x4xbf16>, tensor<4x4x4xbf16>)
      -> (tensor<4x4xbf16>, tensor<f32>)
  return %out : tensor<4x4xbf16>
}
