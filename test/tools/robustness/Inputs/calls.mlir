// Entries that call functions: a private helper (its result memref used to
// come back through the bare-pointer convention without its alignment: the
// output was shifted by one row), another entry, and a recursive helper.
func.func private @helper(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %init1 = tensor.empty() : tensor<4x4xf32>
  %l = moe.gate %x, %w outs(%init1) : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %l : tensor<4x4xf32>
}
func.func @direct(%x: tensor<4x8xf32> {moe.name = "x"}, %w: tensor<8x4xf32> {moe.name = "w"}) -> (tensor<4x4xf32> {moe.name = "out"}) {
  %init2 = tensor.empty() : tensor<4x4xf32>
  %l = moe.gate %x, %w outs(%init2) : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %l : tensor<4x4xf32>
}
func.func @via_private(%x: tensor<4x8xf32> {moe.name = "x"}, %w: tensor<8x4xf32> {moe.name = "w"}) -> (tensor<4x4xf32> {moe.name = "out"}) {
  %l = func.call @helper(%x, %w) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %l : tensor<4x4xf32>
}
func.func @via_entry(%x: tensor<4x8xf32> {moe.name = "x"}, %w: tensor<8x4xf32> {moe.name = "w"}) -> (tensor<4x4xf32> {moe.name = "out"}) {
  %l = func.call @direct(%x, %w) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %l : tensor<4x4xf32>
}
// twice(l, n) = l · 2ⁿ, by recursion (stays a call; returns through an
// out-parameter).
func.func private @twice(%x: tensor<4x4xf32>, %n: index) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> tensor<4x4xf32> {
    scf.yield %x : tensor<4x4xf32>
  } else {
    %m = arith.subi %n, %c1 : index
    %y = arith.addf %x, %x : tensor<4x4xf32>
    %z = func.call @twice(%y, %m) : (tensor<4x4xf32>, index) -> tensor<4x4xf32>
    scf.yield %z : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}
func.func @recursive(%x: tensor<4x8xf32> {moe.name = "x"}, %w: tensor<8x4xf32> {moe.name = "w"}) -> (tensor<4x4xf32> {moe.name = "out"}) {
  %c0 = arith.constant 0 : index
  %l = func.call @helper(%x, %w) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %r = func.call @twice(%l, %c0) : (tensor<4x4xf32>, index) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
