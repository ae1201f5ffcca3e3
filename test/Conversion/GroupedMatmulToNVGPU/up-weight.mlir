// Gate and up as two weights (up_weight, moe-fuse gate-up-weights): the
// kernel encodes a tensor map per weight, each of the weight's N columns
// (not the concatenated 2N), and each k-step loads the tile's gate box from
// b's map and its up box from b_up's at the same coordinates; the epilogue
// pairs the two accumulators as with one concatenated weight and writes the
// extra destinations (the gate and up products the backward saves).
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=block-n=128 --canonicalize | FileCheck %s

// kn (b [G, K, F], F = 160): both maps view their weight as [G * K, F] =
// [1024, 160]; the up box is at the gate box's (column, row).
// CHECK-LABEL: func.func @up_weight_kn
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c512_i64, %c128_i64
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c1024_i64, %c160_i64, %c64_i32, %c64_i32
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c1024_i64, %c160_i64, %c64_i32, %c64_i32
// CHECK:       gpu.launch
// CHECK:         nvgpu.tma.prefetch.descriptor %[[AMAP:[0-9]+]] :
// CHECK-NEXT:    nvgpu.tma.prefetch.descriptor %[[BMAP:[0-9]+]] :
// CHECK:         nvgpu.tma.prefetch.descriptor %[[UPMAP:[0-9]+]] :
// CHECK:             nvgpu.tma.async.load %[[AMAP]][
// CHECK:             nvgpu.tma.async.load %[[BMAP]][%[[COL:.*]], %[[BK:.*]]], {{.*}} : <tensor = memref<64x64xbf16
// CHECK:             nvgpu.tma.async.load %[[UPMAP]][%[[COL]], %[[BK]]], {{.*}} : <tensor = memref<64x64xbf16
// CHECK:         %[[ACC:.*]] = llvm.inline_asm has_side_effects "", "=f,
// CHECK:         %[[GATE:.*]] = llvm.extractvalue %[[ACC]][0] : !llvm.struct
// CHECK-NEXT:    %[[UP:.*]] = llvm.extractvalue %{{.*}}[32] : !llvm.struct
// CHECK-NEXT:    %[[NEG:.*]] = arith.negf %[[GATE]] fastmath<arcp,contract,afn> : f32
// CHECK-NEXT:    %[[EXP:.*]] = math.exp %[[NEG]] fastmath<arcp,contract,afn> : f32
// CHECK-NEXT:    arith.mulf %[[EXP]], %[[UP]] fastmath<arcp,contract,afn> : f32
// CHECK:         vector.store %{{.*}}, %arg5[
// CHECK:         vector.store %{{.*}}, %arg6[
func.func @up_weight_kn(%a: memref<512x128xbf16>, %bg: memref<8x128x160xbf16>, %bu: memref<8x128x160xbf16>, %n: memref<8xi32>, %c: memref<512x160xbf16>, %g: memref<512x160xbf16>, %u: memref<512x160xbf16>) {
  moe.grouped_matmul %a, %bg, %n up_weight(%bu : memref<8x128x160xbf16>) outs(%c, %g, %u) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %neg = arith.negf %gate : f32
    %exp = math.exp %neg : f32
    %v = arith.mulf %exp, %up : f32
    moe.yield %v, %gate, %up : f32, f32, f32
  } : memref<512x128xbf16>, memref<8x128x160xbf16>, memref<8xi32> -> memref<512x160xbf16>, memref<512x160xbf16>, memref<512x160xbf16>
  return
}

// -----

// nk (b [G, F, K], F = 192): both maps view their weight as [G * F, K] =
// [384, 256]; group g's gate and up boxes both start at row g * F +
// colBegin (one concatenated weight would put up's F rows further, at a
// 2F stride).
// CHECK-LABEL: func.func @up_weight_nk
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c384_i64, %c256_i64, %c64_i32, %c64_i32
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c384_i64, %c256_i64, %c64_i32, %c64_i32
// CHECK:       gpu.launch
// CHECK:         nvgpu.tma.prefetch.descriptor %[[AMAP:[0-9]+]] :
// CHECK-NEXT:    nvgpu.tma.prefetch.descriptor %[[BMAP:[0-9]+]] :
// CHECK:         nvgpu.tma.prefetch.descriptor %[[UPMAP:[0-9]+]] :
// CHECK:             %[[GBASE:.*]] = arith.muli %{{.*}}, %c192 : index
// CHECK-NEXT:        %[[ROW:.*]] = arith.addi %[[GBASE]], %{{.*}} : index
// CHECK:             nvgpu.tma.async.load %[[BMAP]][%[[K:.*]], %[[ROW]]]
// CHECK:             nvgpu.tma.async.load %[[UPMAP]][%[[K]], %[[ROW]]]
func.func @up_weight_nk(%a: memref<1024x256xbf16>, %bg: memref<2x192x256xbf16>, %bu: memref<2x192x256xbf16>, %n: memref<2xi32>, %c: memref<1024x192xbf16>) {
  moe.grouped_matmul %a, %bg, %n up_weight(%bu : memref<2x192x256xbf16>) outs(%c) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %v = arith.mulf %gate, %up : f32
    moe.yield %v : f32
  } {weight_layout = #moe<weight_layout nk>} : memref<1024x256xbf16>, memref<2x192x256xbf16>, memref<2xi32> -> memref<1024x192xbf16>
  return
}

// -----

// 128 x 128 tiles of 4 k-steps (K = 256, groups of 512 rows on average):
// pingpong, as for one weight (pingpong.mlir): a spare fifth empty barrier,
// each consumer warpgroup taking every other tile of the CTA, and the two
// maps' boxes loaded per k-step as above.
// CHECK-LABEL: func.func @up_weight_pingpong
// CHECK:         nvgpu.mbarrier.init %[[EMPTY:.*]][%c4], %c128, predicate
// CHECK:         nvgpu.tma.prefetch.descriptor %[[AMAP:[0-9]+]] :
// CHECK-NEXT:    nvgpu.tma.prefetch.descriptor %[[BMAP:[0-9]+]] :
// CHECK:         nvgpu.tma.prefetch.descriptor %[[UPMAP:[0-9]+]] :
// CHECK:             nvgpu.tma.async.load %[[BMAP]][%[[COL:.*]], %[[BK:.*]]], {{.*}} : <tensor = memref<64x64xbf16
// CHECK:             nvgpu.tma.async.load %[[UPMAP]][%[[COL]], %[[BK]]], {{.*}} : <tensor = memref<64x64xbf16
// CHECK:         %[[CONSUMER:.*]] = arith.divui %thread_id_x, %c128 : index
// CHECK:         scf.for %{{.*}} = %[[CONSUMER]] to %{{.*}} step %c2 {
func.func @up_weight_pingpong(%a: memref<1024x256xbf16>, %bg: memref<2x256x192xbf16>, %bu: memref<2x256x192xbf16>, %n: memref<2xi32>, %c: memref<1024x192xbf16>, %g: memref<1024x192xbf16>, %u: memref<1024x192xbf16>) {
  moe.grouped_matmul %a, %bg, %n up_weight(%bu : memref<2x256x192xbf16>) outs(%c, %g, %u) epilogue {
  ^bb0(%gate: f32, %up: f32):
    %v = arith.mulf %gate, %up : f32
    moe.yield %v, %gate, %up : f32, f32, f32
  } : memref<1024x256xbf16>, memref<2x256x192xbf16>, memref<2xi32> -> memref<1024x192xbf16>, memref<1024x192xbf16>, memref<1024x192xbf16>
  return
}
