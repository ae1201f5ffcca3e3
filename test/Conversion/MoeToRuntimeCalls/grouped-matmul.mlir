// RUN: moe-opt %s -split-input-file -verify-diagnostics --convert-moe-to-runtime-calls | FileCheck %s
// Sizes fold to the constants the runtime receives:
// RUN: moe-opt %s -split-input-file -verify-diagnostics --convert-moe-to-runtime-calls --canonicalize | FileCheck %s --check-prefix=FOLD

// convert-moe-to-runtime-calls: bf16 and f32 grouped matmuls on memrefs become
// calls into libmoe_runtime_gpu (moert_entry_*(a, b, sizes, G, Kd, N, layout, out,
// out_dtype, rows) with layout KN = 0 / NK = 1 and out bf16 = 0 / f32 = 1);
// what the runtime cannot do is an error. Shapes are chosen so that every
// size differs: G = 4 groups, K = 32, N = 48, R = 16 rows.

// The grouped GEMM reads the group sizes on the host: not stream-ordered.
// CHECK-LABEL: func.func private @moert_entry_grouped_gemm_bf16(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, !llvm.ptr, i32, i64){{$}}
// CHECK-LABEL: func.func @gmm_kn_bf16(
// CHECK-SAME:    %[[A:[^:]+]]: memref<16x32xbf16>, %[[B:[^:]+]]: memref<4x32x48xbf16>, %[[N:[^:]+]]: memref<4xi32>, %[[C:[^:]+]]: memref<16x48xbf16>)
// CHECK-NOT:   moe.{{[a-z_]+}} %
// Kd = dim 1 of a, N = dim 1 of c, rows = dim 0 of c, G = dim 0 of sizes.
// CHECK-DAG:   %[[KD:.*]] = memref.dim %[[A]], %c1{{.*}} : memref<16x32xbf16>
// CHECK-DAG:   %[[ND:.*]] = memref.dim %[[C]], %c1{{.*}} : memref<16x48xbf16>
// CHECK-DAG:   %[[RD:.*]] = memref.dim %[[C]], %c0{{.*}} : memref<16x48xbf16>
// CHECK-DAG:   %[[GD:.*]] = memref.dim %[[N]], %c0{{.*}} : memref<4xi32>
// CHECK-DAG:   %[[AI:.*]] = memref.extract_aligned_pointer_as_index %[[A]] : memref<16x32xbf16> -> index
// CHECK-DAG:   %[[AI64:.*]] = arith.index_cast %[[AI]] : index to i64
// CHECK-DAG:   %[[AP:.*]] = llvm.inttoptr %[[AI64]] : i64 to !llvm.ptr
// CHECK-DAG:   %[[BI:.*]] = memref.extract_aligned_pointer_as_index %[[B]] : memref<4x32x48xbf16> -> index
// CHECK-DAG:   %[[BI64:.*]] = arith.index_cast %[[BI]] : index to i64
// CHECK-DAG:   %[[BP:.*]] = llvm.inttoptr %[[BI64]] : i64 to !llvm.ptr
// CHECK-DAG:   %[[NI:.*]] = memref.extract_aligned_pointer_as_index %[[N]] : memref<4xi32> -> index
// CHECK-DAG:   %[[NI64:.*]] = arith.index_cast %[[NI]] : index to i64
// CHECK-DAG:   %[[NP:.*]] = llvm.inttoptr %[[NI64]] : i64 to !llvm.ptr
// CHECK-DAG:   %[[CI:.*]] = memref.extract_aligned_pointer_as_index %[[C]] : memref<16x48xbf16> -> index
// CHECK-DAG:   %[[CI64:.*]] = arith.index_cast %[[CI]] : index to i64
// CHECK-DAG:   %[[CP:.*]] = llvm.inttoptr %[[CI64]] : i64 to !llvm.ptr
// CHECK-DAG:   %[[KD64:.*]] = arith.index_cast %[[KD]] : index to i64
// CHECK-DAG:   %[[ND64:.*]] = arith.index_cast %[[ND]] : index to i64
// CHECK-DAG:   %[[RD64:.*]] = arith.index_cast %[[RD]] : index to i64
// CHECK-DAG:   %[[GD64:.*]] = arith.index_cast %[[GD]] : index to i64
// CHECK:       call @moert_entry_grouped_gemm_bf16(%[[AP]], %[[BP]], %[[NP]], %[[GD64]], %[[KD64]], %[[ND64]], %{{.*}}, %[[CP]], %{{.*}}, %[[RD64]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, !llvm.ptr, i32, i64) -> ()
// CHECK-NEXT:  return

