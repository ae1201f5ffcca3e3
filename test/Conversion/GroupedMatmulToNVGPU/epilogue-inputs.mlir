// convert-grouped-matmul-to-nvgpu: an epilogue with inputs and destinations
// past c (moe-fuse's elementwise-epilogue form of the activation adjoint).
// Without pingpong (here K = 128: 2 k-steps) each thread loads its two
// columns of every input (row clamped to R - 1, column to N - 2: the values
// of rows past R are not stored), applies the epilogue per accumulator
// register, and stores the extra destinations two columns at a time under
// c's row mask (rows of the tile's group, columns inside N). Pingpong
// kernels (K = 256) stage the products as bf16 boxes first and run the
// epilogue over them in a loop, 8 columns a thread, the next pass's inputs
// loaded before this pass's arithmetic; c's values go back into the boxes.
// c goes out as without inputs (TMA where a block's rows are whole).
// Inputs or destinations that are strided get no kernel.
// The epilogue's arithmetic carries fast-math flags (approximate division
// and exp) unless epilogue-fast-math=false.
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu=block-n=128 | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu="block-n=128 epilogue-fast-math=false" | FileCheck %s --check-prefix=IEEE
// RUN: moe-opt %s -split-input-file --convert-grouped-matmul-to-nvgpu="block-n=128 require-all" -verify-diagnostics

