#!/usr/bin/env bash
# Device call 3 (one H200): bench/fp8-layer.sh on dsv3-1gpu, bf16 (.art/b17,
# the bf16 layer of 92553e6's compiler: its bf16 code is unchanged since)
# against FP8 blockwise with FP8 weight inputs (.art/f4), balanced then
# skewed routing, with the dense bf16 and FP8 ceilings. Each moe-runner
# call draws dsv3's 22 GB of bf16 weights on the host (about 95 s), so the
# four calls nearly fill a device call: the whole script is bounded.
set -u
cd "$(dirname "$0")/../../.." || exit 1
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== bench/fp8-layer.sh dsv3-1gpu $(date +%T)"
MOE_RUNNER=$RUNNER RUNNER_TIMEOUT_S=200 BENCH_SHAPES=dsv3-1gpu \
  timeout 505 bench/fp8-layer.sh .art/b17/gpu .art/f4/gpu /tmp/fp8-layer
echo "rc=$? $(date +%T)"
cp /tmp/fp8-layer/fp8.md "$OUT"/ 2>/dev/null
tar czf "$OUT/fp8-layer-run3.tgz" -C /tmp --exclude=fp8-layer/inputs fp8-layer 2>/dev/null
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
