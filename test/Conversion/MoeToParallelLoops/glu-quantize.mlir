// RUN: moe-opt %s -split-input-file --convert-moe-to-parallel-loops="fuse-glu-quantize fp8-instructions" | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-moe-to-parallel-loops | FileCheck %s --check-prefix=APART

// convert-moe-to-parallel-loops{fuse-glu-quantize}: a moe.quantize
// block_1x128 of a moe.glu output that nothing else uses (the FP8
// forward's fc2 input) is one row-block schedule: each lane loads 8 columns
// of gate and up (16 bytes each), computes silu(gate) · up in f32, rounds
// it to bf16 and back (h's type: what storing h and loading it again
// gives; with fp8-instructions by cvt.rn, arith.truncf), and quantizes; h
// is not allocated, the glu has no kernel. Without the option (APART) the
// glu writes h and the quantize reads it.

// CHECK-LABEL: func.func @glu_then_quantize(
// CHECK-SAME:    %[[G:[^:]+]]: memref<256x512xbf16>, %[[U:[^:]+]]: memref<256x512xbf16>
// CHECK-NOT:   memref.alloc
// CHECK:       scf.parallel
// CHECK:         vector.load %[[G]][%{{.*}}, %{{.*}}] {{.*}} : memref<256x512xbf16>, vector<8xbf16>
// CHECK:         vector.load %[[U]][%{{.*}}, %{{.*}}] {{.*}} : memref<256x512xbf16>, vector<8xbf16>
// CHECK:         math.exp
// CHECK:         arith.mulf
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK:         gpu.shuffle xor
// CHECK-NOT:   moe.glu
// CHECK-NOT:   moe.quantize
// CHECK:       return

// APART-LABEL: func.func @glu_then_quantize(
// APART:       %[[H:.*]] = memref.alloc() : memref<256x512xbf16>
// APART:       vector.store %{{.*}}, %[[H]]
// APART:       vector.load %[[H]]
func.func @glu_then_quantize(%g: memref<256x512xbf16>, %u: memref<256x512xbf16>, %q: memref<256x512xf8E4M3FN>, %s: memref<256x4xf32>) {
  %h = memref.alloc() : memref<256x512xbf16>
  moe.glu silu %g, %u outs(%h) : memref<256x512xbf16>, memref<256x512xbf16> -> memref<256x512xbf16>
  moe.quantize block_1x128 %h outs(%q, %s) : memref<256x512xbf16> -> memref<256x512xf8E4M3FN>, memref<256x4xf32>
  memref.dealloc %h : memref<256x512xbf16>
  return
}

// -----

// gate and up side by side ([R, 2F]): up is read F columns further.
// CHECK-LABEL: func.func @concatenated_gate_up(
// CHECK-SAME:    %[[GU:[^:]+]]: memref<64x512xbf16>
// CHECK-NOT:   memref.alloc
// CHECK:       vector.load %[[GU]][%{{.*}}, %[[C:.*]]] {{.*}} : memref<64x512xbf16>, vector<8xbf16>
// CHECK:       %[[F:.*]] = arith.constant 256 : index
// CHECK-NEXT:  %[[UPC:.*]] = arith.addi %[[C]], %[[F]] : index
// CHECK:       vector.load %[[GU]][%{{.*}}, %[[UPC]]] {{.*}} : memref<64x512xbf16>, vector<8xbf16>
// CHECK-NOT:   moe.glu
func.func @concatenated_gate_up(%gu: memref<64x512xbf16>, %q: memref<64x256xf8E4M3FN>, %s: memref<64x2xf32>) {
  %h = memref.alloc() : memref<64x256xbf16>
  moe.glu silu %gu outs(%h) : memref<64x512xbf16> -> memref<64x256xbf16>
  moe.quantize block_1x128 %h outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E4M3FN>, memref<64x2xf32>
  memref.dealloc %h : memref<64x256xbf16>
  return
}

// -----

// h is read again after the quantize (a bf16 residual): the glu must write
// it, so nothing is fused.
// CHECK-LABEL: func.func @h_read_again(
// CHECK:       %[[H:.*]] = memref.alloc() : memref<64x256xbf16>
// CHECK:       vector.store %{{.*}}, %[[H]]
// CHECK:       vector.load %[[H]]
// CHECK:       memref.copy %[[H]]
func.func @h_read_again(%g: memref<64x256xbf16>, %u: memref<64x256xbf16>, %q: memref<64x256xf8E4M3FN>, %s: memref<64x2xf32>, %r: memref<64x256xbf16>) {
  %h = memref.alloc() : memref<64x256xbf16>
  moe.glu silu %g, %u outs(%h) : memref<64x256xbf16>, memref<64x256xbf16> -> memref<64x256xbf16>
  moe.quantize block_1x128 %h outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E4M3FN>, memref<64x2xf32>
  memref.copy %h, %r : memref<64x256xbf16> to memref<64x256xbf16>
  memref.dealloc %h : memref<64x256xbf16>
  return
}

// -----

// h is an argument (an entry's result with out-params, read after the
// call): not fused.
// CHECK-LABEL: func.func @h_from_outside(
// CHECK-SAME:    %[[H:[^:]+]]: memref<64x256xbf16>)
// CHECK:       vector.store %{{.*}}, %[[H]]
// CHECK:       vector.load %[[H]]
func.func @h_from_outside(%g: memref<64x256xbf16>, %u: memref<64x256xbf16>, %q: memref<64x256xf8E4M3FN>, %s: memref<64x2xf32>, %h: memref<64x256xbf16>) {
  moe.glu silu %g, %u outs(%h) : memref<64x256xbf16>, memref<64x256xbf16> -> memref<64x256xbf16>
  moe.quantize block_1x128 %h outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E4M3FN>, memref<64x2xf32>
  return
}

