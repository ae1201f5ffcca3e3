// The PTX ISA version follows the chip unless given: up to Hopper 8.3 where
// generated grouped GEMMs may be emitted (their TMA descriptor fences; gemm=auto
// generates the FP8 ones, gemm=generated all), else 8.0 (gemm=cublaslt); 8.8 for
// sm_100 and newer (ptx80 cannot describe them: LLVM would abort), and an
// explicit `features` wins.
// REQUIRES: ptxas
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' -o /dev/null --mlir-print-ir-after=nvvm-attach-target 2>&1 | FileCheck %s --check-prefix=HOPPER
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated toolkit=%cuda_path})' -o /dev/null --mlir-print-ir-after=nvvm-attach-target 2>&1 | FileCheck %s --check-prefix=GENERATED
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=cublaslt toolkit=%cuda_path})' -o /dev/null --mlir-print-ir-after=nvvm-attach-target 2>&1 | FileCheck %s --check-prefix=CUBLASLT
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{chip=sm_100a toolkit=%cuda_path})' -o /dev/null --mlir-print-ir-after=nvvm-attach-target 2>&1 | FileCheck %s --check-prefix=BLACKWELL
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{chip=sm_90a features=+ptx86 toolkit=%cuda_path})' -o /dev/null --mlir-print-ir-after=nvvm-attach-target 2>&1 | FileCheck %s --check-prefix=EXPLICIT
// HOPPER:    #nvvm.target<O = 3, chip = "sm_90a", features = "+ptx83">
// CUBLASLT:  #nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">
// GENERATED: #nvvm.target<O = 3, chip = "sm_90a", features = "+ptx83">
// BLACKWELL: #nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">
// EXPLICIT:  #nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">
func.func @glu(%g: tensor<8x16xbf16>, %u: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  %init1 = tensor.empty() : tensor<8x16xbf16>
  %h = moe.glu silu %g, %u outs(%init1) : tensor<8x16xbf16>, tensor<8x16xbf16> -> tensor<8x16xbf16>
  return %h : tensor<8x16xbf16>
}
