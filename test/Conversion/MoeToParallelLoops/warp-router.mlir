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
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c6 : index
// CHECK:           memref.load %[[L]][%{{.*}}, %{{.*}}] : memref<6x64xf32>
// CHECK:           memref.load %[[L]][%{{.*}}, %{{.*}}] : memref<6x64xf32>
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK-NOT:       gpu.shuffle  xor
// CHECK:           %[[E0:.*]] = math.exp
// CHECK:           %[[E1:.*]] = math.exp
// Slot 0 (experts 0-31) broadcast from lanes 0, 1, ..., 31 in order, then
// added in that order; slot 1 (experts 32-63) likewise after it.
// CHECK:           %[[A0:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c0_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A1:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c1_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A2:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c2_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A3:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c3_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A4:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c4_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A5:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c5_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A6:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c6_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A7:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c7_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A8:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c8_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A9:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c9_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A10:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c10_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A11:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c11_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A12:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c12_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A13:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c13_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A14:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c14_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A15:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c15_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A16:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c16_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A17:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c17_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A18:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c18_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A19:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c19_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A20:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c20_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A21:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c21_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A22:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c22_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A23:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c23_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A24:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c24_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A25:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c25_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A26:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c26_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A27:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c27_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A28:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c28_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A29:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c29_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A30:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c30_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[A31:.*]], %{{.*}} = gpu.shuffle  idx %[[E0]], %c31_i32{{[_0-9]*}}, %c32_i32{{[_0-9]*}} : f32
// CHECK-NEXT:      %[[P0:.*]] = arith.addf %{{.*}}, %[[A0]] : f32
// CHECK-NEXT:      %[[P1:.*]] = arith.addf %[[P0]], %[[A1]] : f32
// CHECK-NEXT:      %[[P2:.*]] = arith.addf %[[P1]], %[[A2]] : f32
// CHECK-NEXT:      %[[P3:.*]] = arith.addf %[[P2]], %[[A3]] : f32
// CHECK-NEXT:      %[[P4:.*]] = arith.addf %[[P3]], %[[A4]] : f32
// CHECK-NEXT:      %[[P5:.*]] = arith.addf %[[P4]], %[[A5]] : f32
// CHECK-NEXT:      %[[P6:.*]] = arith.addf %[[P5]], %[[A6]] : f32
// CHECK-NEXT:      %[[P7:.*]] = arith.addf %[[P6]], %[[A7]] : f32
// CHECK-NEXT:      %[[P8:.*]] = arith.addf %[[P7]], %[[A8]] : f32
// CHECK-NEXT:      %[[P9:.*]] = arith.addf %[[P8]], %[[A9]] : f32
// CHECK-NEXT:      %[[P10:.*]] = arith.addf %[[P9]], %[[A10]] : f32
// CHECK-NEXT:      %[[P11:.*]] = arith.addf %[[P10]], %[[A11]] : f32
// CHECK-NEXT:      %[[P12:.*]] = arith.addf %[[P11]], %[[A12]] : f32
// CHECK-NEXT:      %[[P13:.*]] = arith.addf %[[P12]], %[[A13]] : f32
// CHECK-NEXT:      %[[P14:.*]] = arith.addf %[[P13]], %[[A14]] : f32
// CHECK-NEXT:      %[[P15:.*]] = arith.addf %[[P14]], %[[A15]] : f32
// CHECK-NEXT:      %[[P16:.*]] = arith.addf %[[P15]], %[[A16]] : f32
// CHECK-NEXT:      %[[P17:.*]] = arith.addf %[[P16]], %[[A17]] : f32
// CHECK-NEXT:      %[[P18:.*]] = arith.addf %[[P17]], %[[A18]] : f32
// CHECK-NEXT:      %[[P19:.*]] = arith.addf %[[P18]], %[[A19]] : f32
// CHECK-NEXT:      %[[P20:.*]] = arith.addf %[[P19]], %[[A20]] : f32
// CHECK-NEXT:      %[[P21:.*]] = arith.addf %[[P20]], %[[A21]] : f32
// CHECK-NEXT:      %[[P22:.*]] = arith.addf %[[P21]], %[[A22]] : f32
// CHECK-NEXT:      %[[P23:.*]] = arith.addf %[[P22]], %[[A23]] : f32
// CHECK-NEXT:      %[[P24:.*]] = arith.addf %[[P23]], %[[A24]] : f32
// CHECK-NEXT:      %[[P25:.*]] = arith.addf %[[P24]], %[[A25]] : f32
// CHECK-NEXT:      %[[P26:.*]] = arith.addf %[[P25]], %[[A26]] : f32
// CHECK-NEXT:      %[[P27:.*]] = arith.addf %[[P26]], %[[A27]] : f32
// CHECK-NEXT:      %[[P28:.*]] = arith.addf %[[P27]], %[[A28]] : f32
// CHECK-NEXT:      %[[P29:.*]] = arith.addf %[[P28]], %[[A29]] : f32
// CHECK-NEXT:      %[[P30:.*]] = arith.addf %[[P29]], %[[A30]] : f32
// CHECK-NEXT:      %[[P31:.*]] = arith.addf %[[P30]], %[[A31]] : f32
// CHECK:           %[[B0:.*]], %{{.*}} = gpu.shuffle  idx %[[E1]], %c0_i32{{[_0-9]*}}, %c32_i32
// CHECK:           %[[Q0:.*]] = arith.addf %[[P31]], %[[B0]] : f32
// CHECK-COUNT-30:  arith.addf
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT:       gpu.shuffle
// CHECK:           arith.divf %[[E0]], %[[SUM]]
// CHECK:           arith.divf %[[E1]], %[[SUM]]
// CHECK:           scf.if %[[IN]]
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
