#!/bin/bash
# Session 7, call 5 (one H100): warp-per-token moe.route (branch warproute): qwen3 and dsv3 check-size layers
# vs the CPU (gpu-e2e), and the route/topk kernels' times, same run, warp route (.art/wr) vs main before it (.art/wr0).
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$ROOT" "$BUILD_GPU" /usr/local/cuda "$OUT/build.log" || { tail -30 "$OUT/build.log"; exit 1; }
export RUNNER
echo "== gpu-e2e (warp route)"
MOE_ARTIFACTS_ROOT=$ROOT/.art/wr MOE_RUNNER=$RUNNER E2E_EXAMPLES="qwen3-30b-a3b dsv3-1gpu" timeout 240 bash scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e.txt" 2>&1
echo "e2e rc=$?"; grep -E "^check:|FAIL|near-ties|=== done|ALL" "$OUT/e2e.txt" | tail -20
prof() { # name artifacts shape
  MOE_RUNNER=$RUNNER MOE_ARTIFACTS=$ROOT/.art/$2/gpu PROFILE_SHAPES="$3" PROFILE_ENTRIES=moe_layer_fwd PROFILE_ITERS=10 RUNNER_TIMEOUT_S=100 timeout 110 bash bench/profile.sh "$OUT/p/$1" > /dev/null 2>&1
  echo "=== $1"; cat "$OUT"/p/$1/profile-*.txt | grep -E "^entry|route|topk|gate|to_f32|matmul_f32|\(sum\)"
}
prof warp-qwen3 wr qwen3-30b-a3b
prof base-qwen3 wr0 qwen3-30b-a3b
prof warp-dsv3 wr dsv3-1gpu
prof base-dsv3 wr0 dsv3-1gpu
cd "$OUT" && tar czf logs.tgz e2e.txt p 2>/dev/null; rm -rf e2e p
