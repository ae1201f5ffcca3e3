// RUN: moe-opt %s -split-input-file -verify-diagnostics \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | FileCheck %s
// The buffer forms round-trip through the generic form:
// RUN: moe-opt %s -split-input-file -verify-diagnostics \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --mlir-print-op-generic | moe-opt -split-input-file | FileCheck %s

// Every tensor-form moe op bufferizes to its moe.buffer.* form writing into
// new allocations; operands are only read.

// CHECK-LABEL: func.func @router
// CHECK-SAME: (%[[X:.*]]: memref<4x8xbf16>, %[[W:.*]]: memref<8x4xf32>, %[[B:.*]]: memref<4xf32>)
// CHECK:      %[[L:.*]] = memref.alloc() {{.*}} : memref<4x4xf32>
// CHECK-NEXT: moe.buffer.gate(%[[X]], %[[W]], %[[L]]) : (memref<4x8xbf16>, memref<8x4xf32>, memref<4x4xf32>) -> ()
// CHECK-NEXT: %[[S:.*]] = memref.alloc() {{.*}} : memref<4x4xf32>
// CHECK-NEXT: moe.buffer.route(%[[L]], %[[S]]) {score_function = #moe<score_function sigmoid>}
// CHECK-NEXT: %[[WT:.*]] = memref.alloc() {{.*}} : memref<4x2xf32>
// CHECK-NEXT: %[[IDX:.*]] = memref.alloc() {{.*}} : memref<4x2xi32>
// CHECK-NEXT: moe.buffer.topk(%[[S]], %[[B]], %[[WT]], %[[IDX]]) {{{.*}}k = 2 : i64{{.*}}normalize = #moe<normalize sum>{{.*}}score_function = #moe<score_function sigmoid>{{.*}}} : (memref<4x4xf32>, memref<4xf32>, memref<4x2xf32>, memref<4x2xi32>) -> ()
// CHECK-NEXT: %[[LOSS:.*]] = memref.alloc() {{.*}} : memref<f32>
// CHECK-NEXT: moe.buffer.aux_loss(%[[S]], %[[IDX]], %[[LOSS]]) {coeff = 1.000000e-02 : f64, score_function = #moe<score_function sigmoid>, variant = #moe<aux_loss_variant batch>}
// CHECK: return %[[WT]], %[[IDX]], %[[LOSS]]
func.func @router(%x: tensor<4x8xbf16>, %w: tensor<8x4xf32>, %b: tensor<4xf32>)
    -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<f32>) {
  %l = moe.gate %x, %w : tensor<4x8xbf16>, tensor<8x4xf32>
  %s = moe.route sigmoid %l : tensor<4x4xf32>
  %wt, %idx = moe.topk sigmoid %s bias %b k 2 {normalize = #moe<normalize sum>} : tensor<4x4xf32>, tensor<4xf32>
  %loss = moe.aux_loss batch %s, %idx from sigmoid coeff 1.0e-02 : tensor<4x4xf32>, tensor<4x2xi32>
  return %wt, %idx, %loss : tensor<4x2xf32>, tensor<4x2xi32>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @experts
// CHECK:      %[[XS:.*]] = memref.alloc() {{.*}} : memref<8x4xbf16>
// CHECK-NEXT: %[[SZ:.*]] = memref.alloc() {{.*}} : memref<4xi32>
// CHECK-NEXT: %[[ROWS:.*]] = memref.alloc() {{.*}} : memref<4x2xi32>
// CHECK-NEXT: moe.buffer.permute(%{{.*}}, %{{.*}}, %[[XS]], %[[SZ]], %[[ROWS]]) {num_experts = 4 : i64}
// CHECK:      moe.buffer.grouped_matmul(%[[XS]], %{{.*}}, %[[SZ]], %[[G:.*]]) {weight_layout = #moe<weight_layout nk>}
// CHECK:      moe.buffer.glu(%[[G]], %[[H:.*]]) {activation = #moe<activation relu2>} : (memref<8x12xbf16>, memref<8x6xbf16>) -> ()
// CHECK:      moe.buffer.combine(%[[H2:.*]], %[[ROWS]], %{{.*}}, %[[OUT:.*]]) :
// CHECK:      return %[[OUT]]
func.func @experts(%x: tensor<4x4xbf16>, %idx: tensor<4x2xi32>, %w: tensor<4x2xf32>,
                   %wgu: tensor<4x12x4xbf16>, %wd: tensor<4x4x6xbf16>) -> tensor<4x4xbf16> {
  %xs, %sz, %rows = moe.permute %x, %idx experts 4 align 1 : tensor<4x4xbf16>, tensor<4x2xi32>
  %gu = moe.grouped_matmul %xs, %wgu, %sz {weight_layout = #moe<weight_layout nk>}
      : (tensor<8x4xbf16>, tensor<4x12x4xbf16>, tensor<4xi32>) -> tensor<8x12xbf16>
  %h = moe.glu relu2 %gu : tensor<8x12xbf16>
  %y = moe.grouped_matmul %h, %wd, %sz {weight_layout = #moe<weight_layout nk>}
      : (tensor<8x6xbf16>, tensor<4x4x6xbf16>, tensor<4xi32>) -> tensor<8x4xbf16>
  %out = moe.combine %y, %rows, %w : tensor<8x4xbf16>, tensor<4x2xi32>, tensor<4x2xf32>
  return %out : tensor<4x4xbf16>
}

// -----

// Delayed scaling: the new history is a copy of the old one, rolled in place
// by the buffer op; the caller's history is not written.
// CHECK-LABEL: func.func @delayed
// CHECK-SAME: (%[[X:.*]]: memref<4x8xbf16>, %[[H:.*]]: memref<16xf32>)
// CHECK:      %[[Q:.*]] = memref.alloc() {{.*}} : memref<4x8xf8E4M3FN>
// CHECK-NEXT: %[[S:.*]] = memref.alloc() {{.*}} : memref<f32>
// CHECK-NEXT: %[[NH:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// CHECK-NEXT: memref.copy %[[H]], %[[NH]]
// CHECK-NEXT: moe.buffer.quantize(%[[X]], %[[NH]], %[[Q]], %[[S]]) {recipe = #moe<recipe delayed>}
// CHECK-NEXT: return %[[Q]], %[[S]], %[[NH]]
func.func @delayed(%x: tensor<4x8xbf16>, %h: tensor<16xf32>)
    -> (tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>) {
  %q, %s, %nh = moe.quantize delayed %x history %h
      : (tensor<4x8xbf16>, tensor<16xf32>) -> (tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>)
  return %q, %s, %nh : tensor<4x8xf8E4M3FN>, tensor<f32>, tensor<16xf32>
}

// -----

// FP8 matmul scales travel as the buffer op's `scales`.
// CHECK-LABEL: func.func @fp8
// CHECK: moe.buffer.grouped_matmul(%{{.*}}, %{{.*}}, %{{.*}}, %[[AS:.*]], %[[BS:.*]], %{{.*}}) : (memref<16x256xf8E4M3FN>, memref<2x256x128xf8E4M3FN>, memref<2xi32>, memref<16x2xf32>, memref<2x2x1xf32>, memref<16x128xbf16>) -> ()
func.func @fp8(%a: tensor<16x256xf8E4M3FN>, %b: tensor<2x256x128xf8E4M3FN>, %sz: tensor<2xi32>,
               %as: tensor<16x2xf32>, %bs: tensor<2x2x1xf32>) -> tensor<16x128xbf16> {
  %c = moe.grouped_matmul %a, %b, %sz scales(%as, %bs)
      : (tensor<16x256xf8E4M3FN>, tensor<2x256x128xf8E4M3FN>, tensor<2xi32>, tensor<16x2xf32>, tensor<2x2x1xf32>) -> tensor<16x128xbf16>
  return %c : tensor<16x128xbf16>
}

// -----

// The collective bufferizes like the rest; its grid stays named.
// CHECK-LABEL: func.func @exchange
// CHECK: moe.buffer.all_to_all(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {grid = @ep, grid_axis = 0 : i64}
shard.grid @ep(shape = 4)
func.func @exchange(%x: tensor<8x4xbf16>, %send: tensor<4xi32>) -> (tensor<16x4xbf16>, tensor<4xi32>) {
  %y, %r = moe.all_to_all %x, %send on @ep axis 0
      : (tensor<8x4xbf16>, tensor<4xi32>) -> (tensor<16x4xbf16>, tensor<4xi32>)
  return %y, %r : tensor<16x4xbf16>, tensor<4xi32>
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