// FOLD-LABEL: func.func @gmm_kn_bf16(
// FOLD-DAG:   %[[G:.*]] = arith.constant 4 : i64
// FOLD-DAG:   %[[K:.*]] = arith.constant 32 : i64
// FOLD-DAG:   %[[N:.*]] = arith.constant 48 : i64
// FOLD-DAG:   %[[R:.*]] = arith.constant 16 : i64
// FOLD-DAG:   %[[KN:.*]] = arith.constant 0 : i32
// FOLD:       call @moert_entry_grouped_gemm_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %[[G]], %[[K]], %[[N]], %[[KN]], %{{.*}}, %[[KN]], %[[R]])
func.func @gmm_kn_bf16(%a: memref<16x32xbf16>, %b: memref<4x32x48xbf16>, %n: memref<4xi32>, %c: memref<16x48xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<16x32xbf16>, memref<4x32x48xbf16>, memref<4xi32> -> memref<16x48xbf16>
  return
}

// -----

// NK weights ([G, N, K]), bf16 out: layout 1, out dtype 0; still Kd = 32,
// N = 48 (from a and c, not from the weight's dims).
// FOLD-LABEL: func.func @gmm_nk_bf16(
// FOLD-DAG:   %[[G:.*]] = arith.constant 4 : i64
// FOLD-DAG:   %[[K:.*]] = arith.constant 32 : i64
// FOLD-DAG:   %[[N:.*]] = arith.constant 48 : i64
// FOLD-DAG:   %[[R:.*]] = arith.constant 16 : i64
// FOLD-DAG:   %[[NK:.*]] = arith.constant 1 : i32
// FOLD-DAG:   %[[BF16:.*]] = arith.constant 0 : i32
// FOLD:       call @moert_entry_grouped_gemm_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %[[G]], %[[K]], %[[N]], %[[NK]], %{{.*}}, %[[BF16]], %[[R]])
// CHECK-LABEL: func.func @gmm_nk_bf16(
// CHECK:       %[[NK:.*]] = arith.constant 1 : i32
// CHECK:       %[[BF16:.*]] = arith.constant 0 : i32
// CHECK:       call @moert_entry_grouped_gemm_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NK]], %{{.*}}, %[[BF16]], %{{.*}})
func.func @gmm_nk_bf16(%a: memref<16x32xbf16>, %b: memref<4x48x32xbf16>, %n: memref<4xi32>, %c: memref<16x48xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<16x32xbf16>, memref<4x48x32xbf16>, memref<4xi32> -> memref<16x48xbf16>
  return
}

// -----

// KN weights, f32 out: layout 0, out dtype 1.
// FOLD-LABEL: func.func @gmm_kn_f32(
// FOLD-DAG:   %[[KN:.*]] = arith.constant 0 : i32
// FOLD-DAG:   %[[F32:.*]] = arith.constant 1 : i32
// FOLD:       call @moert_entry_grouped_gemm_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[KN]], %{{.*}}, %[[F32]], %{{.*}})
func.func @gmm_kn_f32(%a: memref<16x32xbf16>, %b: memref<4x32x48xbf16>, %n: memref<4xi32>, %c: memref<16x48xf32>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<16x32xbf16>, memref<4x32x48xbf16>, memref<4xi32> -> memref<16x48xf32>
  return
}

// -----

