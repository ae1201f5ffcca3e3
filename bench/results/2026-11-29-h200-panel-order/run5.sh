#!/usr/bin/env bash
# Device call 5 (one H200). run4: the half-wide f32 staging (5 stages for
# 128 x 128 tiles) made qwen3-30b-a3b's N = 768 and 2048 GEMMs 13-16 %
# slower, while the descriptor change with unchanged stage counts (seed-test
# fc1, 256-wide; the weight gradients) was neutral or faster, and the
# lookahead decode neutral. The staging change is reverted:
#   .art/gg4/gen          descriptors + lookahead decode, the old staging;
#   .art/gg/gen-rowmajor  before (main 18a24ae).
# Then gpu-e2e on .art/ga7 (the same code): the grouped GEMM cases, small
# and qwen3-30b-a3b forward and backward, NaN and adversarial layers; and
# bench/layer.sh on qwen3-30b-a3b against the PyTorch formulations.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
bench() { # NAME SHAPES PASSES
  echo "=== generated_gemm $1 $(date +%T)"
  timeout 150 python3 bench/generated_gemm.py run --runner "$RUNNER" --generated .art/gg4/gen \
    --variant before=.art/gg/gen-rowmajor --out "$OUT/$1" \
    --shapes "$2" --passes "$3" --routings balanced --iters 10 --warmup 2 > "$OUT/$1.log" 2>&1
  echo "generated_gemm $1 rc=$?"
  grep -v "^==" "$OUT/$1.log" | tail -9
  cp "$OUT/$1/generated_gemm.json" "$OUT/generated_gemm-$1-run5.json" 2>/dev/null
  mv "$OUT/$1.log" "$OUT/gemm-$1-run5.log"; rm -rf "$OUT/$1"
}
bench qwen3 qwen3-30b-a3b fwd,dgrad,wgrad
echo "=== gpu-e2e $(date +%T)"
E2E_EXAMPLES="small qwen3-30b-a3b" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/ga7 \
  timeout 120 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run5.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS" "$OUT/e2e-run5.log" | head -30
echo "=== layer $(date +%T)"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/ga7/gpu BENCH_SHAPES=qwen3-30b-a3b BENCH_REPLAY=0 \
  SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=150 \
  timeout 190 bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
echo "layer.sh rc=$?"
cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
cp "$OUT/layer/table.txt" "$OUT/layer-table-run5.txt" 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/layer" "$OUT/e2e" "$OUT/layer.log"
echo "=== end $(date +%T)"
