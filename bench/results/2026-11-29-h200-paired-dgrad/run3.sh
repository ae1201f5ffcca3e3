#!/usr/bin/env bash
# Device call 3 (one H200), artifacts of main with the paired dgrad kernel
# and the warp-per-row passes over rarely written rows (permute's unrouted
# rows, combine_grad's rows not named by exactly one pair):
#   1. scripts/gpu-e2e.sh on .art/ga2 (small, seed-test, qwen3-30b-a3b check
#      layers forward and backward, the NaN layer, the generated grouped
#      GEMM cases) against the CPU;
#   2. moe-runner --profile of qwen3-30b-a3b forward + backward (.art/ga2);
#   3. bench/layer.sh on qwen3-30b-a3b (balanced and skewed), against every
#      PyTorch formulation and the dense bf16 ceiling, same run;
#   4. compute-sanitizer on .art/gs2 (MOE_GEMM_MAX_STAGES=3
#      MOE_GEMM_TMA_STORE=false CHECK_ONLY=1 scripts/gpu-artifacts.sh): the
#      generated grouped GEMM cases (the paired kernels among them) under
#      memcheck, initcheck, racecheck and synccheck; small under memcheck
#      and initcheck.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
echo "=== gpu-e2e $(date +%T)"
E2E_EXAMPLES="small seed-test qwen3-30b-a3b" BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/ga2 \
  timeout 150 scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL" "$OUT/e2e.log" | head -30
echo "=== profile $(date +%T)"
timeout 60 $RUNNER .art/ga2/gpu/qwen3-30b-a3b --device gpu --entry moe_layer_fwd \
  --entry moe_layer_bwd --iters 20 --warmup 3 --profile > "$OUT/profile.txt" 2>&1
echo "profile rc=$?"
grep -E "^entry|permute|combine|grouped" "$OUT/profile.txt"
echo "=== layer $(date +%T)"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/ga2/gpu BENCH_SHAPES=qwen3-30b-a3b \
  SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=200 \
  timeout 240 bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
echo "layer.sh rc=$?"
cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
tar czf "$OUT/layer.tgz" -C "$OUT" layer 2>/dev/null
echo "=== sanitizers $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=.art/gs2 SANITIZE_ARTIFACTS="gemm small" \
  SANITIZE_TIMEOUT_S=150 timeout 170 scripts/gpu-sanitize.sh "$OUT/san" > "$OUT/sanitize.log" 2>&1
echo "gpu-sanitize rc=$?"
grep -v "^\s*$" "$OUT/sanitize.log" | tail -14
tar czf "$OUT/san-logs.tgz" -C "$OUT" san 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/san" "$OUT/layer" "$OUT/e2e"
echo "=== end $(date +%T)"
