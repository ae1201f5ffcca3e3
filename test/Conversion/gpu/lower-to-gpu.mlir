// The whole GPU pipeline on a small layer (T = 16 tokens, H = 8, F = 16,
// E = 4 experts, top-2): kernels compiled to sm_90a cubins by ptxas, grouped
// GEMMs as runtime calls, host code on mgpu* streams and device memory.
// REQUIRES: ptxas

// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' | FileCheck %s

// The PTX text: the IR just before gpu-module-to-binary (the same pipeline,
// printed by the pass manager; the dump is parseable MLIR), serialized to
// PTX instead of a cubin.
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.nvvm.mlir
// RUN: moe-opt %t.nvvm.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=PTX
// The block-size option reaches the kernels (.maxntid):
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{toolkit=%cuda_path block-size=128})' \
// RUN:   --mlir-print-ir-before=gpu-module-to-binary -o /dev/null 2> %t.b128.mlir
// RUN: moe-opt %t.b128.mlir --gpu-module-to-binary='format=isa toolkit=%cuda_path' | FileCheck %s --check-prefix=B128

// The runtime's grouped GEMM, declared once.
// CHECK:       llvm.func @moert_entry_grouped_gemm_bf16(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, !llvm.ptr, i32, i64)
// Host function: bare device pointers in, the two results out.
// CHECK-LABEL: llvm.func @tiny_layer(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> !llvm.struct<(ptr, ptr)>
// CHECK-DAG:   %[[G:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK-DAG:   %[[H:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-DAG:   %[[F:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-DAG:   %[[R:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-DAG:   %[[ZERO32:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG:   %[[BLOCK:.*]] = llvm.mlir.constant(256 : index) : i64
// CHECK:       %[[S:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK:       llvm.call @mgpuMemAlloc(%{{.*}}, %[[S]], %{{.*}}) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// The router projection: the f32 router weight's three bf16 parts side by
// side (split_bf16), then one bf16 cuBLASLt GEMM (x is bf16, read once) of
// x and the parts writing a [T, 3E] temporary (accumulate = 0), whose three
// column blocks a split_bf16 kernel writes into the logits: x·hi, plus
// x·lo + x·mid where finite. Nothing zeroes the logits first.
// CHECK:       gpu.launch_func <%[[S]] : !llvm.ptr> @tiny_layer_0_split_bf16::@tiny_layer_0_split_bf16 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[BLOCK]], %{{.*}}, %{{.*}}) : i64 args(
// The GEMM is enqueued on the same stream: no host wait before it
// (gpu-defer-host-waits), and the next kernel goes on that stream.
// CHECK-NOT:   llvm.call @mgpuStreamSynchronize(
// CHECK:       llvm.call @moert_entry_matmul_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[H]])
// CHECK-NOT:   llvm.call @moert_entry_matmul_bf16(
// CHECK-NOT:   llvm.call @mgpuStreamSynchronize(
// CHECK:       gpu.launch_func <%[[S]] : !llvm.ptr> @tiny_layer_1_split_bf16::@tiny_layer_1_split_bf16
// CHECK:       gpu.launch_func <%{{.*}} : !llvm.ptr> @tiny_layer_2_route::@tiny_layer_2_route
// Before the cuBLASLt grouped GEMM (it reads the group sizes on the host)
// the stream's work is finished.
// CHECK:       llvm.call @mgpuStreamSynchronize(
// CHECK-NEXT:  llvm.call @mgpuStreamDestroy(
// CHECK-NEXT:  llvm.call @moert_entry_grouped_gemm_bf16(
// The expert FFN: gate and up ([R, H] · [E, H, F], KN, bf16 out), down
// ([R, F] · [E, F, H]); the group sizes are the same buffer each time.
// CHECK-SAME:    %[[A1:.*]], %{{.*}}, %[[SIZES:.*]], %[[G]], %[[H]], %[[F]], %[[ZERO32]], %{{.*}}, %[[ZERO32]], %[[R]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i32, !llvm.ptr, i32, i64) -> ()
// CHECK:       llvm.call @moert_entry_grouped_gemm_bf16(%[[A1]], %{{.*}}, %[[SIZES]], %[[G]], %[[H]], %[[F]], %[[ZERO32]], %{{.*}}, %[[ZERO32]], %[[R]])
// CHECK:       gpu.launch_func
// CHECK:       llvm.call @moert_entry_grouped_gemm_bf16(%{{.*}}, %{{.*}}, %[[SIZES]], %[[G]], %[[F]], %[[H]], %[[ZERO32]], %{{.*}}, %[[ZERO32]], %[[R]])
// CHECK-NOT:   @moert_entry_grouped_gemm_bf16
// CHECK:       gpu.launch_func
// CHECK:       llvm.call @mgpuMemFree(
// CHECK:       llvm.call @mgpuStreamSynchronize(
// CHECK-NEXT:  llvm.call @mgpuStreamDestroy(
// CHECK:       llvm.return
// Kernels: cubins (ELF, from ptxas) for sm_90a.
// Kernels are named after the op they compute, numbered in launch order.
// CHECK:       gpu.binary @tiny_layer_0_split_bf16  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx83">, properties = {{.*}}, bin = "\7FELF
// CHECK:       gpu.binary @tiny_layer_1_split_bf16  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx83">
// CHECK:       gpu.binary @tiny_layer_2_route  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx83">
// CHECK-DAG:   llvm.func @mgpuStreamCreate() -> !llvm.ptr
// CHECK-DAG:   llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK-DAG:   llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
// CHECK-DAG:   llvm.func @mgpuStreamSynchronize(!llvm.ptr)
// CHECK-DAG:   llvm.func @mgpuStreamDestroy(!llvm.ptr)
// Nothing left for the host that is not LLVM (kernels and their launches
// excepted).
// CHECK-NOT:   func.func
// CHECK-NOT:   gpu.module

