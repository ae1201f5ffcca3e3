// moe-lower-to-gpu with the generated GEMMs runs moe-fuse with both fusions:
// the input gradient of a gated FFN, dgate · W_gateᵀ + dup · W_upᵀ, becomes
// the second grouped matmul accumulating into the first (no sum kernel),
// and the pair becomes one generated kernel over both products' k-steps.
// With cuBLASLt nothing is fused.
// REQUIRES: ptxas
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-after=moe-fuse -o %t.mlir 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: FileCheck %s --check-prefix=KERNELS < %t.mlir
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=cublaslt toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-after=moe-fuse -o /dev/null 2>&1 | FileCheck %s --check-prefix=CUBLASLT --allow-empty

// FUSED-LABEL: func.func @input_gradient(
// FUSED:         %[[P:.*]] = moe.grouped_matmul {{.*}} {weight_layout = #moe<weight_layout nk>}
// FUSED:         moe.grouped_matmul {{.*}} outs(%[[P]]) {accumulate, weight_layout = #moe<weight_layout nk>}
// FUSED-NOT:     arith.addf
// KERNELS:       gpu.launch_func {{.*}}@input_gradient_0_grouped_matmul
// KERNELS-NOT:   gpu.launch_func
// CUBLASLT-NOT:  accumulate
func.func @input_gradient(%dg: tensor<256x128xbf16>, %du: tensor<256x128xbf16>, %wg: tensor<4x256x128xbf16>, %wu: tensor<4x256x128xbf16>, %s: tensor<4xi32>) -> tensor<256x256xbf16> {
  %e0 = tensor.empty() : tensor<256x256xbf16>
  %p = moe.grouped_matmul %dg, %wg, %s outs(%e0) {weight_layout = #moe<weight_layout nk>} : tensor<256x128xbf16>, tensor<4x256x128xbf16>, tensor<4xi32> -> tensor<256x256xbf16>
  %e1 = tensor.empty() : tensor<256x256xbf16>
  %q = moe.grouped_matmul %du, %wu, %s outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<256x128xbf16>, tensor<4x256x128xbf16>, tensor<4xi32> -> tensor<256x256xbf16>
  %sum = arith.addf %p, %q : tensor<256x256xbf16>
  return %sum : tensor<256x256xbf16>
}
