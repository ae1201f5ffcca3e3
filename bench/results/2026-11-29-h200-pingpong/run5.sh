#!/usr/bin/env bash
# Device call 5 (one H200): bench/layer.sh on qwen3-30b-a3b with pingpong on
# (.art/p/art), against the PyTorch formulations in the same run.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/p/art/gpu BENCH_SHAPES=qwen3-30b-a3b BENCH_REPLAY=0 \
  SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=120 \
  timeout 200 bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
echo "layer.sh rc=$?"
cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
cp "$OUT/layer/table.txt" "$OUT/layer-table-run5.txt" 2>/dev/null
tar czf "$OUT/layer-run5.tgz" -C "$OUT" layer layer.log 2>/dev/null
rm -rf "$OUT/layer" "$OUT/build.log"
