// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=auto-select | FileCheck %s

// auto-select (moe-lower-to-gpu with gemm=auto): a bf16 grouped GEMM gets
// the generated kernel only where opmath::autoPrefersGeneratedGroupedGemm
// measured it the faster: 32 or more groups, and for a weight gradient 128
// or more rows a group on average; or groups of 4096 or more rows on
// average, however few; the others are left for the runtime's cuBLASLt
// call. FP8 ones always get it (fp8.mlir).

// 8 groups of 128 rows (mixtral-8x7b: 2048): cuBLASLt.
// CHECK-LABEL: func.func @eight_groups
// CHECK:       moe.grouped_matmul
// CHECK-NOT:   gpu.launch
func.func @eight_groups(%a: memref<1024x128xbf16>, %b: memref<8x128x192xbf16>, %n: memref<8xi32>, %c: memref<1024x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x128xbf16>, memref<8x128x192xbf16>, memref<8xi32> -> memref<1024x192xbf16>
  return
}

// -----

// 31 groups: still cuBLASLt (the threshold is 32).
// CHECK-LABEL: func.func @thirty_one_groups
// CHECK:       moe.grouped_matmul
// CHECK-NOT:   gpu.launch
func.func @thirty_one_groups(%a: memref<1024x128xbf16>, %b: memref<31x128x192xbf16>, %n: memref<31xi32>, %c: memref<1024x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x128xbf16>, memref<31x128x192xbf16>, memref<31xi32> -> memref<1024x192xbf16>
  return
}

// -----

// 32 groups (qwen3's 128, dsv3's 256 likewise): the generated kernel,
// however few rows a group has.
// CHECK-LABEL: func.func @thirty_two_groups
// CHECK:       gpu.launch
// CHECK-NOT:   moe.grouped_matmul
func.func @thirty_two_groups(%a: memref<1024x128xbf16>, %b: memref<32x128x192xbf16>, %n: memref<32xi32>, %c: memref<1024x192xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<1024x128xbf16>, memref<32x128x192xbf16>, memref<32xi32> -> memref<1024x192xbf16>
  return
}

// -----

// Weight gradient, 64 groups over 64 · 512 rows (qwen3: 1024 a group): the
// generated kernel.
// CHECK-LABEL: func.func @wgrad_long_groups
// CHECK:       gpu.launch
// CHECK-NOT:   moe.grouped_weight_grad
func.func @wgrad_long_groups(%a: memref<32768x128xbf16>, %dc: memref<32768x64xbf16>, %n: memref<64xi32>, %db: memref<64x128x64xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<32768x128xbf16>, memref<32768x64xbf16>, memref<64xi32> -> memref<64x128x64xbf16>
  return
}

// -----

// Weight gradient, 64 groups of 128 rows on average (dsv3: 128): the
// generated kernel.
// CHECK-LABEL: func.func @wgrad_short_groups
// CHECK:       gpu.launch
// CHECK-NOT:   moe.grouped_weight_grad
func.func @wgrad_short_groups(%a: memref<8192x128xbf16>, %dc: memref<8192x64xbf16>, %n: memref<64xi32>, %db: memref<64x128x64xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<8192x128xbf16>, memref<8192x64xbf16>, memref<64xi32> -> memref<64x128x64xbf16>
  return
}

// -----

// Weight gradient, 64 groups of 127 rows on average: mostly epilogue,
// not measured against cuBLASLt at this size: cuBLASLt.
// CHECK-LABEL: func.func @wgrad_shorter_groups
// CHECK:       moe.grouped_weight_grad
// CHECK-NOT:   gpu.launch
func.func @wgrad_shorter_groups(%a: memref<8128x128xbf16>, %dc: memref<8128x64xbf16>, %n: memref<64xi32>, %db: memref<64x128x64xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<8128x128xbf16>, memref<8128x64xbf16>, memref<64xi32> -> memref<64x128x64xbf16>
  return
}

// -----

// Weight gradient, 8 groups of 4088 rows: cuBLASLt (few groups, each
// below 4096 rows).
// CHECK-LABEL: func.func @wgrad_eight_groups
// CHECK:       moe.grouped_weight_grad
// CHECK-NOT:   gpu.launch
func.func @wgrad_eight_groups(%a: memref<32704x128xbf16>, %dc: memref<32704x64xbf16>, %n: memref<8xi32>, %db: memref<8x128x64xbf16>) {
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<32704x128xbf16>, memref<32704x64xbf16>, memref<8xi32> -> memref<8x128x64xbf16>
  return
}

// -----

// 8 groups of 4096 rows (seed-test: 8192), a grouped matmul and a weight
// gradient: the generated kernel.
// CHECK-LABEL: func.func @eight_long_groups
// CHECK:       gpu.launch
// CHECK-NOT:   moe.grouped_matmul
// CHECK:       gpu.launch
// CHECK-NOT:   moe.grouped_weight_grad
func.func @eight_long_groups(%a: memref<32768x128xbf16>, %b: memref<8x128x64xbf16>, %n: memref<8xi32>, %c: memref<32768x64xbf16>, %db: memref<8x128x64xbf16>) {
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<32768x128xbf16>, memref<8x128x64xbf16>, memref<8xi32> -> memref<32768x64xbf16>
  moe.grouped_weight_grad %a, %c, %n outs(%db) : memref<32768x128xbf16>, memref<32768x64xbf16>, memref<8xi32> -> memref<8x128x64xbf16>
  return
}

// -----

// FP8 with 4 groups: the generated kernel (the only FP8 path).
// CHECK-LABEL: func.func @fp8_few_groups
// CHECK:       gpu.launch
// CHECK-NOT:   moe.grouped_matmul
func.func @fp8_few_groups(%a: memref<256x128xf8E4M3FN>, %b: memref<4x192x128xf8E4M3FN>, %n: memref<4xi32>, %sa: memref<f32>, %sb: memref<f32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a, %b, %n scales(%sa, %sb) outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xf8E4M3FN>, memref<4x192x128xf8E4M3FN>, memref<4xi32>, memref<f32>, memref<f32> -> memref<256x192xbf16>
  return
}
