// convert-grouped-matmul-to-nvgpu{require-all}: a grouped matmul without a
// generated kernel is an error that says what is unsupported, with the
// dimension and the multiple it needs.
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=require-all -verify-diagnostics
// A persistent kernel needs at least one CTA:
// RUN: not moe-opt %s --convert-grouped-matmul-to-nvgpu=num-ctas=0 2>&1 | FileCheck %s --check-prefix=CTAS
// CTAS: error: convert-grouped-matmul-to-nvgpu: num-ctas must be at least 1, got 0
// A tile is 128 or 256 columns wide:
// RUN: not moe-opt %s --convert-grouped-matmul-to-nvgpu=block-n=192 2>&1 | FileCheck %s --check-prefix=BLOCKN
// BLOCKN: error: convert-grouped-matmul-to-nvgpu: block-n must be auto, 128 or 256, got '192'
// A pipeline has 2 to 8 stages (0: as many as fit):
// RUN: not moe-opt %s --convert-grouped-matmul-to-nvgpu=max-stages=1 2>&1 | FileCheck %s --check-prefix=STAGES1
// STAGES1: error: convert-grouped-matmul-to-nvgpu: max-stages must be 0 (as many as fit) or in [2, 8], got 1
// RUN: not moe-opt %s --convert-grouped-matmul-to-nvgpu=max-stages=9 2>&1 | FileCheck %s --check-prefix=STAGES9
// STAGES9: error: convert-grouped-matmul-to-nvgpu: max-stages must be 0 (as many as fit) or in [2, 8], got 9

func.func @k_not_multiple_of_8(%a: memref<256x100xbf16>, %b: memref<4x100x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op has no generated GPU kernel for K = 100 (a multiple of 8 is needed: TMA rows are 16-byte aligned)}}
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x100xbf16>, memref<4x100x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

func.func @n_not_multiple_of_8(%a: memref<256x64xbf16>, %b: memref<4x64x36xbf16>, %n: memref<4xi32>, %c: memref<256x36xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op has no generated GPU kernel for N = 36 (a multiple of 8 is needed: TMA rows are 16-byte aligned)}}
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x64xbf16>, memref<4x64x36xbf16>, memref<4xi32> -> memref<256x36xbf16>
  return
}

// -----

func.func @f32_operands(%a: memref<256x64xf32>, %b: memref<4x64x64xf32>, %n: memref<4xi32>, %c: memref<256x64xf32>) {
  // expected-error @+1 {{'moe.grouped_matmul' op has no generated GPU kernel for operands that are not bf16}}
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<256x64xf32>, memref<4x64x64xf32>, memref<4xi32> -> memref<256x64xf32>
  return
}

// -----

func.func @fp8_k_not_multiple_of_128(%a: memref<256x64xf8E4M3FN>, %b: memref<4x64x64xf8E4M3FN>, %n: memref<4xi32>, %sa: memref<f32>, %sb: memref<f32>, %c: memref<256x64xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op has no generated GPU kernel for K = 64 (a multiple of 128 is needed: one k-step is one 128-wide scale block)}}
  moe.grouped_matmul %a, %b, %n scales(%sa, %sb) outs(%c) : memref<256x64xf8E4M3FN>, memref<4x64x64xf8E4M3FN>, memref<4xi32>, memref<f32>, memref<f32> -> memref<256x64xbf16>
  return
}

// -----

func.func @weight_grad_kd_not_multiple_of_8(%a: memref<256x100xbf16>, %dc: memref<256x64xbf16>, %n: memref<4xi32>, %db: memref<4x100x64xf32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op has no generated GPU kernel for Kd = 100 (a multiple of 8 is needed: TMA rows are 16-byte aligned)}}
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<256x100xbf16>, memref<256x64xbf16>, memref<4xi32> -> memref<4x100x64xf32>
  return
}

// -----

func.func @weight_grad_nk_n_not_multiple_of_8(%a: memref<256x64xbf16>, %dc: memref<256x76xbf16>, %n: memref<4xi32>, %db: memref<4x76x64xf32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op has no generated GPU kernel for N = 76 (a multiple of 8 is needed: TMA rows are 16-byte aligned)}}
  moe.grouped_weight_grad %a, %dc, %n outs(%db) {weight_layout = #moe<weight_layout nk>} : memref<256x64xbf16>, memref<256x76xbf16>, memref<4xi32> -> memref<4x76x64xf32>
  return
}

// -----

func.func @weight_grad_n_not_multiple_of_8(%a: memref<256x64xbf16>, %dc: memref<256x36xbf16>, %n: memref<4xi32>, %db: memref<4x64x36xf32>) {
  // expected-error @+1 {{'moe.grouped_weight_grad' op has no generated GPU kernel for N = 36 (a multiple of 8 is needed: TMA rows are 16-byte aligned)}}
  moe.grouped_weight_grad %a, %dc, %n outs(%db) : memref<256x64xbf16>, memref<256x36xbf16>, memref<4xi32> -> memref<4x64x36xf32>
  return
}

// -----

func.func @size_scan_would_wrap(%a: memref<131072x64xbf16>, %b: memref<16384x64x64xbf16>, %n: memref<16384xi32>, %c: memref<131072x64xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op has no generated GPU kernel for G x R = 16384 x 131072 (the on-device size scan is 32-bit: G x R must stay below 2^31)}}
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<131072x64xbf16>, memref<16384x64x64xbf16>, memref<16384xi32> -> memref<131072x64xbf16>
  return
}

// -----

func.func @scans_leave_one_stage(%a: memref<64x64xbf16>, %b: memref<20000x64x64xbf16>, %n: memref<20000xi32>, %c: memref<64x64xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op has no generated GPU kernel for G = 20000 (the group-size scans leave shared memory for fewer than 2 pipeline stages)}}
  moe.grouped_matmul %a, %b, %n outs(%c) : memref<64x64xbf16>, memref<20000x64x64xbf16>, memref<20000xi32> -> memref<64x64xbf16>
  return
}