// CHECK-LABEL: func.func @glu_adjoint(
// CHECK-SAME:    %[[DY:[^:]+]]: memref<1024x128xbf16>, %[[W:[^:]+]]: memref<2x192x128xbf16>, %[[S:[^:]+]]: memref<2xi32>, %[[G:[^:]+]]: memref<1024x192xbf16>, %[[U:[^:]+]]: memref<1024x192xf32>, %[[DG:[^:]+]]: memref<1024x192xbf16>, %[[DU:[^:]+]]: memref<1024x192xf32>, %[[H:[^:]+]]: memref<1024x192xbf16>)
// CHECK:       gpu.launch
// CHECK:         nvvm.wgmma.mma_async
// CHECK:         %[[GV:.*]] = vector.load %[[G]][%{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<1024x192xbf16>, vector<2xbf16>
// CHECK:         arith.extf %[[GV]] : vector<2xbf16> to vector<2xf32>
// CHECK:         vector.load %[[U]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<1024x192xf32>, vector<2xf32>
// CHECK:         math.exp %{{.*}} fastmath<arcp,contract,afn> : f32
// CHECK:         arith.divf %{{.*}}, %{{.*}} fastmath<arcp,contract,afn> : f32
// CHECK:         scf.if
// CHECK:           %[[HB:.*]] = arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// CHECK:           vector.store %{{.*}}, %[[DU]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<1024x192xf32>, vector<2xf32>
// CHECK:           vector.store %[[HB]], %[[H]][%{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<1024x192xbf16>, vector<2xbf16>
// CHECK:       memref.dealloc
// CHECK-NEXT:  return
// IEEE-LABEL: func.func @glu_adjoint(
// IEEE:         math.exp %{{.*}} : f32
// IEEE:         arith.divf %{{.*}}, %{{.*}} : f32
func.func @glu_adjoint(%dy: memref<1024x128xbf16>, %w: memref<2x192x128xbf16>, %s: memref<2xi32>, %g: memref<1024x192xbf16>, %u: memref<1024x192xf32>, %dg: memref<1024x192xbf16>, %du: memref<1024x192xf32>, %h: memref<1024x192xbf16>) {
  moe.grouped_matmul %dy, %w, %s epilogue_inputs(%g, %u : memref<1024x192xbf16>, memref<1024x192xf32>) outs(%dg, %du, %h) epilogue {
  ^bb0(%dhv: f32, %gv: f32, %uv: f32):
    %neg = arith.negf %gv : f32
    %e = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %e : f32
    %sig = arith.divf %one, %den : f32
    %a = arith.mulf %dhv, %sig : f32
    %b = arith.mulf %dhv, %uv : f32
    %hv = arith.mulf %gv, %sig : f32
    moe.yield %b, %a, %hv : f32, f32, f32
  } {weight_layout = #moe<weight_layout nk>} : memref<1024x128xbf16>, memref<2x192x128xbf16>, memref<2xi32> -> memref<1024x192xbf16>, memref<1024x192xf32>, memref<1024x192xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @glu_adjoint_staged(
// CHECK-SAME:    %{{[^:]+}}: memref<1024x256xbf16>, %{{[^:]+}}: memref<2x192x256xbf16>, %{{[^:]+}}: memref<2xi32>, %[[G:[^:]+]]: memref<1024x192xbf16>, %[[U:[^:]+]]: memref<1024x192xf32>, %{{[^:]+}}: memref<1024x192xbf16>, %[[DU:[^:]+]]: memref<1024x192xf32>)
// CHECK:       gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c384{{.*}}
// CHECK:         nvvm.wgmma.mma_async
// CHECK:         vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// CHECK:         nvvm.barrier
// CHECK:         %[[G0:.*]] = vector.load %[[G]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<1024x192xbf16>, vector<8xbf16>
// CHECK:         %[[U0:.*]] = vector.load %[[U]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<1024x192xf32>, vector<8xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c64{{.*}} step %c8{{.*}} iter_args(%{{.*}} = %[[G0]], %{{.*}} = %[[U0]]) -> (vector<8xbf16>, vector<8xf32>)
// CHECK:           vector.load %[[G]]
// CHECK:           vector.load %[[U]]
// CHECK:           %[[P:.*]] = vector.load %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:           arith.extf %[[P]] : vector<8xbf16> to vector<8xf32>
// CHECK-COUNT-8:   arith.mulf
// CHECK:           vector.store %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:           scf.if
// CHECK-NEXT:        vector.store %{{.*}}, %[[DU]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<1024x192xf32>, vector<8xf32>
// CHECK:           scf.yield %{{.*}}, %{{.*}} : vector<8xbf16>, vector<8xf32>
// CHECK:         nvvm.fence.proxy
// CHECK:         nvgpu.tma.async.store
func.func @glu_adjoint_staged(%dy: memref<1024x256xbf16>, %w: memref<2x192x256xbf16>, %s: memref<2xi32>, %g: memref<1024x192xbf16>, %u: memref<1024x192xf32>, %dg: memref<1024x192xbf16>, %du: memref<1024x192xf32>) {
  moe.grouped_matmul %dy, %w, %s epilogue_inputs(%g, %u : memref<1024x192xbf16>, memref<1024x192xf32>) outs(%dg, %du) epilogue {
  ^bb0(%dhv: f32, %gv: f32, %uv: f32):
    %a = arith.mulf %dhv, %gv : f32
    %b = arith.mulf %dhv, %uv : f32
    moe.yield %a, %b : f32, f32
  } {weight_layout = #moe<weight_layout nk>} : memref<1024x256xbf16>, memref<2x192x256xbf16>, memref<2xi32> -> memref<1024x192xbf16>, memref<1024x192xf32>
  return
}

// -----

// A strided epilogue input: no generated kernel (it stays for the runtime
// calls' lowering).
// CHECK-LABEL: func.func @strided_input(
// CHECK-NOT:   gpu.launch
// CHECK:       moe.grouped_matmul
func.func @strided_input(%dy: memref<1024x128xbf16>, %w: memref<2x192x128xbf16>, %s: memref<2xi32>, %g: memref<1024x192xbf16, strided<[256, 1]>>, %dg: memref<1024x192xbf16>) {
  // expected-error @+1 {{'moe.grouped_matmul' op has no generated GPU kernel for epilogue inputs or destinations that are dynamic or strided}}
  moe.grouped_matmul %dy, %w, %s epilogue_inputs(%g : memref<1024x192xbf16, strided<[256, 1]>>) outs(%dg) epilogue {
  ^bb0(%dhv: f32, %gv: f32):
    %a = arith.mulf %dhv, %gv : f32
    moe.yield %a : f32
  } {weight_layout = #moe<weight_layout nk>} : memref<1024x128xbf16>, memref<2x192x128xbf16>, memref<2xi32> -> memref<1024x192xbf16>
  return
}
