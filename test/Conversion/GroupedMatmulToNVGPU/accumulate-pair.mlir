// convert-grouped-matmul-to-nvgpu: a plain grouped matmul followed by one
// that accumulates into its c (what moe-fuse's accumulate-matmuls leaves) is
// one kernel: both products' A and B have tensor maps (slots 0, 1, 3, 4 of
// each CTA's 5 x 16 descriptor words), and the producer loads the first
// product's k-steps, then the second's from its own k = 0, into one ring.
// c is written once and never read. Where something between the two could
// change what the second reads, or the second's operands do not exist yet
// where the first runs, they stay two kernels.
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=block-n=128 | FileCheck %s

// K = 128 then 192, weights nk ([G * N, K] tensor maps).
// CHECK-LABEL: func.func @pair_nk
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64, %c128_i64, %c64_i32,
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c768_i64, %c128_i64{{[_0-9]*}}, %c128_i32,
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64{{[_0-9]*}}, %c192_i64, %c64_i32
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c768_i64{{[_0-9]*}}, %c192_i64{{[_0-9]*}}, %c128_i32
// c's map, for the TMA store.
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64{{[_0-9]*}}, %c192_i64{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %c64_i32{{[_0-9]*}}, %c2_i32
// CHECK:       %[[SCRATCH:.*]] = memref.alloc() : memref<132x80xi64>
// CHECK:       gpu.launch
// The producer publishes all four operand maps (words 0-31 and 48-79) and
// views slots 0, 1, 3 and 4 as tensor maps.
// CHECK:         memref.store %{{.*}}, %[[SCRATCH]][%{{.*}}, %c79{{[_0-9]*}}] : memref<132x80xi64>
// CHECK:         %[[A1MAP:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !nvgpu.tensormap.descriptor
// CHECK:         %[[B1MAP:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !nvgpu.tensormap.descriptor
// CHECK:         arith.constant 48 : index
// CHECK:         %[[A2MAP:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !nvgpu.tensormap.descriptor
// CHECK:         arith.constant 64 : index
// CHECK:         %[[B2MAP:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !nvgpu.tensormap.descriptor
// Each tile has (128 + 192) / 64 = 5 k-steps; the first 2 are a1's and b1's.
// CHECK:         %[[STEPS:.*]] = arith.select %{{.*}}, %c5{{[_0-9]*}}, %c0
// CHECK:         scf.for %[[STEP:.*]] = %c0{{[_0-9]*}} to %{{.*}} step
// CHECK:           %[[FIRST:.*]] = arith.cmpi ult, %[[STEP]], %c2{{[_0-9]*}} : index
// CHECK:           scf.if %[[FIRST]] {
// CHECK:             nvgpu.tma.async.load %[[A1MAP]]
// CHECK:             nvgpu.tma.async.load %[[B1MAP]]
// CHECK:           } else {
// CHECK:             arith.subi %[[STEP]], %c2{{[_0-9]*}} : index
// CHECK:             nvgpu.tma.async.load %[[A2MAP]]
// CHECK:             nvgpu.tma.async.load %[[B2MAP]]
// CHECK:           }
// One kernel: c is not loaded before the main loop (no accumulate).
// CHECK-NOT:   gpu.launch
// CHECK-NOT:   moe.grouped_matmul
// CHECK:       memref.dealloc %[[SCRATCH]]
// CHECK-NOT:   moe.grouped_matmul
// CHECK:       return
func.func @pair_nk(%a1: memref<256x128xbf16>, %b1: memref<4x192x128xbf16>, %a2: memref<256x192xbf16>, %b2: memref<4x192x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  %t = memref.alloc() : memref<8xf32>
  memref.dealloc %t : memref<8xf32>
  moe.grouped_matmul %a2, %b2, %n outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x192xbf16>, memref<4x192x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// kn weights: b2 viewed as [G * K2, N] = [768, 192], its rows of group g
// from g · 192.
// CHECK-LABEL: func.func @pair_kn
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64{{[_0-9]*}}, %c192_i64{{[_0-9]*}}, %c64_i32
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c768_i64{{[_0-9]*}}, %c192_i64{{[_0-9]*}}, %c64_i32
// CHECK:       gpu.launch
// CHECK:           } else {
// CHECK:             %[[S2:.*]] = arith.subi %{{.*}}, %c1{{[_0-9]*}} : index
// CHECK:             %[[K2:.*]] = arith.muli %[[S2]], %c64{{[_0-9]*}} : index
// CHECK:             %[[G2:.*]] = arith.muli %{{.*}}, %c192{{[_0-9]*}} : index
// CHECK:             arith.addi %[[G2]], %[[K2]] : index
// CHECK-NOT:   gpu.launch
// CHECK-NOT:   moe.grouped_matmul
// CHECK:       return
func.func @pair_kn(%a1: memref<256x64xbf16>, %b1: memref<4x64x192xbf16>, %a2: memref<256x192xbf16>, %b2: memref<4x192x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xf32>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) : memref<256x64xbf16>, memref<4x64x192xbf16>, memref<4xi32> -> memref<256x192xf32>
  moe.grouped_matmul %a2, %b2, %n outs(%c) {accumulate} : memref<256x192xbf16>, memref<4x192x192xbf16>, memref<4xi32> -> memref<256x192xf32>
  return
}

// -----

// A write between the two (here to the second's A) keeps them apart: two
// kernels, the second loading c.
// CHECK-LABEL: func.func @written_between
// CHECK:       gpu.launch
// CHECK:       linalg.fill
// CHECK:       gpu.launch
// CHECK-NOT:   gpu.launch
func.func @written_between(%a1: memref<256x128xbf16>, %b1: memref<4x192x128xbf16>, %a2: memref<256x128xbf16>, %b2: memref<4x192x128xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  %zero = arith.constant 0.0 : bf16
  moe.grouped_matmul %a1, %b1, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  linalg.fill ins(%zero : bf16) outs(%a2 : memref<256x128xbf16>)
  moe.grouped_matmul %a2, %b2, %n outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// The second's A is a view made after the first: two kernels.
// CHECK-LABEL: func.func @operand_defined_between
// CHECK:       gpu.launch
// CHECK:       memref.collapse_shape
// CHECK:       gpu.launch
// CHECK-NOT:   gpu.launch
func.func @operand_defined_between(%a1: memref<256x128xbf16>, %b1: memref<4x192x128xbf16>, %a2: memref<2x128x128xbf16>, %b2: memref<4x192x128xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  %flat = memref.collapse_shape %a2 [[0, 1], [2]] : memref<2x128x128xbf16> into memref<256x128xbf16>
  moe.grouped_matmul %flat, %b2, %n outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// c read between the two: the read must see the first product alone.
// CHECK-LABEL: func.func @c_read_between
// CHECK:       gpu.launch
// CHECK:       memref.copy
// CHECK:       gpu.launch
// CHECK-NOT:   gpu.launch
func.func @c_read_between(%a1: memref<256x128xbf16>, %b1: memref<4x192x128xbf16>, %a2: memref<256x128xbf16>, %b2: memref<4x192x128xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>, %copy: memref<256x192xbf16>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  memref.copy %c, %copy : memref<256x192xbf16> to memref<256x192xbf16>
  moe.grouped_matmul %a2, %b2, %n outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// The second's A is (a view of) c itself: the paired kernel would read it
// before the first product is there.
// CHECK-LABEL: func.func @operand_views_c
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT:   gpu.launch
func.func @operand_views_c(%a1: memref<256x128xbf16>, %b1: memref<4x192x128xbf16>, %b2: memref<4x192x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  %flat = memref.collapse_shape %c [[0, 1]] : memref<256x192xbf16> into memref<49152xbf16>
  %a2 = memref.expand_shape %flat [[0, 1]] output_shape [256, 192] : memref<49152xbf16> into memref<256x192xbf16>
  moe.grouped_matmul %a1, %b1, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  moe.grouped_matmul %a2, %b2, %n outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x192xbf16>, memref<4x192x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// -----

// Other group sizes, another weight layout, another c, or a first product
// that accumulates itself are no pair either.
// CHECK-LABEL: func.func @other_sizes
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT:   gpu.launch
func.func @other_sizes(%a1: memref<256x128xbf16>, %b1: memref<4x192x128xbf16>, %a2: memref<256x128xbf16>, %b2: memref<4x192x128xbf16>, %n: memref<4xi32>, %m: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  moe.grouped_matmul %a2, %b2, %m outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// CHECK-LABEL: func.func @chained
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT:   gpu.launch
func.func @chained(%a1: memref<256x128xbf16>, %b1: memref<4x192x128xbf16>, %a2: memref<256x128xbf16>, %b2: memref<4x192x128xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  moe.grouped_matmul %a2, %b2, %n outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// CHECK-LABEL: func.func @other_layout
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT:   gpu.launch
func.func @other_layout(%a1: memref<256x128xbf16>, %b1: memref<4x192x128xbf16>, %a2: memref<256x128xbf16>, %b2: memref<4x128x192xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  moe.grouped_matmul %a2, %b2, %n outs(%c) {accumulate} : memref<256x128xbf16>, memref<4x128x192xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}

// CHECK-LABEL: func.func @other_c
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT:   gpu.launch
func.func @other_c(%a1: memref<256x128xbf16>, %b1: memref<4x192x128xbf16>, %a2: memref<256x128xbf16>, %b2: memref<4x192x128xbf16>, %n: memref<4xi32>, %c: memref<256x192xbf16>, %d: memref<256x192xbf16>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  moe.grouped_matmul %a2, %b2, %n outs(%d) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x128xbf16>, memref<4x192x128xbf16>, memref<4xi32> -> memref<256x192xbf16>
  return
}
