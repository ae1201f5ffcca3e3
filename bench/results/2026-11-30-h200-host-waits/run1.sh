#!/usr/bin/env bash
# Device call 1 (one H200). Artifacts from build.sh (.art/hw).
# (1) qwen3-30b-a3b's full layer profiled with the host waits deferred and
#     without (--defer-host-waits=false): entry times vs the kernels' sum;
# (2) scripts/gpu-e2e.sh: every example's check layer forward and backward
#     vs the CPU reference, GEMM cases, FP8 weight gradients, NaN and
#     adversarial layers, all compiled with the waits deferred;
# (3) bench/layer.sh, qwen3-30b-a3b against the PyTorch formulations, plain
#     calls and CUDA-graph replays, in the time left.
set -u
cd "$(dirname "$0")/../../.."
source scripts/gpu-runner-build.sh
moe_build_gpu_runner "$PWD" /tmp/rb /usr/local/cuda "$OUT/build.log"
START=$SECONDS
left() { local l=$((560 - (SECONDS - START))); [ $l -gt $1 ] && l=$1; [ $l -lt 10 ] && l=10; echo $l; }
A=.art/hw
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
echo "=== (1) profiles $(date +%T)"
for v in art/gpu nowait; do
  tag=${v%%/*}
  timeout 60 "$RUNNER" $A/$v/qwen3-30b-a3b --device gpu --entry moe_layer_fwd --entry moe_layer_bwd \
    --iters 20 --warmup 3 --profile > "$OUT/profile-qwen3-$tag-run1.txt" 2>&1
  echo "profile $tag rc=$?"
  grep -E "^entry .* median|\(sum\)" "$OUT/profile-qwen3-$tag-run1.txt"
done
echo "=== (2) gpu-e2e $(date +%T)"
BUILD_GPU=/tmp/rb MOE_ARTIFACTS_ROOT=$A/art timeout "$(left 330)" scripts/gpu-e2e.sh "$OUT/e2e" > "$OUT/e2e-run1.log" 2>&1
echo "gpu-e2e rc=$?"
grep -E "^---|^check:|FAIL|: PASS|^===" "$OUT/e2e-run1.log" | head -60
echo "=== (3) layer.sh $(date +%T)"
MOE_RUNNER=$RUNNER MOE_ARTIFACTS=$A/art/gpu BENCH_SHAPES=qwen3-30b-a3b \
  SKIP_JAX=1 BENCH_REPS=20 BENCH_WARMUP=3 TORCH_COMPILE_TIMEOUT_S=120 \
  timeout "$(left 200)" bench/layer.sh "$OUT/layer" > "$OUT/layer.log" 2>&1
echo "layer.sh rc=$?"
cat "$OUT/layer/table.txt" 2>/dev/null || tail -20 "$OUT/layer.log"
cp "$OUT/layer/table.txt" "$OUT/layer-table-run1.txt" 2>/dev/null
tar czf "$OUT/logs-run1.tgz" -C "$OUT" e2e e2e-run1.log layer layer.log 2>/dev/null
rm -rf "$OUT/build.log" "$OUT/e2e" "$OUT/layer"
echo "=== end $(date +%T)"
