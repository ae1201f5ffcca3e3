// A base artifact of the fuzzer (moe-fuzz.py): an entry with float and
// integer inputs, so that mutated .npy files reach the integer conversions.
// The fuzzer writes a valid rows.npy (indices in [0, 4)) before the first run.
func.func @combine(%y: tensor<4x2xf32> {moe.name = "y"},
                   %rows: tensor<3x2xi32> {moe.name = "rows"},
                   %w: tensor<3x2xf32> {moe.name = "w"}) -> tensor<3x2xf32> {
  %init = tensor.empty() : tensor<3x2xf32>
  %out = moe.combine %y, %rows, %w outs(%init)
      : tensor<4x2xf32>, tensor<3x2xi32>, tensor<3x2xf32> -> tensor<3x2xf32>
  return %out : tensor<3x2xf32>
}
