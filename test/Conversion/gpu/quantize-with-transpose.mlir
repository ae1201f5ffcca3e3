// A matrix quantized in 1x128 blocks both ways (moe-fp8-placement's
// blockwise backward, for each gradient) through the whole GPU pipeline:
// with fp8-quantize-with-transpose, moe-fuse quantize-with-transpose makes
// the two quantizes one kernel; by default (off: that kernel measured
// slower than the two) they stay two.
// x [1024, 384] bf16: 8 · 3 = 24 tiles of 128 x 128, a warp each, 3 blocks
// of 256 threads. In the PTX the chunk loop's body loads 8 rows of 16
// bytes a lane, and the second pass's body loads them again (16 16-byte
// loads); the column blocks' amax butterflies (xor 16, 8, 4, 2 for 8
// columns a chunk: 8 each) and the rows' (xor 1 for 8 rows); one cvt per
// two values, e4m3 for the rows and e5m2 for the columns (64 / 2 = 32
// each: the chunks are a loop, not unrolled; the columns' twice, once
// after the reciprocal's corrections and once after the division for
// scales outside their range). Bit for bit the reference:
// test/e2e/fp8/quantize-with-transpose.test and test/gpu/fp8-quantize.test.
// REQUIRES: ptxas

// RUN: moe-opt %S/../../e2e/fp8/Inputs/quantize-both-ways.mlir --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path fp8-quantize-with-transpose=true})' | FileCheck %s
// RUN: moe-opt %S/../../e2e/fp8/Inputs/quantize-both-ways.mlir --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' | FileCheck %s --check-prefix=OFF
// RUN: moe-opt %S/../../e2e/fp8/Inputs/quantize-both-ways.mlir --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path fp8-quantize-with-transpose=true})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' -o %t.isa.mlir
// The PTX is one string attribute: one instruction a line for the counts.
// RUN: sed 's/\\0A/\n/g' %t.isa.mlir > %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=SHFL16 < %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=SHFL1 < %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=E4M3 < %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=E5M2 < %t.ptx.mlir

// CHECK-LABEL: llvm.func @both_ways(
// CHECK:         %[[BLOCKS:.*]] = llvm.mlir.constant(3 : index) : i64
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @both_ways_0_quantize_with_transpose::@both_ways_0_quantize_with_transpose blocks in (%[[BLOCKS]], %{{.*}}, %{{.*}}) threads in
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return
// CHECK:       gpu.binary @both_ways_0_quantize_with_transpose
// CHECK-NOT:   gpu.binary

// OFF-LABEL: llvm.func @both_ways(
// OFF:         gpu.launch_func {{.*}} @both_ways_0_quantize::@both_ways_0_quantize
// OFF:         gpu.launch_func {{.*}} @both_ways_1_quantize::@both_ways_1_quantize
// OFF-NOT:     quantize_with_transpose

// PTX-COUNT-16:  ld.global.v4.b32
// PTX-NOT:       ld.global
// SHFL16-COUNT-8:  shfl.sync.bfly.b32 {{.*}}, 16, 31, -1
// SHFL16-NOT:      shfl.sync.bfly.b32 {{.*}}, 16, 31, -1
// SHFL1-COUNT-8:   shfl.sync.bfly.b32 {{.*}}, 1, 31, -1
// SHFL1-NOT:       shfl.sync.bfly.b32 {{.*}}, 1, 31, -1
// E4M3-COUNT-32:   cvt.rn.satfinite.e4m3x2.f32
// E4M3-NOT:        cvt.rn.satfinite.e4m3x2.f32
// E5M2-COUNT-64:   cvt.rn.satfinite.e5m2x2.f32
// E5M2-NOT:        cvt.rn.satfinite.e5m2x2.f32
