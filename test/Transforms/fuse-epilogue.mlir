// moe-fuse elementwise-epilogue and recompute-in-epilogue: the backward's
// activation adjoint (an elementwise linalg.generic over dh = dy · W_downᵀ
// and the saved gate and up) becomes the dgrad matmul's epilogue with gate
// and up as epilogue inputs, and the activation the backward recomputes
// from the same gate and up becomes a third destination. Products with
// other readers, inputs computed after the matmul, non-elementwise
// generics, h read before the matmul, and each option off stay as they are.
// RUN: moe-opt %s -split-input-file --moe-fuse | FileCheck %s
// RUN: moe-opt %s -split-input-file --moe-fuse=elementwise-epilogue=false | FileCheck %s --check-prefix=OFF
// RUN: moe-opt %s -split-input-file --moe-fuse=recompute-in-epilogue=false | FileCheck %s --check-prefix=NORECOMPUTE

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @glu_adjoint(
// CHECK-SAME:    %[[DY:[^:]+]]: tensor<16x32xbf16>, %[[W:[^:]+]]: tensor<2x48x32xbf16>, %[[S:[^:]+]]: tensor<2xi32>, %[[G:[^:]+]]: tensor<16x48xbf16>, %[[U:[^:]+]]: tensor<16x48xbf16>)
// CHECK:         %[[DG:.*]], %[[DU:.*]], %[[H:.*]] = moe.grouped_matmul %[[DY]], %[[W]], %[[S]] epilogue_inputs(%[[G]], %[[U]] : tensor<16x48xbf16>, tensor<16x48xbf16>) outs(%{{.*}}, %{{.*}}, %{{.*}}) epilogue {
// CHECK-NEXT:    ^bb0(%[[DH:.*]]: f32, %[[GATE:.*]]: f32, %[[UP:.*]]: f32):
// CHECK-NOT:       arith.extf
// CHECK:           %[[SIG:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:           %[[DGATE:.*]] = arith.mulf %[[DH]], %{{.*}} : f32
// CHECK:           %[[DUP:.*]] = arith.mulf %[[DH]], %[[SIG]] : f32
// CHECK:           %[[HV:.*]] = arith.mulf %{{.*}}, %[[UP]] : f32
// CHECK-NEXT:      moe.yield %[[DGATE]], %[[DUP]], %[[HV]] : f32, f32, f32
// CHECK-NEXT:    } {weight_layout = #moe<weight_layout nk>} : tensor<16x32xbf16>, tensor<2x48x32xbf16>, tensor<2xi32> -> tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<16x48xbf16>
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     moe.glu
// CHECK:         %[[WG:.*]] = moe.grouped_weight_grad %[[H]], %[[DY]], %[[S]]
// CHECK:         return %[[DG]], %[[DU]], %[[WG]]
// OFF-LABEL:   func.func @glu_adjoint(
// OFF:           moe.glu
// OFF:           moe.grouped_matmul {{.*}} outs(%{{[^,]*}}) {weight_layout
// OFF:           linalg.generic
// NORECOMPUTE-LABEL: func.func @glu_adjoint(
// NORECOMPUTE:       %[[H:.*]] = moe.glu silu
// NORECOMPUTE:       %{{.*}}, %{{.*}} = moe.grouped_matmul {{.*}} epilogue_inputs({{.*}}) outs(%{{[^,]*}}, %{{[^,]*}}) epilogue {
// NORECOMPUTE:       moe.yield %{{.*}}, %{{.*}} : f32, f32
// NORECOMPUTE-NOT:   linalg.generic
// NORECOMPUTE:       moe.grouped_weight_grad %[[H]]
func.func @glu_adjoint(%dy: tensor<16x32xbf16>, %w: tensor<2x48x32xbf16>, %s: tensor<2xi32>, %g: tensor<16x48xbf16>, %u: tensor<16x48xbf16>) -> (tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<2x48x32xbf16>) {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu silu %g, %u outs(%e0) : tensor<16x48xbf16>, tensor<16x48xbf16> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %dh = moe.grouped_matmul %dy, %w, %s outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<16x32xbf16>, tensor<2x48x32xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e2 = tensor.empty() : tensor<2x48x32xbf16>
  %wg = moe.grouped_weight_grad %h, %dy, %s outs(%e2) : tensor<16x48xbf16>, tensor<16x32xbf16>, tensor<2xi32> -> tensor<2x48x32xbf16>
  %e3 = tensor.empty() : tensor<16x48xbf16>
  %e4 = tensor.empty() : tensor<16x48xbf16>
  %d:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%g, %u, %dh : tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<16x48xbf16>) outs(%e3, %e4 : tensor<16x48xbf16>, tensor<16x48xbf16>) {
  ^bb0(%gi: bf16, %ui: bf16, %dhi: bf16, %o0: bf16, %o1: bf16):
    %gf = arith.extf %gi : bf16 to f32
    %uf = arith.extf %ui : bf16 to f32
    %dhf = arith.extf %dhi : bf16 to f32
    %neg = arith.negf %gf : f32
    %exp = math.exp %neg : f32
    %den = arith.addf %exp, %one : f32
    %sig = arith.divf %one, %den : f32
    %silu = arith.mulf %gf, %sig : f32
    %dsilu = arith.mulf %sig, %uf : f32
    %dgate = arith.mulf %dhf, %dsilu : f32
    %dup = arith.mulf %dhf, %sig : f32
    %dgb = arith.truncf %dgate : f32 to bf16
    %dub = arith.truncf %dup : f32 to bf16
    linalg.yield %dgb, %dub : bf16, bf16
  } -> (tensor<16x48xbf16>, tensor<16x48xbf16>)
  return %d#0, %d#1, %wg : tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<2x48x32xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A body that reads an element as bf16 (not only through arith.extf) sees
// the epilogue's f32 argument rounded back; a bf16 result not produced by
// an arith.truncf is yielded widened.
// CHECK-LABEL: func.func @bf16_body(
// CHECK:         moe.grouped_matmul {{.*}} epilogue_inputs(%{{.*}} : tensor<16x48xbf16>) outs(%{{[^,]*}}) epilogue {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32, %[[IN:.*]]: f32):
// CHECK-DAG:       %[[A:.*]] = arith.truncf %[[ACC]] : f32 to bf16
// CHECK-DAG:       %[[B:.*]] = arith.truncf %[[IN]] : f32 to bf16
// CHECK:           %[[M:.*]] = arith.maximumf %[[A]], %[[B]] : bf16
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[M]] : bf16 to f32
// CHECK-NEXT:      moe.yield %[[W]] : f32
func.func @bf16_body(%a: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %x: tensor<16x48xbf16>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %p = moe.grouped_matmul %a, %w, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %x : tensor<16x48xbf16>, tensor<16x48xbf16>) outs(%e1 : tensor<16x48xbf16>) {
  ^bb0(%pi: bf16, %xi: bf16, %o: bf16):
    %m = arith.maximumf %pi, %xi : bf16
    linalg.yield %m : bf16
  } -> tensor<16x48xbf16>
  return %r : tensor<16x48xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The product has another reader: it must be stored, so nothing fuses.
