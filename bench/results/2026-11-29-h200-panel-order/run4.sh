#!/usr/bin/env bash
# Device call 4 (one H200): run3's profile of qwen3-30b-a3b's generated GEMMs
# showed the tensor pipe 61 % busy at K = 768 and 74 % at K = 2048, the
# consumer warps stalled on the full-stage mbarrier (the stages' data late)
# and on the integer work that builds each wgmma's shared-memory
# descriptors. Three changes, timed against each other in one run:
#   .art/gg/gen-rowmajor  before (main 18a24ae's tile order);
#   .art/gg2/gen          each k-slice's descriptor = the stage's + a
#                         constant, and the f32 staging of the row-masked
#                         epilogue half as wide (128 x 128 tiles: 5 stages
#                         instead of 4; 64-row ones 8 instead of 7);
#   .art/gg3/gen          the same, and the consumers decode the next tile
#                         while the current tile's last wgmmas run.
# Then gpu-e2e on .art/ga6 (every change): the grouped GEMM cases (default,
# 2-tile panels, cuBLASLt), small and qwen3-30b-a3b forward and backward,
# the NaN and adversarial layers; and bench/layer.sh on qwen3-30b-a3b
# against the PyTorch formulations.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
bench() { # NAME SHAPES PASSES
  echo "=== generated_gemm $1 $(date +%T)"
  timeout 200 python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/gg3/gen \
    --variant stages=.art/gg2/gen --variant before=.art/gg/gen-rowmajor --out "$OUT/$1" \
    --shapes "$2" --passes "$3" --routings balanced --iters 10 --warmup 2 > "$OUT/$1.log" 2>&1
  echo "generated_gemm $1 rc=$?"
  grep -v "^==" "$OUT/$1.log" | tail -16
  cp "$OUT/$1/generated_gemm.json" "$OUT/generated_gemm-$1-run4.json" 2>/dev/null
  mv "$OUT/$1.log" "$OUT/gemm-$1-run4.log"; rm -rf "$OUT/$1"
}
bench qwen3 qwen3-30b-a3b fwd,dgrad,wgrad
bench seed seed-test fwd
echo "=== gpu-e2e $(date +%T)"
E2E_EXAMPLES="small qwen3-30b-a3b" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/ga6 \
  timeout 150 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run4.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS" "$OUT/e2e-run4.log" | head -30
echo "=== layer $(date +%T)"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/ga6/gpu BENCH_SHAPES=qwen3-30b-a3b BENCH_REPLAY=0 \
  SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=150 \
  timeout 190 bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
echo "layer.sh rc=$?"
cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
cp "$OUT/layer/table.txt" "$OUT/layer-table-run4.txt" 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/layer" "$OUT/e2e"
echo "=== end $(date +%T)"
