#!/usr/bin/env bash
# Device call 7 (one H200): bench/layer.sh qwen3-30b-a3b with the tree's
# kernel (.art/ga8: the adjoint in the dgrad epilogue, fast-math), against
# torch in the same call; no JAX, no graph replay (device time left).
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/ga8/gpu BENCH_SHAPES=qwen3-30b-a3b \
  SKIP_JAX=1 BENCH_REPLAY=0 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=100 \
  timeout 190 bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
echo "layer.sh rc=$?"
cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
cp "$OUT/layer/table.txt" "$OUT/layer-table-run7.txt" 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/layer"