// CHECK-LABEL: func.func @product_read_twice(
// CHECK:         moe.grouped_matmul {{.*}} outs(%{{[^,]*}}) :
// CHECK:         linalg.generic
func.func @product_read_twice(%a: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>) -> (tensor<16x48xbf16>, tensor<16x48xbf16>) {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %p = moe.grouped_matmul %a, %w, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<16x48xbf16>) outs(%e1 : tensor<16x48xbf16>) {
  ^bb0(%pi: bf16, %o: bf16):
    %n = arith.negf %pi : bf16
    linalg.yield %n : bf16
  } -> tensor<16x48xbf16>
  return %r, %p : tensor<16x48xbf16>, tensor<16x48xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// An input computed after the matmul (from its own product's neighbour) is
// not available where the matmul runs.
// CHECK-LABEL: func.func @input_after_matmul(
// CHECK:         moe.grouped_matmul {{.*}} outs(%{{[^,]*}}) :
// CHECK:         linalg.generic
func.func @input_after_matmul(%a: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %x: tensor<16x48xbf16>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %p = moe.grouped_matmul %a, %w, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %y = arith.negf %x : tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %y : tensor<16x48xbf16>, tensor<16x48xbf16>) outs(%e1 : tensor<16x48xbf16>) {
  ^bb0(%pi: bf16, %yi: bf16, %o: bf16):
    %m = arith.addf %pi, %yi : bf16
    linalg.yield %m : bf16
  } -> tensor<16x48xbf16>
  return %r : tensor<16x48xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A broadcast input (not elementwise over [R, N]) stays a generic.
