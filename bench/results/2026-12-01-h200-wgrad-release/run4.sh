#!/usr/bin/env bash
# Device call 4 (one H200, the session's last ~300 s of device time): the
# layer with run3's kernel against the same layer before it, same call:
#   .art/f37/gpu    FP8 blockwise, FP8 weight inputs, producer zeroing
#   .art/f34v       the same qwen3-30b-a3b layer at 010f14b (consumer zeroing;
#                   last session's .art/f34/qwen3, renamed for the bench)
#   .art/b36/gpu    bf16
# bench/fp8-layer.sh on qwen3-30b-a3b, balanced and skewed routing.
set -u
cd "$(dirname "$0")/../../.." || exit 1
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== bench/fp8-layer.sh qwen3-30b-a3b $(date +%T)"
MOE_RUNNER=$RUNNER BENCH_SHAPES=qwen3-30b-a3b RUNNER_TIMEOUT_S=80 \
  FP8_VARIANT_ART=.art/f34v FP8_VARIANT_LABEL="FP8 before (consumer zeroing)" \
  timeout 250 bench/fp8-layer.sh .art/b36/gpu .art/f37/gpu /tmp/fp8-q
echo "rc=$?"; cp /tmp/fp8-q/fp8.md "$OUT"/fp8-qwen3-30b-a3b.md 2>/dev/null
grep -h "median" /tmp/fp8-q/*.log 2>/dev/null | head -20
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
