#!/usr/bin/env bash
# Device call 2 (one H200): the layers with bf16 pairs rounded by
# cvt.rn.bf16x2.f32 + min.s16x2 (this session's compiler, 46e3f5b).
# Artifacts compiled on the MLIR machine (scripts/gpu-artifacts.sh, full
# shapes, EXAMPLES="qwen3-30b-a3b seed-test"):
#   .art/b    bf16, defaults
#   .art/bi   bf16, MOE_BF16_INSTRUCTIONS=false (the float emulation's
#             integer rounding in every kernel, as before 9be0305)
#   .art/f2   qwen3-30b-a3b, MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1
# (1) ours alone, integer rounding then cvt pairs then integer again
#     (bench/layer.sh SKIP_PEERS=1, balanced, no replay);
# (2) bench/fp8-layer.sh qwen3-30b-a3b balanced: bf16 against FP8;
# (3) bench/layer.sh with the PyTorch formulations (no JAX), qwen3-30b-a3b
#     then seed-test while the time lasts.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((585 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
export MOE_RUNNER=$RUNNER
echo "=== (1) ours alone: integer / cvt pairs / integer $(date +%T)"
n=0
for art in bi b bi; do
  n=$((n + 1))
  MOE_ARTIFACTS=.art/$art/gpu BENCH_SHAPES=qwen3-30b-a3b,seed-test BENCH_ROUTINGS=balanced \
    SKIP_PEERS=1 BENCH_REPLAY=0 BENCH_REPS=20 timeout 120 bench/layer.sh /tmp/ours-$n-$art > /dev/null 2>&1
  echo "--- $art rc=$?"; cp /tmp/ours-$n-$art/table.txt "$OUT/ours-$n-$art.txt" 2>/dev/null
  grep -E "fwd" /tmp/ours-$n-$art/table.txt
done
echo "=== (2) FP8 vs bf16, qwen3-30b-a3b $(date +%T), $(left) s left"
BENCH_SHAPES=qwen3-30b-a3b BENCH_ROUTINGS=balanced BENCH_REPS=20 RUNNER_TIMEOUT_S=60 \
  timeout 150 bench/fp8-layer.sh .art/b/gpu .art/f2/gpu /tmp/fp8 > "$OUT/fp8.log" 2>&1
echo "rc=$?"; cp /tmp/fp8/fp8.md "$OUT/fp8-qwen3.md" 2>/dev/null; cat /tmp/fp8/fp8.md 2>/dev/null | head -30
for shape in qwen3-30b-a3b seed-test; do
  echo "=== (3) layer.sh $shape with torch $(date +%T), $(left) s left"
  [ "$(left)" -gt 100 ] || { echo "skip $shape"; continue; }
  MOE_ARTIFACTS=.art/b/gpu BENCH_SHAPES=$shape SKIP_JAX=1 BENCH_REPS=20 \
    TORCH_COMPILE_TIMEOUT_S=$(( $(left) / 2 )) TORCH_TIMEOUT_S=$(( $(left) - 40 )) \
    timeout $(( $(left) - 5 )) bench/layer.sh /tmp/layer-$shape > "$OUT/layer-$shape.log" 2>&1
  echo "rc=$?"; cp /tmp/layer-$shape/table.txt "$OUT/layer-$shape.txt" 2>/dev/null
  cat /tmp/layer-$shape/table.txt 2>/dev/null
done
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
