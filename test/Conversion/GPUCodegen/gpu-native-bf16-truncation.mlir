// RUN: moe-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(gpu-native-bf16-truncation))' | FileCheck %s

// A kernel's f32 -> bf16 truncations (scalar and 1-d vector, rounding to
// nearest even by default or by name) become the NVVM cvt.rn conversions
// (pairs of lanes by nvvm.convert.f32x2.to.bf16x2, src_lo the lower lane; a
// lone value by llvm.nvvm.f2bf16.rn: LLVM folds neither, so a constant NaN is
// converted by the chip too) and a signed min with 0x7FC0 (32704): cvt.rn
// gives every NaN 0x7FFF, the min gives it the bits of the integer rounding
// that the float emulation would have given it and leaves every other value
// (at most 0x7F80, or negative) alone.
// CHECK-LABEL: gpu.func @round
// CHECK-SAME:    (%[[S:[a-z0-9]+]]: f32, %[[V:[a-z0-9]+]]: vector<2xf32>, %[[W:[a-z0-9]+]]: vector<3xf32>, %[[E:[a-z0-9]+]]: f32
// CHECK:         %[[R:.*]] = llvm.call_intrinsic "llvm.nvvm.f2bf16.rn"(%[[S]]) : (f32) -> bf16
// CHECK:         %[[BITS:.*]] = llvm.bitcast %[[R]] : bf16 to i16
// CHECK:         %[[C:.*]] = llvm.mlir.constant(32704 : i16) : i16
// CHECK:         %[[MIN:.*]] = llvm.intr.smin(%[[BITS]], %[[C]]) : (i16, i16) -> i16
// CHECK:         %[[OUT:.*]] = llvm.bitcast %[[MIN]] : i16 to bf16
// CHECK:         memref.store %[[OUT]]
// CHECK:         %[[HI:.*]] = llvm.extractelement %[[V]][%{{.*}} : i64] : vector<2xf32>
// CHECK:         %[[LO:.*]] = llvm.extractelement %[[V]][%{{.*}} : i64] : vector<2xf32>
// CHECK:         %[[PAIR:.*]] = nvvm.convert.f32x2.to.bf16x2 %[[HI]], %[[LO]] {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
// CHECK-COUNT-2: llvm.insertelement
// CHECK:         %[[BITSV:.*]] = llvm.bitcast %{{.*}} : vector<2xbf16> to vector<2xi16>
// CHECK:         %[[CV:.*]] = llvm.mlir.constant(dense<32704> : vector<2xi16>) : vector<2xi16>
// CHECK:         %[[MINV:.*]] = llvm.intr.smin(%[[BITSV]], %[[CV]]) : (vector<2xi16>, vector<2xi16>) -> vector<2xi16>
// CHECK:         %[[OUTV:.*]] = llvm.bitcast %[[MINV]] : vector<2xi16> to vector<2xbf16>
// CHECK:         vector.store %[[OUTV]]
// An odd lane count: one pair, then the last lane alone.
// CHECK:         nvvm.convert.f32x2.to.bf16x2
// CHECK-NOT:     nvvm.convert.f32x2.to.bf16x2
// CHECK-COUNT-2: llvm.insertelement
// CHECK:         llvm.call_intrinsic "llvm.nvvm.f2bf16.rn"
// CHECK:         llvm.insertelement
// CHECK:         llvm.intr.smin(%{{.*}}, %{{.*}}) : (vector<3xi16>, vector<3xi16>) -> vector<3xi16>
// CHECK:         llvm.call_intrinsic "llvm.nvvm.f2bf16.rn"(%[[E]])
// CHECK-NOT:     arith.truncf
// CHECK-NOT:     llvm.fptrunc
// CHECK:         gpu.return
gpu.module @kernels {
  gpu.func @round(%s: f32, %v: vector<2xf32>, %w: vector<3xf32>, %e: f32,
                  %out: memref<2xbf16>, %outv: memref<2xbf16>,
                  %outw: memref<3xbf16>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = arith.truncf %s : f32 to bf16
    memref.store %r, %out[%c0] : memref<2xbf16>
    %rv = arith.truncf %v : vector<2xf32> to vector<2xbf16>
    vector.store %rv, %outv[%c0] : memref<2xbf16>, vector<2xbf16>
    %rw = arith.truncf %w : vector<3xf32> to vector<3xbf16>
    vector.store %rw, %outw[%c0] : memref<3xbf16>, vector<3xbf16>
    %re = arith.truncf %e to_nearest_even : f32 to bf16
    memref.store %re, %out[%c1] : memref<2xbf16>
    gpu.return
  }
}

