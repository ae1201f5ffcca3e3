// moe-lower-to-gpu{fp8-glu-quantize}: the FP8 forward's glu → quantize
// block_1x128 (fc2's input) is one kernel reading gate and up; the bf16 h
// is never allocated (the default). With the option off the glu writes h
// and the quantize's kernel reads it back (OFF). Here gate and up are the function's results
// too (the backward's residuals, copied to the result buffers after the
// kernel).
// REQUIRES: ptxas
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{fp8-glu-quantize toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-after=convert-moe-to-parallel-loops -o /dev/null 2>&1 | FileCheck %s
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{fp8-glu-quantize=false toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-after=convert-moe-to-parallel-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @fc2_input
// CHECK-NOT:   memref.alloc(){{.*}} : memref<512x768xbf16>
// CHECK:       math.exp
// CHECK:       return

// OFF-LABEL:   func.func @fc2_input
// OFF:         %[[H:.*]] = memref.alloc(){{.*}} : memref<512x768xbf16>
// OFF:         vector.store %{{.*}}, %[[H]]
// OFF:         vector.load %[[H]]
func.func @fc2_input(%g: tensor<512x768xbf16>, %u: tensor<512x768xbf16>) -> (tensor<512x768xf8E4M3FN>, tensor<512x6xf32>, tensor<512x768xbf16>, tensor<512x768xbf16>) {
  %e0 = tensor.empty() : tensor<512x768xbf16>
  %h = moe.glu silu %g, %u outs(%e0) : tensor<512x768xbf16>, tensor<512x768xbf16> -> tensor<512x768xbf16>
  %e1 = tensor.empty() : tensor<512x768xf8E4M3FN>
  %e2 = tensor.empty() : tensor<512x6xf32>
  %q, %s = moe.quantize block_1x128 %h outs(%e1, %e2) : tensor<512x768xbf16> -> tensor<512x768xf8E4M3FN>, tensor<512x6xf32>
  return %q, %s, %g, %u : tensor<512x768xf8E4M3FN>, tensor<512x6xf32>, tensor<512x768xbf16>, tensor<512x768xbf16>
}