// Weight gradient db[g] = a_g^T dc_g: (a, dc, sizes, G, Kd = dim 1 of a,
// N = dim 1 of dc, layout, db, db dtype, rows = dim 0 of a).
// CHECK-LABEL: func.func private @moert_entry_grouped_weight_grad_bf16(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, !llvm.ptr, i32, i64)
// CHECK-NOT:   @moert_entry_grouped_gemm_bf16
// CHECK-LABEL: func.func @weight_grad_kn_f32(
// CHECK-SAME:    %[[A:[^:]+]]: memref<16x32xbf16>, %[[DC:[^:]+]]: memref<16x48xbf16>, %[[N:[^:]+]]: memref<4xi32>, %[[DB:[^:]+]]: memref<4x32x48xf32>)
// CHECK-DAG:   %[[AI:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-DAG:   %[[DCI:.*]] = memref.extract_aligned_pointer_as_index %[[DC]]
// CHECK-DAG:   %[[DBI:.*]] = memref.extract_aligned_pointer_as_index %[[DB]]
// CHECK-DAG:   memref.dim %[[A]], %c1{{.*}} : memref<16x32xbf16>
// CHECK-DAG:   memref.dim %[[DC]], %c1{{.*}} : memref<16x48xbf16>
// CHECK-DAG:   memref.dim %[[A]], %c0{{.*}} : memref<16x32xbf16>
// CHECK:       call @moert_entry_grouped_weight_grad_bf16(
// FOLD-LABEL: func.func @weight_grad_kn_f32(
// FOLD-DAG:   %[[G:.*]] = arith.constant 4 : i64
// FOLD-DAG:   %[[K:.*]] = arith.constant 32 : i64
// FOLD-DAG:   %[[N:.*]] = arith.constant 48 : i64
// FOLD-DAG:   %[[R:.*]] = arith.constant 16 : i64
// FOLD-DAG:   %[[KN:.*]] = arith.constant 0 : i32
// FOLD-DAG:   %[[F32:.*]] = arith.constant 1 : i32
// FOLD:       call @moert_entry_grouped_weight_grad_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %[[G]], %[[K]], %[[N]], %[[KN]], %{{.*}}, %[[F32]], %[[R]])
func.func @weight_grad_kn_f32(%a: memref<16x32xbf16>, %dc: memref<16x48xbf16>, %n: memref<4xi32>, %db: memref<4x32x48xf32>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<16x32xbf16>, memref<16x48xbf16>, memref<4xi32> -> memref<4x32x48xf32>
  return
}

// -----

// FOLD-LABEL: func.func @weight_grad_nk_bf16(
// FOLD-DAG:   %[[G:.*]] = arith.constant 4 : i64
// FOLD-DAG:   %[[K:.*]] = arith.constant 32 : i64
// FOLD-DAG:   %[[N:.*]] = arith.constant 48 : i64
// FOLD-DAG:   %[[R:.*]] = arith.constant 16 : i64
// FOLD-DAG:   %[[NK:.*]] = arith.constant 1 : i32
// FOLD-DAG:   %[[BF16:.*]] = arith.constant 0 : i32
// FOLD:       call @moert_entry_grouped_weight_grad_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %[[G]], %[[K]], %[[N]], %[[NK]], %{{.*}}, %[[BF16]], %[[R]])
func.func @weight_grad_nk_bf16(%a: memref<16x32xbf16>, %dc: memref<16x48xbf16>, %n: memref<4xi32>, %db: memref<4x48x32xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) {weight_layout = #moe<weight_layout nk>} : memref<16x32xbf16>, memref<16x48xbf16>, memref<4xi32> -> memref<4x48x32xbf16>
  return
}

// -----

