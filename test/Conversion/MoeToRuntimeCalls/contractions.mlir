// RUN: moe-opt %s -split-input-file --convert-moe-to-runtime-calls | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-name-kernel-sources --convert-moe-to-runtime-calls --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// convert-moe-to-runtime-calls: a buffer-form linalg contraction with f32 accumulation
// (what moe-generate-vjp writes for the router adjoints) becomes one call
//   moert_entry_matmul_f32(A, A transposed, B, B transposed, out, m, n, k)
// (out[i, j] += Σ_l A(i, l)·B(l, j); A stored [m, k] or [k, m], B [k, n] or
// [n, k]); a bf16 operand is widened into an f32 temporary first (an
// elementwise linalg op named to_f32, freed after the call). Shapes: T = 96
// tokens, H = 40, E = 8, so every size differs.

// The router-weight gradient dw[h, e] = Σ_t x[t, h]·g[t, e]: A = x stored
// [k, m] (transposed), B = g stored [k, n].
// CHECK-LABEL: func.func private @moert_entry_matmul_f32(!llvm.ptr, i32, !llvm.ptr, i32, !llvm.ptr, i64, i64, i64)
// CHECK-LABEL: func.func @router_weight_grad(
// CHECK-SAME:    %[[X:[^:]+]]: memref<96x40xbf16>, %[[G:[^:]+]]: memref<96x8xf32>, %[[DW:[^:]+]]: memref<40x8xf32>)
// CHECK:         %[[WIDE:.*]] = memref.alloc() : memref<96x40xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[X]] : memref<96x40xbf16>) outs(%[[WIDE]] : memref<96x40xf32>)
// CHECK:           arith.extf
// CHECK:         %[[IA:.*]] = memref.extract_aligned_pointer_as_index %[[WIDE]]
// CHECK:         %[[IA64:.*]] = arith.index_cast %[[IA]]
// CHECK:         %[[PA:.*]] = llvm.inttoptr %[[IA64]]
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[IB:.*]] = memref.extract_aligned_pointer_as_index %[[G]]
// CHECK:         %[[IB64:.*]] = arith.index_cast %[[IB]]
// CHECK:         %[[PB:.*]] = llvm.inttoptr %[[IB64]]
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[IC:.*]] = memref.extract_aligned_pointer_as_index %[[DW]]
// CHECK:         %[[IC64:.*]] = arith.index_cast %[[IC]]
// CHECK:         %[[PC:.*]] = llvm.inttoptr %[[IC64]]
// m, n from the output, k from A's dimension 0 (A is stored [k, m]):
// CHECK:         %[[M:.*]] = memref.dim %[[DW]], %c0
// CHECK:         %[[M64:.*]] = arith.index_cast %[[M]]
// CHECK:         %[[N:.*]] = memref.dim %[[DW]], %c1
// CHECK:         %[[N64:.*]] = arith.index_cast %[[N]]
// CHECK:         %[[K:.*]] = memref.dim %[[WIDE]], %c0
// CHECK:         %[[K64:.*]] = arith.index_cast %[[K]]
// CHECK:         call @moert_entry_matmul_f32(%[[PA]], %[[ONE]], %[[PB]], %[[ZERO]], %[[PC]], %[[M64]], %[[N64]], %[[K64]])
// CHECK:         memref.dealloc %[[WIDE]]
// CHECK-NOT:     linalg.generic
// CHECK:         return
// The widening kernel is named after what it does:
// LOC-LABEL:   func.func @router_weight_grad(
// LOC:           arith.extf
// LOC:         } loc(#[[TOF32:[a-z0-9]+]])
// LOC:         #[[TOF32]] = loc("to_f32"
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
// stored [n, k] (transposed); both f32, no temporary. m, n, k = 96, 40, 8
// (canonicalized to constants: the sizes the runtime receives).
// RUN: moe-opt %s -split-input-file --convert-moe-to-runtime-calls --canonicalize | FileCheck %s --check-prefix=FOLD
// FOLD-LABEL: func.func @router_input_grad(
// FOLD-NOT:     memref.alloc
// FOLD-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// FOLD-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// FOLD-DAG:     %[[M:.*]] = arith.constant 96 : i64
// FOLD-DAG:     %[[N:.*]] = arith.constant 40 : i64
// FOLD-DAG:     %[[K:.*]] = arith.constant 8 : i64
// FOLD:         call @moert_entry_matmul_f32(%{{.*}}, %[[ZERO]], %{{.*}}, %[[ONE]], %{{.*}}, %[[M]], %[[N]], %[[K]])
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

// Operands swapped in the op (B first) and dynamic sizes: still one call,
// with m and k read from the buffers.
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
// CHECK-NOT:     moert_entry_matmul_f32
// CHECK-LABEL: func.func @other_body(
// CHECK-NOT:     moert_entry_matmul_f32
// CHECK:         linalg.generic
// CHECK-NOT:     moert_entry_matmul_f32
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

// CHECK-NOT:     moert_entry_matmul_f32
// CHECK-LABEL: func.func @f16_operand(
// CHECK-NOT:     moert_entry_matmul_f32
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     moert_entry_matmul_f32
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

// CHECK-NOT:     moert_entry_matmul_f32
// CHECK-LABEL: func.func @strided(
// CHECK-NOT:     moert_entry_matmul_f32
// CHECK:         linalg.generic
// CHECK-NOT:     moert_entry_matmul_f32
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

// CHECK-NOT:     moert_entry_matmul_f32
// CHECK-LABEL: func.func @bf16_output(
// CHECK-NOT:     moert_entry_matmul_f32
// CHECK:         linalg.generic
// CHECK-NOT:     moert_entry_matmul_f32
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

// moe.gate (the router projection) on buffers: logits zeroed (a fill: the
// call accumulates), x widened to f32, then one call with m = T = 96,
// n = E = 8, k = H = 40, neither operand transposed.
// CHECK-LABEL: func.func @router_projection(
// CHECK-SAME:    %[[X:[^:]+]]: memref<96x40xbf16>, %[[W:[^:]+]]: memref<40x8xf32>, %[[L:[^:]+]]: memref<96x8xf32>)
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         linalg.fill ins(%[[Z]] : f32) outs(%[[L]] : memref<96x8xf32>)
// CHECK:         %[[WIDE:.*]] = memref.alloc() : memref<96x40xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : memref<96x40xbf16>) outs(%[[WIDE]] : memref<96x40xf32>)
// CHECK:         call @moert_entry_matmul_f32(
// CHECK:         memref.dealloc %[[WIDE]]
// CHECK-NOT:     moe.gate
// LOC-LABEL:   func.func @router_projection(
// LOC:           arith.extf
// LOC:         } loc(#[[WIDEN:[a-z0-9]+]])
// LOC:         #[[WIDEN]] = loc("to_f32"
func.func @router_projection(%x: memref<96x40xbf16>, %w: memref<40x8xf32>, %logits: memref<96x8xf32>) {
  moe.gate %x, %w outs(%logits) : memref<96x40xbf16>, memref<40x8xf32> -> memref<96x8xf32>
  return
}
