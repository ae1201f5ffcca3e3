// RUN: moe-runner %s --device cpu --print | FileCheck %s

// moe.route sqrtsoftplus: s = √softplus(x), softplus(x) = x for x > 20, else
// log1p(e^x).
//
// Derivation (python3 math at writing time), softplus → s:
//   x = 0:    log1p(1)          = 0.6931471806  → 0.8325546112
//   x = 1:    log1p(e)          = 1.313261688   → 1.145976303
//   x = −1:   log1p(e^-1)       = 0.3132616875  → 0.5596978538
//   x = 2:    log1p(e^2)        = 2.126928011   → 1.458399126
//   x = 5:    log1p(e^5)        = 5.006715348   → 2.237569071
//   x = −5:   log1p(e^-5)       = 0.006715348489 → 0.08194722991
//   x = −30:  log1p(9.36e-14)   = 9.357622969e-14 → 3.059023205e-07
//             (log(1 + e^x) in f32 would give 0: this checks a real log1p)
//   x = 20:   not > 20: log1p(e^20) = 20.000000002 → 20 in f32 → 4.472135955
//   x > 20 branch, softplus(x) = x:
//   x = 20.5: → √20.5 = 4.527692569
//   x = 25:   → 5;  x = 100 → 10;  x = 400 → 20  (exact; e^100 and e^400
//             overflow f32, so these also check the branch is taken)
//   x = −0.5: 0.4740769842 → 0.6885324859
//   x = 0.5:  0.9740769842 → 0.986953385
//   x = 10:   10.0000454   → 3.162284838
//   x = −10:  4.539889922e-05 → 0.006737870525
func.func @route_sqrtsoftplus() -> tensor<4x4xf32> {
  %l = arith.constant dense<[[0.0, 1.0, -1.0, 2.0], [5.0, -5.0, -30.0, 20.0],
                             [20.5, 25.0, 100.0, 400.0], [-0.5, 0.5, 10.0, -10.0]]> : tensor<4x4xf32>
  %init1 = tensor.empty() : tensor<4x4xf32>
  %s = moe.route sqrtsoftplus %l outs(%init1) : tensor<4x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
// CHECK: result0 = [0.832554{{[3-8][0-9]*}}, 1.14597{{[5-6][0-9]*}}, 0.55969{{[7-8][0-9]*}}, 1.45839{{[8-9][0-9]*}}, 2.23756{{[8-9][0-9]*}}, 0.0819472{{[0-5][0-9]*}}, 3.05902{{[2-4][0-9]*}}e-07, 4.47213{{[4-7][0-9]*}}, 4.52769{{[1-3][0-9]*}}, 5, 10, 20, 0.688532{{[2-7][0-9]*}}, 0.986953{{[0-6][0-9]*}}, 3.16228{{[3-5][0-9]*}}, 0.0067378{{[6-7][0-9]*}}]