// f32 operands (what moe-fp8-placement's weight gradients read: dequantized
// FP8 values) call the runtime's f32 entries, which write f32 only: a bf16
// result is the f32 product (a temporary, TF32 products: out dtype code 2)
// rounded by a parallel loop.
// CHECK-LABEL: func.func private @moert_entry_grouped_gemm_f32(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, !llvm.ptr, i32, i64)
// CHECK-NOT:   @moert_entry_grouped_gemm_bf16
// CHECK-LABEL: func.func @gmm_f32_operands(
// CHECK-SAME:    %[[A:[^:]+]]: memref<16x32xf32>, %[[B:[^:]+]]: memref<4x48x32xf32>, %[[N:[^:]+]]: memref<4xi32>, %[[C:[^:]+]]: memref<16x48xbf16>)
// CHECK-DAG:   %[[AI:.*]] = memref.extract_aligned_pointer_as_index %[[A]] : memref<16x32xf32> -> index
// CHECK-DAG:   %[[BI:.*]] = memref.extract_aligned_pointer_as_index %[[B]] : memref<4x48x32xf32> -> index
// CHECK-DAG:   memref.dim %[[A]], %c1{{.*}} : memref<16x32xf32>
// CHECK-DAG:   %[[P:.*]] = memref.alloc() : memref<16x48xf32>
// CHECK:       call @moert_entry_grouped_gemm_f32(
// CHECK:       scf.parallel
// CHECK:         %[[V:.*]] = memref.load %[[P]]
// CHECK:         arith.truncf %[[V]] : f32 to bf16
// CHECK:         memref.store %{{.*}}, %[[C]]
// CHECK:       memref.dealloc %[[P]]
// CHECK-NEXT:  return
// FOLD-LABEL: func.func @gmm_f32_operands(
// FOLD-DAG:   %[[G:.*]] = arith.constant 4 : i64
// FOLD-DAG:   %[[K:.*]] = arith.constant 32 : i64
// FOLD-DAG:   %[[N:.*]] = arith.constant 48 : i64
// FOLD-DAG:   %[[R:.*]] = arith.constant 16 : i64
// FOLD-DAG:   %[[NK:.*]] = arith.constant 1 : i32
// FOLD-DAG:   %[[TF32:.*]] = arith.constant 2 : i32
// FOLD:       call @moert_entry_grouped_gemm_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[G]], %[[K]], %[[N]], %[[NK]], %{{.*}}, %[[TF32]], %[[R]])
func.func @gmm_f32_operands(%a: memref<16x32xf32>, %b: memref<4x48x32xf32>, %n: memref<4xi32>, %c: memref<16x48xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<16x32xf32>, memref<4x48x32xf32>, memref<4xi32> -> memref<16x48xbf16>
  return
}

// -----

// The FP8 placement's weight gradient: f32 a and dc, bf16 db.
// CHECK-LABEL: func.func private @moert_entry_grouped_weight_grad_f32(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, !llvm.ptr, i32, i64)
// CHECK-NOT:   @moert_entry_grouped_weight_grad_bf16
// CHECK-LABEL: func.func @weight_grad_f32_operands(
// CHECK-SAME:    %[[A:[^:]+]]: memref<16x32xf32>, %[[DC:[^:]+]]: memref<16x48xf32>, %[[N:[^:]+]]: memref<4xi32>, %[[DB:[^:]+]]: memref<4x32x48xbf16>)
// CHECK-DAG:   memref.extract_aligned_pointer_as_index %[[A]] : memref<16x32xf32> -> index
// CHECK-DAG:   memref.extract_aligned_pointer_as_index %[[DC]] : memref<16x48xf32> -> index
// CHECK-DAG:   memref.dim %[[DC]], %c1{{.*}} : memref<16x48xf32>
// CHECK-DAG:   %[[P:.*]] = memref.alloc() : memref<4x32x48xf32>
// CHECK:       call @moert_entry_grouped_weight_grad_f32(
// CHECK:       scf.parallel
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK:         memref.store %{{.*}}, %[[DB]]
// CHECK:       memref.dealloc %[[P]]
// CHECK-NEXT:  return
// FOLD-LABEL: func.func @weight_grad_f32_operands(
// FOLD-DAG:   %[[G:.*]] = arith.constant 4 : i64
// FOLD-DAG:   %[[K:.*]] = arith.constant 32 : i64
// FOLD-DAG:   %[[N:.*]] = arith.constant 48 : i64
// FOLD-DAG:   %[[R:.*]] = arith.constant 16 : i64
// FOLD-DAG:   %[[KN:.*]] = arith.constant 0 : i32
// FOLD-DAG:   %[[TF32:.*]] = arith.constant 2 : i32
// FOLD:       call @moert_entry_grouped_weight_grad_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[G]], %[[K]], %[[N]], %[[KN]], %{{.*}}, %[[TF32]], %[[R]])
func.func @weight_grad_f32_operands(%a: memref<16x32xf32>, %dc: memref<16x48xf32>, %n: memref<4xi32>, %db: memref<4x32x48xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<16x32xf32>, memref<16x48xf32>, memref<4xi32> -> memref<4x32x48xbf16>
  return
}