// The PTX has one kernel per gpu.binary:, ISA 8.0 for sm_90a, 256 threads per block,
// the thread index feeding the range guard.
// PTX:       gpu.binary @tiny_layer_0_split_bf16  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx83">, properties = {{.*}}, assembly = "{{.*}}.version 8.3\0A.target sm_90a\0A.address_size 64\0A{{.*}}.visible .entry tiny_layer_0_split_bf16(\0A{{.*}}.maxntid 256, 1, 1\0A{{.*}}%tid.x;
// PTX:       gpu.binary @tiny_layer_2_route  [#gpu.object<{{.*}}assembly = "{{.*}}.target sm_90a\0A{{.*}}.entry tiny_layer_2_route(
// PTX-NOT:   bin = "
// B128:      gpu.binary @tiny_layer_0_split_bf16  [{{.*}}assembly = "{{.*}}.target sm_90a\0A{{.*}}.entry tiny_layer_0_split_bf16(\0A{{.*}}.maxntid 128, 1, 1\0A
// B128-NOT:  .maxntid 256
func.func @tiny_layer(%x: tensor<16x8xbf16>, %router: tensor<8x4xf32>,
                      %w_gate: tensor<4x8x16xbf16>, %w_up: tensor<4x8x16xbf16>,
                      %w_down: tensor<4x16x8xbf16>) -> (tensor<16x8xbf16>, tensor<f32>) {
  %out, %aux = moe.layer %x, %router experts(%w_gate, %w_up, %w_down)
      {k = 2 : i64, score_function = #moe<score_function softmax>, normalize = #moe<normalize sum>,
       aux_loss_coeff = 1.0e-02 : f64, z_loss_coeff = 1.0e-03 : f64}
      : (tensor<16x8xbf16>, tensor<8x4xf32>, tensor<4x8x16xbf16>, tensor<4x8x16xbf16>, tensor<4x16x8xbf16>)
      -> (tensor<16x8xbf16>, tensor<f32>)
  return %out, %aux : tensor<16x8xbf16>, tensor<f32>
}
