#!/usr/bin/env bash
# Device call 3 (one H200): dsv3-1gpu with this session's compiler (46e3f5b).
# Artifacts compiled on the MLIR machine:
#   .art/wgp/{bf16-gen,bf16-lt,fp8-gen}  bench/generated_gemm.py entries
#       (bf16; --fp8 blockwise) filtered to dsv3-1gpu's two weight
#       gradients, moe-compile --gemm=generated / --gemm=cublaslt
#   .art/d    EXAMPLES=dsv3-1gpu scripts/gpu-artifacts.sh (bf16, gemm=auto)
#   .art/dfa  the same with MOE_FP8_RECIPE=blockwise MOE_FP8_WEIGHT_INPUTS=1
#             MOE_LAYER_ALIGN=128 (FP8, rows padded to 128)
# (a) the weight gradients alone, aligned / routed / skewed sizes;
# (b) bench/fp8-layer.sh dsv3-1gpu balanced: bf16 against padded FP8.
set -u
cd "$(dirname "$0")/../../.." || exit 1
start=$(date +%s)
left() { echo $((585 - ($(date +%s) - start))); }
export MOE_RUNNER_INPUT_CACHE=/dev/shm/moe-inputs
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
echo "=== (a) weight gradients alone $(date +%T)"
timeout 150 python3 bench/results/2026-12-01-h200-wgrad-release/wgrad_align.py \
  --runner "$RUNNER" --out /tmp/wa --shapes dsv3-1gpu --iters 10 \
  bf16-generated=.art/wgp/bf16-gen bf16-cublaslt=.art/wgp/bf16-lt fp8-generated=.art/wgp/fp8-gen \
  > "$OUT/wgrad-alone.md" 2>&1
echo "rc=$?"; cat "$OUT/wgrad-alone.md"
echo "=== (b) dsv3-1gpu bf16 vs padded FP8 $(date +%T), $(left) s left"
MOE_RUNNER=$RUNNER BENCH_SHAPES=dsv3-1gpu BENCH_ROUTINGS=balanced BENCH_REPS=10 \
  RUNNER_TIMEOUT_S=$(( $(left) / 2 - 15 )) \
  timeout $(( $(left) - 5 )) bench/fp8-layer.sh .art/d/gpu .art/dfa/gpu /tmp/fp8-dsv3 > "$OUT/fp8-dsv3.log" 2>&1
echo "rc=$?"; cp /tmp/fp8-dsv3/fp8.md "$OUT/fp8-dsv3.md" 2>/dev/null; cat /tmp/fp8-dsv3/fp8.md 2>/dev/null
grep -E "median|entry" /tmp/fp8-dsv3/*.log 2>/dev/null | head -20
rm -f "$OUT/build.log"
echo "=== end $(date +%T)"
