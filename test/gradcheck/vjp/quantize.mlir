// moe.quantize / moe.dequantize are straight-through (rounding to FP8 is
// piecewise constant, so finite differences do not apply): the adjoint of
// dequantize is dq = dy·scale and that of quantize dx = dq / scale, so a
// quantize → dequantize pair passes the cotangent d_y to d_x unchanged, up
// to the rounding of (dy·s)/s in f32 (at most 1 ulp; in practice ~10% of the
// values differ in the last bit). moe-runner runs each X_bwd (after X_fwd)
// and dumps d_y (the random cotangent) and d_x; Inputs/npy-compare.py checks
// that they agree to 2.5e-7 relative (2 ulp), for each recipe and both FP8
// formats.
// RUN: moe-opt %s --moe-generate-vjp -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=IR
// RUN: moe-compile --quiet %t.mlir -o %t
// RUN: rm -rf %t.dump
// RUN: moe-runner %t --device cpu --entry qdq_tensorwise_bwd --entry qdq_delayed_bwd --entry qdq_block_1x128_bwd \
// RUN:   --entry qdq_block_128x128_bwd --seed 1 --dump %t.dump | FileCheck %s --check-prefix=RUNNER
// RUN: %npy_compare %t.dump/qdq_tensorwise_bwd/d_y.npy %t.dump/qdq_tensorwise_bwd/d_x.npy --rtol 2.5e-7 | FileCheck %s
// RUN: %npy_compare %t.dump/qdq_delayed_bwd/d_y.npy %t.dump/qdq_delayed_bwd/d_x.npy --rtol 2.5e-7 | FileCheck %s
// RUN: %npy_compare %t.dump/qdq_block_1x128_bwd/d_y.npy %t.dump/qdq_block_1x128_bwd/d_x.npy --rtol 2.5e-7 | FileCheck %s
// RUN: %npy_compare %t.dump/qdq_block_128x128_bwd/d_y.npy %t.dump/qdq_block_128x128_bwd/d_x.npy --rtol 2.5e-7 | FileCheck %s
// RUN: rm -rf %t.dump2
// RUN: moe-runner %t --device cpu --entry qdq_tensorwise_bwd --entry qdq_block_1x128_bwd --seed 2 --dump %t.dump2 > %t.out2
// RUN: %npy_compare %t.dump2/qdq_tensorwise_bwd/d_y.npy %t.dump2/qdq_tensorwise_bwd/d_x.npy --rtol 2.5e-7 | FileCheck %s
// RUN: %npy_compare %t.dump2/qdq_block_1x128_bwd/d_y.npy %t.dump2/qdq_block_1x128_bwd/d_x.npy --rtol 2.5e-7 | FileCheck %s
// A wrong adjoint (here: the cotangent itself against the forward output) fails.
// RUN: not %npy_compare %t.dump/qdq_tensorwise_bwd/d_y.npy %t.dump/qdq_tensorwise_fwd/y.npy --rtol 2.5e-7

// CHECK: d_y.npy vs {{.*}}/d_x.npy: {{[0-9]+}} values, {{[0-9]+}} bit-identical, max rel diff

// Each backward takes only the scale as a residual and returns d_x.
// IR-LABEL: func.func @qdq_tensorwise_bwd(
// IR-SAME:  %{{.*}}: tensor<f32> {moe.name = "res0", moe.role = "residual"}, %{{.*}}: tensor<16x8xf32> {moe.name = "d_y", moe.role = "cotangent"}) -> (tensor<16x8xf32> {moe.name = "d_x", moe.role = "gradient"})
// IR-LABEL: func.func @qdq_block_128x128_bwd(
// IR-SAME:  %{{.*}}: tensor<2x1x2xf32> {moe.name = "res0", moe.role = "residual"}, %{{.*}}: tensor<2x16x200xf32> {moe.name = "d_y", moe.role = "cotangent"}) -> (tensor<2x16x200xf32> {moe.name = "d_x", moe.role = "gradient"})

// RUNNER-COUNT-4: d_x gradient

func.func @qdq_tensorwise(%x: tensor<16x8xf32> {moe.name = "x"}) -> (tensor<16x8xf32> {moe.name = "y"}) {
  %init1 = tensor.empty() : tensor<16x8xf8E4M3FN>
  %init2 = tensor.empty() : tensor<f32>
  %q, %s = moe.quantize tensorwise %x outs(%init1, %init2) : tensor<16x8xf32> -> tensor<16x8xf8E4M3FN>, tensor<f32>
  %init3 = tensor.empty() : tensor<16x8xf32>
  %y = moe.dequantize tensorwise %q, %s outs(%init3) : tensor<16x8xf8E4M3FN>, tensor<f32> -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

func.func @qdq_delayed(%x: tensor<16x8xf32> {moe.name = "x"}, %h: tensor<4xf32> {moe.name = "amax_history"})
    -> (tensor<16x8xf32> {moe.name = "y"}, tensor<4xf32> {moe.name = "new_amax_history"}) {
  %init4 = tensor.empty() : tensor<16x8xf8E5M2>
  %init5 = tensor.empty() : tensor<f32>
  %q, %s, %nh = moe.quantize delayed %x outs(%init4, %init5, %h) : tensor<16x8xf32> -> tensor<16x8xf8E5M2>, tensor<f32>, tensor<4xf32>
  %init6 = tensor.empty() : tensor<16x8xf32>
  %y = moe.dequantize delayed %q, %s outs(%init6) : tensor<16x8xf8E5M2>, tensor<f32> -> tensor<16x8xf32>
  return %y, %nh : tensor<16x8xf32>, tensor<4xf32>
}

func.func @qdq_block_1x128(%x: tensor<16x200xf32> {moe.name = "x"}) -> (tensor<16x200xf32> {moe.name = "y"}) {
  %init7 = tensor.empty() : tensor<16x200xf8E5M2>
  %init8 = tensor.empty() : tensor<16x2xf32>
  %q, %s = moe.quantize block_1x128 %x outs(%init7, %init8) : tensor<16x200xf32> -> tensor<16x200xf8E5M2>, tensor<16x2xf32>
  %init9 = tensor.empty() : tensor<16x200xf32>
  %y = moe.dequantize block_1x128 %q, %s outs(%init9) : tensor<16x200xf8E5M2>, tensor<16x2xf32> -> tensor<16x200xf32>
  return %y : tensor<16x200xf32>
}

func.func @qdq_block_128x128(%x: tensor<2x16x200xf32> {moe.name = "x"}) -> (tensor<2x16x200xf32> {moe.name = "y"}) {
  %init10 = tensor.empty() : tensor<2x16x200xf8E4M3FN>
  %init11 = tensor.empty() : tensor<2x1x2xf32>
  %q, %s = moe.quantize block_128x128 %x outs(%init10, %init11) : tensor<2x16x200xf32> -> tensor<2x16x200xf8E4M3FN>, tensor<2x1x2xf32>
  %init12 = tensor.empty() : tensor<2x16x200xf32>
  %y = moe.dequantize block_128x128 %q, %s outs(%init12) : tensor<2x16x200xf8E4M3FN>, tensor<2x1x2xf32> -> tensor<2x16x200xf32>
  return %y : tensor<2x16x200xf32>
}
