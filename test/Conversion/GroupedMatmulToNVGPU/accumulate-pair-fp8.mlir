// convert-grouped-matmul-to-nvgpu: block-scaled FP8 products paired as bf16
// ones (accumulate-pair.mlir): one kernel over both products' k-steps,
// each k-step's product promoted with the scales of its own product:
// a1_scale / b1_scale for k-steps [0, K1/128), a2_scale / b2_scale at
// k - K1/128 after. Tensor-wise FP8 products stay apart, and an FP8
// product that accumulates with no pair is an error (it has no kernel of
// its own, and cuBLASLt no FP8 grouped path).
// RUN: moe-opt %s -split-input-file -verify-diagnostics --convert-grouped-matmul-to-nvgpu=block-n=128 | FileCheck %s

// K = 256 then 128 (e5m2 gradients, e4m3 weights stored nk).
// CHECK-LABEL: func.func @pair_fp8
// CHECK-SAME:    %[[S1:arg2]]: memref<256x2xf32>, %[[T1:arg3]]: memref<4x2x2xf32>
// CHECK-SAME:    %[[S2:arg6]]: memref<256x1xf32>, %[[T2:arg7]]: memref<4x2x1xf32>
// Four operand maps (A boxes of 128 bytes = 128 FP8 columns), then c's.
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64, %c256_i64{{[_0-9]*}}, %c64_i32, %c128_i32, %c1_i32)
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c768_i64, %c256_i64{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c1_i32{{[_0-9]*}})
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c256_i64{{[_0-9]*}}, %c128_i64, %c64_i32{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c1_i32{{[_0-9]*}})
// CHECK:       call @moert_entry_tensor_map_2d(%{{.*}}, %{{.*}}, %c768_i64{{[_0-9]*}}, %c128_i64{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c128_i32{{[_0-9]*}}, %c1_i32{{[_0-9]*}})
// CHECK:       gpu.launch
// The producer: k-steps 0 and 1 from a1/b1, step 2 from a2/b2.
// CHECK:             %[[FIRST:.*]] = arith.cmpi ult, %{{.*}}, %c2{{[_0-9]*}} : index
// CHECK:             scf.if %[[FIRST]] {
// CHECK:               nvgpu.tma.async.load
// CHECK:             } else {
// CHECK:               nvgpu.tma.async.load
// The consumers: the first product's k-steps in one loop (up to
// min(k-steps, 2)) with a1_scale and b1_scale, then the second's from k-step
// 2 with a2_scale and b2_scale at k - 2, carrying the sum.
// CHECK:             %[[UB:.*]] = arith.minui %{{.*}}, %c2{{(_[0-9]+)?}} : index
// CHECK:             %[[SUM1:.*]]:2 = scf.for %[[K:.*]] = %c0{{[_0-9]*}} to %[[UB]]
// CHECK:               %[[K1:.*]] = arith.subi %[[K]], %c0{{(_[0-9]+)?}} : index
// CHECK:               memref.load %[[T1]][%{{.*}}, %{{.*}}, %[[K1]]] : memref<4x2x2xf32>
// CHECK:               memref.load %[[S1]][%{{.*}}, %[[K1]]] : memref<256x2xf32>
// CHECK:               memref.load %[[S1]][%{{.*}}, %[[K1]]] : memref<256x2xf32>
// CHECK:             scf.for %[[KB:.*]] = %c2{{(_[0-9]+)?}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[SUM1]]#0, %{{.*}} = %[[SUM1]]#1)
// CHECK:               %[[K2:.*]] = arith.subi %[[KB]], %c2{{(_[0-9]+)?}} : index
// CHECK:               memref.load %[[T2]][%{{.*}}, %{{.*}}, %[[K2]]] : memref<4x2x1xf32>
// CHECK:               memref.load %[[S2]][%{{.*}}, %[[K2]]] : memref<256x1xf32>
// CHECK:               memref.load %[[S2]][%{{.*}}, %[[K2]]] : memref<256x1xf32>
// CHECK-NOT:   gpu.launch
// CHECK-NOT:   moe.grouped_matmul
// CHECK:       return
func.func @pair_fp8(%a1: memref<256x256xf8E5M2>, %b1: memref<4x192x256xf8E4M3FN>, %s1: memref<256x2xf32>, %t1: memref<4x2x2xf32>, %a2: memref<256x128xf8E5M2>, %b2: memref<4x192x128xf8E4M3FN>, %s2: memref<256x1xf32>, %t2: memref<4x2x1xf32>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a1, %b1, %n scales(%s1, %t1) outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x256xf8E5M2>, memref<4x192x256xf8E4M3FN>, memref<4xi32>, memref<256x2xf32>, memref<4x2x2xf32> -> memref<256x192xbf16>
  moe.grouped_matmul %a2, %b2, %n scales(%s2, %t2) outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x128xf8E5M2>, memref<4x192x128xf8E4M3FN>, memref<4xi32>, memref<256x1xf32>, memref<4x2x1xf32> -> memref<256x192xbf16>
  return
}

// -----

// A bf16 product then an FP8 one: no pair, and the FP8 one cannot
// accumulate alone.
func.func @fp8_after_bf16(%a1: memref<256x256xbf16>, %b1: memref<4x192x256xbf16>, %a2: memref<256x128xf8E5M2>, %b2: memref<4x192x128xf8E4M3FN>, %s2: memref<256x1xf32>, %t2: memref<4x2x1xf32>, %n: memref<4xi32>, %c: memref<256x192xbf16>) {
  moe.grouped_matmul %a1, %b1, %n outs(%c) {weight_layout = #moe<weight_layout nk>} : memref<256x256xbf16>, memref<4x192x256xbf16>, memref<4xi32> -> memref<256x192xbf16>
  // expected-error @+1 {{'moe.grouped_matmul' op has no generated GPU kernel for an FP8 product accumulating into c on its own: it needs the block-scaled FP8 grouped matmul that writes c right before it, over the same group sizes, weight layout and operand types (moe-fuse accumulate-matmuls places it so)}}
  moe.grouped_matmul %a2, %b2, %n scales(%s2, %t2) outs(%c) {accumulate, weight_layout = #moe<weight_layout nk>} : memref<256x128xf8E5M2>, memref<4x192x128xf8E4M3FN>, memref<4xi32>, memref<256x1xf32>, memref<4x2x1xf32> -> memref<256x192xbf16>
  return
}
