#!/usr/bin/env bash
# Device call 3 (one H200): the layers with this session's compiler.
# Artifacts compiled on the MLIR machine (EXAMPLES="qwen3-30b-a3b
# dsv3-1gpu" scripts/gpu-artifacts.sh):
#   .art/b    bf16
#   .art/f2   MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1
#   .art/fa   the same with MOE_LAYER_ALIGN=128 (rows padded to 128)
# bench/fp8-layer.sh, balanced routing, bf16 against FP8 and FP8 padded in
# the same call on the same inputs: qwen3-30b-a3b, then dsv3-1gpu while the
# time lasts.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((540 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
for shape in qwen3-30b-a3b dsv3-1gpu; do
  echo "=== $shape $(date +%T), $(left) s left"
  [ "$(left)" -gt 120 ] || { echo "skip $shape"; continue; }
  MOE_RUNNER=$RUNNER BENCH_SHAPES=$shape BENCH_ROUTINGS=balanced BENCH_REPS=10 \
    RUNNER_TIMEOUT_S=$(( $(left) / 3 - 5 )) \
    FP8_VARIANT_ART=.art/fa/gpu FP8_VARIANT_LABEL="FP8, rows padded to 128" \
    timeout $(( $(left) - 5 )) bench/fp8-layer.sh .art/b/gpu .art/f2/gpu /tmp/fp8-$shape
  echo "rc=$?"; cp /tmp/fp8-$shape/fp8.md "$OUT/fp8-$shape.md" 2>/dev/null
  tar czf "$OUT/fp8-$shape-logs.tgz" -C /tmp fp8-$shape --exclude inputs 2>/dev/null
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
