// RUN: moe-opt %s -split-input-file --convert-moe-to-parallel-loops=warp-router | FileCheck %s
// RUN: moe-opt %s -split-input-file --convert-moe-to-parallel-loops | FileCheck %s --check-prefix=OFF

// convert-moe-to-parallel-loops{warp-router}: moe.topk over E = 64 experts
// (2 slots a lane) as a warp per token: blocks of 4 tokens (block_x) of
// 128 threads (thread_x); each lane loads experts lane and lane + 32; each
// of the K = 2 rounds is a butterfly of shuffles xor 16, 8, 4, 2, 1 on the
// (score, expert) pair; the weight of the choice is reloaded from scores;
// lane k < K stores the k-th choice. Without the option: a thread per
// token with its scratch.
// CHECK-LABEL: func.func @topk_e64(
// CHECK-SAME:    %[[S:[^:]+]]: memref<6x64xf32>, %[[B:[^:]+]]: memref<64xf32>, %[[W:[^:]+]]: memref<6x2xf32>, %[[I:[^:]+]]: memref<6x2xi32>)
// CHECK-NOT:   moe.topk
// CHECK:       scf.parallel
// CHECK:         scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c128{{.*}})
// CHECK:           %[[LANE:.*]] = arith.remui %[[T]], %c32
// CHECK:           memref.load %[[S]][%{{.*}}, %{{.*}}] : memref<6x64xf32>
// CHECK:           memref.load %[[B]]
// CHECK:           memref.load %[[S]]
// CHECK:           memref.load %[[B]]
// CHECK-COUNT-2:   gpu.shuffle  xor %{{.*}}, %c16_i32{{.*}}, %c32_i32{{.*}} :
// CHECK-COUNT-2:   gpu.shuffle  xor %{{.*}}, %c8_i32{{.*}}, %c32_i32{{.*}} :
// CHECK-COUNT-2:   gpu.shuffle  xor %{{.*}}, %c4_i32{{.*}}, %c32_i32{{.*}} :
// CHECK-COUNT-2:   gpu.shuffle  xor %{{.*}}, %c2_i32{{.*}}, %c32_i32{{.*}} :
// CHECK-COUNT-2:   gpu.shuffle  xor %{{.*}}, %c1_i32{{.*}}, %c32_i32{{.*}} :
// CHECK:           memref.load %[[S]]
// CHECK-COUNT-10:  gpu.shuffle
// CHECK-NOT:       gpu.shuffle
// CHECK:           memref.load %[[S]]
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %[[W]][%{{.*}}, %[[LANE]]] : memref<6x2xf32>
// CHECK:             memref.store %{{.*}}, %[[I]][%{{.*}}, %[[LANE]]] : memref<6x2xi32>
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
// OFF-LABEL:   func.func @topk_e64(
// OFF-NOT:     gpu.shuffle
// OFF:         memref.alloca
func.func @topk_e64(%s: memref<6x64xf32>, %b: memref<64xf32>, %w: memref<6x2xf32>, %i: memref<6x2xi32>) {
  moe.topk sigmoid %s bias %b k 2 outs(%w, %i) {normalize = #moe<normalize sum>} : memref<6x64xf32>, memref<64xf32> -> memref<6x2xf32>, memref<6x2xi32>
  return
}

// -----

// Group-limited (2 groups of 32, group score the sum of the top 2, keep 1,
// K = 2): each group's two rounds of the butterfly (its lane slot), then
// the K rounds: (2 · 2 + 2) · 10 shuffles.
// CHECK-LABEL: func.func @groups_e64(
// CHECK-COUNT-60: gpu.shuffle
// CHECK-NOT:      gpu.shuffle
// CHECK:          return
func.func @groups_e64(%s: memref<6x64xf32>, %w: memref<6x2xf32>, %i: memref<6x2xi32>) {
  moe.topk sigmoid %s k 2 outs(%w, %i) {num_groups = 2 : i64, group_topk = 1 : i64} : memref<6x64xf32> -> memref<6x2xf32>, memref<6x2xi32>
  return
}

// -----

// Where the warp schedule does not apply, the thread per token stays: 48
// experts (not a multiple of 32); 4 groups of 16 experts (a group is not
// whole lane slots); K = 40 > 32 lanes.
// CHECK-LABEL: func.func @fallbacks(
// CHECK-NOT:   gpu.shuffle
// CHECK:       return
func.func @fallbacks(%s48: memref<6x48xf32>, %w: memref<6x2xf32>, %i: memref<6x2xi32>,
                     %s64: memref<6x64xf32>, %s128: memref<6x128xf32>, %w40: memref<6x40xf32>, %i40: memref<6x40xi32>) {
  moe.topk softmax %s48 k 2 outs(%w, %i) : memref<6x48xf32> -> memref<6x2xf32>, memref<6x2xi32>
  moe.topk softmax %s64 k 2 outs(%w, %i) {num_groups = 4 : i64, group_topk = 2 : i64} : memref<6x64xf32> -> memref<6x2xf32>, memref<6x2xi32>
  moe.topk softmax %s128 k 40 outs(%w40, %i40) : memref<6x128xf32> -> memref<6x40xf32>, memref<6x40xi32>
  return
}

// -----

// moe.route softmax over E = 64 experts (2 slots a lane) as a warp per
// token: lane l loads logits l and l + 32; the max is a butterfly (shuffles
// xor 16 .. 1); the sum of the exponentials broadcasts each expert's value
// from its lane (64 shuffles idx, slot by slot) and adds them in expert
// order, as the reference does; each lane stores its two scores. Sigmoid
// needs no shuffle; E = 48 keeps the thread per token.
// CHECK-LABEL: func.func @route_softmax_e64(
// CHECK-SAME:    %[[L:[^:]+]]: memref<6x64xf32>, %[[S:[^:]+]]: memref<6x64xf32>)
// CHECK:         scf.parallel
// CHECK:           %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK:           memref.load %[[L]][%{{.*}}, %{{.*}}] : memref<6x64xf32>
// CHECK:           memref.load %[[L]][%{{.*}}, %{{.*}}] : memref<6x64xf32>
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK-NOT:       gpu.shuffle  xor
// CHECK:           math.exp
// CHECK:           math.exp
// CHECK:           gpu.shuffle  idx %{{.*}}, %c0_i32{{.*}}, %c32_i32
// CHECK-COUNT-63:  gpu.shuffle  idx
// CHECK-NOT:       gpu.shuffle
// CHECK:           arith.divf
// CHECK:           arith.divf
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %[[S]][%{{.*}}, %{{.*}}] : memref<6x64xf32>
// CHECK:             memref.store %{{.*}}, %[[S]][%{{.*}}, %{{.*}}] : memref<6x64xf32>
// OFF-LABEL:   func.func @route_softmax_e64(
// OFF-NOT:     gpu.shuffle
func.func @route_softmax_e64(%l: memref<6x64xf32>, %s: memref<6x64xf32>) {
  moe.route softmax %l outs(%s) : memref<6x64xf32> -> memref<6x64xf32>
  return
}

// -----

// CHECK-LABEL: func.func @route_sigmoid_e64(
// CHECK:         scf.parallel
// CHECK:           arith.remui %{{.*}}, %c32
// CHECK-NOT:       gpu.shuffle
// CHECK:           memref.store
// CHECK-LABEL: func.func @route_softmax_e48(
// CHECK-NOT:     gpu.shuffle
// CHECK:         return
func.func @route_sigmoid_e64(%l: memref<6x64xf32>, %s: memref<6x64xf32>) {
  moe.route sigmoid %l outs(%s) : memref<6x64xf32> -> memref<6x64xf32>
  return
}
func.func @route_softmax_e48(%l: memref<6x48xf32>, %s: memref<6x48xf32>) {
  moe.route softmax %l outs(%s) : memref<6x48xf32> -> memref<6x48xf32>
  return
}
