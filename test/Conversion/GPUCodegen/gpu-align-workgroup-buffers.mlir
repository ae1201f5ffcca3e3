// RUN: moe-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(gpu-align-workgroup-buffers))' | FileCheck %s
// RUN: moe-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(gpu-align-workgroup-buffers{alignment=32}))' | FileCheck %s --check-prefix=A32

// Workgroup buffers without an alignment get 16 bytes (the transpose tiles'
// 16-byte chunks), which convert-gpu-to-nvvm puts on the buffer's global;
// one that has its own keeps it.
// CHECK-LABEL: gpu.func @tile()
// CHECK-SAME:    workgroup(%{{.*}} : memref<64x64xi16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<8xi8, #gpu.address_space<workgroup>> {llvm.align = 4 : i64})
// A32-LABEL: gpu.func @tile()
// A32-SAME:    workgroup(%{{.*}} : memref<64x64xi16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}, %{{.*}} : memref<8xi8, #gpu.address_space<workgroup>> {llvm.align = 4 : i64})
gpu.module @kernels {
  gpu.func @tile() workgroup(%tile : memref<64x64xi16, #gpu.address_space<workgroup>>,
                             %flags : memref<8xi8, #gpu.address_space<workgroup>> {llvm.align = 4 : i64}) kernel {
    gpu.return
  }
}
