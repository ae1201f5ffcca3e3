// RUN: moe-opt %s -split-input-file --convert-moe-to-parallel-loops=fp8-instructions | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-moe-to-parallel-loops | FileCheck %s --check-prefix=ARITH

// fp8-instructions: the schedules' casts convert f32 lanes to FP8 two at a
// time with nvvm.convert.f32x2.to.f8x2 (round to nearest even, satfinite),
// the second lane of each pair its first operand (the high byte), and read
// FP8 back two at a time with nvvm.convert.f8x2.to.f16x2 widened to f32.
// Without it: the integer arithmetic, no NVVM op.

// block_1x128 to e5m2, x [4, 128] f32: a lane's 8 columns are two 16-byte
// loads of 4; each is divided by the block's scale and stored as 4 bytes
// from two conversions.
// CHECK-LABEL: func.func @encode_e5m2(
// CHECK-SAME:    %[[X:[^:]+]]: memref<4x128xf32>, %[[Q:[^:]+]]: memref<4x128xf8E5M2>
// CHECK:       vector.load %[[X]]{{.*}} : memref<4x128xf32>, vector<4xf32>
// The block's scale, amax / 57344:
// CHECK:       arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:       %[[S:.*]] = arith.select
// CHECK:       arith.divf %{{.*}}, %[[S]] : f32
// CHECK:       %[[N0:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:       arith.divf %{{.*}}, %[[S]] : f32
// CHECK:       %[[N1:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:       arith.divf %{{.*}}, %[[S]] : f32
// CHECK:       %[[N2:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:       arith.divf %{{.*}}, %[[S]] : f32
// CHECK:       %[[N3:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:       %[[P0:.*]] = nvvm.convert.f32x2.to.f8x2 %[[N1]], %[[N0]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E5M2)
// CHECK:       %[[B0:.*]] = vector.extract %[[P0]][0] : i8 from vector<2xi8>
// CHECK:       %[[B1:.*]] = vector.extract %[[P0]][1] : i8 from vector<2xi8>
// CHECK:       %[[P1:.*]] = nvvm.convert.f32x2.to.f8x2 %[[N3]], %[[N2]] {{.*}} : vector<2xi8>(f8E5M2)
// CHECK:       %[[B2:.*]] = vector.extract %[[P1]][0] : i8 from vector<2xi8>
// CHECK:       %[[B3:.*]] = vector.extract %[[P1]][1] : i8 from vector<2xi8>
// CHECK:       %[[CODES:.*]] = vector.from_elements %[[B0]], %[[B1]], %[[B2]], %[[B3]] : vector<4xi8>
// CHECK:       %[[F8:.*]] = vector.bitcast %[[CODES]] : vector<4xi8> to vector<4xf8E5M2>
// CHECK:       vector.store %[[F8]], %[[Q]]{{.*}} : memref<4x128xf8E5M2>, vector<4xf8E5M2>
// ARITH-LABEL: func.func @encode_e5m2(
// ARITH-NOT:   nvvm.
// ARITH:       return
func.func @encode_e5m2(%x: memref<4x128xf32>, %q: memref<4x128xf8E5M2>, %s: memref<4x1xf32>) {
  moe.quantize block_1x128 %x outs(%q, %s) : memref<4x128xf32> -> memref<4x128xf8E5M2>, memref<4x1xf32>
  return
}

// -----

// tensorwise dequantize of e4m3 to bf16: 8 codes a thread (one 8-byte load),
// four conversions to f16 pairs, each half widened to f32 and scaled.
// CHECK-LABEL: func.func @decode_e4m3(
// CHECK:       %[[C:.*]] = vector.bitcast %{{.*}} : vector<8xf8E4M3FN> to vector<8xi8>
// CHECK:       %[[C0:.*]] = vector.extract %[[C]][0] : i8 from vector<8xi8>
// CHECK:       %[[C1:.*]] = vector.extract %[[C]][1] : i8 from vector<8xi8>
// CHECK:       %[[PAIR:.*]] = vector.from_elements %[[C0]], %[[C1]] : vector<2xi8>
// CHECK:       %[[H:.*]] = nvvm.convert.f8x2.to.f16x2 %[[PAIR]] : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK:       %[[H0:.*]] = vector.extract %[[H]][0] : f16 from vector<2xf16>
// CHECK:       arith.extf %[[H0]] : f16 to f32
// CHECK-COUNT-3: nvvm.convert.f8x2.to.f16x2
// CHECK-COUNT-8: arith.mulf
// CHECK:       vector.store {{.*}} : memref<16x64xbf16>, vector<8xbf16>
// ARITH-LABEL: func.func @decode_e4m3(
// ARITH-NOT:   nvvm.
// ARITH:       return
func.func @decode_e4m3(%q: memref<16x64xf8E4M3FN>, %s: memref<f32>, %y: memref<16x64xbf16>) {
  moe.dequantize tensorwise %q, %s outs(%y) : memref<16x64xf8E4M3FN>, memref<f32> -> memref<16x64xbf16>
  return
}