// -----

// f32 operands and an f32 output (nk): output dtype 1.
// FOLD-LABEL: func.func @weight_grad_f32_nk_f32(
// FOLD-DAG:   %[[NK:.*]] = arith.constant 1 : i32
// FOLD:       call @moert_entry_grouped_weight_grad_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NK]], %{{.*}}, %[[NK]], %{{.*}})
func.func @weight_grad_f32_nk_f32(%a: memref<16x32xf32>, %dc: memref<16x48xf32>, %n: memref<4xi32>, %db: memref<4x48x32xf32>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) {weight_layout = #moe<weight_layout nk>} : memref<16x32xf32>, memref<16x48xf32>, memref<4xi32> -> memref<4x48x32xf32>
  return
}

// -----

// What cuBLASLt cannot do is a located error, not a fallback to loops.
func.func @f16_operands(%a: memref<16x32xf16>, %b: memref<4x32x48xf16>, %n: memref<4xi32>, %c: memref<16x48xf32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op on the GPU target takes bf16 or f32 operands (cuBLASLt grouped GEMM); got 'f16'}}
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<16x32xf16>, memref<4x32x48xf16>, memref<4xi32> -> memref<16x48xf32>
  return
}

// -----

func.func @f16_weight_grad(%a: memref<16x32xf16>, %dc: memref<16x48xf16>, %n: memref<4xi32>, %db: memref<4x32x48xf32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op on the GPU target takes bf16 or f32 operands (cuBLASLt grouped GEMM); got 'f16'}}
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<16x32xf16>, memref<16x48xf16>, memref<4xi32> -> memref<4x32x48xf32>
  return
}

// -----

func.func @fp8_scales(%a: memref<16x256xf8E4M3FN>, %b: memref<2x256x128xf8E4M3FN>, %sz: memref<2xi32>,
                      %as: memref<16x2xf32>, %bs: memref<2x2x1xf32>, %c: memref<16x128xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op with FP8 scales has no cuBLASLt path: it needs the generated kernel (moe-lower-to-gpu gemm=auto or generated; moe-compile --gemm), which did not take it}}
  moe.grouped_matmul %a, %b, %sz scales(%as, %bs) outs(%c) : memref<16x256xf8E4M3FN>, memref<2x256x128xf8E4M3FN>, memref<2xi32>, memref<16x2xf32>, memref<2x2x1xf32> -> memref<16x128xbf16>
  return
}

// -----

// An FP8 weight gradient (transposed operands, block scales) is the
// generated kernel's alone.
func.func @fp8_weight_grad(%a: memref<32x256xf8E4M3FN>, %dc: memref<48x256xf8E5M2>, %n: memref<4xi32>,
                           %as: memref<32x2xf32>, %ds: memref<48x2xf32>, %db: memref<4x32x48xbf16>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op with FP8 operands ('f8E4M3FN', 'f8E5M2') and scales has no cuBLASLt path: it needs the generated kernel (moe-lower-to-gpu gemm=auto or generated; moe-compile --gemm), which did not take it}}
  moe.grouped_weight_grad %a, %dc, %n scales(%as, %ds) outs(%db) {transposed_operands} : memref<32x256xf8E4M3FN>, memref<48x256xf8E5M2>, memref<4xi32>, memref<32x2xf32>, memref<48x2xf32> -> memref<4x32x48xbf16>
  return
}

// -----

// Tensor-wise scales: the same.
func.func @fp8_weight_grad_tensorwise(%a: memref<32x16xf8E4M3FN>, %dc: memref<48x16xf8E4M3FN>, %n: memref<4xi32>,
                                      %as: memref<f32>, %ds: memref<f32>, %db: memref<4x32x48xf32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op with FP8 operands ('f8E4M3FN', 'f8E4M3FN') and scales has no cuBLASLt path}}
  moe.grouped_weight_grad %a, %dc, %n scales(%as, %ds) outs(%db) {transposed_operands} : memref<32x16xf8E4M3FN>, memref<48x16xf8E4M3FN>, memref<4xi32>, memref<f32>, memref<f32> -> memref<4x32x48xf32>
  return
}

