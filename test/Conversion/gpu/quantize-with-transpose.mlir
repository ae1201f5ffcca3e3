// A matrix quantized in 1x128 blocks both ways (moe-fp8-placement's
// blockwise backward, for each gradient) through the whole GPU pipeline:
// with fp8-quantize-with-transpose (the default), moe-fuse
// quantize-with-transpose makes the two quantizes one kernel; with it off
// they stay two.
// x [1024, 384] bf16: 8 · 3 = 24 tiles of 128 x 128, a block of 256
// threads each (the staged schedule). In the PTX a thread loads 8 rows of
// 16 bytes and stores them into the shared tile (8 st.shared.v4), one
// barrier, then reads 32 rows of each of 2 columns back (ld.shared.b16,
// one column after the other); the
// rows' amax butterflies (xor 8, 4, 2, 1 for each of 8 rows) and the
// columns' (xor 2, 1 for each of 2 columns); one cvt per two values, e4m3
// for the rows (8 rows x 8 values / 2 = 32) and e5m2 for the columns (2 x
// 32 / 2, twice: once after the reciprocal's corrections and once after
// the division for scales outside their range); 8 FP8 bytes a row (8
// st.global.v2). Bit for bit the reference:
// test/e2e/fp8/quantize-with-transpose.test and test/gpu/fp8-quantize.test.
// REQUIRES: ptxas

// RUN: moe-opt %S/../../e2e/fp8/Inputs/quantize-both-ways.mlir --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path fp8-quantize-with-transpose=true})' | FileCheck %s
// RUN: moe-opt %S/../../e2e/fp8/Inputs/quantize-both-ways.mlir --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' | FileCheck %s
// RUN: moe-opt %S/../../e2e/fp8/Inputs/quantize-both-ways.mlir --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path fp8-quantize-with-transpose=false})' | FileCheck %s --check-prefix=OFF
// RUN: moe-opt %S/../../e2e/fp8/Inputs/quantize-both-ways.mlir --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path fp8-quantize-with-transpose=true})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' -o %t.isa.mlir
// The PTX is one string attribute: one instruction a line for the counts.
// RUN: sed 's/\\0A/\n/g' %t.isa.mlir > %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=SHARED < %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=SHFL8 < %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=SHFL1 < %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=STORES < %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=E4M3 < %t.ptx.mlir
// RUN: FileCheck %s --check-prefix=E5M2 < %t.ptx.mlir

// CHECK-LABEL: llvm.func @both_ways(
// CHECK:         %[[BLOCKS:.*]] = llvm.mlir.constant(24 : index) : i64
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @both_ways_0_quantize_with_transpose::@both_ways_0_quantize_with_transpose blocks in (%[[BLOCKS]], %{{.*}}, %{{.*}}) threads in
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return
// CHECK:       gpu.binary @both_ways_0_quantize_with_transpose
// CHECK-NOT:   gpu.binary

// OFF-LABEL: llvm.func @both_ways(
// OFF:         gpu.launch_func {{.*}} @both_ways_0_quantize::@both_ways_0_quantize
// OFF:         gpu.launch_func {{.*}} @both_ways_1_quantize::@both_ways_1_quantize
// OFF-NOT:     quantize_with_transpose

// PTX-COUNT-8:   ld.global.v4.b32
// PTX-NOT:       ld.global
// SHARED-COUNT-8:  st.shared.v4.b32
// SHARED:          bar.sync
// SHARED-NOT:      bar.sync
// SHARED-COUNT-64: ld.shared.b16
// SHARED-NOT:      ld.shared
// SHFL8-COUNT-8:   shfl.sync.bfly.b32 {{.*}}, 8, 31, -1
// SHFL8-NOT:       shfl.sync.bfly.b32 {{.*}}, 8, 31, -1
// SHFL8-NOT:       shfl.sync.bfly.b32 {{.*}}, 16, 31, -1
// SHFL1-COUNT-10:  shfl.sync.bfly.b32 {{.*}}, 1, 31, -1
// SHFL1-NOT:       shfl.sync.bfly.b32 {{.*}}, 1, 31, -1
// STORES-COUNT-8:  st.global.v2.b32
// STORES-NOT:      st.global.v2.b32
// E4M3-COUNT-32:   cvt.rn.satfinite.e4m3x2.f32
// E4M3-NOT:        cvt.rn.satfinite.e4m3x2.f32
// E5M2-COUNT-64:   cvt.rn.satfinite.e5m2x2.f32
// E5M2-NOT:        cvt.rn.satfinite.e5m2x2.f32
