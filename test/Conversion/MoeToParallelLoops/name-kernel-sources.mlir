// RUN: moe-opt %s --moe-name-kernel-sources --mlir-print-debuginfo | FileCheck %s

// moe-name-kernel-sources: moe ops are named after themselves, linalg ops
// "elementwise" or "reduction"; a NameLoc stays; other ops keep theirs.

// CHECK-LABEL: func.func @named(
// CHECK:         moe.combine_grad {{.*}} loc(#[[CG:[a-z0-9]+]])
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK:         } loc(#[[EW:[a-z0-9]+]])
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK:         } loc(#[[RED:[a-z0-9]+]])
// CHECK:         linalg.generic
// CHECK:         } loc(#[[MINE:[a-z0-9]+]])
// CHECK:         return loc(#[[RET:[a-z0-9]+]])
// CHECK-DAG:   #[[SRC:[a-z0-9]+]] = loc("src.mlir":1:1)
// CHECK-DAG:   #[[CG]] = loc("combine_grad"(#[[SRC]]))
// CHECK-DAG:   #[[EW]] = loc("elementwise"(#[[SRC]]))
// CHECK-DAG:   #[[RED]] = loc("reduction"(#[[SRC]]))
// CHECK-DAG:   #[[MINE]] = loc("mine"(#[[SRC]]))
// CHECK-DAG:   #[[RET]] = loc("src.mlir":2:1)
#map = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
func.func @named(%dout: memref<4x8xf32>, %y: memref<10x8xf32>, %rows: memref<4x2xi32>, %w: memref<4x2xf32>,
                 %dy: memref<10x8xf32>, %dw: memref<4x2xf32>, %a: memref<8xf32>, %s: memref<f32>) {
  moe.combine_grad %dout, %y, %rows, %w outs(%dy, %dw) : memref<4x8xf32>, memref<10x8xf32>, memref<4x2xi32>, memref<4x2xf32> -> memref<10x8xf32>, memref<4x2xf32> loc("src.mlir":1:1)
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : memref<8xf32>) outs(%a : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } loc("src.mlir":1:1)
  linalg.generic {indexing_maps = [#map, #sum], iterator_types = ["reduction"]} ins(%a : memref<8xf32>) outs(%s : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.addf %in, %acc : f32
    linalg.yield %t : f32
  } loc("src.mlir":1:1)
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : memref<8xf32>) outs(%a : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } loc("mine"("src.mlir":1:1))
  return loc("src.mlir":2:1)
}