// -----

// bf16 operands with transposed_operands ([Kd, R], [N, R]): the runtime
// reads [R, Kd] and [R, N], so this is refused too, not run on the wrong
// layout.
func.func @transposed_weight_grad(%a: memref<32x16xbf16>, %dc: memref<48x16xbf16>, %n: memref<4xi32>, %db: memref<4x32x48xbf16>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op with transposed_operands (a [Kd, R], dc [N, R]) has no cuBLASLt path: it needs the generated kernel (moe-lower-to-gpu gemm=auto or generated; moe-compile --gemm), which did not take it}}
  moe.grouped_weight_grad %a, %dc, %n outs(%db) {transposed_operands} : memref<32x16xbf16>, memref<48x16xbf16>, memref<4xi32> -> memref<4x32x48xbf16>
  return
}

// -----

// i64 group sizes: the op verifier already rejects them (the GPU target's
// own i32 check is behind it).
func.func @i64_sizes(%a: memref<16x32xbf16>, %b: memref<4x32x48xbf16>, %n: memref<4xi64>, %c: memref<16x48xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op 'group_sizes' must have i32 elements, got i64}}
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<16x32xbf16>, memref<4x32x48xbf16>, memref<4xi64> -> memref<16x48xbf16>
  return
}

// -----

func.func @f16_out(%a: memref<16x32xbf16>, %b: memref<4x32x48xbf16>, %n: memref<4xi32>, %c: memref<16x48xf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op on the GPU target writes bf16 or f32; got 'f16'}}
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<16x32xbf16>, memref<4x32x48xbf16>, memref<4xi32> -> memref<16x48xf16>
  return
}

// -----

func.func @strided(%a: memref<16x32xbf16, strided<[64, 1]>>, %b: memref<4x32x48xbf16>, %n: memref<4xi32>, %c: memref<16x48xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op on the GPU target needs contiguous buffers; got 'memref<16x32xbf16, strided<[64, 1]>>'}}
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<16x32xbf16, strided<[64, 1]>>, memref<4x32x48xbf16>, memref<4xi32> -> memref<16x48xbf16>
  return
}

// -----

// An epilogue (gate|up halves, a row scale): the runtime computes the f32
// product [R, 2F] into a temporary, then one parallel loop over c applies
// the epilogue to columns j and F + j and the row's scale, rounds to bf16
// and stores; the temporary is freed. F = 48, 2F = 96.
// FOLD-LABEL: func.func @gmm_gated_epilogue(
// FOLD-SAME:    %[[A:[^:]+]]: memref<16x32xbf16>, %[[B:[^:]+]]: memref<4x32x96xbf16>, %[[N:[^:]+]]: memref<4xi32>, %[[S:[^:]+]]: memref<16xf32>, %[[C:[^:]+]]: memref<16x48xbf16>)
// FOLD:         %[[P:.*]] = memref.alloc() : memref<16x96xf32>
// FOLD:         call @moert_entry_grouped_gemm_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %c4_i64, %c32_i64, %c96_i64, %c0_i32, %{{.*}}, %c1_i32, %c16_i64)
// FOLD:         scf.parallel (%[[R:.*]], %[[J:.*]]) = (%c0, %c0) to (%c16, %c48) step (%c1, %c1) {
// FOLD-DAG:       %[[G:.*]] = memref.load %[[P]][%[[R]], %[[J]]] : memref<16x96xf32>
// FOLD-DAG:       %[[JU:.*]] = arith.addi %[[J]], %c48 : index
// FOLD-DAG:       %[[U:.*]] = memref.load %[[P]][%[[R]], %[[JU]]] : memref<16x96xf32>
// FOLD-DAG:       %[[SR:.*]] = memref.load %[[S]][%[[R]]] : memref<16xf32>
// FOLD:           %[[GU:.*]] = arith.mulf %[[G]], %[[U]] : f32
// FOLD:           %[[V:.*]] = arith.mulf %[[GU]], %[[SR]] : f32
// FOLD:           %[[T:.*]] = arith.truncf %[[V]] : f32 to bf16
// FOLD:           memref.store %[[T]], %[[C]][%[[R]], %[[J]]] : memref<16x48xbf16>
// FOLD:         memref.dealloc %[[P]] : memref<16x96xf32>
func.func @gmm_gated_epilogue(%a: memref<16x32xbf16>, %b: memref<4x32x96xbf16>, %n: memref<4xi32>, %s: memref<16xf32>, %c: memref<16x48xbf16>) {
  moe.grouped_matmul %a, %b, %n row_scale(%s : memref<16xf32>) outs(%c) epilogue {
  ^bb0(%gate: f32, %up: f32, %scale: f32):
    %h = arith.mulf %gate, %up : f32
    %v = arith.mulf %h, %scale : f32
    moe.yield %v : f32
  } : memref<16x32xbf16>, memref<4x32x96xbf16>, memref<4xi32> -> memref<16x48xbf16>
  return
}