// -----

// An elementwise kernel's row (scalar truncations gathered as bf16 bits by
// vector.from_elements) is truncated as one vector, and so converted in
// pairs; the scalars are gone. A row with another rounding mode is left as
// it is.
// CHECK-LABEL: gpu.func @row
// CHECK-SAME:    (%[[A:[a-z0-9]+]]: f32, %[[B:[a-z0-9]+]]: f32, %[[C:[a-z0-9]+]]: f32, %[[D:[a-z0-9]+]]: f32
// CHECK:         %[[ROW:.*]] = vector.from_elements %[[A]], %[[B]], %[[C]], %[[D]] : vector<4xf32>
// CHECK-COUNT-2: nvvm.convert.f32x2.to.bf16x2
// CHECK:         llvm.intr.smin(%{{.*}}, %{{.*}}) : (vector<4xi16>, vector<4xi16>) -> vector<4xi16>
// CHECK:         %[[BITS:.*]] = arith.bitcast %{{.*}} : vector<4xbf16> to vector<4xi16>
// CHECK:         vector.bitcast %[[BITS]] : vector<4xi16> to vector<4xbf16>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         arith.truncf %[[A]] toward_zero : f32 to bf16
// CHECK:         arith.truncf %[[B]] toward_zero : f32 to bf16
// CHECK:         vector.from_elements %{{.*}}, %{{.*}} : vector<2xi16>
// CHECK:         gpu.return
gpu.module @kernels {
  gpu.func @row(%a: f32, %b: f32, %c: f32, %d: f32, %out: memref<4xbf16>,
                %out2: memref<2xbf16>) kernel {
    %c0 = arith.constant 0 : index
    %ta = arith.truncf %a : f32 to bf16
    %tb = arith.truncf %b : f32 to bf16
    %tc = arith.truncf %c : f32 to bf16
    %td = arith.truncf %d : f32 to bf16
    %ia = arith.bitcast %ta : bf16 to i16
    %ib = arith.bitcast %tb : bf16 to i16
    %ic = arith.bitcast %tc : bf16 to i16
    %id = arith.bitcast %td : bf16 to i16
    %row = vector.from_elements %ia, %ib, %ic, %id : vector<4xi16>
    %v = vector.bitcast %row : vector<4xi16> to vector<4xbf16>
    vector.store %v, %out[%c0] : memref<4xbf16>, vector<4xbf16>
    %za = arith.truncf %a toward_zero : f32 to bf16
    %zb = arith.truncf %b toward_zero : f32 to bf16
    %ja = arith.bitcast %za : bf16 to i16
    %jb = arith.bitcast %zb : bf16 to i16
    %row2 = vector.from_elements %ja, %jb : vector<2xi16>
    %v2 = vector.bitcast %row2 : vector<2xi16> to vector<2xbf16>
    vector.store %v2, %out2[%c0] : memref<2xbf16>, vector<2xbf16>
    gpu.return
  }
}

// -----

// Left to the emulation: another rounding mode, other source and result
// types, and host code (the pass runs on gpu.modules).
// CHECK-LABEL: gpu.func @others
// CHECK:         arith.truncf %{{.*}} toward_zero : f32 to bf16
// CHECK:         arith.truncf %{{.*}} : f64 to bf16
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT:     llvm.fptrunc
// CHECK:         gpu.return
// CHECK-LABEL: func.func @host
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
gpu.module @kernels {
  gpu.func @others(%s: f32, %d: f64, %out: memref<2xbf16>, %half: memref<1xf16>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.truncf %s toward_zero : f32 to bf16
    memref.store %z, %out[%c0] : memref<2xbf16>
    %w = arith.truncf %d : f64 to bf16
    memref.store %w, %out[%c1] : memref<2xbf16>
    %h = arith.truncf %s : f32 to f16
    memref.store %h, %half[%c0] : memref<1xf16>
    gpu.return
  }
}
func.func @host(%s: f32) -> bf16 {
  %r = arith.truncf %s : f32 to bf16
  return %r : bf16
}
