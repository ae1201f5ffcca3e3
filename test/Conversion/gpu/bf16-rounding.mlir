// Kernels round f32 to bf16 with cvt.rn (gpu-native-bf16-truncation, on by
// default for sm_80 and newer): a blockwise FP8 weight gradient's epilogue
// converts its 64 values a thread in pairs (cvt.rn.bf16x2.f32), each pair's
// NaNs then given the integer rounding's 0x7FC0 by a signed min (min.s16x2
// with 0x7FC07FC0 = 2143322048); bf16-instructions=false keeps the integer
// rounding (bfe of the rounding bit, then the add). Each k-step's first wgmma overwrites
// the product's registers (scale-d 0) instead of adding to 64 moved zeros.
// REQUIRES: ptxas
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' -o %t.isa.mlir
// RUN: sed 's/\\0A/\n/g; s/\\09/ /g' %t.isa.mlir > %t.ptx
// RUN: FileCheck %s --check-prefix=NATIVE < %t.ptx
// RUN: FileCheck %s --check-prefix=NANCONST < %t.ptx
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated bf16-instructions=false toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.int.nvvm.mlir
// RUN: moe-opt %t.int.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' -o %t.int.isa.mlir
// RUN: sed 's/\\0A/\n/g; s/\\09/ /g' %t.int.isa.mlir > %t.int.ptx
// RUN: FileCheck %s --check-prefix=INTEGER < %t.int.ptx

// NATIVE-LABEL: .visible .entry wgrad_{{[0-9]+}}_grouped_weight_grad(
// NATIVE-NOT:  cvt.rn.bf16.f32
// NATIVE:      setp.ne.b32 p, 0, 0;
// NATIVE-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2
// NATIVE:      setp.ne.b32 p, 1, 0;
// NATIVE-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2
// NATIVE-NOT:  cvt.rn.bf16.f32
// NATIVE:      mov.b32 [[NAN:%r[0-9]+]], 2143322048;
// NATIVE-NOT:  cvt.rn.bf16.f32
// NATIVE:      cvt.rn.bf16x2.f32 [[PAIR:%r[0-9]+]],
// NATIVE-NEXT: min.s16x2 {{%r[0-9]+}}, [[PAIR]], [[NAN]];
// NATIVE-NOT:  bfe.u32 {{.*}}, 16, 1;
// NATIVE-NOT:  cvt.rn.bf16.f32
// NATIVE-NOT:  setp.nan.f32
// NATIVE:      ret;

// A NaN constant that LLVM folds into the value to round (x + -NaN) is still
// converted by the chip: cvt.rn and the min at run time, no folded bf16
// constant such as -NaN's 0xFFC0 (-4128832 for a pair) in its place.
// NANCONST-LABEL: .visible .entry nan_const_{{[0-9]+}}_elementwise(
// NANCONST-NOT:   -4128832
// NANCONST-NOT:   0xFFC0
// NANCONST:       cvt.rn.bf16
// NANCONST-NOT:   -4128832
// NANCONST:       min.s16
// NANCONST-NOT:   -4128832
// NANCONST:       ret;

// INTEGER-NOT: cvt.rn.bf16
// INTEGER:     bfe.u32 {{.*}}, 16, 1;
// INTEGER-NOT: cvt.rn.bf16
func.func @wgrad(%x: tensor<128x256xf8E4M3FN>, %y: tensor<128x256xf8E5M2>,
                 %sizes: tensor<2xi32>, %sx: tensor<128x2xf32>,
                 %sy: tensor<128x2xf32>) -> tensor<2x128x128xbf16> {
  %e = tensor.empty() : tensor<2x128x128xbf16>
  %c = moe.grouped_weight_grad %x, %y, %sizes scales(%sx, %sy) outs(%e) {transposed_operands}
      : tensor<128x256xf8E4M3FN>, tensor<128x256xf8E5M2>, tensor<2xi32>,
        tensor<128x2xf32>, tensor<128x2xf32> -> tensor<2x128x128xbf16>
  return %c : tensor<2x128x128xbf16>
}

func.func @nan_const(%x: tensor<64x1024xf32>) -> tensor<64x1024xbf16> {
  %init = tensor.empty() : tensor<64x1024xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x1024xf32>) outs(%init : tensor<64x1024xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %nan = arith.constant 0xFFC00000 : f32
    %a = arith.addf %v, %nan : f32
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x1024xbf16>
  return %r : tensor<64x1024xbf16>
}