// -----

// Gate and up as two weights (up_weight): cuBLASLt reads the halves from
// one weight, so the two are copied side by side into a temporary
// [G, K, 2F] first (then as above), freed after the epilogue.
// FOLD-LABEL: func.func @gmm_up_weight(
// FOLD-SAME:    %[[A:[^:]+]]: memref<16x32xbf16>, %[[BG:[^:]+]]: memref<4x32x48xbf16>, %[[BU:[^:]+]]: memref<4x32x48xbf16>, %[[N:[^:]+]]: memref<4xi32>, %[[C:[^:]+]]: memref<16x48xbf16>)
// FOLD:         %[[W:.*]] = memref.alloc() : memref<4x32x96xbf16>
// FOLD:         %[[GATE:.*]] = memref.subview %[[W]][0, 0, 0] [4, 32, 48] [1, 1, 1]
// FOLD:         linalg.copy ins(%[[BG]] : memref<4x32x48xbf16>) outs(%[[GATE]] :
// FOLD:         %[[UP:.*]] = memref.subview %[[W]][0, 0, 48] [4, 32, 48] [1, 1, 1]
// FOLD:         linalg.copy ins(%[[BU]] : memref<4x32x48xbf16>) outs(%[[UP]] :
// FOLD:         %[[P:.*]] = memref.alloc() : memref<16x96xf32>
// FOLD:         %[[WP:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// FOLD:         call @moert_entry_grouped_gemm_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %c4_i64, %c32_i64, %c96_i64, %c0_i32, %{{.*}}, %c1_i32, %c16_i64)
// FOLD:         scf.parallel
// FOLD:           arith.addi %{{.*}}, %c48 : index
// FOLD:         memref.dealloc %[[P]] : memref<16x96xf32>
// FOLD-NEXT:    memref.dealloc %[[W]] : memref<4x32x96xbf16>
func.func @gmm_up_weight(%a: memref<16x32xbf16>, %bg: memref<4x32x48xbf16>, %bu: memref<4x32x48xbf16>, %n: memref<4xi32>, %c: memref<16x48xbf16>) {
  moe.grouped_matmul %a, %bg, %n up_weight(%bu : memref<4x32x48xbf16>) outs(%c) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %h = arith.mulf %gate, %up : f32
    moe.yield %h : f32
  } : memref<16x32xbf16>, memref<4x32x48xbf16>, memref<4xi32> -> memref<16x48xbf16>
  return
}

// -----