// -----

// gate's pointer was taken before the glu (what a generated GEMM kernel that
// wrote it does) and gate is returned after the quantize: nothing between
// the glu and the quantize writes, so gate holds at the quantize what the
// glu read, and the chain is fused.
// CHECK-LABEL: func.func @gate_pointer_taken_before(
// CHECK-NOT:   memref.alloc() : memref<64x256xbf16>
// CHECK:       math.exp
// CHECK-NOT:   moe.glu
// CHECK:       return
func.func @gate_pointer_taken_before(%g: memref<64x256xbf16>, %u: memref<64x256xbf16>, %q: memref<64x256xf8E4M3FN>, %s: memref<64x2xf32>) -> (memref<64x256xbf16>, index) {
  %p = memref.extract_aligned_pointer_as_index %g : memref<64x256xbf16> -> index
  %h = memref.alloc() : memref<64x256xbf16>
  moe.glu silu %g, %u outs(%h) : memref<64x256xbf16>, memref<64x256xbf16> -> memref<64x256xbf16>
  moe.quantize block_1x128 %h outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E4M3FN>, memref<64x2xf32>
  memref.dealloc %h : memref<64x256xbf16>
  return %g, %p : memref<64x256xbf16>, index
}

// -----

// gate is written between the glu and the quantize: computing the glu at
// the quantize would read the new values, so nothing is fused.
// CHECK-LABEL: func.func @gate_rewritten(
// CHECK:       %[[H:.*]] = memref.alloc() : memref<64x256xbf16>
// CHECK:       vector.store %{{.*}}, %[[H]]
// CHECK:       memref.copy
// CHECK:       vector.load %[[H]]
func.func @gate_rewritten(%g: memref<64x256xbf16>, %u: memref<64x256xbf16>, %q: memref<64x256xf8E4M3FN>, %s: memref<64x2xf32>, %g2: memref<64x256xbf16>) {
  %h = memref.alloc() : memref<64x256xbf16>
  moe.glu silu %g, %u outs(%h) : memref<64x256xbf16>, memref<64x256xbf16> -> memref<64x256xbf16>
  memref.copy %g2, %g : memref<64x256xbf16> to memref<64x256xbf16>
  moe.quantize block_1x128 %h outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E4M3FN>, memref<64x2xf32>
  memref.dealloc %h : memref<64x256xbf16>
  return
}

// -----

// A tensor-wise quantize needs the amax of all of h before any element is
// cast: not this schedule, nothing is fused.
// CHECK-LABEL: func.func @tensorwise_not_fused(
// CHECK:       %[[H:.*]] = memref.alloc() : memref<64x256xbf16>
// CHECK:       vector.store %{{.*}}, %[[H]]
func.func @tensorwise_not_fused(%g: memref<64x256xbf16>, %u: memref<64x256xbf16>, %q: memref<64x256xf8E4M3FN>, %s: memref<f32>) {
  %h = memref.alloc() : memref<64x256xbf16>
  moe.glu silu %g, %u outs(%h) : memref<64x256xbf16>, memref<64x256xbf16> -> memref<64x256xbf16>
  moe.quantize tensorwise %h outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E4M3FN>, memref<f32>
  memref.dealloc %h : memref<64x256xbf16>
  return
}

// -----

// Dynamic rows: the schedule counts them from the quantize's output, so h's
// allocation (and its row count) goes too.
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK-SAME:    %[[Q:[^:]+]]: memref<?x256xf8E4M3FN>
// CHECK-NOT:   memref.alloc
// CHECK:       memref.dim %[[Q]], %{{.*}} : memref<?x256xf8E4M3FN>
// CHECK-NOT:   memref.alloc
// CHECK:       math.exp
// CHECK-NOT:   moe.glu
func.func @dynamic_rows(%g: memref<?x256xbf16>, %u: memref<?x256xbf16>, %q: memref<?x256xf8E4M3FN>, %s: memref<?x2xf32>, %n: index) {
  %h = memref.alloc(%n) : memref<?x256xbf16>
  moe.glu silu %g, %u outs(%h) : memref<?x256xbf16>, memref<?x256xbf16> -> memref<?x256xbf16>
  moe.quantize block_1x128 %h outs(%q, %s) : memref<?x256xbf16> -> memref<?x256xf8E4M3FN>, memref<?x2xf32>
  memref.dealloc %h : memref<?x256xbf16>
  return
}

// -----

// gate and the FP8 output are views of one buffer: the fused kernel would
// write q while other blocks still read gate, so nothing is fused.
// CHECK-LABEL: func.func @gate_and_output_views(
// CHECK:       %[[H:.*]] = memref.alloc() : memref<64x256xbf16>
// CHECK:       vector.store %{{.*}}, %[[H]]
// CHECK:       vector.load %[[H]]
func.func @gate_and_output_views(%raw: memref<65536xi8>, %u: memref<64x256xbf16>, %s: memref<64x2xf32>) {
  %c0 = arith.constant 0 : index
  %g = memref.view %raw[%c0][] : memref<65536xi8> to memref<64x256xbf16>
  %q = memref.view %raw[%c0][] : memref<65536xi8> to memref<64x256xf8E4M3FN>
  %h = memref.alloc() : memref<64x256xbf16>
  moe.glu silu %g, %u outs(%h) : memref<64x256xbf16>, memref<64x256xbf16> -> memref<64x256xbf16>
  moe.quantize block_1x128 %h outs(%q, %s) : memref<64x256xbf16> -> memref<64x256xf8E4M3FN>, memref<64x2xf32>
  memref.dealloc %h : memref<64x256xbf16>
  return
}
