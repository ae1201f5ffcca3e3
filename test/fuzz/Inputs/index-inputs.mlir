// A base artifact of the fuzzer (moe-fuzz.py): entries that take integer
// inputs (expert indices, row numbers, group sizes) with the float ones, so
// that mutated .npy files reach the integer conversions and the compiled
// code meets out-of-range, negative and huge index values. The fuzzer writes
// valid integer inputs before the first run: indices in [0, 4) for 4
// experts, rows a permutation of [0, 6), group sizes summing to 6 rows.
// Whatever the values, no entry may read or write out of bounds
// (DispatchLoops.cpp, MatmulLoops.cpp, CombineGradLoops.cpp, RouterLoops.cpp
// say what each op does with them; moe.permute_rows's GPU schedule is
// ParallelSchedules.cpp's RowScatter).
func.func @combine(%y: tensor<6x2xf32> {moe.name = "y"},
                   %rows: tensor<3x2xi32> {moe.name = "rows"},
                   %w: tensor<3x2xf32> {moe.name = "w"}) -> tensor<3x2xf32> {
  %init = tensor.empty() : tensor<3x2xf32>
  %out = moe.combine %y, %rows, %w outs(%init)
      : tensor<6x2xf32>, tensor<3x2xi32>, tensor<3x2xf32> -> tensor<3x2xf32>
  return %out : tensor<3x2xf32>
}

func.func @combine_grad(%dout: tensor<3x2xbf16> {moe.name = "dout"},
                        %y: tensor<6x2xbf16> {moe.name = "y"},
                        %rows: tensor<3x2xi32> {moe.name = "rows"},
                        %w: tensor<3x2xf32> {moe.name = "w"})
    -> (tensor<6x2xbf16>, tensor<3x2xf32>) {
  %i0 = tensor.empty() : tensor<6x2xbf16>
  %i1 = tensor.empty() : tensor<3x2xf32>
  %dy, %dw = moe.combine_grad %dout, %y, %rows, %w outs(%i0, %i1)
      : tensor<3x2xbf16>, tensor<6x2xbf16>, tensor<3x2xi32>, tensor<3x2xf32>
      -> tensor<6x2xbf16>, tensor<3x2xf32>
  return %dy, %dw : tensor<6x2xbf16>, tensor<3x2xf32>
}

func.func @permute(%x: tensor<3x2xbf16> {moe.name = "x"},
                   %indices: tensor<3x2xi32> {moe.name = "indices"})
    -> (tensor<10x2xbf16>, tensor<4xi32>, tensor<3x2xi32>) {
  %i0 = tensor.empty() : tensor<10x2xbf16>
  %i1 = tensor.empty() : tensor<4xi32>
  %i2 = tensor.empty() : tensor<3x2xi32>
  %xs, %sizes, %rows = moe.permute %x, %indices experts 4 align 2 outs(%i0, %i1, %i2)
      : tensor<3x2xbf16>, tensor<3x2xi32> -> tensor<10x2xbf16>, tensor<4xi32>, tensor<3x2xi32>
  return %xs, %sizes, %rows : tensor<10x2xbf16>, tensor<4xi32>, tensor<3x2xi32>
}

// The permute's rows carry other token data there (FP8 scales): a row
// outside [0, 6) moves nothing.
func.func @permute_rows(%s: tensor<3x2xf32> {moe.name = "s"},
                        %rows: tensor<3x2xi32> {moe.name = "rows"}) -> tensor<6x2xf32> {
  %init = tensor.empty() : tensor<6x2xf32>
  %out = moe.permute_rows %s, %rows outs(%init)
      : tensor<3x2xf32>, tensor<3x2xi32> -> tensor<6x2xf32>
  return %out : tensor<6x2xf32>
}

func.func @grouped_matmul(%a: tensor<6x3xbf16> {moe.name = "a"},
                          %b: tensor<4x3x2xbf16> {moe.name = "b"},
                          %sizes: tensor<4xi32> {moe.name = "sizes"}) -> tensor<6x2xbf16> {
  %init = tensor.empty() : tensor<6x2xbf16>
  %c = moe.grouped_matmul %a, %b, %sizes outs(%init)
      : tensor<6x3xbf16>, tensor<4x3x2xbf16>, tensor<4xi32> -> tensor<6x2xbf16>
  return %c : tensor<6x2xbf16>
}

func.func @grouped_weight_grad(%a: tensor<6x3xbf16> {moe.name = "a"},
                               %dc: tensor<6x2xbf16> {moe.name = "dc"},
                               %sizes: tensor<4xi32> {moe.name = "sizes"}) -> tensor<4x3x2xbf16> {
  %init = tensor.empty() : tensor<4x3x2xbf16>
  %db = moe.grouped_weight_grad %a, %dc, %sizes outs(%init)
      : tensor<6x3xbf16>, tensor<6x2xbf16>, tensor<4xi32> -> tensor<4x3x2xbf16>
  return %db : tensor<4x3x2xbf16>
}

func.func @aux_loss(%scores: tensor<3x4xf32> {moe.name = "scores"},
                    %indices: tensor<3x2xi32> {moe.name = "indices"}) -> tensor<f32> {
  %init = tensor.empty() : tensor<f32>
  %loss = moe.aux_loss batch %scores, %indices from softmax coeff 1.000000e-02 outs(%init)
      : tensor<3x4xf32>, tensor<3x2xi32> -> tensor<f32>
  return %loss : tensor<f32>
}