// Epilogue inputs and a second destination: the same loop over c loads each
// input's element (widened to f32) and stores every destination, each
// rounded to its own element type.
// FOLD-LABEL: func.func @gmm_epilogue_inputs(
// FOLD-SAME:    %[[A:[^:]+]]: memref<16x32xbf16>, %[[B:[^:]+]]: memref<4x48x32xbf16>, %[[N:[^:]+]]: memref<4xi32>, %[[G:[^:]+]]: memref<16x48xbf16>, %[[C:[^:]+]]: memref<16x48xbf16>, %[[C1:[^:]+]]: memref<16x48xf32>)
// FOLD:         %[[P:.*]] = memref.alloc() : memref<16x48xf32>
// FOLD:         call @moert_entry_grouped_gemm_bf16(
// FOLD:         scf.parallel (%[[R:.*]], %[[J:.*]]) = (%c0, %c0) to (%c16, %c48) step (%c1, %c1) {
// FOLD-DAG:       %[[PV:.*]] = memref.load %[[P]][%[[R]], %[[J]]] : memref<16x48xf32>
// FOLD-DAG:       %[[GV:.*]] = memref.load %[[G]][%[[R]], %[[J]]] : memref<16x48xbf16>
// FOLD:           %[[GW:.*]] = arith.extf %[[GV]] : bf16 to f32
// FOLD:           %[[X:.*]] = arith.mulf %[[PV]], %[[GW]] : f32
// FOLD:           %[[T:.*]] = arith.truncf %[[X]] : f32 to bf16
// FOLD:           memref.store %[[T]], %[[C]][%[[R]], %[[J]]] : memref<16x48xbf16>
// FOLD:           memref.store %[[GW]], %[[C1]][%[[R]], %[[J]]] : memref<16x48xf32>
// FOLD:         memref.dealloc %[[P]] : memref<16x48xf32>
func.func @gmm_epilogue_inputs(%a: memref<16x32xbf16>, %b: memref<4x48x32xbf16>, %n: memref<4xi32>, %g: memref<16x48xbf16>, %c: memref<16x48xbf16>, %c1: memref<16x48xf32>) {
  moe.grouped_matmul %a, %b, %n epilogue_inputs(%g : memref<16x48xbf16>) outs(%c, %c1) epilogue {
  ^bb0(%acc: f32, %gate: f32):
    %v = arith.mulf %acc, %gate : f32
    moe.yield %v, %gate : f32, f32
  } {weight_layout = #moe<weight_layout nk>} : memref<16x32xbf16>, memref<4x48x32xbf16>, memref<4xi32> -> memref<16x48xbf16>, memref<16x48xf32>
  return
}

// -----

// `accumulate`: the runtime computes the f32 product into a temporary, then
// one parallel loop over c adds c's value and the product, rounds once to
// bf16 and stores; the temporary is freed.
// FOLD-LABEL: func.func @gmm_accumulate(
// FOLD-SAME:    %[[A:[^:]+]]: memref<16x32xbf16>, %[[B:[^:]+]]: memref<4x32x48xbf16>, %[[N:[^:]+]]: memref<4xi32>, %[[C:[^:]+]]: memref<16x48xbf16>)
// FOLD:         %[[P:.*]] = memref.alloc() : memref<16x48xf32>
// FOLD:         call @moert_entry_grouped_gemm_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %c4_i64, %c32_i64, %c48_i64, %c0_i32, %{{.*}}, %c1_i32, %c16_i64)
// FOLD:         scf.parallel (%[[R:.*]], %[[J:.*]]) = (%c0, %c0) to (%c16, %c48) step (%c1, %c1) {
// FOLD-DAG:       %[[PV:.*]] = memref.load %[[P]][%[[R]], %[[J]]] : memref<16x48xf32>
// FOLD-DAG:       %[[OLD:.*]] = memref.load %[[C]][%[[R]], %[[J]]] : memref<16x48xbf16>
// FOLD:           %[[W:.*]] = arith.extf %[[OLD]] : bf16 to f32
// FOLD:           %[[SUM:.*]] = arith.addf %[[W]], %[[PV]] : f32
// FOLD:           %[[T:.*]] = arith.truncf %[[SUM]] : f32 to bf16
// FOLD:           memref.store %[[T]], %[[C]][%[[R]], %[[J]]] : memref<16x48xbf16>
// FOLD:         memref.dealloc %[[P]] : memref<16x48xf32>
func.func @gmm_accumulate(%a: memref<16x32xbf16>, %b: memref<4x32x48xbf16>, %n: memref<4xi32>, %c: memref<16x48xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) {accumulate} : memref<16x32xbf16>, memref<4x32x48xbf16>, memref<4xi32> -> memref<16x48xbf16>
  return
}
