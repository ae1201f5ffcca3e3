// moe.quantize / moe.dequantize through the whole GPU pipeline: their
// schedules (QuantSchedules.h) as kernels, none of them single-threaded.
// x [64, 1024] bf16, w [2, 256, 384] bf16:
//   tensorwise   8 blocks × 256 threads, four 16-byte loads a thread and a
//                warp butterfly (5 shuffles); one warp of 32 for the scale
//                (div.rn: IEEE division, as the CPU); 32 blocks × 256 for
//                the cast, one 16-byte load and one 8-byte store a thread;
//   block_1x128  64 · 8 (row, block) units, 16 a block: 32 blocks, one
//                16-byte load, 4 shuffles, one 8-byte store a thread;
//   block_128x128  2 · 2 · 3 = 12 tiles, a warp each: 2 blocks; 4 rows of
//                loads in flight in each of the two loops;
//   dequantize   a thread per 8 elements: one 8-byte FP8 load (four pairs),
//                one 16-byte store.
// The casts convert two values per cvt instruction (fp8-instructions, on
// for sm_89 and newer): cvt.rn.satfinite.e4m3x2.f32 to FP8,
// cvt.rn.f16x2.e4m3x2 from it; with fp8-instructions=false, the integer
// arithmetic of the CPU reference and no FP8 cvt.
// REQUIRES: ptxas

// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' | FileCheck %s
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=PTX
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path fp8-instructions=false})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.arith.mlir
// RUN: moe-opt %t.arith.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=ARITH

func.func @fp8(%x: tensor<64x1024xbf16>, %w: tensor<2x256x384xbf16>)
    -> (tensor<64x1024xf8E4M3FN>, tensor<f32>, tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>,
        tensor<2x256x384xf8E4M3FN>, tensor<2x2x3xf32>, tensor<64x1024xbf16>) {
  %q0 = tensor.empty() : tensor<64x1024xf8E4M3FN>
  %s0 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%q0, %s0) : tensor<64x1024xbf16> -> tensor<64x1024xf8E4M3FN>, tensor<f32>
  %b0 = tensor.empty() : tensor<64x8xf32>
  %qb, %sb = moe.quantize block_1x128 %x outs(%q0, %b0) : tensor<64x1024xbf16> -> tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>
  %wq0 = tensor.empty() : tensor<2x256x384xf8E4M3FN>
  %ws0 = tensor.empty() : tensor<2x2x3xf32>
  %wq, %ws = moe.quantize block_128x128 %w outs(%wq0, %ws0) : tensor<2x256x384xbf16> -> tensor<2x256x384xf8E4M3FN>, tensor<2x2x3xf32>
  %y0 = tensor.empty() : tensor<64x1024xbf16>
  %y = moe.dequantize block_1x128 %qb, %sb outs(%y0) : tensor<64x1024xf8E4M3FN>, tensor<64x8xf32> -> tensor<64x1024xbf16>
  return %q, %s, %qb, %sb, %wq, %ws, %y : tensor<64x1024xf8E4M3FN>, tensor<f32>, tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>, tensor<2x256x384xf8E4M3FN>, tensor<2x2x3xf32>, tensor<64x1024xbf16>
}

// CHECK-LABEL: llvm.func @fp8(
// CHECK-DAG:   %[[C1:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK-DAG:   %[[C2:.*]] = llvm.mlir.constant(2 : index) : i64
// CHECK-DAG:   %[[C8:.*]] = llvm.mlir.constant(8 : index) : i64
// CHECK-DAG:   %[[C32:.*]] = llvm.mlir.constant(32 : index) : i64
// CHECK-DAG:   %[[C256:.*]] = llvm.mlir.constant(256 : index) : i64
// CHECK:       gpu.launch_func <%{{.*}}> @fp8_0_quantize::@fp8_0_quantize blocks in (%[[C8]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]])
// CHECK:       gpu.launch_func <%{{.*}}> @fp8_1_quantize::@fp8_1_quantize blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C32]], %[[C1]], %[[C1]])
// CHECK:       gpu.launch_func <%{{.*}}> @fp8_2_quantize::@fp8_2_quantize blocks in (%[[C32]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]])
// CHECK:       gpu.launch_func <%{{.*}}> @fp8_3_quantize::@fp8_3_quantize blocks in (%[[C32]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]])
// CHECK:       gpu.launch_func <%{{.*}}> @fp8_4_quantize::@fp8_4_quantize blocks in (%[[C2]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]])
// CHECK:       gpu.launch_func <%{{.*}}> @fp8_5_dequantize::@fp8_5_dequantize blocks in (%[[C32]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]])
// CHECK-NOT:   gpu.launch_func

// PTX: gpu.binary @fp8_0_quantize {{.*}}.maxntid 256, 1, 1{{(.*ld.global.v4.b32){4}()}}{{(.*shfl.sync.bfly.b32){5}()}}
// PTX: gpu.binary @fp8_1_quantize {{.*}}.maxntid 32, 1, 1{{(.*shfl.sync.bfly.b32){5}()}}{{.*}}div.rn.f32
// PTX: gpu.binary @fp8_2_quantize {{.*}}.maxntid 256, 1, 1{{.*}}ld.global.v4.b32{{(.*div.rn.f32){8}()}}{{(.*cvt.rn.satfinite.e4m3x2.f32){4}()}}{{.*}}st.global.v2.b32
// PTX: gpu.binary @fp8_3_quantize {{.*}}.maxntid 256, 1, 1{{.*}}ld.global.v4.b32{{(.*shfl.sync.bfly.b32){4}()}}{{(.*div.rn.f32){8}()}}{{(.*cvt.rn.satfinite.e4m3x2.f32){4}()}}{{.*}}st.global.v2.b32
// PTX: gpu.binary @fp8_4_quantize {{.*}}.maxntid 256, 1, 1{{(.*ld.global.v4.b32){4}()}}{{(.*shfl.sync.bfly.b32){5}()}}{{(.*ld.global.v4.b32){4}()}}{{((.*cvt.rn.satfinite.e4m3x2.f32){4}.*st.global.v2.b32){4}()}}
// PTX: gpu.binary @fp8_5_dequantize {{.*}}.maxntid 256, 1, 1{{.*}}ld.global.v4.b16{{(.*cvt.rn.f16x2.e4m3x2){4}()}}{{.*}}st.global.v4.b32

// ARITH-NOT: e4m3x2
