// An f32 contraction of dynamic shape: the GPU lowering keeps it in true
// fp32 (moert_entry_matmul_f32); static ones split into bf16 parts
// (moert_entry_matmul_bf16).
func.func @dynamic_router_grad(%g: memref<?x8xf32>, %w: memref<40x8xf32>, %dx: memref<?x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(t, h, e) -> (t, e)>, affine_map<(t, h, e) -> (h, e)>, affine_map<(t, h, e) -> (t, h)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%g, %w : memref<?x8xf32>, memref<40x8xf32>) outs(%dx : memref<?x40xf32>) {
  ^bb0(%ga: f32, %wa: f32, %acc: f32):
    %m = arith.mulf %ga, %wa : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
