// RUN: moe-opt %s -split-input-file --convert-moe-to-parallel-loops="fuse-combine-grad-quantize" | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-moe-to-parallel-loops | FileCheck %s --check-prefix=APART

// fuse-combine-grad-quantize: a moe.quantize_with_transpose of a
// moe.combine_grad's dy that nothing else reads (the FP8 backward's fc2
// output gradient) becomes the staged schedule gathering dy's rows: where
// the combine_grad was, its dweights (a warp per pair) and each row's pair
// count and pair (two [R] i32 buffers); at the quantize, step 1 of each
// tile loads its 8 rows' counts, then their pairs, then each pair's weight
// and 16 bytes of its dout row (no branch), 0 + w · g where one pair names
// the row (else 0), rounded to bf16 into the shared tile; then one loop
// over the thread's 8 rows redoes, under an scf.if, a row that several
// pairs name (the scan, rare). dy [1024, 256] is never allocated; the pair
// buffers are freed after the quantize.
// CHECK-LABEL: func.func @combine_grad_quantized(
// CHECK-SAME:    %[[DOUT:[^:]+]]: memref<256x256xbf16>, %[[Y:[^:]+]]: memref<1024x256xbf16>, %[[ROWS:[^:]+]]: memref<256x4xi32>, %[[W:[^:]+]]: memref<256x4xf32>, %[[DW:[^:]+]]: memref<256x4xf32>, %[[Q:[^:]+]]: memref<1024x256xf8E5M2>, %[[S:[^:]+]]: memref<1024x2xf32>, %[[QT:[^:]+]]: memref<256x1024xf8E5M2>, %[[ST:[^:]+]]: memref<256x8xf32>)
// CHECK-NOT:   memref<1024x256xbf16> = memref.alloc
// CHECK-NOT:   moe.
// CHECK:       gpu.shuffle
// CHECK:       memref.store %{{.*}}, %[[DW]]
// CHECK:       %[[COUNTS:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK:       %[[PAIRS:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK:       memref.atomic_rmw addi %{{.*}}, %[[COUNTS]]
// CHECK:       memref.store %{{.*}}, %[[PAIRS]]
// CHECK:       memref.alloca() {{.*}} : memref<128x128xi16, #gpu.address_space<workgroup>>
// CHECK-COUNT-8: memref.load %[[COUNTS]]
// CHECK-COUNT-8: memref.load %[[PAIRS]]
// CHECK:         memref.load %[[W]]
// CHECK:         vector.load %[[DOUT]]{{.*}} : memref<256x256xbf16>, vector<8xbf16>
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:         arith.select
// CHECK-NOT:     scf.if
// CHECK:         vector.load %[[DOUT]]
// CHECK-NOT:     scf.if
// CHECK:         vector.load %[[DOUT]]
// CHECK-NOT:     scf.if
// CHECK:         vector.load %[[DOUT]]
// CHECK-NOT:     scf.if
// CHECK:         vector.load %[[DOUT]]
// CHECK-NOT:     scf.if
// CHECK:         vector.load %[[DOUT]]
// CHECK-NOT:     scf.if
// CHECK:         vector.load %[[DOUT]]
// CHECK-NOT:     scf.if
// CHECK:         vector.load %[[DOUT]]
// CHECK-NOT:   scf.if
// CHECK-COUNT-8: vector.store %{{.*}} : memref<128x128xi16, #gpu.address_space<workgroup>>, vector<8xi16>
// CHECK:       scf.for
// CHECK:         memref.load %[[COUNTS]]
// CHECK:         scf.if
// CHECK:           scf.for
// CHECK:           vector.store %{{.*}} : memref<128x128xi16, #gpu.address_space<workgroup>>, vector<8xi16>
// CHECK:       vector.store %{{.*}}, %[[Q]]
// CHECK:       vector.store %{{.*}}, %[[QT]]
// CHECK:       memref.dealloc %[[COUNTS]]
// CHECK:       memref.dealloc %[[PAIRS]]
// CHECK-NOT:   moe.
// CHECK:       return

