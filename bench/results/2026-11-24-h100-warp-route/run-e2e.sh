#!/bin/bash
# Session 7, call 6 (one H100): warp route, gpu-e2e of qwen3 and dsv3 check-size layers vs the CPU (call 5 timed out).
set -u
ROOT=$PWD; export BUILD_GPU=$ROOT/build-gpu
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$ROOT" "$BUILD_GPU" /usr/local/cuda "$OUT/build.log" || { tail -30 "$OUT/build.log"; exit 1; }
MOE_ARTIFACTS_ROOT=$ROOT/.art/wr MOE_RUNNER=$RUNNER E2E_EXAMPLES="qwen3-30b-a3b dsv3-1gpu" timeout 540 bash scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e.txt" 2>&1
echo "e2e rc=$?"; grep -vE "moe-runner: \[" "$OUT/e2e.txt" | tail -45
cd "$OUT" && tar czf logs.tgz e2e.txt e2e/*.log 2>/dev/null; rm -rf e2e