// CHECK-LABEL: func.func @broadcast_input(
// CHECK:         moe.grouped_matmul {{.*}} outs(%{{[^,]*}}) :
// CHECK:         linalg.generic
func.func @broadcast_input(%a: tensor<16x32xbf16>, %w: tensor<2x32x48xbf16>, %s: tensor<2xi32>, %x: tensor<16xf32>) -> tensor<16x48xbf16> {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %p = moe.grouped_matmul %a, %w, %s outs(%e0) : tensor<16x32xbf16>, tensor<2x32x48xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %x : tensor<16x48xbf16>, tensor<16xf32>) outs(%e1 : tensor<16x48xbf16>) {
  ^bb0(%pi: bf16, %xi: f32, %o: bf16):
    %pf = arith.extf %pi : bf16 to f32
    %m = arith.mulf %pf, %xi : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x48xbf16>
  return %r : tensor<16x48xbf16>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// h is read before the matmul: the glu stays (the adjoint still fuses).
// CHECK-LABEL: func.func @h_read_first(
// CHECK:         %[[H:.*]] = moe.glu silu
// CHECK:         moe.grouped_weight_grad %[[H]]
// CHECK:         %{{.*}} = moe.grouped_matmul {{.*}} epilogue_inputs({{.*}}) outs(%{{[^,]*}}) epilogue {
func.func @h_read_first(%dy: tensor<16x32xbf16>, %w: tensor<2x48x32xbf16>, %s: tensor<2xi32>, %g: tensor<16x48xbf16>, %u: tensor<16x48xbf16>) -> (tensor<16x48xbf16>, tensor<2x48x32xbf16>) {
  %e0 = tensor.empty() : tensor<16x48xbf16>
  %h = moe.glu silu %g, %u outs(%e0) : tensor<16x48xbf16>, tensor<16x48xbf16> -> tensor<16x48xbf16>
  %e2 = tensor.empty() : tensor<2x48x32xbf16>
  %wg = moe.grouped_weight_grad %h, %dy, %s outs(%e2) : tensor<16x48xbf16>, tensor<16x32xbf16>, tensor<2xi32> -> tensor<2x48x32xbf16>
  %e1 = tensor.empty() : tensor<16x48xbf16>
  %dh = moe.grouped_matmul %dy, %w, %s outs(%e1) {weight_layout = #moe<weight_layout nk>} : tensor<16x32xbf16>, tensor<2x48x32xbf16>, tensor<2xi32> -> tensor<16x48xbf16>
  %e3 = tensor.empty() : tensor<16x48xbf16>
  %d = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%g, %u, %dh : tensor<16x48xbf16>, tensor<16x48xbf16>, tensor<16x48xbf16>) outs(%e3 : tensor<16x48xbf16>) {
  ^bb0(%gi: bf16, %ui: bf16, %dhi: bf16, %o0: bf16):
    %gf = arith.extf %gi : bf16 to f32
    %dhf = arith.extf %dhi : bf16 to f32
    %m = arith.mulf %gf, %dhf : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<16x48xbf16>
  return %d, %wg : tensor<16x48xbf16>, tensor<2x48x32xbf16>
}
