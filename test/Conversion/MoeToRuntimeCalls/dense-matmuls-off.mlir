// RUN: moe-opt %s --convert-moe-to-runtime-calls="dense-matmuls=false" | FileCheck %s
// RUN: moe-opt %s --convert-moe-to-runtime-calls | FileCheck %s --check-prefix=ON

// dense-matmuls=false: moe.gate and the f32 contraction of the router's
// adjoint stay as they are, for the compiler's own kernels
// (convert-moe-to-parallel-loops), and no dense cuBLASLt call is declared;
// the grouped matmul still becomes its runtime call. By default all three
// are runtime calls (contractions.mlir has the details).

// CHECK-NOT:     moert_entry_matmul
// CHECK-LABEL: func.func @router(
// CHECK:         moe.gate
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         call @moert_entry_grouped_gemm_bf16(
// CHECK-NOT:     moert_entry_matmul
// ON-LABEL:    func.func @router(
// ON-NOT:        moe.gate
// ON:            call @moert_entry_matmul_bf16(
// ON:            call @moert_entry_matmul_bf16(
// ON:            call @moert_entry_grouped_gemm_bf16(
func.func @router(%x: memref<96x40xbf16>, %w: memref<40x8xf32>, %logits: memref<96x8xf32>,
                  %g: memref<96x8xf32>, %dw: memref<40x8xf32>,
                  %a: memref<64x40xbf16>, %b: memref<4x40x16xbf16>, %sizes: memref<4xi32>,
                  %c: memref<64x16xbf16>) {
  moe.gate %x, %w outs(%logits) : memref<96x40xbf16>, memref<40x8xf32> -> memref<96x8xf32>
  linalg.generic {indexing_maps = [affine_map<(h, e, t) -> (t, h)>, affine_map<(h, e, t) -> (t, e)>, affine_map<(h, e, t) -> (h, e)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %g : memref<96x40xbf16>, memref<96x8xf32>) outs(%dw : memref<40x8xf32>) {
  ^bb0(%xa: bf16, %ga: f32, %acc: f32):
    %xf = arith.extf %xa : bf16 to f32
    %m = arith.mulf %xf, %ga : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  moe.grouped_matmul %a, %b, %sizes outs(%c) : memref<64x40xbf16>, memref<4x40x16xbf16>, memref<4xi32> -> memref<64x16xbf16>
  return
}
