#!/usr/bin/env bash
# Device call 3 (one H200). Artifacts from build.sh (.art/pk/art: host
# waits deferred; at these shapes gemm-block-n=auto gives every weight
# gradient 128 x 256 tiles, so pingpong does not change them):
# bench/layer.sh at dsv3-1gpu, mixtral-8x7b, seed-test (and qwen3-30b-a3b
# in the time left) against the PyTorch formulations (the fastest is the
# "torch" column; torch.compile within its time limit), balanced and
# skewed routing, plain calls and CUDA-graph replays.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((575 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
for shape in dsv3-1gpu mixtral-8x7b seed-test qwen3-30b-a3b; do
  [ "$(left 1000)" -lt 100 ] && { echo "skipped $shape: no time left"; continue; }
  echo "=== layer.sh $shape $(date +%T)"
  MOE_RUNNER=$RUNNER MOE_ARTIFACTS=.art/pk/art/gpu BENCH_SHAPES=$shape \
    SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=100 \
    timeout "$(left 180)" bench/layer.sh "$OUT/layer-$shape" > "$OUT/layer-$shape.log" 2>&1
  echo "layer.sh $shape rc=$?"
  cat "$OUT/layer-$shape/table.txt" 2>/dev/null || tail -20 "$OUT/layer-$shape.log"
  cp "$OUT/layer-$shape/table.txt" "$OUT/layer-table-$shape-run3.txt" 2>/dev/null
done
tar czf "$OUT/logs-run3.tgz" -C "$OUT" $(cd "$OUT" && ls -d layer-* | grep -v table) 2>/dev/null
rm -rf "$OUT/build.log" "$OUT"/layer-dsv3-1gpu "$OUT"/layer-mixtral-8x7b "$OUT"/layer-seed-test "$OUT"/layer-qwen3-30b-a3b
echo "=== end $(date +%T)"
