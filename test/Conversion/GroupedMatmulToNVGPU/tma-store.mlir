// convert-grouped-matmul-to-nvgpu{tma-store}: by default a consumer whose 64
// rows are whole stores its bf16 tile as 64 x 64 boxes by TMA (c gets a third
// tensor map); tma-store=false stores every tile through the row-masked path
// (the f32 staging, vector stores by threads), which compute-sanitizer's
// initcheck can follow (it does not see TMA bulk stores). The option also
// reaches moe-lower-to-gpu (gemm-tma-store).
// RUN: moe-opt %s --convert-grouped-matmul-to-nvgpu | FileCheck %s --check-prefix=TMA
// RUN: moe-opt %s --convert-grouped-matmul-to-nvgpu=tma-store=false | FileCheck %s --check-prefix=THREADS
// RUN: moe-opt %s --pass-pipeline='builtin.module(moe-lower-to-gpu{gemm=generated gemm-tma-store=false})' --mlir-print-ir-after=convert-grouped-matmul-to-nvgpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS

// TMA-LABEL:   func.func @matmul
// TMA-COUNT-3: call @moert_entry_tensor_map_2d
// TMA:         gpu.launch
// TMA:         nvgpu.tma.async.store
// THREADS-LABEL: func.func @matmul
// THREADS-COUNT-2: call @moert_entry_tensor_map_2d
// THREADS-NOT:   call @moert_entry_tensor_map_2d
// THREADS:       gpu.launch
// THREADS-NOT:   nvgpu.tma.async.store
// THREADS:       vector.store %{{.*}} : memref<256x192xbf16>, vector<4xbf16>
// THREADS-NOT:   nvgpu.tma.async.store
func.func @matmul(%a: memref<256x128xbf16>, %b: memref<4x128x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x128xbf16>, memref<4x128x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}