// APART-LABEL: func.func @combine_grad_quantized(
// APART:       memref.alloc() : memref<1024x256xbf16>
// APART:       vector.store %{{.*}} : memref<1024x256xbf16>, vector<8xbf16>
// APART:       memref.alloca() {{.*}} : memref<128x128xi16, #gpu.address_space<workgroup>>
func.func @combine_grad_quantized(%dout: memref<256x256xbf16>, %y: memref<1024x256xbf16>, %rows: memref<256x4xi32>, %w: memref<256x4xf32>, %dw: memref<256x4xf32>, %q: memref<1024x256xf8E5M2>, %s: memref<1024x2xf32>, %qt: memref<256x1024xf8E5M2>, %st: memref<256x8xf32>) {
  %dy = memref.alloc() : memref<1024x256xbf16>
  moe.combine_grad %dout, %y, %rows, %w outs(%dy, %dw) : memref<256x256xbf16>, memref<1024x256xbf16>, memref<256x4xi32>, memref<256x4xf32> -> memref<1024x256xbf16>, memref<256x4xf32>
  moe.quantize_with_transpose %dy outs(%q, %s, %qt, %st) : memref<1024x256xbf16> -> memref<1024x256xf8E5M2>, memref<1024x2xf32>, memref<256x1024xf8E5M2>, memref<256x8xf32>
  memref.dealloc %dy : memref<1024x256xbf16>
  return
}

// -----

// dy is also copied out: it stays, and the combine_grad writes it.
// CHECK-LABEL: func.func @dy_read_again(
// CHECK:       memref.alloc() : memref<1024x256xbf16>
// CHECK:       vector.store %{{.*}} : memref<1024x256xbf16>, vector<8xbf16>
// CHECK:       memref.copy
func.func @dy_read_again(%dout: memref<256x256xbf16>, %y: memref<1024x256xbf16>, %rows: memref<256x4xi32>, %w: memref<256x4xf32>, %dw: memref<256x4xf32>, %q: memref<1024x256xf8E5M2>, %s: memref<1024x2xf32>, %qt: memref<256x1024xf8E5M2>, %st: memref<256x8xf32>, %dy2: memref<1024x256xbf16>) {
  %dy = memref.alloc() : memref<1024x256xbf16>
  moe.combine_grad %dout, %y, %rows, %w outs(%dy, %dw) : memref<256x256xbf16>, memref<1024x256xbf16>, memref<256x4xi32>, memref<256x4xf32> -> memref<1024x256xbf16>, memref<256x4xf32>
  moe.quantize_with_transpose %dy outs(%q, %s, %qt, %st) : memref<1024x256xbf16> -> memref<1024x256xf8E5M2>, memref<1024x2xf32>, memref<256x1024xf8E5M2>, memref<256x8xf32>
  memref.copy %dy, %dy2 : memref<1024x256xbf16> to memref<1024x256xbf16>
  memref.dealloc %dy : memref<1024x256xbf16>
  return
}

// -----

// Something between the two writes (here into dout): not fused.
// CHECK-LABEL: func.func @written_between(
// CHECK:       memref.alloc() : memref<1024x256xbf16>
// CHECK:       vector.store %{{.*}} : memref<1024x256xbf16>, vector<8xbf16>
func.func @written_between(%dout: memref<256x256xbf16>, %y: memref<1024x256xbf16>, %rows: memref<256x4xi32>, %w: memref<256x4xf32>, %dw: memref<256x4xf32>, %q: memref<1024x256xf8E5M2>, %s: memref<1024x2xf32>, %qt: memref<256x1024xf8E5M2>, %st: memref<256x8xf32>, %other: memref<256x256xbf16>) {
  %dy = memref.alloc() : memref<1024x256xbf16>
  moe.combine_grad %dout, %y, %rows, %w outs(%dy, %dw) : memref<256x256xbf16>, memref<1024x256xbf16>, memref<256x4xi32>, memref<256x4xf32> -> memref<1024x256xbf16>, memref<256x4xf32>
  memref.copy %other, %dout : memref<256x256xbf16> to memref<256x256xbf16>
  moe.quantize_with_transpose %dy outs(%q, %s, %qt, %st) : memref<1024x256xbf16> -> memref<1024x256xf8E5M2>, memref<1024x2xf32>, memref<256x1024xf8E5M2>, memref<256x8xf32>
  memref.dealloc %dy : memref<1024x256xbf16>
  return
}
