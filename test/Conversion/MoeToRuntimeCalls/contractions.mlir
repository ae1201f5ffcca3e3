// RUN: moe-opt %s -split-input-file --convert-moe-to-runtime-calls | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-name-kernel-sources --convert-moe-to-runtime-calls --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// convert-moe-to-runtime-calls: a buffer-form linalg contraction with f32
// accumulation (what moe-generate-vjp writes for the router adjoints)
// becomes bf16 tensor-core GEMMs
//   moert_entry_matmul_bf16(A, A transposed, B, B transposed, out,
//                           accumulate, m, n, k)
// (out[i, j] += Σ_l A(i, l)·B(l, j), or = where accumulate is 0; A stored
// [m, k] or [k, m], B [k, n] or [n, k]) on operands split into bf16 parts (SplitMatmul.h): a bf16 operand
// as it is, an f32 one as hi + mid + lo (one GEMM per part) or, when both
// are f32, the six significant products side by side along k (one GEMM,
// k' = 6k). The split kernels are named split_bf16; dynamic shapes keep one
// true-fp32 call (moert_entry_matmul_f32). Shapes: T = 96 tokens, H = 40,
// E = 8, so every size differs.

// The router-weight gradient dw[h, e] = Σ_t x[t, h]·g[t, e]: A = x (bf16)
// stored [k, m] (transposed), B = g (f32) stored [k, n]: one kernel writes
// g's three bf16 parts side by side along n (B' = [hi | mid | lo], [96, 24]),
// one GEMM (x read once) writing a [40, 24] temporary (accumulate = 0),
// and one kernel adds its blocks to dw: hi, then the correction lo + mid
// where it is finite.
// Block 0 of the temporary is x·hi, block 1 x·mid, block 2 x·lo:
// CHECK-DAG:   #[[HIMAP:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0, d1)>
// CHECK-DAG:   #[[MIDMAP:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 1, d1)>
// CHECK-DAG:   #[[LOMAP:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 2, d1)>
// The GEMM only enqueues work on the runtime stream (moert_abi.def):
// CHECK-LABEL: func.func private @moert_entry_matmul_bf16(!llvm.ptr, i32, !llvm.ptr, i32, !llvm.ptr, i32, i64, i64, i64) attributes {moert.stream_ordered}
// CHECK-LABEL: func.func @router_weight_grad(
// CHECK-SAME:    %[[X:[^:]+]]: memref<96x40xbf16>, %[[G:[^:]+]]: memref<96x8xf32>, %[[DW:[^:]+]]: memref<40x8xf32>)
// CHECK:         %[[PARTS:.*]] = memref.alloc() : memref<96x24xbf16>
// CHECK:         %[[PVIEW:.*]] = memref.expand_shape %[[PARTS]] {{\[\[}}0], [1, 2]] output_shape [96, 3, 8]
// CHECK:         linalg.generic {{.*}} ins(%[[G]] : memref<96x8xf32>) outs(%[[PVIEW]] : memref<96x3x8xbf16>)
// The parts: hi = bf16(v) (the largest finite bf16 where that overflows),
// mid = bf16(v - hi), lo = bf16(v - hi - mid), mid and lo zero for a
// non-finite v; block p (linalg.index 1) takes part p.
// CHECK:         ^bb0(%[[V:.*]]: f32,
// CHECK:           %[[FIN:.*]] = arith.andi
// CHECK:           %[[HIR:.*]] = arith.truncf %[[V]] : f32 to bf16
// CHECK:           %[[HIV:.*]] = arith.select %{{.*}}, %{{.*}}, %[[HIR]] : bf16
// CHECK:           %[[HIW:.*]] = arith.extf %[[HIV]] : bf16 to f32
// CHECK:           %[[R1:.*]] = arith.subf %[[V]], %[[HIW]] : f32
// CHECK:           %[[MIDR:.*]] = arith.truncf %[[R1]] : f32 to bf16
// CHECK:           %[[MIDW:.*]] = arith.extf %[[MIDR]] : bf16 to f32
// CHECK:           %[[R2:.*]] = arith.subf %[[R1]], %[[MIDW]] : f32
// CHECK:           %[[LOR:.*]] = arith.truncf %[[R2]] : f32 to bf16
// CHECK:           %[[MIDV:.*]] = arith.select %[[FIN]], %[[MIDR]], %{{.*}} : bf16
// CHECK:           %[[LOV:.*]] = arith.select %[[FIN]], %[[LOR]], %{{.*}} : bf16
// CHECK:           %[[P:.*]] = linalg.index 1 : index
// CHECK:           %[[IS1:.*]] = arith.cmpi eq, %[[P]], %c1{{.*}} : index
// CHECK:           %[[S1:.*]] = arith.select %[[IS1]], %[[MIDV]], %[[LOV]] : bf16
// CHECK:           %[[IS0:.*]] = arith.cmpi eq, %[[P]], %c0{{.*}} : index
// CHECK:           %[[S0:.*]] = arith.select %[[IS0]], %[[HIV]], %[[S1]] : bf16
// CHECK:           linalg.yield %[[S0]] : bf16
// CHECK:         %[[WIDE:.*]] = memref.alloc() : memref<40x24xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         memref.extract_aligned_pointer_as_index %[[X]]
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         memref.extract_aligned_pointer_as_index %[[PARTS]]
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         memref.extract_aligned_pointer_as_index %[[WIDE]]
// CHECK:         %[[OVERWRITE:c0_i32.*]] = arith.constant 0 : i32
// m, n (40, 24) from the temporary, k (96) from x's dimension 0 (x is
// stored [k, m]):
// CHECK:         memref.dim %[[WIDE]], %c0
// CHECK:         memref.dim %[[WIDE]], %c1
// CHECK:         call @moert_entry_matmul_bf16(%{{.*}}, %[[ONE]], %{{.*}}, %[[ZERO]], %{{.*}}, %[[OVERWRITE]], %{{.*}}, %{{.*}}, %[[K:.*]])
// CHECK-NOT:     call @moert_entry_matmul_bf16
// CHECK:         %[[WVIEW:.*]] = memref.expand_shape %[[WIDE]] {{\[\[}}0], [1, 2]] output_shape [40, 3, 8]
// CHECK:         linalg.generic {indexing_maps = [#[[HIMAP]], #[[MIDMAP]], #[[LOMAP]], #{{.*}}], {{.*}} ins(%[[WVIEW]], %[[WVIEW]], %[[WVIEW]] : {{.*}}) outs(%[[DW]] : memref<40x8xf32>)
// CHECK:           ^bb0(%[[HI:.*]]: f32, %[[MID:.*]]: f32, %[[LO:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK:           %[[WITHHI:.*]] = arith.addf %[[OUT]], %[[HI]] : f32
// CHECK:           %[[CORR:.*]] = arith.addf %[[LO]], %[[MID]] : f32
// CHECK:           %[[SUM:.*]] = arith.addf %[[WITHHI]], %[[CORR]] : f32
// CHECK:           arith.cmpf olt, %[[CORR]]
// CHECK:           arith.cmpf ogt, %[[CORR]]
// CHECK:           arith.select %{{.*}}, %[[SUM]], %[[WITHHI]] : f32
// CHECK-NOT:     call
// CHECK-DAG:     memref.dealloc %[[PARTS]]
// CHECK-DAG:     memref.dealloc %[[WIDE]]
// CHECK-NOT:     linalg.generic
// CHECK:         return
// The split kernel is named after what it does:
// LOC-LABEL:   func.func @router_weight_grad(
// LOC:           arith.truncf
// LOC:         } loc(#[[SPLIT:[a-z0-9]+]])
// LOC:         #[[SPLIT]] = loc("split_bf16"
func.func @router_weight_grad(%x: memref<96x40xbf16>, %g: memref<96x8xf32>, %dw: memref<40x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(h, e, t) -> (t, h)>, affine_map<(h, e, t) -> (t, e)>, affine_map<(h, e, t) -> (h, e)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g : memref<96x40xbf16>, memref<96x8xf32>) outs(%dw : memref<40x8xf32>) {
  ^bb0(%xa: bf16, %ga: f32, %acc: f32):
    %xf = arith.extf %xa : bf16 to f32
    %m = arith.mulf %xf, %ga : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The router part of dx: dx[t, h] = Σ_e g[t, e]·w[h, e]: A = g [m, k], B = w
// stored [n, k] (transposed), both f32: each laid out as its six parts
// along k ([96, 48] and [40, 48], block p of A' pairs with block p of B'),
// one GEMM with k' = 6·8 = 48 accumulating into dx.
// RUN: moe-opt %s -split-input-file --convert-moe-to-runtime-calls --canonicalize | FileCheck %s --check-prefix=FOLD
// FOLD-LABEL: func.func @router_input_grad(
// FOLD-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// FOLD-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// FOLD-DAG:     %[[M:.*]] = arith.constant 96 : i64
// FOLD-DAG:     %[[N:.*]] = arith.constant 40 : i64
// FOLD-DAG:     %[[K6:.*]] = arith.constant 48 : i64
// FOLD:         %[[WA:.*]] = memref.alloc() : memref<96x48xbf16>
// FOLD:         %[[VA:.*]] = memref.expand_shape %[[WA]] {{\[\[}}0], [1, 2]] output_shape [96, 6, 8]
// Block p of A' is part (mid, lo, hi, mid, hi, hi)[p] of g, block p of B'
// part (mid, hi, lo, hi, mid, hi)[p] of w: the products mid·mid, lo·hi,
// hi·lo, mid·hi, hi·mid, hi·hi, smallest first (canonicalize folds the
// selects of equal neighbours).
// FOLD:         linalg.generic {{.*}} ins(%{{.*}} : memref<96x8xf32>) outs(%[[VA]] : memref<96x6x8xbf16>)
// FOLD:           %[[ATR:.*]] = arith.truncf %in : f32 to bf16
// FOLD:           %[[AHI:.*]] = arith.select %{{.*}}, %{{.*}}, %[[ATR]] : bf16
// FOLD-NEXT:      arith.extf %[[AHI]]
// FOLD:           %[[AMID:.*]] = arith.select %[[AFIN:.*]], %{{.*}}, %{{.*}} : bf16
// FOLD-NEXT:      %[[ALO:.*]] = arith.select %[[AFIN]], %{{.*}}, %{{.*}} : bf16
// FOLD-NEXT:      %[[AP:.*]] = linalg.index 1 : index
// FOLD-NEXT:      %[[A3:.*]] = arith.cmpi eq, %[[AP]], %c3 : index
// FOLD-NEXT:      %[[AS3:.*]] = arith.select %[[A3]], %[[AMID]], %[[AHI]] : bf16
// FOLD-NEXT:      %[[A2:.*]] = arith.cmpi eq, %[[AP]], %c2 : index
// FOLD-NEXT:      %[[AS2:.*]] = arith.select %[[A2]], %[[AHI]], %[[AS3]] : bf16
// FOLD-NEXT:      %[[A1:.*]] = arith.cmpi eq, %[[AP]], %c1 : index
// FOLD-NEXT:      %[[AS1:.*]] = arith.select %[[A1]], %[[ALO]], %[[AS2]] : bf16
// FOLD-NEXT:      %[[A0:.*]] = arith.cmpi eq, %[[AP]], %c0 : index
// FOLD-NEXT:      %[[AS0:.*]] = arith.select %[[A0]], %[[AMID]], %[[AS1]] : bf16
// FOLD-NEXT:      linalg.yield %[[AS0]] : bf16
// FOLD:         %[[WB:.*]] = memref.alloc() : memref<40x48xbf16>
// FOLD:         %[[VB:.*]] = memref.expand_shape %[[WB]] {{\[\[}}0], [1, 2]] output_shape [40, 6, 8]
// FOLD:         linalg.generic {{.*}} ins(%{{.*}} : memref<40x8xf32>) outs(%[[VB]] : memref<40x6x8xbf16>)
// FOLD:           %[[BTR:.*]] = arith.truncf %in : f32 to bf16
// FOLD:           %[[BHI:.*]] = arith.select %{{.*}}, %{{.*}}, %[[BTR]] : bf16
// FOLD-NEXT:      arith.extf %[[BHI]]
// FOLD:           %[[BMID:.*]] = arith.select %[[BFIN:.*]], %{{.*}}, %{{.*}} : bf16
// FOLD-NEXT:      %[[BLO:.*]] = arith.select %[[BFIN]], %{{.*}}, %{{.*}} : bf16
// FOLD-NEXT:      %[[BP:.*]] = linalg.index 1 : index
// FOLD-NEXT:      %[[B4:.*]] = arith.cmpi eq, %[[BP]], %c4 : index
// FOLD-NEXT:      %[[BS4:.*]] = arith.select %[[B4]], %[[BMID]], %[[BHI]] : bf16
// FOLD-NEXT:      %[[B3:.*]] = arith.cmpi eq, %[[BP]], %c3 : index
// FOLD-NEXT:      %[[BS3:.*]] = arith.select %[[B3]], %[[BHI]], %[[BS4]] : bf16
// FOLD-NEXT:      %[[B2:.*]] = arith.cmpi eq, %[[BP]], %c2 : index
// FOLD-NEXT:      %[[BS2:.*]] = arith.select %[[B2]], %[[BLO]], %[[BS3]] : bf16
// FOLD-NEXT:      %[[B1:.*]] = arith.cmpi eq, %[[BP]], %c1 : index
// FOLD-NEXT:      %[[BS1:.*]] = arith.select %[[B1]], %[[BHI]], %[[BS2]] : bf16
// FOLD-NEXT:      %[[B0:.*]] = arith.cmpi eq, %[[BP]], %c0 : index
// FOLD-NEXT:      %[[BS0:.*]] = arith.select %[[B0]], %[[BMID]], %[[BS1]] : bf16
// FOLD-NEXT:      linalg.yield %[[BS0]] : bf16
// FOLD:         call @moert_entry_matmul_bf16(%{{.*}}, %[[ZERO]], %{{.*}}, %[[ONE]], %{{.*}}, %[[M]], %[[N]], %[[K6]])
// FOLD-NOT:     call
// FOLD:         memref.dealloc %[[WA]]
// FOLD:         memref.dealloc %[[WB]]
// FOLD-NOT:     linalg.generic
// FOLD:         return
func.func @router_input_grad(%g: memref<96x8xf32>, %w: memref<40x8xf32>, %dx: memref<96x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(t, h, e) -> (t, e)>, affine_map<(t, h, e) -> (h, e)>, affine_map<(t, h, e) -> (t, h)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %w : memref<96x8xf32>, memref<40x8xf32>) outs(%dx : memref<96x40xf32>) {
  ^bb0(%ga: f32, %wa: f32, %acc: f32):
    %m = arith.mulf %ga, %wa : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Operands swapped in the op (B first) and dynamic sizes: one true-fp32
// call, with m and k read from the buffers.
// A is g (indexed by the output's first dimension) although w comes first;
// B = w stored [n, k] (transposed).
// CHECK-LABEL: func.func @swapped_dynamic(
// CHECK-SAME:    %[[W:[^:]+]]: memref<?x?xf32>, %[[G:[^:]+]]: memref<?x?xf32>, %[[DX:[^:]+]]: memref<?x?xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         memref.extract_aligned_pointer_as_index %[[G]]
// CHECK:         %[[AT:.*]] = arith.constant 0 : i32
// CHECK:         memref.extract_aligned_pointer_as_index %[[W]]
// CHECK:         %[[BT:.*]] = arith.constant 1 : i32
// CHECK:         memref.extract_aligned_pointer_as_index %[[DX]]
// CHECK:         memref.dim %[[DX]], %c0
// CHECK:         memref.dim %[[DX]], %c1
// CHECK:         memref.dim %[[G]], %c1
// CHECK:         call @moert_entry_matmul_f32(%{{.*}}, %[[AT]], %{{.*}}, %[[BT]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @swapped_dynamic(%w: memref<?x?xf32>, %g: memref<?x?xf32>, %dx: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(t, h, e) -> (h, e)>, affine_map<(t, h, e) -> (t, e)>, affine_map<(t, h, e) -> (t, h)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w, %g : memref<?x?xf32>, memref<?x?xf32>) outs(%dx : memref<?x?xf32>) {
  ^bb0(%wa: f32, %ga: f32, %acc: f32):
    %m = arith.mulf %wa, %ga : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not contractions the runtime computes; they stay linalg (for
// convert-linalg-reductions-to-accumulating-loops), each alone in its module
// so that no call or runtime declaration anywhere can hide: another body (a·|b|), an f16
// operand, a strided buffer, a bf16 output.
// CHECK-NOT:     moert_entry_matmul_
// CHECK-LABEL: func.func @other_body(
// CHECK-NOT:     moert_entry_matmul_
// CHECK:         linalg.generic
// CHECK-NOT:     moert_entry_matmul_
// CHECK:         return
func.func @other_body(%a: memref<16x32xf32>, %b: memref<32x8xf32>, %o: memref<16x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, l) -> (i, l)>, affine_map<(i, j, l) -> (l, j)>, affine_map<(i, j, l) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x32xf32>, memref<32x8xf32>) outs(%o : memref<16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %ay = math.absf %y : f32
    %m = arith.mulf %x, %ay : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// CHECK-NOT:     moert_entry_matmul_
// CHECK-LABEL: func.func @f16_operand(
// CHECK-NOT:     moert_entry_matmul_
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     moert_entry_matmul_
// CHECK:         return
func.func @f16_operand(%h: memref<16x32xf16>, %b: memref<32x8xf32>, %o: memref<16x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, l) -> (i, l)>, affine_map<(i, j, l) -> (l, j)>, affine_map<(i, j, l) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %b : memref<16x32xf16>, memref<32x8xf32>) outs(%o : memref<16x8xf32>) {
  ^bb0(%x: f16, %y: f32, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %m = arith.mulf %xf, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// CHECK-NOT:     moert_entry_matmul_
// CHECK-LABEL: func.func @strided(
// CHECK-NOT:     moert_entry_matmul_
// CHECK:         linalg.generic
// CHECK-NOT:     moert_entry_matmul_
// CHECK:         return
func.func @strided(%s: memref<16x32xf32, strided<[64, 1]>>, %b: memref<32x8xf32>, %o: memref<16x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, l) -> (i, l)>, affine_map<(i, j, l) -> (l, j)>, affine_map<(i, j, l) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s, %b : memref<16x32xf32, strided<[64, 1]>>, memref<32x8xf32>) outs(%o : memref<16x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// CHECK-NOT:     moert_entry_matmul_
// CHECK-LABEL: func.func @bf16_output(
// CHECK-NOT:     moert_entry_matmul_
// CHECK:         linalg.generic
// CHECK-NOT:     moert_entry_matmul_
// CHECK:         return
func.func @bf16_output(%a: memref<16x32xf32>, %b: memref<32x8xf32>, %ob: memref<16x8xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, l) -> (i, l)>, affine_map<(i, j, l) -> (l, j)>, affine_map<(i, j, l) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x32xf32>, memref<32x8xf32>) outs(%ob : memref<16x8xbf16>) {
  ^bb0(%x: f32, %y: f32, %acc: bf16):
    %m = arith.mulf %x, %y : f32
    %mt = arith.truncf %m : f32 to bf16
    %r = arith.addf %acc, %mt : bf16
    linalg.yield %r : bf16
  }
  return
}

// -----

// moe.gate (the router projection) on buffers: the f32 router weight's
// bf16 parts side by side along n ([40, 24]), then one GEMM of x (bf16, as
// it is, read once) times them, m = T = 96, n = 3 E = 24, k = H = 40,
// neither operand transposed, writing a temporary, and the kernel that
// writes hi plus the finite-only correction into the logits (no fill, no
// read of the logits).
// CHECK-LABEL: func.func @router_projection(
// CHECK-SAME:    %[[X:[^:]+]]: memref<96x40xbf16>, %[[W:[^:]+]]: memref<40x8xf32>, %[[L:[^:]+]]: memref<96x8xf32>)
// CHECK-NOT:     linalg.fill
// CHECK:         linalg.generic {{.*}} ins(%[[W]] : memref<40x8xf32>) outs(%{{.*}} : memref<40x3x8xbf16>)
// CHECK:         memref.alloc() : memref<96x24xf32>
// CHECK:         memref.extract_aligned_pointer_as_index %[[X]]
// CHECK:         call @moert_entry_matmul_bf16(
// CHECK-NOT:     call @moert_entry_matmul_bf16(
// CHECK:         linalg.generic {{.*}} ins({{.*}} : memref<96x3x8xf32>, memref<96x3x8xf32>, memref<96x3x8xf32>) outs(%[[L]] : memref<96x8xf32>)
// CHECK-NEXT:      ^bb0(%[[GHI:.*]]: f32, %[[GMID:.*]]: f32, %[[GLO:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[GCORR:.*]] = arith.addf %[[GLO]], %[[GMID]] : f32
// CHECK-NEXT:      arith.addf %[[GHI]], %[[GCORR]] : f32
// CHECK-NOT:     moe.gate
// The split kernel is named after the gate's kernel and what it does:
// LOC:         #[[GATE:loc[0-9]*]] = loc("gate"
// LOC-NEXT:    = loc("split_bf16"(#[[GATE]]))
// LOC-LABEL:   func.func @router_projection(
// LOC:           ^bb0(%{{.*}}: f32 loc({{.*}}), %{{.*}}: bf16 loc("split_bf16"(#[[GATE]]))
func.func @router_projection(%x: memref<96x40xbf16>, %w: memref<40x8xf32>, %logits: memref<96x8xf32>) {
  moe.gate %x, %w outs(%logits) : memref<96x40xbf16>, memref<40x8xf32> -> memref<96x8xf32>
  return
}

// -----

// The f32 operand as A ([m, k] = [16, 32]): its parts stacked along its
// rows ([48, 32]), one GEMM into a [48, 8] temporary whose row blocks are
// A's parts times B (hi, mid, lo), added to out.
// CHECK-DAG:   #[[AHI:map[0-9]*]] = affine_map<(d0, d1) -> (0, d0, d1)>
// CHECK-DAG:   #[[AMID:map[0-9]*]] = affine_map<(d0, d1) -> (1, d0, d1)>
// CHECK-DAG:   #[[ALO:map[0-9]*]] = affine_map<(d0, d1) -> (2, d0, d1)>
// CHECK-LABEL: func.func @f32_times_bf16(
// CHECK-SAME:    %[[A:[^:]+]]: memref<16x32xf32>, %[[B:[^:]+]]: memref<32x8xbf16>, %[[O:[^:]+]]: memref<16x8xf32>)
// CHECK:         %[[PARTS:.*]] = memref.alloc() : memref<48x32xbf16>
// CHECK:         %[[PVIEW:.*]] = memref.expand_shape %[[PARTS]] {{\[\[}}0, 1], [2]] output_shape [3, 16, 32]
// CHECK:         linalg.generic {{.*}} ins(%[[A]] : memref<16x32xf32>) outs(%[[PVIEW]] : memref<3x16x32xbf16>)
// CHECK:           linalg.index 0 : index
// CHECK:         %[[WIDE:.*]] = memref.alloc() : memref<48x8xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         call @moert_entry_matmul_bf16(
// CHECK-NOT:     call @moert_entry_matmul_bf16(
// CHECK:         %[[WVIEW:.*]] = memref.expand_shape %[[WIDE]] {{\[\[}}0, 1], [2]] output_shape [3, 16, 8]
// CHECK:         linalg.generic {indexing_maps = [#[[AHI]], #[[AMID]], #[[ALO]], #{{.*}}], {{.*}} ins(%[[WVIEW]], %[[WVIEW]], %[[WVIEW]] : {{.*}}) outs(%[[O]] : memref<16x8xf32>)
func.func @f32_times_bf16(%a: memref<16x32xf32>, %b: memref<32x8xbf16>, %o: memref<16x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, l) -> (i, l)>, affine_map<(i, j, l) -> (l, j)>, affine_map<(i, j, l) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x32xf32>, memref<32x8xbf16>) outs(%o : memref<16x8xf32>) {
  ^bb0(%x: f32, %y: bf16, %acc: f32):
    %yw = arith.extf %y : bf16 to f32
    %m = arith.mulf %x, %yw : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Zeros filled into the output right before the contraction (as autodiff
// initializes the router adjoints): the fill goes and the GEMM writes the
// output (accumulate = 0). Any other fill stays, and the GEMM adds to it.
// CHECK-LABEL: func.func @zero_filled(
// CHECK-SAME:    %{{[^:]+}}: memref<96x8xf32>, %{{[^:]+}}: memref<40x8xf32>, %[[DX:[^:]+]]: memref<96x40xf32>)
// (The printer names an i32 constant 0 %c0_i32, 1 %c1_i32.)
// CHECK-NOT:     linalg.fill
// CHECK:         call @moert_entry_matmul_bf16(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %c0_i32{{[_0-9]*}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}})
// CHECK-NOT:     linalg.fill
// CHECK:         return
func.func @zero_filled(%g: memref<96x8xf32>, %w: memref<40x8xf32>, %dx: memref<96x40xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%dx : memref<96x40xf32>)
  linalg.generic {indexing_maps = [affine_map<(t, h, e) -> (t, e)>, affine_map<(t, h, e) -> (h, e)>, affine_map<(t, h, e) -> (t, h)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %w : memref<96x8xf32>, memref<40x8xf32>) outs(%dx : memref<96x40xf32>) {
  ^bb0(%ga: f32, %wa: f32, %acc: f32):
    %m = arith.mulf %ga, %wa : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @one_filled(
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         linalg.fill ins(%[[ONE]] : f32)
// CHECK:         call @moert_entry_matmul_bf16(%{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}}, %c1_i32{{[_0-9]*}}, %{{[^,]+}}, %{{[^,]+}}, %{{[^,]+}})
func.func @one_filled(%g: memref<96x8xf32>, %w: memref<40x8xf32>, %dx: memref<96x40xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%dx : memref<96x40xf32>)
  linalg.generic {indexing_maps = [affine_map<(t, h, e) -> (t, e)>, affine_map<(t, h, e) -> (h, e)>, affine_map<(t, h, e) -> (t, h)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %w : memref<96x8xf32>, memref<40x8xf32>) outs(%dx : memref<96x40xf32>) {
  ^bb0(%ga: f32, %wa: f32, %acc: f32):
    %m = arith.mulf %ga, %wa : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
