#!/usr/bin/env bash
# Device call 4 (one H200): FP8 blockwise with bf16 weight gradients
# (.art/f6w: moe-fp8-placement gemms=fc1,fc2,forward,dgrad, this session's
# compiler) against bf16 (.art/b17), bench/fp8-layer.sh: dsv3-1gpu balanced,
# then seed-test and qwen3-30b-a3b skewed, as far as the call's time goes.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((470 - ($(date +%s) - start))); }
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== dsv3-1gpu balanced $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER BENCH_SHAPES=dsv3-1gpu BENCH_ROUTINGS=balanced \
  timeout 330 bench/fp8-layer.sh .art/b17/gpu .art/f6w/gpu /tmp/fw-dsv3
echo "rc=$? $(date +%T)"
cp /tmp/fw-dsv3/fp8.md "$OUT"/fp8-dsv3.md 2>/dev/null
echo "=== seed-test, qwen3-30b-a3b skewed $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER BENCH_SHAPES=seed-test,qwen3-30b-a3b BENCH_ROUTINGS=skewed RUNNER_TIMEOUT_S=60 \
  timeout $(( $(left) - 5 )) bench/fp8-layer.sh .art/b17/gpu .art/f6w/gpu /tmp/fw-skewed
echo "rc=$? $(date +%T)"
cp /tmp/fw-skewed/fp8.md "$OUT"/fp8-skewed.md 2>/dev/null
tar czf "$OUT/fp8-layer-run4.tgz" -C /tmp --exclude=fw-dsv3/inputs --exclude=fw-skewed/inputs fw-dsv3 fw-skewed 2>/dev/null
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
